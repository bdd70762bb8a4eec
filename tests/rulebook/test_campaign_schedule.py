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
