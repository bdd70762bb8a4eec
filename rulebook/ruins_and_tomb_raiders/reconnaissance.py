"""Reconnaissance, pure Python: the seven missions, as the rulebook numbers them. Rule cases RS1 and RS2.

"Your Tomb Raider's skills make them an excellent choice to gather information on a rival Kingdom. To do
this, pay the Tomb Raider's fee of 100 gold from your treasury and select a desired mission from the
list below." The draw and failure charts are the same for Reconnaissance and Sabotage
(`rulebook.ruins_and_tomb_raiders.rival_missions`).
"""

from __future__ import annotations

from enum import StrEnum

from rulebook.ruins_and_tomb_raiders.rival_missions import ListedMission, MissionTarget

RULE = "Reconnaissance"


class Reconnaissance(StrEnum):
    CHARACTER_BIO = "character-bio"
    TREASURY_INFO = "treasury-info"
    ARMY_STATISTICS = "army-statistics"
    ARMY_ORDERS = "army-orders"
    ARMY_CONSTRUCTION_INFO = "army-construction-info"
    ARTILLERY_INFO = "artillery-info"
    MAGIC_COLLEGE_RAID = "magic-college-raid"


# The rulebook's list, in its order (the draw chart's d6 counts along it, skipping the desired mission).
RECONNAISSANCE_MISSIONS: tuple[ListedMission, ...] = (
    ListedMission(
        1,
        Reconnaissance.CHARACTER_BIO,
        "Character Bio",
        "The location, items, attributes, Archetype & skills, injuries of any 1 character.",
        MissionTarget.CHARACTER,
    ),
    ListedMission(
        2,
        Reconnaissance.TREASURY_INFO,
        "Treasury Info",
        "The current funds in the Treasury and the money spent and on what this last turn.",
    ),
    ListedMission(
        3,
        Reconnaissance.ARMY_STATISTICS,
        "Army Statistics",
        "The Location and Army list (no character info) of any one army.",
        MissionTarget.ARMY,
    ),
    ListedMission(
        4,
        Reconnaissance.ARMY_ORDERS,
        "Army Orders",
        "The orders given to any one army this turn. In addition, may adjust the orders to any one of your own "
        'armies to "hold" if it is in response or relation to this information.',
        MissionTarget.ARMY,
    ),
    ListedMission(
        5,
        Reconnaissance.ARMY_CONSTRUCTION_INFO,
        "Army Construction Info",
        "The Location and Army list (no character info) for the next army this Kingdom creates.",
    ),
    ListedMission(
        6,
        Reconnaissance.ARTILLERY_INFO,
        "Artillery Info",
        "The type and numbers of all artillery and warmachines in the kingdom, and their location. This will not "
        "reveal any upgrades to such machines, such as runes, characters, etc.",
    ),
    ListedMission(
        7,
        Reconnaissance.MAGIC_COLLEGE_RAID,
        "Magic College Raid",
        "The number, levels, and location of all mages in the kingdom.",
    ),
)
