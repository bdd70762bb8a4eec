"""Celery tasks of the reports: thin, take ids, safe to run twice."""

from __future__ import annotations

import datetime as dt

from celery import shared_task

from orders.models import Turn

from .models import TurnReport
from .services.deliveries import (
    REPORT_EMAIL_TRIES,
    report_email_deliver,
    report_email_retry_delay,
    report_emails_queue,
    stale_report_emails,
)
from .services.reports import report_render, reports_lost, reports_to_render, turn_map_picture_draw


@shared_task(acks_late=True)
def turn_reports_start(*, turn_id: int) -> int:
    """Render the turn's queued reports (scenario sheets once the battles are posted; the
    kingdoms' reports and the bulletin once the turn is over), one task per report, in parallel
    on as many workers as there are. The turn's map picture is drawn first, once."""
    turn = Turn.objects.select_related("campaign").get(pk=turn_id)
    turn_map_picture_draw(turn=turn)
    ids = reports_to_render(turn=turn)
    for report_id in ids:
        report_render_task.delay(report_id=report_id)
    return len(ids)


@shared_task(acks_late=True)
def report_render_task(*, report_id: int) -> int:
    """Render one report (once), then queue and send its emails. Run again after a crash, it
    renders nothing twice and sends only what is still queued."""
    report_render(report_id=report_id)
    return report_emails_start(report_id=report_id)


def report_emails_start(*, report_id: int) -> int:
    report = TurnReport.objects.select_related("turn__campaign", "kingdom", "battle").get(pk=report_id)
    if report.status != TurnReport.Status.READY:
        return 0
    ids = report_emails_queue(report=report)
    for email_id in ids:
        report_email_send.delay(email_id=email_id)
    return len(ids)


@shared_task(bind=True, acks_late=True, max_retries=REPORT_EMAIL_TRIES)
def report_email_send(self, *, email_id: int) -> bool:  # type: ignore[no-untyped-def]
    """Send one report email; a temporary SMTP error is retried with backoff."""
    delivery = report_email_deliver(email_id=email_id)
    if delivery.retry:
        raise self.retry(countdown=report_email_retry_delay(delivery.attempts))
    return delivery.sent


def deliveries_take_up(*, now: dt.datetime) -> int:
    """For the deadline sweep: deliveries a crash left behind (a task that never ran, a worker that
    died) are taken up again. Returns how many tasks were queued."""
    lost = reports_lost(now=now)
    for report_id in lost["render"]:
        report_render_task.delay(report_id=report_id)
    queued = sum(report_emails_start(report_id=report_id) for report_id in lost["email"])
    stale = stale_report_emails(now=now)
    for email_id in stale:
        report_email_send.delay(email_id=email_id)
    return len(lost["render"]) + queued + len(stale)
