"""Generic Opponents: the 150-point warband a Tomb Raid is played against (decision 409)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from rulebook.ruins_and_tomb_raiders.force import ForceProblemCode, RaiderEntry, Role, TombRaiders
from rulebook.ruins_and_tomb_raiders.generic_opponents import generic_warband_problems, raid_opponent
from rulebook.tables import ArmyType


def test_generic_opponents_select_no_lieutenant_and_two_core_troop_types_at_most() -> None:
    """Generic Opponents: "The 150 points are spent in the same manner, but no Lieutenant is selected and
    all models must be chosen from only 2 Core troop types max"."""
    captain = RaiderEntry("Boss", 1, 15, role=Role.CAPTAIN, unit_type="Orc Boyz")
    warband = TombRaiders(
        ArmyType.ORCS_AND_GOBLINS,
        (captain, RaiderEntry("Orc Boyz", 10, 6), RaiderEntry("Archers", 5, 6, missile_weapon=True)),
    )
    assert generic_warband_problems(warband) == []
    assert "150 points" in raid_opponent(sacked=False)[0]

    third = replace(warband, entries=(*warband.entries[:2], RaiderEntry("Goblins", 5, 3)))
    assert generic_warband_problems(third) == []
    three_types = replace(third, entries=(*third.entries, warband.entries[2]))
    assert {p.code for p in generic_warband_problems(three_types)} == {ForceProblemCode.GENERIC_TROOP_TYPES}
    with_lieutenant = replace(warband, entries=(*warband.entries, RaiderEntry("Big 'Un", 1, 8, role=Role.LIEUTENANT)))
    codes = {p.code for p in generic_warband_problems(with_lieutenant)}
    assert codes == {ForceProblemCode.GENERIC_LIEUTENANT, ForceProblemCode.GENERIC_TROOP_TYPES}


@pytest.mark.parametrize("army_type", [ArmyType.ANCIENT_DEAD, ArmyType.TOMB_KINGS])
def test_the_sacked_ruin_s_guard_is_checked_as_a_tomb_kings_warband(army_type: ArmyType) -> None:
    guard = TombRaiders(
        army_type, (RaiderEntry("Skeleton Champion", 1, 14, role=Role.CAPTAIN), RaiderEntry("Skeletons", 16, 8))
    )
    assert generic_warband_problems(guard) == []


def test_the_sheet_states_the_missile_limit_with_the_elves_half() -> None:
    """Creating Tomb Raiders: "limited to a max of 1/3 of your force (round down) with missile weapons of any
    kind. However, Elves may have up to 50% of their force with missile weapons"; Generic Opponents: "The 150
    points are spent in the same manner". The Tomb Raid sheet's words for the warband say both, as the check
    (`generic_warband_problems`) applies both: an Elf warband with half its models archers is no fault."""
    text = " ".join(raid_opponent(sacked=False))
    assert "a third of its models at most (rounded down) with missile weapons, half for Elves" in text
    elves = TombRaiders(
        ArmyType.WOOD_ELVES,
        (
            RaiderEntry("Captain (Glade Guard Champion)", 1, 20, role=Role.CAPTAIN, unit_type="Glade Guard"),
            RaiderEntry("Glade Guard", 4, 14, missile_weapon=True),
            RaiderEntry("Eternal Guard", 3, 12),
        ),
    )
    assert [p.code for p in generic_warband_problems(elves) if "missile" in p.message.lower()] == []
