"""Mail servers for the delivery tests: a real local SMTP server (aiosmtpd) that refuses what it is
told to, the address of one that refuses every connection, and an email's task run as a worker
would run it."""

from __future__ import annotations

import socket
import threading

from aiosmtpd.smtp import Envelope
from celery.exceptions import Retry

from outbox.models import Email
from outbox.tasks import email_send


class FlakySMTP:
    """A real SMTP server (aiosmtpd) that answers 451 to the first `failures` messages (or
    `reply`, when it is set to a permanent 5xx refusal, to every message)."""

    def __init__(self, failures: int) -> None:
        self.failures = failures
        self.reply = "451 4.3.0 Try again later"  # what a failure answers
        self.received: list[Envelope] = []
        self.lock = threading.Lock()

    async def handle_DATA(self, server, session, envelope):  # noqa: N802 (aiosmtpd's hook name)
        with self.lock:
            if self.reply.startswith("5"):
                return self.reply
            if self.failures > 0:
                self.failures -= 1
                return self.reply
            self.received.append(envelope)
        return "250 OK"


def free_port() -> int:
    """A port nothing listens on (free a moment ago)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def use_smtp(settings, port: int) -> None:
    """Send through Django's SMTP backend to 127.0.0.1:`port`, retrying at once."""
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST, settings.EMAIL_PORT = "127.0.0.1", port
    settings.EMAIL_USE_TLS = settings.EMAIL_USE_SSL = False
    settings.EMAIL_TIMEOUT = 5
    settings.EMAIL_BACKOFF_SCALE = 0


def send_as_the_worker_would(email_id: int) -> int:
    """Run the task, and again each time it asks to be retried (eager tasks raise Retry instead
    of rescheduling themselves). Returns how many retries it asked for."""
    retries = 0
    while True:
        try:
            email_send.delay(email_id=email_id)
        except Retry:
            retries += 1
            continue
        return retries


def email_failed_create(campaign, *, to: str = "bob@briternia.local") -> Email:  # type: ignore[no-untyped-def]
    """An invitation of the campaign that the mail server refused for good: FAILED, for the organizer
    to resend (the desk's and the Emails page's lists)."""
    return Email.objects.create(
        kind=Email.Kind.INVITATION,
        campaign=campaign,
        to=[to],
        subject="You are invited",
        text="t",
        html="h",
        status=Email.Status.FAILED,
        attempts=29,
        last_error="550 mailbox unavailable",
    )
