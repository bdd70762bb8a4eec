"""Maintaining / Changing Tomb Raiders: killed models leave the list, changes cost 5 gold a point to use
the force the same turn, a new Captain is promoted. Rule cases TR3 and TR8; rules decisions 402-404."""

from __future__ import annotations

from dataclasses import replace

import pytest

from rulebook.ruins_and_tomb_raiders.force import (
    SAMPLE_HIGH_ELVES,
    ForceProblemCode,
    Profile,
    RaiderEntry,
    Role,
    TroopCategory,
    force_problems,
    officer_profile,
)
from rulebook.ruins_and_tomb_raiders.maintaining import (
    PromotionRefused,
    appoint_lieutenant,
    change_fee,
    may_go_after_change,
    models_killed,
    points_added,
    points_unused,
    promote_captain,
)

SPEARMAN = RaiderEntry("Spearman", 1, 11)


def test_case_TR3_an_11_point_model_added_this_turn_goes_on_a_mission_only_for_55_gold() -> None:
    """Maintaining / Changing Tomb Raiders: "may not be used the Turn you make changes, Unless you pay gold
    from your Treasury at the rate of 5 gold per point ... to add an elven spearman at 11 points will cost
    55 gold"."""
    before = replace(SAMPLE_HIGH_ELVES, entries=SAMPLE_HIGH_ELVES.entries[:-1])  # 110 points
    after = replace(before, entries=(*before.entries, SPEARMAN))

    added = points_added(before, after)
    assert added == 11
    assert change_fee(added) == 55
    assert not may_go_after_change(added, paid=False)
    assert may_go_after_change(added, paid=True)


def test_a_change_that_adds_nothing_costs_nothing() -> None:
    """Decision 403: models removed free nothing to pay; more models in an entry count what they add."""
    fewer = replace(SAMPLE_HIGH_ELVES, entries=SAMPLE_HIGH_ELVES.entries[:-1])
    assert points_added(SAMPLE_HIGH_ELVES, fewer) == 0
    assert may_go_after_change(0, paid=False)
    spearmen = SAMPLE_HIGH_ELVES.entries[3]
    more = replace(fewer, entries=(*fewer.entries[:3], replace(spearmen, models=7)))
    assert points_added(fewer, more) == 22


def test_killed_models_leave_the_list_and_free_their_points() -> None:
    """ "If models are killed, subtract their point value from your total. You may spend any unused points
    from your 150" (decision 402): the points come back to be spent."""
    assert points_unused(SAMPLE_HIGH_ELVES) == 1
    after = models_killed(SAMPLE_HIGH_ELVES, {"Spearmen": 2, "archers with light armor": 3})
    assert [(e.name, e.models) for e in after.force.entries] == [
        ("Tomb Raider Captain (Spear Champion)", 1),
        ("Lieutenant, Shadow Warrior", 1),
        ("Spearman with instrument", 1),
        ("Spearmen", 3),
    ]
    assert not after.captain_killed
    assert points_unused(after.force) == 1 + 22 + 39
    replaced = replace(after.force, entries=(*after.force.entries, RaiderEntry("Archers", 3, 13, missile_weapon=True)))
    assert force_problems(replaced) == []


def test_a_second_special_model_stays_refused_after_losses() -> None:
    """ "but you can never have more than one model from your Special or Rare selection"."""
    extra = RaiderEntry("Shadow Warrior", 1, 15, category=TroopCategory.SPECIAL)
    changed = replace(SAMPLE_HIGH_ELVES, entries=(*SAMPLE_HIGH_ELVES.entries[:-1], extra))
    assert ForceProblemCode.TOO_MANY_SPECIAL_OR_RARE in {p.code for p in force_problems(changed)}


def test_case_TR8_the_lieutenant_becomes_captain_with_ld_and_no_wound_paid_from_the_points() -> None:
    """Maintaining / Changing Tomb Raiders: "If a Captain is permanently killed, the Lieutenant will become
    the new Captain, increasing Ld by +1 to a max of 10, but a replacement Captain will never get the bonus
    wound ... you must use the points available to pay the cost of upgrading it to a Champion"."""
    lieutenant = replace(SAMPLE_HIGH_ELVES.entries[1], leadership=9, wounds=1)
    force = replace(
        SAMPLE_HIGH_ELVES, entries=(SAMPLE_HIGH_ELVES.entries[0], lieutenant, *SAMPLE_HIGH_ELVES.entries[2:])
    )
    killed = models_killed(force, {"Tomb Raider Captain (Spear Champion)": 1})
    assert killed.captain_killed and killed.force.captain is None

    promotion = promote_captain(killed.force, champion_upgrade_points=10)
    captain = promotion.force.captain
    assert captain is not None and captain.name == "Lieutenant, Shadow Warrior" and captain.promoted
    assert captain.points_per_model == 25
    assert officer_profile(captain) == Profile(leadership=10, wounds=1)  # Ld 9 + 1; no bonus wound
    assert officer_profile(replace(captain, leadership=10)).leadership == 10
    assert promotion.over_by == 0 and promotion.force.points == 149 - 23 + 10
    assert promotion.force.lieutenant is None
    assert force_problems(promotion.force) == []  # a Special Captain, promoted

    again = appoint_lieutenant(promotion.force, "Spearmen")
    assert [(e.name, e.models, e.role) for e in again.entries if e.name.startswith("Spearmen")] == [
        ("Spearmen", 4, Role.TROOPER),
        ("Spearmen (Lieutenant)", 1, Role.LIEUTENANT),
    ]
    assert force_problems(again) == []


def test_a_promotion_the_points_cannot_pay_leaves_the_list_over_150_until_models_go() -> None:
    """Decision 404: the Lieutenant is promoted all the same; the list over 150 is refused by the check
    (the force cannot go on a mission) until the player frees the points."""
    killed = models_killed(SAMPLE_HIGH_ELVES, {"Tomb Raider Captain (Spear Champion)": 1}).force
    killed = replace(killed, entries=(*killed.entries, RaiderEntry("Spearmen II", 2, 11)))  # 148 points
    promotion = promote_captain(killed, champion_upgrade_points=10)
    assert promotion.over_by == 8
    assert {p.code for p in force_problems(promotion.force)} == {ForceProblemCode.OVER_POINTS}


def test_without_a_lieutenant_the_player_names_the_new_captain() -> None:
    """ "Whatever model becomes the new Captain": a model of an entry is singled out and upgraded."""
    force = models_killed(
        SAMPLE_HIGH_ELVES, {"Tomb Raider Captain (Spear Champion)": 1, "Lieutenant, Shadow Warrior": 1}
    ).force
    with pytest.raises(PromotionRefused, match="Name the model"):
        promote_captain(force, champion_upgrade_points=12)
    promotion = promote_captain(force, champion_upgrade_points=12, new_captain="Spearmen")
    assert promotion.captain == "Spearmen (Captain)"
    assert promotion.force.entry("Spearmen") == replace(SAMPLE_HIGH_ELVES.entries[3], models=4)
    assert force_problems(promotion.force) == []
    with pytest.raises(PromotionRefused, match="still has its Captain"):
        promote_captain(promotion.force, champion_upgrade_points=12)


def test_the_lieutenant_not_another_model_becomes_captain() -> None:
    force = models_killed(SAMPLE_HIGH_ELVES, {"Tomb Raider Captain (Spear Champion)": 1}).force
    with pytest.raises(PromotionRefused, match="The Lieutenant"):
        promote_captain(force, champion_upgrade_points=12, new_captain="Spearmen")
    with pytest.raises(PromotionRefused, match="has its Lieutenant"):
        appoint_lieutenant(force, "Spearmen")
