"""Rogue Kingdom: what a foreign army finds when it enters a Rogue Kingdom's province (pure Python).

Rulebook: Player Issues > Rogue Kingdom. "If a player drops out of the Campaign mid-way, their
kingdom becomes a Rogue Kingdom. A Rogue Kingdom is wracked by civil war as it lacks a leader to
control it. If a foreign army enters the land, roll on the following table." The table is data
named after the rulebook's "Rogue Kingdom (D6)" (tests/kingdoms/test_rogue_rules.py checks it
against the rulebook row by row).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class RogueForce(StrEnum):
    EMPTY = "empty"  # the province is the army's
    SCOUTING = "scouting"  # a ruins style battle for control
    SMALL = "small"
    MEDIUM = "medium"
    LARGE = "large"


@dataclass(frozen=True)
class RogueKingdomRow:
    force: RogueForce
    label: str  # the rulebook's words, for the reports
    points: int  # the army fought against (0: none, or the Tomb Raiders' skirmish)


# Rogue Kingdom (D6): the roll -> what holds the province.
ROGUE_KINGDOM_TABLE: dict[int, RogueKingdomRow] = {
    1: RogueKingdomRow(RogueForce.EMPTY, "Empty", 0),
    2: RogueKingdomRow(RogueForce.SCOUTING, "Scouting forces", 0),
    3: RogueKingdomRow(RogueForce.SCOUTING, "Scouting forces", 0),
    4: RogueKingdomRow(RogueForce.SMALL, "Small Army", 1000),
    5: RogueKingdomRow(RogueForce.MEDIUM, "Medium Army", 1500),
    6: RogueKingdomRow(RogueForce.LARGE, "Large Army", 2000),
}


def rogue_kingdom_roll(roll: int) -> RogueKingdomRow:
    """The Rogue Kingdom (D6) row for a D6 `roll`."""
    return ROGUE_KINGDOM_TABLE[roll]
