"""Battles are not anonymous (issue 18, point 6): the battle page and the scenario sheet name each
side's players; a player writes to the other side through the site (emailed by the outbox, Reply-To
the sender, no address on any page); the battle's players see that their two turn summary sheets
disagree (rules decision 320) and the organizer's ruling, which never reads "Agreed" (Turn Summary
Sheet; 7. Aftermath: the organizer decides a conflict). Only the battle's players and the organizer
see any of it."""

from __future__ import annotations

import io

import pytest
from django.core import mail
from pypdf import PdfReader

from battles.models import Battle
from battles.services.summaries import battle_rule, summary_sheet_save
from outbox.models import Email
from tests.clients import pages_as, user_named


@pytest.fixture
def hartwood(turn, battles_posted) -> Battle:
    """Tor Anlec's Raiders (dave) attack Ostland's Wardens (alice), whom Ostland's 1st Army supports."""
    return Battle.objects.get(turn=turn, province__number=62)


def _page(name: str, battle: Battle):  # type: ignore[no-untyped-def]
    return pages_as(name).get(f"/battles/{battle.pk}/")


def test_the_battle_page_and_the_scenario_sheet_name_the_players_of_each_side(hartwood):
    # The demo's players chose no display name: they are shown by their login names.
    alice = _page("alice", hartwood).content.decode()
    players_row = alice.split('<tr class="players">')[1].split("</tr>")[0]
    assert "Tor Anlec (dave)" in players_row and "Ostland (alice)" in players_row
    opponents = alice.split('id="opponents"')[1].split("</section>")[0]
    assert "Tor Anlec (dave)" in opponents and "Ostland" not in opponents
    assert "@" not in players_row + opponents  # never an address
    dave = _page("dave", hartwood).content.decode()
    assert "Ostland (alice)" in dave.split('id="opponents"')[1].split("</section>")[0]

    pdf = pages_as("alice").get(f"/battles/{hartwood.pk}/scenario.pdf")
    text = " ".join(page.extract_text() for page in PdfReader(io.BytesIO(pdf.content)).pages)
    assert "Tor Anlec (dave)" in text and "Ostland (alice)" in text

    # Secrecy: a player not in the battle does not find it.
    assert _page("carol", hartwood).status_code == 404


def test_a_player_writes_to_the_other_side_and_the_email_answers_to_the_sender(
    hartwood, django_capture_on_commit_callbacks
):
    mail.outbox.clear()
    alice = pages_as("alice")
    with django_capture_on_commit_callbacks(execute=True):
        response = alice.post(
            f"/battles/{hartwood.pk}/message/", {"message": "Thursday at the club, 7pm? Bring the Raiders."}
        )
    assert response.status_code == 302
    (message,) = mail.outbox
    assert message.to == ["dave@briternia.local"] and message.reply_to == ["alice@briternia.local"]
    assert (
        message.subject
        == "Demo: The Awakening of the Ancients, turn 1: alice (Ostland) writes about the battle in 62 Hartwood"
    )
    (html,) = [content for content, mimetype in message.alternatives if mimetype == "text/html"]
    for part in (message.body, html):
        assert "Thursday at the club, 7pm? Bring the Raiders." in part
        assert f"/battles/{hartwood.pk}/" in part
        assert "alice@" not in part  # the address travels as Reply-To alone
    assert "Reply to this email to answer alice: the reply goes to them." in message.body
    assert Email.objects.get(kind=Email.Kind.BATTLE_MESSAGE).reply_to == "alice@briternia.local"
    followed = alice.get(response["Location"]).content.decode()
    assert "Your message is on its way to 1 player." in followed


def test_a_message_the_rules_refuse_sends_nothing_and_says_why(hartwood, django_capture_on_commit_callbacks):
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        empty = pages_as("dave").post(f"/battles/{hartwood.pk}/message/", {"message": "  "}, follow=True)
        too_long = pages_as("dave").post(f"/battles/{hartwood.pk}/message/", {"message": "x" * 2001}, follow=True)
        # The organizer runs the campaign but plays neither side of this battle.
        organizer = pages_as("organizer").post(f"/battles/{hartwood.pk}/message/", {"message": "Hello"}, follow=True)
        # Carol's Karak Dumn is not in the battle: it is not found.
        carol = pages_as("carol").post(f"/battles/{hartwood.pk}/message/", {"message": "Hello"})
    assert "Battle in 62 Hartwood: write a message." in empty.content.decode()
    assert "the message is 2001 characters; at most 2000." in too_long.content.decode()
    assert "only the players of the battle write to their opponents here." in organizer.content.decode()
    assert carol.status_code == 404
    assert mail.outbox == [] and not Email.objects.filter(kind=Email.Kind.BATTLE_MESSAGE).exists()


def _file(battle: Battle, name: str, result: str) -> None:
    kingdom = battle.attacker_kingdom if name == "dave" else battle.defender_kingdom
    summary_sheet_save(battle=battle, kingdom=kingdom, data={"result": result}, entered_by=user_named(name))


def test_both_players_see_that_their_sheets_disagree_then_the_organizer_s_ruling(hartwood):
    _file(hartwood, "dave", "minor-victory")
    _file(hartwood, "alice", "major-victory")
    for name in ("alice", "dave"):
        page = _page(name, hartwood).content.decode()
        assert (
            "Your two turn summary sheets disagree: the attacker reports a minor victory, the defender a major "
            "victory (it should be a minor loss). The organizer decides the result."
        ) in page
    assert "disagree" not in _page("bob", Battle.objects.get(turn=hartwood.turn, province__number=61)).content.decode()
    # The turn's battles page says it too, to the battle's players alone.
    battles_page = f"/turns/{hartwood.turn.pk}/battles/"
    assert "Your two turn summary sheets disagree" in pages_as("dave").get(battles_page).content.decode()
    assert "disagree" not in pages_as("bob").get(battles_page).content.decode()

    battle_rule(
        battle=hartwood,
        result="minor-victory",
        attacker_withdrew=False,
        defender_withdrew=False,
        note="Both agreed on the phone.",
        ruled_by=user_named("organizer"),
    )
    ruling = (
        "Decided by the organizer: Minor victory for the attacker; the attacker wins. Note: Both agreed on the phone."
    )
    for name in ("alice", "dave", "organizer"):
        page = _page(name, hartwood).content.decode()
        assert ruling in page and "Agreed" not in page and "disagree" not in page
    turn_page = pages_as("organizer").get(f"/turns/{hartwood.turn.pk}/battles/").content.decode()
    assert ruling in turn_page
    assert pages_as("organizer").get(f"/api/battles/{hartwood.pk}/").json()["standing"] == ruling
