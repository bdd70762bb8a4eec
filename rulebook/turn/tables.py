"""The rulebook's tables used by order sheets (pure Python)."""

from __future__ import annotations

from rulebook.tables import ArmyType

# 3. Create / Upgrade Armies: discount (percent) on an army created in a town or city.
# Beasts of Chaos and Ogre Kingdoms ("Wildlings") get 5%; Dogs of War none (mercenaries).
SETTLEMENT_CREATION_DISCOUNT: dict[ArmyType, int] = {
    ArmyType.BEASTS_OF_CHAOS: 5,
    ArmyType.OGRE_KINGDOMS: 5,
    ArmyType.DOGS_OF_WAR: 0,
}
DEFAULT_SETTLEMENT_CREATION_DISCOUNT = 10

SUPPLY_DEPOT_GOLD = 200  # Supply Depot: a replacement in a town or city
# 3. Create / Upgrade Armies: "An upgraded army in this way that is adding 500 or more points ... will
# lose all its experience points and veteran status".
UPGRADE_LOSES_EXPERIENCE_AT = 500
ELITE_DEFENSE_FORCE_GOLD = 500  # Battle for Towns, Cities, and Capitols

# Army-Specific Rules: terrain each army type may Forced March through, besides plains.
# "Woods" is forest, "Marshes" marshland. Orcs & Goblins may go through any terrain but desert
# (at -1 off plains, applied when the march is rolled). Desert never.
FORCED_MARCH_TERRAIN: dict[ArmyType, frozenset[str]] = {
    ArmyType.BEASTS_OF_CHAOS: frozenset({"plains", "forest"}),
    ArmyType.WOOD_ELVES: frozenset({"plains", "forest"}),
    ArmyType.VAMPIRE_COUNTS: frozenset({"plains", "forest"}),
    ArmyType.DWARFS: frozenset({"plains", "mountains"}),
    ArmyType.CHAOS_DWARVES: frozenset({"plains", "mountains"}),
    ArmyType.SKAVEN: frozenset({"plains", "mountains"}),
    ArmyType.OGRE_KINGDOMS: frozenset({"plains", "mountains"}),
    ArmyType.LIZARDMEN: frozenset({"plains", "marshland"}),
    ArmyType.HORDES_OF_CHAOS: frozenset({"plains", "marshland"}),
    ArmyType.ORCS_AND_GOBLINS: frozenset({"plains", "forest", "marshland", "mountains"}),
    # The Ancient Dead can never attempt a Forced March (The Ancient Dead, Movement).
    ArmyType.ANCIENT_DEAD: frozenset(),
}
DEFAULT_FORCED_MARCH_TERRAIN = frozenset({"plains"})


def forced_march_terrain(army_type: ArmyType) -> frozenset[str]:
    return FORCED_MARCH_TERRAIN.get(army_type, DEFAULT_FORCED_MARCH_TERRAIN)


def creation_cost(points: int, army_type: ArmyType, settlement: str) -> int:
    """Gold to create an army of `points` (1 gold a point), less the town/city discount.
    A fraction of a gold piece is rounded up (rule case C1; docs/rules-decisions.md)."""
    if settlement not in ("town", "city"):
        return points
    discount = SETTLEMENT_CREATION_DISCOUNT.get(army_type, DEFAULT_SETTLEMENT_CREATION_DISCOUNT)
    return -(-points * (100 - discount) // 100)


# Player Issues, Transfer of Gold: "subject to a 10% transportation fee and suffer a one Turn Delay
# (i.e. to transfer 1,000 gold pieces to another player, it will cost 1,100 gold. And if it were
# transferred in Turn 2, it will arrive at the beginning of Turn 4)."
TRANSFER_FEE_PERCENT = 10
TRANSFER_ARRIVES_AFTER = 2  # turns: sent in turn 2, it arrives at the beginning of turn 4
ITEM_GOLD_PER_POINT = 2  # "An item's gold cost is double its point value": its fee is 10% of that


def transfer_fee(gold: int) -> int:
    """The 10% transportation fee on `gold`; a fraction of a gold piece is rounded up."""
    return -(-gold * TRANSFER_FEE_PERCENT // 100)


def item_transfer_fee(points: int) -> int:
    """Transfer of Gold: the fee on an item, 10% of its gold cost (double its points)."""
    return transfer_fee(points * ITEM_GOLD_PER_POINT)


def transfer_affordable(gold: int, treasury: int) -> int:
    """The most of `gold` a treasury of `treasury` can send with its fee on top (0 when it holds none)."""
    most = max(0, treasury) * 100 // (100 + TRANSFER_FEE_PERCENT)
    while most + 1 + transfer_fee(most + 1) <= treasury:  # the fee's rounding up may leave room for more
        most += 1
    while most and most + transfer_fee(most) > treasury:
        most -= 1
    return min(gold, most)
