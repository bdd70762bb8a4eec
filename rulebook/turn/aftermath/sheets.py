"""The battles as the aftermath reads them (pure Python): each side of a battle as its turn summary
sheet reported it (its casualties, characters lost, loot choice, story, rerolls, carts...) and the
battle with its settled outcome. What the sheets said, not the world's state: the steps read them
and change the world (rulebook.turn.aftermath.state)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from rulebook.ruins_and_tomb_raiders.tomb_raid import RaidResult
from rulebook.turn.aftermath.results import Outcome


@dataclass(frozen=True)
class Casualty:
    unit: int
    models_lost: int = 0
    champion: bool = False
    standard: bool = False
    musician: bool = False
    one_use_used: bool = False


@dataclass(frozen=True)
class DepotCapture:
    """Supply Depot: a cart of the opponent's army `army` captured by this side's army `by`."""

    army: int
    by: int


@dataclass(frozen=True)
class RaidersLost:
    """Tomb Raiders: the models of one entry of the kingdom's force the skirmish killed, and those
    removed as injured (they roll on the Recovery chart). `entry` is the entry's name (unique in a
    force: Creating Tomb Raiders)."""

    entry: str
    killed: int = 0
    injured: int = 0


@dataclass(frozen=True)
class SideA:
    """One side of a battle and what its turn summary sheet reported."""

    kingdom: int | None
    army: int | None  # None: the garrison fought
    supports: tuple[int, ...] = ()  # parent armies of its support detachments
    casualties: tuple[Casualty, ...] = ()
    characters_lost: tuple[int, ...] = ()
    loot_choice: str = ""  # "loot", "sack" or "" (not chosen: looted)
    negotiation_gold: int = 0  # paid to the opponent
    story: bool = False
    story_bonus: bool = False  # the player gives the turn's story experience to this battle's army
    # Stories Are Nice: "Battle reports from a Tomb Raiders' prospective ... to any of their armies":
    # the army the player names for the story of a Tomb Raiders' skirmish (None: the skirmish's army).
    story_army: int | None = None
    points_faced: int = 0  # the opposing army, its detachments, garrison and fortification
    injury_rerolls: tuple[tuple[int, str], ...] = ()  # (character, REROLL_DEAD or REROLL_HARMED): 25 experience
    backstab: bool = False  # forces the opponent's Skaven army to reroll one injury test (Backstabbers)
    warlord_heir: int | None = None  # the General the player names for a tie in the succession (Warlord)
    sitting_out: tuple[int, ...] = ()  # characters an Old Battle Wound kept out of the battle (rolled a 1)
    # Allies, "Withdraw of support": parent armies of an ally's detachments on this side that withdrew
    # their support in the battle, as this side's sheet reports (decision 220).
    withdrawn: tuple[int, ...] = ()
    # Supply Depot: the opponent's carts this side captured, and this side's armies whose cart
    # friendly forces recaptured before the game ended (it is not lost).
    depots_captured: tuple[DepotCapture, ...] = ()
    carts_recaptured: tuple[int, ...] = ()
    # Tomb Raiders: the models of the side's kingdom's force the skirmish cost it (Maintaining /
    # Changing Tomb Raiders; Recovery), as its sheet reports them.
    raiders: tuple[RaidersLost, ...] = ()


@dataclass(frozen=True)
class BattleA:
    id: int
    province: int
    attacker: SideA
    defender: SideA
    outcome: Outcome
    both_moved: bool = False
    # Rogue Kingdom, scouting forces: the attacker's Tomb Raiders skirmished, its army did not fight
    skirmish: bool = False
    # Using Tomb Raiders: the mission the attacker's Tomb Raiders played ("tomb-raid"; "" for any other
    # battle), and the raid's result (None: none reported, no success). A plain ruin's raid is a
    # skirmish; a sacked town's ruin's raid goes with the battle against its Ancient Dead garrison.
    mission: str = ""
    raid_result: RaidResult | None = None
    # Reconnaissance and Sabotage: the mission as sent (rulebook.turn.state.BattleS.mission_detail).
    mission_detail: Mapping[str, Any] = field(default_factory=dict)
