"""Celery tasks of the turn cycle: the deadline sweep (Celery beat, every minute) and the phases.
Thin, take ids, safe to run twice."""

from __future__ import annotations

from celery import shared_task
from django.utils import timezone

from .models import SweepRecord
from .services.cycle import aftermath_phase_run, orders_phase_run
from .services.sweep import SweepReport, deadline_sweep_run


@shared_task
def deadline_sweep() -> SweepReport:
    """Send the reminders that are due, resolve every turn whose orders deadline has passed, run the
    aftermath of every turn whose results deadline has passed, and take up deliveries a crash left
    behind. Each step runs on its own: one failing never stops the others."""
    report = deadline_sweep_run(
        orders_phase=lambda turn_id: orders_phase_task.delay(turn_id=turn_id),
        aftermath_phase=lambda turn_id: aftermath_phase_task.delay(turn_id=turn_id),
    )
    # The health endpoint's "last sweep": one row, overwritten.
    SweepRecord.objects.update_or_create(pk=1, defaults={"ran_at": timezone.now(), "report": report})
    return report


@shared_task(acks_late=True)
def orders_phase_task(*, turn_id: int) -> bool:
    """Resolve a turn's orders. A second run finds the turn claimed and does nothing."""
    return orders_phase_run(turn_id=turn_id).resolved


@shared_task(acks_late=True)
def aftermath_phase_task(*, turn_id: int) -> bool:
    """Resolve a turn's aftermath. A second run finds the turn claimed and does nothing."""
    return aftermath_phase_run(turn_id=turn_id).resolved
