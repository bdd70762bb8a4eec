"""The inbox's one service (inbox/services/receive.py, issue 36, "Trust" and "Bad mail"): a mail is
recorded once by its Message-ID, loops and auto-replies are never answered, a mail without a valid
secret changes nothing and is answered only to a registered address, a flood is throttled and an
oversized mail refused unread."""

from __future__ import annotations

import datetime as dt

import pytest
from django.utils import timezone

from inbox.models import InboundMessage
from inbox.services.receive import message_receive
from orders.models import OrderSheet
from outbox.models import Email

from .messages import mail, to_player

NOW = dt.datetime(2026, 12, 6, 12, 0, tzinfo=dt.UTC)


def receive(raw: bytes, *, when: dt.datetime = NOW) -> InboundMessage:
    return message_receive(raw, received_at=when, source=InboundMessage.Source.MAILDROP)


@pytest.fixture
def p1(make_user):
    return make_user("p1")


def test_a_forged_from_without_a_secret_changes_nothing_and_is_answered_only_to_the_registered_address(p1):
    raw = mail(
        to="orders@localhost",
        sender="Player One <P1@Example.org>",
        headers={"Reply-To": "attacker@evil.example"},
    )
    row = receive(raw)
    assert row.status == InboundMessage.Status.REFUSED
    assert "No valid secret" in row.reason
    assert row.user is None and row.sender_user == p1
    assert not OrderSheet.objects.exists()
    (answer,) = Email.objects.all()
    assert answer.to == ["p1@example.org"] and answer.reply_to == ""
    assert row.answer == answer
    assert "nothing was filed" in answer.text


def test_a_mail_without_a_secret_from_an_unknown_sender_is_recorded_and_not_answered(p1):
    row = receive(mail(to="orders@localhost", sender="someone@elsewhere.example"))
    assert row.status == InboundMessage.Status.REFUSED
    assert row.sender_user is None
    assert not Email.objects.exists()


def test_a_wrong_secret_is_no_secret(p1):
    to_player(p1)  # p1 has a secret, but not this one
    row = receive(mail(to="orders+notthesecret0000000000000@localhost", sender="stranger@evil.example"))
    assert row.status == InboundMessage.Status.REFUSED and row.user is None
    assert not Email.objects.exists()


def test_a_replayed_message_id_changes_nothing_and_is_not_answered(p1):
    raw = mail(to="orders@localhost", message_id="<once@example.org>")
    first = receive(raw)
    again = receive(raw, when=NOW + dt.timedelta(minutes=5))
    assert again.pk == first.pk and again.received_at == NOW
    assert InboundMessage.objects.count() == 1
    assert Email.objects.count() == 1  # the first one's answer only


@pytest.mark.parametrize(
    "headers",
    [
        {"Auto-Submitted": "auto-replied"},
        {"Precedence": "bulk"},
        {"Precedence": "junk"},
        {"X-Autoreply": "yes"},
        {"X-Autorespond": "Out of office"},
        {"List-Id": "<players.example.org>"},
        {"Return-Path": "<>"},
    ],
    ids=lambda h: next(iter(h.items()))[0] + "=" + next(iter(h.values())),
)
def test_auto_replies_bounces_and_lists_are_never_answered(p1, headers):
    row = receive(mail(to="orders@localhost", sender="p1@example.org", headers=headers))
    assert row.status == InboundMessage.Status.IGNORED
    assert row.reason.startswith("Not answered")
    assert not Email.objects.exists()


@pytest.mark.parametrize("sender", ["MAILER-DAEMON@mx.example.org", "orders@localhost", "organizer@briternia.local"])
def test_mail_from_a_mail_server_or_our_own_address_is_a_loop_never_answered(p1, sender):
    row = receive(mail(to="orders@localhost", sender=sender))
    assert row.status == InboundMessage.Status.IGNORED
    assert not Email.objects.exists()


def test_a_flood_from_one_sender_is_recorded_but_neither_filed_nor_answered(p1, settings):
    settings.INBOX_THROTTLE_PER_MINUTE = 3
    rows = [receive(mail(to="orders@localhost", sender="p1@example.org")) for _ in range(6)]
    assert [r.status for r in rows] == [InboundMessage.Status.REFUSED] * 3 + [InboundMessage.Status.IGNORED] * 3
    assert "more than 3 mails a minute" in rows[-1].reason
    assert Email.objects.count() == 3
    assert InboundMessage.objects.count() == 6


def test_an_oversized_mail_is_refused_unread_with_a_short_answer_to_its_secrets_owner(p1, settings):
    settings.INBOX_MAX_BYTES = 4000
    raw = mail(to=to_player(p1), sender="anything@elsewhere.example", text="Campaign: x\n" + "y" * 10_000)
    row = receive(raw)
    assert row.status == InboundMessage.Status.REFUSED
    assert row.reason.startswith("Too big")
    assert row.user == p1
    assert b"yyyy" not in bytes(row.raw)  # its headers alone are kept
    (answer,) = Email.objects.all()
    assert answer.to == ["p1@example.org"]
    assert "Too big" in answer.text


def test_the_arrival_is_the_servers_never_the_date_header(p1):
    row = receive(mail(to="orders@localhost"), when=NOW)
    assert row.received_at == NOW  # the mail says 2001
    assert row.recorded_at <= timezone.now()


def test_a_mail_whose_headers_are_garbage_is_recorded_not_raised(p1):
    raw = b"From: \xff\xfe broken\r\nTo: orders@localhost\r\nSubject: =?x-unknown?q?=FF?=\r\n\r\n\xff\xff"
    row = receive(raw)
    assert row.pk is not None
    assert row.status in (InboundMessage.Status.REFUSED, InboundMessage.Status.IGNORED, InboundMessage.Status.FAILED)
