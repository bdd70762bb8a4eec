"""Rogue Kingdom: what a foreign army finds when it enters a Rogue Kingdom's province (pure Python).

Rulebook: Player Issues > Rogue Kingdom. "If a player drops out of the Campaign mid-way, their
kingdom becomes a Rogue Kingdom. A Rogue Kingdom is wracked by civil war as it lacks a leader to
control it. If a foreign army enters the land, roll on the following table." The table is data
named after the rulebook's "Rogue Kingdom (D6)" (tests/rulebook/player_issues/test_rogue_kingdom.py checks it
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


# Scouting forces: "Fight a ruins style battle for control (see Ruins and Tomb Raiders)". A ruins
# battle is the Tomb Raiders' skirmish ("The player uses their Tomb Raider force to secure the
# ruins. If the player loses the skirmish, their army may not move into to the province this
# turn"), against "a generic warband, of 150 points" (Tomb Raid). Decision 231.
SCOUTING_FORCES_POINTS = 150
TOMB_RAIDERS_POINTS = 150  # Creating Tomb Raiders: "You have 150 points to create your Tomb Raider force"


def rogue_kingdom_roll(roll: int) -> RogueKingdomRow:
    """The Rogue Kingdom (D6) row for a D6 `roll`."""
    return ROGUE_KINGDOM_TABLE[roll]
