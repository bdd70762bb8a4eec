"""The Tomb Raider force and its check (Tomb Raiders: Creating Tomb Raiders; Sample Tomb Raider List),
pure Python. Rule cases TR1 and TR2; rules decisions 400-404.

"You have 150 points to create your Tomb Raider force. You can chose any models from your core troops
... that come on standard 20mm or 25 mm bases (... no mounted, large models like ogres, chariots,
warmachines, etc). In addition you must select one core troop model and upgrade him to champion
status ... This champion is your Tomb Raider Captain. In addition you *may* select one additional
standard model from either your Special or Rare selection ... This model will be your Tomb Raider
Lieutenant. Alternately you may select a Core model as a Lieutenant ... The Captain is granted an
extra wound to their stat line and increased Ld by +1 up to a max of 10."

A force is a list of entries, each a group of models of one profile and equipment (the player marks
what the check needs: troop category, base, what the models are, missile weapons, role, command).
Every problem names the entries it is about and the rule, so a page can show it beside them.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, fields
from enum import StrEnum
from typing import Any

from rulebook.tables import ArmyType

CREATING = "Creating Tomb Raiders"
MAINTAINING = "Maintaining / Changing Tomb Raiders"

FORCE_POINTS = 150  # "You have 150 points to create your Tomb Raider force"
MAX_LEADERSHIP = 10  # the Captain's "+1 up to a max of 10"
CAPTAIN_LEADERSHIP_BONUS = 1
CAPTAIN_WOUND_BONUS = 1  # "an extra wound"; never for a replacement Captain (Maintaining / Changing)
MAX_MUSICIANS = 1  # "your Tomb Raiders may include one musician"
MAX_SPECIAL_OR_RARE_MODELS = 1  # "you can never have more than one model from your Special or Rare selection"
# "a max of 1/3 of your force (round down) with missile weapons ... Elves may have up to 50%":
# the share of the force's models, as (numerator, denominator), rounded down.
MISSILE_SHARE = (1, 3)
ELF_MISSILE_SHARE = (1, 2)
# Decision 401: "Elves" are the three Elf army books of the Army Table (High, Dark and Wood Elves);
# a Dogs of War kingdom is not one, whatever regiments it hires.
ELVES = frozenset({ArmyType.HIGH_ELVES, ArmyType.DARK_ELVES, ArmyType.WOOD_ELVES})


class TroopCategory(StrEnum):
    CORE = "core"
    SPECIAL = "special"
    RARE = "rare"


class Base(StrEnum):
    """ "standard 20mm or 25 mm bases"; anything else (40 mm, cavalry, chariot bases) is OTHER."""

    MM_20 = "20mm"
    MM_25 = "25mm"
    OTHER = "other"


class ModelKind(StrEnum):
    """What a model is, as the rule names what it refuses ("no mounted, large models like ogres,
    chariots, warmachines")."""

    FOOT = "foot"
    MOUNTED = "mounted"
    LARGE = "large"
    CHARIOT = "chariot"
    WAR_MACHINE = "war-machine"


KIND_LABELS: dict[ModelKind, str] = {
    ModelKind.FOOT: "a model on foot",
    ModelKind.MOUNTED: "a mounted model",
    ModelKind.LARGE: "a large model",
    ModelKind.CHARIOT: "a chariot",
    ModelKind.WAR_MACHINE: "a war machine",
}


class Role(StrEnum):
    TROOPER = "trooper"
    CAPTAIN = "captain"
    LIEUTENANT = "lieutenant"


class Command(StrEnum):
    """A command model of the entry (one of its models). The Captain is the force's champion."""

    NONE = "none"
    CHAMPION = "champion"
    STANDARD = "standard"
    MUSICIAN = "musician"


@dataclass(frozen=True)
class RaiderEntry:
    """Models of one unit type with the same equipment. An officer (Captain, Lieutenant) is an entry
    of one model. `points_per_model` is each model's cost with its equipment and upgrades (the
    Captain's includes his champion upgrade, a musician's his instrument)."""

    name: str
    models: int
    points_per_model: int
    category: TroopCategory = TroopCategory.CORE
    base: Base = Base.MM_25
    kind: ModelKind = ModelKind.FOOT
    role: Role = Role.TROOPER
    command: Command = Command.NONE
    missile_weapon: bool = False  # "missile weapons of any kind"
    magic_item: bool = False
    magic_user: bool = False  # "even if the option is available for models, such as with a Mark of Tzeench"
    unit_type: str = ""  # the army book's unit it is chosen from; "" reads as its name (Generic Opponents)
    leadership: int = 0  # the army book's Ld (0: not entered), for the officers' stat lines
    wounds: int = 1
    # A replacement Captain (Maintaining / Changing Tomb Raiders): promoted, of any troop category the
    # Lieutenant was, and "will never get the bonus wound".
    promoted: bool = False
    out_of_action: int = 0  # of its models, those out of action for this turn (Recovery: a 2)

    @property
    def points(self) -> int:
        return self.models * self.points_per_model

    @property
    def troop_type(self) -> str:
        return (self.unit_type or self.name).strip().lower()


# The entry's fields a player enters, as text where they are the rulebook's kinds; the models out of
# action are the Recovery's to set (decision 413), never the player's.
_ENTERED = {f.name for f in fields(RaiderEntry)} - {"out_of_action"}
_KINDS: dict[str, type[StrEnum]] = {
    "category": TroopCategory,
    "base": Base,
    "kind": ModelKind,
    "role": Role,
    "command": Command,
}


def raider_entry(values: Mapping[str, Any]) -> RaiderEntry:
    """An entry from the plain values the page's form and the API read (the kinds as their text
    values); a value left out, None or blank takes the entry's default. The one mapping of an
    entered entry, for both."""
    given = {name: values[name] for name in _ENTERED if values.get(name) not in (None, "")}
    for name, kind in _KINDS.items():
        if name in given:
            given[name] = kind(given[name])
    return RaiderEntry(**given)


@dataclass(frozen=True)
class TombRaiders:
    """A kingdom's Tomb Raider force: its army book (for the Elves' missile weapons) and its entries."""

    army_type: ArmyType
    entries: tuple[RaiderEntry, ...]

    @property
    def points(self) -> int:
        return sum(e.points for e in self.entries)

    @property
    def models(self) -> int:
        return sum(e.models for e in self.entries)

    @property
    def models_available(self) -> int:
        """The models that may go on this turn's mission (not out of action, Recovery)."""
        return sum(e.models - min(e.out_of_action, e.models) for e in self.entries)

    def entry(self, name: str) -> RaiderEntry | None:
        key = name.strip().lower()
        return next((e for e in self.entries if e.name.strip().lower() == key), None)

    @property
    def captain(self) -> RaiderEntry | None:
        return next((e for e in self.entries if e.role is Role.CAPTAIN), None)

    @property
    def lieutenant(self) -> RaiderEntry | None:
        return next((e for e in self.entries if e.role is Role.LIEUTENANT), None)


class ForceProblemCode(StrEnum):
    NO_TOMB_RAIDERS = "no-tomb-raiders"
    DUPLICATE_NAME = "duplicate-name"
    NO_MODELS = "no-models"
    OVER_POINTS = "over-points"
    NOT_CORE = "not-core"
    TOO_MANY_SPECIAL_OR_RARE = "too-many-special-or-rare"
    NOT_STANDARD_BASE = "not-standard-base"
    NOT_ON_FOOT = "not-on-foot"
    NO_CAPTAIN = "no-captain"
    TWO_CAPTAINS = "two-captains"
    CAPTAIN_NOT_CORE = "captain-not-core"
    TWO_LIEUTENANTS = "two-lieutenants"
    OFFICER_ONE_MODEL = "officer-one-model"
    CHAMPION_NOT_CAPTAIN = "champion-not-captain"
    OFFICER_COMMAND = "officer-command"
    STANDARD = "standard"
    TOO_MANY_MUSICIANS = "too-many-musicians"
    MAGIC_ITEM = "magic-item"
    MAGIC_USER = "magic-user"
    TOO_MANY_MISSILES = "too-many-missiles"
    # Generic Opponents
    GENERIC_LIEUTENANT = "generic-lieutenant"
    GENERIC_TROOP_TYPES = "generic-troop-types"


@dataclass(frozen=True)
class ForceProblem:
    """Why the force breaks a rule: the entries it names (none: the force as a whole) and the rule."""

    code: ForceProblemCode
    message: str
    entries: tuple[str, ...] = ()
    rule: str = CREATING


def _named(entry: RaiderEntry) -> str:
    return entry.name.strip() or "an entry"


def missile_limit(models: int, army_type: ArmyType) -> int:
    """How many of the force's models may carry missile weapons: a third, rounded down; half for Elves."""
    numerator, denominator = ELF_MISSILE_SHARE if army_type in ELVES else MISSILE_SHARE
    return models * numerator // denominator


@dataclass(frozen=True)
class Profile:
    leadership: int
    wounds: int


def officer_profile(entry: RaiderEntry) -> Profile:
    """The entry's Ld and Wounds as it fights: the Captain +1 Ld (at most 10) and +1 Wound, a promoted
    Captain the Ld only; anyone else as his army book has him."""
    if entry.role is not Role.CAPTAIN:
        return Profile(entry.leadership, entry.wounds)
    leadership = min(entry.leadership + CAPTAIN_LEADERSHIP_BONUS, MAX_LEADERSHIP)
    return Profile(leadership, entry.wounds + (0 if entry.promoted else CAPTAIN_WOUND_BONUS))


def force_problems(force: TombRaiders) -> list[ForceProblem]:
    """Every reason the force breaks Creating Tomb Raiders (and Maintaining / Changing: never more than
    one Special or Rare model), each naming its entries and the rule; an empty list accepts it."""
    problems: list[ForceProblem] = []
    if force.army_type is ArmyType.ANCIENT_DEAD:
        problems.append(
            ForceProblem(
                ForceProblemCode.NO_TOMB_RAIDERS,
                "The Ancient Dead keep no Tomb Raiders: each player's kingdom has its warband (Tomb Raiders).",
                rule="Tomb Raiders",
            )
        )
    names = Counter(e.name.strip().lower() for e in force.entries)
    for entry in force.entries:
        if names[entry.name.strip().lower()] > 1:
            problems.append(
                ForceProblem(
                    ForceProblemCode.DUPLICATE_NAME,
                    f"Two entries are named '{_named(entry)}'; give each its own name.",
                    (entry.name,),
                )
            )
            names[entry.name.strip().lower()] = 0  # said once
    for entry in force.entries:
        problems += _entry_problems(entry)
    if force.points > FORCE_POINTS:
        problems.append(
            ForceProblem(
                ForceProblemCode.OVER_POINTS,
                f"The force is {force.points} points; a Tomb Raider force has {FORCE_POINTS} at most ({CREATING}).",
            )
        )
    problems += _officer_problems(force)
    problems += _special_or_rare_problems(force)
    problems += _command_problems(force)
    problems += _missile_problems(force)
    return problems


def _entry_problems(entry: RaiderEntry) -> list[ForceProblem]:
    """What the entry is by itself: models, base, kind, magic."""
    name, about = _named(entry), (entry.name,)
    problems: list[ForceProblem] = []
    if entry.models < 1 or entry.points_per_model < 0:
        problems.append(
            ForceProblem(
                ForceProblemCode.NO_MODELS, f"{name}: an entry has one model or more, at 0 points or more.", about
            )
        )
    if entry.base is Base.OTHER:
        problems.append(
            ForceProblem(
                ForceProblemCode.NOT_STANDARD_BASE,
                f"{name}: Tomb Raiders come on standard 20mm or 25 mm bases ({CREATING}).",
                about,
            )
        )
    if entry.kind is not ModelKind.FOOT:
        problems.append(
            ForceProblem(
                ForceProblemCode.NOT_ON_FOOT,
                f"{name} is {KIND_LABELS[entry.kind]}; no mounted or large models, chariots or war machines may "
                f"be Tomb Raiders ({CREATING}).",
                about,
            )
        )
    if entry.magic_item:
        problems.append(
            ForceProblem(
                ForceProblemCode.MAGIC_ITEM,
                f"{name}: no magic items are allowed, even if the troop type may normally take one ({CREATING}).",
                about,
            )
        )
    if entry.magic_user:
        problems.append(
            ForceProblem(
                ForceProblemCode.MAGIC_USER,
                f"{name}: no magic users are allowed, even if the option is available (a Mark of Tzeentch) "
                f"({CREATING}).",
                about,
            )
        )
    return problems


def _officer_problems(force: TombRaiders) -> list[ForceProblem]:
    """One Captain, a core model upgraded to champion (or the promoted Lieutenant); at most one
    Lieutenant; each officer one model."""
    problems: list[ForceProblem] = []
    captains = [e for e in force.entries if e.role is Role.CAPTAIN]
    lieutenants = [e for e in force.entries if e.role is Role.LIEUTENANT]
    if not captains:
        problems.append(
            ForceProblem(
                ForceProblemCode.NO_CAPTAIN,
                "The force needs its Captain: one core model upgraded to champion, marked as the Captain "
                f"({CREATING}).",
            )
        )
    if len(captains) > 1:
        problems.append(
            ForceProblem(
                ForceProblemCode.TWO_CAPTAINS,
                f"{', '.join(_named(e) for e in captains)}: the force has one Captain ({CREATING}).",
                tuple(e.name for e in captains),
            )
        )
    for captain in captains:
        if captain.category is not TroopCategory.CORE and not captain.promoted:
            problems.append(
                ForceProblem(
                    ForceProblemCode.CAPTAIN_NOT_CORE,
                    f"{_named(captain)}: the Captain is a core troop model upgraded to champion ({CREATING}); "
                    f"only a Lieutenant promoted to Captain may be {captain.category} ({MAINTAINING}).",
                    (captain.name,),
                )
            )
    if len(lieutenants) > 1:
        problems.append(
            ForceProblem(
                ForceProblemCode.TWO_LIEUTENANTS,
                f"{', '.join(_named(e) for e in lieutenants)}: the force may have one Lieutenant ({CREATING}).",
                tuple(e.name for e in lieutenants),
            )
        )
    for officer in captains + lieutenants:
        if officer.models != 1:
            problems.append(
                ForceProblem(
                    ForceProblemCode.OFFICER_ONE_MODEL,
                    f"{_named(officer)}: the {officer.role} is one model; enter the others as their own entry "
                    f"({CREATING}).",
                    (officer.name,),
                )
            )
    return problems


def _special_or_rare_problems(force: TombRaiders) -> list[ForceProblem]:
    """Troopers are core; the Lieutenant (or the Captain he became) may be Special or Rare, and the
    force never holds more than one Special or Rare model."""
    problems: list[ForceProblem] = []
    seen = 0
    for entry in force.entries:
        if entry.category is TroopCategory.CORE:
            continue
        officer = entry.role is Role.LIEUTENANT or (entry.role is Role.CAPTAIN and entry.promoted)
        if not officer:
            problems.append(
                ForceProblem(
                    ForceProblemCode.NOT_CORE,
                    f"{_named(entry)} is {entry.category}: Tomb Raiders are core troops; only the Lieutenant "
                    f"may come from the Special or Rare selection ({CREATING}).",
                    (entry.name,),
                )
            )
        if seen + max(entry.models, 0) > MAX_SPECIAL_OR_RARE_MODELS:
            problems.append(
                ForceProblem(
                    ForceProblemCode.TOO_MANY_SPECIAL_OR_RARE,
                    f"{_named(entry)}: the force can never have more than one model from the Special or Rare "
                    f"selection ({MAINTAINING}).",
                    (entry.name,),
                    MAINTAINING,
                )
            )
        seen += max(entry.models, 0)
    return problems


def _command_problems(force: TombRaiders) -> list[ForceProblem]:
    """No standards; at most one musician; the Captain is the force's champion (decision 400)."""
    problems: list[ForceProblem] = []
    musicians: list[RaiderEntry] = []
    for entry in force.entries:
        if entry.command is Command.STANDARD:
            problems.append(
                ForceProblem(
                    ForceProblemCode.STANDARD,
                    f"{_named(entry)}: standards are not used by Tomb Raiders; do not purchase one ({CREATING}).",
                    (entry.name,),
                )
            )
        elif entry.command is Command.CHAMPION and entry.role is not Role.CAPTAIN:
            problems.append(
                ForceProblem(
                    ForceProblemCode.CHAMPION_NOT_CAPTAIN,
                    f"{_named(entry)}: the force's champion is its Captain; mark the champion as the Captain "
                    f"({CREATING}).",
                    (entry.name,),
                )
            )
        elif entry.command is Command.MUSICIAN:
            if entry.role is Role.CAPTAIN:
                problems.append(
                    ForceProblem(
                        ForceProblemCode.OFFICER_COMMAND,
                        f"{_named(entry)}: the Captain is the champion; the musician is another model ({CREATING}).",
                        (entry.name,),
                    )
                )
            musicians.append(entry)
    if len(musicians) > MAX_MUSICIANS:
        problems.append(
            ForceProblem(
                ForceProblemCode.TOO_MANY_MUSICIANS,
                f"{', '.join(_named(e) for e in musicians)}: your Tomb Raiders may include one musician ({CREATING}).",
                tuple(e.name for e in musicians),
            )
        )
    return problems


def _missile_problems(force: TombRaiders) -> list[ForceProblem]:
    armed = [e for e in force.entries if e.missile_weapon]
    carrying = sum(max(e.models, 0) for e in armed)
    limit = missile_limit(force.models, force.army_type)
    if carrying <= limit:
        return []
    share = "half (Elves)" if force.army_type in ELVES else "a third, rounded down"
    return [
        ForceProblem(
            ForceProblemCode.TOO_MANY_MISSILES,
            f"{', '.join(_named(e) for e in armed)}: {carrying} of the force's {force.models} models have missile "
            f"weapons; at most {limit} may ({share}, {CREATING}).",
            tuple(e.name for e in armed),
        )
    ]


# Sample Tomb Raider List: the rulebook's High Elves, 149 points (the check accepts it). The Shadow
# Warrior carries his longbow: 4 of 11 models with missile weapons, more than a third, within the Elves' half.
SAMPLE_HIGH_ELVES = TombRaiders(
    ArmyType.HIGH_ELVES,
    (
        RaiderEntry(
            "Tomb Raider Captain (Spear Champion)",
            1,
            23,
            role=Role.CAPTAIN,
            command=Command.CHAMPION,
            unit_type="Spearmen",
        ),
        RaiderEntry(
            "Lieutenant, Shadow Warrior",
            1,
            15,
            category=TroopCategory.SPECIAL,
            role=Role.LIEUTENANT,
            missile_weapon=True,
        ),
        RaiderEntry("Spearman with instrument", 1, 17, command=Command.MUSICIAN, unit_type="Spearmen"),
        RaiderEntry("Spearmen", 5, 11),
        RaiderEntry("Archers with Light Armor", 3, 13, missile_weapon=True, unit_type="Archers"),
    ),
)
