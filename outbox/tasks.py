"""Celery tasks of the outbox: thin, take ids, safe to run twice."""

from __future__ import annotations

import datetime as dt

from celery import shared_task

from .services import EMAIL_TRIES, email_deliver, email_retry_delay, emails_stale


@shared_task(bind=True, acks_late=True, max_retries=EMAIL_TRIES)
def email_send(self, *, email_id: int) -> bool:  # type: ignore[no-untyped-def]
    """Send one queued email; a temporary SMTP error is retried with backoff. A second run finds
    the row in flight or sent and does nothing."""
    delivery = email_deliver(email_id=email_id)
    if delivery.retry:
        raise self.retry(countdown=email_retry_delay(delivery.attempts))
    return delivery.sent


def emails_take_up(*, now: dt.datetime) -> int:
    """For the deadline sweep: queued emails whose task was lost (a crash, a broker restart) are sent
    again. Returns how many."""
    stale = emails_stale(now=now)
    for email_id in stale:
        email_send.delay(email_id=email_id)
    return len(stale)
