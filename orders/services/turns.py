"""Turns: opening one with its deadlines, the weekly schedule, extensions and the pause."""

from __future__ import annotations

import datetime as dt

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from briternia.errors import DomainError
from briternia.locks import LockBusy, PhaseRunning, lock_wait_cut_short, phase_refuse_if_running
from kernel.dice import new_seed
from kingdoms.models import Campaign
from rulebook.campaign_schedule import DeadlineClock, deadline_clock, deadline_text, moment_text, turn_deadlines
from turns.models import Turn, phase_not_backed_off

from ..models import CampaignSchedule, DeadlineChange, OrderSheet
from .ancient_dead import ancient_dead_sheet_draft
from .deliveries import deliveries_arrive
from .emails import deadline_change_announce, orders_held_announce
from .transfers import gold_transfers_arrive, items_arrive


def schedule_of(campaign: Campaign) -> CampaignSchedule:
    """The campaign's weekly schedule, the rulebook's (orders Sunday 20:00, results Wednesday 21:00)
    until the organizer sets another."""
    schedule, _ = CampaignSchedule.objects.get_or_create(campaign=campaign)
    return schedule


def current_turn(campaign: Campaign) -> Turn | None:
    return campaign.turns.order_by("-number").first()


@transaction.atomic
def turn_clock(turn: Turn, *, now: dt.datetime | None = None) -> DeadlineClock | None:
    """The deadline that matters now for the turn's pages: the orders deadline while orders are
    open, the results deadline while the battles are fought; none while a phase is resolved or
    once the turn is reported."""
    waits_for = {Turn.Status.ORDERS_OPEN: "orders", Turn.Status.BATTLES: "results"}.get(Turn.Status(turn.status))
    if waits_for is None:
        return None
    return deadline_clock(
        waits_for=waits_for,
        deadline=turn.orders_deadline if waits_for == "orders" else turn.results_deadline,
        time_zone=turn.campaign.time_zone,
        now=now or timezone.now(),
        paused=schedule_of(turn.campaign).paused,
    )


def closed_text(turn: Turn) -> str:
    """What a closed turn's order sheet and receipt say: the orders no longer change, since when."""
    if turn.status == Turn.Status.RESOLVING_ORDERS:
        return f"Turn {turn.number} is closed: its orders are being resolved. Nothing here can change."
    when = f" on {moment_text(turn.resolved_at, turn.campaign.time_zone)}" if turn.resolved_at else ""
    return (
        f"Turn {turn.number} is closed: its orders were resolved{when} "
        f"(the turn is now {turn.get_status_display().lower()}). Nothing here can change."
    )


def turn_open(*, campaign: Campaign, number: int, now: dt.datetime | None = None) -> Turn:
    """Open turn `number` for orders, its deadlines taken from the weekly schedule. The one writer of
    the campaign's current turn."""
    now = now or timezone.now()
    schedule = schedule_of(campaign)
    previous = Turn.objects.filter(campaign=campaign, number=number - 1).values_list("orders_deadline", flat=True)
    orders, results = turn_deadlines(
        now,
        previous_orders=previous.first(),
        orders_weekday=schedule.orders_weekday,
        orders_time=schedule.orders_time,
        results_weekday=schedule.results_weekday,
        results_time=schedule.results_time,
        time_zone=campaign.time_zone,
    )
    turn = Turn.objects.create(
        campaign=campaign, number=number, orders_deadline=orders, results_deadline=results, seed=new_seed()
    )
    Campaign.objects.filter(pk=campaign.pk).update(current_turn=number)
    campaign.current_turn = number
    # What was bought with experience two turns ago arrives at the beginning of this turn.
    deliveries_arrive(turn=turn)
    gold_transfers_arrive(turn=turn)  # and the gold transferred two turns ago (Transfer of Gold)
    items_arrive(turn=turn)  # and the items
    # The Ancient Dead's orders are computed by the engine, as a draft the organizer may change.
    ancient_dead_sheet_draft(turn=turn)
    return turn


DEADLINE_REASON_LENGTH = DeadlineChange._meta.get_field("reason").max_length


# The phases' names as their locks know them (briternia/locks.py: PHASE_LOCK_SPACE).
_PHASE_NAMES = ("orders phase", "aftermath")


def _turn_held_between_phases(turn: Turn) -> Turn:
    """The turn with its row held until the change commits. A phase of the turn holds that row from
    its claim to its commit: its deadlines move once it has ended, so a running phase is answered at
    once, and another holder of the row is waited for within the request's bound (briternia/locks.py)
    instead of the web process's lock timeout ending the request in an error."""
    try:
        try:
            for name in _PHASE_NAMES:
                phase_refuse_if_running(name, turn.pk)
            # A savepoint: a lock wait cut short leaves the caller's transaction usable for the check.
            with lock_wait_cut_short(_PHASE_NAMES[0], turn.pk), transaction.atomic():
                return Turn.objects.select_for_update().select_related("campaign").get(pk=turn.pk)
        except LockBusy:
            phase_refuse_if_running(_PHASE_NAMES[1], turn.pk, fresh=True)
            raise
    except PhaseRunning as running:
        raise DomainError(
            f"Turn {turn.number} is being resolved (since {moment_text(running.since, turn.campaign.time_zone)}): "
            "nothing was changed; its deadlines can be moved once it has finished."
        ) from None
    except LockBusy:
        raise DomainError(f"Turn {turn.number} is busy just now: nothing was changed; try again.") from None


@transaction.atomic
def deadline_change(
    *,
    turn: Turn,
    changed_by: AbstractBaseUser,
    orders_deadline: dt.datetime | None = None,
    results_deadline: dt.datetime | None = None,
    reason: str = "",
    now: dt.datetime | None = None,
) -> Turn:
    """Move a turn's deadlines (usually to extend them); each change is recorded and emailed."""
    now = now or timezone.now()
    turn = _turn_held_between_phases(turn)
    tz = turn.campaign.time_zone
    new_orders = orders_deadline or turn.orders_deadline
    new_results = results_deadline or turn.results_deadline
    errors = []
    if len(reason) > DEADLINE_REASON_LENGTH:
        errors.append(f"The reason is {len(reason)} characters; at most {DEADLINE_REASON_LENGTH}.")
    if orders_deadline and turn.status != Turn.Status.ORDERS_OPEN:
        errors.append("The orders of this turn have been resolved; their deadline cannot change.")
    if results_deadline and turn.status not in (Turn.Status.ORDERS_OPEN, Turn.Status.BATTLES):
        # Its aftermath has run (or is running): a new results deadline would be emailed to every
        # player as if the turn's battles could still be reported.
        errors.append(f"The aftermath of turn {turn.number} has been resolved; its results deadline cannot change.")
    if orders_deadline and orders_deadline <= now:
        errors.append(f"The new orders deadline {deadline_text(orders_deadline, tz)} has already passed.")
    if results_deadline and results_deadline <= now:
        errors.append(f"The new results deadline {deadline_text(results_deadline, tz)} has already passed.")
    if new_results <= new_orders:
        errors.append("The results deadline must come after the orders deadline.")
    if errors:
        raise DomainError(errors)
    changes = [
        DeadlineChange.objects.create(
            turn=turn,
            kind=kind,
            old_value=deadline_text(old, tz),
            new_value=deadline_text(new, tz),
            reason=reason,
            changed_by=changed_by,
        )
        for kind, old, new in (
            (DeadlineChange.Kind.ORDERS, turn.orders_deadline, orders_deadline),
            (DeadlineChange.Kind.RESULTS, turn.results_deadline, results_deadline),
        )
        if new is not None and new != old
    ]
    turn.orders_deadline, turn.results_deadline = new_orders, new_results
    if orders_deadline:
        turn.held_at = None  # a new deadline: when it passes, the missing orders are counted again
    turn.save(update_fields=["orders_deadline", "results_deadline", "held_at"])
    # Announced once the turn holds the new deadlines: the email is rendered now, and says them.
    for change in changes:
        deadline_change_announce(change=change, turn=turn)
    # A reminder sent for the old deadline may be due again for the new one.
    if orders_deadline:
        turn.reminders.all().delete()
    return turn


@transaction.atomic
def campaign_pause(*, campaign: Campaign, paused: bool, changed_by: AbstractBaseUser, reason: str = "") -> None:
    """Pause (or resume) the campaign: while paused, deadlines do not pass. Recorded and emailed."""
    schedule = CampaignSchedule.objects.select_for_update().get(pk=schedule_of(campaign).pk)
    if schedule.paused == paused:
        raise DomainError("The campaign is already paused." if paused else "The campaign is not paused.")
    turn = current_turn(campaign)
    if turn is None:
        raise DomainError("The campaign has not started; there is nothing to pause.")
    schedule.paused = paused
    schedule.save(update_fields=["paused"])
    kind = DeadlineChange.Kind.PAUSED if paused else DeadlineChange.Kind.RESUMED
    change = DeadlineChange.objects.create(turn=turn, kind=kind, reason=reason, changed_by=changed_by)
    deadline_change_announce(change=change, turn=turn)


@transaction.atomic
def schedule_set(
    *,
    campaign: Campaign,
    changed_by: AbstractBaseUser,
    orders_weekday: int,
    orders_time: dt.time,
    results_weekday: int,
    results_time: dt.time,
    hold_when_missing: int | None = None,
) -> CampaignSchedule:
    """Set the weekly schedule used for the deadlines of the turns opened from now on (and, when
    given, the share of missing orders at which the deadline waits for the organizer)."""
    schedule = schedule_of(campaign)
    old = str(schedule)
    schedule.orders_weekday, schedule.orders_time = orders_weekday, orders_time
    schedule.results_weekday, schedule.results_time = results_weekday, results_time
    if hold_when_missing is not None:
        schedule.hold_when_missing = hold_when_missing
    schedule.save()
    turn = current_turn(campaign)
    if turn is not None and str(schedule) != old:
        change = DeadlineChange.objects.create(
            turn=turn, kind=DeadlineChange.Kind.SCHEDULE, old_value=old, new_value=str(schedule), changed_by=changed_by
        )
        deadline_change_announce(change=change, turn=turn)
    return schedule


def turns_due(*, now: dt.datetime) -> list[int]:
    """Open turns the sweep resolves: those whose orders deadline passed (campaign not paused, turn
    not held for the organizer: `turn_hold_if_orders_missing`) at least ORDERS_DEADLINE_GRACE_SECONDS
    ago, so a sheet that arrived in time and is still being checked is in before the claim (it holds
    the turn's share lock, the claim waits for it; see orders/services/sheets.py); and those the
    organizer asked to resolve whose task has not run after PHASE_REQUEST_TAKE_UP_SECONDS (lost with
    a worker, or never enqueued), paused or held or not; never one whose failed phase waits out its
    backoff (turns.models.phase_retry_delay: the organizer's Retry runs it at once)."""
    grace = dt.timedelta(seconds=float(settings.ORDERS_DEADLINE_GRACE_SECONDS))
    take_up = dt.timedelta(seconds=settings.PHASE_REQUEST_TAKE_UP_SECONDS)
    paused = CampaignSchedule.objects.filter(paused=True).values("campaign_id")
    passed = Q(orders_deadline__lte=now - grace, held_at__isnull=True) & ~Q(campaign_id__in=paused)
    requested = Q(orders_requested_at__lte=now - take_up)
    return list(
        Turn.objects.filter(passed | requested, phase_not_backed_off(now), status=Turn.Status.ORDERS_OPEN)
        .order_by("id")
        .values_list("id", flat=True)
    )


def orders_missing(turn: Turn) -> tuple[int, int]:
    """How many kingdoms have not submitted their orders for `turn`, of how many file orders (the
    Ancient Dead's are the organizer's and never count)."""
    kingdoms = turn.campaign.kingdoms.filing_orders()
    submitted = OrderSheet.objects.filter(turn=turn, status=OrderSheet.Status.SUBMITTED).values("kingdom_id")
    return kingdoms.exclude(id__in=submitted).count(), kingdoms.count()


@transaction.atomic
def turn_hold_if_orders_missing(*, turn_id: int, now: dt.datetime) -> bool:
    """True when the deadline sweep must not resolve the turn by itself: it is held already, or at
    least the campaign's `hold_when_missing` share of the kingdoms missed their orders, in which
    case it is held now and the organizer told once (by email and on the turn's pages). The
    organizer resolves it with the button, or extends the deadline (which lifts the hold)."""
    turn = Turn.objects.select_for_update().select_related("campaign").get(pk=turn_id)
    if turn.orders_requested_at is not None:
        return False  # the organizer asked for the resolution: nothing to wait for
    if turn.held_at is not None:
        return True
    threshold = schedule_of(turn.campaign).hold_when_missing
    if not threshold or turn.status != Turn.Status.ORDERS_OPEN:
        return False
    missing, total = orders_missing(turn)
    if total == 0 or missing * 100 < threshold * total:
        return False
    turn.held_at = now
    turn.save(update_fields=["held_at"])
    orders_held_announce(turn=turn, missing=missing, total=total)
    return True
