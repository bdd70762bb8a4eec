"""Recovery of the Tomb Raiders after a skirmish: a D6 per model removed as injured. Rule case TR7;
rules decision 405. Dice scripted."""

from __future__ import annotations

from dataclasses import replace

from kernel.dice import ScriptedDice
from rulebook.ruins_and_tomb_raiders.force import SAMPLE_HIGH_ELVES
from rulebook.ruins_and_tomb_raiders.recovery import RecoveryOutcome, back_in_action, recover
from rulebook.ruins_and_tomb_raiders.tomb_raid import (
    MissionProblemCode,
    RaidContext,
    Ruin,
    TombRaidOrder,
    tomb_raid_problems,
)

CAPTAIN = "Tomb Raider Captain (Spear Champion)"


def test_case_TR7_injured_models_roll_1_dead_2_out_of_action_for_a_turn_3_to_6_back() -> None:
    """Recovery: "Any model removed from play as injured rolls on this chart, d6: 1: Dead. Remove from your
    list; 2: Out of action for one turn; 3-6: Full recovery"."""
    dice = ScriptedDice(faces=[1, 2, 3, 6])
    recovered = recover(SAMPLE_HIGH_ELVES, {"Spearmen": 3, "Archers with Light Armor": 1}, dice, kingdom=4)

    assert [(r.entry, r.face, r.outcome) for r in recovered.rolls] == [
        ("Spearmen", 1, RecoveryOutcome.DEAD),
        ("Spearmen", 2, RecoveryOutcome.OUT_OF_ACTION),
        ("Spearmen", 3, RecoveryOutcome.FULL_RECOVERY),
        ("Archers with Light Armor", 6, RecoveryOutcome.FULL_RECOVERY),
    ]
    spearmen = recovered.force.entry("Spearmen")
    assert spearmen is not None and (spearmen.models, spearmen.out_of_action) == (4, 1)
    assert recovered.force.points == 149 - 11
    assert recovered.force.models_available == 11 - 1 - 1
    assert "Spearmen (1 of 3)" in dice.rolls[0].purpose and dice.rolls[0].kingdoms == (4,)
    assert not recovered.captain_killed


def test_case_TR7_a_model_out_of_action_misses_the_next_turn_s_mission_then_returns() -> None:
    """Decision 405: the model out of action stays on the list and does not go on the next turn's mission;
    a force with every model out of action cannot go; after that turn it is back."""
    lone = replace(SAMPLE_HIGH_ELVES, entries=SAMPLE_HIGH_ELVES.entries[:1])
    hurt = recover(lone, {CAPTAIN: 1}, ScriptedDice(faces=[2]), kingdom=4).force
    assert hurt.models == 1 and hurt.models_available == 0
    ctx = RaidContext(force=hurt, treasury=500, ruins={7: Ruin(7, "Old Keep")}, moves={1: 7})
    assert [p.code for p in tomb_raid_problems(TombRaidOrder(7), ctx)] == [MissionProblemCode.NO_MODELS_AVAILABLE]
    assert back_in_action(hurt).models_available == 1


def test_a_captain_dead_on_recovery_leaves_the_list_for_his_lieutenant() -> None:
    """Recovery's 1 is the permanent death of Maintaining / Changing Tomb Raiders: the promotion follows."""
    recovered = recover(SAMPLE_HIGH_ELVES, {CAPTAIN.upper(): 1}, ScriptedDice(faces=[1]), kingdom=4)
    assert recovered.captain_killed and recovered.force.captain is None
