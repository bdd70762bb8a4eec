"""Turns: opening one with its deadlines, the weekly schedule, extensions and the pause."""

from __future__ import annotations

import datetime as dt

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils import timezone

from briternia.errors import DomainError
from kernel.dice import new_seed
from kingdoms.models import Campaign

from ..models import CampaignSchedule, DeadlineChange, Turn
from ..rules.schedule import deadline_text, turn_deadlines
from .deliveries import deliveries_arrive
from .emails import deadline_change_announce
from .transfers import gold_transfers_arrive


def schedule_of(campaign: Campaign) -> CampaignSchedule:
    """The campaign's weekly schedule, the rulebook's (orders Sunday 20:00, results Wednesday 21:00)
    until the organizer sets another."""
    schedule, _ = CampaignSchedule.objects.get_or_create(campaign=campaign)
    return schedule


def current_turn(campaign: Campaign) -> Turn | None:
    return campaign.turns.order_by("-number").first()


@transaction.atomic
def turn_open(*, campaign: Campaign, number: int, now: dt.datetime | None = None) -> Turn:
    """Open turn `number` for orders, its deadlines taken from the weekly schedule. The one writer of
    the campaign's current turn."""
    now = now or timezone.now()
    schedule = schedule_of(campaign)
    orders, results = turn_deadlines(
        now,
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
    return turn


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
    turn = Turn.objects.select_for_update().select_related("campaign").get(pk=turn.pk)
    tz = turn.campaign.time_zone
    new_orders = orders_deadline or turn.orders_deadline
    new_results = results_deadline or turn.results_deadline
    errors = []
    if orders_deadline and turn.status != Turn.Status.ORDERS_OPEN:
        errors.append("The orders of this turn have been resolved; their deadline cannot change.")
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
    turn.save(update_fields=["orders_deadline", "results_deadline"])
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
) -> CampaignSchedule:
    """Set the weekly schedule used for the deadlines of the turns opened from now on."""
    schedule = schedule_of(campaign)
    old = str(schedule)
    schedule.orders_weekday, schedule.orders_time = orders_weekday, orders_time
    schedule.results_weekday, schedule.results_time = results_weekday, results_time
    schedule.save()
    turn = current_turn(campaign)
    if turn is not None and str(schedule) != old:
        change = DeadlineChange.objects.create(
            turn=turn, kind=DeadlineChange.Kind.SCHEDULE, old_value=old, new_value=str(schedule), changed_by=changed_by
        )
        deadline_change_announce(change=change, turn=turn)
    return schedule


def turns_due(*, now: dt.datetime) -> list[int]:
    """Turns whose orders deadline has passed and that are still open (campaign not paused)."""
    paused = CampaignSchedule.objects.filter(paused=True).values("campaign_id")
    return list(
        Turn.objects.filter(status=Turn.Status.ORDERS_OPEN, orders_deadline__lte=now)
        .exclude(campaign_id__in=paused)
        .values_list("id", flat=True)
    )
