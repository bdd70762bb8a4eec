"""The reading machinery of the import: checking a document's objects key by key into unsaved
rows (every problem collected, with where it is), and finding what they name by natural key
among what has been read. reader.py reads the document's sections with it."""

from __future__ import annotations

from collections.abc import Collection, Mapping
from typing import Any

from django.core.exceptions import ValidationError
from django.db import models

from .campaign_models import Army, Kingdom, Province, Unit
from .codec import NAMING, checked, codec
from .kinds import ANY, OBJECT, Kind, is_int
from .layout import (
    BATTLES,
    EMAIL_KEY_ROWS,
    TURNS,
    UNITS,
    Layout,
    Read,
    natural_kinds,
)
from .plan import Plan
from .references import (
    REFERENCE_KINDS,
    ByIds,
    ListOf,
    Reference,
)
from .schema import BEARER_KEYS, EMAIL_KEY_KEYS, VERSION


def label(where: str, data: Any, key: str | tuple[str, ...]) -> str:
    """`where` with the natural key of the object found there (the first of `key` that holds one),
    so a message names the thing."""
    keys = (key,) if isinstance(key, str) else key
    values = [data.get(k) for k in keys] if isinstance(data, dict) else []
    key, value = next(((k, v) for k, v in zip(keys, values, strict=False) if v is not None), (keys[0], None))
    if isinstance(value, str):
        return f'{where} "{value}"'
    if is_int(value):
        return f"{where} ({key} {value})"
    return where


class Reading:
    """Checks objects of a document into unsaved rows of a Plan, collecting every problem rather
    than stopping at the first, so whoever fixes the file sees them all at once."""

    def __init__(self) -> None:
        self.errors: list[str] = []
        self.plan = Plan()
        self.version = VERSION  # the document's, once read
        # The rows of each of the document's top-level lists by their place (None: unreadable,
        # reported), by the list's key, once read: what names them by place finds them (placed: an
        # announcement of an alliance's end, a sheet's effect or captive).
        self.at: dict[str, list[Any]] = {}
        # The rows of each child layout read under a row, by their place: by (id of the row, the key).
        self.listed: dict[tuple[int, str], dict[int, Any]] = {}
        # How many rows each such list holds, read or not (a report names a battle by its place).
        self.lengths: dict[tuple[int, str], int] = {}
        # The references a layout resolves once every kingdom is read (Layout.late): where, the row,
        # the field, how it names its row and the value (Reader.kingdoms resolves them).
        self.late: list[tuple[str, Any, str, str, Any]] = []

    def problem(self, where: str, message: str) -> None:
        self.errors.append(f"{where}: {message}" if where else message)

    def keys(
        self, data: Any, where: str, spec: Mapping[str, Kind], *, optional: Collection[str] = ()
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
        self,
        model: type[models.Model],
        values: dict[str, Any],
        names: Collection[str],
        where: str,
        *,
        blank: Collection[str] = (),
        inherited: bool = True,
        **relations: Any,
    ) -> Any:
        """An unsaved `model` row, checked by the model's own field validation (choices, lengths,
        ranges, time zone names). Its times and bytes are taken from `values` too; `relations` are the
        fields the reader resolves itself (references, translated values): not checked here. The
        texts named in `blank` may be empty, as the site writes them, though a form would refuse it."""
        fields = checked(model)
        instance = model(**{name: values[name] for name in names if name in values}, **relations)
        for name in fields.times & values.keys():  # read from their text by their keys' kinds
            setattr(instance, name, values[name])
        # Keys already reported are not reported again.
        missing = {name for name in names if name not in values} | (fields.times - values.keys())
        exclude = fields.unchecked | set(relations) | missing
        exclude |= {name for name in blank if values.get(name) == ""}
        # An empty JSON list is a value, not a blank field (a submission without warnings holds []);
        # its JSON type is checked already.
        exclude |= {name for name in fields.json if values.get(name) in ([], {})}
        if not inherited:  # a child model's row (multi-table): its parent's fields are read with its parent
            exclude |= fields.inherited
        try:
            instance.clean_fields(exclude=exclude)
        except ValidationError as error:
            for name, messages in sorted(error.message_dict.items()):
                for message in messages:
                    self.problem(where, f'"{name}": {message}')
        return instance

    def layout_rows(
        self, layout: Layout, data: Any, where: str, parents: tuple[Any, ...] = (), **relations: Any
    ) -> dict[int, Any]:
        """The unsaved rows of `layout`'s model listed under `where` (its parent's object), and their
        children's, each object's keys and kinds read from the model (transfer/layout.py), the rows it
        names found by natural key, `relations` set on each (its parent). Kept in the plan for the
        writer (Plan.rows) and returned by their place in the list (a single row: place 0). Problems
        reported, their rows left out."""
        if layout.single:
            rows, places = ([] if data is None else [data]), [f"{where} / {layout.key}" if where else layout.key]
        else:
            rows, places = (
                data,
                [f"{where} / {layout.key}[{i}]" if where else f"{layout.key}[{i}]" for i in range(len(data))],
            )
        row_codec = codec(layout)
        keys, optional, parent = row_codec.kinds_of(self.version), row_codec.optional, relations.get(layout.parent)
        found = {}
        read: Read = []
        for index, (row, row_where) in enumerate(zip(rows, places, strict=False)):
            if layout.label is not None:
                row_where = label(row_where, row, layout.label)
            values = self.keys(row, row_where, keys, optional=optional)
            if values is None:
                continue
            many = {
                f.name: [self.named(layout.names[f.name], item, f"{row_where} / {f.name}") for item in values[f.name]]
                for f in row_codec.many
                if f.name in values
            }
            named = {
                name: self.named(how, values.get(name), row_where if at_row else f"{row_where} / {name}", parent)
                for name, how, at_row in row_codec.now
            }
            # JSON holding ids: the rows it names, resolved now, written as ids once they exist (Plan.translated).
            resolved = {
                name: self.references(
                    values[name], layout.reference(name, values, self.version), f"{row_where} / {name}"
                )
                for name in layout.references
                if name in values
            }
            named |= dict.fromkeys(resolved, {})
            for name in (name for name in layout.entries if name not in row and name in optional):
                # The codec writes every sheet's entries, an empty draft's too: none is a broken sheet.
                self.problem(row_where, f'"{name}" is missing.')
            entries = {name: self.entries(values.get(name), f"{row_where} / {name}") for name in layout.entries}
            named |= {name: {} for name in entries}  # written with ids once the rows they name exist
            instance = self.instance(
                layout.model,
                values,
                row_codec.own,
                row_where,
                blank=layout.blank,
                inherited=not layout.model._meta.parents,
                **relations,
                **named,
            )
            self.plan.translated.extend(
                (instance, name, layout.reference(name, values, self.version), data) for name, data in resolved.items()
            )
            found[index] = instance
            self.late.extend(
                (row_where if at_row else f"{row_where} / {name}", instance, name, how, values[name])
                for name, how, at_row in row_codec.late
                if name in values
            )
            self.plan.entries.extend((instance, name, data) for name, data in entries.items())
            for name, rows_named in many.items():  # written once the rows exist
                self.plan.many_to_many.append((instance, name, [r for r in rows_named if r is not None]))
            read.append((row_where, instance, values))
            self.plan.rows.setdefault(layout.model._meta.label, []).append(instance)
            for child in layout.children:
                if isinstance(values.get(child.key), list):  # else reported: what names its rows is not checked
                    self.lengths[id(instance), child.key] = len(values[child.key])
                self.listed[id(instance), child.key] = self.layout_rows(
                    child,
                    values.get(child.key, child.empty()),
                    row_where,
                    (values, *parents),
                    **{child.parent: instance},
                )
            if layout.natural:
                rows_of = (values, *parents)
                key = tuple(
                    index if source == "#" else rows_of[source.count("^")].get(source.lstrip("^"))
                    for source in layout.natural.values()
                )
                self.plan.natural.setdefault(id(layout), {})[key] = instance
        if layout.check is not None:
            layout.check(self.problem, read)
        return found

    def entries(self, data: Any, where: str) -> dict[str, Any]:
        """A sheet's entries checked by the sheets' codec (the Reader's): what the writer stores."""
        raise NotImplementedError

    def stream(self, data: Any, where: str) -> None:
        """Check a dice roll's stream (the Reader's)."""
        raise NotImplementedError

    def named(self, how: str, value: Any, where: str, parent: Any = None) -> Any:
        """The row a document's value names the way `how` says (a foreign key's, layout.py NAMED_BY, or
        an id's in stored JSON, references.py), or None (null, or reported); a battle among those of
        `parent`, the row being read's (its turn). The export's `_Names.reference`
        is its inverse."""
        if value is None:
            return None
        named = NAMING[how]
        if named is BATTLES:  # among the battles of the row's turn
            return self.battle_placed(parent, value, where)
        if isinstance(named, Layout):
            return self.placed(named.key, value, where)
        return getattr(self, named[1])(value, where)

    def report(self, value: Any, where: str) -> Any:
        return self.keyed_row("report", value, where)

    def dropped(self, value: Any, where: str) -> None:
        """An id the document keeps no trace of (references.DROPPED): only null is read there."""
        return None

    def character_named(self, value: Any, where: str) -> Any:
        """The character a document names by his unit."""
        unit = self.character(value, where)
        return None if unit is None else next(iter(self.listed[id(unit), "character"].values()))

    def battle_placed(self, turn: Any, place: int, where: str) -> Any:
        """The battle at `place` in `turn`'s "battles" (read before), or None (reported, or unreadable)."""
        if (id(turn), "battles") not in self.lengths:
            return None  # "battles" is no list: reported
        count = self.lengths[id(turn), "battles"]
        if not 0 <= place < count:
            self.problem(where, f"the turn has no battle at place {place} (it has {count}).")
            return None
        return self.listed[id(turn), "battles"].get(place)

    def email_key(self, data: Any, where: str) -> tuple[str, Any, str] | None:
        """An email's key: its prefix, the row whose id it holds (found by natural key), the text
        after the id."""
        values = self.keys(data, where, EMAIL_KEY_KEYS)
        if values is None or len(values) != len(EMAIL_KEY_KEYS):
            return None  # reported
        prefix = values["prefix"]
        if prefix not in EMAIL_KEY_ROWS:
            self.problem(where, f'"prefix" should be one of {", ".join(EMAIL_KEY_ROWS)}, not {prefix!r:.40}.')
            return None
        row = self.keyed_row(prefix, values["row"], f"{where} / row")
        return None if row is None else (prefix, row, values["suffix"])

    def keyed_row(self, prefix: str, data: Any, where: str) -> Any:
        """The row of the document that `data` names by the natural key of `prefix`'s rows
        (layout.py EMAIL_KEY_ROWS), or None (reported)."""
        spec = natural_kinds(EMAIL_KEY_ROWS[prefix])
        values = self.keys(data, where, spec)
        if values is None or len(values) != len(spec):
            return None  # reported
        found = self.plan.natural.get(id(EMAIL_KEY_ROWS[prefix]), {}).get(tuple(values[key] for key in spec))
        if found is None:
            self.problem(where, _no_such_row(prefix, values))
        return found

    def turn_numbered(self, number: Any, where: str) -> Any:
        if number is None:
            return None
        turn = self.plan.natural.get(id(TURNS), {}).get((number,))
        if turn is None:
            self.problem(where, f"there is no turn {number} among the document's turns.")
        return turn

    def placed(self, key: str, place: int | None, where: str) -> Any:
        """The row at `place` in the document's list `key` (read before), or None (null, or reported)."""
        if place is None:
            return None
        rows = self.at.get(key, [])
        if not 0 <= place < len(rows):
            self.problem(where, f"the document's {key} have no place {place} (they have {len(rows)}).")
            return None
        return rows[place]  # None if unreadable (reported)

    def user(self, username: str, where: str) -> None:
        if username not in self.plan.users:
            self.problem(where, f'the user "{username}" is not among the document\'s users.')

    def actor(self, username: str | None, where: str) -> Any:
        """The user who did something, or None."""
        if username is None:
            return None
        self.user(username, where)
        self.plan.actors.add(username)
        return self.plan.users.get(username)

    def province(self, number: int | None, where: str) -> Province | None:
        if number is not None and number not in self.plan.provinces:
            self.problem(where, f"province {number} is not among the document's provinces.")
        return None if number is None else self.plan.provinces.get(number)

    def kingdom_named(self, name: Any, where: str) -> Kingdom | None:
        if name is None:
            return None  # missing: reported already
        if name not in self.plan.kingdoms:
            self.problem(where, f'there is no kingdom called "{name}".')
            return None
        return self.plan.kingdoms[name]

    def army_by_key(self, kingdom: Any, army: Any, where: str) -> Army | None:
        found = self.plan.armies.get((kingdom, army)) if isinstance(kingdom, str) and isinstance(army, str) else None
        if found is None:
            self.problem(where, f"there is no army {army!r:.40} of the kingdom {kingdom!r:.40}.")
        return found

    def army_named(self, key: list[str] | None, where: str) -> Army | None:
        """The army of an army key already checked for its shape (None: null, or missing)."""
        if key is None:
            return None
        return self.army_by_key(key[0], key[1], where)

    def bearer(self, reference: Any, where: str) -> Unit | None:
        values = self.keys(reference, where, BEARER_KEYS)
        if values is None or len(values) != len(BEARER_KEYS):
            return None
        army = self.army_by_key(values["kingdom"], values["army"], where)
        if army is None:
            return None
        place, count = values["unit"], self.lengths.get((id(army), UNITS.key), 0)
        if not 0 <= place < count:
            self.problem(where, f"{values['army']} has no unit at place {place} (it has {count} units).")
            return None
        # A unit that cannot be read still holds its place (reported): a unit with no character.
        return self.listed[id(army), UNITS.key].get(place) or Unit(army=army)

    def character(self, reference: Any, where: str) -> Unit | None:
        """A character named by his unit (as a bearer): the unit, which must have one."""
        unit = self.bearer(reference, where)
        if unit is None:
            return None
        if not self.listed.get((id(unit), "character")):
            self.problem(where, f"the unit at place {reference['unit']} of {reference['army']} is no character.")
            return None
        return unit

    def references(self, data: Any, references: Reference, where: str, key: str | None = None) -> Any:
        """Stored JSON with the rows of the document its values name in place of the names
        (references.py), each checked: every such value names a row, or is null; the rest of the JSON
        is kept as it is. `data` is the value of `key` in the object at `where`, or with no key, the
        value at `where` itself (a field's)."""
        if data is None:
            return None
        at = where if key is None else f"{where} / {key}"
        if isinstance(references, str):
            kind = REFERENCE_KINDS[references]
            if kind.accepts(data):
                return self.named(references, data, at)
            if key is None:
                self.problem(where, f"expected {kind.label}, found {data!r:.40}.")
            else:
                label = kind.label if kind.nullable else kind.or_null().label
                self.problem(where, f'"{key}" should be {label}, not {data!r:.60}.')
            return None
        if isinstance(references, ListOf | ByIds):
            if not isinstance(data, list):
                if key is not None:  # a field's own kind is checked with the other keys
                    self.problem(where, f'"{key}" should be a list or null, not {data!r:.60}.')
                return data
            return [self.item(item, references, at, f"{at}[{index}]") for index, item in enumerate(data)]
        if not isinstance(data, dict):
            return data  # its kind is reported
        found = {
            name: self.references(data.get(name), reference, where, name) for name, reference in references.items()
        }
        return {name: found[name] if name in references else value for name, value in data.items()}

    def item(self, item: Any, references: ListOf | ByIds, at: str, where: str) -> Any:
        """One item of a list of stored JSON that holds ids: an id (reported at the list), or an object."""
        if isinstance(references, ListOf) and isinstance(references.references, str):
            return self.references(item, references.references, at)
        if not isinstance(item, dict):
            self.problem(where, f"expected an object, found {item!r:.40}.")
        elif isinstance(references, ByIds):
            if self.keys(item, where, {references.key: OBJECT, references.value: ANY}) is not None:
                return self.references(item, {references.key: references.reference}, where)
        else:
            if references.keys is not None:
                self.keys(item, where, references.keys)
            return self.references(item, references.references, where)
        return item


def _no_such_row(prefix: str, values: dict[str, Any]) -> str:
    turn = f"turn {values['turn']} has no"
    if prefix == "report":
        if values["kingdom"] is not None:
            subject = f' of "{values["kingdom"]}"'
        elif values["battle"] is not None:
            subject = f" of the battle at place {values['battle']}"
        else:
            subject = ""
        return f"{turn} {values['kind']} report{subject}."
    if prefix == "orders-receipt":
        return f'{turn} submission at place {values["submission"]} of the order sheet of "{values["kingdom"]}".'
    if prefix == "deadline-change":
        return f"{turn} deadline change at place {values['change']}."
    if prefix == "orders-held":
        return f"there is no turn {values['turn']}."
    return f'{turn} {prefix.replace("-", " ")} of "{values["kingdom"]}".'
