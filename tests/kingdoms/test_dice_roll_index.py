"""A turn's dice rolls are found by their own index (issue 35): before a phase adds rolls to a stream
it counts that stream's rolls of the turn, and the reports read a turn's rolls. Indexed by the
campaign alone, both read every roll of the campaign's whole history (thousands a turn), which
`make bench` cannot show: its campaigns have no history."""

from __future__ import annotations

from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext

from kernel.dice import SeededDice
from kingdoms.services.dice import dice_rolls_save_many
from tests.kingdoms.builders import campaign_built
from turns.models import DiceRoll


def _plan(sql: str) -> str:
    """The database's plan for `sql`, with sequential scans priced out on PostgreSQL: the test's
    table is small, where a scan is cheapest; the question is whether an index can serve it."""
    with transaction.atomic(), connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute("SET LOCAL enable_seqscan = off")
            cursor.execute("EXPLAIN " + sql)
        else:
            cursor.execute("EXPLAIN QUERY PLAN " + sql)
        return "\n".join(" ".join(str(part) for part in row) for row in cursor.fetchall())


def test_a_phase_counts_its_turns_rolls_by_the_turn_and_stream_index(db):
    campaign = campaign_built()
    for turn in (1, 2):
        dice = SeededDice(seed="history", stream="scenario-1")
        dice.d6(purpose="an earlier turn's roll")
        dice_rolls_save_many(campaign=campaign, turn=turn, dice=[dice])
    later = SeededDice(seed="history", stream="scenario-1")
    later.d6(purpose="the phase's roll")
    with CaptureQueriesContext(connection) as queries:
        dice_rolls_save_many(campaign=campaign, turn=2, dice=[later])
    count = next(q["sql"] for q in queries.captured_queries if q["sql"].lstrip().upper().startswith("SELECT"))
    assert "diceroll_turn_stream" in _plan(count)
    # The count is the turn's own: the roll continues turn 2's stream, not the campaign's.
    sequences = DiceRoll.objects.filter(campaign=campaign, turn=2).order_by("sequence")
    assert list(sequences.values_list("sequence", "purpose")) == [
        (0, "an earlier turn's roll"),
        (1, "the phase's roll"),
    ]
