"""The aftermath of a turn's battles (7. Aftermath, 8. End of Turn): what blocks it, which turns
are due, and its dry run. The phase itself (claim, seed, load, run, write, the error recorded, the
next turn opened) is run by the turn cycle (turns.services.cycle) with aftermath_state_load and
aftermath_write."""

from __future__ import annotations

import datetime as dt
import logging

from django.conf import settings
from django.db.models import Q
from django.utils import timezone

from kernel.dice import SeededDice
from kingdoms.models import Alliance
from orders.models import CampaignSchedule
from rulebook.turn.aftermath.results import Outcome
from rulebook.turn.aftermath.run import resolve_aftermath
from rulebook.turn.aftermath.state import AftermathResult
from turns.models import Turn, phase_not_backed_off

from ..models import Battle
from .aftermath_state import aftermath_state_load
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


def aftermaths_due(*, now: dt.datetime) -> list[int]:
    """Turns waiting on battles whose aftermath the sweep runs: those whose results deadline has
    passed (campaign not paused, turn not held), those whose battles are all settled with no
    alliance left to announce over (decision 511), and those the organizer asked for whose task has not run after
    PHASE_REQUEST_TAKE_UP_SECONDS (lost with a worker, or never enqueued); never one with a result
    left in conflict (it waits for the organizer's ruling), nor one whose failed aftermath waits out its
    backoff (turns.models.phase_retry_delay)."""
    take_up = dt.timedelta(seconds=settings.PHASE_REQUEST_TAKE_UP_SECONDS)
    paused = CampaignSchedule.objects.filter(paused=True).values("campaign_id")
    # A turn held for the organizer (restored to before its aftermath) waits for the button.
    passed = Q(results_deadline__lte=now, held_at__isnull=True) & ~Q(campaign_id__in=paused)
    requested = Q(aftermath_requested_at__lte=now - take_up)
    # The schedule keeps its rhythm (issue 37, rules decision 511): a turn whose battles are all
    # settled, or that has none, moves on by itself before its results deadline (the blockers below,
    # read before the deadline, keep one waiting for a sheet or a ruling) unless a kingdom of the
    # campaign is in an alliance it may still announce over during the End of Turn, which lasts
    # until the results deadline (Allies, Announcement; decision 385).
    allied = Alliance.objects.filter(ended_turn__isnull=True).values("campaign_id")
    settled = Q(held_at__isnull=True) & ~Q(campaign_id__in=paused) & ~Q(campaign_id__in=allied)
    turns = Turn.objects.filter(passed | requested | settled, phase_not_backed_off(now), status=Turn.Status.BATTLES)
    return [t.pk for t in turns.order_by("id") if not aftermath_blockers(t, deadline_passed=now > t.results_deadline)]


def aftermath_preview(*, turn: Turn) -> AftermathResult:
    """A dry run: what the aftermath would do now, written nowhere."""
    state = aftermath_state_load(turn, now=timezone.now())
    return resolve_aftermath(state, SeededDice(seed=turn.seed, stream=DICE_STREAM))
