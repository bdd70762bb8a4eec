"""Order sheets: loading what the check needs, saving drafts, submitting before the deadline."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils import timezone

from briternia.errors import DomainError
from kingdoms.models import Army, Kingdom
from kingdoms.selectors import campaign_adjacency

from ..entries import entries_to_json
from ..models import OrderSheet, OrderSubmission, Turn
from ..rules.schedule import deadline_text
from ..rules.sheets import ArmyState, ProvinceState, SheetCheck, SheetContext, SheetEntries, sheet_check
from .emails import orders_receipt_queue
from .turns import schedule_of

# Looting: a town looted at the end of turn 4 creates and upgrades armies again from turn 6.
LOOTED_TURNS = 2


def sheet_context(*, kingdom: Kingdom, turn: Turn) -> SheetContext:
    """Everything the sheet check needs, in a fixed number of queries whatever the map's size."""
    campaign = kingdom.campaign
    armies = Army.objects.filter(kingdom=kingdom)
    provinces = list(campaign.provinces.all())
    by_id = {p.id: p.number for p in provinces}
    active = [a for a in armies if a.status == Army.Status.ACTIVE]
    reinforced = {a.province_id for a in active if a.kind == Army.Kind.GARRISON}
    return SheetContext(
        kingdom=kingdom.id,
        army_type=kingdom.army_type_enum,
        turn=turn.number,
        treasury=kingdom.treasury_balance(),
        player_count=campaign.player_count,
        armies={
            a.id: ArmyState(
                id=a.id,
                name=a.name,
                province=by_id[a.province_id],
                size=a.size,
                supply_depot=a.supply_depot,
                created_turn=a.created_turn,
                upgraded_turn=a.upgraded_turn,
            )
            for a in active
            if a.kind == Army.Kind.FIELD and a.province_id
        },
        army_names=frozenset(a.name for a in armies),
        provinces={
            p.number: ProvinceState(
                number=p.number,
                name=p.name,
                terrain=p.terrain,
                settlement=p.settlement,
                razed=p.razed,
                fortified=p.fortified,
                controller=p.controller_id,
                elite_defense=p.id in reinforced,
                looted=p.looted_turn is not None and turn.number < p.looted_turn + LOOTED_TURNS,
            )
            for p in provinces
        },
        adjacency=campaign_adjacency(campaign),
        capitol=by_id.get(kingdom.capitol_id) if kingdom.capitol_id else None,
    )


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


@dataclass(frozen=True)
class SheetResult:
    sheet: OrderSheet
    check: SheetCheck


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
    check = sheet_check(entries, sheet_context(kingdom=kingdom, turn=turn))
    if submit and not check.ok:
        raise DomainError(check.errors)
    sheet, _ = OrderSheet.objects.select_for_update().get_or_create(turn=turn, kingdom=kingdom)
    sheet.entries = entries_to_json(entries)
    if submit:
        sheet.status = OrderSheet.Status.SUBMITTED
        sheet.submitted_at = now
        submission = OrderSubmission.objects.create(
            sheet=sheet, submitted_by=submitted_by, entries=sheet.entries, gold=check.gold, warnings=check.warnings
        )
        orders_receipt_queue(submission=submission, kingdom=kingdom, turn=turn)
    # A draft saved after a submission does not withdraw it: the last submission stands
    # (the turn resolves `submitted_entries`), and the page says the draft is not submitted.
    sheet.save()
    return SheetResult(sheet=sheet, check=check)


def submitted_entries(sheet: OrderSheet) -> dict | None:
    """The entries of the sheet's last submission: what the turn resolves."""
    last = sheet.submissions.order_by("-submitted_at", "-id").first()
    return last.entries if last else None
