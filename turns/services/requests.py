"""The organizer's triggers of a phase (a button, an API call): checked now, run by a task once the
request's transaction commits."""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from battles.services.aftermath import aftermath_blockers
from briternia.errors import DomainError
from orders.models import Turn

from ..tasks import aftermath_phase_task, orders_phase_task


def orders_phase_request(*, turn: Turn) -> None:
    """The organizer's trigger: the orders phase runs once the current transaction commits."""
    if turn.status != Turn.Status.ORDERS_OPEN:
        raise DomainError(f"Turn {turn.number} is {turn.get_status_display().lower()}: there is nothing to resolve.")
    turn_id = turn.pk
    transaction.on_commit(lambda: orders_phase_task.delay(turn_id=turn_id))


def aftermath_phase_request(*, turn: Turn) -> None:
    """The organizer's trigger: refused with the reasons while a result is open; otherwise the
    aftermath runs once the current transaction commits."""
    if turn.status != Turn.Status.BATTLES:
        raise DomainError(f"Turn {turn.number} is {turn.get_status_display().lower()}: there is no aftermath to run.")
    problems = aftermath_blockers(turn, deadline_passed=timezone.now() > turn.results_deadline)
    if problems:
        raise DomainError(problems)
    turn_id = turn.pk
    transaction.on_commit(lambda: aftermath_phase_task.delay(turn_id=turn_id))
