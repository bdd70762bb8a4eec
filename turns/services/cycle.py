"""The turn cycle, and the only code that knows the order of its phases (rulebook, "Campaign
Schedule"; ARCHITECTURE: one campaign turn):

    campaign start -> turn 1 ORDERS_OPEN
    ORDERS_OPEN --orders phase--> BATTLES (battles posted, scenario sheets queued)
    BATTLES --aftermath phase--> REPORTED (reports queued) -> next turn ORDERS_OPEN

Each phase runs through `phase_run` (claim, seed, one transaction, error recorded); the phases'
own steps (load, rules, write) live in their apps. `turn_open` (orders) is the one writer of the
campaign's current turn.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from dataclasses import dataclass

from django.db import transaction
from django.utils import timezone

from battles.services.aftermath import DICE_STREAM as AFTERMATH_STREAM
from battles.services.aftermath import aftermath_blockers
from battles.services.aftermath_state import aftermath_state_load
from battles.services.aftermath_write import aftermath_write
from battles.services.posting import battles_build, battles_insert
from battles.services.scenarios import battle_scenarios_roll
from briternia.errors import DomainError
from briternia.queue import task_enqueue
from kernel.dice import SeededDice
from kingdoms.models import Campaign
from kingdoms.services.ancient_dead import ancient_dead_setup
from kingdoms.services.campaigns import campaign_setup_close
from orders.services.opening_emails import campaign_started_announce
from orders.services.resolution import DICE_STREAM as ORDERS_STREAM
from orders.services.resolution import ancient_dead_dice, resolution_write, turn_state_load
from orders.services.turns import turn_open
from reports.services.reports import battle_scenario_reports_create, turn_reports_create
from reports.tasks import turn_reports_start
from rulebook.turn.aftermath.run import resolve_aftermath
from rulebook.turn.aftermath.state import AftermathResult
from rulebook.turn.pipeline import Resolution, resolve_orders
from turns.models import Turn

from .phases import Phase, phase_run
from .sanity import phase_sanity_check
from .steps import phase_step

ORDERS_PHASE = Phase(
    name="orders phase",
    claim_from=Turn.Status.ORDERS_OPEN,
    claim_to=Turn.Status.RESOLVING_ORDERS,
    done=Turn.Status.BATTLES,
    dice_stream=ORDERS_STREAM,
    waits="The orders wait",
    requested="orders_requested_at",
)
AFTERMATH_PHASE = Phase(
    name="aftermath",
    claim_from=Turn.Status.BATTLES,
    claim_to=Turn.Status.RESOLVING_AFTERMATH,
    done=Turn.Status.REPORTED,
    dice_stream=AFTERMATH_STREAM,
    waits="The aftermath waits",
    requested="aftermath_requested_at",
)


@dataclass(frozen=True)
class OrdersOutcome:
    resolved: bool  # False: there was nothing to claim (resolved already, or not open)
    resolution: Resolution | None = None


@dataclass(frozen=True)
class AftermathOutcome:
    resolved: bool  # False: nothing to claim (already resolved, or not waiting for the aftermath)
    result: AftermathResult | None = None
    next_turn: Turn | None = None


def campaign_start(*, campaign: Campaign) -> Campaign:
    """Close the campaign's setup (every army list valid) and open turn 1, in one transaction."""
    with transaction.atomic():
        campaign = campaign_setup_close(campaign=campaign)
        ancient_dead_setup(campaign=campaign)  # their Army Table, now that the players are known
        turn = turn_open(campaign=campaign, number=1)
        campaign_started_announce(turn=turn)
    campaign.refresh_from_db()
    return campaign


def orders_phase_run(*, turn_id: int) -> OrdersOutcome:
    """Resolve the turn's orders once (phases 1-6), post its battles with their scenarios and queue
    their scenario sheets. Safe to call twice and concurrently."""

    def run(turn: Turn, dice: SeededDice) -> Resolution:
        # Named steps: `make bench` prints each one's time and queries (turns/services/steps.py).
        with phase_step("load"):
            before = turn_state_load(turn)
        ancient = ancient_dead_dice(turn)
        with phase_step("rules"):
            resolution = resolve_orders(before, dice, ancient)
        with phase_step("write"):
            army_ids = resolution_write(
                turn=turn, before=before, resolution=resolution, dice=dice, ancient_dice=ancient
            )
        with phase_step("scenarios"):
            # Each battle gets its scenario before its row is written, the row written once with it.
            battles = battle_scenarios_roll(
                turn=turn, battles=battles_build(turn=turn, resolution=resolution, army_ids=army_ids)
            )
        with phase_step("posting"):
            # The battles are posted with their scenarios, and their players get the scenario sheets.
            battles_insert(battles)
            battle_scenario_reports_create(turn=turn, battles=[b.row for b in battles])
        with phase_step("sanity check"):
            phase_sanity_check(turn=turn, phase_name="orders phase", battles_waiting=True)
        return resolution

    outcome = phase_run(ORDERS_PHASE, turn_id=turn_id, run=run, after_commit=_reports_start(turn_id))
    return OrdersOutcome(resolved=outcome.resolved, resolution=outcome.result)


def aftermath_phase_run(*, turn_id: int, now: dt.datetime | None = None) -> AftermathOutcome:
    """Resolve the turn's aftermath once (7. Aftermath, 8. End of Turn), queue the turn's reports
    and open the next turn. Safe to call twice and concurrently; refused (DomainError, nothing
    changed, the reason stored on the turn) while a battle's result is open."""
    now = now or timezone.now()
    opened: list[Turn] = []

    def run(turn: Turn, dice: SeededDice) -> AftermathResult:
        problems = aftermath_blockers(turn, deadline_passed=now > turn.results_deadline)
        if problems:
            raise DomainError(problems)
        state = aftermath_state_load(turn, now=now)
        result = resolve_aftermath(state, dice)
        aftermath_write(turn, state, result, dice)
        phase_sanity_check(turn=turn, phase_name="aftermath", battles_waiting=False)
        # The reports keep what the next turn will change (the armies), so they are made here,
        # before it opens; they are rendered and sent once this commits.
        turn_reports_create(turn=turn)
        opened.append(turn_open(campaign=turn.campaign, number=turn.number + 1, now=now))
        return result

    outcome = phase_run(AFTERMATH_PHASE, turn_id=turn_id, run=run, after_commit=_reports_start(turn_id))
    return AftermathOutcome(resolved=outcome.resolved, result=outcome.result, next_turn=opened[0] if opened else None)


def _reports_start(turn_id: int) -> Callable[[], None]:
    """After a phase commits: render and send the reports it queued."""
    # A broker that is down fails nothing: the reports are queued rows, which the sweep takes up.
    return lambda: task_enqueue(turn_reports_start, turn_id=turn_id)
