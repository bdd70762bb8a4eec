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
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from typing import Any, TypeVar

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db import IntegrityError, models, transaction

from briternia.errors import DomainError

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
VERSION = 1

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


STR = _Kind("a string", lambda v: isinstance(v, str))
INT = _Kind("an integer", _is_int)
BOOL = _Kind("true or false", lambda v: isinstance(v, bool))
LIST = _Kind("a list", lambda v: isinstance(v, list))
OBJECT = _Kind("an object", lambda v: isinstance(v, dict))
TIMESTAMP = _Kind("an ISO 8601 time with its UTC offset", _is_timestamp, read=datetime.fromisoformat)
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


def _plain(model: type[models.Model], keys: Mapping[str, _Kind], *, translated: Iterable[str] = ()) -> list[str]:
    """The keys that hold one of `model`'s own fields as it is: not a reference by natural key,
    a child list, or a time (written as ISO text)."""
    own = {f.name for f in model._meta.concrete_fields if not f.is_relation} - {"created_at", *translated}
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


# ---------------------------------------------------------------------------------------------
# Export


def _timestamp(value: datetime) -> str:
    # Always UTC, so the same instant is written the same way whatever the database returns.
    return value.astimezone(UTC).isoformat()


def _row(keys: Mapping[str, _Kind], fields: list[str], instance: models.Model, **others: Any) -> dict[str, Any]:
    """One object of the document: `instance`'s plain `fields` and the `others` (references by
    natural key, child lists, times), in the order of `keys`, the spec the import reads."""
    values = {**{name: getattr(instance, name) for name in fields}, **others}
    return {key: values[key] for key in keys}


K = TypeVar("K")
V = TypeVar("V")


def _inside(mapping: Mapping[K, V], key: K, what: str) -> V:
    """`mapping[key]`, or a DomainError when a row points outside the campaign (a stale id)."""
    if key not in mapping:
        raise DomainError(f"The campaign cannot be exported: {what} refers to something outside the campaign ({key}).")
    return mapping[key]


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
    users = {campaign.organizer.username: campaign.organizer}
    users.update({user.username: user for kingdom in kingdoms for user in kingdom.players.all()})

    def number(province_id: int | None, what: str) -> int | None:
        return None if province_id is None else _inside(number_of, province_id, what)

    def kingdom_name(kingdom_id: int | None, what: str) -> str | None:
        return None if kingdom_id is None else _inside(name_of, kingdom_id, what)

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
            created_at=_timestamp(kingdom.created_at),
            players=sorted(user.username for user in kingdom.players.all()),
            capitol=number(kingdom.capitol_id, kingdom.name),
            treasury=[
                _row(TREASURY_KEYS, TREASURY_FIELDS, entry, created_at=_timestamp(entry.created_at))
                for entry in kingdom.ledger.order_by("turn", "id")
            ],
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
            created_at=_timestamp(roll.created_at),
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
            created_at=_timestamp(campaign.created_at),
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

    def keys(self, data: Any, where: str, spec: Mapping[str, _Kind]) -> dict[str, Any] | None:
        """The keys of `spec` found in `data` with the right JSON type (None if `data` is no object).

        Missing, mistyped and unknown keys are reported. An unknown key is refused rather than
        ignored: a misspelt key would otherwise lose its value silently."""
        if not isinstance(data, dict):
            self.problem(where, f"expected an object, found {data!r:.40}.")
            return None
        found: dict[str, Any] = {}
        for key, kind in spec.items():
            if key not in data:
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
        ranges, time zone names)."""
        instance = model(**{name: values[name] for name in names if name in values}, **relations)
        if "created_at" in values:
            instance.created_at = values["created_at"]
        # Relations are resolved by the reader; keys already reported are not reported again.
        exclude = _relations(model) | {name for name in names if name not in values}
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
        if document.get("version") != VERSION:
            found = f"is {document['version']!r}" if "version" in document else "is missing"
            self.problem("", f"The document's version {found}: this site reads version {VERSION}.")
            return
        top = self.keys(document, "The document", TOP_KEYS)
        assert top is not None  # a dict, checked above
        self.users(top.get("users", []))
        self.campaign(top.get("campaign", {}))
        self.provinces(top.get("provinces", []))
        self.adjacency(top.get("adjacency", []))
        self.kingdoms(top.get("kingdoms", []))
        self.dice_rolls(top.get("dice_rolls", []))
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
            values = self.keys(row, where, PROVINCE_KEYS)
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
        values = self.keys(data, where, UNIT_KEYS)
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

    def unreferenced_users(self) -> None:
        used = {self.plan.organizer} | {name for k in self.plan.kingdoms.values() for name in k.players}
        for username in sorted(set(self.plan.users) - used):
            # Importing them would only create stray accounts.
            self.problem(f'users "{username}"', "neither the organizer nor a player of any kingdom.")


M = TypeVar("M", bound=models.Model)


def _create_keeping_created_at(model: type[M], rows: list[M]) -> None:
    """Create `rows` with the creation times they carry: auto_now_add stamps the time of the
    import on create, and bulk_update writes the values as they are."""
    stamps = [row.created_at for row in rows]  # type: ignore[attr-defined]
    model._default_manager.bulk_create(rows)
    for row, stamp in zip(rows, stamps, strict=True):
        row.created_at = stamp  # type: ignore[attr-defined]
    model._default_manager.bulk_update(rows, ["created_at"])


def _write(plan: _Plan) -> Campaign:
    """Create the rows of a plan that read without problems, parents before children."""
    campaign = plan.campaign
    assert campaign is not None  # a document without a readable campaign has problems
    for user in plan.users.values():
        if user.pk is None:
            user.save()
    campaign.organizer = plan.users[plan.organizer]
    _create_keeping_created_at(Campaign, [campaign])

    Province.objects.bulk_create(plan.provinces.values())
    Through = Province.neighbours.through
    Through.objects.bulk_create(
        # Stored both ways, as campaign_create stores a map's adjacency.
        Through(from_province_id=plan.provinces[a].pk, to_province_id=plan.provinces[b].pk)
        for pair in sorted(plan.adjacency)
        for a, b in (pair, pair[::-1])
    )

    kingdoms = list(plan.kingdoms.values())
    _create_keeping_created_at(Kingdom, [k.kingdom for k in kingdoms])
    Players = Kingdom.players.through
    Players.objects.bulk_create(
        Players(kingdom_id=k.kingdom.pk, user_id=plan.users[username].pk) for k in kingdoms for username in k.players
    )
    for number, name in plan.controllers.items():
        plan.provinces[number].controller = plan.kingdoms[name].kingdom
    Province.objects.bulk_update([plan.provinces[number] for number in plan.controllers], ["controller"])
    _create_keeping_created_at(TreasuryEntry, [entry for k in kingdoms for entry in k.treasury])

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
    _create_keeping_created_at(DiceRoll, rolls)
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
