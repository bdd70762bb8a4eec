"""Order sheets: loading what the check needs, saving drafts, submitting before the deadline."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils import timezone

from briternia.errors import DomainError
from kingdoms.models import Army, Kingdom
from kingdoms.rules.tables import ArmyType
from kingdoms.services.spending import spending_rosters_load
from kingdoms.services.world import world_load

from ..entries import entries_to_json
from ..models import OrderSheet, OrderSubmission, Turn
from ..rules.schedule import deadline_text
from ..rules.sheets import SheetCheck, SheetContext, SheetEntries, SheetProblem, order_sheet_check, order_sheet_context
from .emails import orders_receipt_queue
from .turns import schedule_of


def order_sheet_context_load(*, kingdom: Kingdom, turn: Turn) -> SheetContext:
    """Everything the sheet check needs: the campaign's world as `turn` finds it, seen by the
    kingdom, with every name it has given an army; in a fixed number of queries whatever the
    map's size."""
    world = world_load(campaign=kingdom.campaign, turn_number=turn.number)
    names = frozenset(Army.objects.filter(kingdom=kingdom).values_list("name", flat=True))
    roster = spending_rosters_load(campaign=kingdom.campaign, kingdom=kingdom.id)[kingdom.id]
    return order_sheet_context(world, kingdom.id, army_names=names, roster=roster)


def order_sheet_gold(ctx: SheetContext) -> dict[str, int]:
    """What a sheet may spend: the treasury and this turn's taxes, net of Imperial Taxation
    (1. Tally Gold comes before 3. Create / Upgrade Armies)."""
    return {"treasury": ctx.treasury, "taxes": ctx.taxes, "available": ctx.treasury + ctx.taxes}


def lists_due_data(*, ctx: SheetContext, turn: Turn) -> list[dict[str, Any]]:
    """The kingdom's armies whose list is due, and by when: this turn's orders deadline (the first
    deadline after the army was raised or upgraded: its list is wanted before it may move, support
    or be fought for by the turn's battles). Until then, and after if late, it counts at the points
    paid for it (docs/rules-decisions.md, decision 26a)."""
    if ctx.army_type is ArmyType.ANCIENT_DEAD:
        return []  # their armies fight at their opponent's size less 250: no list is wanted (decision 101)
    deadline = deadline_text(turn.orders_deadline, turn.campaign.time_zone)
    rows = []
    for army in ctx.lists_due:
        paid = f"the {army.size:,} points paid for it"
        if army.losses_before_list:
            paid += f", less the {army.losses_before_list:,} it lost since (leave them out of the list)"
        rows.append(
            {
                "army": army.id,
                "name": army.name,
                "points": army.points,
                "due": turn.orders_deadline,
                "message": f"{army.name}: its list is due; enter it by {deadline}. Until it is entered the army "
                f"counts at {paid} (Army Restrictions).",
            }
        )
    return rows


def orders_open_errors(turn: Turn, now: dt.datetime) -> list[str]:
    """Why no sheet may be filed for `turn` now; the server's clock decides, worker or not."""
    if turn.status != Turn.Status.ORDERS_OPEN:
        return [f"The orders of turn {turn.number} are closed ({turn.get_status_display().lower()})."]
    if schedule_of(turn.campaign).paused:
        return []  # while the campaign is paused no deadline passes
    if now > turn.orders_deadline:
        deadline = deadline_text(turn.orders_deadline, turn.campaign.time_zone)
        return [
            f"The orders deadline of turn {turn.number} was {deadline}; this sheet arrived after it and is refused."
        ]
    return []


def order_sheet_problems_data(problems: Iterable[SheetProblem], names: Mapping[int, str]) -> list[dict[str, Any]]:
    """The sheet check's problems as the API gives them (and the order page places them): the
    stable code, the army whose row it belongs to and every army it concerns (ids), the words
    without the army's name, and the message that names it once."""
    return [
        {
            "code": p.code.value,
            "army": p.army,
            "armies": list(p.armies),
            "text": p.text,
            "message": p.message(names),
        }
        for p in problems
    ]


@dataclass(frozen=True)
class SheetResult:
    sheet: OrderSheet
    check: SheetCheck
    lists_due: list[dict[str, Any]]  # lists_due_data: the kingdom's army lists due, and by when


@transaction.atomic
def order_sheet_save(
    *,
    kingdom: Kingdom,
    turn: Turn,
    entries: SheetEntries,
    submitted_by: AbstractBaseUser,
    submit: bool,
    now: dt.datetime | None = None,
) -> SheetResult:
    """Save the kingdom's sheet as a draft, or submit it.

    A draft is kept even with errors, so a player can come back to it; a submission with any
    error is refused whole and changes nothing. Each submission is kept and confirmed by email;
    the last one stands. Nothing is accepted after the orders deadline.
    """
    now = now or timezone.now()
    turn = Turn.objects.select_for_update().select_related("campaign").get(pk=turn.pk)
    if kingdom.campaign_id != turn.campaign_id:
        raise DomainError("This kingdom is not in this turn's campaign.")
    errors = orders_open_errors(turn, now)
    if errors:
        raise DomainError(errors)
    ctx = order_sheet_context_load(kingdom=kingdom, turn=turn)
    check = order_sheet_check(entries, ctx)
    lists_due = lists_due_data(ctx=ctx, turn=turn)
    if submit and not check.ok:
        raise DomainError(check.errors, problems=order_sheet_problems_data(check.error_problems, check.names))
    sheet, _ = OrderSheet.objects.select_for_update().get_or_create(turn=turn, kingdom=kingdom)
    sheet.entries = entries_to_json(entries)
    if submit:
        sheet.status = OrderSheet.Status.SUBMITTED
        sheet.submitted_at = now
        submission = OrderSubmission.objects.create(
            sheet=sheet,
            submitted_by=submitted_by,
            entries=sheet.entries,
            gold=check.gold,
            warnings=check.warnings,
            treasury=check.treasury,
            taxes=check.taxes,
        )
        orders_receipt_queue(
            submission=submission,
            kingdom=kingdom,
            turn=turn,
            lists_due=[row["message"] for row in lists_due],
        )
    # A draft saved after a submission does not withdraw it: the last submission stands
    # (the turn resolves `submitted_entries`), and the page says the draft is not submitted.
    sheet.save()
    return SheetResult(sheet=sheet, check=check, lists_due=lists_due)


def submitted_entries(sheet: OrderSheet) -> dict | None:
    """The entries of the sheet's last submission: what the turn resolves."""
    last = sheet.submissions.order_by("-submitted_at", "-id").first()
    return last.entries if last else None
