"""Three sources, one service (issue 36, "Where mail comes from"): the mailbox read over IMAP from a
real Dovecot started by the test, the local mail drop (a Maildir), and Postmark's inbound webhook
through django-anymail. Each records the message with the time the mail server received it."""

from __future__ import annotations

import base64
import datetime as dt
import imaplib
import os

import pytest
from django.test import Client

from inbox.models import InboundMessage
from inbox.tasks import inbox_poll
from outbox.models import Email

from .mailservers import PASSWORD, USER
from .messages import mail


@pytest.fixture
def p1(make_user):
    return make_user("p1")


def unseen(dovecot) -> list[bytes]:
    client = imaplib.IMAP4("127.0.0.1", dovecot.port)
    try:
        client.login(USER, PASSWORD)
        client.select("INBOX")
        return client.uid("search", None, "UNSEEN")[1][0].split()
    finally:
        client.logout()


def test_the_poller_reads_the_imap_mailbox_records_each_mail_once_and_marks_it_seen(dovecot, p1):
    dovecot.deliver(mail(to="orders@localhost", sender="p1@example.org", message_id="<imap-1@example.org>"))
    dovecot.deliver(mail(to="orders@localhost", sender="nobody@elsewhere.example"))
    assert len(unseen(dovecot)) == 2
    before = dt.datetime.now(tz=dt.UTC).replace(microsecond=0)

    counts = inbox_poll.delay().get()

    assert counts["imap"] == 2
    assert unseen(dovecot) == []
    row = InboundMessage.objects.get(message_id="<imap-1@example.org>")
    assert row.source == InboundMessage.Source.IMAP
    # INTERNALDATE: when Dovecot took it in (to the second), not the mail's Date header (2001).
    assert before - dt.timedelta(seconds=5) <= row.received_at <= dt.datetime.now(tz=dt.UTC)
    assert row.status == InboundMessage.Status.REFUSED  # no secret: answered to p1's registered address
    assert Email.objects.get().to == ["p1@example.org"]
    # Read again (the flag lost, as after a crash before marking it seen): recorded once.
    dovecot.deliver(mail(to="orders@localhost", sender="p1@example.org", message_id="<imap-1@example.org>"))
    assert inbox_poll.delay().get()["imap"] == 0
    assert InboundMessage.objects.count() == 2 and Email.objects.count() == 1


def test_an_unreachable_mailbox_is_tried_at_the_next_poll(db, settings):
    from .mailservers import free_port

    settings.INBOX_IMAP_HOST, settings.INBOX_IMAP_PORT, settings.INBOX_IMAP_SSL = "127.0.0.1", free_port(), False
    assert inbox_poll.delay().get()["imap"] == 0


def test_the_mail_drop_is_read_with_the_files_delivery_time_and_moved_to_cur(maildrop, p1):
    path = maildrop / "new" / "1765000000.M1P1.host"
    path.write_bytes(mail(to="orders@localhost", sender="p1@example.org", message_id="<drop-1@example.org>"))
    delivered = dt.datetime(2026, 12, 6, 11, 59, 59, tzinfo=dt.UTC)
    os.utime(path, (delivered.timestamp(), delivered.timestamp()))
    (maildrop / "new" / ".half-written").write_bytes(b"From: x")  # a Maildir writer's temporary name

    assert inbox_poll.delay().get()["maildrop"] == 1

    row = InboundMessage.objects.get()
    assert row.source == InboundMessage.Source.MAILDROP and row.received_at == delivered
    assert not path.exists() and (maildrop / "cur" / "1765000000.M1P1.host:2,S").is_file()
    assert inbox_poll.delay().get()["maildrop"] == 0


def postmark_payload(*, to: str, sender: str, text: str, message_id: str) -> dict:
    """An inbound message as Postmark posts it (its documented JSON, "Inbound webhook")."""
    return {
        "FromName": "Player One",
        "MessageStream": "inbound",
        "From": sender,
        "FromFull": {"Email": sender, "Name": "Player One", "MailboxHash": ""},
        "To": to,
        "ToFull": [{"Email": to, "Name": "", "MailboxHash": to.partition("+")[2].partition("@")[0]}],
        "Cc": "",
        "CcFull": [],
        "Bcc": "",
        "BccFull": [],
        "OriginalRecipient": to,
        "Subject": "Re: orders",
        "MessageID": "73e6d360-66eb-11e1-8e72-a8904824019b",
        "ReplyTo": "",
        "MailboxHash": "",
        "Date": "Mon, 1 Jan 2001 00:00:00 +0000",
        "TextBody": text,
        "HtmlBody": "",
        "StrippedTextReply": "",
        "Tag": "",
        "Headers": [
            {"Name": "Return-Path", "Value": f"<{sender}>"},
            {"Name": "X-Spam-Status", "Value": "No"},
            {"Name": "Message-ID", "Value": message_id},
        ],
        "Attachments": [
            {
                "Name": "army.pdf",
                "Content": base64.b64encode(b"%PDF-1.4").decode(),
                "ContentType": "application/pdf",
                "ContentLength": 8,
            }
        ],
    }


def test_postmarks_inbound_webhook_feeds_the_same_service(settings, p1):
    settings.ANYMAIL = {"WEBHOOK_SECRET": "hook:s3cret"}
    client = Client()
    payload = postmark_payload(
        to="orders@localhost", sender="p1@example.org", text="Campaign: x\n", message_id="<hook-1@example.org>"
    )
    auth = "Basic " + base64.b64encode(b"hook:s3cret").decode()
    before = dt.datetime.now(tz=dt.UTC)

    response = client.post(
        "/anymail/postmark/inbound/", payload, content_type="application/json", HTTP_AUTHORIZATION=auth
    )

    assert response.status_code == 200
    row = InboundMessage.objects.get()
    assert row.message_id == "<hook-1@example.org>" and row.source == InboundMessage.Source.WEBHOOK
    assert before <= row.received_at <= dt.datetime.now(tz=dt.UTC)  # the request's arrival, not "2001"
    assert row.status == InboundMessage.Status.REFUSED and Email.objects.get().to == ["p1@example.org"]
    # The provider posts it again (a retry): once.
    assert (
        client.post(
            "/anymail/postmark/inbound/", payload, content_type="application/json", HTTP_AUTHORIZATION=auth
        ).status_code
        == 200
    )
    assert InboundMessage.objects.count() == 1 and Email.objects.count() == 1


def test_the_webhook_refuses_a_post_without_the_secret_and_is_closed_until_one_is_set(settings, p1):
    payload = postmark_payload(to="orders@localhost", sender="p1@example.org", text="x", message_id="<h2@x>")
    settings.ANYMAIL = {"WEBHOOK_SECRET": "hook:s3cret"}
    wrong = "Basic " + base64.b64encode(b"hook:guess").decode()
    response = Client().post(
        "/anymail/postmark/inbound/", payload, content_type="application/json", HTTP_AUTHORIZATION=wrong
    )
    assert response.status_code == 400
    settings.ANYMAIL = {"WEBHOOK_SECRET": ""}
    response = Client().post("/anymail/postmark/inbound/", payload, content_type="application/json")
    assert response.status_code == 400
    assert not InboundMessage.objects.exists()
