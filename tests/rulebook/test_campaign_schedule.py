"""Deadlines from the weekly schedule (Appendix: Campaign Schedule), rulebook/campaign_schedule.py."""

import datetime as dt
from zoneinfo import ZoneInfo

from rulebook.campaign_schedule import deadline_text, next_weekly, time_left_text, turn_deadlines

LONDON = "Europe/London"
UTC = dt.UTC


def test_rulebook_schedule_orders_sunday_20_results_wednesday_21():
    opened = dt.datetime(2026, 11, 20, 12, 0, tzinfo=UTC)  # a Friday: results and map posted
    orders, results = turn_deadlines(
        opened,
        orders_weekday=6,
        orders_time=dt.time(20),
        results_weekday=2,
        results_time=dt.time(21),
        time_zone=LONDON,
    )
    assert orders == dt.datetime(2026, 11, 22, 20, 0, tzinfo=ZoneInfo(LONDON))
    assert results == dt.datetime(2026, 11, 25, 21, 0, tzinfo=ZoneInfo(LONDON))


def test_a_turn_opened_less_than_a_day_before_the_orders_day_gets_the_next_week():
    opened = dt.datetime(2026, 11, 22, 9, 0, tzinfo=UTC)  # Sunday morning
    orders, _ = turn_deadlines(
        opened,
        orders_weekday=6,
        orders_time=dt.time(20),
        results_weekday=2,
        results_time=dt.time(21),
        time_zone=LONDON,
    )
    assert orders.date() == dt.date(2026, 11, 29)


def test_a_turn_after_an_early_resolution_keeps_the_weekly_rhythm():
    """Campaign Schedule (weekly; rules decision 510): turn 1 was due Sunday 29 November; it was
    resolved early and its aftermath ran on Tuesday 24th. Turn 2 opens that Tuesday but is due on
    Sunday 6 December, a week after turn 1's orders day, not on the same Sunday 29th."""
    previous = dt.datetime(2026, 11, 29, 20, 0, tzinfo=ZoneInfo(LONDON))
    opened = dt.datetime(2026, 11, 24, 22, 0, tzinfo=UTC)
    schedule = {
        "orders_weekday": 6,
        "orders_time": dt.time(20),
        "results_weekday": 2,
        "results_time": dt.time(21),
        "time_zone": LONDON,
    }
    orders, results = turn_deadlines(opened, previous_orders=previous, **schedule)
    assert orders == dt.datetime(2026, 12, 6, 20, 0, tzinfo=ZoneInfo(LONDON))
    assert results == dt.datetime(2026, 12, 9, 21, 0, tzinfo=ZoneInfo(LONDON))
    # A turn opened on time (the Thursday after the results) gets the next Sunday, as always.
    on_time = dt.datetime(2026, 12, 3, 9, 0, tzinfo=UTC)
    orders, _ = turn_deadlines(on_time, previous_orders=previous, **schedule)
    assert orders == dt.datetime(2026, 12, 6, 20, 0, tzinfo=ZoneInfo(LONDON))
    # A turn opened long after (a paused campaign) is due at least a day after it opens.
    late = dt.datetime(2027, 1, 9, 23, 0, tzinfo=UTC)  # Saturday night
    orders, _ = turn_deadlines(late, previous_orders=previous, **schedule)
    assert orders == dt.datetime(2027, 1, 17, 20, 0, tzinfo=ZoneInfo(LONDON))


def test_local_wall_clock_time_is_kept_across_daylight_saving():
    # Clocks go forward in London on Sunday 29 March 2026.
    after = dt.datetime(2026, 3, 23, 12, 0, tzinfo=UTC)
    deadline = next_weekly(after, weekday=6, at=dt.time(20), time_zone=LONDON)
    assert deadline.astimezone(ZoneInfo(LONDON)).hour == 20
    assert deadline.astimezone(UTC).hour == 19  # BST


def test_deadline_and_time_left_in_words():
    deadline = dt.datetime(2026, 11, 29, 20, 0, tzinfo=ZoneInfo(LONDON))
    assert deadline_text(deadline, LONDON) == "Sunday 29 November 2026, 20:00 (Europe/London)"
    assert time_left_text(deadline, deadline - dt.timedelta(days=2, hours=3)) == "2 days 3 hours"
    assert time_left_text(deadline, deadline - dt.timedelta(minutes=45)) == "45 minutes"
    assert time_left_text(deadline, deadline + dt.timedelta(seconds=1)) == "passed"
