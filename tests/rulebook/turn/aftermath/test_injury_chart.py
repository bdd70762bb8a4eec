"""Casualty Recovery and the Character Injury Chart (rulebook/turn/aftermath/casualty_recovery.py, injuries.py), with
scripted dice: every band and every D66 value. Rule case A4. No database.
Rulebook: 7. Aftermath (Casualty Recovery, Rank and File Recovery, Character Injury Chart)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from kernel.dice import ScriptedDice
from rulebook.turn.aftermath.casualty_recovery import RANK_AND_FILE_RECOVERY, models_recovered
from rulebook.turn.aftermath.injury_chart import CHARACTER_INJURY_CHART, injury_roll


def test_case_A4_recovery_example():
    """A4: a unit of 20 lost 8 models and the army rolls 6 (1 in 3): the winner gets 3 back
    (rounded up), the loser 2 (rounded down)."""
    band = RANK_AND_FILE_RECOVERY[6]
    assert band.fraction == Fraction(1, 3)
    assert models_recovered(8, band.fraction, won=True) == 3
    assert models_recovered(8, band.fraction, won=False) == 2


@pytest.mark.parametrize(
    "total, fraction",
    [
        (2, Fraction(0)),
        (3, Fraction(1, 4)),
        (4, Fraction(1, 4)),
        (5, Fraction(1, 3)),
        (7, Fraction(1, 3)),
        (8, Fraction(1, 2)),
        (10, Fraction(1, 2)),
        (11, Fraction(2, 3)),
        (12, Fraction(2, 3)),
    ],
)
def test_rank_and_file_recovery_bands_at_their_edges(total, fraction):
    assert RANK_AND_FILE_RECOVERY[total].fraction == fraction


def test_rounding_never_gives_back_more_than_was_lost():
    assert models_recovered(1, Fraction(2, 3), won=True) == 1
    assert models_recovered(1, Fraction(2, 3), won=False) == 0
    assert models_recovered(9, Fraction(0), won=True) == 0


EXPECTED_CHART = {
    "dead": [11, 12, 13, 14, 15],
    "multiple-injuries": [16, 21],
    "leg-wound": [22, 23],
    "arm-wound": [24, 25],
    "madness": [26, 31],
    "chest-wound": [32, 33],
    "blind-in-one-eye": [34, 35],
    "old-battle-wound": [36, 41],
    "nervous-condition": [42, 43],
    "deep-wound": [44, 45],
    "robbed": [46, 51],
    "amnesia": [52, 53],
    "full-recovery": [54, 55, 56, 61, 62, 63, 64, 65],
    "survives-against-the-odds": [66],
}


def test_every_d66_value_maps_to_its_entry():
    """D66 has 36 values (digits 1-6): "16-21" is 16 and 21, and so on."""
    assert len(CHARACTER_INJURY_CHART) == 36
    by_code: dict[str, list[int]] = {}
    for value, entry in sorted(CHARACTER_INJURY_CHART.items()):
        by_code.setdefault(entry.code, []).append(value)
    assert by_code == EXPECTED_CHART


def _roll(faces, **kw):
    dice = ScriptedDice(faces=faces)
    injuries = injury_roll(dice, name="Sir Gawain", kingdom=1, army=10, **kw)
    assert dice.unused == []
    return injuries, dice


def test_dead():
    (injury,), _ = _roll([1, 3])
    assert injury.dead and injury.code == "dead"


@pytest.mark.parametrize("face, detail, ws", [(3, "lost an arm", 0), (4, "light wound, -1 WS", -1)])
def test_arm_wound(face, detail, ws):
    (injury,), _ = _roll([2, 4, face])
    assert injury.detail == detail and injury.stats.get("WS", 0) == ws and not injury.retired


def test_losing_the_second_arm_or_eye_retires_the_character():
    (arm,), _ = _roll([2, 5, 1], arms_lost=1)
    assert arm.retired
    (eye,), _ = _roll([3, 4], eyes_lost=1)
    assert eye.retired and eye.stats == {"BS": -1}


@pytest.mark.parametrize("face, detail", [(3, "Stupidity"), (4, "Frenzy")])
def test_madness(face, detail):
    (injury,), _ = _roll([2, 6, face])
    assert injury.detail == detail


def test_deep_wound_misses_d3_battles_and_the_stat_losses():
    (deep,), _ = _roll([4, 4, 2])
    assert deep.misses_battles == 2
    assert _roll([2, 2])[0][0].stats == {"M": -1}
    assert _roll([3, 3])[0][0].stats == {"T": -1}
    assert _roll([4, 3])[0][0].stats == {"I": -1}


def test_robbed_amnesia_and_survives_against_the_odds():
    assert _roll([5, 1])[0][0].items_lost
    assert _roll([5, 3])[0][0].amnesia
    assert _roll([6, 6])[0][0].experience_bonus == 15
    assert _roll([6, 1])[0][0].code == "full-recovery"


def test_multiple_injuries_rolls_d6_times_rerolling_dead_and_multiple():
    """16-21: roll D6 times; a Dead (12) and a further Multiple Injuries (21) are rerolled."""
    injuries, dice = _roll([2, 1, 2, 1, 2, 2, 2, 1, 3, 3, 3])  # 21; D6 = 2; 12 rerolled, 22; 13 rerolled, 33
    assert [i.code for i in injuries] == ["multiple-injuries", "leg-wound", "chest-wound"]
    assert not any(i.dead for i in injuries)
    assert all(r.kingdoms == (1,) and r.armies == (10,) for r in dice.rolls)
