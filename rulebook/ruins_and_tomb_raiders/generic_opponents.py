"""Generic Opponents: the warband a Tomb Raid is played against, pure Python. Rules decision 409.

"If a rival kingdom's Tomb Raiders are not used for defending, or a Tomb Raid at a Ruins is being
played, then the player creates a rival defense force, such as palace guards or brigands. The 150
points are spent in the same manner, but no Lieutenant is selected and all models must be chosen from
only 2 Core troop types max."

Tomb Raid: "Play a game against a generic warband, of 150 points, typically undead or other denizen:
orc, skaven, human brigand, etc." A ruin made from a town or city sacked by the desert "will contain a
150 point garrison force (see Tomb Raiders)" (The Ancient Dead: Deserts): that guard, built the same
way from the Tomb Kings' book, is the raid's opponent there (decision 409).
"""

from __future__ import annotations

from dataclasses import replace

from rulebook.ruins_and_tomb_raiders.force import (
    FORCE_POINTS,
    ForceProblem,
    ForceProblemCode,
    Role,
    TombRaiders,
    force_problems,
)
from rulebook.tables import ArmyType

RULE = "Generic Opponents"
GENERIC_WARBAND_POINTS = FORCE_POINTS  # "The 150 points are spent in the same manner"
GENERIC_MAX_CORE_TROOP_TYPES = 2

GENERIC_WARBAND_RULES: tuple[str, ...] = (
    f"The opponent is a generic warband of {GENERIC_WARBAND_POINTS} points, typically undead or another "
    "denizen: orcs, skaven, human brigands (Tomb Raid).",
    "It is chosen as Tomb Raiders are (Creating Tomb Raiders: core troops on standard 20mm or 25 mm bases, a "
    "Captain upgraded to champion, no standards, at most one musician, no magic items or magic users, a third "
    "of its models at most (rounded down) with missile weapons, half for Elves), but no Lieutenant is selected "
    f"and all models come from {GENERIC_MAX_CORE_TROOP_TYPES} Core troop types at most ({RULE}).",
)
SACKED_RUIN_GUARD = (
    f"The ruin, a town or city sacked by the desert, holds a {GENERIC_WARBAND_POINTS} point garrison of the "
    "Ancient Dead, chosen from the Tomb Kings' army book as a generic warband (The Ancient Dead: Deserts)."
)


def raid_opponent(*, sacked: bool) -> tuple[str, ...]:
    """What the Tomb Raid's scenario sheet says of the opponent."""
    return (SACKED_RUIN_GUARD, *GENERIC_WARBAND_RULES[1:]) if sacked else GENERIC_WARBAND_RULES


def generic_warband_problems(warband: TombRaiders) -> list[ForceProblem]:
    """Every reason a generic warband breaks the rules: the Tomb Raiders' check, no Lieutenant, and two
    Core troop types at most. A Tomb Kings guard is checked as one (the Ancient Dead build it)."""
    as_raiders = (
        replace(warband, army_type=ArmyType.TOMB_KINGS) if warband.army_type is ArmyType.ANCIENT_DEAD else warband
    )
    problems = force_problems(as_raiders)
    for entry in warband.entries:
        if entry.role is Role.LIEUTENANT:
            problems.append(
                ForceProblem(
                    ForceProblemCode.GENERIC_LIEUTENANT,
                    f"{entry.name.strip()}: a generic warband selects no Lieutenant ({RULE}).",
                    (entry.name,),
                    RULE,
                )
            )
    types = sorted({e.troop_type for e in warband.entries})
    if len(types) > GENERIC_MAX_CORE_TROOP_TYPES:
        problems.append(
            ForceProblem(
                ForceProblemCode.GENERIC_TROOP_TYPES,
                f"The warband's models come from {len(types)} troop types ({', '.join(types)}); a generic warband "
                f"chooses from {GENERIC_MAX_CORE_TROOP_TYPES} Core troop types at most ({RULE}).",
                tuple(e.name for e in warband.entries),
                RULE,
            )
        )
    return problems
