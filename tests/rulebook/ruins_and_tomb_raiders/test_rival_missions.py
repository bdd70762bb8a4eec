"""Reconnaissance and Sabotage: their lists and the charts both sections share (draw, failure, the random
model captured). Rule case RS2 in part; rules decisions 451 and 452. Dice scripted."""

from __future__ import annotations

import pytest

from kernel.dice import ScriptedDice
from rulebook.ruins_and_tomb_raiders.force import SAMPLE_HIGH_ELVES
from rulebook.ruins_and_tomb_raiders.reconnaissance import RECONNAISSANCE_MISSIONS, Reconnaissance
from rulebook.ruins_and_tomb_raiders.rival_missions import (
    MissionTarget,
    another_mission,
    captured_model,
    mission_earned,
)
from rulebook.ruins_and_tomb_raiders.sabotage import SABOTAGE_MISSIONS, THEFT_GOLD, Sabotage, theft_roll

SPY, TARGET = 3, 7


def test_both_lists_are_the_rulebook_s_seven_in_its_order() -> None:
    """Reconnaissance and Sabotage: each lists seven missions, numbered 1-7; Character Bio names "any 1
    character", Army Statistics and Army Orders "any one army", Misdirection "One army's orders"."""
    assert [m.label for m in RECONNAISSANCE_MISSIONS] == [
        "Character Bio",
        "Treasury Info",
        "Army Statistics",
        "Army Orders",
        "Army Construction Info",
        "Artillery Info",
        "Magic College Raid",
    ]
    assert [m.label for m in SABOTAGE_MISSIONS] == [
        "Theft",
        "Destroy Communication",
        "Mislabeled goods",
        "Poison Well",
        "Assassinate Spiritual Leader",
        "Sappers",
        "Misdirection",
    ]
    assert [m.number for m in (*RECONNAISSANCE_MISSIONS,)] == [1, 2, 3, 4, 5, 6, 7]
    targets = {m.mission: m.target for m in (*RECONNAISSANCE_MISSIONS, *SABOTAGE_MISSIONS) if m.target}
    assert targets == {
        Reconnaissance.CHARACTER_BIO: MissionTarget.CHARACTER,
        Reconnaissance.ARMY_STATISTICS: MissionTarget.ARMY,
        Reconnaissance.ARMY_ORDERS: MissionTarget.ARMY,
        Sabotage.MISDIRECTION: MissionTarget.ARMY,
    }


@pytest.mark.parametrize(
    ("desired", "face", "expected"),
    [
        (Reconnaissance.TREASURY_INFO, 1, Reconnaissance.CHARACTER_BIO),
        (Reconnaissance.TREASURY_INFO, 2, Reconnaissance.ARMY_STATISTICS),
        (Reconnaissance.TREASURY_INFO, 6, Reconnaissance.MAGIC_COLLEGE_RAID),
        (Reconnaissance.MAGIC_COLLEGE_RAID, 6, Reconnaissance.ARTILLERY_INFO),
        (Reconnaissance.CHARACTER_BIO, 1, Reconnaissance.TREASURY_INFO),
    ],
)
def test_the_draw_s_second_d6_counts_along_the_six_others(desired: str, face: int, expected: str) -> None:
    """Decision 451: "roll on the chart above with a d6, skipping the desired mission": seven missions less
    the desired one leave six, which the D6 counts along in the list's order."""
    assert another_mission(RECONNAISSANCE_MISSIONS, desired, face).mission == expected


def test_case_RS2_a_draw_gives_nothing_on_1_to_3_another_mission_on_4_5_the_desired_on_6() -> None:
    """Reconnaissance: a draw, "1-3: No info is gained; 4-5: Some info is gained, roll on the chart above with
    a d6, skipping the desired mission to see what info was gained; 6: Hasty withdraw: ... the information
    desired is grabbed at the last moment"."""
    desired = Reconnaissance.TREASURY_INFO

    def earned(*faces: int) -> str | None:
        dice = ScriptedDice(faces=list(faces))
        result = mission_earned(
            "draw", "Reconnaissance", RECONNAISSANCE_MISSIONS, desired, dice, spy=SPY, target=TARGET
        )
        assert dice.unused == []
        return result.mission

    assert [earned(face) for face in (1, 2, 3)] == [None, None, None]
    assert earned(4, 1) == Reconnaissance.CHARACTER_BIO  # the desired (2nd) skipped: 1 is Character Bio
    assert earned(5, 2) == Reconnaissance.ARMY_STATISTICS  # 2 of the six others is the list's third
    assert earned(6) == desired


def test_case_RS2_a_failure_captures_a_model_on_1_2_and_nothing_more_on_3_to_6() -> None:
    """Reconnaissance and Sabotage: a failure, "1-2: One random model is captured; 3-6: No further damage is
    inflicted on the Tomb Raiders". A success gains the desired mission with no roll."""
    for face, captured in ((1, True), (2, True), (3, False), (6, False)):
        result = mission_earned(
            "failure", "Sabotage", SABOTAGE_MISSIONS, Sabotage.THEFT, ScriptedDice(faces=[face]), spy=SPY, target=TARGET
        )
        assert result.mission is None
        assert result.capture_face == face
        assert ("captured" in result.how) is captured
    success = mission_earned(
        "success", "Sabotage", SABOTAGE_MISSIONS, Sabotage.THEFT, ScriptedDice(faces=[]), spy=SPY, target=TARGET
    )
    assert success.mission == Sabotage.THEFT


def test_the_random_model_captured_is_one_of_the_models_left_each_with_one_chance() -> None:
    """Decision 452: "One random model is captured": a die as large as the models left after the skirmish's
    losses, counted along the entries in list order (the Sample High Elves: Captain, Lieutenant, a
    musician, 5 Spearmen, 3 Archers: 11 models)."""
    assert SAMPLE_HIGH_ELVES.models == 11
    dice = ScriptedDice(faces=[1])
    assert captured_model(SAMPLE_HIGH_ELVES, dice, spy=SPY, target=TARGET) == SAMPLE_HIGH_ELVES.entries[0].name
    assert dice.rolls[0].expression == "D11" and dice.rolls[0].kingdoms == (SPY, TARGET)
    assert captured_model(SAMPLE_HIGH_ELVES, ScriptedDice(faces=[11]), spy=SPY, target=TARGET) == (
        SAMPLE_HIGH_ELVES.entries[-1].name
    )
    fourth = captured_model(SAMPLE_HIGH_ELVES, ScriptedDice(faces=[4]), spy=SPY, target=TARGET)
    assert fourth == "Spearmen"  # the Captain, the Lieutenant, the musician, then the first spearman


@pytest.mark.parametrize(("face", "gold"), [(1, 150), (2, 150), (3, 200), (4, 200), (5, 250), (6, 250)])
def test_theft_steals_150_200_or_250_gold(face: int, gold: int) -> None:
    """Sabotage, Theft: "1-2: 150 gold, 3-4: 200 gold, 5-6: 250 gold"."""
    assert theft_roll(ScriptedDice(faces=[face]), saboteur=SPY, target=TARGET) == (face, gold)
    assert THEFT_GOLD[face] == gold


def test_the_charts_dice_are_the_spy_s_alone() -> None:
    """Decision 478: the target's log of rolls must not tell it what the raiders were after: the draw and
    failure charts' dice are the spy's; the model captured is rolled for both (the target holds it)."""
    dice = ScriptedDice(faces=[4, 2])
    mission_earned(
        "draw", "Reconnaissance", RECONNAISSANCE_MISSIONS, Reconnaissance.TREASURY_INFO, dice, spy=SPY, target=TARGET
    )
    assert [roll.kingdoms for roll in dice.rolls] == [(SPY,), (SPY,)]
    dice = ScriptedDice(faces=[1, 3])
    mission_earned("failure", "Sabotage", SABOTAGE_MISSIONS, Sabotage.THEFT, dice, spy=SPY, target=TARGET)
    captured_model(SAMPLE_HIGH_ELVES, dice, spy=SPY, target=TARGET)
    assert [roll.kingdoms for roll in dice.rolls] == [(SPY,), (SPY, TARGET)]
