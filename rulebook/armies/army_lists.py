"""Army lists and the Army Restrictions (pure Python).

Rulebook sections: Warlord, Armies, Army Restrictions, Armory, Character Archetypes.
An army's points are derived from its units (models x points per model + equipment) and
the magic items its units carry.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from rulebook.ancient_dead.deserts import Caster, caster_errors
from rulebook.army_specific.origins import OriginUnit, is_runic, origin_errors, perfectionists_cost
from rulebook.tables import (
    ARCHETYPE_TABLE,
    ARMY_MAX_POINTS,
    ARMY_MIN_POINTS,
    ELITE_DEFENSE_FORCE_POINTS,
    STARTING_ARMY_POINTS,
    STARTING_ARMY_SHORT_BY_AT_MOST,
    Archetype,
    ArmyType,
)

CATEGORIES = ("character", "core", "special", "rare")
MAX_VETERAN_LEVEL = 3


@dataclass(frozen=True)
class CharacterEntry:
    rank: str = "hero"  # "lord" or "hero"
    role: str = "hero"  # "warlord", "general" or "hero"
    archetype: str | None = None
    monstrous_mount: bool = False
    wizard: bool = False
    magic_level: int = 0  # a Wizard's level (0: not entered, read as 1); none for others (Deserts)
    rune_smith: bool = False  # a Dwarf or Chaos Dwarf rune smith: he may turn a desert (Deserts)
    immune_to_psychology: bool = False  # by his army book: psychology Archetype Abilities are rerolled


@dataclass(frozen=True)
class UnitEntry:
    name: str
    category: str
    models: int
    points_per_model: int
    equipment_points: int = 0
    veteran_level: int = 0
    one_use: bool = False
    living: bool = False  # a living unit of an undead army (Curse of the Dead)
    dogs_of_war: bool = False  # hired into another kingdom's army: no town discount (3. Create / Upgrade Armies)
    special_character: bool = False  # a special character of the army book (Army Restrictions)
    # Casualty Recovery: its command models' points, part of equipment_points (0: none).
    champion_points: int = 0
    standard_points: int = 0
    musician_points: int = 0
    character: CharacterEntry | None = None
    key: int | None = None  # the stored unit's id when editing an existing list

    @property
    def points(self) -> int:
        return self.models * self.points_per_model + self.equipment_points


@dataclass(frozen=True)
class ItemEntry:
    name: str
    points: int
    common: bool = False
    bearer: str = ""  # the name of the unit (or character) in this army that carries it


@dataclass(frozen=True)
class EarnedUnit:
    """What a stored unit has earned and been bought (Veteran Status): its level and its models."""

    veteran_level: int
    models: int


@dataclass(frozen=True)
class ArmyListDraft:
    label: str  # how messages name the army, e.g. "1st Army"
    army_type: ArmyType
    size: int  # the points bought for the army (its creation or upgrade)
    units: tuple[UnitEntry, ...]
    items: tuple[ItemEntry, ...] = ()
    garrison: bool = False  # an Elite Defense Force
    must_include_warlord: bool = False  # the starting army (Setup)
    # Setup: "a 2,000 point army" (the starting army while the campaign is being set up).
    starting: bool = False
    # The list is entered for the points paid (a new or upgraded army): Army Restrictions' 1,000-point
    # minimum applies. False: a list edited later, which troops lost may have left smaller.
    entering: bool = True
    lost_before_list: int = 0  # points lost while the list was due: the list leaves them out
    # Shrine Cultists, Temple Dwellers: the army was created in a town or city (or is the starting
    # army with the Warlord, exempt); `origin` says where it was created, for the messages.
    from_settlement: bool = True
    origin: str = ""
    # Veteran Status against what was bought: stored unit key -> what it earned. None: not checked
    # here (an entered list of a running campaign, whose edits Spending Experience prices, XP7).
    earned: dict[int, EarnedUnit] | None = None
    # Perfectionists: where the list's items are fitted: a town or city (no surcharge) or not. A new
    # army's list is fitted where it was raised; an upgrade is made in a town or city.
    fitted_in_settlement: bool = True
    # 3. Create / Upgrade Armies: the town or city discount (percent) the army's creation was given;
    # its list's Dogs of War units ("mercenaries after all") are paid at full price out of it.
    creation_discount_percent: int = 0
    # Army Restrictions: "NO special characters may be used, unless specified by the campaign organizer".
    special_characters_allowed: bool = False
    # Warlord: "Once the Warlord is created, they will not change through the course of the campaign,
    # unless they die": the stored unit and name of the kingdom's living Warlord when he stands in this
    # army and the campaign runs (None: not checked), whom an edit keeps as the Warlord (decision 614).
    warlord_key: int | None = None
    warlord_name: str = ""
    # New Player Option: the first army a new leader raises, the kingdom having no living Warlord: its
    # list includes the Warlord the new leader creates as at Setup, a Lord level character (decision 603).
    new_warlord: bool = False

    @property
    def points(self) -> int:
        return sum(u.points for u in self.units) + sum(i.points for i in self.items)

    @property
    def perfectionists_surcharge(self) -> int:
        """Perfectionists: what the list's runic items cost beyond their points in the gold that
        raised the army (0 for other armies, or when fitted in a town or city)."""
        return sum(
            perfectionists_cost(
                i.points, runic=is_runic(i.name), army_type=self.army_type, in_town_or_city=self.fitted_in_settlement
            )
            - i.points
            for i in self.items
        )


@dataclass(frozen=True)
class KingdomRoster:
    """What the rest of the kingdom already holds, for the kingdom-wide restrictions."""

    monstrous_mounts_elsewhere: int = 0
    items_elsewhere: frozenset[str] = field(default_factory=frozenset)  # non-common item names
    warlord_elsewhere: bool = False
    archetypes_locked: dict[int, str] = field(default_factory=dict)  # unit key -> archetype it already has


def army_list_errors(draft: ArmyListDraft, roster: KingdomRoster) -> list[str]:
    """Every reason the army list breaks the rules, each naming the army, the unit and the rule."""
    a = draft.label
    errors: list[str] = []
    names = Counter(u.name.strip().lower() for u in draft.units)
    for name, count in names.items():
        if count > 1:
            errors.append(f"{a}: two units are named '{name}'; give each unit its own name.")
    for unit in draft.units:
        errors += _unit_errors(a, unit, draft.army_type, roster)
    if draft.earned is not None:
        errors += veteran_errors(a, draft.units, draft.earned)
    if not draft.special_characters_allowed:
        for unit in draft.units:
            if unit.special_character:
                errors.append(
                    f"{a}: {unit.name.strip() or 'a unit'} is a special character; no special characters may be "
                    "used unless the campaign organizer allows them (Army Restrictions)."
                )

    points = draft.points
    if draft.garrison:
        if points > ELITE_DEFENSE_FORCE_POINTS:
            errors.append(
                f"{a}: an Elite Defense Force has {ELITE_DEFENSE_FORCE_POINTS} points; this list has {points} "
                "(Battle for Towns, Cities, and Capitols)."
            )
        heroes = [u for u in draft.units if u.character]
        if len(heroes) != 1 or any(u.category not in ("character", "core") for u in draft.units):
            errors.append(f"{a}: an Elite Defense Force is one hero and core troops only.")
        elif heroes[0].character is not None and heroes[0].character.role != "general":
            errors.append(
                f"{a}: {heroes[0].name} becomes the General of the garrison; give him the General's role "
                "(Battle for Towns, Cities, and Capitols)."
            )
    else:
        errors += _size_errors(draft)
        generals = [u for u in draft.units if u.character and u.character.role in ("warlord", "general")]
        if len(generals) != 1:
            errors.append(f"{a}: an army needs exactly one General (the Warlord or a General); it has {len(generals)}.")

    warlords = [u for u in draft.units if u.character and u.character.role == "warlord"]
    if draft.must_include_warlord and not warlords:
        errors.append(f"{a}: the starting army must include the Warlord, who is its General (Setup).")
    if draft.new_warlord and not warlords:
        errors.append(
            f"{a}: the kingdom's new leader creates its Warlord (a Lord level character) in the first army the "
            "kingdom raises: this list must include him, as its General (New Player Option, Warlord, Setup)."
        )
    if warlords and (len(warlords) > 1 or roster.warlord_elsewhere):
        errors.append(f"{a}: a kingdom has only one Warlord (Warlord).")
    if draft.warlord_key is not None and not any(
        u.key == draft.warlord_key and u.character and u.character.role == "warlord" for u in draft.units
    ):
        errors.append(
            f"{a}: {draft.warlord_name} stays in the list as the kingdom's Warlord: once created, the Warlord does "
            "not change through the course of the campaign unless he dies (Warlord); a character leaves the list "
            "by retiring (Character Injury Chart)."
        )
    # Warlord: "Players create a Warlord (a Lord level character)" at setup; a General who succeeds
    # him "may be promoted to a Lord level character", so later a Hero may be the Warlord.
    for unit in warlords:
        if (draft.starting or draft.new_warlord) and unit.character and unit.character.rank != "lord":
            errors.append(f"{a}: {unit.name} is the Warlord, a Lord level character (Warlord).")
    lords = [u for u in draft.units if u.character and u.character.rank == "lord"]
    for unit in lords:
        if unit.character and unit.character.role != "warlord":
            errors.append(
                f"{a}: {unit.name} is a Lord; the entire kingdom has only one Lord level character, "
                "the Warlord (Warlord)."
            )

    mounts = sum(1 for u in draft.units if u.character and u.character.monstrous_mount)
    if mounts + roster.monstrous_mounts_elsewhere > 1:
        errors.append(
            f"{a}: a kingdom may include only one character mounted on a monstrous creature, "
            "garrisons included (Army Restrictions)."
        )

    errors += origin_errors(
        label=a,
        army_type=draft.army_type,
        units=tuple(
            OriginUnit(u.name.strip(), general=bool(u.character and u.character.role in ("warlord", "general")))
            for u in draft.units
        ),
        from_settlement=draft.from_settlement,
        origin=draft.origin,
    )

    unit_names = {u.name.strip().lower() for u in draft.units}
    item_names = Counter(i.name.strip().lower() for i in draft.items if not i.common)
    for item in draft.items:
        key = item.name.strip().lower()
        if not item.name.strip():
            errors.append(f"{a}: an item has no name.")
        if item.points < 0:
            errors.append(f"{a}: {item.name} cannot cost negative points.")
        if item.bearer.strip().lower() not in unit_names:
            errors.append(f"{a}: {item.name} must be carried by a unit or character of this army.")
        if item.common:
            continue
        if item_names[key] > 1:
            errors.append(f"{a}: {item.name} appears twice; the kingdom has only one of each armory item (Armory).")
            item_names[key] = 1  # report once
        if key in roster.items_elsewhere:
            errors.append(
                f"{a}: {item.name} is already carried by another of the kingdom's armies; only one army "
                "can have an armory item (Armory)."
            )
    return errors


def veteran_errors(a: str, units: tuple[UnitEntry, ...], earned: dict[int, EarnedUnit]) -> list[str]:
    """A list entered (a new army, an upgraded one, the starting army) against what was bought.

    Veteran Status is earned in battle and bought with experience, a level at a time: no unit is
    typed at a level it has not (a new unit, a starting army's, has none; an upgrade of 500 points
    or more wiped the army's, 3. Create / Upgrade Armies). A Veteran unit "may only be expanded"
    by experience recruits: the re-entered list of a gold upgrade gives it no more models."""
    errors: list[str] = []
    for unit in units:
        name = unit.name.strip() or "a unit"
        was = earned.get(unit.key) if unit.key is not None else None
        level = was.veteran_level if was is not None else 0
        if unit.veteran_level > level:
            errors.append(
                f"{a}: {name} is typed at +{unit.veteran_level} Veteran but has +{level}: a unit earns Veteran Status "
                "in battle and buys it with experience, a level at a time (Veteran Status); a new unit has none, "
                "and an upgrade of 500 points or more wipes it (3. Create / Upgrade Armies)."
            )
        if was is not None and was.veteran_level > 0 and unit.veteran_level > 0 and unit.models > was.models:
            errors.append(
                f"{a}: {name} is a +{unit.veteran_level} Veteran unit of {was.models} models; it grows only by "
                "recruits bought with experience on the order sheet, not by the gold of an army's creation or "
                f"upgrade ({unit.models} models entered; Veteran Status, Spending Experience)."
            )
    return errors


def _size_errors(draft: ArmyListDraft) -> list[str]:
    """The list's total against the army's size: one error, the first that applies."""
    a, points = draft.label, draft.points
    paid = draft.size - draft.lost_before_list  # what the list may hold
    if draft.starting:
        least = STARTING_ARMY_POINTS - STARTING_ARMY_SHORT_BY_AT_MOST
        if not least <= points <= STARTING_ARMY_POINTS:
            return [
                f"{a}: the list totals {points} points; the starting army is a {STARTING_ARMY_POINTS:,} point army "
                f"(Setup): {least:,} to {STARTING_ARMY_POINTS:,} points."
            ]
    least = min(ARMY_MIN_POINTS, paid) if draft.entering else 0
    if not least <= points <= ARMY_MAX_POINTS:
        return [
            f"{a}: the list totals {points} points; an army must be {ARMY_MIN_POINTS:,} to "
            f"{ARMY_MAX_POINTS:,} points (Army Restrictions)."
        ]
    if points > paid:
        lost = f" and lost {draft.lost_before_list} before its list was entered" if draft.lost_before_list else ""
        return [f"{a}: the list totals {points} points but the army was raised at {draft.size} points{lost}."]
    hired = [u for u in draft.units if u.dogs_of_war]
    if draft.entering and draft.creation_discount_percent and hired:
        share = 100 - draft.creation_discount_percent
        hired_points = sum(u.points for u in hired)
        gold = -(-(points - hired_points) * share // 100) + hired_points
        paid_gold = -(-paid * share // 100)
        if gold > paid_gold:
            names = ", ".join(u.name.strip() for u in hired)
            return [
                f"{a}: {names}: Dogs of War units are not subject to the town discount, as they are mercenaries "
                f"(3. Create / Upgrade Armies); at full price for them the list costs {gold:,} gold and the army "
                f"was raised for {paid_gold:,}."
            ]
    surcharge = draft.perfectionists_surcharge if draft.entering else 0
    if points + surcharge > paid:
        return [
            f"{a}: the list totals {points} points and its runic items cost {surcharge} more, fitted away from a "
            f"town or city {draft.origin or 'where it was raised'} (Perfectionists); the army was raised at "
            f"{draft.size} points."
        ]
    return []


def _unit_errors(a: str, unit: UnitEntry, army_type: ArmyType, roster: KingdomRoster) -> list[str]:
    u = unit.name.strip() or "a unit"
    errors: list[str] = []
    if not unit.name.strip():
        errors.append(f"{a}: a unit has no name.")
    if unit.category not in CATEGORIES:
        errors.append(f"{a}: {u} has category '{unit.category}'; use one of {', '.join(CATEGORIES)}.")
    if unit.models < 1:
        errors.append(f"{a}: {u} must have at least one model.")
    if unit.points_per_model < 0 or unit.equipment_points < 0:
        errors.append(f"{a}: {u} cannot cost negative points.")
    command = unit.champion_points + unit.standard_points + unit.musician_points
    if min(unit.champion_points, unit.standard_points, unit.musician_points) < 0:
        errors.append(f"{a}: {u} cannot have command models of negative points.")
    elif command > unit.equipment_points:
        errors.append(
            f"{a}: the champion, standard and musician of {u} ({command} points) are part of its equipment "
            f"points ({unit.equipment_points}); enter them there too (Casualty Recovery)."
        )
    if not 0 <= unit.veteran_level <= MAX_VETERAN_LEVEL:
        errors.append(f"{a}: {u} has veteran level {unit.veteran_level}; Veteran Status goes from +0 to +3.")
    character = unit.character
    if (unit.category == "character") != (character is not None):
        errors.append(f"{a}: {u}: only units of category 'character' are characters.")
    if character is None:
        return errors
    if unit.models != 1:
        errors.append(f"{a}: {u} is a character and is one model.")
    if character.rank not in ("lord", "hero"):
        errors.append(f"{a}: {u} has rank '{character.rank}'; a character is a lord or a hero.")
    if character.role not in ("warlord", "general", "hero"):
        errors.append(f"{a}: {u} has role '{character.role}'; use warlord, general or hero.")
    caster = Caster(wizard=character.wizard, magic_level=character.magic_level, rune_smith=character.rune_smith)
    errors += caster_errors(a, u, caster, army_type)
    leads = character.role in ("warlord", "general")
    if character.archetype:
        try:
            archetype = Archetype(character.archetype)
        except ValueError:
            errors.append(f"{a}: {u} has an unknown archetype '{character.archetype}'.")
            return errors
        if archetype not in ARCHETYPE_TABLE[army_type]:
            allowed = ", ".join(sorted(x.label for x in ARCHETYPE_TABLE[army_type]))
            errors.append(
                f"{a}: {u} cannot be {archetype.label}: the Archetype Table allows {army_type.label} only {allowed}."
            )
        if archetype is Archetype.MAGICIAN and not character.wizard:
            errors.append(f"{a}: {u} is not a Wizard; only Wizards may adopt the Magician Archetype.")
        if army_type is ArmyType.ANCIENT_DEAD and character.role != "warlord":
            # The Ancient Dead, Setup: "The other Ancient Dead Generals do not have a Character Archetype".
            errors.append(
                f"{a}: {u} cannot select an Archetype: of the Ancient Dead only the Warlord has one "
                "(The Ancient Dead, Setup)."
            )
        elif not leads:
            errors.append(f"{a}: {u} is not the army's General; only Generals select an Archetype.")
    elif leads and not (army_type is ArmyType.ANCIENT_DEAD and character.role == "general"):
        # The Ancient Dead: only the Warlord has an Archetype (The Ancient Dead, Setup).
        errors.append(f"{a}: {u} leads the army and must select an Archetype (Character Archetypes).")
    locked = roster.archetypes_locked.get(unit.key) if unit.key is not None else None
    if locked and character.archetype != locked:
        errors.append(f"{a}: {u}'s Archetype can never change over the course of the campaign.")
    return errors
