"""Sabotage, pure Python: the seven missions, as the rulebook numbers them, and the Theft's gold. Rule cases
RS3 and RS4.

"Your Tomb Raider's skills make them an excellent choice to tamper with a rival Kingdom. To do this, pay
the Tomb Raider's fee of 100 gold from your treasury and select a desired mission from the list below."
The draw and failure charts are the same for Reconnaissance and Sabotage
(`rulebook.ruins_and_tomb_raiders.rival_missions`).
"""

from __future__ import annotations

from enum import StrEnum

from kernel.dice import Dice
from rulebook.ruins_and_tomb_raiders.rival_missions import ListedMission, MissionTarget

RULE = "Sabotage"


class Sabotage(StrEnum):
    THEFT = "theft"
    DESTROY_COMMUNICATION = "destroy-communication"
    MISLABELED_GOODS = "mislabeled-goods"
    POISON_WELL = "poison-well"
    ASSASSINATE_SPIRITUAL_LEADER = "assassinate-spiritual-leader"
    SAPPERS = "sappers"
    MISDIRECTION = "misdirection"


SABOTAGE_MISSIONS: tuple[ListedMission, ...] = (
    ListedMission(
        1,
        Sabotage.THEFT,
        "Theft",
        "Steal money from your rival's treasury: 1-2: 150 gold, 3-4: 200 gold, 5-6: 250 gold.",
    ),
    ListedMission(
        2,
        Sabotage.DESTROY_COMMUNICATION,
        "Destroy Communication",
        "Cancel one support that is from this kingdom or to this kingdom when you wish, but must be used within 2 "
        "turns after success.",
    ),
    ListedMission(
        3,
        Sabotage.MISLABELED_GOODS,
        "Mislabeled goods",
        "Next magic item acquired in the field is delayed an additional d2 turns.",
    ),
    ListedMission(
        4,
        Sabotage.POISON_WELL,
        "Poison Well",
        "Next battle involving a garrison force, the kingdom loses 25% of his forces before the battle begins. This "
        "does not count toward victory points.",
    ),
    ListedMission(
        5,
        Sabotage.ASSASSINATE_SPIRITUAL_LEADER,
        "Assassinate Spiritual Leader",
        "The next battle fought, this Kingdom has -1 to all leadership.",
    ),
    ListedMission(
        6,
        Sabotage.SAPPERS,
        "Sappers",
        "Next battle using barricades, d3 of these barricades (chosen by the saboteur) are destroyed.",
    ),
    ListedMission(
        7,
        Sabotage.MISDIRECTION,
        "Misdirection",
        'One army\'s orders are canceled and revert to "Hold"',
        MissionTarget.ARMY,
    ),
)

# Theft: "Steal money from your rival's treasury: 1-2: 150 gold, 3-4: 200 gold, 5-6: 250 gold."
THEFT_GOLD: dict[int, int] = {1: 150, 2: 150, 3: 200, 4: 200, 5: 250, 6: 250}
POISON_WELL_SHARE = 0.25  # "the kingdom loses 25% of his forces before the battle begins"
ASSASSINATION_LEADERSHIP = -1  # "this Kingdom has -1 to all leadership"
DESTROY_COMMUNICATION_TURNS = 2  # "must be used within 2 turns after success"


def theft_roll(dice: Dice, *, saboteur: int, target: int) -> tuple[int, int]:
    """The Theft's D6 and the gold it steals (the target's treasury holds at least that much or not:
    what it holds is taken, never more, `rival_missions` decides)."""
    face = dice.d6(purpose="Sabotage: Theft", kingdoms=(saboteur, target))
    return face, THEFT_GOLD[face]


def sappers_roll(dice: Dice, *, saboteur: int, target: int) -> int:
    """Sappers: "d3 of these barricades (chosen by the saboteur) are destroyed"."""
    return dice.d3(purpose="Sabotage: Sappers", kingdoms=(saboteur, target))


def mislabeled_goods_roll(dice: Dice, *, saboteur: int, target: int) -> int:
    """Mislabeled goods: "delayed an additional d2 turns"."""
    return dice.roll("D2", purpose="Sabotage: Mislabeled goods", kingdoms=(saboteur, target)).total
