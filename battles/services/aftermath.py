"""The aftermath of a turn's battles (7. Aftermath, 8. End of Turn): load the state, run the pure
rules, write everything back, and open the next turn.

Same guarantees as the turn's resolution: the turn is claimed with a conditional update inside the
transaction that writes, so a second trigger finds nothing to claim; a failure rolls everything
back (the claim too) and records why for the organizer; the dice are seeded by the turn, so the
same sheets give the same rolls; every roll is stored.
"""

from __future__ import annotations

import datetime as dt
import logging
import traceback
from dataclasses import dataclass

from django.db import transaction
from django.utils import timezone

from briternia.errors import DomainError
from kernel.dice import SeededDice
from kingdoms.models import Campaign
from orders.models import CampaignSchedule, Turn

from ..models import Battle
from ..rules.aftermath import AftermathResult
from ..rules.aftermath import aftermath_resolve as rules_aftermath_resolve
from ..rules.results import Outcome
from .aftermath_state import aftermath_state_load
from .aftermath_write import aftermath_write
from .summaries import battle_standing

logger = logging.getLogger(__name__)
DICE_STREAM = "aftermath"


def aftermath_blockers(turn: Turn, *, deadline_passed: bool) -> list[str]:
    """Why the aftermath cannot run yet: battles whose sheets disagree (the organizer decides) or,
    before the results deadline, battles still waiting for a sheet."""
    problems = []
    battles = Battle.objects.filter(turn=turn).select_related(
        "province", "attacker_kingdom", "defender_kingdom", "attacker_army", "defender_army"
    )
    for battle in battles.prefetch_related("summary_sheets"):
        standing = battle_standing(battle, deadline_passed=deadline_passed)
        if isinstance(standing, Outcome):
            continue
        problems.append(f"The battle in {battle.province}: {standing.message}")
    return problems


def aftermath_request(*, turn: Turn) -> None:
    """The organizer's trigger: refused with the reasons while a result is open; otherwise the
    task runs once the current transaction commits."""
    from ..tasks import aftermath_task

    if turn.status != Turn.Status.BATTLES:
        raise DomainError(f"Turn {turn.number} is {turn.get_status_display().lower()}: there is no aftermath to run.")
    problems = aftermath_blockers(turn, deadline_passed=timezone.now() > turn.results_deadline)
    if problems:
        raise DomainError(problems)
    turn_id = turn.pk
    transaction.on_commit(lambda: aftermath_task.delay(turn_id=turn_id))


def aftermaths_due(*, now: dt.datetime) -> list[int]:
    """Turns whose results deadline has passed, still waiting on battles, with no result left in
    conflict (campaign not paused). A conflict waits for the organizer's ruling."""
    paused = CampaignSchedule.objects.filter(paused=True).values("campaign_id")
    turns = Turn.objects.filter(status=Turn.Status.BATTLES, results_deadline__lte=now).exclude(campaign_id__in=paused)
    return [t.pk for t in turns if not aftermath_blockers(t, deadline_passed=True)]


@dataclass(frozen=True)
class AftermathOutcome:
    resolved: bool  # False: nothing to claim (already resolved, or not waiting for the aftermath)
    result: AftermathResult | None = None
    next_turn: Turn | None = None


def aftermath_preview(*, turn: Turn) -> AftermathResult:
    """A dry run: what the aftermath would do now, written nowhere."""
    state = aftermath_state_load(turn, now=timezone.now())
    return rules_aftermath_resolve(state, SeededDice(seed=turn.seed, stream=DICE_STREAM))


def aftermath_resolve(*, turn_id: int, now: dt.datetime | None = None) -> AftermathOutcome:
    """Resolve the turn's aftermath once and open the next turn. Safe to call twice and
    concurrently; refused (DomainError, nothing changed) while a battle's result is open."""
    from orders.services.reports import turn_reports_create
    from orders.services.turns import turn_open
    from orders.tasks import turn_reports_start

    now = now or timezone.now()
    try:
        with transaction.atomic():
            claimed = Turn.objects.filter(pk=turn_id, status=Turn.Status.BATTLES).update(
                status=Turn.Status.RESOLVING_AFTERMATH
            )
            if not claimed:
                return AftermathOutcome(resolved=False)
            turn = Turn.objects.select_related("campaign").get(pk=turn_id)
            problems = aftermath_blockers(turn, deadline_passed=now > turn.results_deadline)
            if problems:
                raise DomainError(problems)
            dice = SeededDice(seed=turn.seed, stream=DICE_STREAM)
            state = aftermath_state_load(turn, now=now)
            result = rules_aftermath_resolve(state, dice)
            aftermath_write(turn, state, result, dice)
            turn.status = Turn.Status.REPORTED
            turn.resolution_error = ""
            turn.save(update_fields=["status", "resolution_error"])
            # The reports keep what the next turn will change (the armies), so they are made
            # here, before it opens; they are rendered and sent once this commits.
            turn_reports_create(turn=turn)
            next_turn = turn_open(campaign=turn.campaign, number=turn.number + 1, now=now)
            Campaign.objects.filter(pk=turn.campaign_id).update(current_turn=next_turn.number)
            transaction.on_commit(lambda: turn_reports_start.delay(turn_id=turn_id))
            return AftermathOutcome(resolved=True, result=result, next_turn=next_turn)
    except DomainError as exc:
        Turn.objects.filter(pk=turn_id).update(resolution_error="The aftermath waits: " + "; ".join(exc.messages))
        raise
    except Exception:
        logger.exception("The aftermath of turn %s failed", turn_id)
        Turn.objects.filter(pk=turn_id).update(resolution_error=traceback.format_exc(limit=20)[-4000:])
        raise
