"""The organizer's triggers of a phase (a button, an API call): checked now, recorded on the turn
(`orders_requested_at`, `aftermath_requested_at`) in the request's transaction, and run by a task
once it commits. The record is what makes a click impossible to lose: a task that never arrives (the
broker down) or dies with its worker is taken up by the deadline sweep within minutes."""

from __future__ import annotations

import datetime as dt

from django.utils import timezone

from battles.services.aftermath import aftermath_blockers
from briternia.errors import DomainError
from briternia.queue import task_enqueue_after_commit
from turns.models import Turn

from ..tasks import aftermath_phase_task, orders_phase_task


def orders_phase_request(*, turn: Turn, now: dt.datetime | None = None) -> None:
    """The organizer's trigger: recorded, and the orders phase runs once the current transaction
    commits (or, if its task is lost, when the sweep takes the request up)."""
    now = now or timezone.now()
    if turn.status != Turn.Status.ORDERS_OPEN:
        raise DomainError(f"Turn {turn.number} is {turn.get_status_display().lower()}: there is nothing to resolve.")
    if not Turn.objects.filter(pk=turn.pk, status=Turn.Status.ORDERS_OPEN).update(orders_requested_at=now):
        raise DomainError(f"Turn {turn.number} is being resolved already.")
    task_enqueue_after_commit(orders_phase_task, turn_id=turn.pk)


def aftermath_phase_request(*, turn: Turn, now: dt.datetime | None = None) -> None:
    """The organizer's trigger: refused with the reasons while a result is open; otherwise recorded,
    and the aftermath runs once the current transaction commits (or when the sweep takes it up)."""
    now = now or timezone.now()
    if turn.status != Turn.Status.BATTLES:
        raise DomainError(f"Turn {turn.number} is {turn.get_status_display().lower()}: there is no aftermath to run.")
    problems = aftermath_blockers(turn, deadline_passed=now > turn.results_deadline)
    if problems:
        raise DomainError(problems)
    if not Turn.objects.filter(pk=turn.pk, status=Turn.Status.BATTLES).update(aftermath_requested_at=now):
        raise DomainError(f"The aftermath of turn {turn.number} is being resolved already.")
    task_enqueue_after_commit(aftermath_phase_task, turn_id=turn.pk)
