"""Celery tasks of the outbox: thin, take ids, safe to run twice.

Two tasks with one body, so that an email goes on the queue its reader needs: `email_send` (routed
to the `transactional` queue in settings.CELERY_TASK_ROUTES: receipts, invitations and the password
links they carry, reminders, deadline changes, the setup's steps, messages between players, alerts
to the organizer) is taken ahead of `email_send_bulk` (the default queue, with the PDFs it carries
and renders: a turn's reports, bulletins and scenario sheets). A retry stays on its task's queue."""

from __future__ import annotations

import datetime as dt
import logging
from typing import Any

from celery import shared_task

from briternia.queue import task_enqueue

from .services import email_deliver, emails_stale

logger = logging.getLogger(__name__)


def _send(task: Any, email_id: int) -> bool:
    delivery = email_deliver(email_id=email_id)
    if delivery.retry:
        raise task.retry(countdown=delivery.wait)
    return delivery.sent


# The row counts the tries (outbox.services.EMAIL_TRIES), not the message: a try the sweep hands on
# is a new message, and a retry is never refused here.
@shared_task(bind=True, acks_late=True, max_retries=None)
def email_send(self, *, email_id: int) -> bool:  # type: ignore[no-untyped-def]
    """Send one queued email a person is waiting for; a temporary SMTP error is retried with
    backoff. A second run finds the row in flight, sent, or not yet due, and does nothing."""
    return _send(self, email_id)


@shared_task(bind=True, acks_late=True, max_retries=None)
def email_send_bulk(self, *, email_id: int) -> bool:  # type: ignore[no-untyped-def]
    """`email_send` for a turn's reports, bulletins and scenario sheets, on the default queue."""
    return _send(self, email_id)


def _send_each(email_ids: list[int], *, bulk: bool) -> int:
    """Each email sent once (`email_deliver`), one after the other; one whose temporary error
    wants a short wait gets its own task with that countdown. An email that raises is logged and
    left queued: the deadline sweep hands it to a worker STALE_AFTER after it was made, as when a
    task is lost. How many were sent."""
    sent = 0
    for email_id in email_ids:
        try:
            delivery = email_deliver(email_id=email_id)
        except Exception:
            logger.exception("Email %s could not be sent; the deadline sweep will take it up", email_id)
            continue
        if delivery.retry:
            task_enqueue(email_send_task(bulk=bulk), countdown=delivery.wait, email_id=email_id)
        sent += delivery.sent
    return sent


@shared_task(acks_late=True)
def emails_send(*, email_ids: list[int]) -> int:
    """`email_send` for several emails a web worker's requests queued (outbox.services.EmailPublisher):
    on the `transactional` queue. A second run finds each sent, in flight or not due."""
    return _send_each(email_ids, bulk=False)


@shared_task(acks_late=True)
def emails_send_bulk(*, email_ids: list[int]) -> int:
    """`emails_send` for a turn's bulk mail, on the default queue."""
    return _send_each(email_ids, bulk=True)


def emails_send_task(*, bulk: bool) -> Any:
    """The task that sends several emails of this kind (Email.bulk), on its queue."""
    return emails_send_bulk if bulk else emails_send


def email_send_task(*, bulk: bool) -> Any:
    """The task that sends an email of this kind (Email.bulk), on its queue."""
    return email_send_bulk if bulk else email_send


def emails_take_up(*, now: dt.datetime) -> int:
    """For the deadline sweep: queued emails whose task was lost (a crash, a broker restart), or
    whose next try is due after a long wait, are handed to a worker, each on its queue. Returns how
    many."""
    stale = emails_stale(now=now)
    for email in stale:
        task_enqueue(email_send_task(bulk=email.bulk), email_id=email.pk)
    return len(stale)
