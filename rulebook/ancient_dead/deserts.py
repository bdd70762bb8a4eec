"""Turning a Desert back to Plains with a Scarab Amulet (The Ancient Dead: Deserts), pure Python.

"A Desert province may be converted to a Plains province with the presence of a Scarab Amulet
(which can be found in ruins) and a mage / rune smith. To reverse a Desert to Plains you must roll
a 6 on a d6. Add a +1 to your roll for each magic level of the highest mage in the army. You may
reroll the die for each additional Scarab Amulet the army possesses."

What a character's magic level is comes from the army list (Character.magic_level, the Wizard's
level in his army book; Magician, Potential: one more). Rules decisions 109-115.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from kernel.dice import Dice
from rulebook.tables import ArmyType

# The item found in the ruins (Ruins: Treasure from the Ruins; Tomb Raiders: Tomb Raid). Several may
# be carried (each beyond the first is a reroll), so it is a common item of the armory (decision 110).
SCARAB_AMULET = "Scarab Amulet"
DESERT_REVERSAL_NEEDS = 6  # "you must roll a 6 on a d6"
# Magic levels: a Wizard is level 1 to 4 in the army books the rulebook plays with; Magician,
# Potential ("the character gains one magic level", once per campaign) may take him one higher.
MIN_WIZARD_LEVEL = 1
MAX_MAGIC_LEVEL = 5
# Runesmiths are "associated with Magic" but are not Wizards (Character Archetypes: Magician); the
# Perfectionists of the Army-Specific Rules place rune smiths with the Dwarfs and Chaos Dwarfs.
RUNE_SMITH_ARMIES = frozenset({ArmyType.DWARFS, ArmyType.CHAOS_DWARVES})
RUNE_SMITH_LEVEL = 0  # a rune smith has no magic level: he may turn the desert, with no bonus (decision 109)


def is_scarab_amulet(name: str) -> bool:
    return name.strip().lower() == SCARAB_AMULET.lower()


@dataclass(frozen=True)
class Caster:
    """A living character of an army as the Deserts rule reads him."""

    wizard: bool = False
    magic_level: int = 0
    rune_smith: bool = False


def caster_level(caster: Caster) -> int | None:
    """The character's magic level for the Deserts roll: a Wizard's level (at least 1, decision 109),
    a rune smith's 0; None when he is neither mage nor rune smith."""
    if caster.wizard:
        return max(caster.magic_level, MIN_WIZARD_LEVEL)
    if caster.rune_smith:
        return RUNE_SMITH_LEVEL
    return None


def best_magic_level(casters: Iterable[Caster]) -> int | None:
    """ "The highest mage in the army": the best level of its mages and rune smiths; None without any."""
    levels = [level for c in casters if (level := caster_level(c)) is not None]
    return max(levels, default=None)


def caster_errors(label: str, name: str, caster: Caster, army_type: ArmyType) -> list[str]:
    """Why a character's magic on the army list breaks the rules (each naming the army, him and the rule)."""
    errors: list[str] = []
    if caster.magic_level and not caster.wizard:
        errors.append(f"{label}: {name} is not a Wizard; only Wizards have a magic level (Character Archetypes).")
    elif caster.magic_level > MAX_MAGIC_LEVEL:
        errors.append(
            f"{label}: {name} has magic level {caster.magic_level}; a Wizard is level {MIN_WIZARD_LEVEL} to "
            f"{MAX_MAGIC_LEVEL - 1}, one more with the Magician's Potential (Character Archetypes)."
        )
    if caster.rune_smith and caster.wizard:
        errors.append(
            f"{label}: {name} cannot be both a Wizard and a rune smith; Runesmiths are not Wizards "
            "(Character Archetypes)."
        )
    if caster.rune_smith and army_type not in RUNE_SMITH_ARMIES:
        errors.append(
            f"{label}: {name} cannot be a rune smith: rune smiths belong to the Dwarfs and Chaos Dwarves "
            "(Army-Specific Rules: Perfectionists)."
        )
    return errors


@dataclass(frozen=True)
class DesertReversal:
    """The rolls of one attempt: each face, the bonus added, and whether the desert turned."""

    faces: tuple[int, ...]
    bonus: int
    succeeded: bool


def desert_reversal_roll(
    dice: Dice, *, level: int, amulets: int, purpose: str, kingdom: int, army: int
) -> DesertReversal:
    """Deserts: a D6 + the best magic level, 6 or more turns the desert; one reroll for each Scarab
    Amulet beyond the first, made only while it has not turned (decision 111). No face fails by itself."""
    faces: list[int] = []
    for attempt in range(max(amulets, 1)):
        which = "" if attempt == 0 else f" (reroll {attempt} of {amulets - 1}, an additional Scarab Amulet)"
        face = dice.d6(purpose=f"{purpose}{which}", kingdoms=[kingdom], armies=[army])
        faces.append(face)
        if face + level >= DESERT_REVERSAL_NEEDS:
            return DesertReversal(tuple(faces), level, True)
    return DesertReversal(tuple(faces), level, False)
