"""The deadline sweep (Celery beat, every minute): every step runs on its own, and every due turn on
its own, so one failure (a phase that raises) never stops the rest: it is logged, counted in the
sweep's report, and the failing turn keeps its error for the organizer (phase_run records it). The
sweep never talks to SMTP: the reminders are queued as outbox emails, sent by their own tasks. Before it
resolves a due turn it reads the mail waiting (inbox: the mail drop and the IMAP mailbox), so a sheet
the mail server took in before the deadline is filed before the turn is claimed."""

from __future__ import annotations

import datetime as dt
import logging
from collections.abc import Callable, Iterable
from typing import TypedDict

from django.utils import timezone

from battles.services.aftermath import aftermaths_due
from battles.services.reminders import results_reminders_queue
from inbox.services.sources import mail_read
from orders.services.reminders import orders_reminders_queue
from orders.services.turns import turn_hold_if_orders_missing, turns_due
from outbox.tasks import emails_take_up
from reports.tasks import reports_take_up

logger = logging.getLogger(__name__)


class SweepReport(TypedDict):
    reminders: int
    resolutions: int
    held: int  # due turns left for the organizer: too many orders missing
    aftermaths: int
    deliveries: int
    failed: list[str]  # the steps (and turns) that failed, for the log and the tests


def deadline_sweep_run(
    *,
    orders_phase: Callable[[int], object],
    aftermath_phase: Callable[[int], object],
    now: dt.datetime | None = None,
) -> SweepReport:
    """Run the sweep's steps; `orders_phase` and `aftermath_phase` start a phase for a turn id (the
    tasks' `delay`, or a direct call)."""
    now = now or timezone.now()
    report = SweepReport(reminders=0, resolutions=0, held=0, aftermaths=0, deliveries=0, failed=[])

    def step(name: str, action: Callable[[], int]) -> int:
        try:
            return action()
        except Exception:
            logger.exception("The deadline sweep's step %r failed", name)
            report["failed"].append(name)
            return 0

    def each(name: str, due: Callable[[], Iterable[int]], start: Callable[[int], object]) -> int:
        """Start `name` for every due turn, each on its own."""
        turn_ids: list[int] = []

        def find() -> int:
            turn_ids.extend(due())
            return len(turn_ids)

        def start_one(turn_id: int) -> int:
            start(turn_id)
            return 1

        step(f"finding what is due for the {name}", find)
        return sum(step(f"{name} of turn {turn_id}", lambda t=turn_id: start_one(t)) for turn_id in turn_ids)

    report["reminders"] += step("orders reminders", lambda: len(orders_reminders_queue(now=now)))
    report["reminders"] += step("results reminders", lambda: len(results_reminders_queue(now=now)))
    held: list[int] = []

    started: set[int] = set()

    def orders_phase_unless_held(turn_id: int) -> object:
        if turn_hold_if_orders_missing(turn_id=turn_id, now=now):
            held.append(turn_id)
            return None
        started.add(turn_id)
        return orders_phase(turn_id)

    def aftermaths_due_now() -> list[int]:
        # A sweep that resolves a turn's orders does not also end it (a turn without battles moves on
        # by itself, decision 511): its players read the orders' results first, until the next sweep.
        return [turn_id for turn_id in aftermaths_due(now=now) if turn_id not in started]

    def mail_read_before_the_claim() -> int:
        # A sheet the mail server took in before the deadline counts even when it is read after it
        # (README, "Orders by email"): the mailbox is read every INBOX_POLL_SECONDS, but a due turn is
        # claimed seconds after its deadline; the mail waiting is filed first (and counts for the hold;
        # each phase's task reads it again before its claim, for the organizer's click too).
        return sum(mail_read().values()) if turns_due(now=now) or aftermaths_due(now=now) else 0

    step("mail read before the orders phases", mail_read_before_the_claim)
    report["resolutions"] = each("orders phase", lambda: turns_due(now=now), orders_phase_unless_held) - len(held)
    report["held"] = len(held)
    report["aftermaths"] = each("aftermath", aftermaths_due_now, aftermath_phase)
    report["deliveries"] = step("reports taken up", lambda: reports_take_up(now=now))
    report["deliveries"] += step("emails taken up", lambda: emails_take_up(now=now))
    return report
