"""Battle results (rulebook/turn/aftermath/results.py): the ladder, Withdrawal (A8), experience (A1), victory
gold (A2), and how two sheets settle a battle, including the missing sheet (A7). No database.
Rulebook: Experience Points, Withdrawal, Looting, 8. End of Turn."""

from __future__ import annotations

import pytest

from rulebook.turn.aftermath.results import (
    BASE_EXPERIENCE,
    Conflict,
    Outcome,
    Pending,
    SideReport,
    battle_outcome,
    mirror,
    one_level_better,
    one_level_worse,
    victory_gold,
)
from rulebook.turn.aftermath.results import (
    BattleResult as R,
)


def test_case_A1_experience_by_result():
    """A1: massacred the opponent 100, won 75, draw 50, loss 50."""
    assert [BASE_EXPERIENCE[r] for r in R] == [100, 75, 75, 50, 50, 50, 50]


def test_case_A2_victory_gold():
    """A2: a minor victory against a 1,500-point army earns 300; a major victory against 2,000 earns 600."""
    assert victory_gold(R.MINOR_VICTORY, 1500) == 300
    assert victory_gold(R.MAJOR_VICTORY, 2000) == 600
    assert victory_gold(R.MINOR_VICTORY, 1499) == 200  # each full 500 points
    assert victory_gold(R.MASSACRE, 1000) == 300  # a massacre counts as a major victory
    assert victory_gold(R.DRAW, 2000) == 0


@pytest.mark.parametrize(
    "played, withdrawn",
    [
        (R.MASSACRE, R.DRAW),
        (R.MAJOR_VICTORY, R.DRAW),
        (R.MINOR_VICTORY, R.DRAW),
        (R.DRAW, R.MINOR_LOSS),
        (R.MINOR_LOSS, R.MAJOR_LOSS),
        (R.MAJOR_LOSS, R.MASSACRED),
        (R.MASSACRED, R.MASSACRED),
    ],
)
def test_case_A8_withdrawal_is_one_level_worse(played, withdrawn):
    """A8 / Withdrawal: "a win becomes a tie" (any win: a massacre, a major or a minor victory),
    a draw a minor loss, a minor loss a major loss, a major loss a massacre; massacred stays."""
    assert one_level_worse(played) == withdrawn


@pytest.mark.parametrize(
    "played, opponent_withdrew",
    [
        (R.MASSACRE, R.MASSACRE),
        (R.MAJOR_VICTORY, R.MASSACRE),
        (R.MINOR_VICTORY, R.MAJOR_VICTORY),
        (R.DRAW, R.MINOR_VICTORY),
        (R.MINOR_LOSS, R.DRAW),
        (R.MAJOR_LOSS, R.DRAW),
        (R.MASSACRED, R.DRAW),
    ],
)
def test_case_A8_the_opponent_s_withdrawal_mirrors_it(played, opponent_withdrew):
    """A8: the side whose opponent withdrew has the mirror of the opponent's result one level
    worse: any loss becomes a draw (the opponent's win became one), a draw a minor victory."""
    assert one_level_better(played) == opponent_withdrew
    assert one_level_better(played) == mirror(one_level_worse(mirror(played)))


def test_mirror():
    assert [mirror(r) for r in R] == list(reversed(list(R)))


def test_agreeing_sheets_settle_the_battle():
    outcome = battle_outcome(
        SideReport(R.MINOR_VICTORY), SideReport(R.MINOR_LOSS), defender_files=True, deadline_passed=False
    )
    assert isinstance(outcome, Outcome) and outcome.victor == "attacker"
    assert (outcome.attacker.result, outcome.defender.result) == (R.MINOR_VICTORY, R.MINOR_LOSS)


def test_case_A8_a_withdrawal_moves_the_result_against_the_side_that_withdrew():
    """The defender was losing a minor loss and withdrew: a major loss, a major victory for the attacker."""
    outcome = battle_outcome(
        SideReport(R.MINOR_VICTORY, opponent_withdrew=True),
        SideReport(R.MINOR_LOSS, withdrew=True),
        defender_files=True,
        deadline_passed=False,
    )
    assert isinstance(outcome, Outcome)
    assert (outcome.attacker.result, outcome.defender.result) == (R.MAJOR_VICTORY, R.MAJOR_LOSS)


@pytest.mark.parametrize("won", [R.MASSACRE, R.MAJOR_VICTORY, R.MINOR_VICTORY])
def test_case_A8_a_winner_that_withdraws_has_a_draw(won):
    """A8 / Withdrawal: the attacker was winning (even a massacre) and withdrew: "a win becomes a
    tie", a draw for both sides and no victor."""
    outcome = battle_outcome(
        SideReport(won, withdrew=True),
        SideReport(mirror(won), opponent_withdrew=True),
        defender_files=True,
        deadline_passed=False,
    )
    assert isinstance(outcome, Outcome) and outcome.victor is None
    assert (outcome.attacker.result, outcome.defender.result) == (R.DRAW, R.DRAW)


@pytest.mark.parametrize("played", list(R))
def test_case_A8_when_both_sides_withdrew_the_result_stands(played):
    """A8: both withdrew: each moves the result one level against itself, and the two cancel,
    whichever is counted first (docs/rules-decisions.md)."""
    outcome = battle_outcome(
        SideReport(played, withdrew=True, opponent_withdrew=True),
        SideReport(mirror(played), withdrew=True, opponent_withdrew=True),
        defender_files=True,
        deadline_passed=False,
    )
    assert isinstance(outcome, Outcome) and outcome.attacker.result == played


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
    "reported, victor",
    [(R.DRAW, None), (R.MINOR_LOSS, None), (R.MINOR_VICTORY, "defender"), (R.MASSACRE, "defender")],
)
def test_case_A7_after_the_deadline_the_missing_side_counts_a_major_loss_without_experience(reported, victor):
    """A7 / 8. End of Turn: no sheet by the deadline: a major loss and no experience for that side;
    the side that filed keeps the result it reported (it is not made a major victory), so nobody
    wins unless the filer reported a victory."""
    outcome = battle_outcome(None, SideReport(reported), defender_files=True, deadline_passed=True)
    assert isinstance(outcome, Outcome)
    assert outcome.attacker.result == R.MAJOR_LOSS and not outcome.attacker.experience_allowed
    assert not outcome.attacker.filed
    assert outcome.defender.result == reported and outcome.defender.experience_allowed and outcome.defender.filed
    assert outcome.victor == victor


def test_case_R2_only_the_attacker_files_a_minor_victory_and_it_stands_as_filed():
    """R2 / 8. End of Turn: only the attacker files, a minor victory. The defender's side is a
    major loss with no experience; the attacker's minor victory stands as filed (not a major
    victory): the two results no longer mirror each other, and the attacker is the victor."""
    outcome = battle_outcome(SideReport(R.MINOR_VICTORY), None, defender_files=True, deadline_passed=True)
    assert isinstance(outcome, Outcome)
    assert (outcome.attacker.result, outcome.attacker.experience_allowed) == (R.MINOR_VICTORY, True)
    assert (outcome.defender.result, outcome.defender.experience_allowed) == (R.MAJOR_LOSS, False)
    assert outcome.victor == "attacker"
    assert BASE_EXPERIENCE[outcome.attacker.result] == 75 and victory_gold(outcome.attacker.result, 1500) == 300


def test_the_filer_s_withdrawal_still_counts_when_the_other_sheet_is_missing():
    """Withdrawal and 8. End of Turn: the defender reports a minor victory and that the attacker
    withdrew: its result as filed is a major victory; the attacker, without a sheet, a major loss."""
    outcome = battle_outcome(
        None, SideReport(R.MINOR_VICTORY, opponent_withdrew=True), defender_files=True, deadline_passed=True
    )
    assert isinstance(outcome, Outcome)
    assert (outcome.attacker.result, outcome.defender.result) == (R.MAJOR_LOSS, R.MAJOR_VICTORY)


def test_a_side_without_a_player_owes_no_sheet_and_the_other_sheet_decides():
    """8. End of Turn binds the players: the Ancient Dead (the organizer's) or a neutral garrison
    owe no sheet. The player's sheet decides, mirrored; without it by the deadline the player's
    side is a major loss without experience and the other side has the mirror, a major victory."""
    alone = battle_outcome(None, SideReport(R.MINOR_LOSS), attacker_files=False, deadline_passed=False)
    assert isinstance(alone, Outcome) and (alone.attacker.result, alone.victor) == (R.MINOR_VICTORY, "attacker")
    assert isinstance(battle_outcome(None, None, attacker_files=False, deadline_passed=False), Pending)
    late = battle_outcome(None, None, attacker_files=False, deadline_passed=True)
    assert isinstance(late, Outcome)
    assert (late.attacker.result, late.attacker.filed) == (R.MAJOR_VICTORY, True)
    assert (late.defender.result, late.defender.experience_allowed) == (R.MAJOR_LOSS, False)


def test_case_A7_no_sheet_from_either_side_is_two_major_losses_and_no_victor():
    outcome = battle_outcome(None, None, defender_files=True, deadline_passed=True)
    assert isinstance(outcome, Outcome) and outcome.victor is None
    assert outcome.attacker.result == outcome.defender.result == R.MAJOR_LOSS


def test_a_garrison_without_a_player_leaves_it_to_the_attacker_s_sheet():
    outcome = battle_outcome(SideReport(R.MINOR_LOSS), None, defender_files=False, deadline_passed=False)
    assert isinstance(outcome, Outcome) and outcome.victor == "defender"
