"""Celery tasks of the orders: thin, take ids, safe to run twice. (The phases and the deadline sweep:
turns.tasks; the reports: reports.tasks.)"""

from __future__ import annotations

from celery import shared_task

from briternia.emails import email_send

from .models import DeadlineChange, OrderSubmission
from .rules.schedule import deadline_text
from .services.describe import describe_entries


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
