"""A draft by email is asked for by "DRAFT" in the subject (or "Draft: yes"): README, "Orders by
email". A reply's subject repeats the email it answers, and so the campaign's name: in a campaign
called "The Draft Wars" a plain reply is a submission, and only a "DRAFT" the player adds makes it a
draft."""

from __future__ import annotations

import datetime as dt

import pytest

from inbox.models import InboundMessage
from inbox.services.receive import message_receive
from kingdoms.models import Campaign
from orders.models import OrderSheet
from orders.services.reminders import orders_reminders_queue
from outbox.models import Email
from tests.clients import user_named

from .test_filing import neighbour, reply, two_armies  # noqa: F401 (the fixture)


@pytest.mark.parametrize(("prefix", "status"), [("", "submitted"), ("DRAFT ", "draft")])
def test_the_campaigns_own_name_in_the_subject_asks_for_no_draft(
    demo_campaign,
    turn,
    two_armies,  # noqa: F811
    prefix,
    status,
):
    Campaign.objects.filter(pk=demo_campaign.pk).update(name="The Draft Wars")
    alice = user_named("alice")
    orders_reminders_queue(now=turn.orders_deadline - dt.timedelta(hours=2))
    reminder = Email.objects.get(kind=Email.Kind.ORDERS_REMINDER, to=[alice.email])
    assert reminder.subject.startswith("The Draft Wars") and "Campaign: The Draft Wars" in reminder.text
    first, _ = two_armies
    raw = reply(reminder, {first.name: f"Move into {neighbour(first).number}"})
    raw = raw.replace(b"Subject: Re: ", f"Subject: {prefix}Re: ".encode(), 1)

    row = message_receive(raw, received_at=turn.orders_deadline - dt.timedelta(hours=1), source="imap")

    assert row.status == InboundMessage.Status.ACCEPTED, row.reason
    assert OrderSheet.objects.get(turn=turn, kingdom=first.kingdom).status == status
