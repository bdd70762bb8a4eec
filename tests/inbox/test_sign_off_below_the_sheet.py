"""A player who writes their own whole sheet (not quoted) and signs off below it without the "-- "
delimiter ("Thanks,\nHans"): the sign-off is left out and the sheet filed (decision 611; README,
"Orders by email"); a line without a colon in the middle of the sheet is still refused, naming it."""

from __future__ import annotations

import datetime as dt

import pytest

from inbox.models import InboundMessage
from inbox.services.receive import message_receive
from orders.entries import sheet_from_json
from orders.models import OrderSubmission
from rulebook.turn.write_orders.records import OrderKind
from tests.battles.conftest import battles_filed, battles_posted  # noqa: F401 (the fixtures)

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


@pytest.mark.usefixtures("battles_posted")
def test_a_sign_off_below_the_players_own_turn_summary_sheet_is_left_out(k, turn):
    """The same for a turn summary sheet the player writes out (Campaign Schedule: "Email Turn Summary
    Sheet to campaign organizer"), without its "Story:" line: below that line every line is the
    battle report (decision 543), a sign-off there included."""
    from battles.models import Battle, TurnSummarySheet
    from reports.models import ReportEmail
    from tests.clients import user_named

    player = user_named("alice")
    battle = Battle.objects.get(turn=turn, province__number=62)
    scenario = ReportEmail.objects.get(report__battle=battle, user=player)
    own = "\n".join(
        "Battle result: Minor Loss" if line.startswith("Battle result:") else line
        for line in scenario.text.splitlines()
        if not line.startswith("Story:")
    )
    row = message_receive(
        mail(
            to=scenario.reply_to,
            sender=player.email,
            subject=f"Re: {scenario.subject}",
            text=own + "\n\nThanks,\nHans\n",
        ),
        received_at=turn.results_deadline - dt.timedelta(hours=1),
        source=InboundMessage.Source.IMAP,
    )
    assert row.status == InboundMessage.Status.ACCEPTED, row.answer.text if row.answer else row.reason
    sheet = TurnSummarySheet.objects.get(battle=battle, kingdom=k["Ostland"])
    assert sheet.result == "minor-loss" and sheet.story == ""
