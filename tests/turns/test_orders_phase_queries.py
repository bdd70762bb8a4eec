"""The orders phase's task takes the same number of queries for a small and a larger campaign, step
by step (turns/services/steps.py): the snapshot before the phase (the campaign's export), loading,
the rules, the writes, posting the battles, their scenarios and the sanity check read and write each
table a fixed number of times, however many kingdoms, armies and battles the turn has. The campaigns
are `make bench`'s generated ones (demo/management/commands/bench.py), each kingdom moving most of
its armies."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from demo.management.commands.bench import campaign_generate
from kingdoms.models import Unit
from orders.services.resolution import DICE_STREAM
from turns.models import DiceRoll, Turn
from turns.services.cycle import orders_phase_run
from turns.services.steps import phase_steps_recorded


def _orders_phase_queries(kingdoms: int, columns: int, rows: int) -> tuple[dict[str, int], int, int]:
    campaign = campaign_generate(kingdoms=kingdoms, columns=columns, rows=rows, armies_per_kingdom=3, seed=1)
    turn = campaign.turns.get()
    Turn.objects.filter(pk=turn.pk).update(seed="queries")  # the same turn every run
    with CaptureQueriesContext(connection) as queries, phase_steps_recorded() as steps:
        outcome = orders_phase_run(turn_id=turn.pk)
    assert outcome.resolved and outcome.resolution is not None
    # A write with nothing to write is no query (no unit lost a model, no die rolled): both campaigns
    # have every kind of row to write, so a count that differs is one that grows.
    assert DiceRoll.objects.filter(campaign=campaign, turn=1, stream=DICE_STREAM).exists()
    assert Unit.objects.filter(army__kingdom__campaign=campaign, models_lost__gt=0).exists()
    by_step = {s.name: s.queries for s in steps}
    return by_step, len(queries.captured_queries), len(outcome.resolution.battles)


@pytest.mark.skipif(
    connection.vendor == "sqlite",
    reason="Django splits SQLite's bulk inserts into batches of 999 parameters; CI's PostgreSQL pass runs this",
)
def test_the_orders_phase_takes_the_same_queries_for_10_and_100_kingdoms(db, django_capture_on_commit_callbacks):
    """Issue 35: the same count for a 10- and a 100-kingdom campaign, the whole task and each step."""
    small, small_total, small_battles = _orders_phase_queries(10, 10, 10)
    large, large_total, large_battles = _orders_phase_queries(100, 20, 20)
    assert large_battles > small_battles > 0  # more battles to post and roll, more armies, more provinces
    assert set(small) == {"snapshot", "load", "rules", "write", "posting", "scenarios", "sanity check"}
    assert large == small
    assert large_total == small_total
