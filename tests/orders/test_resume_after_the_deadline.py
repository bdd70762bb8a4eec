"""Rules decision 610: a campaign resumed after its turn's deadline passed during the pause. While
paused no deadline passes (decision 18): sheets are taken. Once resumed, the deadline has passed: no
more sheets are taken, and the deadline sweep resolves the turn at once. The resumption's email says
so, rather than announcing a deadline in the past as if it were ahead (Campaign Schedule)."""

from __future__ import annotations

import datetime as dt

import pytest
from freezegun import freeze_time

from briternia.errors import DomainError
from orders.services.sheets import order_sheet_save
from orders.services.turns import campaign_pause, turns_due
from outbox.models import Email
from rulebook.turn.write_orders.records import SheetEntries
from tests.clients import user_named

PASSED = "passed while the campaign was paused: no more orders are taken, and the turn is resolved now"


def _resumed_email(campaign) -> Email:  # type: ignore[no-untyped-def]
    return Email.objects.filter(kind=Email.Kind.ANNOUNCEMENT, subject__endswith="campaign resumed").get()


def test_resumed_after_the_orders_deadline_the_email_says_the_turn_is_resolved_now(turn, demo_campaign, ostland):
    organizer, alice = demo_campaign.organizer, user_named("alice")
    with freeze_time(turn.orders_deadline - dt.timedelta(days=1)):
        campaign_pause(campaign=demo_campaign, paused=True, changed_by=organizer)
    during = turn.orders_deadline + dt.timedelta(days=1)
    with freeze_time(during):  # paused: the deadline does not pass, a sheet is taken
        order_sheet_save(
            kingdom=ostland, turn=turn, entries=SheetEntries(), submitted_by=alice, submit=True, arrived_at=during
        )
    after = turn.orders_deadline + dt.timedelta(days=2)
    with freeze_time(after):
        campaign_pause(campaign=demo_campaign, paused=False, changed_by=organizer)

    email = _resumed_email(demo_campaign)
    assert "The orders deadline, Sunday 13 December 2026, 20:00 (Europe/London), " + PASSED in email.text
    assert "(those filed during the pause count)" in email.text and PASSED in email.html
    assert turn.pk in turns_due(now=after + dt.timedelta(minutes=1))
    with pytest.raises(DomainError, match="after the deadline"):
        order_sheet_save(
            kingdom=ostland, turn=turn, entries=SheetEntries(), submitted_by=alice, submit=True, arrived_at=after
        )


def test_resumed_before_the_orders_deadline_the_email_keeps_the_deadline_ahead(turn, demo_campaign):
    organizer = demo_campaign.organizer
    with freeze_time(turn.orders_deadline - dt.timedelta(days=2)):
        campaign_pause(campaign=demo_campaign, paused=True, changed_by=organizer)
    with freeze_time(turn.orders_deadline - dt.timedelta(days=1)):
        campaign_pause(campaign=demo_campaign, paused=False, changed_by=organizer)
    email = _resumed_email(demo_campaign)
    assert "passed while the campaign was paused" not in email.text
    assert "Orders deadline: Sunday 13 December 2026, 20:00 (Europe/London)" in email.text
