"""Battles are not anonymous (issue 18, point 6): the battle page and the scenario sheet name each
side's players; a player writes to the other side through the site (emailed by the outbox, Reply-To
the sender, no address on any page); the battle's players see that their two turn summary sheets
disagree (rules decision 320) and the organizer's ruling, which never reads "Agreed" (Turn Summary
Sheet; 7. Aftermath: the organizer decides a conflict). Only the battle's players and the organizer
see any of it."""

from __future__ import annotations

import datetime as dt
import io

import pytest
from django.core import mail
from freezegun import freeze_time
from pypdf import PdfReader

from battles.models import Battle
from battles.services.summaries import battle_rule, summary_sheet_save
from outbox.models import Email
from tests.clients import api_as, error_details, pages_as, user_named


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


def _api(name: str):  # type: ignore[no-untyped-def]
    return api_as(name)


def test_the_battle_api_names_the_players_and_the_reader_s_opponents(hartwood):
    """Issue 18, point 6, through the API: each side's kingdoms with their players' display names
    (never an address), and the reader's opponents; only the battle's players and the organizer
    read it."""
    alice = _api("alice").get(f"/api/battles/{hartwood.pk}/")
    assert alice.status_code == 200
    data = alice.json()
    assert data["players"]["attacker"] == [
        {"kingdom": hartwood.attacker_kingdom_id, "kingdom_name": "Tor Anlec", "players": ["dave"]}
    ]
    assert [s["kingdom_name"] for s in data["players"]["defender"]] == ["Ostland"]
    assert data["players"]["defender"][0]["players"] == ["alice"]
    assert data["opponents"] == data["players"]["attacker"]
    assert data["disagreement"] is None and data["ruling"] is None and "standing" not in data
    assert "@" not in alice.content.decode()
    dave = _api("dave").get(f"/api/battles/{hartwood.pk}/").json()
    assert dave["opponents"] == data["players"]["defender"]
    # The organizer plays neither side: no opponents, and his own line on the sheets.
    organizer = _api("organizer").get(f"/api/battles/{hartwood.pk}/").json()
    assert organizer["opponents"] == [] and organizer["players"] == data["players"] and "standing" in organizer
    # The turn's battles say the same of each battle the reader sees.
    (listed,) = [
        b for b in _api("alice").get(f"/api/turns/{hartwood.turn_id}/battles/").json() if b["id"] == hartwood.pk
    ]
    assert listed["opponents"] == data["opponents"]
    # Secrecy: Carol's Karak Dumn is not in the battle.
    assert _api("carol").get(f"/api/battles/{hartwood.pk}/").status_code == 404


def test_the_battle_api_tells_its_players_of_the_disagreement_then_the_ruling(hartwood):
    """Rules decision 320 through the API: both players read on what their sheets disagree, then
    the organizer's ruling, which never reads "Agreed"."""
    _file(hartwood, "dave", "minor-victory")
    _file(hartwood, "alice", "major-victory")
    disagreement = "The attacker reports a minor victory, the defender a major victory (it should be a minor loss)."
    for name in ("alice", "dave", "organizer"):
        data = _api(name).get(f"/api/battles/{hartwood.pk}/").json()
        assert data["disagreement"] == disagreement, data["disagreement"]
        assert data["ruling"] is None
    battle_rule(
        battle=hartwood,
        result="minor-victory",
        attacker_withdrew=False,
        defender_withdrew=False,
        note="",
        ruled_by=user_named("organizer"),
    )
    for name in ("alice", "dave"):
        data = _api(name).get(f"/api/battles/{hartwood.pk}/").json()
        assert data["disagreement"] is None
        assert data["ruling"] == "Decided by the organizer: Minor victory for the attacker; the attacker wins."


def test_a_player_writes_to_the_other_side_through_the_api(hartwood, django_capture_on_commit_callbacks):
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        response = _api("dave").post(
            f"/api/battles/{hartwood.pk}/message/", {"message": "Tuesday at mine?\n\nI'll bring dice."}, format="json"
        )
    assert response.status_code == 201 and response.json() == {"recipients": 1}
    (message,) = mail.outbox
    assert message.to == ["alice@briternia.local"] and message.reply_to == ["dave@briternia.local"]
    (html,) = [content for content, mimetype in message.alternatives if mimetype == "text/html"]
    assert "I'll bring dice." in message.body and "I&#x27;ll bring dice." in html
    for part in (message.body, html):
        assert "Tuesday at mine?" in part
        assert f"/battles/{hartwood.pk}/" in part
        assert "dave@" not in part


def test_a_message_through_the_api_is_refused_with_the_reason_and_nothing_sent(
    hartwood, django_capture_on_commit_callbacks
):
    mail.outbox.clear()
    url = f"/api/battles/{hartwood.pk}/message/"
    with django_capture_on_commit_callbacks(execute=True):
        empty = _api("dave").post(url, {"message": " "}, format="json")
        too_long = _api("dave").post(url, {"message": "x" * 2001}, format="json")
        organizer = _api("organizer").post(url, {"message": "Hello"}, format="json")
        carol = _api("carol").post(url, {"message": "Hello"}, format="json")
    assert empty.status_code == 400 and error_details(empty) == ["Battle in 62 Hartwood: write a message."]
    assert error_details(too_long) == ["Battle in 62 Hartwood: the message is 2001 characters; at most 2000."]
    assert error_details(organizer) == [
        "Battle in 62 Hartwood: only the players of the battle write to their opponents here."
    ]
    assert carol.status_code == 404 and error_details(carol)
    assert mail.outbox == [] and not Email.objects.filter(kind=Email.Kind.BATTLE_MESSAGE).exists()


def test_at_most_five_messages_an_hour_per_sender_and_battle(hartwood, django_capture_on_commit_callbacks):
    """Rules decision 363: the sixth message within the hour is refused, naming the limit and when
    the sender may write again, on the site and through the API; nothing is sent. The other side
    may still write, and the sender again once an hour has passed since the oldest."""
    start = dt.datetime(2026, 11, 24, 18, 0, tzinfo=dt.UTC)
    url = f"/api/battles/{hartwood.pk}/message/"
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        for minute in range(5):
            with freeze_time(start + dt.timedelta(minutes=minute * 10)):
                assert _api("dave").post(url, {"message": f"Message {minute}"}, format="json").status_code == 201
        with freeze_time(start + dt.timedelta(minutes=55)):
            refused = _api("dave").post(url, {"message": "One more"}, format="json")
            page = pages_as("dave").post(f"/battles/{hartwood.pk}/message/", {"message": "One more"}, follow=True)
            # Alice, the other side, has her own five.
            assert _api("alice").post(url, {"message": "Yes, Tuesday."}, format="json").status_code == 201
    assert refused.status_code == 400
    (detail,) = error_details(refused)
    assert detail.startswith(
        "Battle in 62 Hartwood: you have sent 5 messages about this battle in the last hour, the most the site "
        "sends (at most 5 an hour per battle); you may write again from "
    ), detail
    # The oldest went at 18:00 UTC: one more may go an hour later (the campaign's time zone).
    assert "Tuesday 24 November 2026, 19:00:00 (Europe/London)" in detail
    assert detail in page.content.decode().replace("&#x27;", "'")
    assert len(mail.outbox) == 6  # five from dave, one from alice; none refused went
    with django_capture_on_commit_callbacks(execute=True), freeze_time(start + dt.timedelta(minutes=60, seconds=1)):
        assert _api("dave").post(url, {"message": "One more, now"}, format="json").status_code == 201
    assert len(mail.outbox) == 7
