"""Order sheets: loading what the check needs, saving drafts, submitting before the deadline."""

from __future__ import annotations

import datetime as dt
import functools
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from django.contrib.auth.models import AbstractBaseUser
from django.db import models, transaction
from django.utils import timezone

from briternia.errors import DomainError
from briternia.locks import LockBusy, PhaseRunning, lock_wait_cut_short, phase_refuse_if_running
from kingdoms.models import Kingdom
from kingdoms.people import display_name
from kingdoms.selectors import tomb_raiders_for_missions
from kingdoms.services.kingdom_rows import KingdomRows, kingdom_rows_read
from kingdoms.services.spending import spending_rosters_load
from kingdoms.services.spied_characters import spied_characters_load
from kingdoms.services.world import world_for_kingdom
from rulebook.campaign_schedule import deadline_text, late_refusal_text, moment_text, precise_moment_text
from rulebook.tables import ArmyType
from rulebook.turn.write_orders.check import order_sheet_check
from rulebook.turn.write_orders.context import SheetContext, order_sheet_context
from rulebook.turn.write_orders.problems import SheetCheck, SheetProblem
from rulebook.turn.write_orders.records import SheetEntries
from rulebook.world import World
from turns.models import Turn

from ..entries import sheet_to_json
from ..models import OrderSheet, OrderSubmission
from .describe import ARMY_ROW_FIELDS
from .emails import orders_receipt_queue, receipt_content
from .sheet_statements import ARMY_EXTRA, TurnRowHeld, sheet_row_written, turn_share_locked
from .turns import schedule_of

ModelT = TypeVar("ModelT", bound=models.Model)
# The orders phase's name (turns/services/cycle.py's ORDERS_PHASE, above this app): its mark says
# it is running (briternia/locks.py).
ORDERS_PHASE_NAME = "orders phase"


def order_sheet_context_load(
    *, kingdom: Kingdom, turn: Turn, world_version: int | None = None, tomb_raiders: bool = True
) -> SheetContext:
    """Everything the sheet check needs: the campaign's world as `turn` finds it, seen by the
    kingdom, with every name it has given an army; in a fixed number of queries whatever the
    map's size, and without reading the whole map again while it has not changed.
    `world_version`: the campaign's, as the caller has just read it (`world_for_kingdom`).
    `tomb_raiders`: with the kingdom's Tomb Raider force (one query; Using Tomb Raiders): a sheet
    that sends no mission is checked without it."""
    return _context_and_armies(kingdom=kingdom, turn=turn, world_version=world_version, tomb_raiders=tomb_raiders)[0]


def _context_and_armies(
    *, kingdom: Kingdom, turn: Turn, world_version: int | None, tomb_raiders: bool, rows: KingdomRows | None = None
) -> tuple[SheetContext, list[tuple[Any, ...]]]:
    """`order_sheet_context_load`'s context, and the kingdom's armies as its receipt describes them
    (describe.ARMY_ROW_FIELDS, by id): read with them, not again. `rows`: the kingdom's own rows
    (`kingdom_row_sets` with ARMY_EXTRA), if the caller has read them; else read here, in one
    statement."""
    if rows is None:
        rows = kingdom_rows_read(kingdom.id, *ARMY_EXTRA)
    # The kingdom's armies and their lists read once, for the world, the names, the roster and the
    # receipt.
    armies, active, lists = rows.armies, rows.active, rows.lists
    world = world_for_kingdom(
        campaign=kingdom.campaign,
        turn_number=turn.number,
        kingdom=kingdom.id,
        world_version=world_version,
        own_armies=armies,
        own_lists=lists,
        own_treasury=rows.treasury,
    )
    names = frozenset(a["name"] for a in armies)
    roster = spending_rosters_load(
        campaign=kingdom.campaign, kingdom=kingdom.id, active_armies=active, lists=lists, deliveries=rows.deliveries
    )[kingdom.id]
    raiders = (
        tomb_raiders_for_missions(kingdom_ids=[kingdom.id], turn_number=turn.number).get(kingdom.id)
        if tomb_raiders and not kingdom.is_ancient_dead
        else None
    )
    # Reconnaissance's Character Bio: the rivals' Warlords and Generals a spy may name (decision 455).
    spied = spied_characters_load(world, spy=kingdom.id) if tomb_raiders and not kingdom.is_ancient_dead else {}
    ctx = order_sheet_context(
        world,
        kingdom.id,
        army_names=names,
        roster=roster,
        raiders=raiders.force if raiders else None,
        raiders_points_added=raiders.points_added if raiders else 0,
        rival_characters=spied,
    )
    return ctx, [tuple(a[field] for field in ARMY_ROW_FIELDS) for a in armies]


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


def orders_open_errors(turn: Turn, arrived_at: dt.datetime) -> list[str]:
    """Why no sheet that arrived at `arrived_at` may be filed for `turn`; the server's clock at the
    request's arrival decides, worker or not, whatever the request waited for since."""
    tz = turn.campaign.time_zone
    # While the campaign is paused no deadline passes.
    if arrived_at > turn.orders_deadline and not schedule_of(turn.campaign).paused:
        return [
            late_refusal_text(arrived=arrived_at, deadline=turn.orders_deadline, time_zone=tz, turn_number=turn.number)
        ]
    if turn.status != Turn.Status.ORDERS_OPEN:  # resolved early by the organizer
        return [
            f"The orders of turn {turn.number} are closed ({turn.get_status_display().lower()}); "
            f"this sheet arrived at {moment_text(arrived_at, tz)}."
        ]
    return []


def order_sheet_problems_data(problems: Iterable[SheetProblem], names: Mapping[int, str]) -> list[dict[str, Any]]:
    """The sheet check's problems as the API gives them (and the order page places them): the
    stable code, the army whose row it belongs to and every army it concerns (ids), the entry of the
    sheet's other parts it is about (part, entry, entry_field), the words
    without the army's name, and the message that names it once."""
    return [
        {
            "code": p.code.value,
            "army": p.army,
            "armies": list(p.armies),
            "creation": p.creation,
            "part": p.part,
            "entry": p.entry,
            "entry_field": p.entry_field,
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
    world: World  # the world the sheet was checked against (its answer's usable effects read it)
    # The submission just written, when it stands (it arrived last): the answer does not read it again.
    standing: OrderSubmission | None = None
    # The submission just kept for the record (it met the running orders phase): never resolved.
    record: OrderSubmission | None = None
    # The submission just written, whether it stands or not (a draft: none; kept for the record: `record`).
    submission: OrderSubmission | None = None


def order_sheet_save(
    *,
    kingdom: Kingdom,
    turn: Turn,
    entries: SheetEntries,
    submitted_by: AbstractBaseUser,
    submit: bool,
    arrived_at: dt.datetime | None = None,
    receipt_notes: Sequence[str] = (),
) -> SheetResult:
    """Save the kingdom's sheet as a draft, or submit it.

    A draft is kept even with errors, so a player can come back to it; a submission with any
    error is refused whole and changes nothing. Each submission is kept and confirmed by a receipt
    written now; the last one to arrive stands. `arrived_at` (the request's arrival,
    briternia/arrival.py) decides whether it is in time, and is the time recorded and stated: a
    sheet that arrived by the deadline is taken in even if the deadline passes while it is checked.
    `receipt_notes`: lines the receipt adds (a sheet filed by email: what its mail carried besides).

    Locks: the kingdom's sheet row (one save of a kingdom at a time) and a share lock on the turn
    row, which other kingdoms' saves share and the orders phase's claim waits for.

    While the orders phase runs (it holds the turn's row) nothing waits for it: a submission in time
    is kept for the record, never resolved (`SheetResult.record`; rules decision 520), a draft is
    refused.
    """
    arrived_at = arrived_at or timezone.now()
    if kingdom.campaign_id != turn.campaign_id:
        raise DomainError("This kingdom is not in this turn's campaign.")
    # A late sheet is refused at once, before it waits for anything (a resolution in progress): by
    # the turn as the caller has just read it (the request's); read again under the lock below.
    errors = orders_open_errors(turn, arrived_at)
    if errors:
        raise DomainError(errors)
    # Nor does a sheet queue behind a running orders phase (it holds the turn's row until it commits):
    # it is answered at once; and no lock is waited on for more than the request's bound. A
    # submission in time that meets the running phase is kept for the record (Campaign Schedule:
    # orders are due by the deadline; rules decision 520); a draft is refused.
    save = functools.partial(
        _order_sheet_write,
        kingdom=kingdom,
        turn=turn,
        entries=entries,
        submitted_by=submitted_by,
        submit=submit,
        arrived_at=arrived_at,
        receipt_notes=receipt_notes,
    )
    try:
        try:
            # The turn's share lock taken without waiting: a row held (by a running phase above all)
            # is found at once, and only then is it asked whether the phase runs (briternia/locks.py),
            # not at every submission.
            with lock_wait_cut_short(ORDERS_PHASE_NAME, turn.pk):
                return save(wait=False)
        except TurnRowHeld:
            phase_refuse_if_running(ORDERS_PHASE_NAME, turn.pk, fresh=True)
            # Held by something else (a change of the turn's deadline, a claim still waiting for the
            # sheets in flight): waited for, within the request's bound.
            with lock_wait_cut_short(ORDERS_PHASE_NAME, turn.pk):
                return save(wait=True)
    except PhaseRunning as running:
        if not submit:
            refusal = resolving_refusal_text(kingdom=kingdom, turn=turn, arrived_at=arrived_at, since=running.since)
            raise DomainError(refusal) from None
        since = running.since
    except LockBusy:
        raise DomainError(
            "This sheet could not be saved just now: another save of your kingdom's sheet, or a change of the "
            "turn, was in progress. Nothing was saved: send it again."
        ) from None
    try:
        with lock_wait_cut_short(ORDERS_PHASE_NAME, turn.pk):
            return _order_sheet_record(
                kingdom=kingdom,
                turn=turn,
                entries=entries,
                submitted_by=submitted_by,
                arrived_at=arrived_at,
                since=since,
                receipt_notes=receipt_notes,
            )
    except (LockBusy, PhaseRunning):
        raise DomainError(
            "This sheet could not be kept just now: the turn is being resolved and your kingdom's sheet was "
            "busy. Nothing was saved: send it again."
        ) from None


def turn_row_hold(turn: Turn, *, running: Callable[[dt.datetime], str]) -> Turn:
    """The turn read again with its row held until the caller's transaction commits, for an
    organizer's change that must not happen under a running orders phase (a kingdom changing hands).
    The phase's claim holds the row and is not seen before it commits, so a running phase is
    answered at once (`running(since)`, a DomainError), and any other holder of the row is waited
    for within the request's bound (briternia/locks.py), as a Resolve click is."""
    try:
        phase_refuse_if_running(ORDERS_PHASE_NAME, turn.pk)
        # A savepoint: a lock wait cut short leaves the caller's transaction usable for the check.
        with lock_wait_cut_short(ORDERS_PHASE_NAME, turn.pk), transaction.atomic():
            return Turn.objects.select_for_update().select_related("campaign").get(pk=turn.pk)
    except PhaseRunning as phase:
        raise DomainError(running(phase.since)) from None
    except LockBusy:
        raise DomainError(
            f"Turn {turn.number} is busy (order sheets are being saved into it): nothing was changed; try again."
        ) from None


def resolving_refusal_text(*, kingdom: Kingdom, turn: Turn, arrived_at: dt.datetime, since: dt.datetime) -> str:
    """Why a draft is refused while the turn's orders phase runs: it takes no more sheets (those it
    resolves were all saved before it began); when it began, and which of the kingdom's submissions
    it uses."""
    tz = turn.campaign.time_zone
    return (
        f"This sheet arrived at {precise_moment_text(arrived_at, tz)}, but the orders of turn {turn.number} "
        f"have been resolving since {moment_text(since, tz)} (the deadline: {deadline_text(turn.orders_deadline, tz)}) "
        f"and take no more sheets: it was not saved. The resolution reads the sheets submitted before it began: "
        f"it {_resolution_uses_text(kingdom=kingdom, turn=turn)}."
    )


def record_text(*, kingdom: Kingdom, turn: Turn, arrived_at: dt.datetime, since: dt.datetime) -> str:
    """What a sheet kept for the record says (its answer, its receipt and its email): it arrived (to
    the millisecond) before the deadline, but the turn was already being resolved, since when, and
    which of the kingdom's submissions the resolution uses (rules decision 520)."""
    tz = turn.campaign.time_zone
    return (
        f"Accepted for the record at {precise_moment_text(arrived_at, tz)}: this sheet arrived before the deadline "
        f"({deadline_text(turn.orders_deadline, tz)}), but turn {turn.number} was already being resolved (since "
        f"{moment_text(since, tz)}), so it is kept for the record and not resolved. The resolution "
        f"{_resolution_uses_text(kingdom=kingdom, turn=turn)}."
    )


def _resolution_uses_text(*, kingdom: Kingdom, turn: Turn) -> str:
    """Which of the kingdom's submissions the running orders phase resolves (read without waiting:
    the phase changes no submission; every submission it resolves was saved before it began)."""
    tz = turn.campaign.time_zone
    used = resolving_submissions(turn).filter(sheet__kingdom=kingdom).select_related("submitted_by").last()
    if used is None:
        return "has no submission from your kingdom, whose orders count as missing"
    by = f" from {display_name(used.submitted_by)}" if used.submitted_by else ""
    return f"uses your kingdom's submission that arrived at {moment_text(used.submitted_at, tz)}{by}"


def _order_sheet_write(
    *,
    kingdom: Kingdom,
    turn: Turn,
    entries: SheetEntries,
    submitted_by: AbstractBaseUser,
    submit: bool,
    arrived_at: dt.datetime,
    receipt_notes: Sequence[str] = (),
    wait: bool = True,
) -> SheetResult:
    """order_sheet_save's transaction. `wait`: whether the turn's share lock is waited for (within
    the request's bound), or found held at once (`turn_share_locked`)."""
    with transaction.atomic():
        turn, rows = turn_share_locked(turn.pk, kingdom=kingdom.pk, wait=wait)
        errors = orders_open_errors(turn, arrived_at)  # as it stands now that no claim can start
        if errors:
            raise DomainError(errors)
        # The campaign was read with the turn, under its lock: its world_version says whether the
        # kept world stands, without reading it again.
        checked = _sheet_checked(kingdom=kingdom, turn=turn, entries=entries, submit=submit, rows=rows)
        # The sheet's row made or updated, and locked (a save racing this one for the same sheet
        # waits for it); a draft saved after a submission does not withdraw it: the last submission
        # stands (the turn resolves `standing_submission`), and every page says the draft is not
        # submitted.
        sheet = sheet_row_written(
            turn=turn, kingdom=kingdom, entries=checked.entries_json, submit=submit, arrived_at=arrived_at
        )
        standing = submission = None
        if submit:
            submission = _submission_write(
                sheet=sheet, checked=checked, submitted_by=submitted_by, arrived_at=arrived_at, notes=receipt_notes
            )
            # The last to arrive stands (ties: the last written, this one; `standing_submission`):
            # the sheet's time is now the latest arrival.
            standing = submission if sheet.submitted_at == arrived_at else None
    return SheetResult(
        sheet=sheet,
        check=checked.check,
        lists_due=checked.lists_due,
        world=checked.ctx.world,
        standing=standing,
        submission=submission,
    )


@dataclass(frozen=True)
class _Checked:
    entries_json: dict[str, Any]  # the sheet as stored (orders/entries.py)
    ctx: SheetContext
    armies: list[tuple[Any, ...]]  # the kingdom's armies as its receipt describes them (describe.ARMY_ROW_FIELDS)
    check: SheetCheck
    lists_due: list[dict[str, Any]]


def _sheet_checked(
    *, kingdom: Kingdom, turn: Turn, entries: SheetEntries, submit: bool, rows: KingdomRows | None = None
) -> _Checked:
    """The sheet checked against the world as `turn` (read by the caller, with its campaign's
    world_version) finds it; a submission with any error refused whole. The Tomb Raiders are read
    only for a sheet that sends them: the weekly rush's sheets send none. `rows`: the kingdom's own
    rows, if the caller has read them (`turn_share_locked`)."""
    ctx, armies = _context_and_armies(
        kingdom=kingdom,
        turn=turn,
        world_version=turn.campaign.world_version,
        tomb_raiders=bool(entries.missions),
        rows=rows,
    )
    check = order_sheet_check(entries, ctx)
    if submit and not check.ok:
        raise DomainError(check.errors, problems=order_sheet_problems_data(check.error_problems, check.names))
    lists_due = lists_due_data(ctx=ctx, turn=turn)
    return _Checked(entries_json=sheet_to_json(entries), ctx=ctx, armies=armies, check=check, lists_due=lists_due)


def _submission_write(
    *,
    sheet: OrderSheet,
    checked: _Checked,
    submitted_by: AbstractBaseUser,
    arrived_at: dt.datetime,
    record: str = "",
    notes: Sequence[str] = (),
) -> OrderSubmission:
    """The submission of the checked sheet, with its receipt written now, saved, and its receipt
    email queued. `record`: kept for the record, never resolved, with what its receipt says; `notes`:
    lines the receipt adds."""
    check = checked.check
    submission = OrderSubmission(
        sheet=sheet,
        submitted_by=submitted_by,
        submitted_at=arrived_at,
        entries=checked.entries_json,
        gold=check.gold,
        warnings=check.warnings,
        treasury=check.treasury,
        taxes=check.taxes,
        for_record=bool(record),
    )
    submission.receipt = receipt_content(
        submission=submission,
        kingdom=sheet.kingdom,
        turn=sheet.turn,
        lists_due=[row["message"] for row in checked.lists_due],
        world=checked.ctx.world,
        army_rows=checked.armies,
        record=record,
    )
    if notes:
        submission.receipt["notes"] = list(notes)
    submission.save()
    orders_receipt_queue(submission=submission, turn=sheet.turn)
    return submission


def _order_sheet_record(
    *,
    kingdom: Kingdom,
    turn: Turn,
    entries: SheetEntries,
    submitted_by: AbstractBaseUser,
    arrived_at: dt.datetime,
    since: dt.datetime,
    receipt_notes: Sequence[str] = (),
) -> SheetResult:
    """A submission that arrived in time while the orders phase runs, kept for the record and never
    resolved (rules decision 520): checked like any (a sheet with errors is refused whole), written
    with its receipt and email, without waiting on the turn's row the phase holds (no share lock:
    the turn and the world are read as they stood before the phase; the rows written only reference
    the turn, which the phase's update of its status does not block). The sheet's working copy and
    status stay as they were: nothing of this one resolves."""
    with transaction.atomic():
        checked = _sheet_checked(kingdom=kingdom, turn=turn, entries=entries, submit=True)
        # A kingdom with no sheet yet gets an empty draft to hang it on (not submitted: still missing).
        OrderSheet.objects.bulk_create([OrderSheet(turn=turn, kingdom=kingdom)], ignore_conflicts=True)
        sheet = OrderSheet.objects.get(turn=turn, kingdom=kingdom)
        sheet.turn, sheet.kingdom = turn, kingdom
        sheet.has_records = True
        submission = _submission_write(
            sheet=sheet,
            checked=checked,
            submitted_by=submitted_by,
            arrived_at=arrived_at,
            record=record_text(kingdom=kingdom, turn=turn, arrived_at=arrived_at, since=since),
            notes=receipt_notes,
        )
    return SheetResult(
        sheet=sheet, check=checked.check, lists_due=checked.lists_due, world=checked.ctx.world, record=submission
    )


def resolving_submissions(turn: Turn) -> models.QuerySet[OrderSubmission]:
    """The turn's submissions that may resolve, in the order they stand (the last of a sheet's
    stands): every one but those kept for the record. The resolution reads these
    (orders.services.resolution.turn_state_load)."""
    return OrderSubmission.objects.filter(sheet__turn=turn, for_record=False).order_by("submitted_at", "id")


def standing_submission(sheet: OrderSheet) -> OrderSubmission | None:
    """The submission that stands and will resolve: the last to arrive (ties: the last written);
    never one kept for the record."""
    return (
        sheet.submissions.filter(for_record=False)
        .select_related("submitted_by")
        .order_by("-submitted_at", "-id")
        .first()
    )


def record_submissions(sheet: OrderSheet) -> list[OrderSubmission]:
    """The sheet's submissions kept for the record, not resolved (the last to arrive first)."""
    return list(
        sheet.submissions.filter(for_record=True).select_related("submitted_by").order_by("-submitted_at", "-id")
    )


def submitted_entries(sheet: OrderSheet) -> dict | None:
    """The entries of the sheet's standing submission: what the turn resolves."""
    last = standing_submission(sheet)
    return last.entries if last else None
