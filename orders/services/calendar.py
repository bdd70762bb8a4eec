"""The campaign's deadlines as iCalendar (RFC 5545, written by the `icalendar` library): the feed a
player's calendar subscribes to, and the .ics attached to each deadline-change email. Each deadline
is one event with a stable UID, so importing a newer file moves the event instead of adding one.

The feed's address is private to a player: a key signed with the site's secret (django.core.signing)
names the campaign and the user, so a calendar application fetches it without logging in and the
site stores nothing. It holds only the deadlines, which every player of the campaign sees; the key
is checked against the user's campaigns on every fetch, so a player who leaves loses the feed."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable

from django.core import signing
from icalendar import Alarm, Calendar, Event

from kingdoms.models import Campaign
from rulebook.campaign_schedule import REMINDER_BEFORE, deadline_text
from turns.models import Turn

CALENDAR_SALT = "briternia.deadlines-calendar"
PRODID = "-//Briternia//Campaign deadlines//EN"
# Each deadline is drawn as the half hour before it, ending at the deadline: most calendars show
# an event without a length poorly.
EVENT_LENGTH = dt.timedelta(minutes=30)


def calendar_key(*, campaign_id: int, user_id: int) -> str:
    """The private key of the user's feed of the campaign's deadlines."""
    return signing.dumps({"campaign": campaign_id, "user": user_id}, salt=CALENDAR_SALT)


def calendar_key_read(key: str) -> tuple[int, int] | None:
    """(campaign id, user id) from a feed's key, or None for a key the site did not sign."""
    try:
        data = signing.loads(key, salt=CALENDAR_SALT)
    except signing.BadSignature:
        return None
    if not isinstance(data, dict) or not isinstance(data.get("campaign"), int) or not isinstance(data.get("user"), int):
        return None
    return data["campaign"], data["user"]


def _events(campaign: Campaign, turn: Turn, *, sequence: int) -> Iterable[Event]:
    for kind, deadline, what, todo in (
        ("orders", turn.orders_deadline, "Orders due", "File your order sheet"),
        ("results", turn.results_deadline, "Turn summary sheets due", "File a turn summary sheet for each battle"),
    ):
        event = Event()
        event.add("uid", f"turn-{turn.pk}-{kind}@briternia")
        event.add("summary", f"{campaign.name}, turn {turn.number}: {what}")
        event.add("description", f"{todo} by {deadline_text(deadline, campaign.time_zone)} (Campaign Schedule).")
        event.add("dtstart", deadline - EVENT_LENGTH)
        event.add("dtend", deadline)
        event.add("dtstamp", turn.opened_at)
        event.add("sequence", sequence)
        alarm = Alarm()
        alarm.add("action", "DISPLAY")
        alarm.add("description", f"{what}: {campaign.name}, turn {turn.number}")
        alarm.add("trigger", -REMINDER_BEFORE, parameters={"RELATED": "END"})
        event.add_component(alarm)
        yield event


def deadlines_calendar(*, campaign: Campaign, turns: Iterable[Turn]) -> bytes:
    """The deadlines of `turns` (times in UTC: each calendar shows them in its owner's zone)."""
    calendar = Calendar()
    calendar.add("prodid", PRODID)
    calendar.add("version", "2.0")
    calendar.add("method", "PUBLISH")
    calendar.add("x-wr-calname", f"{campaign.name}: deadlines")
    for turn in turns:
        # A changed deadline supersedes the event a calendar imported before (RFC 5545 SEQUENCE).
        for event in _events(campaign, turn, sequence=turn.deadline_changes.count()):
            calendar.add_component(event)
    return calendar.to_ical()
