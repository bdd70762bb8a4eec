"""Diplomacy (issue 37): messages between kingdoms, one to one and to several, the organizer's
announcements to all, an email per message or a daily digest as each player chooses, the limits,
and secrecy per endpoint: a third kingdom never reads a message. The demo campaign: alice plays
Ostland, bob Da Red Fang, carol Karak Dumn, dave Tor Anlec; the organizer the Ancient Dead."""

from __future__ import annotations

import datetime as dt

import pytest
from django.core import mail
from django.utils import timezone

from briternia.errors import DomainError
from diplomacy.models import MESSAGE_MAX, Message
from diplomacy.services.digests import message_digests_send
from diplomacy.services.messages import MESSAGES_PER_HOUR, message_send
from kingdoms.models import ReportPreferences
from tests.clients import api_as, error_details, pages_as, user_named


def _send(k, sender: str, kingdom: str, to: list[str], text: str, capture, **kw) -> Message:
    with capture(execute=True):
        return message_send(
            campaign=k[kingdom].campaign,
            sender=user_named(sender),
            kingdom=k[kingdom],
            to=[k[name].pk for name in to],
            text=text,
            **kw,
        )


def _to(subject_part: str) -> list[str]:
    return sorted(a for m in mail.outbox if subject_part in m.subject for a in m.to)


def test_a_message_to_two_kingdoms_reaches_their_players_and_no_third(k, django_capture_on_commit_callbacks):
    """Ostland writes to Tor Anlec and Karak Dumn: dave and carol are emailed; bob (Da Red Fang) reads
    it on no page and in no API answer, nor is he emailed."""
    mail.outbox.clear()
    message = _send(
        k,
        "alice",
        "Ostland",
        ["Tor Anlec", "Karak Dumn"],
        "Shall we share the pass at 14?",
        django_capture_on_commit_callbacks,
    )
    assert _to("a message from Ostland") == ["carol@briternia.local", "dave@briternia.local"]
    (email, _) = [m for m in mail.outbox if "a message from Ostland" in m.subject]
    assert "Ostland (alice) writes to Karak Dumn, Tor Anlec" in email.body
    assert "Shall we share the pass at 14?" in email.body
    assert "alice@briternia.local" not in email.body + " ".join(email.reply_to)  # never the sender's address
    campaign = k["Ostland"].campaign
    for reader in ("alice", "dave", "carol"):
        assert "Shall we share the pass" in pages_as(reader).get(f"/campaigns/{campaign.pk}/messages/").content.decode()
        assert [m["id"] for m in api_as(reader).get(f"/api/campaigns/{campaign.pk}/messages/").json()] == [message.pk]
    bob_page = pages_as("bob").get(f"/campaigns/{campaign.pk}/messages/")
    assert bob_page.status_code == 200 and "Shall we share the pass" not in bob_page.content.decode()
    assert api_as("bob").get(f"/api/campaigns/{campaign.pk}/messages/").json() == []
    # The organizer, the game master, reads it (the page tells the players so).
    assert (
        "Shall we share the pass" in pages_as("organizer").get(f"/campaigns/{campaign.pk}/messages/").content.decode()
    )


def test_a_stranger_to_the_campaign_finds_nothing(k, django_capture_on_commit_callbacks):
    from django.contrib.auth import get_user_model

    get_user_model().objects.create_user("mallory", "mallory@example.org", "x")
    campaign = k["Ostland"].campaign
    _send(k, "alice", "Ostland", ["Tor Anlec"], "Secret", django_capture_on_commit_callbacks)
    assert pages_as("mallory").get(f"/campaigns/{campaign.pk}/messages/").status_code == 404
    assert api_as("mallory").get(f"/api/campaigns/{campaign.pk}/messages/").status_code == 404
    assert (
        api_as("mallory")
        .post(f"/api/campaigns/{campaign.pk}/messages/", {"to": [k["Ostland"].pk], "text": "hi"}, format="json")
        .status_code
        == 404
    )


def test_the_page_sends_a_message_and_refuses_a_bad_one_saving_nothing(k):
    campaign = k["Ostland"].campaign
    alice = pages_as("alice")
    url = f"/campaigns/{campaign.pk}/messages/"
    refused = alice.post(url, {"sender": k["Ostland"].pk, "to": [k["Tor Anlec"].pk], "text": "x" * (MESSAGE_MAX + 1)})
    assert refused.status_code == 400 and f"at most {MESSAGE_MAX:,}" in refused.content.decode()
    nobody = alice.post(url, {"sender": k["Ostland"].pk, "text": "To whom?"})
    assert nobody.status_code == 400 and "Choose the kingdoms to write to." in nobody.content.decode()
    foreign = alice.post(url, {"sender": k["Tor Anlec"].pk, "to": [k["Karak Dumn"].pk], "text": "As Tor Anlec"})
    assert foreign.status_code == 400  # a kingdom alice does not play is not hers to sign for
    assert not Message.objects.exists()
    sent = alice.post(url, {"sender": k["Ostland"].pk, "to": [k["Tor Anlec"].pk], "text": "Peace?"})
    assert sent.status_code == 302
    (message,) = Message.objects.all()
    assert message.sender_kingdom == k["Ostland"] and list(message.recipients.all()) == [k["Tor Anlec"]]
    assert message.turn_number == campaign.current_turn


def test_the_api_refuses_an_announcement_by_a_player_and_a_message_to_oneself(k):
    campaign = k["Ostland"].campaign
    url = f"/api/campaigns/{campaign.pk}/messages/"
    announced = api_as("alice").post(url, {"text": "Hear ye", "announcement": True}, format="json")
    assert announced.status_code == 400
    assert "Only the organizer makes announcements to every kingdom." in error_details(announced)
    oneself = api_as("alice").post(url, {"to": [k["Ostland"].pk], "text": "Hello me"}, format="json")
    assert oneself.status_code == 400 and any("not another kingdom" in m for m in error_details(oneself))
    assert not Message.objects.exists()
    sent = api_as("alice").post(url, {"to": [k["Karak Dumn"].pk], "text": "Gold for iron?"}, format="json")
    assert sent.status_code == 201 and sent.json()["recipients"] == ["Karak Dumn"]
    assert sent.json()["sender"] == "Ostland (alice)"


def test_the_organizer_announces_to_every_kingdom(k, django_capture_on_commit_callbacks):
    mail.outbox.clear()
    campaign = k["Ostland"].campaign
    with django_capture_on_commit_callbacks(execute=True):
        response = api_as("organizer").post(
            f"/api/campaigns/{campaign.pk}/messages/",
            {"text": "The club is closed on Tuesday: play on Wednesday.", "announcement": True},
            format="json",
        )
    assert response.status_code == 201 and response.json()["announcement"] is True
    players = {"alice@briternia.local", "bob@briternia.local", "carol@briternia.local", "dave@briternia.local"}
    assert players <= set(_to("an announcement from the organizer"))
    for reader in ("alice", "bob", "carol", "dave"):
        page = pages_as(reader).get(f"/campaigns/{campaign.pk}/messages/").content.decode()
        assert "The club is closed on Tuesday" in page and "The organizer (to every kingdom)" in page


def test_at_most_twenty_messages_an_hour(k, django_capture_on_commit_callbacks):
    now = timezone.now()
    for i in range(MESSAGES_PER_HOUR):
        _send(k, "alice", "Ostland", ["Tor Anlec"], f"Message {i}", django_capture_on_commit_callbacks, now=now)
    with pytest.raises(DomainError, match="the most the site sends"):
        _send(k, "alice", "Ostland", ["Tor Anlec"], "One more", django_capture_on_commit_callbacks, now=now)
    assert Message.objects.count() == MESSAGES_PER_HOUR
    # An hour later, one more may go.
    later = now + dt.timedelta(hours=1, seconds=1)
    _send(k, "alice", "Ostland", ["Tor Anlec"], "Later", django_capture_on_commit_callbacks, now=later)


def test_a_player_who_chose_the_digest_gets_one_email_a_day_and_none_per_message(k, django_capture_on_commit_callbacks):
    """dave chose the daily digest, carol no email: dave gets nothing when the messages are sent, then
    one email with both at the digest; carol none; a second digest the same day sends nothing."""
    ReportPreferences.objects.create(user=user_named("dave"), message_emails="digest")
    ReportPreferences.objects.create(user=user_named("carol"), message_emails="none")
    mail.outbox.clear()
    _send(k, "alice", "Ostland", ["Tor Anlec", "Karak Dumn"], "First letter", django_capture_on_commit_callbacks)
    _send(k, "bob", "Da Red Fang", ["Tor Anlec"], "Waaagh!", django_capture_on_commit_callbacks)
    assert mail.outbox == []
    with django_capture_on_commit_callbacks(execute=True):
        assert message_digests_send(now=timezone.now() + dt.timedelta(minutes=1)) == 1
    (digest,) = mail.outbox
    assert digest.to == ["dave@briternia.local"] and "2 messages for Tor Anlec" in digest.subject
    assert "First letter" in digest.body and "Waaagh!" in digest.body and "Da Red Fang (bob)" in digest.body
    with django_capture_on_commit_callbacks(execute=True):
        assert message_digests_send(now=timezone.now() + dt.timedelta(minutes=2)) == 0


def test_the_preferences_page_chooses_how_messages_arrive(k):
    dave = pages_as("dave")
    page = dave.get("/account/reports/").content.decode()
    assert 'name="message_emails"' in page
    dave.post("/account/reports/", {"report_email": "", "attach_pdf": "on", "message_emails": "digest"})
    assert ReportPreferences.objects.get(user=user_named("dave")).message_emails == "digest"


def test_a_restore_undoes_the_turn_not_the_letters_written_since(k, django_capture_on_commit_callbacks):
    """The organizer restores turn 1 to before its orders phase (transfer/snapshots.py): what was
    resolved is undone, but a letter Ostland wrote after the snapshot was taken stays written."""
    from tests.battle_setup import file_battle_orders
    from tests.transfer.test_snapshots import resolve, restore
    from transfer.models import Snapshot

    campaign = k["Ostland"].campaign
    turn = campaign.turns.get(number=1)
    file_battle_orders(campaign, turn)
    resolve(turn, django_capture_on_commit_callbacks)
    _send(k, "alice", "Ostland", ["Tor Anlec"], "After the battle: terms?", django_capture_on_commit_callbacks)
    restore(Snapshot.objects.get(), django_capture_on_commit_callbacks)
    (message,) = Message.objects.filter(campaign=campaign)
    assert message.text == "After the battle: terms?" and list(message.recipients.all()) == [k["Tor Anlec"]]
    assert "After the battle: terms?" in pages_as("dave").get(f"/campaigns/{campaign.pk}/messages/").content.decode()
