"""Celery tasks of the turn cycle: the deadline sweep (Celery beat, every minute) and the phases.
Thin, take ids, safe to run twice."""

from __future__ import annotations

import logging

from celery import shared_task
from django.utils import timezone

from inbox.services.sources import mail_read

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


logger = logging.getLogger(__name__)


def _mail_read_first() -> None:
    """Before a phase claims its turn, the mail waiting is filed (the sheets the mail server took in
    before the claim count, as a sheet sent to the site does: README, "Orders by email"); a mailbox
    that cannot be read never stops the phase."""
    try:
        mail_read()
    except Exception:
        logger.exception("The mail could not be read before the phase; it runs without it")


@shared_task(acks_late=True)
def orders_phase_task(*, turn_id: int) -> bool:
    """Resolve a turn's orders (the mail waiting read first). A second run finds the turn claimed
    and does nothing."""
    _mail_read_first()
    return orders_phase_run(turn_id=turn_id).resolved


@shared_task(acks_late=True)
def aftermath_phase_task(*, turn_id: int) -> bool:
    """Resolve a turn's aftermath (the mail waiting read first: a turn summary sheet). A second run
    finds the turn claimed and does nothing."""
    _mail_read_first()
    return aftermath_phase_run(turn_id=turn_id).resolved
