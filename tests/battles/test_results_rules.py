"""Battle results (battles/rules/results.py): the ladder, Withdrawal (A8), experience (A1), victory
gold (A2), and how two sheets settle a battle, including the missing sheet (A7). No database.
Rulebook: Experience Points, Withdrawal, Looting, 8. End of Turn."""

from __future__ import annotations

import pytest

from battles.rules.results import (
    BASE_EXPERIENCE,
    Conflict,
    Outcome,
    Pending,
    SideReport,
    battle_outcome,
    mirror,
    one_level_worse,
    victory_gold,
)
from battles.rules.results import (
    BattleResult as R,
)


def test_a1_experience_by_result():
    """A1: massacred the opponent 100, won 75, draw 50, loss 50."""
    assert [BASE_EXPERIENCE[r] for r in R] == [100, 75, 75, 50, 50, 50, 50]


def test_a2_victory_gold():
    """A2: a minor victory against a 1,500-point army earns 300; a major victory against 2,000 earns 600."""
    assert victory_gold(R.MINOR_VICTORY, 1500) == 300
    assert victory_gold(R.MAJOR_VICTORY, 2000) == 600
    assert victory_gold(R.MINOR_VICTORY, 1499) == 200  # each full 500 points
    assert victory_gold(R.MASSACRE, 1000) == 300  # a massacre counts as a major victory
    assert victory_gold(R.DRAW, 2000) == 0


def test_a8_withdrawal_is_one_level_worse():
    """A8: a win becomes a draw... one step down: a draw a minor loss, a minor loss a major loss,
    a major loss a massacre; a massacre becomes a major victory; massacred stays massacred."""
    assert one_level_worse(R.MINOR_VICTORY) == R.DRAW
    assert one_level_worse(R.DRAW) == R.MINOR_LOSS
    assert one_level_worse(R.MINOR_LOSS) == R.MAJOR_LOSS
    assert one_level_worse(R.MAJOR_LOSS) == R.MASSACRED
    assert one_level_worse(R.MASSACRE) == R.MAJOR_VICTORY
    assert one_level_worse(R.MASSACRED) == R.MASSACRED


def test_mirror():
    assert [mirror(r) for r in R] == list(reversed(list(R)))


def test_agreeing_sheets_settle_the_battle():
    outcome = battle_outcome(
        SideReport(R.MINOR_VICTORY), SideReport(R.MINOR_LOSS), defender_files=True, deadline_passed=False
    )
    assert isinstance(outcome, Outcome) and outcome.victor == "attacker"
    assert (outcome.attacker.result, outcome.defender.result) == (R.MINOR_VICTORY, R.MINOR_LOSS)


def test_a8_a_withdrawal_moves_the_result_against_the_side_that_withdrew():
    """The defender was losing a minor loss and withdrew: a major loss, a major victory for the attacker."""
    outcome = battle_outcome(
        SideReport(R.MINOR_VICTORY, opponent_withdrew=True),
        SideReport(R.MINOR_LOSS, withdrew=True),
        defender_files=True,
        deadline_passed=False,
    )
    assert isinstance(outcome, Outcome)
    assert (outcome.attacker.result, outcome.defender.result) == (R.MAJOR_VICTORY, R.MAJOR_LOSS)


def test_conflicting_sheets_are_a_conflict_naming_what_differs():
    conflict = battle_outcome(
        SideReport(R.MAJOR_VICTORY), SideReport(R.DRAW), defender_files=True, deadline_passed=True
    )
    assert isinstance(conflict, Conflict)
    assert "the attacker reports a major victory, the defender a draw (it should be a major loss)" in conflict.message
    withdrawals = battle_outcome(
        SideReport(R.DRAW, withdrew=True), SideReport(R.DRAW), defender_files=True, deadline_passed=False
    )
    assert isinstance(withdrawals, Conflict) and "withdrew" in withdrawals.message


def test_a_missing_sheet_waits_until_the_deadline():
    assert isinstance(battle_outcome(SideReport(R.DRAW), None, defender_files=True, deadline_passed=False), Pending)


@pytest.mark.parametrize(
    "reported, filer_result", [(R.DRAW, R.MAJOR_VICTORY), (R.MINOR_LOSS, R.MAJOR_VICTORY), (R.MASSACRE, R.MASSACRE)]
)
def test_a7_after_the_deadline_the_missing_side_counts_a_major_loss_without_experience(reported, filer_result):
    """A7 / 8. End of Turn: no sheet by the deadline: a major loss and no experience; the side that
    filed has a major victory (or the massacre it reported)."""
    outcome = battle_outcome(None, SideReport(reported), defender_files=True, deadline_passed=True)
    assert isinstance(outcome, Outcome)
    assert outcome.attacker.result == R.MAJOR_LOSS and not outcome.attacker.experience_allowed
    assert outcome.defender.result == filer_result and outcome.defender.experience_allowed
    assert outcome.victor == "defender"


def test_a7_no_sheet_from_either_side_is_two_major_losses_and_no_victor():
    outcome = battle_outcome(None, None, defender_files=True, deadline_passed=True)
    assert isinstance(outcome, Outcome) and outcome.victor is None
    assert outcome.attacker.result == outcome.defender.result == R.MAJOR_LOSS


def test_a_garrison_without_a_player_leaves_it_to_the_attacker_s_sheet():
    outcome = battle_outcome(SideReport(R.MINOR_LOSS), None, defender_files=False, deadline_passed=False)
    assert isinstance(outcome, Outcome) and outcome.victor == "defender"
