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
