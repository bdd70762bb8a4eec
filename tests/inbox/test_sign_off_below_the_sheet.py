"""A player who writes their own whole sheet (not quoted) and signs off below it without the "-- "
delimiter ("Thanks,\nHans"): the sign-off is left out and the sheet filed (decision 611; README,
"Orders by email"); a line without a colon in the middle of the sheet is still refused, naming it."""

from __future__ import annotations

import datetime as dt

from inbox.models import InboundMessage
from inbox.services.receive import message_receive
from orders.entries import sheet_from_json
from orders.models import OrderSubmission
from rulebook.turn.write_orders.records import OrderKind

from .messages import mail
from .test_filing import alice, edited, neighbour, reminder, two_armies  # noqa: F401 (the fixtures)


def _own_sheet(reminder, army, order: str) -> str:  # type: ignore[no-untyped-def]  # noqa: F811
    """The reminder's sheet written out by the player, with `army`'s order changed."""
    return "\n".join(order if changed else line for line, changed in edited(reminder.text, {army.name}))


def test_a_sign_off_below_the_players_own_sheet_is_left_out_and_the_sheet_filed(
    turn,
    alice,  # noqa: F811
    two_armies,  # noqa: F811
    reminder,  # noqa: F811
):
    first, _ = two_armies
    target = neighbour(first)
    body = _own_sheet(reminder, first, f"Order: Move into {target.number}") + "\n\nThanks,\nHans\n"
    row = message_receive(
        mail(to=reminder.reply_to, sender=alice.email, text=body),
        received_at=turn.orders_deadline - dt.timedelta(hours=1),
        source=InboundMessage.Source.IMAP,
    )

    assert row.status == InboundMessage.Status.ACCEPTED, row.answer.text
    orders = {o.army: o for o in sheet_from_json(OrderSubmission.objects.get().entries).orders}
    assert (orders[first.id].kind, orders[first.id].target) == (OrderKind.MOVE, target.number)


def test_a_line_without_a_colon_in_the_middle_of_the_players_sheet_is_still_refused_naming_it(
    turn,
    alice,  # noqa: F811
    two_armies,  # noqa: F811
    reminder,  # noqa: F811
):
    first, _ = two_armies
    target = neighbour(first)
    sheet = _own_sheet(reminder, first, f"Order: Move into {target.number}\nThanks, see you Tuesday!")
    row = message_receive(
        mail(to=reminder.reply_to, sender=alice.email, text=sheet + "\n\nThanks,\nHans\n"),
        received_at=turn.orders_deadline - dt.timedelta(hours=1),
        source=InboundMessage.Source.IMAP,
    )

    assert row.status == InboundMessage.Status.REFUSED, row.reason
    assert not OrderSubmission.objects.exists()
    assert '"Thanks, see you Tuesday!" is no line of an order sheet' in row.answer.text
    assert '"Hans"' not in row.answer.text
