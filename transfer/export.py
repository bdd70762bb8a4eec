"""The export: a campaign as one JSON-ready document, each model's rows as its layout says (layout.py).

Every list is in a fixed order (the models' own orderings, ties broken by creation), so
exporting the same campaign twice gives the same JSON; the import creates rows in document
order, so exporting an imported campaign gives back the document it came from.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, TypeVar

from django.db import transaction
from django.db.models import Q

from briternia.errors import DomainError
from orders.entries import SECTIONS, SheetCodecError, sheet_json_checked

from .campaign_models import (
    Army,
    Campaign,
    Character,
    Email,
    Province,
    Unit,
    User,
)
from .codec import NAMING, Codec, codec
from .kinds import is_int, time_text
from .layout import (
    CAMPAIGN_CHILDREN,
    CAPTIVES,
    DOCUMENT,
    EMAIL_KEY_ROWS,
    MISSION_EFFECTS,
    REPORTS,
    TURNS,
    USERS,
    Layout,
)
from .references import (
    KINGDOM,
    PROVINCE,
    STREAM_REFERENCES,
    USERNAME,
    Reference,
    email_key_parts,
    stream_ids,
    stream_shape,
    translated,
)
from .schema import (
    ENTRY_REFERENCES,
    FORMAT,
    TOP_KEYS,
    VERSION,
)

K = TypeVar("K")
V = TypeVar("V")


@transaction.atomic
def campaign_export(*, campaign: Campaign) -> dict[str, Any]:
    """The whole campaign as a JSON-ready dict (see transfer/__init__.py for its shape).

    Deterministic: the same campaign state always gives an equal document. Raises DomainError
    when a row refers to something outside the campaign (a dice roll naming a deleted army)
    rather than write a document that would not import.
    """
    # One transaction, so the document is one consistent state of the campaign.
    campaign = Campaign.objects.select_related("organizer").get(pk=campaign.pk)
    names = _names(campaign)
    _strays(campaign)

    def rows(layout: Layout) -> Any:
        # Each table read once for the campaign, its rows grouped by their parent in Python.
        return _layout_rows(layout, campaign, names).get(campaign.pk, layout.empty())

    # The campaign's own lists first (a sheet names an effect and a captive, an announcement an
    # alliance, by its place in them: _Names.place), then the rest in the document's order (an
    # email's key names a turn's rows).
    written: dict[str, Any] = {layout.key: rows(layout) for layout in CAMPAIGN_CHILDREN}
    for layout in DOCUMENT:
        if layout is not None and layout is not USERS and layout.key not in written:
            written[layout.key] = rows(layout)
    written[USERS.key] = _users_section(campaign, names)  # the accounts the rows written name
    written["adjacency"] = _adjacency_section(campaign, names)
    return {"format": FORMAT, "version": VERSION} | {key: written[key] for key in TOP_KEYS if key in written}


# ---------------------------------------------------------------------------------------------
# Rows, and the campaign's natural keys by database id


def _layout_rows(layout: Layout, campaign: Campaign, names: _Names, among: set[Any] | None = None) -> dict[int, Any]:
    """The campaign's rows of `layout`'s model as the document writes them, with their children, by
    the id of the row they are listed under: each a list in its order, or for a single row, the
    row or null; or the rows whose `layout.path` is `among`, with theirs (the accounts). One query
    per model, whatever the campaign's size."""
    row_codec = codec(layout)
    children = {child.key: _layout_rows(child, campaign, names, among) for child in layout.children}
    many = {f.name: _many_to_many(layout, f, campaign, names) for f in row_codec.many}
    parent = f"{layout.parent}_id" if layout.parent else "pk"  # the campaign's row, an account: by its own id
    within = {layout.path: campaign.pk} if among is None else {f"{layout.path}__in": among}
    rows = (
        layout.model._base_manager.filter(**within)
        .order_by(*([parent] if layout.parent else []), *layout.ordering, "id")
        .values_list(parent, "pk", *row_codec.lookups, *row_codec.columns)
    )
    keys, start, reference = row_codec.keys, 2 + len(row_codec.lookups), names.reference
    grouped: dict[int, list[dict[str, Any]]] = {}
    written = names.rows.setdefault(id(layout), {})
    usernames = [keys.index(key) for key in row_codec.usernames]
    for found in rows:
        parent_id, pk = found[0], found[1]
        row = dict(zip(keys, found[start:], strict=True))
        for index in usernames:
            names.usernames.add(found[start + index])
        what = _What(row_codec, found)  # formatted only for an error
        for key, kind in row_codec.named:
            row[key] = reference(kind, row[key], what)
        for key, text in row_codec.as_text:
            row[key] = text(row[key])
        for name in layout.references:
            row[name] = names.with_names(row[name], layout.declared(name, row), _What(row_codec, found, name))
        for name in layout.entries:
            row[name] = names.entries(row[name], what)
        if row_codec.order is not None:  # a many-to-many field among the others: the model's order
            row = {key: row[key] if key in row else many[key].get(pk, []) for key in row_codec.order}
        for child in layout.children:
            row[child.key] = children[child.key].get(pk, child.empty())
        group = grouped.setdefault(parent_id, [])
        # What names the row later (a report its battle, an email's key its row): its place and values.
        written[pk] = (parent_id, len(group), row)
        group.append(row)
    if layout.single:
        return {parent_id: found[0] for parent_id, found in grouped.items()}
    return grouped


def _many_to_many(layout: Layout, field: Any, campaign: Campaign, names: _Names) -> dict[int, list[Any]]:
    """A many-to-many field's rows as the document names them (sorted), by the id of the row naming them."""
    source, target = field.m2m_field_name(), field.m2m_reverse_field_name()
    pairs = field.remote_field.through.objects.filter(**{f"{source}__{layout.path}": campaign.pk})
    what = f"a row of {layout.model._meta.verbose_name_plural} ({field.name})"
    found: dict[int, list[Any]] = {}
    how = layout.names[field.name]
    # A user by username (the join reads it), any other row by its id, named as `names` says.
    column = f"{target}__username" if how == USERNAME else f"{target}_id"
    for row_id, named_id in pairs.values_list(f"{source}_id", column):
        if how == USERNAME:
            names.usernames.add(named_id)
        found.setdefault(row_id, []).append(named_id if how == USERNAME else names.reference(how, named_id, what))
    return {row_id: sorted(named) for row_id, named in found.items()}


class _Keyed:
    """A JSON field's key, in an export's error: '<what> ("<key>")', written only for an error."""

    def __init__(self, what: object, key: str) -> None:
        self.what, self.key = what, key

    def __str__(self) -> str:
        return f'{self.what} ("{self.key}")'


class _What:
    """How the export's errors name a row (Layout.what, from the values read), or one of its JSON
    fields (Layout.described): formatted only when an error is written."""

    __slots__ = ("row_codec", "found", "field")

    def __init__(self, row_codec: Codec, found: tuple[Any, ...], field: str | None = None) -> None:
        self.row_codec, self.found, self.field = row_codec, found, field

    def __str__(self) -> str:
        row_codec, layout = self.row_codec, self.row_codec.layout
        start = 2 + len(row_codec.lookups)
        values = dict(zip(row_codec.keys, self.found[start:], strict=True))
        values |= dict(zip(row_codec.lookups, self.found[2:start], strict=True))
        if callable(layout.what):
            what = layout.what(values)
        elif layout.what is None:
            what = f"a row of {layout.model._meta.verbose_name_plural}"
        else:
            what = layout.what.format(**values)
        described = None if self.field is None else layout.described.get(self.field)
        return what if described is None else f"{described} of {what}"


def _inside(mapping: Mapping[K, V], key: K, what: object) -> V:
    """`mapping[key]`, or a DomainError when a row points outside the campaign (a stale id)."""
    if key not in mapping:
        raise DomainError(f"The campaign cannot be exported: {what} refers to something outside the campaign ({key}).")
    return mapping[key]


def _id_inside(mapping: Mapping[int, V], value: Any, what: object) -> V:
    """`mapping[value]` for an id found in stored JSON, which may hold anything: a DomainError
    unless it is the id of a row of the campaign."""
    if not is_int(value):
        raise DomainError(f"The campaign cannot be exported: {what} holds {value!r:.40} where an id belongs.")
    return _inside(mapping, value, what)


@dataclass
class _Names:
    """How the document names what a row refers to: provinces by number, kingdoms by name,
    armies by [kingdom name, army name], units by {kingdom, army, unit: place in the army's list}
    (a character by his unit's), battles by their place in their turn's list, a mission's effects
    and captives by their place in the document's lists."""

    province_number: dict[int, int]
    kingdom_name: dict[int, str]
    army_key: dict[int, list[str]]
    unit_key: dict[int, dict[str, Any]]
    unit_of_character: dict[int, int]
    # The accounts the rows written name, by username (None: a row naming none).
    usernames: set[str | None] = field(default_factory=set)
    # The rows exported, by layout (its id), then by id: the id of the row they are listed under,
    # their place in that list and the row as written (_layout_rows writes it as it goes).
    rows: dict[int, dict[int, tuple[int, int, dict[str, Any]]]] = field(default_factory=dict)

    def natural(self, layout: Layout, pk: int, what: object) -> dict[str, Any]:
        """The natural key of `layout`'s row `pk` (Layout.natural), from the rows written."""
        parent_id, place, row = _inside(self.rows.get(id(layout), {}), pk, what)
        key = {}
        for name, source in layout.natural.items():
            owner, up, found = layout, parent_id, row
            for _ in range(source.count("^")):
                owner = owner.up
                up, _, found = self.rows[id(owner)][up]
            key[name] = place if source == "#" else found[source.lstrip("^")]
        return key

    def with_names(self, data: Any, references: Reference, what: object) -> Any:
        """Stored JSON with names for the ids `references` says it holds; the rest as it is."""

        def named(reference: str, value: Any, key: str) -> Any:
            return self.reference(reference, value, _Keyed(what, key) if key else what)

        def if_named(reference: str, value: Any, key: str) -> Any:
            # Declared since a version (references.Since): a version 5 document's id was kept as written,
            # naming no row of the campaign once imported elsewhere (or restored: an effect's, a
            # character's ids are new). No row to name: null, rather than no export at all.
            try:
                return named(reference, value, key)
            except DomainError:
                return None

        return translated(data, references, named, since=if_named)

    def reference(self, reference: str, value: Any, what: object) -> Any:
        """The document's name for an id of the kind `reference` (codec.NAMING), a foreign key's or one
        found in stored JSON; null stays null."""
        if value is None:
            return None
        how = NAMING[reference]
        if isinstance(how, Layout):  # its place in its list, as written
            return _id_inside(self.rows[id(how)], value, what)[1]
        return getattr(self, how[0])(value, what)

    def province(self, value: int, what: object) -> int:
        return _inside(self.province_number, value, what)

    def kingdom(self, value: Any, what: object) -> str:
        return _id_inside(self.kingdom_name, value, what)

    def army(self, value: Any, what: object) -> list[str]:
        return list(_id_inside(self.army_key, value, what))

    def character(self, value: Any, what: object) -> dict[str, Any]:
        return _inside(self.unit_key, _id_inside(self.unit_of_character, value, what), what)  # by his unit

    def unit(self, value: Any, what: object) -> dict[str, Any]:
        return _id_inside(self.unit_key, value, what)

    def turn(self, value: int, what: object) -> int:
        return self.natural(TURNS, value, what)["turn"]

    def report(self, value: int, what: object) -> dict[str, Any]:
        return self.natural(REPORTS, value, what)

    def dropped(self, value: Any, what: object) -> None:
        """An id nothing reads, of a row named by no key where it stands (references.DROPPED): null."""
        return None

    def stream(self, stream: str, what: object) -> str | dict[str, Any]:
        """A roll's stream as it is, or, for one that holds ids (references.STREAM_REFERENCES), the
        object that names them by natural key (schema.STREAM_KEYS)."""
        parts = stream_ids(stream)
        if parts is None:
            return stream
        prefix, numbers = parts
        refused = f"The campaign cannot be exported: the stream of {what}"
        if numbers is None:
            raise DomainError(f"{refused} should be written {stream_shape(prefix)}.")
        named: dict[str, Any] = {"prefix": prefix}
        for reference, number in zip(STREAM_REFERENCES[prefix], numbers, strict=True):
            if reference == PROVINCE:
                if number is None or number not in self.province_number.values():
                    raise DomainError(f"{refused} names province {number}, which is not a province of the campaign.")
                named[reference] = number
            elif reference == KINGDOM:
                if number is None or number not in self.kingdom_name:
                    raise DomainError(f"{refused} names the kingdom {number}, which is not a kingdom of the campaign.")
                named[reference] = self.kingdom_name[number]
            elif number is None:  # a Reconnaissance or Sabotage's skirmish: no attacker army
                named[reference] = None
            else:
                if number not in self.army_key:
                    raise DomainError(f"{refused} names the army {number}, which is not an army of the campaign.")
                named[reference] = list(self.army_key[number])
        return named

    def email_key(self, key: str, what: object) -> dict[str, Any] | None:
        """An email's key in the document: its prefix, the row whose id it holds by natural key
        (layout.py EMAIL_KEY_ROWS), and the text after the id (null for no key)."""
        if not key:
            return None
        parts = email_key_parts(key)
        if parts is None or parts[0] not in EMAIL_KEY_ROWS:
            # Written as it is, it would name a row of this database in another, or clash beside it.
            raise DomainError(
                f"The campaign cannot be exported: {what} has the key {key!r}, which names no row the document "
                f"knows how to name (it knows {', '.join(sorted(EMAIL_KEY_ROWS))})."
            )
        prefix, row_id, suffix = parts
        return {
            "prefix": prefix,
            "row": self.natural(EMAIL_KEY_ROWS[prefix], row_id, f"the key of {what}"),
            "suffix": suffix,
        }

    def entries(self, data: Any, what: object) -> dict[str, Any]:
        """The sheet's entries as the sheet's codec writes them (orders/entries.py: every part, every
        key), with [kingdom name, army name] for each army id and the kingdom's name for each kingdom
        id. Entries the codec cannot read stop the export, naming the sheet and the field."""
        try:
            written = sheet_json_checked(data)
        except SheetCodecError as exc:
            raise DomainError(f"{what} cannot be read: {exc.field} {exc.problem}") from exc
        for section, items in written.items():  # the codec's own dicts, every key in each
            named = _ENTRY_NAMED[section]
            for item in items:
                for key, reference in named:
                    item[key] = self.reference(reference, item[key], what)
        return written


# The keys of each section of a sheet's entries that hold ids, with what they name.
_ENTRY_NAMED = {
    section.name: [(f.name, ENTRY_REFERENCES[f.name]) for f in section.fields if f.name in ENTRY_REFERENCES]
    for section in SECTIONS.values()
}


def _names(campaign: Campaign) -> _Names:
    kingdom_name = dict(campaign.kingdoms.values_list("id", "name"))
    army_key = {
        army_id: [kingdom_name[kingdom_id], name]
        for army_id, kingdom_id, name in Army.objects.filter(kingdom__campaign=campaign).values_list(
            "id", "kingdom_id", "name"
        )
    }
    places: dict[int, int] = {}
    unit_key = {}
    # A unit's place in its army's list, the list in the army's own order (position, then creation).
    for unit_id, army_id in (
        Unit.objects.filter(army__kingdom__campaign=campaign)
        .order_by("army_id", "position", "id")
        .values_list("id", "army_id")
    ):
        place = places[army_id] = places.get(army_id, -1) + 1
        unit_key[unit_id] = {"kingdom": army_key[army_id][0], "army": army_key[army_id][1], "unit": place}
    return _Names(
        province_number=dict(campaign.provinces.values_list("id", "number")),
        kingdom_name=kingdom_name,
        army_key=army_key,
        unit_key=unit_key,
        unit_of_character=dict(Character.objects.filter(kingdom__campaign=campaign).values_list("id", "unit_id")),
    )


# ---------------------------------------------------------------------------------------------
# The sections of the document


def _users_section(campaign: Campaign, names: _Names) -> list[dict[str, Any]]:
    """The organizer, the players, and whoever a row of the campaign names (a staff member who
    changed a deadline, who entered a sheet, ruled a battle, was sent a report...), by username,
    each with their report preferences: a user's own settings, which travel with the account."""
    ids = set(User._base_manager.filter(username__in=names.usernames - {None}).values_list("pk", flat=True))
    users = _layout_rows(USERS, campaign, names, among=ids)
    return [row for rows in users.values() for row in rows]


def _adjacency_section(campaign: Campaign, names: _Names) -> list[list[int]]:
    """Stored both ways round; written once, as a sorted pair."""
    pairs = Province.neighbours.through.objects.filter(from_province__campaign=campaign).values_list(
        "from_province_id", "to_province_id"
    )
    number = names.province_number
    adjacency = set()
    for a, b in pairs:
        x, y = number[a], number.get(b)
        if y is None:  # refused: a neighbour outside the campaign
            y = _inside(number, b, f"province {x}'s neighbour")
        adjacency.add((x, y) if x < y else (y, x))
    return [list(pair) for pair in sorted(adjacency)]


# The document's effects and captives, in the order earned and captured: a sheet names them by place
# (tests/orders/test_sheet_codec.py reads them so).
EFFECT_ORDER = (*MISSION_EFFECTS.ordering, "id")
CAPTIVE_ORDER = (*CAPTIVES.ordering, "id")


def _strays(campaign: Campaign) -> None:
    """Refuse an email whose rows name the campaign (its turn, its report) though it does not: no
    document says that (the emails are the campaign's, layout.py EMAILS)."""
    theirs = Q(turn__campaign=campaign) | Q(reportemail__report__turn__campaign=campaign)
    stray = Email.objects.filter(theirs).exclude(campaign=campaign).order_by("created_at", "id").first()
    if stray is not None:
        what = f"the {stray.kind} email to {stray.to_line} queued at {time_text(stray.created_at)}"
        belongs = "no campaign" if stray.campaign_id is None else f"another campaign ({stray.campaign_id})"
        raise DomainError(f"The campaign cannot be exported: {what} belongs to {belongs}.")
