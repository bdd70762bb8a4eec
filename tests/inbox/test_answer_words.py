"""The answer to a refused sheet names what the player wrote as they wrote it: the kingdom a transfer,
an alliance or a land deal names by its name (not its number in the database), and the words a field
takes without an empty one among them (README, "Orders by email": "each problem with its line, army
and rule"; Transfer of Gold, Allies, Land Sales, Using Tomb Raiders)."""

from __future__ import annotations

import datetime as dt

import pytest

from inbox.models import InboundMessage
from inbox.services.receive import message_receive
from orders.services.sheet_text import order_sheet_text
from tests.clients import user_named

from .messages import mail, to_player


@pytest.mark.parametrize(
    ("line", "said"),
    [
        ("Transfer gold: kingdom = Ostland; gold = 10", "Ostland is not another player's kingdom of this campaign"),
        ("Transfer item: kingdom = Ostland; item = Runefang", "Ostland is not another player's kingdom"),
        ("Declare alliance: kingdom = Ostland", "Ostland is not another player's kingdom of this campaign"),
        ("Land deal: kingdom = The Ancient Dead; gold = 10", "The Ancient Dead is not another player's kingdom"),
        (
            "Tomb Raider mission: kind = reconnaissance; target kingdom = Tor Anlec; desired = bogus",
            "desired should be one of character-bio, treasury-info,",
        ),
    ],
)
def test_the_refusal_names_the_kingdom_and_the_choices_as_a_player_reads_them(turn, ostland, line, said):
    alice = user_named("alice")
    row = message_receive(
        mail(to=to_player(alice), sender=alice.email, text=order_sheet_text(kingdom=ostland, turn=turn) + line),
        received_at=turn.orders_deadline - dt.timedelta(hours=1),
        source=InboundMessage.Source.IMAP,
    )
    assert row.status == InboundMessage.Status.REFUSED
    text = row.answer.text
    assert said in text, text
    assert f"Kingdom {ostland.pk} " not in text and "one of ," not in text


def test_an_army_over_the_army_table_is_refused_on_its_line_naming_the_rule(turn, ostland):
    """Army Table: the number of armies a kingdom may keep; the refusal of a new army over it is placed
    on the new army's line, in words ("1 army", not "army(ies)"), with the rule's name."""
    alice = user_named("alice")
    sheet = order_sheet_text(kingdom=ostland, turn=turn)
    line = f"Create army: name = Second Host; points = 1000; province = {ostland.capitol.number}"
    row = message_receive(
        mail(to=to_player(alice), sender=alice.email, text=sheet + line),
        received_at=turn.orders_deadline - dt.timedelta(hours=1),
        source=InboundMessage.Source.IMAP,
    )
    assert row.status == InboundMessage.Status.REFUSED
    number = len(sheet.splitlines()) + 1
    (refusal,) = [x for x in row.answer.text.splitlines() if "Army Table allows" in x]
    assert refusal.startswith(f"Line {number}: Creating 1 army would give the kingdom 2 armies")
    assert refusal.endswith("(Army Table).") and "army(ies)" not in refusal
