"""A Tomb Raider mission filed by email names the rival's army and character as the site's drop-downs
do (rules decisions 340 and 455: "a player never sees another kingdom's armies or characters unless
the rules reveal them, and the sheet must not list what the spy has not learned"; Reconnaissance:
"Army Statistics: The Location and Army list ... of any one army"). The mail's answer (the sheet
read back, the known names it lists for a name it cannot read) names no rival army that never fought
and no rival character by a name the spy has not learned; an army named by a name two rivals share
is the army of the kingdom the mission goes against."""

from __future__ import annotations

import datetime as dt

import pytest

from inbox.models import InboundMessage
from inbox.services.receive import message_receive
from kingdoms.models import Army, Character, Kingdom
from kingdoms.services.world import world_changed
from orders.models import OrderSubmission
from orders.services.sheet_text import order_sheet_text
from tests.clients import user_named
from tests.orders.test_rival_mission_service import _force

from .messages import mail, to_player


def _file(kingdom: Kingdom, turn, line: str) -> InboundMessage:  # type: ignore[no-untyped-def]
    """`line` added to the kingdom's sheet as the turn's email carries it, mailed by alice to her address."""
    alice = user_named("alice")
    text = order_sheet_text(kingdom=kingdom, turn=turn) + line + "\n"
    row = message_receive(
        mail(to=to_player(alice), sender=alice.email, subject="Re: orders", text=text),
        received_at=turn.orders_deadline - dt.timedelta(hours=2),
        source=InboundMessage.Source.IMAP,
    )
    if row.answer is not None:
        row.answer.refresh_from_db()
    return row


def test_the_answer_to_a_misnamed_target_names_no_hidden_rival_army_and_no_rivals_character_by_name(turn, k, ostland):
    """Karak Dumn has raised an army that never fought ("Secret Host"): nobody else knows of it. Alice
    misspells the rival army of her Army Statistics and names Tor Anlec's Warlord by his name: both are
    refused, and the answer lists only what the site's sheet offers (decision 455)."""
    _force(ostland)
    karak = k["Karak Dumn"]
    Army.objects.create(kingdom=karak, name="Secret Host", province=karak.capitol, size=1000)
    world_changed(turn.campaign_id)
    warlords = list(
        Character.objects.filter(kingdom__campaign=turn.campaign, role=Character.Role.WARLORD)
        .exclude(kingdom=ostland)
        .values_list("unit__name", flat=True)
    )
    assert "Prince Imrik" in warlords

    army = _file(
        ostland,
        turn,
        "Tomb Raider mission: kind = reconnaissance; target kingdom = Karak Dumn; desired = army-statistics; "
        "target army = Secret Hots",
    )
    character = _file(
        ostland,
        turn,
        "Tomb Raider mission: kind = reconnaissance; target kingdom = Tor Anlec; desired = character-bio; "
        "target character = Prince Imrik",
    )

    for row in (army, character):
        assert row.status == InboundMessage.Status.REFUSED, row.reason
        assert "Secret Host" not in row.answer.text and "Secret Host" not in row.answer.html
        for name in warlords:  # none named but as the player wrote it, quoted
            for body in (row.answer.text, row.answer.html.replace("&quot;", '"')):
                assert body.count(name) == body.count(f'"{name}"'), body
    assert not OrderSubmission.objects.filter(sheet__kingdom=ostland).exists()
    # What may be named is named as the page's drop-down names it: the Warlord by his place.
    assert "Tor Anlec: the Warlord" in character.answer.text


def test_a_character_bio_names_the_warlord_by_his_place_and_the_sheet_reads_back_the_same(turn, k, ostland):
    _force(ostland)
    warlord = Character.objects.get(kingdom=k["Tor Anlec"], role=Character.Role.WARLORD)
    row = _file(
        ostland,
        turn,
        "Tomb Raider mission: kind = reconnaissance; target kingdom = Tor Anlec; desired = character-bio; "
        "target character = Tor Anlec: the Warlord",
    )
    assert row.status == InboundMessage.Status.ACCEPTED, row.answer.text if row.answer else row.reason
    (mission,) = OrderSubmission.objects.get(sheet__kingdom=ostland, sheet__turn=turn).entries["missions"]
    assert mission["target_character"] == warlord.pk
    written = order_sheet_text(kingdom=ostland, turn=turn)
    assert "target character = Tor Anlec: the Warlord" in written and warlord.unit.name not in written


@pytest.mark.parametrize("against", ["Tor Anlec", "Da Red Fang"])
def test_a_rival_army_named_by_a_name_two_rivals_share_is_the_army_of_the_kingdom_the_mission_goes_against(
    reported, k, against
):
    """Turn 2: Tor Anlec's Raiders and Da Red Fang's army fought in turn 1 (the bulletin names both);
    both are called Raiders. An Army Statistics against either, naming "Raiders", is about that
    kingdom's army, and the sheet written back (the next email's) reads back the same."""
    ostland = k["Ostland"]
    _force(ostland)
    Army.objects.filter(kingdom=k["Da Red Fang"], name="Boyz").update(name="Raiders")
    world_changed(reported.campaign_id)
    turn = reported.campaign.turns.get(number=2)
    target = Army.objects.get(kingdom=k[against], name="Raiders")

    row = _file(
        ostland,
        turn,
        f"Tomb Raider mission: kind = reconnaissance; target kingdom = {against}; desired = army-statistics; "
        "target army = Raiders",
    )

    assert row.status == InboundMessage.Status.ACCEPTED, row.answer.text if row.answer else row.reason
    (mission,) = OrderSubmission.objects.get(sheet__kingdom=ostland, sheet__turn=turn).entries["missions"]
    assert mission["target_army"] == target.pk
    again = _file(ostland, turn, "")  # the sheet as the site writes it now, mailed back unchanged
    assert again.status == InboundMessage.Status.ACCEPTED, again.answer.text if again.answer else again.reason
    latest = OrderSubmission.objects.filter(sheet__kingdom=ostland, sheet__turn=turn).latest("pk")
    (mission,) = latest.entries["missions"]
    assert mission["target_army"] == target.pk
