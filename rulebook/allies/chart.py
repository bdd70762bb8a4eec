"""Allies: the Alliance Chart and its trust levels, what an alliance costs and pays back, the
Alliance Support Arrival table (pure Python, no Django).

Rulebook: Allies (Alliance Chart, Alliance Trust Level, Alliance Support Arrival, breaking an
alliance). The chart is transcribed row by row as the rulebook prints it (tests/kingdoms/
test_alliance_rules.py compares it with the rulebook's table cell by cell).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from rulebook.tables import ArmyType


class TrustLevel(StrEnum):
    """Alliance Trust Level: the letter the Alliance Chart prints."""

    BATTLE_BROTHERS = "B"  # same race, no problems
    DISALLOWED = "X"  # the races cannot ally
    TRUSTED = "T"  # alliance is permitted
    DISTRUSTED = "D"  # permitted; -1 leadership within 6", -1 on the Support Arrival roll

    @property
    def label(self) -> str:
        return TRUST_LEVEL_LABELS[self]


TRUST_LEVEL_LABELS: dict[TrustLevel, str] = {
    TrustLevel.BATTLE_BROTHERS: "Battle Brothers",
    TrustLevel.DISALLOWED: "Disallowed",
    TrustLevel.TRUSTED: "Trusted Allies",
    TrustLevel.DISTRUSTED: "Distrusted Allies",
}

# The chart's columns and rows, by the abbreviation it prints, in its order.
ALLIANCE_CHART_KINGDOMS: tuple[str, ...] = (
    "E",
    "O",
    "L",
    "S",
    "C",
    "TK",
    "VC",
    "DE",
    "HE",
    "WE",
    "CD",
    "B",
    "D",
    "DoW",
    "OK",
)

# Alliance Chart: row kingdom -> the letters of its row, one per column of ALLIANCE_CHART_KINGDOMS.
ALLIANCE_CHART: dict[str, str] = {
    "E": "B X T X X D X X T D X T T T D",
    "O": "X B X T T X D D X X D X X T D",
    "L": "T X B X X D X X T T X T T T D",
    "S": "X T X B T D X D X X D X X T D",
    "C": "X T X T B D D D X X T X X T D",
    "TK": "D X D D D B X D D D D X D T D",
    "VC": "X D X X D X B D X X D X X T D",
    "DE": "X D X D D D D B X X D X X T D",
    "HE": "T X T X X D X X B T X T D T D",
    "WE": "D X T X X D X X T B X T D T D",
    "CD": "X D X D T D D D X X B X X T D",
    "B": "T X T X X X X X T T X B T T D",
    "D": "T X T X X D X X D D X T B T D",
    "DoW": "T T T T T T T T T T T T T B T",
    "OK": "D D D D D D D D D D D D D T B",
}

# The army types of the kingdoms by the chart's abbreviation. Beasts of Chaos are not on the chart:
# they read as Chaos (C), the book they came from (docs/rules-decisions.md, decision 131). The Ancient
# Dead are run by the organizer and ally with no one (decision 131).
CHART_KINGDOM_OF: dict[ArmyType, str] = {
    ArmyType.EMPIRE: "E",
    ArmyType.ORCS_AND_GOBLINS: "O",
    ArmyType.LIZARDMEN: "L",
    ArmyType.SKAVEN: "S",
    ArmyType.HORDES_OF_CHAOS: "C",
    ArmyType.BEASTS_OF_CHAOS: "C",
    ArmyType.TOMB_KINGS: "TK",
    ArmyType.VAMPIRE_COUNTS: "VC",
    ArmyType.DARK_ELVES: "DE",
    ArmyType.HIGH_ELVES: "HE",
    ArmyType.WOOD_ELVES: "WE",
    ArmyType.CHAOS_DWARVES: "CD",
    ArmyType.BRETONNIANS: "B",
    ArmyType.DWARFS: "D",
    ArmyType.DOGS_OF_WAR: "DoW",
    ArmyType.OGRE_KINGDOMS: "OK",
}

ALLIANCE_GOLD = 1000  # "To form an alliance it will cost both players 1000 gold pieces."
# "the person who did not break the alliance will receive their 1000 gold pieces back and the 1000
# gold pieces from their former ally for a grand total of 2000 gold pieces."
ALLIANCE_BROKEN_GOLD = 2 * ALLIANCE_GOLD
ALLIANCE_MEMBERS = 2  # "There can be only a total of two kingdoms per alliance."
ALLIANCE_SUPPORT_POINTS = 300  # "support adjacent ally armies in battle with 300 points of core troops"
DISTRUSTED_ARRIVAL_MODIFIER = -1  # "Distrusted Allies subtract 1 from the die roll"


@dataclass(frozen=True)
class SupportArrival:
    low: int
    high: int
    code: str
    text: str


# Alliance Support Arrival (D6).
ALLIANCE_SUPPORT_ARRIVAL: tuple[SupportArrival, ...] = (
    SupportArrival(
        1,
        3,
        "unexpected-delay",
        "Unexpected Delay: roll for the support as if they were reserves from turn 2 (4+ on turn 2, 3+ on turn 3, "
        "2+ on turns 4-6); they enter from any friendly board edge and may not charge that turn",
    ),
    SupportArrival(4, 6, "on-time", "On Time: they show up as normal and deploy in a friendly deployment zone"),
)


class BreakKind(StrEnum):
    """How an alliance ends (Allies: "Alliance may be broken by employing one of the following
    methods"), or is cancelled by both."""

    ANNOUNCEMENT = "announcement"
    INVASION = "invasion"
    RAZE = "raze"
    WITHDRAWAL = "withdrawal"  # withdrawal of support, on the turn summary sheet
    CANCELLED = "cancelled"  # mutually cancelled: no gold back

    @property
    def label(self) -> str:
        return BREAK_LABELS[self]


# The ends settled in the aftermath, after the turn's battles (a withdrawal of support mid-battle, the
# announcements of the End of Turn, a cancellation): "During the next Campaign Turn, the rules for
# allies cease to apply", so armies that shared a province as allies still stand together until the
# next turn's orders, where they fight if neither moves out (decision 570). Raze and Invasion end an
# alliance before the moves: the armies still together after them fight this turn.
ENDED_AFTER_THE_BATTLES: frozenset[BreakKind] = frozenset(
    {BreakKind.ANNOUNCEMENT, BreakKind.CANCELLED, BreakKind.WITHDRAWAL}
)

BREAK_LABELS: dict[BreakKind, str] = {
    BreakKind.ANNOUNCEMENT: "Announcement",
    BreakKind.INVASION: "Invasion",
    BreakKind.RAZE: "Raze",
    BreakKind.WITHDRAWAL: "Withdrawal of support",
    BreakKind.CANCELLED: "Cancelled by both",
}


def chart_row(letters: str) -> tuple[TrustLevel, ...]:
    return tuple(TrustLevel(letter) for letter in letters.split())


def trust_level(a: ArmyType, b: ArmyType) -> TrustLevel:
    """The Alliance Chart's cell for two kingdoms' army types (row `a`, column `b`). An army type
    the chart does not cover (the Ancient Dead) allies with no one."""
    row, column = CHART_KINGDOM_OF.get(a), CHART_KINGDOM_OF.get(b)
    if row is None or column is None:
        return TrustLevel.DISALLOWED
    return chart_row(ALLIANCE_CHART[row])[ALLIANCE_CHART_KINGDOMS.index(column)]


def support_arrival(roll: int, trust: TrustLevel) -> tuple[int, SupportArrival]:
    """Alliance Support Arrival (D6): the modified roll (-1 for Distrusted Allies; a 0 reads as 1)
    and the table's row."""
    modified = roll + (DISTRUSTED_ARRIVAL_MODIFIER if trust is TrustLevel.DISTRUSTED else 0)
    clamped = min(max(modified, 1), 6)
    return modified, next(row for row in ALLIANCE_SUPPORT_ARRIVAL if row.low <= clamped <= row.high)


@dataclass(frozen=True)
class AllianceState:
    """An alliance in force between two kingdoms (ids, `first` < `second`). Alliances formed during
    a turn get negative ids until written."""

    id: int
    first: int
    second: int
    trust: TrustLevel
    formed_turn: int

    @property
    def members(self) -> frozenset[int]:
        return frozenset((self.first, self.second))

    def other(self, kingdom: int) -> int:
        return self.second if kingdom == self.first else self.first
