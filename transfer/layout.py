"""The document read from the models: each model's keys and their JSON kinds derived from its own
fields (Django's `_meta`), with a small declared layout per model saying what the fields cannot:
where its rows sit (the parent they are listed under; the order, when not the model's own Meta.ordering)
and what its JSON fields name. A foreign key names its row as its target model says (NAMED_BY: a
province by number, a kingdom by name, an army by its key, a user by username).

A field added to a model travels with no edit here: it is written under its own name, read back
by its kind, and, since a document written before it lacks it, it may be absent when the field
has a default (read as the default), may be null or is a text that may be blank; a field with none
of them is required. Every campaign model is listed here and exported, read and written by the
engine (export.py `_layout_rows`, reading.py `Reading.layout_rows`, writer.py `_write_layouts`); the
accounts (users, with their report preferences) and the map's adjacency are written by hand.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from string import Formatter
from typing import Any

from django.db import models

from .campaign_models import (
    Alliance,
    AllianceEndAnnouncement,
    ArmoryItem,
    Army,
    ArmyMovement,
    Battle,
    BattleSupport,
    Campaign,
    CampaignSchedule,
    CapturedRaider,
    Character,
    DeadlineChange,
    Delivery,
    DiceRoll,
    Email,
    ExperienceEntry,
    Kingdom,
    Message,
    MissionEffect,
    OrderSheet,
    OrdersReminder,
    OrderSubmission,
    Province,
    ReportEmail,
    ReportPreferences,
    ResultsReminder,
    RosterAdjustment,
    TombRaiderEntry,
    TombRaiderForce,
    TreasuryEntry,
    Turn,
    TurnEvent,
    TurnMap,
    TurnReport,
    TurnSummarySheet,
    Unit,
    User,
)
from .kinds import (
    BASE64,
    BOOL,
    DATE,
    INT,
    INT_LIST,
    LIST,
    NUMBER,
    OBJECT,
    STR,
    STR_LIST,
    TIME_OF_DAY,
    TIMESTAMP,
    Kind,
    is_int,
    text_of_at_most,
    time_text,
)
from .references import (
    ALLIANCE,
    ARMY,
    BATTLE,
    CHARACTER,
    EMAIL_KEY_ID,
    EVENT_DATA_REFERENCES,
    GUERRILLA_REFERENCES,
    KINGDOM,
    MISSION_DETAIL_REFERENCES,
    PROVINCE,
    REFERENCE_KINDS,
    REPORT,
    SNAPSHOT_REFERENCES,
    STREAM_ID,
    TURN,
    UNIT,
    USERNAME,
    ByIds,
    ListOf,
    Reference,
    as_of,
    effect_data_references,
)

# How the document names a row of each model a foreign key points to.
NAMED_BY: dict[Any, str] = {
    User: USERNAME,
    Province: PROVINCE,
    Kingdom: KINGDOM,
    Army: ARMY,
    Alliance: ALLIANCE,
    Character: CHARACTER,
    Unit: UNIT,
    Battle: BATTLE,
    Turn: TURN,
    TurnReport: REPORT,
}


# The rows of one list as the import read them: each with where it is and its values as the document has them.
Read = list[tuple[str, Any, Mapping[str, Any]]]
# What the import checks of the rows of one list beyond their fields: given the reader's
# `problem(where, message)` and the rows read.
Check = Callable[[Callable[[str, str], None], Read], None]


def _once(key: Callable[[Any], Any], message: str) -> Check:
    """A list's check that no two rows share `key` (None: the row is not checked), the second
    reported with `message` formatted with the row (two kingdoms of one name)."""

    def check(problem: Callable[[str, str], None], rows: Read) -> None:
        seen: set[Any] = set()
        for where, row, _ in rows:
            value = key(row)
            if value is not None and value in seen:
                problem(where, message.format(row=row))
            seen.add(value)

    return check


def _kingdom_name(row: Any) -> str | None:
    """The name of the row's kingdom; None when it has none (reported)."""
    kingdom = getattr(row, "kingdom", None)
    return None if kingdom is None else kingdom.name


@dataclass(frozen=True)
class Layout:
    """Where a model's rows sit in the document and what its fields cannot say themselves."""

    model: type[models.Model]
    # The key of the list the rows sit in, under their parent's object.
    key: str
    # The foreign key to the row they are listed under: not written (the nesting says it); none
    # ("") for the campaign itself.
    parent: str
    # The rows' order in their list, after their parent (ties broken by creation), when not the
    # model's own (its Meta.ordering after the parent: `ordering`).
    order: tuple[str, ...] | None = None
    # JSON kinds narrower than the field's own (a JSON list that holds strings).
    kinds: Mapping[str, Kind] = field(default_factory=dict)
    # The key whose value names a row in the import's messages (reminders[0] "Ostland"); the first
    # that holds a value, of several.
    label: str | tuple[str, ...] | None = None
    # Texts the site writes empty though a form would refuse them (an alliance not ended: no "how").
    blank: tuple[str, ...] = ()
    # One row or none, written as an object or null rather than a list (a turn's map).
    single: bool = False
    # The layouts of the rows listed under each row (a Tomb Raider force's entries), after its fields.
    children: tuple[Layout, ...] = ()
    # The JSON fields that hold ids (transfer/references.py), with what the ids name, or how the row's
    # values as the document has them say it (an effect's data, by its mission).
    references: Mapping[str, Reference | Callable[[Mapping[str, Any]], Reference]] = field(default_factory=dict)
    # How the export's errors name such a field of the row ("the guerrilla tactics" of the battle...).
    described: Mapping[str, str] = field(default_factory=dict)
    # What the import checks of the rows of one list beyond their fields (two entries of one name):
    # given the reader's `problem(where, message)` and the rows read, each with where it is.
    check: Check | None = None
    # How the export's errors name a row, a format string of its fields' and lookups' values (the
    # event #{sequence} ({code}) of turn {turn__number}), read in the same query as the row, or a
    # function of them.
    what: str | Callable[[Mapping[str, Any]], str] | None = None
    # The references whose problems the import reports at the row itself rather than under their key
    # (an event's kingdom and army: the event is what is wrong).
    named_at_row: tuple[str, ...] = ()
    # The JSON fields that hold a sheet's entries, read and written by the sheets' codec
    # (orders/entries.py) with names for ids (schema.ENTRY_REFERENCES).
    entries: tuple[str, ...] = ()
    # The references resolved once every kingdom is read (a character may serve a kingdom listed
    # after his army's, an item be borne by its unit): the reader's `late`.
    late: tuple[str, ...] = ()
    # Keys an older document wrote that the model no longer holds: read (their kind checked) for
    # what the reader makes of them, never written.
    retired: Mapping[str, Kind] = field(default_factory=dict)
    # Fields the document carries elsewhere, not in the row (a province's neighbours: the adjacency).
    elsewhere: tuple[str, ...] = ()
    # Keys added with a version of the document, by key: one of an earlier version has none of
    # them, and they are refused there rather than ignored (a turn's map and reports, version 3).
    added: Mapping[str, int] = field(default_factory=dict)
    # The row's natural key, as an email's key names it (EMAIL_KEY_ROWS): by the key's own keys, where
    # each value is: a key of the row ("kind"), of its parent ("^number") or grandparent ("^^number"),
    # or its place in its list ("#").
    natural: Mapping[str, str] = field(default_factory=dict)
    # The only fields written, when not all of the model's (an account's: its password, permissions and
    # logins are the site's, transfer/exceptions.py).
    only: tuple[str, ...] = ()

    # The layout of the rows they are listed under (set by that layout).
    up: Layout | None = field(default=None, init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        for child in self.children:
            object.__setattr__(child, "up", self)

    @cached_property
    def path(self) -> str:
        """The lookup from the model to its campaign (one query reads the campaign's rows): its own
        foreign key to it, else through the rows it is listed under."""
        if not self.parent:
            return "pk"  # the campaign's own row, an account
        if self.up is None or any(f.name == "campaign" for f in self.model._meta.concrete_fields):
            return "campaign"
        return self.parent if self.up.path == "pk" else f"{self.parent}__{self.up.path}"

    @cached_property
    def names(self) -> dict[str, str]:
        """How each foreign key and many-to-many field names its row: by its target model (NAMED_BY)."""
        return {f.name: NAMED_BY[f.related_model] for f in self.fields() if f.is_relation}

    @cached_property
    def ordering(self) -> tuple[str, ...]:
        """The rows' order in their list, after their parent: `order`, or the model's Meta.ordering
        without the parent and the id (a foreign key by its column: no join)."""
        if self.order is not None:
            return self.order
        meta = self.model._meta
        columns = {f.name: f.attname for f in meta.concrete_fields if f.is_relation}
        return tuple(columns.get(name, name) for name in meta.ordering if name not in (self.parent, "id", "pk"))

    def declared(self, name: str, row: Mapping[str, Any]) -> Reference:
        """What the ids of the JSON field `name` name, for `row`, as declared (with the versions, Since)."""
        found = self.references[name]
        return found(row) if callable(found) else found

    def reference(self, name: str, row: Mapping[str, Any], version: int | None = None) -> Reference:
        """What the ids of the JSON field `name` name, for `row` as a document of `version` has it (the
        current one's by default; an older one holds the ids declared since as its site wrote them:
        references.as_of)."""
        return as_of(self.declared(name, row), version)

    def what_lookups(self) -> list[str]:
        """The values `what` names that are not the row's own fields (a lookup through its parent)."""
        own = {f.attname for f in self.fields()} | {f.name for f in self.fields()}
        names = [name for _, name, _, _ in Formatter().parse(self.what if isinstance(self.what, str) else "") if name]
        return [name for name in dict.fromkeys(names) if name not in own]

    def fields(self) -> list[models.Field]:  # type: ignore[type-arg]
        """The fields written, in the order the model declares them (its many-to-many fields among
        them): all but the id and the parent."""
        meta = self.model._meta  # a model's own: a child model's (multi-table) are its parent's row's
        fields = [
            f
            for f in [*meta.local_concrete_fields, *meta.local_many_to_many]
            if not (f.primary_key or f.name == self.parent or f.name in self.elsewhere)
            and (not self.only or f.name in self.only)
        ]
        return sorted(fields, key=lambda f: f.creation_counter)

    def keys(self) -> dict[str, Kind]:
        """Every key of the model's object with the JSON kind it holds, its children's last."""
        return {f.name: self.kind(f) for f in self.fields()} | {
            child.key: OBJECT.or_null() if child.single else LIST for child in self.children
        }

    def optional(self) -> tuple[str, ...]:
        """The keys a document may lack: those of fields with a default or that may be null (a
        document written before the field was added is read with the default, or null), or texts that
        may be blank (read as ""), many-to-many (none), and the children's (a document written before
        their model has none)."""
        return (
            *(f.name for f in self.fields() if may_lack(f)),
            *(child.key for child in self.children),
        )

    def empty(self) -> Any:
        """What the document holds when there is no row: null for a single row, else an empty list."""
        return None if self.single else []

    def family(self) -> tuple[Layout, ...]:
        """This layout and its children's, parents first (the order the writer creates them in)."""
        return (self, *(layout for child in self.children for layout in child.family()))

    def kind(self, field: models.Field) -> Kind:  # type: ignore[type-arg]
        if field.many_to_many:
            return self.kinds.get(field.name, LIST)  # each row it names, named as `names` says
        kind = self.kinds.get(field.name) or (
            REFERENCE_KINDS[self.names[field.name]] if field.is_relation else field_kind(field)
        )
        return kind.or_null() if field.null else kind


def may_lack(field: models.Field) -> bool:  # type: ignore[type-arg]
    """Whether a document may lack the field's key: read with its default, null, none or blank."""
    blank_text = field.blank and isinstance(field, models.CharField | models.TextField)
    return bool(field.has_default() or field.null or field.many_to_many or blank_text)


def as_text(field: models.Field) -> bool:  # type: ignore[type-arg]
    """Whether the field is written as text: a time as ISO 8601, bytes as base64."""
    return isinstance(field, models.DateField | models.TimeField | models.BinaryField)


def field_kind(field: models.Field) -> Kind:  # type: ignore[type-arg]
    """The JSON kind a model field is written as."""
    if isinstance(field, models.BooleanField):
        return BOOL
    if isinstance(field, models.IntegerField):
        return INT
    if isinstance(field, models.FloatField):
        return NUMBER
    if isinstance(field, models.DateTimeField):
        return TIMESTAMP
    if isinstance(field, models.TimeField):
        return TIME_OF_DAY
    if isinstance(field, models.DateField):
        return DATE
    if isinstance(field, models.BinaryField):
        return BASE64
    if isinstance(field, models.JSONField):
        return LIST if field.default is list else OBJECT
    if isinstance(field, models.CharField) and field.max_length:
        return text_of_at_most(field.max_length)
    if isinstance(field, models.CharField | models.TextField):
        return STR
    raise TypeError(f"The document has no JSON kind for {field.model._meta.label}.{field.name} ({field!r})")


# A kingdom's ledger, in turn order.
TREASURY = Layout(TreasuryEntry, "treasury", "kingdom")
# An army's lists: where it went, its experience ledger, what it bought and the organizer's corrections.


MOVEMENTS = Layout(
    ArmyMovement,
    "movements",
    "army",
    check=_once(lambda row: (row.turn, row.step), "turn {row.turn} step {row.step} appears twice."),
)
EXPERIENCE_LEDGER = Layout(ExperienceEntry, "experience_ledger", "army")
DELIVERIES = Layout(Delivery, "deliveries", "army", order=())  # by creation, not by arrival
ROSTER_ADJUSTMENTS = Layout(
    RosterAdjustment,
    "roster_adjustments",
    "army",
    kinds={"changes": STR_LIST},
)


def _units_checked(problem: Callable[[str, str], None], units: Read) -> None:
    for where, unit, _ in units:
        if is_int(unit.veteran_level) and unit.veteran_level > 3:
            problem(where, "the veteran level is at most 3.")


# An army's units in their order (a bearer, a character, names a unit by its place in the list),
# each with its character (null for none), who serves a kingdom by name.
UNITS = Layout(
    Unit,
    "units",
    "army",
    label="name",
    check=_units_checked,
    children=(
        Layout(
            Character,
            "character",
            "unit",
            kinds={"abilities": STR_LIST},
            single=True,
            what="the character {unit__name}",
            named_at_row=("kingdom",),
            late=("kingdom",),
        ),
    ),
)
ARMY_CHILDREN = (MOVEMENTS, UNITS, EXPERIENCE_LEDGER, DELIVERIES, ROSTER_ADJUSTMENTS)


# A kingdom's armies (an army key names one by [kingdom name, army name]), with their lists. Written
# before issue 13, read and no longer written: `pending_losses` (the reader's Reader.army_read).
ARMIES = Layout(
    Army,
    "armies",
    "kingdom",
    label="name",
    check=_once(lambda row: (row.name,), '{row.kingdom.name} has two armies called "{row.name}".'),
    children=ARMY_CHILDREN,
    what="the army {name}",
    named_at_row=("province",),
    retired={"pending_losses": INT},
)


def _raider_entries_checked(problem: Callable[[str, str], None], entries: Read) -> None:
    """A Tomb Raider force's entries: models enough for those out of action, a name each."""
    names: list[str] = []
    for where, entry, _ in entries:
        counts = (entry.out_of_action, entry.models_count)
        if all(is_int(n) for n in counts) and counts[0] > counts[1]:
            problem(where, "more models out of action than the entry has.")
        if isinstance(entry.name, str):
            if entry.name.strip().lower() in names:
                problem(where, f'two entries are called "{entry.name}".')
            names.append(entry.name.strip().lower())


# A kingdom's Tomb Raider force (null when it has none): its entries in their order.
TOMB_RAIDERS = Layout(
    TombRaiderForce,
    "tomb_raiders",
    "kingdom",
    single=True,
    children=(
        Layout(
            TombRaiderEntry,
            "entries",
            "force",
            label="name",
            check=_raider_entries_checked,
        ),
    ),
)


def _armory_checked(problem: Callable[[str, str], None], items: Read) -> None:
    names: list[str] = []
    for where, item, _ in items:
        if item.common is False and isinstance(item.name, str):
            # The database keeps one of each magic item per kingdom, whatever the case.
            if item.name.lower() in names:
                problem(where, f'the magic item "{item.name}" is already in the armory.')
            names.append(item.name.lower())


# A kingdom's armory by name, each item with the unit bearing it (null for none), which may be
# another kingdom's (resolved once every kingdom is read).
ARMORY = Layout(
    ArmoryItem,
    "armory",
    "kingdom",
    check=_armory_checked,
    what="{name}",
    late=("bearer",),
)
KINGDOM_CHILDREN = (TREASURY, ARMIES, ARMORY, TOMB_RAIDERS)
# A turn's lists: its deadline changes in time order (an email's key names one by its place), the
# kingdoms reminded of their orders and of their results (one each).
IN_THEIR_TURN = {"turn": "^number"}  # a natural key's turn, by its number
DEADLINE_CHANGES = Layout(
    DeadlineChange,
    "deadline_changes",
    "turn",
    natural={**IN_THEIR_TURN, "change": "#"},
)


ORDERS_REMINDERS = Layout(
    OrdersReminder,
    "reminders",
    "turn",
    ("kingdom_id",),
    label="kingdom",
    check=_once(_kingdom_name, "{row.kingdom.name} is reminded twice for this turn."),
    natural={**IN_THEIR_TURN, "kingdom": "kingdom"},
)
RESULTS_REMINDERS = Layout(
    ResultsReminder,
    "results_reminders",
    "turn",
    ("kingdom_id",),
    label="kingdom",
    natural={**IN_THEIR_TURN, "kingdom": "kingdom"},
)
# The public map the turn ended with (null before), the picture for the PDFs in base64.
TURN_MAP = Layout(TurnMap, "map", "turn", single=True)


def _alliance_ends_checked(problem: Callable[[str, str], None], announcements: Read) -> None:
    """Allies, Announcement: a kingdom announces the end of one alliance of its own in a turn."""
    announced: set[str] = set()
    for where, announcement, _ in announcements:
        kingdom, alliance = getattr(announcement, "kingdom", None), getattr(announcement, "alliance", None)
        if kingdom is None or alliance is None:
            continue  # reported
        if kingdom.name in announced:
            problem(where, f"{kingdom.name} announces the end of an alliance twice in this turn.")
        announced.add(kingdom.name)
        if kingdom.name not in {getattr(getattr(alliance, side, None), "name", None) for side in ("first", "second")}:
            problem(where, f"the alliance is not one of {kingdom.name}'s in the document's alliances.")


# Allies, Announcement: the kingdoms that announced the end of an alliance during the turn's End of Turn.
ALLIANCE_ENDS = Layout(
    AllianceEndAnnouncement,
    "alliance_end_announcements",
    "turn",
    label="kingdom",
    check=_alliance_ends_checked,
)


def _events_checked(problem: Callable[[str, str], None], events: Read) -> None:
    """The turn's record is read in order: each sequence once, ascending."""
    previous: int | None = None
    for where, event, _ in events:
        if not is_int(event.sequence):
            continue  # reported
        if previous is not None and event.sequence <= previous:
            problem(
                where,
                f"sequence {event.sequence} should come after {previous}: "
                "the events are listed in sequence order, each sequence once.",
            )
        previous = event.sequence


# What the turn's resolution and aftermath recorded, in sequence order: the kingdom and army each
# names, its data with names for the ids its code keeps there (references.py EVENT_DATA_REFERENCES).
EVENTS = Layout(
    TurnEvent,
    "events",
    "turn",
    references={"data": lambda row: EVENT_DATA_REFERENCES.get(row.get("code", ""), {})},
    label="code",
    check=_events_checked,
    what="the event #{sequence} ({code}) of turn {turn__number}",
    named_at_row=("kingdom", "army"),
)


# The kingdoms' order sheets, one a kingdom, each with what was submitted in time order (an email's
# key names a submission by its place), their entries as the sheets' codec writes them.
SHEETS = Layout(
    OrderSheet,
    "sheets",
    "turn",
    label="kingdom",
    check=_once(_kingdom_name, "{row.kingdom.name} has two order sheets for this turn."),
    what="the order sheet of {kingdom__name} for turn {turn__number}",
    entries=("entries",),
    children=(
        Layout(
            OrderSubmission,
            "submissions",
            "sheet",
            kinds={"warnings": STR_LIST},
            what="a submission of the order sheet of {sheet__kingdom__name} for turn {sheet__turn__number}",
            entries=("entries",),
            natural={"turn": "^^number", "kingdom": "^kingdom", "submission": "#"},
        ),
    ),
)


def _turns_checked(problem: Callable[[str, str], None], turns: Read) -> None:
    numbers: set[Any] = set()
    for where, turn, _ in turns:
        if turn.number in numbers:
            problem(where, f"turn {turn.number} appears twice.")
        numbers.add(turn.number)
        orders, results = turn.orders_deadline, turn.results_deadline
        if orders is not None and results is not None and results <= orders:
            problem(where, "the results deadline must come after the orders deadline.")


# The armies that support a battle.
SUPPORTS = Layout(BattleSupport, "supports", "battle")
# A casualty of a turn summary sheet: its unit by place (as an item's bearer) and what it lost.
CASUALTY_KEYS = {
    "unit": REFERENCE_KINDS[UNIT],
    "models_lost": INT,
    "champion": BOOL,
    "standard": BOOL,
    "musician": BOOL,
    "one_use_used": BOOL,
}
# Each kingdom's turn summary sheet of a battle: the units and characters it names by their unit's
# place, the armies by their keys (its rerolls on the Character Injury Chart, kept by character id,
# are written as a list: each character by his unit, with his reroll).
SUMMARY_SHEETS = Layout(
    TurnSummarySheet,
    "summary_sheets",
    "battle",
    kinds={"injury_rerolls": LIST},
    references={
        "casualties": ListOf({"unit": UNIT}, keys=CASUALTY_KEYS),
        "characters_lost": ListOf(CHARACTER),
        "injury_rerolls": ByIds(CHARACTER, "character", "reroll"),
        "support_withdrawn": ListOf(ARMY),
        "depots_captured": ListOf({"army": ARMY, "by": ARMY}),
        "carts_recaptured": ListOf(ARMY),
    },
    label="kingdom",
    named_at_row=("kingdom",),
    what="the turn summary sheet of {kingdom__name} for the battle in province {battle__province__number} "
    "of turn {battle__turn__number}",
)
# A turn's battles by province (a report or an email's key names one by its place in the list), the
# armies and kingdoms on each side, what its JSON names by army key and character's unit (its guerrilla
# tactics, its mission, its Old Battle Wound rolls), with its supports and summary sheets.
BATTLES = Layout(
    Battle,
    "battles",
    "turn",
    references={
        "mission_detail": MISSION_DETAIL_REFERENCES,
        "guerrilla": GUERRILLA_REFERENCES,
        "old_wounds": ListOf({"character": CHARACTER, "army": ARMY}),
    },
    described={"guerrilla": "the guerrilla tactics", "mission_detail": "the mission"},
    label="province",
    named_at_row=("province",),
    what="the battle in province {province__number} of turn {turn__number}",
    children=(SUPPORTS, SUMMARY_SHEETS),
    natural={**IN_THEIR_TURN, "battle": "#"},
)


def _reports_checked(problem: Callable[[str, str], None], reports: Read) -> None:
    """What the database's check constraint asks, said in words before it refuses; one report of each."""
    subjects = {"kingdom": (True, False), "bulletin": (False, False), "scenario": (False, True)}
    seen: set[tuple[Any, ...]] = set()
    for where, report, values in reports:
        named = (values.get("kingdom") is not None, values.get("battle") is not None)
        if subjects.get(report.kind, named) != named:
            problem(
                where,
                "a kingdom report names its kingdom and no battle, a bulletin neither, a scenario sheet its battle "
                "and no kingdom.",
            )
        key = (values.get("kind"), values.get("kingdom"), values.get("battle"))
        if key in seen:
            problem(where, "the turn has this report twice.")
        seen.add(key)


# What the end of the turn made of it: the kingdoms' reports, the bulletin and the battles' scenario
# sheets (a battle by its place in the turn's list), by kind, then kingdom, then battle, each with its
# PDF; a report's snapshot keeps its kingdom's armies by army key.
REPORTS = Layout(
    TurnReport,
    "reports",
    "turn",
    order=("kind", "kingdom_id", "battle__province__number", "battle_id"),
    references={"snapshot": SNAPSHOT_REFERENCES},
    described={"snapshot": "the snapshot"},
    label=("kingdom", "kind"),
    check=_reports_checked,
    what="the {kind} report of turn {turn__number}",
    named_at_row=("kingdom", "battle"),
    natural={**IN_THEIR_TURN, "kind": "kind", "kingdom": "kingdom", "battle": "battle"},
)
# A turn's lists; its reports after its battles, which they name by place.
TURN_CHILDREN = (
    DEADLINE_CHANGES,
    SHEETS,
    ORDERS_REMINDERS,
    RESULTS_REMINDERS,
    EVENTS,
    BATTLES,
    ALLIANCE_ENDS,
    TURN_MAP,
    REPORTS,
)


# The campaign's turns by number (an email's key names a turn by its number), with their lists.
TURNS = Layout(
    Turn,
    "turns",
    "campaign",
    label="number",
    check=_turns_checked,
    children=TURN_CHILDREN,
    added={"map": 3, "reports": 3},
    what="turn {number}",
    natural={"turn": "number"},
)
# The campaign's own lists, at the top of the document: its alliances in the order formed (an
# announcement of an alliance's end names it by its place) and the Tomb Raiders captured (a sheet's
# captive orders name them by place, issue 32).
ALLIANCES = Layout(
    Alliance,
    "alliances",
    "campaign",
    blank=("ended_how",),
)
CAPTIVES = Layout(
    CapturedRaider,
    "captives",
    "campaign",
    label="entry",
)


def _provinces_checked(problem: Callable[[str, str], None], provinces: Read) -> None:
    numbers: set[Any] = set()
    for where, province, _ in provinces:
        if province.razed is True and province.fortified is True:
            problem(where, "a province cannot be both razed and fortified.")
        if province.number in numbers:
            problem(where, f"province {province.number} appears twice.")
        numbers.add(province.number)


# The map's provinces by number (the document names a province by its number), each with the
# kingdom controlling it (resolved once every kingdom is read); their neighbours are the document's
# "adjacency".
PROVINCES = Layout(
    Province,
    "provinces",
    "campaign",
    label="number",
    check=_provinces_checked,
    what="province {number}",
    late=("controller",),
    elsewhere=("neighbours",),
)


# The kingdoms (a kingdom is named by its name), their players by username, their capitol by number,
# with their ledger, armies, armory and Tomb Raiders (the reader's Reader.kingdom_read).
KINGDOMS = Layout(
    Kingdom,
    "kingdoms",
    "campaign",
    kinds={"players": STR_LIST},
    label="name",
    check=_once(lambda row: (row.name,), 'there are two kingdoms called "{row.name}".'),
    what="the kingdom {name}",
    children=KINGDOM_CHILDREN,
)
# The orders app's schedule (null while the campaign has none: the rulebook's is made on first use).
SCHEDULE = Layout(CampaignSchedule, "schedule", "campaign", single=True)


def _messages_checked(problem: Callable[[str, str], None], messages: Read) -> None:
    for where, message, _ in messages:
        if (getattr(message, "sender_kingdom", None) is None) != bool(message.announcement):
            problem(where, "a message is the organizer's announcement or written by a kingdom, never both.")


# Diplomacy (issue 37): the messages between kingdoms and the organizer's announcements, oldest first,
# each to the kingdoms named in its recipients.
MESSAGES = Layout(
    Message,
    "messages",
    "campaign",
    order=("sent_at",),
    check=_messages_checked,
)
# Reconnaissance and Sabotage (issue 32): the effects earned, in the order earned (a sheet's
# mission_uses name them by place), the army and character each names, its data with names for ids.
MISSION_EFFECTS = Layout(
    MissionEffect,
    "mission_effects",
    "campaign",
    references={"data": lambda row: effect_data_references(row.get("mission", ""))},
    label="mission",
)
# The campaign's dice rolls by turn, ties broken by creation: the kingdoms and armies they rolled for
# by name and army key, their stream as written, but for one that holds ids (references.py).
DICE_ROLLS = Layout(
    DiceRoll,
    "dice_rolls",
    "campaign",
    kinds={"stream": REFERENCE_KINDS[STREAM_ID], "faces": INT_LIST, "kingdoms": STR_LIST, "armies": LIST},
    references={"stream": STREAM_ID, "kingdoms": ListOf(KINGDOM), "armies": ListOf(ARMY)},
    what="the dice roll '{purpose}' (turn {turn}, {stream} #{sequence})",
)


def _emails_checked(problem: Callable[[str, str], None], emails: Read) -> None:
    keys: set[str] = set()
    for where, _, values in emails:
        key = values.get("key")
        if isinstance(key, dict):
            identity = repr(sorted((name, repr(value)) for name, value in key.items()))
            if identity in keys:
                problem(where, "another email has the same key: queuing twice sends once.")
            keys.add(identity)


def _email_what(email: Mapping[str, Any]) -> str:
    return f"the {email['kind']} email to {', '.join(email['to'])} queued at {time_text(email['created_at'])}"


# Every email of the campaign (outbox.Email: invitations, receipts, announcements, reminders, the
# reports'), in the order queued, as it was rendered and as far as its delivery went: its turn by
# number, its key naming the row it was queued for by natural key (references.EMAIL_KEY_ID), the
# texts of one never rendered (carried over from before the outbox) empty; a report's email with its
# report part (reports.ReportEmail, the same row: its report by natural key, its reader by username).
EMAILS = Layout(
    Email,
    "emails",
    "campaign",
    order=("created_at",),
    kinds={"to": STR_LIST, "key": OBJECT.or_null()},
    references={"key": EMAIL_KEY_ID},
    label="kind",
    blank=("subject", "text", "html"),
    check=_emails_checked,
    what=_email_what,
    children=(
        Layout(
            ReportEmail,
            "report_email",
            "email_ptr",
            single=True,
        ),
    ),
)
CAMPAIGN_CHILDREN = (ALLIANCES, CAPTIVES, MISSION_EFFECTS, SCHEDULE, MESSAGES)
# The campaign's own row, the document's "campaign": its organizer by username. Its lists sit at the
# top of the document beside it (CAMPAIGN_CHILDREN, PROVINCES, KINGDOMS, TURNS), read and written by
# their own layouts.
CAMPAIGN = Layout(Campaign, "campaign", "", single=True, what="the campaign")
# Every model the engine carries.
LAYOUTS = tuple(
    layout
    for top in (CAMPAIGN, PROVINCES, KINGDOMS, DICE_ROLLS, TURNS, EMAILS, *CAMPAIGN_CHILDREN)
    for layout in top.family()
)
# The layout whose rows' ids an email's key may hold ("<prefix>:<id>", or a report's email's
# "report:<id>:<address>"), by prefix, as the services write them; the document names the row by its
# natural key (Layout.natural), and the import writes the key again with the copy's id.
EMAIL_KEY_ROWS: dict[str, Layout] = {
    "report": REPORTS,  # reports/services/deliveries.py
    "orders-receipt": SHEETS.children[0],  # orders/services/emails.py: a submission, by its place in its sheet
    "deadline-change": DEADLINE_CHANGES,  # orders/services/emails.py
    "orders-reminder": ORDERS_REMINDERS,  # orders/services/reminders.py (one per kingdom and turn)
    "results-reminder": RESULTS_REMINDERS,  # battles/services/reminders.py (one per kingdom and turn)
    "orders-held": TURNS,  # orders/services/emails.py: orders-held:<turn>:<its orders deadline>
    "phase-failed": TURNS,  # turns/services/failures.py: phase-failed:<turn>:<status>:<since>
    # battles/services/rulings.py: battle-disagreement:<battle>:<digest>, battle-ruling:<battle>:<digest>
    "battle-disagreement": BATTLES,
    "battle-ruling": BATTLES,
}
# Each layout's parent layout (a child's natural key may name its parent's keys).


def natural_kinds(layout: Layout) -> dict[str, Kind]:
    """The keys of `layout`'s natural key with the JSON kind each holds."""
    kinds: dict[str, Kind] = {}
    for name, source in layout.natural.items():
        owner = layout
        for _ in range(source.count("^")):
            owner = owner.up
        kinds[name] = INT if source == "#" else owner.keys()[source.lstrip("^")]
    return kinds


# The accounts the campaign's rows name (its organizer, players, whoever changed a deadline, ruled a
# battle, was sent a report...), by username: their names and address, and their report preferences
# (kingdoms.ReportPreferences, null when never set), which are the account's and travel with it. Not
# among LAYOUTS: accounts are the site's (the import reuses an existing one as it is).
PREFERENCES = Layout(ReportPreferences, "report_preferences", "user", single=True)
USERS = Layout(
    User,
    "users",
    "",
    order=("username",),
    label="username",
    only=("username", "first_name", "last_name", "email"),
    children=(PREFERENCES,),
    added={"report_preferences": 3},
)
# The document's top level after its format and version, in its order: each layout's rows (the
# campaign's object, the others' lists or a single row), and the adjacency (the provinces' neighbours,
# a shape of its own: None) after the provinces. schema.TOP_KEYS is read from it.
DOCUMENT: tuple[Layout | None, ...] = (
    CAMPAIGN,
    USERS,
    PROVINCES,
    None,
    KINGDOMS,
    DICE_ROLLS,
    SCHEDULE,
    TURNS,
    EMAILS,
    ALLIANCES,
    MISSION_EFFECTS,
    CAPTIVES,
    MESSAGES,
)
