"""Celery tasks of the battles: thin, take ids, safe to run twice. (The scenario sheets are
delivered as reports: orders.tasks.turn_reports_start.)"""

from __future__ import annotations

from celery import shared_task

from .services.aftermath import aftermath_resolve


@shared_task(acks_late=True)
def aftermath_task(*, turn_id: int) -> bool:
    """Resolve a turn's aftermath. A second run finds the turn claimed and does nothing."""
    return aftermath_resolve(turn_id=turn_id).resolved
