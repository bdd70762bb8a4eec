"""A plain-text mail in format=flowed (RFC 3676; Thunderbird's default, and many others'): the mail
program breaks a line longer than about 72 characters with a soft break (a space at the end of the
broken part) and the reader joins it again. A sheet's line that the player typed on one line (a
Tomb Raider mission, a purchase) is read as one line, never as two lines the sheet cannot read
(README, "Orders by email"; Using Tomb Raiders)."""

from __future__ import annotations

import datetime as dt
import textwrap
from email import policy
from email.parser import BytesParser

from inbox.mail_text import message_text
from inbox.models import InboundMessage
from inbox.services.receive import message_receive
from orders.models import OrderSubmission
from orders.services.sheet_text import order_sheet_text
from tests.clients import user_named
from tests.orders.test_rival_mission_service import _force

from .messages import to_player

MISSION = (
    "Tomb Raider mission: kind = reconnaissance; target kingdom = Tor Anlec; desired = character-bio; "
    "target character = Tor Anlec: the Warlord"
)


def flowed(text: str, *, delsp: bool = False) -> str:
    """`text` as a format=flowed mail program sends it: each line longer than 72 characters broken at
    spaces, every part but the last ending in a space (with delsp=yes the break's own space is added)."""
    out = []
    for line in text.split("\n"):
        if len(line) <= 70:  # a short line (the signature's "-- " among them) goes as it is
            out.append(line)
            continue
        quote = "> " if line.startswith("> ") else ""  # a quoted line's parts each carry its quote mark
        parts = textwrap.wrap(line.removeprefix(quote), 70, break_long_words=False) or [""]
        broken = [p + ("  " if delsp else " ") for p in parts[:-1]]  # delsp=yes: the break adds its own space
        out += [quote + p for p in (*broken, parts[-1])]
    return "\r\n".join(out) + "\r\n"


def raw_mail(to: str, sender: str, body: str, *, delsp: bool) -> bytes:
    return (
        f"From: {sender}\r\nTo: {to}\r\nSubject: Re: orders\r\nMessage-ID: <flowed-{delsp}@example.org>\r\n"
        "MIME-Version: 1.0\r\n"
        f"Content-Type: text/plain; charset=utf-8; format=flowed; delsp={'yes' if delsp else 'no'}\r\n"
        "Content-Transfer-Encoding: 8bit\r\n\r\n" + body
    ).encode()


def test_a_soft_broken_line_is_read_as_one():
    body = flowed("Campaign: X\n" + MISSION + "\n> quoted " + ("word " * 20).strip() + "\n-- \nHans")
    assert len(body.splitlines()) > 5  # the mission line was broken in two
    for delsp in (False, True):
        text, _ = message_text(
            BytesParser(policy=policy.default).parsebytes(
                raw_mail("o@x", "p@x", flowed(MISSION, delsp=delsp), delsp=delsp)
            )
        )
        assert text.splitlines()[0] == MISSION
    text, _ = message_text(BytesParser(policy=policy.default).parsebytes(raw_mail("o@x", "p@x", body, delsp=False)))
    assert text.splitlines()[:2] == ["Campaign: X", MISSION]
    assert text.splitlines()[2] == "> quoted " + ("word " * 20).strip()  # a quoted line joined at its depth
    assert "-- " in text.splitlines()  # the signature line stays the signature's


def test_a_sheet_mailed_in_format_flowed_with_a_long_mission_line_is_filed(turn, ostland):
    _force(ostland)
    alice = user_named("alice")
    sheet = order_sheet_text(kingdom=ostland, turn=turn) + MISSION + "\n"
    row = message_receive(
        raw_mail(to_player(alice), alice.email, flowed(sheet), delsp=False),
        received_at=turn.orders_deadline - dt.timedelta(hours=1),
        source=InboundMessage.Source.IMAP,
    )
    assert row.status == InboundMessage.Status.ACCEPTED, row.answer.text if row.answer else row.reason
    (mission,) = OrderSubmission.objects.get(sheet__kingdom=ostland).entries["missions"]
    assert mission["desired"] == "character-bio"
