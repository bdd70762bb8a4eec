"""Deadlines from the weekly schedule (Appendix: Campaign Schedule). Pure Python."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from zoneinfo import ZoneInfo

REMINDER_BEFORE = dt.timedelta(hours=24)
# A turn opened less than this before the next orders day takes the following week's
# (players get at least a day to write their orders; docs/rules-decisions.md).
MIN_ORDERS_WINDOW = dt.timedelta(hours=24)


def next_weekly(after: dt.datetime, *, weekday: int, at: dt.time, time_zone: str) -> dt.datetime:
    """The first `weekday` at `at` (local time in `time_zone`) strictly after `after`, as an aware
    datetime. Local wall-clock time is kept across daylight-saving changes."""
    zone = ZoneInfo(time_zone)
    local = after.astimezone(zone)
    days = (weekday - local.weekday()) % 7
    candidate = dt.datetime.combine(local.date() + dt.timedelta(days=days), at, tzinfo=zone)
    if candidate <= local:
        candidate = dt.datetime.combine(local.date() + dt.timedelta(days=days + 7), at, tzinfo=zone)
    return candidate


def turn_deadlines(
    opened: dt.datetime,
    *,
    orders_weekday: int,
    orders_time: dt.time,
    results_weekday: int,
    results_time: dt.time,
    time_zone: str,
    previous_orders: dt.datetime | None = None,
) -> tuple[dt.datetime, dt.datetime]:
    """The orders deadline (the next orders day at least MIN_ORDERS_WINDOW after the turn opens)
    and the results deadline (the next results day after the orders deadline).

    `previous_orders`: the last turn's orders deadline. The schedule is weekly: a turn whose
    predecessor was resolved early still gets the orders day after its predecessor's, never the same
    one (issue 37; rules decision 510), so an early resolution does not squeeze three turns into
    one week."""
    earliest = opened + MIN_ORDERS_WINDOW
    if previous_orders is not None:
        earliest = max(earliest, previous_orders)
    orders = next_weekly(earliest, weekday=orders_weekday, at=orders_time, time_zone=time_zone)
    results = next_weekly(orders, weekday=results_weekday, at=results_time, time_zone=time_zone)
    return orders, results


def deadline_text(when: dt.datetime, time_zone: str) -> str:
    """'Sunday 29 November 2026, 20:00 (Europe/London)'."""
    local = when.astimezone(ZoneInfo(time_zone))
    return f"{local:%A} {local.day} {local:%B %Y, %H:%M} ({time_zone})"


def moment_text(when: dt.datetime, time_zone: str) -> str:
    """'Sunday 29 November 2026, 19:59:58 (Europe/London)': a time to the second (a receipt)."""
    local = when.astimezone(ZoneInfo(time_zone))
    return f"{local:%A} {local.day} {local:%B %Y, %H:%M:%S} ({time_zone})"


def precise_moment_text(when: dt.datetime, time_zone: str) -> str:
    """'Sunday 29 November 2026, 19:59:59.412 (Europe/London)': a request's arrival, near a deadline."""
    local = when.astimezone(ZoneInfo(time_zone))
    return f"{local:%A} {local.day} {local:%B %Y, %H:%M:%S}.{local.microsecond // 1000:03d} ({time_zone})"


def late_refusal_text(*, arrived: dt.datetime, deadline: dt.datetime, time_zone: str, turn_number: int) -> str:
    """Why a sheet that arrived after the deadline is refused, with both times to the second in the
    campaign's time zone: 'This sheet arrived at 20:00:03, after the deadline of 20:00:00 (Sunday 29
    November 2026, Europe/London): the orders of turn 1 are closed to it.' The arrival's date is
    named when it is not the deadline's, and its milliseconds when it is the deadline's second."""
    zone = ZoneInfo(time_zone)
    local_arrived, local_deadline = arrived.astimezone(zone), deadline.astimezone(zone)
    arrived_words = f"{local_arrived:%H:%M:%S}"
    same_day = local_arrived.date() == local_deadline.date()
    if same_day and arrived_words == f"{local_deadline:%H:%M:%S}":  # the same second: the fraction tells
        arrived_words += f".{local_arrived.microsecond // 1000:03d}"
    if not same_day:
        arrived_words += f" on {local_arrived:%A} {local_arrived.day} {local_arrived:%B %Y}"
    return (
        f"This sheet arrived at {arrived_words}, after the deadline of {local_deadline:%H:%M:%S} "
        f"({local_deadline:%A} {local_deadline.day} {local_deadline:%B %Y}, {time_zone}): "
        f"the orders of turn {turn_number} are closed to it."
    )


def time_left_text(deadline: dt.datetime, now: dt.datetime) -> str:
    """'2 days 3 hours', '45 minutes', or 'passed'."""
    left = deadline - now
    if left.total_seconds() <= 0:
        return "passed"
    minutes = int(left.total_seconds() // 60)
    days, minutes = divmod(minutes, 24 * 60)
    hours, minutes = divmod(minutes, 60)
    parts = []
    if days:
        parts.append(f"{days} day{'s' if days != 1 else ''}")
    if hours:
        parts.append(f"{hours} hour{'s' if hours != 1 else ''}")
    if not days and (minutes or not parts):
        parts.append(f"{minutes} minute{'s' if minutes != 1 else ''}")
    return " ".join(parts)


@dataclass(frozen=True)
class DeadlineClock:
    """The deadline that matters now, for the pages' countdown: what is due, when (in the
    campaign's time zone; the page's script shows it in the reader's own), and the time left."""

    due: str  # "Orders", "Turn summary sheets"
    deadline: dt.datetime
    text: str
    left: str  # "2 days 3 hours left", "the deadline has passed", "on hold"
    paused: bool


# What each phase waits for (Appendix: Campaign Schedule): orders while they are open, the turn
# summary sheets while the battles are fought. A phase being resolved waits for nobody.
CLOCK_DUE = {"orders": "Orders", "results": "Turn summary sheets"}


def deadline_clock(
    *, waits_for: str, deadline: dt.datetime, time_zone: str, now: dt.datetime, paused: bool
) -> DeadlineClock:
    """The clock of the deadline `waits_for` ("orders" or "results")."""
    if paused:
        left = "on hold: the campaign is paused"
    elif deadline <= now:
        left = "the deadline has passed"
    else:
        left = f"{time_left_text(deadline, now)} left"
    return DeadlineClock(
        due=CLOCK_DUE[waits_for], deadline=deadline, text=deadline_text(deadline, time_zone), left=left, paused=paused
    )
