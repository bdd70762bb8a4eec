"""The embedded default's email backend: every message becomes one .eml file.

Django's own file backend appends many messages to one log file; a player or a test
wants to open one message, attachments included, so each gets a file of its own.
"""

import uuid
from pathlib import Path

from django.conf import settings
from django.core.mail.backends.base import BaseEmailBackend
from django.core.mail.message import EmailMessage
from django.utils import timezone


class EmlFileBackend(BaseEmailBackend):
    """Writes each message as RFC 822 bytes to EMAIL_OUTBOX_DIR/<time>-<id>.eml."""

    def send_messages(self, email_messages: list[EmailMessage]) -> int:
        outbox = Path(settings.EMAIL_OUTBOX_DIR)
        outbox.mkdir(parents=True, exist_ok=True)
        sent = 0
        for message in email_messages:
            if not message.recipients():
                continue
            stamp = timezone.now().strftime("%Y%m%d-%H%M%S-%f")
            path = outbox / f"{stamp}-{uuid.uuid4().hex[:8]}.eml"
            path.write_bytes(message.message().as_bytes(linesep="\n"))
            sent += 1
        return sent
