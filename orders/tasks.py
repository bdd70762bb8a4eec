"""Celery tasks of turns and orders: thin, take ids, safe to run twice."""

from __future__ import annotations

from celery import shared_task
from django.utils import timezone

from briternia.emails import email_send

from .models import DeadlineChange, OrderSubmission, Turn, TurnReport
from .rules.schedule import deadline_text
from .services.deliveries import (
    REPORT_EMAIL_TRIES,
    report_email_deliver,
    report_email_retry_delay,
    report_emails_queue,
    stale_report_emails,
)
from .services.describe import describe_entries
from .services.reminders import orders_reminders_send
from .services.reports import report_render, reports_lost, reports_to_render, turn_map_picture_draw
from .services.resolution import turn_resolve
from .services.turns import turns_due


@shared_task
def deadline_sweep() -> dict[str, int]:
    """Run every minute by Celery beat: send the reminders that are due (orders and turn summary
    sheets), resolve every turn whose orders deadline has passed, and run the aftermath of every
    turn whose results deadline has passed (campaigns not paused)."""
    from battles.services.aftermath import aftermaths_due
    from battles.services.reminders import results_reminders_send
    from battles.tasks import aftermath_task

    now = timezone.now()
    reminders = len(orders_reminders_send(now=now)) + len(results_reminders_send(now=now))
    due = turns_due(now=now)
    for turn_id in due:
        turn_resolve_task.delay(turn_id=turn_id)
    aftermaths = aftermaths_due(now=now)
    for turn_id in aftermaths:
        aftermath_task.delay(turn_id=turn_id)
    # Deliveries lost in a crash (a task that never ran, a worker that died) are taken up again.
    lost = reports_lost(now=now)
    for report_id in lost["render"]:
        report_render_task.delay(report_id=report_id)
    for report_id in lost["email"]:
        report_emails_start(report_id=report_id)
    for email_id in stale_report_emails(now=now):
        report_email_send.delay(email_id=email_id)
    return {"reminders": reminders, "resolutions": len(due), "aftermaths": len(aftermaths)}


@shared_task(acks_late=True)
def turn_resolve_task(*, turn_id: int) -> bool:
    """Resolve a turn's orders. A second run finds the turn claimed and does nothing."""
    return turn_resolve(turn_id=turn_id).resolved


@shared_task(autoretry_for=(ConnectionError, OSError), retry_backoff=True, max_retries=5)
def orders_receipt_send(*, submission_id: int) -> None:
    """Confirm a submission to the kingdom's players, listing the orders as received."""
    submission = OrderSubmission.objects.select_related("sheet__turn__campaign", "sheet__kingdom", "submitted_by").get(
        pk=submission_id
    )
    sheet = submission.sheet
    kingdom, turn = sheet.kingdom, sheet.turn
    email_send(
        "orders-receipt",
        to=[p.email for p in kingdom.players.all() if p.email],
        context={
            "kingdom": kingdom,
            "turn": turn,
            "campaign": turn.campaign,
            "submission": submission,
            "lines": describe_entries(kingdom=kingdom, entries=submission.entries),
            "deadline": deadline_text(turn.orders_deadline, turn.campaign.time_zone),
        },
    )


@shared_task(autoretry_for=(ConnectionError, OSError), retry_backoff=True, max_retries=5)
def deadline_change_announce(*, change_id: int) -> None:
    """Tell every player of the campaign about a changed deadline, schedule or pause."""
    change = DeadlineChange.objects.select_related("turn__campaign").get(pk=change_id)
    turn = change.turn
    players = {p.email for k in turn.campaign.kingdoms.prefetch_related("players") for p in k.players.all() if p.email}
    email_send(
        "deadline-changed",
        to=sorted(players),
        context={
            "change": change,
            "turn": turn,
            "campaign": turn.campaign,
            "orders_deadline": deadline_text(turn.orders_deadline, turn.campaign.time_zone),
            "results_deadline": deadline_text(turn.results_deadline, turn.campaign.time_zone),
        },
    )


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
