"""Setup rules (rulebook/setup/homes.py), rulebook section Setup and the Army Table."""

import pytest

from kernel.dice import ScriptedDice
from rulebook.setup.homes import (
    PickableProvince,
    adjacent_pick_errors,
    army_limit,
    home_pick_errors,
    provinces_to_pick,
    roll_home_selection,
)


def test_case_S1_duplicates_reroll_and_order_of_selection():
    # Four players roll 2D6: 7, 9, 7, 4. The two 7s re-roll: 8 and 3.
    dice = ScriptedDice(faces=[3, 4, 4, 5, 3, 4, 2, 2, 4, 4, 1, 2])
    rolls = roll_home_selection([1, 2, 3, 4], dice)
    assert rolls.values == {1: 8, 2: 9, 3: 3, 4: 4}
    # Home provinces are selected 9, 8, 4, 3; adjacent provinces from the lowest: 3, 4, 8, 9.
    assert [rolls.values[k] for k in rolls.home_order] == [9, 8, 4, 3]
    assert [rolls.values[k] for k in rolls.province_order] == [3, 4, 8, 9]
    assert [r.purpose for r in dice.rolls].count("home selection re-roll") == 2
    assert dice.unused == []


def test_rerolls_repeat_until_every_value_differs():
    # 6, 6 -> both re-roll 5, 5 -> both re-roll 2, 11.
    dice = ScriptedDice(faces=[3, 3, 2, 4, 1, 4, 4, 1, 1, 1, 5, 6])
    rolls = roll_home_selection([1, 2], dice)
    assert rolls.values == {1: 2, 2: 11}


def test_case_S2_six_players_pick_one_adjacent_province():
    assert provinces_to_pick(6) == 1
    assert provinces_to_pick(5) == 2
    assert provinces_to_pick(4) == 2


def _province(number, **kw):
    base = dict(terrain="plains", settlement="none", capitol_site=False, pyramid=False, controlled=False)
    base.update(kw)
    return PickableProvince(number=number, **base)


PROVINCES = {
    1: _province(1, capitol_site=True, settlement="city"),
    2: _province(2),
    3: _province(3),
    4: _province(4, controlled=True),
    5: _province(5, terrain="desert"),
    6: _province(6, capitol_site=True, settlement="city"),
    9: _province(9),
}


def test_home_must_be_a_free_capitol_site():
    assert home_pick_errors(1, PROVINCES) == []
    assert "not one of the predetermined capitol sites" in home_pick_errors(2, PROVINCES)[0]
    assert "not on this campaign's map" in home_pick_errors(99, PROVINCES)[0]
    taken = {**PROVINCES, 1: _province(1, capitol_site=True, controlled=True)}
    assert "already been taken" in home_pick_errors(1, taken)[0]


def test_adjacent_picks_must_be_adjacent_free_and_the_right_number():
    kw = dict(home=1, neighbours=frozenset({2, 3, 4, 5, 6}), provinces=PROVINCES, player_count=4)
    assert adjacent_pick_errors([2, 3], **kw) == []
    assert "Pick exactly 2" in adjacent_pick_errors([2], **kw)[0]
    assert "not adjacent to your home province 1" in adjacent_pick_errors([2, 9], **kw)[0]
    assert "already taken" in adjacent_pick_errors([2, 4], **kw)[0]
    assert "desert" in adjacent_pick_errors([2, 5], **kw)[0]
    assert "capitol site" in adjacent_pick_errors([2, 6], **kw)[0]
    assert "twice" in " ".join(adjacent_pick_errors([2, 2], **kw))
    six = dict(kw, player_count=6)
    assert adjacent_pick_errors([2], **six) == []
    assert "more than five players" in adjacent_pick_errors([2, 3], **six)[0]


@pytest.mark.parametrize(
    "players, provinces, armies",
    [
        (2, 5, 1),
        (2, 6, 2),
        (2, 12, 3),
        (3, 4, 1),
        (3, 5, 2),
        (4, 3, 1),
        (4, 4, 2),
        (4, 8, 3),
        (5, 3, 2),
        (8, 9, 4),
    ],
)
def test_army_table_one_additional_army_for_every_n_provinces(players, provinces, armies):
    # Armies, Army Table: the starting army plus one for every N provinces held, rounded down.
    assert army_limit(player_count=players, provinces_controlled=provinces) == armies
