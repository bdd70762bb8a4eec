"""The organizer's triggers of a phase (a button, an API call): checked now, recorded on the turn
(`orders_requested_at`, `aftermath_requested_at`) in the request's transaction, and run by a task
once it commits. The record is what makes a click impossible to lose: a task that never arrives (the
broker down) or dies with its worker is taken up by the deadline sweep within minutes.

A click while the phase runs is answered at once that it is running, and since when: it never
queues on the turn's row, which the running phase holds until it commits (briternia/locks.py), and
waits at most a second (the web process's bound) for any other lock on it."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable

from django.db import transaction
from django.utils import timezone

from battles.services.aftermath import aftermath_blockers
from briternia.errors import DomainError
from briternia.locks import LockBusy, PhaseRunning, lock_wait_cut_short, phase_refuse_if_running
from briternia.queue import task_enqueue_after_commit
from rulebook.campaign_schedule import moment_text
from turns.models import Turn

from ..tasks import aftermath_phase_task, orders_phase_task
from .cycle import AFTERMATH_PHASE, ORDERS_PHASE
from .phases import Phase


def phase_running_text(what: str, since: dt.datetime, turn: Turn) -> str:
    """The answer to a click while the phase runs: it is running, and since when."""
    return (
        f"{what} is being resolved: it has been running since {moment_text(since, turn.campaign.time_zone)}. "
        "Its results appear on the turn's pages when it ends; there is nothing to click meanwhile."
    )


def _guarded(phase: Phase, turn: Turn, what: str, record: Callable[[], int]) -> int:
    """`record()` (checks, then a conditional update of the turn), refused at once while the phase
    runs, and never left waiting on the turn's row for more than the web process's lock bound."""
    try:
        phase_refuse_if_running(phase.name, turn.pk)
        with lock_wait_cut_short(phase.name, turn.pk), transaction.atomic():
            return record()
    except PhaseRunning as running:
        raise DomainError(phase_running_text(what, running.since, turn)) from None
    except LockBusy:
        raise DomainError(
            f"{what} is busy (order sheets are being saved into it): nothing was recorded; try again."
        ) from None


def orders_phase_request(*, turn: Turn, now: dt.datetime | None = None) -> None:
    """The organizer's trigger: recorded, and the orders phase runs once the current transaction
    commits (or, if its task is lost, when the sweep takes the request up)."""
    now = now or timezone.now()
    if turn.status != Turn.Status.ORDERS_OPEN:
        raise DomainError(f"Turn {turn.number} is {turn.get_status_display().lower()}: there is nothing to resolve.")
    what = f"Turn {turn.number}"
    if not _guarded(
        ORDERS_PHASE,
        turn,
        what,
        lambda: Turn.objects.filter(pk=turn.pk, status=Turn.Status.ORDERS_OPEN).update(orders_requested_at=now),
    ):
        raise DomainError(f"Turn {turn.number} is being resolved already.")
    task_enqueue_after_commit(orders_phase_task, turn_id=turn.pk)


def aftermath_phase_request(*, turn: Turn, now: dt.datetime | None = None) -> None:
    """The organizer's trigger: refused with the reasons while a result is open; otherwise recorded,
    and the aftermath runs once the current transaction commits (or when the sweep takes it up)."""
    now = now or timezone.now()
    if turn.status != Turn.Status.BATTLES:
        raise DomainError(f"Turn {turn.number} is {turn.get_status_display().lower()}: there is no aftermath to run.")
    what = f"The aftermath of turn {turn.number}"

    def record() -> int:
        # Under the guard: while the aftermath runs the answer is that it runs, not its blockers.
        problems = aftermath_blockers(turn, deadline_passed=now > turn.results_deadline)
        if problems:
            raise DomainError(problems)
        return Turn.objects.filter(pk=turn.pk, status=Turn.Status.BATTLES).update(aftermath_requested_at=now)

    if not _guarded(AFTERMATH_PHASE, turn, what, record):
        raise DomainError(f"The aftermath of turn {turn.number} is being resolved already.")
    task_enqueue_after_commit(aftermath_phase_task, turn_id=turn.pk)


def phase_retry_request(*, turn: Turn, now: dt.datetime | None = None) -> str:
    """The desk's Retry: the failed phase waiting on the turn runs now (recorded, then its task), its
    backoff lifted, so the sweep takes it up at once if the task is lost. Returns what was asked."""
    now = now or timezone.now()
    if not turn.phase_failed:
        raise DomainError(f"Nothing of turn {turn.number} has failed: there is nothing to retry.")
    if turn.status == Turn.Status.ORDERS_OPEN:
        orders_phase_request(turn=turn, now=now)
        what = f"The orders phase of turn {turn.number}"
    else:
        aftermath_phase_request(turn=turn, now=now)
        what = f"The aftermath of turn {turn.number}"
    Turn.objects.filter(pk=turn.pk).update(phase_retry_at=None)
    return what
