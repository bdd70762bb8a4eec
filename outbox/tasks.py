"""Celery tasks of the outbox: thin, take ids, safe to run twice.

Two tasks with one body, so that an email goes on the queue its reader needs: `email_send` (routed
to the `transactional` queue in settings.CELERY_TASK_ROUTES: receipts, invitations and the password
links they carry, reminders, deadline changes, the setup's steps, messages between players, alerts
to the organizer) is taken ahead of `email_send_bulk` (the default queue, with the PDFs it carries
and renders: a turn's reports, bulletins and scenario sheets). A retry stays on its task's queue."""

from __future__ import annotations

import datetime as dt
from typing import Any

from celery import shared_task

from briternia.queue import task_enqueue

from .services import email_deliver, emails_stale


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
