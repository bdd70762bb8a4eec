"""Treasure from the Ruins, pure Python. Rule cases TR5 (the amulet), TR6 and TR10; decisions 406-407.

"The ruins contain a Scarab Amulet and treasure that the victor may claim: roll a d6: 1: Power Stones
(1 use per battle); 2: Staff of Sorcery; 3: War Banner; 4-5: Roll d6 on common items: 1: Enchanted
Shield 2: Biting Blade 3: Sword of Might 4: Sword of Battle 5: Sword of Striking 6: Amulet of
Protection (6+ ward); 6: d6 x 100 gold pieces + healing potion. A healing potion removes all injuries
a character has suffered.

Magic items gained from ruins do not need to be purchased nor do they apply to a character's maximum
points of magic items. Alternately, they may be given as a sign of office to a unit to be used by the
unit's champion or standard banner (if the item is a banner)."

The Scarab Amulet: "your kingdom acquires a scarab amulet if it is the first time the Ruins was
successfully tomb-raided" (Tomb Raid); a ruin made from a town or city sacked by the desert "will not
contain a Scarab Amulet" (The Ancient Dead: Deserts).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from kernel.dice import Dice
from rulebook.ancient_dead.deserts import SCARAB_AMULET

RULE = "Treasure from the Ruins"

POWER_STONES = "Power Stones"
STAFF_OF_SORCERY = "Staff of Sorcery"
WAR_BANNER = "War Banner"
HEALING_POTION = "Healing Potion"
COMMON_ITEMS_ROLL = "common items"  # 4-5: a second D6 on COMMON_ITEMS
GOLD_AND_POTION = "gold and a healing potion"  # 6: D6 x 100 gold and a Healing Potion
GOLD_PER_PIP = 100

TREASURE_TABLE: dict[int, str] = {
    1: POWER_STONES,
    2: STAFF_OF_SORCERY,
    3: WAR_BANNER,
    4: COMMON_ITEMS_ROLL,
    5: COMMON_ITEMS_ROLL,
    6: GOLD_AND_POTION,
}
COMMON_ITEMS: dict[int, str] = {
    1: "Enchanted Shield",
    2: "Biting Blade",
    3: "Sword of Might",
    4: "Sword of Battle",
    5: "Sword of Striking",
    6: "Amulet of Protection",
}
# What the table says of an item, printed beside it where it is shown.
ITEM_NOTES: dict[str, str] = {
    POWER_STONES: "1 use per battle",
    "Amulet of Protection": "6+ ward save",
    HEALING_POTION: "removes all injuries a character has suffered",
}
# "Magic items gained from ruins do not need to be purchased nor do they apply to a character's maximum
# points of magic items."
RUINS_ITEM_POINTS = 0
BANNERS = frozenset({WAR_BANNER.lower()})


@dataclass(frozen=True)
class Treasure:
    """The kingdom's cut of a raid: the faces rolled, the items found and the gold."""

    faces: tuple[int, ...]
    items: tuple[str, ...]
    gold: int = 0


def treasure_roll(dice: Dice, *, kingdom: int, ruin: str) -> Treasure:
    """A D6 on Treasure from the Ruins; 4-5 a D6 on the common items, 6 a D6 x 100 gold and a potion."""
    face = dice.d6(purpose=f"{RULE}: {ruin}", kingdoms=[kingdom])
    found = TREASURE_TABLE[face]
    if found == COMMON_ITEMS_ROLL:
        common = dice.d6(purpose=f"{RULE}: {ruin}, the common items", kingdoms=[kingdom])
        return Treasure((face, common), (COMMON_ITEMS[common],))
    if found == GOLD_AND_POTION:
        gold = dice.d6(purpose=f"{RULE}: {ruin}, D6 x {GOLD_PER_PIP} gold", kingdoms=[kingdom])
        return Treasure((face, gold), (HEALING_POTION,), gold * GOLD_PER_PIP)
    return Treasure((face,), (found,))


def magic_item_points_counted(points: int, *, from_ruins: bool) -> int:
    """What the item weighs against a character's maximum points of magic items (and what it costs):
    nothing when it came from the ruins."""
    return RUINS_ITEM_POINTS if from_ruins else points


class Bearer(StrEnum):
    CHARACTER = "character"
    CHAMPION = "champion"  # a unit's champion, the item given to the unit "as a sign of office"
    STANDARD = "standard"  # a unit's standard bearer, for a banner


def may_carry_ruins_item(item: str, bearer: Bearer) -> bool:
    """Who may bear an item from the ruins (decision 406): a character, or a unit as a sign of office, its
    champion bearing it, or its standard when the item is a banner (the War Banner is borne by a unit's
    standard or a character who may carry a banner by his army book)."""
    banner = item.strip().lower() in BANNERS
    if bearer is Bearer.STANDARD:
        return banner
    if bearer is Bearer.CHAMPION:
        return not banner
    return True


def scarab_amulet_found(*, sacked: bool, raided_before: int) -> str | None:
    """The Scarab Amulet of a successful raid: the ruin's first successful raid finds it; a ruin made from a
    town or city sacked by the desert holds none (decision 407)."""
    return SCARAB_AMULET if not sacked and raided_before == 0 else None
