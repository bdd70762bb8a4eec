"""A plain-text mail hard-wrapped by the mail program (Gmail's plain-text mode breaks every line at 78
characters, Outlook at 76 by default, 30 to 132 as set; no format=flowed marks): a sheet line broken
where the break is sure (after ";" or "=", or its rest holding an entry's "=" or ";") is joined and
the sheet filed; a line broken elsewhere is refused, naming the broken-off words, never read without
them (decision 612; README, "Orders by email"; Using Tomb Raiders)."""

from __future__ import annotations

import datetime as dt
import textwrap

from inbox.models import InboundMessage
from inbox.services.receive import message_receive
from orders.models import OrderSubmission
from orders.services.sheet_text import order_sheet_text
from tests.clients import user_named
from tests.orders.test_rival_mission_service import _force

from .messages import mail, to_player
from .test_flowed_text import MISSION


def hard_wrapped(text: str, width: int) -> str:
    """`text` as a mail program that hard-wraps sends it: each line broken at spaces to `width`."""
    out = []
    for line in text.split("\n"):
        out += textwrap.wrap(line, width, break_long_words=False, break_on_hyphens=False) or [line]
    return "\n".join(out) + "\n"


def test_a_mission_line_gmail_broke_at_78_characters_is_joined_and_the_sheet_filed(turn, ostland):
    _force(ostland)
    alice = user_named("alice")
    body = hard_wrapped(order_sheet_text(kingdom=ostland, turn=turn) + MISSION + "\n\nThanks,\nHans", 78)
    assert "\nTor Anlec: the Warlord\n" not in body and len(max(body.splitlines(), key=len)) <= 78
    row = message_receive(
        mail(to=to_player(alice), sender=alice.email, text=body),
        received_at=turn.orders_deadline - dt.timedelta(hours=1),
        source=InboundMessage.Source.IMAP,
    )
    assert row.status == InboundMessage.Status.ACCEPTED, row.answer.text if row.answer else row.reason
    (mission,) = OrderSubmission.objects.get(sheet__kingdom=ostland).entries["missions"]
    assert mission["desired"] == "character-bio"


def test_a_line_broken_where_the_break_is_not_sure_is_refused_naming_the_broken_off_words(turn, ostland):
    """Outlook set to wrap at 48 breaks "... target character = Tor Anlec: the" above "Warlord": the
    first breaks are joined, "Warlord" is refused, named, never left out as a sign-off."""
    _force(ostland)
    alice = user_named("alice")
    body = order_sheet_text(kingdom=ostland, turn=turn) + hard_wrapped(MISSION, 48) + "\nThanks,\nHans\n"
    row = message_receive(
        mail(to=to_player(alice), sender=alice.email, text=body),
        received_at=turn.orders_deadline - dt.timedelta(hours=1),
        source=InboundMessage.Source.IMAP,
    )
    assert row.status == InboundMessage.Status.REFUSED, row.reason
    assert '"Warlord" is no line of an order sheet' in row.answer.text
    assert not OrderSubmission.objects.exists()
