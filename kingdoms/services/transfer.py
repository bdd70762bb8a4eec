"""A whole campaign as one JSON document, and back again as a new campaign.

The document names everything by natural keys, never by database ids, so it can be read,
diffed and imported into another database:

- users by username (with email, first and last name);
- provinces by number; kingdoms by name; armies by (kingdom name, army name);
- units by their place in their army's "units" list (0-based; the list is in the army's own
  order, `position` then creation, so the place equals `position` for lists the services saved).

Top-level keys: "format", "version", "campaign", "users", "provinces", "adjacency",
"kingdoms" (each with its "treasury" ledger, "armies" with their "movements" and "units" with
their "character", and its "armory"), "dice_rolls", and the orders app's "schedule" (null when
the campaign has none yet) and "turns" (each with its "deadline_changes", its "sheets" by
kingdom name with their "submissions", its "reminders", and what its resolution recorded: its
"events" in sequence order and its "battles" by province number, each with its "supports").
Timestamps are ISO 8601 strings in UTC, times of day "HH:MM:SS"; whoever changed a deadline or
submitted a sheet is named by username (null once the account is gone).

An order sheet's "entries" (orders/entries.py) are kept as they are, but for the armies they
name (orders[].army, upgrades[].army, depots[].army): database ids there, [kingdom name, army
name] in the document, like a dice roll's armies. The province numbers in entries are kept as
written, valid or not: a draft may hold any number, and the sheet check reports it.

A turn event's "data" and a battle's "guerrilla" are kept as they are too, but for the values
that hold kingdom or army ids (EVENT_DATA_REFERENCES, GUERRILLA_REFERENCES: the keys the
resolution writes, by event code): a kingdom name and [kingdom name, army name] in the document.
Province numbers there (an event's "province", data["battle"], data["path"]) stay as they are.

Version 2 added "schedule" and "turns". A version 1 document (written before) is still read,
as a campaign without a schedule or turns. A turn's "events" and "battles" came later within
version 2 and are optional: a turn without them is read as one without events or battles.

Every list is in a fixed order (the models' own orderings, ties broken by creation), so
exporting the same campaign twice gives the same JSON; the import creates rows in document
order, so exporting an imported campaign gives back the document it came from.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Mapping
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime, time
from typing import Any, TypeVar

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db import IntegrityError, models, transaction

from battles.models import Battle, BattleSupport, ResultsReminder, TurnSummarySheet
from briternia.errors import DomainError
from kernel.event_codes import EventCode
from orders.models import (
    CampaignSchedule,
    DeadlineChange,
    OrderSheet,
    OrdersReminder,
    OrderSubmission,
    Turn,
    TurnEvent,
)
from orders.rules.sheets import DISASTER_CHOICES, OrderKind

from ..models import (
    ArmoryItem,
    Army,
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
VERSION = 2
READABLE_VERSIONS = (1, 2)  # 1: the same document without "schedule" and "turns"

User = get_user_model()

# ---------------------------------------------------------------------------------------------
# The document's keys and the JSON type each must hold (the import checks every one).


@dataclass(frozen=True)
class _Kind:
    """The JSON type a key must hold."""

    label: str
    accepts: Callable[[Any], bool]
    nullable: bool = False
    read: Callable[[Any], Any] = lambda value: value  # noqa: E731 - the JSON value to the Python value

    def or_null(self) -> _Kind:
        return replace(self, label=f"{self.label} or null", nullable=True)


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


def _is_time_of_day(value: Any) -> bool:
    if not isinstance(value, str):
        return False
    try:
        parsed = time.fromisoformat(value)
    except ValueError:
        return False
    return parsed.tzinfo is None  # read in the campaign's time zone, as the schedule is


STR = _Kind("a string", lambda v: isinstance(v, str))
INT = _Kind("an integer", _is_int)
BOOL = _Kind("true or false", lambda v: isinstance(v, bool))
LIST = _Kind("a list", lambda v: isinstance(v, list))
OBJECT = _Kind("an object", lambda v: isinstance(v, dict))
TIMESTAMP = _Kind("an ISO 8601 time with its UTC offset", _is_timestamp, read=datetime.fromisoformat)
INT_LIST = _Kind("a list of integers", lambda v: isinstance(v, list) and all(_is_int(x) for x in v))
STR_LIST = _Kind("a list of strings", lambda v: isinstance(v, list) and all(isinstance(x, str) for x in v))
TIME_OF_DAY = _Kind("a time of day (HH:MM:SS)", _is_time_of_day, read=time.fromisoformat)
ARMY_KEY = _Kind(
    "[kingdom name, army name]", lambda v: isinstance(v, list) and len(v) == 2 and all(isinstance(x, str) for x in v)
)

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
    "looted_turn": INT.or_null(),
}
# Added within version 2 (the aftermath): a document written before them is still read.
PROVINCE_OPTIONAL_KEYS = ("looted_turn",)
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
    "last_battle_turn": INT.or_null(),
    "recover_streak": INT,
    "co_occupying": BOOL,
    "pending_losses": INT,
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
    "veteran_eligible": BOOL,
    "character": OBJECT.or_null(),
}
UNIT_OPTIONAL_KEYS = ("veteran_eligible",)
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
SCHEDULE_KEYS = {
    "orders_weekday": INT,
    "orders_time": TIME_OF_DAY,
    "results_weekday": INT,
    "results_time": TIME_OF_DAY,
    "paused": BOOL,
}
TURN_KEYS = {
    "number": INT,
    "status": STR,
    "orders_deadline": TIMESTAMP,
    "results_deadline": TIMESTAMP,
    "seed": STR,
    "opened_at": TIMESTAMP,
    "resolved_at": TIMESTAMP.or_null(),
    "resolution_error": STR,
    "deadline_changes": LIST,
    "sheets": LIST,
    "reminders": LIST,
    "events": LIST,
    "battles": LIST,
    "results_reminders": LIST,
}
# Added within version 2: a version 2 document written before them is still read.
TURN_OPTIONAL_KEYS = ("events", "battles", "results_reminders")
DEADLINE_CHANGE_KEYS = {
    "kind": STR,
    "old_value": STR,
    "new_value": STR,
    "reason": STR,
    "changed_by": STR.or_null(),
    "changed_at": TIMESTAMP,
}
SHEET_KEYS = {
    "kingdom": STR,
    "status": STR,
    "entries": OBJECT,
    "updated_at": TIMESTAMP,
    "submitted_at": TIMESTAMP.or_null(),
    "submissions": LIST,
}
SUBMISSION_KEYS = {
    "submitted_by": STR.or_null(),
    "submitted_at": TIMESTAMP,
    "entries": OBJECT,
    "gold": INT,
    "warnings": STR_LIST,
}
REMINDER_KEYS = {"kingdom": STR, "sent_at": TIMESTAMP}
EVENT_KEYS = {
    "sequence": INT,
    "phase": STR,
    "code": STR,
    "text": STR,
    "kingdom": STR.or_null(),
    "army": ARMY_KEY.or_null(),
    "province": INT.or_null(),  # a province number, as the model keeps it
    "gold": INT,
    "data": OBJECT,
}
BATTLE_KEYS = {
    "province": INT,
    "status": STR,
    "attacker_kingdom": STR,
    "attacker_army": ARMY_KEY,
    "defender_kingdom": STR.or_null(),
    "defender_army": ARMY_KEY.or_null(),
    "both_moved": BOOL,
    "assault": BOOL,
    "garrison_points": INT,
    "garrison_defenses": INT,
    "fortified_points": INT,
    "defended_obstacles": INT.or_null(),
    "guerrilla": OBJECT.or_null(),
    "notes": LIST,
    "supports": LIST,
    "scenario": OBJECT.or_null(),
    "scenario_sent_at": TIMESTAMP.or_null(),
    "ruling_result": STR,
    "ruling_attacker_withdrew": BOOL,
    "ruling_defender_withdrew": BOOL,
    "ruling_note": STR,
    "ruled_by": STR.or_null(),
    "result": STR,
    "victor": STR,
    "summary_sheets": LIST,
}
# The battles' aftermath came later within version 2.
BATTLE_OPTIONAL_KEYS = (
    "scenario",
    "scenario_sent_at",
    "ruling_result",
    "ruling_attacker_withdrew",
    "ruling_defender_withdrew",
    "ruling_note",
    "ruled_by",
    "result",
    "victor",
    "summary_sheets",
)
# A turn summary sheet: its casualties name units by place, like an item's bearer, and the
# characters lost by their unit's place.
SUMMARY_SHEET_KEYS = {
    "kingdom": STR,
    "status": STR,
    "result": STR,
    "withdrew": BOOL,
    "opponent_withdrew": BOOL,
    "casualties": LIST,
    "characters_lost": LIST,
    "loot_choice": STR,
    "negotiation_gold": INT,
    "negotiation_note": STR,
    "story": STR,
    "entered_by": STR.or_null(),
    "by_organizer": BOOL,
    "updated_at": TIMESTAMP,
    "submitted_at": TIMESTAMP.or_null(),
}
CASUALTY_KEYS = {
    "unit": OBJECT,
    "models_lost": INT,
    "champion": BOOL,
    "standard": BOOL,
    "musician": BOOL,
    "one_use_used": BOOL,
}
SUPPORT_KEYS = {"army": ARMY_KEY, "kingdom": STR, "side": STR, "points": INT, "arrival": INT.or_null()}
# The values of an event's data and of a battle's guerrilla that hold database ids, as the
# resolution writes them (orders/rules/resolution/): by event code, then key. By code, not by key
# alone: the same key means different things in different events ("from" is a province in
# "moved", a size in "army-upgraded"). A kingdom id is a kingdom name in the document, an army
# id [kingdom name, army name]; null stays null.
KINGDOM_ID, ARMY_ID = "kingdom", "army"
REFERENCE_KINDS = {KINGDOM_ID: replace(STR, label="a kingdom name"), ARMY_ID: ARMY_KEY}
GUERRILLA_REFERENCES = {"army": ARMY_ID, "target": ARMY_ID}  # battles.py _guerrilla
EVENT_DATA_REFERENCES: dict[str, dict[str, str]] = {
    EventCode.PROVINCE_CLAIMED: {"from_kingdom": KINGDOM_ID},  # movement.py
    EventCode.PROVINCE_CONQUERED: {"from_kingdom": KINGDOM_ID},  # battles/rules/aftermath.py
    EventCode.BATTLE_SCHEDULED: {"opponent_kingdom": KINGDOM_ID, "opponent_army": ARMY_ID},  # battles.py
    EventCode.GUERRILLA: GUERRILLA_REFERENCES,  # battles.py: the battle's guerrilla
}
# An order sheet's entries, as orders/entries.py writes them. A section may be missing (a sheet
# never saved by the services holds {}); the objects in a section have all their keys.
ENTRY_SECTIONS = {
    "orders": {
        "army": ARMY_KEY,
        "kind": STR,
        "target": INT.or_null(),
        "support": INT.or_null(),
        "path": INT_LIST,
        "disaster_choice": STR,
        "pay_for_depot": BOOL,
    },
    "creations": {"name": STR, "points": INT, "province": INT},
    "upgrades": {"army": ARMY_KEY, "points": INT},
    "depots": {"army": ARMY_KEY},
    "garrisons": {"province": INT},
}
ENTRIES_KEYS = dict.fromkeys(ENTRY_SECTIONS, LIST)
ORDER_KINDS = [kind.value for kind in OrderKind]
TOP_KEYS = {
    "format": STR,
    "version": INT,
    "campaign": OBJECT,
    "users": LIST,
    "provinces": LIST,
    "adjacency": LIST,
    "kingdoms": LIST,
    "dice_rolls": LIST,
    "schedule": OBJECT.or_null(),
    "turns": LIST,
}
VERSION_1_TOP_KEYS = {key: kind for key, kind in TOP_KEYS.items() if key not in ("schedule", "turns")}


def _time_fields(model: type[models.Model]) -> set[str]:
    """The model's times: written as ISO text, read back into the fields as they are."""
    return {f.name for f in model._meta.concrete_fields if isinstance(f, models.DateField | models.TimeField)}


def _plain(model: type[models.Model], keys: Mapping[str, _Kind], *, translated: Iterable[str] = ()) -> list[str]:
    """The keys that hold one of `model`'s own fields as it is: not a reference by natural key,
    a child list, or a time (written as ISO text)."""
    own = {f.name for f in model._meta.concrete_fields if not f.is_relation} - _time_fields(model) - set(translated)
    return [key for key in keys if key in own]


CAMPAIGN_FIELDS = _plain(Campaign, CAMPAIGN_KEYS)
USER_FIELDS = _plain(User, USER_KEYS)
PROVINCE_FIELDS = _plain(Province, PROVINCE_KEYS)
KINGDOM_FIELDS = _plain(Kingdom, KINGDOM_KEYS)
TREASURY_FIELDS = _plain(TreasuryEntry, TREASURY_KEYS)
ARMY_FIELDS = _plain(Army, ARMY_KEYS)
MOVEMENT_FIELDS = _plain(ArmyMovement, MOVEMENT_KEYS)
UNIT_FIELDS = _plain(Unit, UNIT_KEYS)
CHARACTER_FIELDS = _plain(Character, CHARACTER_KEYS)
ITEM_FIELDS = _plain(ArmoryItem, ITEM_KEYS)
# A roll's kingdoms and armies hold database ids: the document has names instead.
DICE_FIELDS = _plain(DiceRoll, DICE_KEYS, translated=["kingdoms", "armies"])
SCHEDULE_FIELDS = _plain(CampaignSchedule, SCHEDULE_KEYS)
TURN_FIELDS = _plain(Turn, TURN_KEYS)
DEADLINE_CHANGE_FIELDS = _plain(DeadlineChange, DEADLINE_CHANGE_KEYS)
# Entries hold army ids: the document has army keys instead.
SHEET_FIELDS = _plain(OrderSheet, SHEET_KEYS, translated=["entries"])
SUBMISSION_FIELDS = _plain(OrderSubmission, SUBMISSION_KEYS, translated=["entries"])
REMINDER_FIELDS = _plain(OrdersReminder, REMINDER_KEYS)
# An event's data and a battle's guerrilla may hold ids: the document has names instead.
EVENT_FIELDS = _plain(TurnEvent, EVENT_KEYS, translated=["data"])
BATTLE_FIELDS = _plain(Battle, BATTLE_KEYS, translated=["guerrilla"])
SUMMARY_SHEET_FIELDS = _plain(TurnSummarySheet, SUMMARY_SHEET_KEYS, translated=["casualties", "characters_lost"])
RESULTS_REMINDER_FIELDS = _plain(ResultsReminder, REMINDER_KEYS)
SUPPORT_FIELDS = _plain(BattleSupport, SUPPORT_KEYS)


# ---------------------------------------------------------------------------------------------
# Export


M = TypeVar("M", bound=models.Model)


def _timestamp(value: datetime) -> str:
    # Always UTC, so the same instant is written the same way whatever the database returns.
    return value.astimezone(UTC).isoformat()


def _time_text(value: datetime | time | None) -> str | None:
    if value is None:
        return None
    return _timestamp(value) if isinstance(value, datetime) else value.isoformat()


def _row(keys: Mapping[str, _Kind], fields: list[str], instance: models.Model, **others: Any) -> dict[str, Any]:
    """One object of the document: `instance`'s plain `fields`, its times as ISO text, and the
    `others` (references by natural key, child lists), in the order of `keys`, the spec the
    import reads."""
    times = {name: _time_text(getattr(instance, name)) for name in _time_fields(type(instance)) if name in keys}
    values = {**{name: getattr(instance, name) for name in fields}, **times, **others}
    return {key: values[key] for key in keys}


def _grouped(rows: Iterable[M], parent: str) -> dict[int, list[M]]:
    """`rows` by the id in their `parent` attribute, each list in the rows' order."""
    groups: dict[int, list[M]] = {}
    for row in rows:
        groups.setdefault(getattr(row, parent), []).append(row)
    return groups


K = TypeVar("K")
V = TypeVar("V")


def _inside(mapping: Mapping[K, V], key: K, what: str) -> V:
    """`mapping[key]`, or a DomainError when a row points outside the campaign (a stale id)."""
    if key not in mapping:
        raise DomainError(f"The campaign cannot be exported: {what} refers to something outside the campaign ({key}).")
    return mapping[key]


def _id_inside(mapping: Mapping[int, V], value: Any, what: str) -> V:
    """`mapping[value]` for an id found in stored JSON, which may hold anything: a DomainError
    unless it is the id of a row of the campaign."""
    if not _is_int(value):
        raise DomainError(f"The campaign cannot be exported: {what} holds {value!r:.40} where an id belongs.")
    return _inside(mapping, value, what)


@transaction.atomic
def campaign_export(*, campaign: Campaign) -> dict[str, Any]:
    """The whole campaign as a JSON-ready dict (see the module docstring for its shape).

    Deterministic: the same campaign state always gives an equal document. Raises DomainError
    when a row refers to something outside the campaign (a dice roll naming a deleted army)
    rather than write a document that would not import.
    """
    # One transaction, so the document is one consistent state of the campaign.
    campaign = Campaign.objects.select_related("organizer").get(pk=campaign.pk)
    provinces = list(campaign.provinces.order_by("number"))
    number_of = {p.id: p.number for p in provinces}
    kingdoms = list(campaign.kingdoms.order_by("id").prefetch_related("players"))
    name_of = {k.id: k.name for k in kingdoms}
    armies = list(Army.objects.filter(kingdom__campaign=campaign).order_by("kingdom_id", "id"))
    army_key = {a.id: [name_of[a.kingdom_id], a.name] for a in armies}
    units_of: dict[int, list[Unit]] = {}
    for unit in (
        Unit.objects.filter(army__kingdom__campaign=campaign)
        .select_related("character")
        .order_by("army_id", "position", "id")
    ):
        units_of.setdefault(unit.army_id, []).append(unit)
    unit_key = {
        unit.id: {"kingdom": army_key[army_id][0], "army": army_key[army_id][1], "unit": place}
        for army_id, army_units in units_of.items()
        for place, unit in enumerate(army_units)
    }
    movements_of: dict[int, list[ArmyMovement]] = {}
    for movement in ArmyMovement.objects.filter(army__kingdom__campaign=campaign).order_by("army_id", "turn", "step"):
        movements_of.setdefault(movement.army_id, []).append(movement)
    schedule = CampaignSchedule.objects.filter(campaign=campaign).first()
    turns = list(campaign.turns.order_by("number", "id"))
    changes_of = _grouped(
        DeadlineChange.objects.filter(turn__campaign=campaign)
        .select_related("changed_by")
        .order_by("turn_id", "changed_at", "id"),
        "turn_id",
    )
    sheets_of = _grouped(
        OrderSheet.objects.filter(turn__campaign=campaign).order_by("turn_id", "kingdom_id", "id"), "turn_id"
    )
    submissions_of = _grouped(
        OrderSubmission.objects.filter(sheet__turn__campaign=campaign)
        .select_related("submitted_by")
        .order_by("sheet_id", "submitted_at", "id"),
        "sheet_id",
    )
    reminders_of = _grouped(
        OrdersReminder.objects.filter(turn__campaign=campaign).order_by("turn_id", "kingdom_id", "id"), "turn_id"
    )
    events_of = _grouped(
        TurnEvent.objects.filter(turn__campaign=campaign).order_by("turn_id", "sequence", "id"), "turn_id"
    )
    battles_of = _grouped(
        Battle.objects.filter(turn__campaign=campaign).order_by("turn_id", "province__number", "id"), "turn_id"
    )
    supports_of = _grouped(
        BattleSupport.objects.filter(battle__turn__campaign=campaign).order_by("battle_id", "id"), "battle_id"
    )
    summary_sheets_of = _grouped(
        TurnSummarySheet.objects.filter(battle__turn__campaign=campaign)
        .select_related("entered_by")
        .order_by("battle_id", "kingdom_id", "id"),
        "battle_id",
    )
    results_reminders_of = _grouped(
        ResultsReminder.objects.filter(turn__campaign=campaign).order_by("turn_id", "kingdom_id", "id"), "turn_id"
    )
    unit_of_character = dict(Character.objects.filter(kingdom__campaign=campaign).values_list("id", "unit_id"))
    rulers = {b.ruled_by_id for bs in battles_of.values() for b in bs if b.ruled_by_id}
    users = {campaign.organizer.username: campaign.organizer}
    users.update({u.username: u for u in User.objects.filter(pk__in=rulers)})
    users.update({s.entered_by.username: s.entered_by for ss in summary_sheets_of.values() for s in ss if s.entered_by})
    users.update({user.username: user for kingdom in kingdoms for user in kingdom.players.all()})
    # Whoever changed a deadline or submitted a sheet, a player or not (a staff member).
    users.update({c.changed_by.username: c.changed_by for cs in changes_of.values() for c in cs if c.changed_by})
    users.update(
        {s.submitted_by.username: s.submitted_by for ss in submissions_of.values() for s in ss if s.submitted_by}
    )

    def number(province_id: int | None, what: str) -> int | None:
        return None if province_id is None else _inside(number_of, province_id, what)

    def kingdom_name(kingdom_id: int | None, what: str) -> str | None:
        return None if kingdom_id is None else _inside(name_of, kingdom_id, what)

    def army_name(army_id: int | None, what: str) -> list[str] | None:
        return None if army_id is None else list(_inside(army_key, army_id, what))

    def with_names(data: Any, references: Mapping[str, str], what: str) -> Any:
        """Stored JSON with names for the ids under `references`' keys; the rest as it is."""
        if not isinstance(data, dict):
            return data  # not an object at all: the import refuses it, naming it

        def named(key: str, value: Any) -> Any:
            if key not in references or value is None:
                return value
            if references[key] == KINGDOM_ID:
                return _id_inside(name_of, value, f'{what} ("{key}")')
            return list(_id_inside(army_key, value, f'{what} ("{key}")'))

        return {key: named(key, value) for key, value in data.items()}

    def unit_row(unit: Unit) -> dict[str, Any]:
        character = getattr(unit, "character", None)
        return _row(
            UNIT_KEYS,
            UNIT_FIELDS,
            unit,
            character=None
            if character is None
            else _row(
                CHARACTER_KEYS,
                CHARACTER_FIELDS,
                character,
                kingdom=kingdom_name(character.kingdom_id, f"the character {unit.name}"),
            ),
        )

    def army_row(army: Army) -> dict[str, Any]:
        what = f"the army {army.name}"
        return _row(
            ARMY_KEYS,
            ARMY_FIELDS,
            army,
            province=number(army.province_id, what),
            movements=[
                _row(MOVEMENT_KEYS, MOVEMENT_FIELDS, m, province=number(m.province_id, what))
                for m in movements_of.get(army.id, [])
            ],
            units=[unit_row(unit) for unit in units_of.get(army.id, [])],
        )

    def kingdom_row(kingdom: Kingdom) -> dict[str, Any]:
        return _row(
            KINGDOM_KEYS,
            KINGDOM_FIELDS,
            kingdom,
            players=sorted(user.username for user in kingdom.players.all()),
            capitol=number(kingdom.capitol_id, kingdom.name),
            treasury=[_row(TREASURY_KEYS, TREASURY_FIELDS, entry) for entry in kingdom.ledger.order_by("turn", "id")],
            armies=[army_row(a) for a in armies if a.kingdom_id == kingdom.id],
            armory=[
                _row(
                    ITEM_KEYS,
                    ITEM_FIELDS,
                    item,
                    bearer=None if item.bearer_id is None else _inside(unit_key, item.bearer_id, item.name),
                )
                for item in kingdom.items.order_by("name", "id")
            ],
        )

    def dice_roll_row(roll: DiceRoll) -> dict[str, Any]:
        what = f"the dice roll '{roll.purpose}' (turn {roll.turn}, {roll.stream} #{roll.sequence})"
        return _row(
            DICE_KEYS,
            DICE_FIELDS,
            roll,
            kingdoms=[_inside(name_of, k, what) for k in roll.kingdoms],
            armies=[_inside(army_key, a, what) for a in roll.armies],
        )

    def entries(data: Any, what: str) -> Any:
        """Sheet entries with army keys for the army ids; the rest as it is stored."""
        if not isinstance(data, dict):
            return data  # not entries at all: the import refuses it, naming it
        return {
            section: [
                {**item, "army": list(_inside(army_key, item["army"], what))}
                if isinstance(item, dict) and "army" in item
                else item
                for item in items
            ]
            if section in ENTRY_SECTIONS and "army" in ENTRY_SECTIONS[section] and isinstance(items, list)
            else items
            for section, items in data.items()
        }

    def sheet_row(sheet: OrderSheet, turn: Turn) -> dict[str, Any]:
        kingdom = kingdom_name(sheet.kingdom_id, f"an order sheet of turn {turn.number}")
        what = f"the order sheet of {kingdom} for turn {turn.number}"
        return _row(
            SHEET_KEYS,
            SHEET_FIELDS,
            sheet,
            kingdom=kingdom,
            entries=entries(sheet.entries, what),
            submissions=[
                _row(
                    SUBMISSION_KEYS,
                    SUBMISSION_FIELDS,
                    submission,
                    submitted_by=submission.submitted_by.username if submission.submitted_by else None,
                    entries=entries(submission.entries, f"a submission of {what}"),
                )
                for submission in submissions_of.get(sheet.id, [])
            ],
        )

    def event_row(event: TurnEvent, turn: Turn) -> dict[str, Any]:
        what = f"the event #{event.sequence} ({event.code}) of turn {turn.number}"
        return _row(
            EVENT_KEYS,
            EVENT_FIELDS,
            event,
            kingdom=kingdom_name(event.kingdom_id, what),
            army=army_name(event.army_id, what),
            data=with_names(event.data, EVENT_DATA_REFERENCES.get(event.code, {}), what),
        )

    def battle_row(battle: Battle, turn: Turn) -> dict[str, Any]:
        province = number(battle.province_id, f"a battle of turn {turn.number}")
        what = f"the battle in province {province} of turn {turn.number}"
        return _row(
            BATTLE_KEYS,
            BATTLE_FIELDS,
            battle,
            province=province,
            attacker_kingdom=kingdom_name(battle.attacker_kingdom_id, what),
            attacker_army=army_name(battle.attacker_army_id, what),
            defender_kingdom=kingdom_name(battle.defender_kingdom_id, what),
            defender_army=army_name(battle.defender_army_id, what),
            guerrilla=with_names(battle.guerrilla, GUERRILLA_REFERENCES, f"the guerrilla tactics of {what}"),
            supports=[
                _row(
                    SUPPORT_KEYS,
                    SUPPORT_FIELDS,
                    support,
                    army=army_name(support.army_id, f"a support of {what}"),
                    kingdom=kingdom_name(support.kingdom_id, f"a support of {what}"),
                )
                for support in supports_of.get(battle.id, [])
            ],
            ruled_by=battle.ruled_by.username if battle.ruled_by_id else None,
            summary_sheets=[summary_sheet_row(sheet, what) for sheet in summary_sheets_of.get(battle.id, [])],
        )

    def summary_sheet_row(sheet: TurnSummarySheet, battle_what: str) -> dict[str, Any]:
        what = f"the turn summary sheet of {name_of.get(sheet.kingdom_id)} for {battle_what}"
        return _row(
            SUMMARY_SHEET_KEYS,
            SUMMARY_SHEET_FIELDS,
            sheet,
            kingdom=kingdom_name(sheet.kingdom_id, what),
            entered_by=sheet.entered_by.username if sheet.entered_by_id else None,
            casualties=[
                {**{k: v for k, v in c.items() if k != "unit"}, "unit": _id_inside(unit_key, c.get("unit"), what)}
                for c in sheet.casualties
            ],
            characters_lost=[
                _inside(unit_key, _id_inside(unit_of_character, c, what), what) for c in sheet.characters_lost
            ],
        )

    def turn_row(turn: Turn) -> dict[str, Any]:
        return _row(
            TURN_KEYS,
            TURN_FIELDS,
            turn,
            deadline_changes=[
                _row(
                    DEADLINE_CHANGE_KEYS,
                    DEADLINE_CHANGE_FIELDS,
                    change,
                    changed_by=change.changed_by.username if change.changed_by else None,
                )
                for change in changes_of.get(turn.id, [])
            ],
            sheets=[sheet_row(sheet, turn) for sheet in sheets_of.get(turn.id, [])],
            reminders=[
                _row(
                    REMINDER_KEYS,
                    REMINDER_FIELDS,
                    reminder,
                    kingdom=kingdom_name(reminder.kingdom_id, f"a reminder of turn {turn.number}"),
                )
                for reminder in reminders_of.get(turn.id, [])
            ],
            events=[event_row(event, turn) for event in events_of.get(turn.id, [])],
            battles=[battle_row(battle, turn) for battle in battles_of.get(turn.id, [])],
            results_reminders=[
                _row(
                    REMINDER_KEYS,
                    RESULTS_REMINDER_FIELDS,
                    reminder,
                    kingdom=kingdom_name(reminder.kingdom_id, f"a results reminder of turn {turn.number}"),
                )
                for reminder in results_reminders_of.get(turn.id, [])
            ],
        )

    Neighbours = Province.neighbours.through
    # Stored both ways round; written once, as a sorted pair.
    adjacency = sorted(
        {
            tuple(sorted((number_of[a], _inside(number_of, b, f"province {number_of[a]}'s neighbour"))))
            for a, b in Neighbours.objects.filter(from_province__campaign=campaign).values_list(
                "from_province_id", "to_province_id"
            )
        }
    )
    document = {
        "format": FORMAT,
        "version": VERSION,
        "campaign": _row(
            CAMPAIGN_KEYS,
            CAMPAIGN_FIELDS,
            campaign,
            organizer=campaign.organizer.username,
        ),
        "users": [_row(USER_KEYS, USER_FIELDS, users[name]) for name in sorted(users)],
        "provinces": [
            _row(
                PROVINCE_KEYS,
                PROVINCE_FIELDS,
                p,
                controller=None if p.controller_id is None else name_of[p.controller_id],
            )
            for p in provinces
        ],
        "adjacency": [list(pair) for pair in adjacency],
        "kingdoms": [kingdom_row(k) for k in kingdoms],
        "dice_rolls": [dice_roll_row(r) for r in campaign.dice_rolls.order_by("turn", "id")],
        "schedule": None if schedule is None else _row(SCHEDULE_KEYS, SCHEDULE_FIELDS, schedule),
        "turns": [turn_row(turn) for turn in turns],
    }
    return {key: document[key] for key in TOP_KEYS}


# ---------------------------------------------------------------------------------------------
# Import: read the whole document first (collecting every problem), then write.


@dataclass
class _ArmyPlan:
    army: Army
    movements: list[ArmyMovement] = field(default_factory=list)
    units: list[Unit] = field(default_factory=list)
    characters: list[Character] = field(default_factory=list)


@dataclass
class _KingdomPlan:
    kingdom: Kingdom
    players: list[str]
    treasury: list[TreasuryEntry] = field(default_factory=list)
    armies: dict[str, _ArmyPlan] = field(default_factory=dict)
    armory: list[ArmoryItem] = field(default_factory=list)


@dataclass
class _SheetPlan:
    sheet: OrderSheet
    entries: dict[str, Any]  # as in the document, with army keys: ids once the armies exist
    submissions: list[tuple[OrderSubmission, dict[str, Any]]] = field(default_factory=list)


@dataclass
class _BattlePlan:
    battle: Battle
    guerrilla: dict[str, Any] | None  # as in the document, with names: ids once the armies exist
    supports: list[BattleSupport] = field(default_factory=list)
    # Each sheet with its casualties' units and its lost characters' units: ids once they exist.
    sheets: list[tuple[TurnSummarySheet, list[tuple[Unit, dict[str, Any]]], list[Unit]]] = field(default_factory=list)


@dataclass
class _TurnPlan:
    turn: Turn
    changes: list[DeadlineChange] = field(default_factory=list)
    sheets: list[_SheetPlan] = field(default_factory=list)
    reminders: list[OrdersReminder] = field(default_factory=list)
    # Each event with its data as in the document, names for ids (see EVENT_DATA_REFERENCES).
    events: list[tuple[TurnEvent, dict[str, Any]]] = field(default_factory=list)
    battles: list[_BattlePlan] = field(default_factory=list)
    results_reminders: list[ResultsReminder] = field(default_factory=list)


@dataclass
class _Plan:
    """The document read into unsaved model instances, their references resolved by natural key.

    Relations point at the unsaved instances themselves; Django fills in the ids when the
    writer creates the rows in dependency order."""

    campaign: Campaign | None = None
    organizer: str = ""
    users: dict[str, Any] = field(default_factory=dict)  # username -> existing or unsaved user
    provinces: dict[int, Province] = field(default_factory=dict)
    # Provinces are created before kingdoms (a kingdom's capitol is a province), so their
    # controllers are set once the kingdoms exist.
    controllers: dict[int, str] = field(default_factory=dict)
    adjacency: set[tuple[int, int]] = field(default_factory=set)
    kingdoms: dict[str, _KingdomPlan] = field(default_factory=dict)
    dice_rolls: list[tuple[DiceRoll, list[str], list[tuple[str, str]]]] = field(default_factory=list)
    schedule: CampaignSchedule | None = None
    turns: list[_TurnPlan] = field(default_factory=list)
    # Who changed deadlines and submitted sheets: users the document must keep.
    actors: set[str] = field(default_factory=set)


def _label(where: str, data: Any, key: str) -> str:
    """`where` with the natural key of the object found there, so a message names the thing."""
    value = data.get(key) if isinstance(data, dict) else None
    if isinstance(value, str):
        return f'{where} "{value}"'
    if _is_int(value):
        return f"{where} ({key} {value})"
    return where


def _relations(model: type[models.Model]) -> set[str]:
    return {f.name for f in model._meta.concrete_fields if f.is_relation}


class _Reader:
    """Reads the document into a _Plan, collecting every problem rather than stopping at the
    first, so whoever fixes the file sees them all at once. Reads the database, never writes."""

    def __init__(self) -> None:
        self.errors: list[str] = []
        self.plan = _Plan()
        # Characters' kingdoms and items' bearers may name any kingdom or army: resolved once
        # every kingdom has been read.
        self.character_kingdoms: list[tuple[str, Character, str]] = []
        self.bearers: list[tuple[str, ArmoryItem, Any]] = []

    def problem(self, where: str, message: str) -> None:
        self.errors.append(f"{where}: {message}" if where else message)

    def keys(
        self, data: Any, where: str, spec: Mapping[str, _Kind], *, optional: Collection[str] = ()
    ) -> dict[str, Any] | None:
        """The keys of `spec` found in `data` with the right JSON type (None if `data` is no object).

        Missing (unless `optional`), mistyped and unknown keys are reported. An unknown key is
        refused rather than ignored: a misspelt key would otherwise lose its value silently."""
        if not isinstance(data, dict):
            self.problem(where, f"expected an object, found {data!r:.40}.")
            return None
        found: dict[str, Any] = {}
        for key, kind in spec.items():
            if key not in data:
                if key not in optional:
                    self.problem(where, f'"{key}" is missing.')
            elif data[key] is None and kind.nullable:
                found[key] = None
            elif not kind.accepts(data[key]):
                self.problem(where, f'"{key}" should be {kind.label}, not {data[key]!r:.60}.')
            else:
                found[key] = kind.read(data[key])
        for key in sorted(set(data) - set(spec)):
            self.problem(where, f'unknown key "{key}".')
        return found

    def instance(
        self, model: type[models.Model], values: dict[str, Any], names: list[str], where: str, **relations: Any
    ) -> Any:
        """An unsaved `model` row, checked by the model's own field validation (choices, lengths,
        ranges, time zone names). Its times are taken from `values` too; `relations` are the
        fields the reader resolves itself (references, translated values): not checked here."""
        instance = model(**{name: values[name] for name in names if name in values}, **relations)
        times = _time_fields(model)
        for name in sorted(times & set(values)):
            setattr(instance, name, values[name])
        # Keys already reported are not reported again.
        exclude = (
            _relations(model) | set(relations) | {name for name in names if name not in values} | (times - set(values))
        )
        # An empty JSON list is a value, not a blank field (a submission without warnings holds []);
        # its JSON type is checked already.
        exclude |= {
            f.name
            for f in model._meta.concrete_fields
            if isinstance(f, models.JSONField) and values.get(f.name) in ([], {})
        }
        if model is User:
            exclude.add("password")  # set unusable on import
        try:
            instance.clean_fields(exclude=exclude)
        except ValidationError as error:
            for name, messages in sorted(error.message_dict.items()):
                for message in messages:
                    self.problem(where, f'"{name}": {message}')
        return instance

    # -- the parts of the document, each read after those it can refer to --------------------

    def document(self, document: Any) -> None:
        if not isinstance(document, dict):
            self.problem("The document", f"expected an object, found {document!r:.40}.")
            return
        # Nothing else is worth reading in a file that is not a campaign export of this version.
        if document.get("format") != FORMAT:
            found = f"is {document['format']!r}" if "format" in document else "is missing"
            self.problem("", f"The document's format {found}: it should be {FORMAT!r} (a Briternia campaign export).")
            return
        version = document.get("version")
        if not (_is_int(version) and version in READABLE_VERSIONS):
            found = f"is {version!r}" if "version" in document else "is missing"
            readable = " and ".join(str(v) for v in READABLE_VERSIONS)
            self.problem("", f"The document's version {found}: this site reads versions {readable}.")
            return
        top = self.keys(document, "The document", TOP_KEYS if version == VERSION else VERSION_1_TOP_KEYS)
        assert top is not None  # a dict, checked above
        self.users(top.get("users", []))
        self.campaign(top.get("campaign", {}))
        self.provinces(top.get("provinces", []))
        self.adjacency(top.get("adjacency", []))
        self.kingdoms(top.get("kingdoms", []))
        self.dice_rolls(top.get("dice_rolls", []))
        self.schedule(top.get("schedule"))
        self.turns(top.get("turns", []))
        self.unreferenced_users()

    def users(self, rows: list[Any]) -> None:
        for index, row in enumerate(rows):
            where = _label(f"users[{index}]", row, "username")
            values = self.keys(row, where, USER_KEYS)
            if values is None or "username" not in values:
                continue
            username = values["username"]
            if username in self.plan.users:
                self.problem(where, "the username appears twice.")
                continue
            existing = User.objects.filter(username=username).first()
            if existing is not None:
                # The same person on this site: their account is kept as it is.
                self.plan.users[username] = existing
                continue
            user = self.instance(User, values, USER_FIELDS, where)
            user.set_unusable_password()
            self.plan.users[username] = user

    def user(self, username: str, where: str) -> None:
        if username not in self.plan.users:
            self.problem(where, f'the user "{username}" is not among the document\'s users.')

    def campaign(self, data: Any) -> None:
        values = self.keys(data, "campaign", CAMPAIGN_KEYS)
        if values is None:
            return
        self.plan.campaign = self.instance(Campaign, values, CAMPAIGN_FIELDS, "campaign")
        if "organizer" in values:
            self.plan.organizer = values["organizer"]
            self.user(values["organizer"], "campaign / organizer")

    def provinces(self, rows: list[Any]) -> None:
        for index, row in enumerate(rows):
            where = _label(f"provinces[{index}]", row, "number")
            values = self.keys(row, where, PROVINCE_KEYS, optional=PROVINCE_OPTIONAL_KEYS)
            if values is None or "number" not in values:
                continue  # reported; without its number nothing can refer to it
            number = values["number"]
            province = self.instance(Province, values, PROVINCE_FIELDS, where, campaign=self.plan.campaign)
            if province.razed is True and province.fortified is True:
                self.problem(where, "a province cannot be both razed and fortified.")
            if number in self.plan.provinces:
                self.problem(where, f"province {number} appears twice.")
                continue
            self.plan.provinces[number] = province
            controller = values.get("controller")
            if controller is not None:
                self.plan.controllers[number] = controller

    def province(self, number: int | None, where: str) -> Province | None:
        if number is not None and number not in self.plan.provinces:
            self.problem(where, f"province {number} is not among the document's provinces.")
        return None if number is None else self.plan.provinces.get(number)

    def adjacency(self, rows: list[Any]) -> None:
        for index, pair in enumerate(rows):
            where = f"adjacency[{index}]"
            if not (isinstance(pair, list) and len(pair) == 2 and all(_is_int(n) for n in pair)):
                self.problem(where, f"expected a pair of province numbers, found {pair!r:.40}.")
                continue
            a, b = sorted(pair)
            if a == b:
                self.problem(where, f"province {a} cannot be its own neighbour.")
            elif (a, b) in self.plan.adjacency:
                self.problem(where, f"provinces {a} and {b} are listed as neighbours twice.")
            elif self.province(a, where) is not None and self.province(b, where) is not None:
                self.plan.adjacency.add((a, b))

    def kingdoms(self, rows: list[Any]) -> None:
        for index, row in enumerate(rows):
            self.kingdom(row, f"kingdoms[{index}]")
        ancient_dead = [p for p in self.plan.kingdoms.values() if p.kingdom.army_type == ArmyType.ANCIENT_DEAD]
        if len(ancient_dead) > 1:
            self.problem("kingdoms", f"a campaign has one Ancient Dead kingdom, not {len(ancient_dead)}.")
        for number, name in sorted(self.plan.controllers.items()):
            if name not in self.plan.kingdoms:
                self.problem(f"province {number} / controller", f'there is no kingdom called "{name}".')
        living_warlords: dict[str, int] = {}
        for where, character, name in self.character_kingdoms:
            if name not in self.plan.kingdoms:
                self.problem(where, f'there is no kingdom called "{name}".')
                continue
            character.kingdom = self.plan.kingdoms[name].kingdom
            if character.role == Character.Role.WARLORD and character.alive is True:
                living_warlords[name] = living_warlords.get(name, 0) + 1
        for name, count in sorted(living_warlords.items()):
            if count > 1:
                self.problem(f'kingdom "{name}"', f"a kingdom has one living Warlord, not {count}.")
        for where, item, reference in self.bearers:
            item.bearer = self.bearer(reference, where)

    def kingdom(self, data: Any, where: str) -> None:
        where = _label(where, data, "name")
        values = self.keys(data, where, KINGDOM_KEYS)
        if values is None or "name" not in values:
            return
        name = values["name"]
        kingdom = self.instance(
            Kingdom,
            values,
            KINGDOM_FIELDS,
            where,
            campaign=self.plan.campaign,
            capitol=self.province(values.get("capitol"), f"{where} / capitol"),
        )
        if name in self.plan.kingdoms:
            self.problem(where, f'there are two kingdoms called "{name}".')
            return
        players = values.get("players", [])
        for username in players:
            self.user(username, f"{where} / players")
        if len(set(players)) != len(players):
            self.problem(f"{where} / players", "a player is listed twice.")
        plan = self.plan.kingdoms[name] = _KingdomPlan(kingdom=kingdom, players=players)
        for index, row in enumerate(values.get("treasury", [])):
            row_where = f"{where} / treasury[{index}]"
            row_values = self.keys(row, row_where, TREASURY_KEYS)
            if row_values is not None:
                entry = self.instance(TreasuryEntry, row_values, TREASURY_FIELDS, row_where, kingdom=kingdom)
                plan.treasury.append(entry)
        for index, row in enumerate(values.get("armies", [])):
            self.army(plan, row, f"{where} / armies[{index}]")
        armory_names: list[str] = []
        for index, row in enumerate(values.get("armory", [])):
            row_where = f"{where} / armory[{index}]"
            row_values = self.keys(row, row_where, ITEM_KEYS)
            if row_values is None:
                continue
            item = self.instance(ArmoryItem, row_values, ITEM_FIELDS, row_where, kingdom=kingdom)
            plan.armory.append(item)
            if row_values.get("bearer") is not None:
                self.bearers.append((f"{row_where} / bearer", item, row_values["bearer"]))
            if item.common is False and isinstance(item.name, str):
                # The database keeps one of each magic item per kingdom, whatever the case.
                if item.name.lower() in armory_names:
                    self.problem(row_where, f'the magic item "{item.name}" is already in the armory.')
                armory_names.append(item.name.lower())

    def army(self, kingdom: _KingdomPlan, data: Any, where: str) -> None:
        where = _label(where, data, "name")
        values = self.keys(data, where, ARMY_KEYS)
        if values is None or "name" not in values:
            return
        name = values["name"]
        army = self.instance(
            Army,
            values,
            ARMY_FIELDS,
            where,
            kingdom=kingdom.kingdom,
            province=self.province(values.get("province"), where),
        )
        if name in kingdom.armies:
            self.problem(where, f'{kingdom.kingdom.name} has two armies called "{name}".')
            return
        plan = kingdom.armies[name] = _ArmyPlan(army=army)
        steps: set[tuple[Any, Any]] = set()
        for index, row in enumerate(values.get("movements", [])):
            row_where = f"{where} / movements[{index}]"
            row_values = self.keys(row, row_where, MOVEMENT_KEYS)
            if row_values is None:
                continue
            province = self.province(row_values.get("province"), row_where)
            movement = self.instance(ArmyMovement, row_values, MOVEMENT_FIELDS, row_where, army=army, province=province)
            step = (row_values.get("turn"), row_values.get("step"))
            if step in steps:
                self.problem(row_where, f"turn {step[0]} step {step[1]} appears twice.")
            steps.add(step)
            plan.movements.append(movement)
        for index, row in enumerate(values.get("units", [])):
            self.unit(plan, row, f"{where} / units[{index}]")

    def unit(self, army: _ArmyPlan, data: Any, where: str) -> None:
        where = _label(where, data, "name")
        values = self.keys(data, where, UNIT_KEYS, optional=UNIT_OPTIONAL_KEYS)
        # A unit that cannot be read still holds its place: bearers refer to units by place.
        unit = (
            Unit(army=army.army) if values is None else self.instance(Unit, values, UNIT_FIELDS, where, army=army.army)
        )
        army.units.append(unit)
        if values is None:
            return
        if _is_int(unit.veteran_level) and unit.veteran_level > 3:
            self.problem(where, "the veteran level is at most 3.")
        if values.get("character") is None:
            return
        where = f"{where} / character"
        character_values = self.keys(values["character"], where, CHARACTER_KEYS)
        if character_values is None:
            return
        character = self.instance(Character, character_values, CHARACTER_FIELDS, where, unit=unit)
        army.characters.append(character)
        if "kingdom" in character_values:
            self.character_kingdoms.append((where, character, character_values["kingdom"]))

    def army_by_key(self, kingdom: Any, army: Any, where: str) -> _ArmyPlan | None:
        plan = self.plan.kingdoms.get(kingdom) if isinstance(kingdom, str) else None
        found = plan.armies.get(army) if plan is not None and isinstance(army, str) else None
        if found is None:
            self.problem(where, f"there is no army {army!r:.40} of the kingdom {kingdom!r:.40}.")
        return found

    def bearer(self, reference: Any, where: str) -> Unit | None:
        values = self.keys(reference, where, BEARER_KEYS)
        if values is None or len(values) != len(BEARER_KEYS):
            return None
        army = self.army_by_key(values["kingdom"], values["army"], where)
        if army is None:
            return None
        place = values["unit"]
        if not 0 <= place < len(army.units):
            self.problem(where, f"{values['army']} has no unit at place {place} (it has {len(army.units)} units).")
            return None
        return army.units[place]

    def dice_rolls(self, rows: list[Any]) -> None:
        for index, row in enumerate(rows):
            where = f"dice_rolls[{index}]"
            values = self.keys(row, where, DICE_KEYS)
            if values is None:
                continue
            roll = self.instance(DiceRoll, values, DICE_FIELDS, where, campaign=self.plan.campaign)
            kingdoms = values.get("kingdoms", [])
            for name in kingdoms:
                if name not in self.plan.kingdoms:
                    self.problem(f"{where} / kingdoms", f'there is no kingdom called "{name}".')
            armies: list[tuple[str, str]] = []
            for key in values.get("armies", []):
                if not (isinstance(key, list) and len(key) == 2):
                    self.problem(f"{where} / armies", f"expected [kingdom, army], found {key!r:.40}.")
                elif self.army_by_key(key[0], key[1], f"{where} / armies") is not None:
                    armies.append((key[0], key[1]))
            self.plan.dice_rolls.append((roll, kingdoms, armies))

    # -- the orders app: the schedule and the turns ------------------------------------------

    def schedule(self, data: Any) -> None:
        if data is None:
            return  # the campaign has none yet: the orders app makes the rulebook's on first use
        values = self.keys(data, "schedule", SCHEDULE_KEYS)
        if values is not None:
            self.plan.schedule = self.instance(
                CampaignSchedule, values, SCHEDULE_FIELDS, "schedule", campaign=self.plan.campaign
            )

    def kingdom_named(self, name: Any, where: str) -> Kingdom | None:
        if name is None:
            return None  # missing: reported already
        if name not in self.plan.kingdoms:
            self.problem(where, f'there is no kingdom called "{name}".')
            return None
        return self.plan.kingdoms[name].kingdom

    def actor(self, username: str | None, where: str) -> Any:
        """The user who did something, or None."""
        if username is None:
            return None
        self.user(username, where)
        self.plan.actors.add(username)
        return self.plan.users.get(username)

    def turns(self, rows: list[Any]) -> None:
        numbers: set[int] = set()
        for index, row in enumerate(rows):
            where = _label(f"turns[{index}]", row, "number")
            values = self.keys(row, where, TURN_KEYS, optional=TURN_OPTIONAL_KEYS)
            if values is None:
                continue
            turn = self.instance(Turn, values, TURN_FIELDS, where, campaign=self.plan.campaign)
            if "number" in values:
                if values["number"] in numbers:
                    self.problem(where, f"turn {values['number']} appears twice.")
                numbers.add(values["number"])
            orders, results = values.get("orders_deadline"), values.get("results_deadline")
            if orders is not None and results is not None and results <= orders:
                self.problem(where, "the results deadline must come after the orders deadline.")
            plan = _TurnPlan(turn=turn)
            self.plan.turns.append(plan)
            for change_index, change_row in enumerate(values.get("deadline_changes", [])):
                row_where = f"{where} / deadline_changes[{change_index}]"
                change_values = self.keys(change_row, row_where, DEADLINE_CHANGE_KEYS)
                if change_values is not None:
                    changed_by = self.actor(change_values.get("changed_by"), f"{row_where} / changed_by")
                    plan.changes.append(
                        self.instance(
                            DeadlineChange,
                            change_values,
                            DEADLINE_CHANGE_FIELDS,
                            row_where,
                            turn=turn,
                            changed_by=changed_by,
                        )
                    )
            sheet_kingdoms: set[str] = set()
            for sheet_index, sheet_row in enumerate(values.get("sheets", [])):
                self.sheet(plan, sheet_row, f"{where} / sheets[{sheet_index}]", sheet_kingdoms)
            reminded: set[str] = set()
            for reminder_index, reminder_row in enumerate(values.get("reminders", [])):
                row_where = _label(f"{where} / reminders[{reminder_index}]", reminder_row, "kingdom")
                reminder_values = self.keys(reminder_row, row_where, REMINDER_KEYS)
                if reminder_values is None:
                    continue
                name = reminder_values.get("kingdom")
                kingdom = self.kingdom_named(name, row_where)
                if kingdom is not None:
                    if kingdom.name in reminded:
                        self.problem(row_where, f"{name} is reminded twice for this turn.")
                    reminded.add(kingdom.name)
                plan.reminders.append(
                    self.instance(
                        OrdersReminder, reminder_values, REMINDER_FIELDS, row_where, turn=turn, kingdom=kingdom
                    )
                )
            for reminder_index, reminder_row in enumerate(values.get("results_reminders", [])):
                row_where = _label(f"{where} / results_reminders[{reminder_index}]", reminder_row, "kingdom")
                reminder_values = self.keys(reminder_row, row_where, REMINDER_KEYS)
                if reminder_values is not None:
                    plan.results_reminders.append(
                        self.instance(
                            ResultsReminder,
                            reminder_values,
                            RESULTS_REMINDER_FIELDS,
                            row_where,
                            turn=turn,
                            kingdom=self.kingdom_named(reminder_values.get("kingdom"), row_where),
                        )
                    )
            self.events(plan, values.get("events", []), where)
            for battle_index, battle_row in enumerate(values.get("battles", [])):
                self.battle(plan, battle_row, f"{where} / battles[{battle_index}]")

    def army_named(self, key: list[str] | None, where: str) -> Army | None:
        """The army of an army key already checked for its shape (None: null, or missing)."""
        if key is None:
            return None
        found = self.army_by_key(key[0], key[1], where)
        return None if found is None else found.army

    def references(self, data: dict[str, Any], references: Mapping[str, str], where: str) -> None:
        """Check the values of stored JSON that stand for ids: each names a kingdom or an army of
        the document, or is null. The rest of the JSON is kept as it is."""
        for key, reference in references.items():
            value = data.get(key)
            if value is None:
                continue
            kind = REFERENCE_KINDS[reference]
            if not kind.accepts(value):
                self.problem(where, f'"{key}" should be {kind.or_null().label}, not {value!r:.60}.')
            elif reference == KINGDOM_ID:
                self.kingdom_named(value, f"{where} / {key}")
            else:
                self.army_named(value, f"{where} / {key}")

    def events(self, turn: _TurnPlan, rows: list[Any], where: str) -> None:
        previous: int | None = None
        for index, row in enumerate(rows):
            row_where = _label(f"{where} / events[{index}]", row, "code")
            values = self.keys(row, row_where, EVENT_KEYS)
            if values is None:
                continue
            sequence = values.get("sequence")
            if sequence is not None:
                if previous is not None and sequence <= previous:
                    self.problem(
                        row_where,
                        f"sequence {sequence} should come after {previous}: "
                        "the events are listed in sequence order, each sequence once.",
                    )
                previous = sequence
            data = values.get("data", {})
            self.references(data, EVENT_DATA_REFERENCES.get(values.get("code", ""), {}), f"{row_where} / data")
            event = self.instance(
                TurnEvent,
                values,
                EVENT_FIELDS,
                row_where,
                turn=turn.turn,
                kingdom=self.kingdom_named(values.get("kingdom"), row_where),
                army=self.army_named(values.get("army"), row_where),
                data={},
            )
            turn.events.append((event, data))

    def battle(self, turn: _TurnPlan, data: Any, where: str) -> None:
        where = _label(where, data, "province")
        values = self.keys(data, where, BATTLE_KEYS, optional=BATTLE_OPTIONAL_KEYS)
        if values is None:
            return
        guerrilla = values.get("guerrilla")
        if guerrilla is not None:
            self.references(guerrilla, GUERRILLA_REFERENCES, f"{where} / guerrilla")
        battle = self.instance(
            Battle,
            values,
            BATTLE_FIELDS,
            where,
            turn=turn.turn,
            province=self.province(values.get("province"), where),
            attacker_kingdom=self.kingdom_named(values.get("attacker_kingdom"), f"{where} / attacker_kingdom"),
            attacker_army=self.army_named(values.get("attacker_army"), f"{where} / attacker_army"),
            defender_kingdom=self.kingdom_named(values.get("defender_kingdom"), f"{where} / defender_kingdom"),
            defender_army=self.army_named(values.get("defender_army"), f"{where} / defender_army"),
            guerrilla=None,
            ruled_by=self.actor(values.get("ruled_by"), f"{where} / ruled_by"),
        )
        plan = _BattlePlan(battle=battle, guerrilla=guerrilla)
        turn.battles.append(plan)
        for index, row in enumerate(values.get("summary_sheets", [])):
            self.summary_sheet(plan, row, f"{where} / summary_sheets[{index}]")
        for index, row in enumerate(values.get("supports", [])):
            row_where = f"{where} / supports[{index}]"
            row_values = self.keys(row, row_where, SUPPORT_KEYS)
            if row_values is None:
                continue
            plan.supports.append(
                self.instance(
                    BattleSupport,
                    row_values,
                    SUPPORT_FIELDS,
                    row_where,
                    battle=battle,
                    army=self.army_named(row_values.get("army"), row_where),
                    kingdom=self.kingdom_named(row_values.get("kingdom"), row_where),
                )
            )

    def summary_sheet(self, battle: _BattlePlan, data: Any, where: str) -> None:
        where = _label(where, data, "kingdom")
        values = self.keys(data, where, SUMMARY_SHEET_KEYS)
        if values is None:
            return
        casualties: list[tuple[Unit, dict[str, Any]]] = []
        for index, row in enumerate(values.get("casualties", [])):
            row_where = f"{where} / casualties[{index}]"
            row_values = self.keys(row, row_where, CASUALTY_KEYS)
            if row_values is None or "unit" not in row_values:
                continue
            unit = self.bearer(row_values["unit"], f"{row_where} / unit")
            if unit is not None:
                casualties.append((unit, {k: v for k, v in row_values.items() if k != "unit"}))
        characters: list[Unit] = []
        for index, reference in enumerate(values.get("characters_lost", [])):
            unit = self.bearer(reference, f"{where} / characters_lost[{index}]")
            if unit is not None:
                characters.append(unit)
        sheet = self.instance(
            TurnSummarySheet,
            values,
            SUMMARY_SHEET_FIELDS,
            where,
            battle=battle.battle,
            kingdom=self.kingdom_named(values.get("kingdom"), where),
            entered_by=self.actor(values.get("entered_by"), f"{where} / entered_by"),
            casualties=[],
            characters_lost=[],
        )
        battle.sheets.append((sheet, casualties, characters))

    def sheet(self, turn: _TurnPlan, data: Any, where: str, kingdoms: set[str]) -> None:
        where = _label(where, data, "kingdom")
        values = self.keys(data, where, SHEET_KEYS)
        if values is None:
            return
        name = values.get("kingdom")
        kingdom = self.kingdom_named(name, where)
        if kingdom is not None:
            if kingdom.name in kingdoms:
                self.problem(where, f"{name} has two order sheets for this turn.")
            kingdoms.add(kingdom.name)
        sheet = self.instance(OrderSheet, values, SHEET_FIELDS, where, turn=turn.turn, kingdom=kingdom, entries={})
        plan = _SheetPlan(sheet=sheet, entries=self.entries(values.get("entries"), f"{where} / entries"))
        turn.sheets.append(plan)
        for index, row in enumerate(values.get("submissions", [])):
            row_where = f"{where} / submissions[{index}]"
            row_values = self.keys(row, row_where, SUBMISSION_KEYS)
            if row_values is None:
                continue
            submitted_by = self.actor(row_values.get("submitted_by"), f"{row_where} / submitted_by")
            submission = self.instance(
                OrderSubmission,
                row_values,
                SUBMISSION_FIELDS,
                row_where,
                sheet=sheet,
                submitted_by=submitted_by,
                entries={},
            )
            plan.submissions.append((submission, self.entries(row_values.get("entries"), f"{row_where} / entries")))

    def entries(self, data: Any, where: str) -> dict[str, Any]:
        """Sheet entries as orders/entries.py writes them, every army key naming an army of the
        document. Province numbers are not checked: a draft may hold any, as the site allows."""
        if data is None:
            return {}  # missing: reported already
        values = self.keys(data, where, ENTRIES_KEYS, optional=ENTRIES_KEYS)
        if values is None:
            return {}
        for section, spec in ENTRY_SECTIONS.items():
            for index, item in enumerate(values.get(section, [])):
                item_where = f"{where} / {section}[{index}]"
                item_values = self.keys(item, item_where, spec)
                if item_values is None:
                    continue
                if "army" in item_values:
                    kingdom_name, army_name = item_values["army"]
                    self.army_by_key(kingdom_name, army_name, item_where)
                kind = item_values.get("kind", ORDER_KINDS[0])
                if kind not in ORDER_KINDS:
                    self.problem(item_where, f'"kind" should be one of {", ".join(ORDER_KINDS)}, not {kind!r:.40}.')
                choice = item_values.get("disaster_choice", DISASTER_CHOICES[0])
                if choice not in DISASTER_CHOICES:
                    self.problem(
                        item_where,
                        f'"disaster_choice" should be one of {", ".join(DISASTER_CHOICES)}, not {choice!r:.40}.',
                    )
        return values  # written only when nothing was reported: then all of `data`

    def unreferenced_users(self) -> None:
        used = {self.plan.organizer} | {name for k in self.plan.kingdoms.values() for name in k.players}
        for username in sorted(set(self.plan.users) - used - self.plan.actors):
            # Importing them would only create stray accounts.
            self.problem(
                f'users "{username}"',
                "neither the organizer nor a player of any kingdom, nor named by a turn.",
            )


def _create_keeping_times(model: type[M], rows: list[M]) -> None:
    """Create `rows` with the times they carry: auto_now and auto_now_add stamp the time of the
    import on create, and bulk_update writes the values as they are."""
    stamped = [
        f.name
        for f in model._meta.concrete_fields
        if getattr(f, "auto_now", False) or getattr(f, "auto_now_add", False)
    ]
    stamps = [[getattr(row, name) for name in stamped] for row in rows]
    model._default_manager.bulk_create(rows)
    if not (rows and stamped):
        return
    for row, values in zip(rows, stamps, strict=True):
        for name, value in zip(stamped, values, strict=True):
            setattr(row, name, value)
    model._default_manager.bulk_update(rows, stamped)


def _entries_with_ids(entries: dict[str, Any], plan: _Plan) -> dict[str, Any]:
    """Document entries back as stored: the ids of the armies just created for their keys."""
    return {
        section: [{**item, "army": plan.kingdoms[item["army"][0]].armies[item["army"][1]].army.pk} for item in items]
        if "army" in ENTRY_SECTIONS[section]
        else items
        for section, items in entries.items()
    }


def _with_ids(data: dict[str, Any], references: Mapping[str, str], plan: _Plan) -> dict[str, Any]:
    """Document JSON back as stored: the ids of the kingdoms and armies just created for their names."""

    def stored(key: str, value: Any) -> Any:
        if key not in references or value is None:
            return value
        if references[key] == KINGDOM_ID:
            return plan.kingdoms[value].kingdom.pk
        return plan.kingdoms[value[0]].armies[value[1]].army.pk

    return {key: stored(key, value) for key, value in data.items()}


def _write(plan: _Plan) -> Campaign:
    """Create the rows of a plan that read without problems, parents before children."""
    campaign = plan.campaign
    assert campaign is not None  # a document without a readable campaign has problems
    for user in plan.users.values():
        if user.pk is None:
            user.save()
    campaign.organizer = plan.users[plan.organizer]
    _create_keeping_times(Campaign, [campaign])

    Province.objects.bulk_create(plan.provinces.values())
    Through = Province.neighbours.through
    Through.objects.bulk_create(
        # Stored both ways, as campaign_create stores a map's adjacency.
        Through(from_province_id=plan.provinces[a].pk, to_province_id=plan.provinces[b].pk)
        for pair in sorted(plan.adjacency)
        for a, b in (pair, pair[::-1])
    )

    kingdoms = list(plan.kingdoms.values())
    _create_keeping_times(Kingdom, [k.kingdom for k in kingdoms])
    Players = Kingdom.players.through
    Players.objects.bulk_create(
        Players(kingdom_id=k.kingdom.pk, user_id=plan.users[username].pk) for k in kingdoms for username in k.players
    )
    for number, name in plan.controllers.items():
        plan.provinces[number].controller = plan.kingdoms[name].kingdom
    Province.objects.bulk_update([plan.provinces[number] for number in plan.controllers], ["controller"])
    _create_keeping_times(TreasuryEntry, [entry for k in kingdoms for entry in k.treasury])

    armies = [army for k in kingdoms for army in k.armies.values()]
    Army.objects.bulk_create(a.army for a in armies)
    ArmyMovement.objects.bulk_create(movement for a in armies for movement in a.movements)
    Unit.objects.bulk_create(unit for a in armies for unit in a.units)
    Character.objects.bulk_create(character for a in armies for character in a.characters)
    ArmoryItem.objects.bulk_create(item for k in kingdoms for item in k.armory)

    rolls = []
    for roll, kingdom_names, army_keys in plan.dice_rolls:
        # The rolls keep ids, not names: those of the kingdoms and armies just created.
        roll.kingdoms = [plan.kingdoms[name].kingdom.pk for name in kingdom_names]
        roll.armies = [plan.kingdoms[k].armies[a].army.pk for k, a in army_keys]
        rolls.append(roll)
    _create_keeping_times(DiceRoll, rolls)

    if plan.schedule is not None:
        _create_keeping_times(CampaignSchedule, [plan.schedule])
    _create_keeping_times(Turn, [t.turn for t in plan.turns])
    _create_keeping_times(DeadlineChange, [change for t in plan.turns for change in t.changes])
    sheets = [sheet for t in plan.turns for sheet in t.sheets]
    for sheet in sheets:
        sheet.sheet.entries = _entries_with_ids(sheet.entries, plan)
        for submission, entries in sheet.submissions:
            submission.entries = _entries_with_ids(entries, plan)
    _create_keeping_times(OrderSheet, [s.sheet for s in sheets])
    _create_keeping_times(OrderSubmission, [submission for s in sheets for submission, _ in s.submissions])
    _create_keeping_times(OrdersReminder, [reminder for t in plan.turns for reminder in t.reminders])
    events = []
    for t in plan.turns:
        for event, data in t.events:
            event.data = _with_ids(data, EVENT_DATA_REFERENCES.get(event.code, {}), plan)
            events.append(event)
    _create_keeping_times(TurnEvent, events)
    battles = [battle for t in plan.turns for battle in t.battles]
    for battle in battles:
        if battle.guerrilla is not None:
            battle.battle.guerrilla = _with_ids(battle.guerrilla, GUERRILLA_REFERENCES, plan)
    _create_keeping_times(Battle, [b.battle for b in battles])
    _create_keeping_times(BattleSupport, [support for b in battles for support in b.supports])
    character_of_unit = {id(c.unit): c for a in armies for c in a.characters}
    summary_sheets = []
    for b in battles:
        for sheet, casualties, characters in b.sheets:
            sheet.casualties = [{"unit": unit.pk, **flags} for unit, flags in casualties]
            sheet.characters_lost = [
                character_of_unit[id(unit)].pk for unit in characters if id(unit) in character_of_unit
            ]
            summary_sheets.append(sheet)
    _create_keeping_times(TurnSummarySheet, summary_sheets)
    _create_keeping_times(ResultsReminder, [r for t in plan.turns for r in t.results_reminders])
    return campaign


@transaction.atomic
def campaign_import(*, document: dict[str, Any]) -> Campaign:
    """A new campaign made from a document written by `campaign_export`, with all its rows.

    Users are matched by username: an existing account is reused as it is, a missing one is
    created with an unusable password (its owner sets one through "forgot password").
    Raises DomainError listing every problem of a malformed document; nothing is saved then.
    """
    reader = _Reader()
    reader.document(document)
    if reader.errors:
        raise DomainError(reader.errors)
    try:
        with transaction.atomic():
            return _write(reader.plan)
    except IntegrityError as error:
        # A constraint the reader does not check: still refused as a whole, with the reason.
        raise DomainError(f"The document breaks a rule of the database: {error}") from error
