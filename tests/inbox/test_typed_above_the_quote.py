"""A reply that types an army's new order above the quoted sheet instead of in it (README, "Orders by
email": the sheet is edited in place): the order is read with the quoted sheet, never dropped while
the quoted sheet is filed unchanged (every army holding, the player believing their orders in). The
army given two blocks is refused naming both lines, and nothing is saved."""

from __future__ import annotations

import datetime as dt

from inbox.models import InboundMessage
from inbox.services.receive import message_receive
from orders.models import OrderSubmission

from .messages import mail
from .test_filing import alice, neighbour, reminder, two_armies  # noqa: F401 (the fixtures)


def test_an_order_typed_above_the_quote_is_read_and_a_second_block_for_its_army_refused(
    turn,
    alice,  # noqa: F811
    two_armies,  # noqa: F811
    reminder,  # noqa: F811
):
    first, _ = two_armies
    target = neighbour(first)
    row = _reply_received(
        turn, alice, reminder, f"Army name / number: {first.name}\nOrder: Move into {target.number}\n\nHans\n\n"
    )

    assert row.status == InboundMessage.Status.REFUSED, row.reason
    assert not OrderSubmission.objects.exists()
    assert f"{first.name} has a block already" in row.answer.text


def test_a_note_typed_above_the_quote_leaves_the_quoted_sheet_filed(
    turn,
    alice,  # noqa: F811
    two_armies,  # noqa: F811
    reminder,  # noqa: F811
):
    """A note above the quote ("Note: ...") is no line of the sheet: the quoted sheet is filed as it came."""
    first, _ = two_armies
    row = _reply_received(turn, alice, reminder, f"Note: {first.name} stays put this week, as we agreed.\n\nHans\n\n")

    assert row.status == InboundMessage.Status.ACCEPTED, row.reason
    assert OrderSubmission.objects.count() == 1


def _reply_received(turn, alice, reminder, above: str) -> InboundMessage:  # noqa: F811
    """A reply to the turn's email with `above` typed above the quoted sheet, taken in an hour before
    the deadline."""
    quoted = "\n".join(f"> {line}" if line else ">" for line in reminder.text.splitlines())
    body = f"{above}On Sun, 6 Dec 2026 at 09:00, Briternia wrote:\n{quoted}\n"
    return message_receive(
        mail(to=reminder.reply_to, sender=alice.email, text=body),
        received_at=turn.orders_deadline - dt.timedelta(hours=1),
        source=InboundMessage.Source.IMAP,
    )
