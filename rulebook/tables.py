"""The rulebook's tables for the campaign world, as data (pure Python, no Django).

Each constant is named after the rulebook table it transcribes.
"""

from __future__ import annotations

import math
from enum import StrEnum
from fractions import Fraction
from typing import NamedTuple


class Terrain(StrEnum):
    """A province's terrain (Setup: the map; The Ancient Dead: Deserts)."""

    PLAINS = "plains"
    FOREST = "forest"
    MARSHLAND = "marshland"
    MOUNTAINS = "mountains"
    DESERT = "desert"


class Settlement(StrEnum):
    """What stands in a province (Setup: the map). A sacked town or city is NONE (Looting)."""

    NONE = "none"
    TOWN = "town"
    CITY = "city"
    RUINS = "ruins"

    @property
    def town_or_city(self) -> bool:
        """Towns and cities are taxed as such, garrisoned, discounted, looted; ruins are not."""
        return self in (Settlement.TOWN, Settlement.CITY)


class ArmyKind(StrEnum):
    """A field army, or a town's or city's Elite Defense Force (Battle for Towns, Cities, and
    Capitols), which never leaves its garrison."""

    FIELD = "field"
    GARRISON = "garrison"


class ArmyType(StrEnum):
    """Every army type the rulebook's tables name (Archetype Table, Alliance Chart,
    Army-Specific Rules), plus the organizer-run Ancient Dead."""

    BEASTS_OF_CHAOS = "beasts-of-chaos"
    BRETONNIANS = "bretonnians"
    CHAOS_DWARVES = "chaos-dwarves"
    DARK_ELVES = "dark-elves"
    DOGS_OF_WAR = "dogs-of-war"
    DWARFS = "dwarfs"
    EMPIRE = "empire"
    HIGH_ELVES = "high-elves"
    HORDES_OF_CHAOS = "hordes-of-chaos"
    LIZARDMEN = "lizardmen"
    OGRE_KINGDOMS = "ogre-kingdoms"
    ORCS_AND_GOBLINS = "orcs-and-goblins"
    SKAVEN = "skaven"
    TOMB_KINGS = "tomb-kings"
    VAMPIRE_COUNTS = "vampire-counts"
    WOOD_ELVES = "wood-elves"
    ANCIENT_DEAD = "ancient-dead"

    @property
    def label(self) -> str:
        return ARMY_TYPE_LABELS[self]


ARMY_TYPE_LABELS: dict[ArmyType, str] = {
    ArmyType.BEASTS_OF_CHAOS: "Beasts of Chaos",
    ArmyType.BRETONNIANS: "Bretonnians",
    ArmyType.CHAOS_DWARVES: "Chaos Dwarves",
    ArmyType.DARK_ELVES: "Dark Elves",
    ArmyType.DOGS_OF_WAR: "Dogs of War",
    ArmyType.DWARFS: "Dwarfs",
    ArmyType.EMPIRE: "Empire",
    ArmyType.HIGH_ELVES: "High Elves",
    ArmyType.HORDES_OF_CHAOS: "Hordes of Chaos",
    ArmyType.LIZARDMEN: "Lizardmen",
    ArmyType.OGRE_KINGDOMS: "Ogre Kingdoms",
    ArmyType.ORCS_AND_GOBLINS: "Orcs & Goblins",
    ArmyType.SKAVEN: "Skaven",
    ArmyType.TOMB_KINGS: "Tomb Kings",
    ArmyType.VAMPIRE_COUNTS: "Vampire Counts",
    ArmyType.WOOD_ELVES: "Wood Elves",
    ArmyType.ANCIENT_DEAD: "Ancient Dead (organizer)",
}

PLAYER_ARMY_TYPES: tuple[ArmyType, ...] = tuple(t for t in ArmyType if t is not ArmyType.ANCIENT_DEAD)


class Archetype(StrEnum):
    BARBARIAN = "barbarian"
    INTELLECTUAL = "intellectual"
    INTIMIDATOR = "intimidator"
    MAGICIAN = "magician"
    NOBLE = "noble"
    PSYCHOPATH = "psychopath"
    ROGUE = "rogue"
    VETERAN = "veteran"

    @property
    def label(self) -> str:
        return ARCHETYPE_LABELS[self]


ARCHETYPE_LABELS: dict[Archetype, str] = {
    Archetype.BARBARIAN: "Barbarian",
    Archetype.INTELLECTUAL: "Intellectual / Tactician",
    Archetype.INTIMIDATOR: "Intimidator",
    Archetype.MAGICIAN: "Magician",
    Archetype.NOBLE: "Noble",
    Archetype.PSYCHOPATH: "Psychopath / Zealot",
    Archetype.ROGUE: "Rogue / Trickster",
    Archetype.VETERAN: "Veteran",
}

_B, _I, _T, _M, _N, _P, _R, _V = (
    Archetype.BARBARIAN,
    Archetype.INTELLECTUAL,
    Archetype.INTIMIDATOR,
    Archetype.MAGICIAN,
    Archetype.NOBLE,
    Archetype.PSYCHOPATH,
    Archetype.ROGUE,
    Archetype.VETERAN,
)

# Character Archetypes and Advancement: the Archetype Table (which archetypes each army type may take).
# Chaos Dwarves are missing from the rulebook's table; they take the Dwarfs' row (see
# docs/rules-decisions.md). The Ancient Dead are a Tomb Kings army (The Ancient Dead), so take its row.
ARCHETYPE_TABLE: dict[ArmyType, frozenset[Archetype]] = {
    ArmyType.BEASTS_OF_CHAOS: frozenset({_B, _T, _M, _P, _R, _V}),
    ArmyType.BRETONNIANS: frozenset({_B, _I, _T, _P}),
    ArmyType.DARK_ELVES: frozenset({_B, _I, _T, _N, _P}),
    ArmyType.DOGS_OF_WAR: frozenset({_B, _I, _M, _R, _V}),
    ArmyType.DWARFS: frozenset({_B, _I, _N, _V}),
    ArmyType.EMPIRE: frozenset({_B, _I, _M, _N, _R, _V}),
    ArmyType.HIGH_ELVES: frozenset({_I, _M, _N, _R, _V}),
    ArmyType.HORDES_OF_CHAOS: frozenset({_B, _T, _M, _P, _V}),
    ArmyType.LIZARDMEN: frozenset({_I, _M, _R, _V}),
    ArmyType.OGRE_KINGDOMS: frozenset({_B, _T, _P, _V}),
    ArmyType.ORCS_AND_GOBLINS: frozenset({_B, _T, _M, _P, _V}),
    ArmyType.SKAVEN: frozenset({_B, _T, _M, _P, _R}),
    ArmyType.TOMB_KINGS: frozenset({_B, _I, _N, _R}),
    ArmyType.VAMPIRE_COUNTS: frozenset({_B, _I, _M, _N}),
    ArmyType.WOOD_ELVES: frozenset({_I, _M, _N, _R, _V}),
}
ARCHETYPE_TABLE[ArmyType.CHAOS_DWARVES] = ARCHETYPE_TABLE[ArmyType.DWARFS]
ARCHETYPE_TABLE[ArmyType.ANCIENT_DEAD] = ARCHETYPE_TABLE[ArmyType.TOMB_KINGS]

# Each archetype's Starting Ability.
STARTING_ABILITIES: dict[Archetype, str] = {
    _I: "Advantage of Ground",
    _B: "Furious Charge",
    _T: "Hold your Ground",
    _R: "Withdraw",
    _V: "Iron Nerves",
    _N: "Noblesse Oblige",
    _P: "Vicious Pursuit",
    _M: "Calmer of the Winds",
}

# The Archetype Advancement Tables (D6): results 1-5; a 6 is "Choose" (the player picks one of 1-5).
ARCHETYPE_ADVANCEMENT: dict[Archetype, tuple[str, str, str, str, str]] = {
    _I: ("Speedy Deployment", "Flankers", "Perceptive", "Military Intelligence", "Dictate Terms"),
    _B: ("Bravado", "Lay of the Land", "Absolute Direction", "The Mob Rules", "Berserker Rage"),
    _T: ("Hold Fast", "Executioner", "Reckless Charge", "Raider", "Mighty Blow"),
    _R: ("Pick Your Fights", "The Whites of Their Eyes", "Even the Odds", "Sneaky", "Press the Advantage"),
    _V: ("Chain of Command", "Fearless", "Disciplined", "Unflinching", "Grizzled Fighters"),
    _N: ("Duelist", "Despise Cowardice", "Choose Your Ground", "Gentlemanly Restraint", "Challenger"),
    _P: ("Dauntless", "Crazed", "Murderous", "Resilient", "Determined"),
    _M: ("Nullifier", "Enhancer", "Potential", "Scrying", "Counter Magic"),
}
ADVANCEMENT_CHOOSE = 6
MAX_ABILITIES = 6  # "five Archetype Abilities plus the Starting Ability"

# Armies: the Army Table. Players in the campaign -> one additional army for every N provinces.
# 5 or more players use the 5+ row.
ARMY_TABLE: dict[int, int] = {2: 6, 3: 5, 4: 4, 5: 3}

# Army Restrictions.
ARMY_MIN_POINTS = 1000
ARMY_MAX_POINTS = 2000
ARMY_DISBANDED_AT_OR_BELOW = 500
ELITE_DEFENSE_FORCE_POINTS = 500

# Setup.
STARTING_GOLD = 6000
STARTING_ARMY_POINTS = 2000
# "a 2,000 point army": a list at most this many points short of 2,000 is one. The rulebook counts
# armies in round figures and troops lost in 50-point steps (Foraging Table: D6 x 50 points), so a
# list within one such step of 2,000 is a 2,000-point army (docs/rules-decisions.md, decision 4).
STARTING_ARMY_SHORT_BY_AT_MOST = 50
HOME_PROVINCES_TO_PICK = 2
HOME_PROVINCES_TO_PICK_OVER_FIVE_PLAYERS = 1


class RecoveryBand(NamedTuple):
    label: str
    fraction: Fraction


# Casualty Recovery: the Rank and File Recovery table (2D6). Read by the aftermath (7. Aftermath)
# and by the Foraging Table's Disaster, whose casualties "must roll on the Rank and File Recovery
# table" (2. Maintain Armies), so it stands here, below both.
RANK_AND_FILE_RECOVERY: dict[int, RecoveryBand] = {
    2: RecoveryBand("No Recovery", Fraction(0)),
    **{n: RecoveryBand("1 in 4 Recovery", Fraction(1, 4)) for n in (3, 4)},
    **{n: RecoveryBand("1 in 3 Recovery", Fraction(1, 3)) for n in (5, 6, 7)},
    **{n: RecoveryBand("1 in 2 Recovery", Fraction(1, 2)) for n in (8, 9, 10)},
    **{n: RecoveryBand("2 in 3 Recovery", Fraction(2, 3)) for n in (11, 12)},
}


def models_recovered(lost: int, fraction: Fraction, *, won: bool) -> int:
    """Casualty Recovery: "round up if you won the game and down if you lost" (anyone who did not
    win rounds down: a draw is not a win)."""
    exact = lost * fraction
    return min(lost, math.ceil(exact) if won else math.floor(exact))
