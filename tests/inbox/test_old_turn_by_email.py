"""A reply to an old turn's email (its orders closed, the next turn open): refused, nothing saved, and
the answer says which turn takes orders now and where its sheet is, with the arrival written as a
time on its own day (Campaign Schedule: "Email Turn Orders to campaign organizer before 8 pm")."""

from __future__ import annotations

import datetime as dt

from inbox.models import InboundMessage
from inbox.services.receive import message_receive
from orders.models import OrderSubmission
from outbox.models import Email
from tests.clients import user_named

from .messages import mail


def test_a_reply_to_the_first_turns_email_during_the_second_is_refused_and_points_to_the_open_turn(reported, k):
    alice = user_named("alice")
    opening = next(
        e
        for e in Email.objects.filter(kind=Email.Kind.SETUP).order_by("pk")
        if alice.email in e.to and "Turn: 1" in e.text
    )
    second = reported.campaign.turns.get(number=2)
    before = OrderSubmission.objects.count()
    # Received at the first turn's deadline hour, a week later: the same clock time, another day.
    received = reported.orders_deadline + dt.timedelta(days=6)
    quoted = "\n".join(f"> {line}" if line else ">" for line in opening.text.splitlines())
    row = message_receive(
        mail(
            to=opening.reply_to,
            sender=alice.email,
            subject=f"Re: {opening.subject}",
            text=f"My orders.\n\nOn Mon, 7 Dec 2026, Briternia wrote:\n{quoted}\n",
        ),
        received_at=received,
        source=InboundMessage.Source.IMAP,
    )

    assert row.status == InboundMessage.Status.REFUSED
    assert OrderSubmission.objects.count() == before
    text = row.answer.text
    assert "This sheet arrived at 20:00:00 on Saturday 19 December 2026, after the deadline of 20:00:00" in text
    assert "20:00:00.000" not in text
    assert f"turn {second.number} is open for orders now (due Sunday 20 December 2026, 20:00 (Europe/London))" in text
    assert "your turn 1 report" in text
