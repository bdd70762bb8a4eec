"""The beat's reading of mail coming in (settings.CELERY_BEAT_SCHEDULE, every INBOX_POLL_SECONDS):
the IMAP mailbox when one is configured, the local mail drop, and any message a crash left recorded
but unprocessed. Safe twice: each message is recorded once by its Message-ID, and processed under
its row's lock."""

from __future__ import annotations

import logging

from celery import shared_task

from .services.sources import imap_poll, maildrop_poll, stuck_messages_process

logger = logging.getLogger(__name__)


@shared_task(name="inbox.tasks.inbox_poll", ignore_result=True)
def inbox_poll() -> dict[str, int]:
    counts = {"imap": 0, "maildrop": maildrop_poll(), "stuck": stuck_messages_process()}
    try:
        counts["imap"] = imap_poll()
    except OSError as exc:  # the mailbox unreachable: the next poll tries again
        logger.warning(
            "The orders mailbox could not be read (%s: %s); trying again at the next poll", type(exc).__name__, exc
        )
    return counts
