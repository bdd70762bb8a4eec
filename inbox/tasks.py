"""The beat's reading of mail coming in (settings.CELERY_BEAT_SCHEDULE, every INBOX_POLL_SECONDS):
the IMAP mailbox when one is configured, the local mail drop, and any message a crash left recorded
but unprocessed. Safe twice: each message is recorded once by its Message-ID, and processed under
its row's lock."""

from __future__ import annotations

from celery import shared_task

from .services.sources import mail_read


@shared_task(name="inbox.tasks.inbox_poll", ignore_result=True)
def inbox_poll() -> dict[str, int]:
    return mail_read()
