"""One way to run a phase of the turn cycle: claim, seed, load-run-write in one transaction, and the
error recorded for the organizer.

The turn is claimed with a conditional update (`claim_from -> claim_to`) inside the same
transaction as the phase's writes, so a second trigger finds nothing to claim, and a failure rolls
everything back, the claim included: the turn stays claimable, and why it failed is stored on the
turn (`resolution_error`) for the organizer's page.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Generic, TypeVar

from django.db import transaction
from django.db.models import F, Value
from django.db.models.functions import Coalesce
from django.utils import timezone

from briternia.collector import collector_paused
from briternia.errors import DomainError
from briternia.locks import phase_lock_wait_unbounded, phase_running_mark
from kernel.dice import SeededDice
from kingdoms.services.world import world_changed
from turns.models import PHASE_FAILURE_CLEARED, Turn, phase_retry_delay

from .failures import phase_failure_announce
from .steps import phase_step

logger = logging.getLogger(__name__)
Result = TypeVar("Result")


@dataclass(frozen=True)
class Phase:
    """A phase of the turn cycle: the statuses it claims the turn from and to, the status it leaves
    the turn in, and the dice stream of the turn's seed it rolls on."""

    name: str
    claim_from: str
    claim_to: str
    done: str
    dice_stream: str
    waits: str  # the words before a DomainError's messages: why the phase could not run yet
    requested: str  # the turn's field recording the organizer's request for this phase (cleared when it runs)


# What runs once a phase has claimed its turn, before the phase changes anything, in the phase's
# transaction (a phase rolled back leaves nothing of it). Filled by the apps above the turn cycle
# from their AppConfig.ready, so the turn cycle does not import them: transfer's snapshot of the
# campaign before each phase (transfer/snapshots.py).
PhaseHook = Callable[[Turn, "Phase"], None]
_BEFORE_PHASE: list[PhaseHook] = []


def before_phase_register(hook: PhaseHook) -> None:
    """Run `hook(turn, phase)` before every phase, once the turn is claimed (registered once)."""
    if hook not in _BEFORE_PHASE:
        _BEFORE_PHASE.append(hook)


@dataclass(frozen=True)
class PhaseOutcome(Generic[Result]):
    resolved: bool  # False: nothing to claim (already run, or the turn is not waiting for this phase)
    result: Result | None = None


def phase_run(
    phase: Phase,
    *,
    turn_id: int,
    run: Callable[[Turn, SeededDice], Result],
    after_commit: Callable[[], None] | None = None,
) -> PhaseOutcome[Result]:
    """Claim the turn for `phase`, call `run(turn, dice)` (it loads, runs the rules and writes) and
    leave the turn in `phase.done`, all in one transaction; `after_commit` runs once that commits.
    Safe to call twice and concurrently. A DomainError (the phase cannot run yet) and any other
    failure roll everything back, are recorded on the turn, and are raised again."""
    try:
        # The collector paused: a phase builds objects by the hundred thousand (briternia/collector.py).
        with collector_paused(), transaction.atomic():
            phase_lock_wait_unbounded()
            claimed = Turn.objects.filter(pk=turn_id, status=phase.claim_from).update(status=phase.claim_to)
            if not claimed:
                return PhaseOutcome(resolved=False)
            # Seen running, and since when, by any request, which then answers at once instead of
            # waiting on the turn's row until this commits (briternia/locks.py).
            phase_running_mark(phase.name, turn_id)
            turn = Turn.objects.select_related("campaign").get(pk=turn_id)
            for hook in _BEFORE_PHASE:
                with phase_step(hook.__name__.removesuffix("_take")):  # the snapshot (snapshot_take)
                    hook(turn, phase)
            result = run(turn, SeededDice(seed=turn.seed, stream=phase.dice_stream))
            world_changed(turn.campaign_id)  # the order sheets' kept copies of the world are stale
            Turn.objects.filter(pk=turn_id).update(
                # A hold (too many orders missing, or a restore) waits for the phase: it has run now.
                status=phase.done,
                resolution_error="",
                held_at=None,
                **{phase.requested: None},
                **PHASE_FAILURE_CLEARED,
            )
            if after_commit is not None:
                transaction.on_commit(after_commit)
            return PhaseOutcome(resolved=True, result=result)
    except DomainError as exc:
        # Refused (it cannot run yet): the request is answered with the reason; the organizer asks again.
        phase_failure_record(phase, turn_id, f"{phase.waits}: " + "; ".join(exc.messages), **{phase.requested: None})
        raise
    except Exception as exc:
        logger.exception("The %s of turn %s failed", phase.name, turn_id)
        # The organizer reads a sentence, never a traceback (that is in the site's log).
        phase_failure_record(phase, turn_id, failure_text(phase, exc))
        raise


def phase_failure_record(phase: Phase, turn_id: int, error: str, **fields: object) -> None:
    """After the phase's transaction rolled back: the failure on the turn, counted (tries in a row,
    since when, the last), and the sweep's next try backed off (1, 2, 4 ... minutes, an hour at most:
    turns.models.phase_retry_delay), so a failure that repeats is not tried every minute for ever."""
    now = timezone.now()
    Turn.objects.filter(pk=turn_id).update(
        resolution_error=error,
        phase_failures=F("phase_failures") + 1,
        phase_failed_since=Coalesce(F("phase_failed_since"), Value(now)),
        phase_failed_at=now,
        **fields,
    )
    turn = Turn.objects.select_related("campaign__organizer").get(pk=turn_id)
    Turn.objects.filter(pk=turn_id).update(phase_retry_at=now + phase_retry_delay(turn.phase_failures))
    turn.phase_retry_at = now + phase_retry_delay(turn.phase_failures)
    try:
        phase_failure_announce(turn)
    except Exception:  # telling the organizer never hides the failure itself
        logger.exception("The failure of turn %s could not be told to the organizer", turn_id)


def failure_text(phase: Phase, exc: Exception) -> str:
    """What the organizer reads when a phase failed on an error of the site's own."""
    what = f"{type(exc).__name__}: {exc}"[:300]
    return (
        f"The {phase.name} failed on an error in the site and changed nothing ({what}). "
        "Its full report is in the site's log. Retry it from the game master's desk; if it fails again, "
        "restore the campaign's last snapshot or tell the site's administrator."
    )
