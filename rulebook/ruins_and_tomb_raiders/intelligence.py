"""What a successful Reconnaissance reveals, pure Python: the target kingdom's state read at the moment the
information is delivered (rules decisions 450 and 471). Rule cases RS1 and RS2; rules decisions 470-479.

Reconnaissance: "1. Character Bio: The location, items, attributes, Archetype & skills, injuries of any 1
character. 2. Treasury Info: The current funds in the Treasury and the money spent and on what this last
turn. 3. Army Statistics: The Location and Army list (no character info) of any one army. ... 6. Artillery
Info: The type and numbers of all artillery and warmachines in the kingdom, and their location. This will
not reveal any upgrades to such machines, such as runes, characters, etc. 7. Magic College Raid: The
number, levels, and location of all mages in the kingdom."

Each function returns plain data (lists and dicts of text and numbers) for the INTELLIGENCE event's `data`,
so a page and a PDF print it as it was learned, whatever happens to the target afterwards.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from rulebook.ancient_dead.deserts import MIN_WIZARD_LEVEL
from rulebook.world import CharacterState, UnitState, World

# Decision 473: army lists do not mark war machines (a unit is character, core, special or rare), so a unit
# is artillery or a war machine when its name says so: one of these words in it (lower case). The words
# cover the army books' machines (cannons, catapults, bolt throwers, stone throwers, mortars, rockets,
# organ guns...) and the general words.
WAR_MACHINE_WORDS: tuple[str, ...] = (
    "war machine",
    "warmachine",
    "artillery",
    "cannon",
    "catapult",
    "bolt thrower",
    "repeater",
    "stone thrower",
    "rock lobber",
    "lobber",
    "mortar",
    "rocket",
    "organ gun",
    "volley gun",
    "chukka",
    "bombard",
    "grudge thrower",
    "trebuchet",
    "ballista",
    "doom diver",
    "hellcannon",
    "skullcannon",
    "screaming skull",
    "casket of souls",
    "gyrocopter",
    "steam tank",
    "engine",
)


@dataclass(frozen=True)
class LedgerRow:
    """One row of a kingdom's ledger (Treasury Info: "the money spent and on what"): its reason (the
    ledger's value), amount (negative: spent) and note."""

    reason: str
    amount: int
    note: str = ""


@dataclass(frozen=True)
class CharacterFacts:
    """What the world's character record does not hold and a Reconnaissance reveals: his rank,
    Archetype, and magic (a Wizard's level; 0 not entered, read as 1)."""

    rank: str = ""
    archetype: str = ""
    wizard: bool = False
    magic_level: int = 0


@dataclass(frozen=True)
class SpiedSources:
    """The rows the world does not hold that a Reconnaissance delivered this aftermath reads: the target
    kingdoms' ledger rows of the turn (kingdom -> rows, in order) and their characters' facts (character
    id -> facts). Loaded only when a Reconnaissance skirmish is settled."""

    ledger: Mapping[int, tuple[LedgerRow, ...]] = field(default_factory=dict)
    characters: Mapping[int, CharacterFacts] = field(default_factory=dict)


def is_war_machine(unit: UnitState) -> bool:
    """Decision 473: the unit's name names artillery or a war machine (never a character's unit)."""
    if unit.character:
        return False
    name = unit.name.lower()
    return any(word in name for word in WAR_MACHINE_WORDS)


def _where(world: World, army_id: int) -> dict[str, Any]:
    army = world.army(army_id)
    province = world.provinces[army.province]
    return {"army": army.id, "army_name": army.name, "province": province.number, "province_name": province.name}


def _army_of_unit(world: World, unit_id: int) -> int | None:
    return next((army for army, units in world.units.items() if any(u.id == unit_id for u in units)), None)


def _armies_of(world: World, kingdom: int) -> list[int]:
    """The kingdom's armies standing on the map (field armies and Elite Defense Forces), by id."""
    armies = [*world.armies.values(), *world.garrisons.values()]
    return sorted(a.id for a in armies if a.kingdom == kingdom and not a.disbanded)


def treasury_info(world: World, target: int, rows: tuple[LedgerRow, ...]) -> dict[str, Any]:
    """Treasury Info: the treasury as it stands now, and the turn's ledger rows of money spent (negative
    rows: what and on what) and received (decision 472)."""
    return {
        "treasury": world.kingdoms[target].treasury,
        "spent": [{"reason": r.reason, "amount": -r.amount, "note": r.note} for r in rows if r.amount < 0],
        "received": [{"reason": r.reason, "amount": r.amount, "note": r.note} for r in rows if r.amount > 0],
    }


def character_bio(
    world: World, character: CharacterState | None, facts: CharacterFacts | None, unit: UnitState | None
) -> dict[str, Any]:
    """Character Bio: where he is, his items, attributes (rank, role, Archetype, magic), skills (Archetype
    Abilities) and injuries. A character no longer on the map (dead, or his army gone) is reported so."""
    if character is None:
        return {"found": False}
    facts = facts or CharacterFacts()
    army = _army_of_unit(world, character.unit)
    items = sorted(i.name for i in world.items.values() if i.bearer == character.unit and not i.destroyed)
    return {
        "found": True,
        "character": character.id,
        "name": character.name,
        "role": character.role,
        "rank": facts.rank,
        "archetype": facts.archetype,
        "wizard_level": max(facts.magic_level, MIN_WIZARD_LEVEL) if facts.wizard else None,
        "profile": unit.name if unit is not None else "",
        "points": unit.points if unit is not None else 0,
        "where": _where(world, army) if army is not None else None,
        "items": items,
        "abilities": list(character.abilities),
        "injuries": [
            {"label": str(i.get("label", "")), "detail": str(i.get("detail", "")), "turn": i.get("turn")}
            for i in character.injuries
        ],
    }


def army_list(world: World, army_id: int) -> list[dict[str, Any]]:
    """The army's list as its player wrote it, no character info ("Army list (no character info)"): each
    unit that is not a character, as the list gives it (its name, category, models, points a model, its
    command and equipment points and Veteran level, its points), with the magic items it bears (their
    names and points: decision 590). The characters' units are left out, and with them their names and
    the magic items they bear."""
    borne: dict[int, list[dict[str, Any]]] = {}
    for item in sorted(world.items.values(), key=lambda i: (i.name.lower(), i.id)):
        if item.bearer is not None and not item.destroyed:
            borne.setdefault(item.bearer, []).append({"name": item.name, "points": item.points})
    return [
        {
            "name": u.name,
            "category": u.category,
            "models": u.models,
            "points_per_model": u.points_per_model,
            "equipment_points": u.equipment_points,
            "champion_points": u.champion_points,
            "standard_points": u.standard_points,
            "musician_points": u.musician_points,
            "veteran_level": u.veteran_level,
            "one_use": u.one_use,
            "points": u.points,
            "items": borne.get(u.id, []),
        }
        for u in world.units.get(army_id, ())
        if not u.character and u.models
    ]


def list_points(units: list[dict[str, Any]]) -> int:
    """The points of a spied list (`army_list`): its regiments' and the magic items they bear, as the army's
    list counts them; never a character's (decision 590)."""
    return sum(u["points"] + sum(i["points"] for i in u.get("items", ())) for u in units)


def army_statistics(world: World, army_id: int | None) -> dict[str, Any]:
    """Army Statistics: the army's location and list, no character info (`army_list`). An army whose list
    is due shows its points only (its list follows once written, decision 562); an army no longer on the
    map is reported so."""
    if army_id is None or (army_id not in world.armies and army_id not in world.garrisons):
        return {"found": False}
    army = world.army(army_id)
    if army.disbanded:
        return {"found": False}
    units = [] if army.list_due else army_list(world, army_id)
    return {
        "found": True,
        **_where(world, army_id),
        "list_due": army.list_due,
        "points": army.points if army.list_due else list_points(units),
        "units": units,
    }


def artillery_info(world: World, target: int) -> dict[str, Any]:
    """Artillery Info: each war machine unit of the kingdom's armies (decision 473): its type, number and
    location, never its upgrades (the unit's name and models only, not its points)."""
    machines = [
        {"type": u.name, "number": u.models, **_where(world, army)}
        for army in _armies_of(world, target)
        for u in world.units.get(army, ())
        if u.models and is_war_machine(u)
    ]
    return {"machines": machines, "total": sum(m["number"] for m in machines)}


def magic_college_raid(world: World, target: int, facts: Mapping[int, CharacterFacts]) -> dict[str, Any]:
    """Magic College Raid: the kingdom's mages (its living Wizards in armies on the map; a rune smith is
    no mage, decision 474): how many, each one's level and location."""
    mages = []
    for character in sorted(world.characters.values(), key=lambda c: c.id):
        fact = facts.get(character.id)
        if character.kingdom != target or not character.alive or fact is None or not fact.wizard:
            continue
        army = _army_of_unit(world, character.unit)
        if army is None:
            continue
        mages.append({"name": character.name, "level": max(fact.magic_level, MIN_WIZARD_LEVEL), **_where(world, army)})
    return {"mages": mages, "count": len(mages)}


@dataclass(frozen=True)
class IntelligenceDue:
    """A Reconnaissance earned in this aftermath whose information is delivered at its end (decision 471):
    `spy` learns `mission` about `target`, named `target_army` / `target_character` (the sheet's, or
    decision 475's), from the skirmish `battle` fought in `province`."""

    spy: int
    target: int
    mission: str
    battle: int
    province: int
    target_army: int | None = None
    target_character: int | None = None
