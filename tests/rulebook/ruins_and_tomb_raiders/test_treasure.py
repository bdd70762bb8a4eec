"""Treasure from the Ruins and the Scarab Amulet. Rule cases TR6 and TR10 (its amulet); decisions
406-407. Dice scripted."""

from __future__ import annotations

import pytest

from kernel.dice import ScriptedDice
from rulebook.ruins_and_tomb_raiders.treasure import (
    Bearer,
    Treasure,
    magic_item_points_counted,
    may_carry_ruins_item,
    scarab_amulet_found,
    treasure_roll,
)


@pytest.mark.parametrize(
    ("faces", "treasure"),
    [
        ([1], Treasure((1,), ("Power Stones",))),
        ([2], Treasure((2,), ("Staff of Sorcery",))),
        ([3], Treasure((3,), ("War Banner",))),
        ([4, 1], Treasure((4, 1), ("Enchanted Shield",))),
        ([5, 2], Treasure((5, 2), ("Biting Blade",))),
        ([4, 3], Treasure((4, 3), ("Sword of Might",))),
        ([4, 4], Treasure((4, 4), ("Sword of Battle",))),
        ([5, 5], Treasure((5, 5), ("Sword of Striking",))),
        ([4, 6], Treasure((4, 6), ("Amulet of Protection",))),
        ([6, 3], Treasure((6, 3), ("Healing Potion",), 300)),
    ],
)
def test_case_TR6_the_treasure_table_and_its_common_items(faces: list[int], treasure: Treasure) -> None:
    """Treasure from the Ruins: "1: Power Stones ... 2: Staff of Sorcery 3: War Banner 4-5: Roll d6 on common
    items ... 6: d6 x 100 gold pieces + healing potion"."""
    dice = ScriptedDice(faces=faces)
    assert treasure_roll(dice, kingdom=2, ruin="Old Keep") == treasure
    assert dice.unused == []
    assert all("Treasure from the Ruins: Old Keep" in r.purpose and r.kingdoms == (2,) for r in dice.rolls)


def test_case_TR6_items_from_the_ruins_cost_nothing_and_do_not_count_toward_the_maximum() -> None:
    """Treasure from the Ruins: "Magic items gained from ruins do not need to be purchased nor do they apply
    to a character's maximum points of magic items"."""
    assert magic_item_points_counted(50, from_ruins=True) == 0
    assert magic_item_points_counted(50, from_ruins=False) == 50


def test_items_from_the_ruins_go_to_a_character_or_a_unit_s_champion_a_banner_to_its_standard() -> None:
    """Decision 406: "given as a sign of office to a unit to be used by the unit's champion or standard
    banner (if the item is a banner)"."""
    assert may_carry_ruins_item("Sword of Might", Bearer.CHARACTER)
    assert may_carry_ruins_item("Sword of Might", Bearer.CHAMPION)
    assert not may_carry_ruins_item("Sword of Might", Bearer.STANDARD)
    assert may_carry_ruins_item("War Banner", Bearer.STANDARD)
    assert not may_carry_ruins_item("War Banner", Bearer.CHAMPION)


def test_case_TR10_a_sacked_town_s_ruin_holds_no_amulet_the_first_raid_of_another_finds_one() -> None:
    """Tomb Raid: "a scarab amulet if it is the first time the Ruins was successfully tomb-raided"; The
    Ancient Dead: Deserts: the sacked town's ruins "will not contain a Scarab Amulet"."""
    assert scarab_amulet_found(sacked=False, raided_before=0) == "Scarab Amulet"
    assert scarab_amulet_found(sacked=False, raided_before=1) is None
    assert scarab_amulet_found(sacked=True, raided_before=0) is None
