"""Mail coming in, whichever way it came (the IMAP mailbox, the provider's webhook, the local mail
drop: inbox/services/sources.py, inbox/webhooks.py): one service records it and files the sheet it
carries through the sheets' own filing (battles.services.sheet_mail.sheet_text_file, the same check
as the site's).

In order, for each message:

1. Recorded (`InboundMessage`) before anything else, in its own transaction: its Message-ID is
   unique, so a message read twice (a poller that crashed before marking it seen, a provider that
   posts again, a replay) is processed once; the second time nothing changes and nothing is answered.
2. Never answered: auto-replies, bounces, lists' mail, our own mail come back (a loop), and a sender
   who sent more than INBOX_THROTTLE_PER_MINUTE within a minute (recorded, not filed).
3. Refused with a short answer, unread: a mail bigger than INBOX_MAX_BYTES; a mail whose To,
   Delivered-To or X-Original-To carries no valid secret (kingdoms/services/mail_addresses.py). The
   From header proves nothing: the answer goes only to the registered address of the account that
   the secret names, or, with no secret, of the account registered with the From address (if any);
   never to the sender as such.
4. Filed: the body as text (inbox/mail_text.py: HTML read as text, charsets decoded, quotes and
   signature dropped or the quoted sheet un-quoted), its attachments named in notes, with the time
   the mail server received it as its arrival (never the Date header): `sheet_text_file` checks it,
   files it or refuses it, and queues the answer.

Nothing escapes: an error while processing is recorded on the row (FAILED, with the reason) and
logged, and everything it wrote is rolled back (no half-saved sheet); `manage.py inbox_reprocess`
processes it again.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import logging
from email import policy
from email.message import EmailMessage, Message
from email.parser import BytesHeaderParser, BytesParser

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from django.db import IntegrityError, transaction
from django.utils import timezone

from battles.services.sheet_mail import sheet_text_file
from kingdoms.services.mail_addresses import (
    mail_secret_owner,
    orders_address_for,
    orders_address_secret,
    registered_user_for,
)
from orders.services.emails import sheet_answer_queue
from outbox.models import Email

from ..mail_text import address_of, auto_reply_reason, message_text, reply_sheet_text
from ..models import InboundMessage

logger = logging.getLogger(__name__)

# The headers that may carry the address the mail was sent to (the plus-address with the secret):
# To and Cc as written, and those a mail server adds on delivery (Postfix's X-Original-To, the
# Delivered-To of Dovecot's LDA and Gmail, our own SMTP receiver's).
RECIPIENT_HEADERS = ("To", "Cc", "Delivered-To", "X-Original-To", "Envelope-To")


def _header(message: Message, name: str) -> str:
    """A header as text; a header too broken to decode is kept as it came."""
    try:
        value = message.get(name)
    except Exception:  # noqa: BLE001 - the email package raises many kinds on malformed headers
        value = message.get_all(name, [None])[0] if hasattr(message, "get_all") else None
    return " ".join(str(value).split()) if value is not None else ""


def _headers(raw: bytes) -> EmailMessage:
    """The message's headers alone (the body is not read)."""
    return BytesHeaderParser(policy=policy.default).parsebytes(raw)  # type: ignore[return-value]


def _message_id(headers: Message, raw: bytes) -> str:
    message_id = _header(headers, "Message-ID").strip()
    return message_id[:998] if message_id else f"<sha256-{hashlib.sha256(raw).hexdigest()}@briternia.invalid>"


def message_receive(raw: bytes, *, received_at: dt.datetime, source: str) -> InboundMessage:
    """Record the message and process it (module docstring). A message whose Message-ID was
    received before is not processed again: the row recorded then is returned as it stands."""
    row, created = message_record(raw, received_at=received_at, source=source)
    if not created:
        logger.info("Mail %s received again (%s): already %s, nothing done", row.message_id, source, row.status)
        return row
    return message_process(row_id=row.pk)


def message_record(raw: bytes, *, received_at: dt.datetime, source: str) -> tuple[InboundMessage, bool]:
    """The row of the message, made now (True) or found by its Message-ID (False). Only the headers
    are read; a message over INBOX_MAX_BYTES is kept as its headers alone."""
    headers = _headers(raw)
    message_id = _message_id(headers, raw)
    if (existing := InboundMessage.objects.filter(message_id=message_id).first()) is not None:
        return existing, False
    oversized = len(raw) > settings.INBOX_MAX_BYTES
    kept = raw.split(b"\r\n\r\n", 1)[0].split(b"\n\n", 1)[0] if oversized else raw
    try:
        with transaction.atomic():
            row = InboundMessage.objects.create(
                message_id=message_id,
                sender=_header(headers, "From")[:998],
                sender_address=address_of(_header(headers, "From"))[:320],
                to=", ".join(v for v in (_header(headers, n) for n in ("To", "Cc")) if v),
                subject=_header(headers, "Subject"),
                received_at=received_at,
                source=source,
                size=len(raw),
                raw=kept,
            )
    except IntegrityError:  # recorded at the same moment by another reader
        return InboundMessage.objects.get(message_id=message_id), False
    return row, True


def _own_addresses() -> set[str]:
    return {address_of(settings.DEFAULT_FROM_EMAIL), address_of(settings.ORDERS_EMAIL_ADDRESS)} - {""}


def _throttled(row: InboundMessage, *, sender: str, user=None) -> bool:  # type: ignore[no-untyped-def]
    """More than INBOX_THROTTLE_PER_MINUTE mails recorded in the minute before this one from its
    sender (or for its account)."""
    since = row.recorded_at - dt.timedelta(minutes=1)
    recent = InboundMessage.objects.filter(recorded_at__gte=since, pk__lt=row.pk)
    by_sender = recent.filter(sender_address=sender) if sender else recent.none()
    if by_sender.count() >= settings.INBOX_THROTTLE_PER_MINUTE:
        return True
    return user is not None and recent.filter(user=user).count() >= settings.INBOX_THROTTLE_PER_MINUTE


def _secret_user(headers: Message):  # type: ignore[no-untyped-def]
    """The account whose secret one of the message's recipient addresses carries, or None."""
    for name in RECIPIENT_HEADERS:
        for value in headers.get_all(name, []) or []:
            for part in str(value).split(","):
                secret = orders_address_secret(part)
                if secret and (user := mail_secret_owner(secret)) is not None:
                    return user
    return None


def _refusal_queue(row: InboundMessage, *, user: AbstractBaseUser | None, reason: str) -> Email | None:
    """The short answer to a mail refused unread, to `user`'s registered address (the same kind of
    answer as a refused sheet's, orders.services.emails.sheet_answer_queue)."""
    if user is None:
        return None
    received = timezone.localtime(row.received_at, dt.UTC).strftime("%a %d %b %Y, %H:%M:%S UTC")
    return sheet_answer_queue(
        user=user,
        subject=f'Your mail "{row.subject[:60]}" was not read',
        lines=[
            f'Your mail "{row.subject}", received {received}, was not read and nothing was filed.',
            reason,
            'Send your sheets to your own orders address (shown only to you, on your "Orders by email" page):',
            orders_address_for(user, None),
            "If you did not send this mail, someone else wrote your address in its From line: nothing was done "
            "with it.",
        ],
        campaign_id=None,
    )


def message_process(*, row_id: int) -> InboundMessage:
    """Process a recorded message not yet processed (RECEIVED) or whose processing failed (FAILED);
    one of any other status is returned as it is. Never raises for what the message holds."""
    try:
        with transaction.atomic():
            row = InboundMessage.objects.select_for_update().get(pk=row_id)
            if row.status not in (InboundMessage.Status.RECEIVED, InboundMessage.Status.FAILED):
                return row
            _process(row)
            row.processed_at = timezone.now()
            row.save()
            return row
    except Exception as exc:
        logger.exception("Mail %s could not be processed: kept as failed", row_id)
        failed = InboundMessage.objects.get(pk=row_id)
        failed.status = InboundMessage.Status.FAILED
        failed.reason = f"Could not be processed ({type(exc).__name__}: {exc})"[:2000]
        failed.processed_at = timezone.now()
        try:  # who it is from, so that the organizer sees it (the processing's own finding was rolled back)
            failed.user, failed.sender_user = _identify(failed)
        except Exception:  # noqa: BLE001 - the failure is recorded whatever the headers hold
            logger.exception("Mail %s: its sender could not be identified", row_id)
        failed.save()
        return failed


def _identify(row: InboundMessage):  # type: ignore[no-untyped-def]
    """The account the message's secret names, and the account registered with its From address."""
    return _secret_user(_headers(bytes(row.raw))), registered_user_for(row.sender_address)


def _process(row: InboundMessage) -> None:
    """Decide what the message is (module docstring), writing the outcome on `row` (saved by the caller)."""
    raw = bytes(row.raw)
    headers = _headers(raw)
    sender = row.sender_address
    user, row.sender_user = _identify(row)
    row.user = user
    if (why := auto_reply_reason(headers, own_addresses=_own_addresses())) is not None:
        row.status, row.reason = InboundMessage.Status.IGNORED, f"Not answered: {why}."
        return
    if _throttled(row, sender=sender):
        row.status = InboundMessage.Status.IGNORED
        row.reason = f"Not answered: more than {settings.INBOX_THROTTLE_PER_MINUTE} mails a minute from {sender}."
        return
    if row.size > settings.INBOX_MAX_BYTES:
        row.status = InboundMessage.Status.REFUSED
        row.reason = (
            f"Too big: {row.size // 1024} KB, more than the {settings.INBOX_MAX_BYTES // 1024} KB a mail may have; "
            "not read."
        )
        row.answer = _refusal_queue(row, user=user or row.sender_user, reason=row.reason)
        return
    if user is None:
        row.status = InboundMessage.Status.REFUSED
        row.reason = "No valid secret in the address it was sent to: not read, not filed."
        row.answer = _refusal_queue(row, user=row.sender_user, reason=row.reason)
        return
    if _throttled(row, sender="", user=user):
        row.status = InboundMessage.Status.IGNORED
        row.reason = f"Not answered: more than {settings.INBOX_THROTTLE_PER_MINUTE} mails a minute for this account."
        return
    message = BytesParser(policy=policy.default).parsebytes(raw)
    text, notes = message_text(message)  # type: ignore[arg-type]
    filing = sheet_text_file(
        user=user, text=reply_sheet_text(text), arrived_at=row.received_at, subject=row.subject, notes=notes
    )
    row.status = InboundMessage.Status.ACCEPTED if filing.accepted else InboundMessage.Status.REFUSED
    row.reason = filing.subject
    row.answer_id = filing.email_id
    if filing.email_id is not None:
        row.campaign_id = Email.objects.filter(pk=filing.email_id).values_list("campaign_id", flat=True).first()
