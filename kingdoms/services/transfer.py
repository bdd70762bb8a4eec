"""A whole campaign as one JSON document, and back again as a new campaign.

The document names everything by natural keys, never by database ids, so it can be read,
diffed and imported into another database:

- users by username (with email, first and last name);
- provinces by number; kingdoms by name; armies by (kingdom name, army name);
- units by their place in their army's "units" list (0-based; the list is in the army's own
  order, `position` then creation, so the place equals `position` for lists the services saved).

Top-level keys: "format", "version", "campaign", "users", "provinces", "adjacency",
"kingdoms" (each with its "treasury" ledger, "armies" with their "movements" and "units" with
their "character", and its "armory"), and "dice_rolls". Timestamps are ISO 8601 strings in UTC.

Every list is in a fixed order (the models' own orderings, ties broken by creation), so
exporting the same campaign twice gives the same JSON; the import creates rows in document
order, so exporting an imported campaign gives back the document it came from.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, TypeVar

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db import IntegrityError, models, transaction

from briternia.errors import DomainError

from ..models import (
    Army,
    ArmoryItem,
    ArmyMovement,
    Campaign,
    Character,
    DiceRoll,
    Kingdom,
    Province,
    TreasuryEntry,
    Unit,
)
from ..rules.tables import ArmyType

FORMAT = "briternia-campaign"
VERSION = 1

User = get_user_model()

CAMPAIGN_FIELDS = ["name", "player_count", "current_turn", "time_zone", "status", "map_name", "setup_seed"]
PROVINCE_FIELDS = [
    "number",
    "name",
    "terrain",
    "settlement",
    "capitol_site",
    "pyramid",
    "col",
    "row",
    "razed",
    "fortified",
]
KINGDOM_FIELDS = ["name", "army_type", "home_roll", "picked_provinces"]
TREASURY_FIELDS = ["turn", "amount", "reason", "note"]
ARMY_FIELDS = [
    "name",
    "kind",
    "size",
    "supply_depot",
    "experience",
    "status",
    "created_turn",
    "upgraded_turn",
]
MOVEMENT_FIELDS = ["turn", "step"]
UNIT_FIELDS = [
    "position",
    "name",
    "category",
    "models_count",
    "points_per_model",
    "equipment_points",
    "veteran_level",
    "one_use",
    "models_lost",
]
CHARACTER_FIELDS = [
    "rank",
    "role",
    "archetype",
    "abilities",
    "ability_choice_pending",
    "monstrous_mount",
    "wizard",
    "battles_survived",
    "injuries",
    "alive",
]
ITEM_FIELDS = ["name", "points", "common", "destroyed"]
DICE_FIELDS = ["turn", "stream", "sequence", "expression", "faces", "total", "purpose"]
USER_FIELDS = ["username", "email", "first_name", "last_name"]


# ---------------------------------------------------------------------------------------------
# Export


def _timestamp(value: datetime) -> str:
    # Always UTC, so the same instant is written the same way whatever the database returns.
    return value.astimezone(UTC).isoformat()


def _values(instance: models.Model, names: Iterable[str]) -> dict[str, Any]:
    return {name: getattr(instance, name) for name in names}


K = TypeVar("K")
V = TypeVar("V")


def _outside(mapping: Mapping[K, V], key: K, what: str) -> V:
    """`mapping[key]`, or a DomainError when a row points outside the campaign (a stale id)."""
    if key not in mapping:
        raise DomainError(f"The campaign cannot be exported: {what} refers to something outside the campaign ({key}).")
    return mapping[key]


@transaction.atomic
def campaign_export(*, campaign: Campaign) -> dict[str, Any]:
    """The whole campaign as a JSON-ready dict (see the module docstring for its shape).

    Deterministic: the same campaign state always gives an equal document. Raises DomainError
    when a row refers to something outside the campaign (a dice roll naming a deleted army),
    rather than writing a document that would not import.
    """
    # One transaction: a consistent snapshot even while players keep playing.
    campaign = Campaign.objects.select_related("organizer").get(pk=campaign.pk)
    provinces = list(campaign.provinces.order_by("number"))
    number_of = {p.id: p.number for p in provinces}
    kingdoms = list(campaign.kingdoms.order_by("id").prefetch_related("players"))
    name_of = {k.id: k.name for k in kingdoms}
    armies = list(Army.objects.filter(kingdom__campaign=campaign).order_by("kingdom_id", "id"))
    army_key = {a.id: [name_of[a.kingdom_id], a.name] for a in armies}
    units = list(
        Unit.objects.filter(army__kingdom__campaign=campaign)
        .select_related("character")
        .order_by("army_id", "position", "id")
    )
    units_of: dict[int, list[Unit]] = {}
    for unit in units:
        units_of.setdefault(unit.army_id, []).append(unit)
    unit_key = {
        unit.id: {"kingdom": army_key[army_id][0], "army": army_key[army_id][1], "unit": place}
        for army_id, army_units in units_of.items()
        for place, unit in enumerate(army_units)
    }
    movements: dict[int, list[ArmyMovement]] = {}
    for movement in ArmyMovement.objects.filter(army__kingdom__campaign=campaign).order_by("army_id", "turn", "step"):
        movements.setdefault(movement.army_id, []).append(movement)
    users = {campaign.organizer.username: campaign.organizer}
    users.update({user.username: user for kingdom in kingdoms for user in kingdom.players.all()})

    def character(unit: Unit) -> dict[str, Any] | None:
        found = getattr(unit, "character", None)
        if found is None:
            return None
        kingdom = _outside(name_of, found.kingdom_id, f"the character {unit.name}")
        return {"kingdom": kingdom, **_values(found, CHARACTER_FIELDS)}

    def army(army: Army) -> dict[str, Any]:
        where = f"the army {army.name}"
        return {
            **_values(army, ARMY_FIELDS),
            "province": None if army.province_id is None else _outside(number_of, army.province_id, where),
            "movements": [
                {**_values(m, MOVEMENT_FIELDS), "province": _outside(number_of, m.province_id, f"{where}'s movement")}
                for m in movements.get(army.id, [])
            ],
            "units": [
                {**_values(unit, UNIT_FIELDS), "character": character(unit)} for unit in units_of.get(army.id, [])
            ],
        }

    def kingdom(kingdom: Kingdom) -> dict[str, Any]:
        return {
            **_values(kingdom, KINGDOM_FIELDS),
            "created_at": _timestamp(kingdom.created_at),
            "players": sorted(user.username for user in kingdom.players.all()),
            "capitol": None if kingdom.capitol_id is None else _outside(number_of, kingdom.capitol_id, kingdom.name),
            "treasury": [
                {**_values(entry, TREASURY_FIELDS), "created_at": _timestamp(entry.created_at)}
                for entry in kingdom.ledger.order_by("turn", "id")
            ],
            "armies": [army(a) for a in armies if a.kingdom_id == kingdom.id],
            "armory": [
                {
                    **_values(item, ITEM_FIELDS),
                    "bearer": None
                    if item.bearer_id is None
                    else _outside(unit_key, item.bearer_id, f"the item {item.name}"),
                }
                for item in kingdom.items.order_by("name", "id")
            ],
        }

    def dice_roll(roll: DiceRoll) -> dict[str, Any]:
        where = f"the dice roll '{roll.purpose}' (turn {roll.turn}, {roll.stream} #{roll.sequence})"
        return {
            **_values(roll, DICE_FIELDS),
            "kingdoms": [_outside(name_of, k, where) for k in roll.kingdoms],
            "armies": [_outside(army_key, a, where) for a in roll.armies],
            "created_at": _timestamp(roll.created_at),
        }

    adjacency = sorted(
        {
            tuple(sorted((number_of[a], number_of[b])))
            for a, b in Province.neighbours.through.objects.filter(from_province__campaign=campaign).values_list(
                "from_province_id", "to_province_id"
            )
        }
    )
    return {
        "format": FORMAT,
        "version": VERSION,
        "campaign": {
            **_values(campaign, CAMPAIGN_FIELDS),
            "organizer": campaign.organizer.username,
            "created_at": _timestamp(campaign.created_at),
        },
        "users": [_values(users[name], USER_FIELDS) for name in sorted(users)],
        "provinces": [
            {
                **_values(p, PROVINCE_FIELDS),
                "controller": None if p.controller_id is None else _outside(name_of, p.controller_id, p.name),
            }
            for p in provinces
        ],
        "adjacency": [list(pair) for pair in adjacency],
        "kingdoms": [kingdom(k) for k in kingdoms],
        "dice_rolls": [dice_roll(r) for r in campaign.dice_rolls.order_by("turn", "id")],
    }


# ---------------------------------------------------------------------------------------------
# Import: read the whole document first (collecting every problem), then write.


@dataclass(frozen=True)
class _Kind:
    """The JSON type a key must hold."""

    label: str
    accepts: Callable[[Any], bool]
    nullable: bool = False

    def or_null(self) -> _Kind:
        return _Kind(f"{self.label} or null", self.accepts, nullable=True)


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_timestamp(value: Any) -> bool:
    if not isinstance(value, str):
        return False
    try:
        parsed = datetime.fromisoformat(value)
    except ValueError:
        return False
    return parsed.tzinfo is not None  # a naive time would be read in the server's zone


STR = _Kind("a string", lambda v: isinstance(v, str))
INT = _Kind("an integer", _is_int)
BOOL = _Kind("true or false", lambda v: isinstance(v, bool))
LIST = _Kind("a list", lambda v: isinstance(v, list))
OBJECT = _Kind("an object", lambda v: isinstance(v, dict))
TIMESTAMP = _Kind("an ISO 8601 time with its UTC offset", _is_timestamp)
INT_LIST = _Kind("a list of integers", lambda v: isinstance(v, list) and all(_is_int(x) for x in v))
STR_LIST = _Kind("a list of strings", lambda v: isinstance(v, list) and all(isinstance(x, str) for x in v))

CAMPAIGN_KEYS = {
    "name": STR,
    "organizer": STR,
    "player_count": INT,
    "current_turn": INT,
    "time_zone": STR,
    "status": STR,
    "map_name": STR,
    "setup_seed": STR,
    "created_at": TIMESTAMP,
}
USER_KEYS = {"username": STR, "email": STR, "first_name": STR, "last_name": STR}
PROVINCE_KEYS = {
    "number": INT,
    "name": STR,
    "terrain": STR,
    "settlement": STR,
    "capitol_site": BOOL,
    "pyramid": BOOL,
    "col": INT,
    "row": INT,
    "razed": BOOL,
    "fortified": BOOL,
    "controller": STR.or_null(),
}
KINGDOM_KEYS = {
    "name": STR,
    "army_type": STR,
    "home_roll": INT.or_null(),
    "picked_provinces": BOOL,
    "created_at": TIMESTAMP,
    "players": STR_LIST,
    "capitol": INT.or_null(),
    "treasury": LIST,
    "armies": LIST,
    "armory": LIST,
}
TREASURY_KEYS = {"turn": INT, "amount": INT, "reason": STR, "note": STR, "created_at": TIMESTAMP}
ARMY_KEYS = {
    "name": STR,
    "kind": STR,
    "size": INT,
    "supply_depot": BOOL,
    "experience": INT,
    "status": STR,
    "created_turn": INT,
    "upgraded_turn": INT.or_null(),
    "province": INT.or_null(),
    "movements": LIST,
    "units": LIST,
}
MOVEMENT_KEYS = {"turn": INT, "step": INT, "province": INT}
UNIT_KEYS = {
    "position": INT,
    "name": STR,
    "category": STR,
    "models_count": INT,
    "points_per_model": INT,
    "equipment_points": INT,
    "veteran_level": INT,
    "one_use": BOOL,
    "models_lost": INT,
    "character": OBJECT.or_null(),
}
CHARACTER_KEYS = {
    "kingdom": STR,
    "rank": STR,
    "role": STR,
    "archetype": STR,
    "abilities": STR_LIST,
    "ability_choice_pending": BOOL,
    "monstrous_mount": BOOL,
    "wizard": BOOL,
    "battles_survived": INT,
    "injuries": LIST,
    "alive": BOOL,
}
ITEM_KEYS = {"name": STR, "points": INT, "common": BOOL, "destroyed": BOOL, "bearer": OBJECT.or_null()}
BEARER_KEYS = {"kingdom": STR, "army": STR, "unit": INT}
DICE_KEYS = {
    "turn": INT,
    "stream": STR,
    "sequence": INT,
    "expression": STR,
    "faces": INT_LIST,
    "total": INT,
    "purpose": STR,
    "kingdoms": STR_LIST,
    "armies": LIST,
    "created_at": TIMESTAMP,
}
TOP_KEYS = {
    "format": STR,
    "version": INT,
    "campaign": OBJECT,
    "users": LIST,
    "provinces": LIST,
    "adjacency": LIST,
    "kingdoms": LIST,
    "dice_rolls": LIST,
}


