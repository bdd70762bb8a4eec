"""Celery tasks of the reports: thin, take ids, safe to run twice."""

from __future__ import annotations

import datetime as dt

from celery import shared_task

from outbox.tasks import email_send_bulk
from turns.models import Turn

from .models import TurnReport
from .services.deliveries import report_emails_queue
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
        email_send_bulk.delay(email_id=email_id)  # the emails are committed: report_emails_queue's transaction ended
    return len(ids)


def reports_take_up(*, now: dt.datetime) -> int:
    """For the deadline sweep: reports a crash left behind (a render task that never ran, a worker
    that died, a rendered report whose emails were never queued) are taken up again. Returns how many
    tasks were queued. (Queued emails whose task was lost: outbox.tasks.emails_take_up.)"""
    lost = reports_lost(now=now)
    for report_id in lost["render"]:
        report_render_task.delay(report_id=report_id)
    queued = sum(report_emails_start(report_id=report_id) for report_id in lost["email"])
    return len(lost["render"]) + queued
