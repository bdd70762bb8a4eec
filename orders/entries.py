"""The order sheet's codec: the one JSON form of an order sheet's entries (the pure records of
rulebook.turn.write_orders.records), and the one reading of it.

Every channel goes through it: the API serializer validates types and ranges (for the OpenAPI
schema) and hands its validated data to `sheet_from_json`; the page's form builds the same JSON
from its cleaned data; the services store `sheet_to_json`'s dict on OrderSheet.entries and
OrderSubmission.entries; the export writes it (transfer/export.py) and the import's schema is
read from `SECTIONS` (transfer/schema.py); receipts and reports describe the records decoded here.

The JSON holds one list per part of the sheet, named as `SheetEntries` names it ("orders",
"creations", ... "capitol_moves"), and one object per entry whose keys are the record's fields
(a tuple as a list, an order's kind as its value). `SECTIONS` is read from the records, so a field
added to a record is written, read and carried by the export without another mapping.

Older sheets stay readable: a part missing from the JSON has no entries (a sheet written before
that part existed, or never saved: {}), and a key missing from an entry takes the record's default
(an order filed before `defend_with` means the army defends, as it always did). A key without a
default must be there. Anything else malformed raises `SheetCodecError` naming the field.
"""

from __future__ import annotations

import types
from collections.abc import Mapping
from dataclasses import MISSING, dataclass, fields
from functools import cached_property
from typing import Any, Union, get_args, get_origin, get_type_hints

from briternia.errors import DomainError
from rulebook.experience.spending import PurchaseKind
from rulebook.ruins_and_tomb_raiders.reconnaissance import RECONNAISSANCE_MISSIONS
from rulebook.ruins_and_tomb_raiders.rival_missions import CaptiveFate
from rulebook.ruins_and_tomb_raiders.sabotage import SABOTAGE_MISSIONS
from rulebook.ruins_and_tomb_raiders.tomb_raid import MissionKind
from rulebook.setup.homes import MOST_ARMIES
from rulebook.turn.write_orders.records import (
    DEFEND_CHOICES,
    DISASTER_CHOICES,
    OrderKind,
    SheetEntries,
)

INT, INT_OR_NULL, STR, BOOL, INT_LIST = "int", "int-or-null", "str", "bool", "int-list"
# Every list of an order sheet, however it is filed (the API, the site's form, a mail): a few entries for
# each army a kingdom may have (Army Table), far above any real sheet. A longer list is refused whole,
# before its entries are read, and nothing is saved (decision 593).
SHEET_LIST_MAX = 3 * MOST_ARMIES
SHEET_LIST_WHY = f"Army Table: a few for each of the {MOST_ARMIES} armies a kingdom may have at most"


def sheet_list_too_long(field: str) -> str:
    """The refusal of a list of the sheet longer than SHEET_LIST_MAX, naming the list and the rule."""
    return f"{field}: at most {SHEET_LIST_MAX:,} entries ({SHEET_LIST_WHY}); this list has more. Nothing was saved."


KIND_WORDS = {
    INT: "an integer",
    INT_OR_NULL: "an integer or null",
    STR: "a string",
    BOOL: "true or false",
    INT_LIST: "a list of integers",
}
# The keys whose string is one of a few values (by part of the sheet).
CHOICES: dict[str, dict[str, tuple[str, ...]]] = {
    "orders": {
        "kind": tuple(k.value for k in OrderKind),
        "disaster_choice": DISASTER_CHOICES,
        "defend_with": DEFEND_CHOICES,
    },
    "purchases": {"kind": tuple(PurchaseKind.ALL)},
    "missions": {
        "kind": tuple(k.value for k in MissionKind),
        "desired": ("", *(m.mission for m in (*RECONNAISSANCE_MISSIONS, *SABOTAGE_MISSIONS))),
    },
    "captive_orders": {"fate": (CaptiveFate.RELEASED.value, CaptiveFate.EXECUTED.value)},
}
NO_DEFAULT = object()


class SheetCodecError(DomainError):
    """The JSON is not an order sheet's entries: `field` names where ("orders[0].kind")."""

    def __init__(self, field: str, problem: str) -> None:
        self.field, self.problem = field, problem
        super().__init__(f"Order sheet entries, {field}: {problem}")


@dataclass(frozen=True)
class EntryField:
    """One key of an entry: its JSON kind, the values it may take (none: any of its kind) and the
    record's default for a sheet that has not got it (NO_DEFAULT: required)."""

    name: str
    kind: str
    choices: tuple[str, ...] = ()
    default: Any = NO_DEFAULT

    @property
    def required(self) -> bool:
        return self.default is NO_DEFAULT


@dataclass(frozen=True)
class Section:
    """One part of the sheet: its name in SheetEntries and the JSON, its record and the record's fields."""

    name: str
    record: type
    fields: tuple[EntryField, ...]

    @cached_property  # asked for every key of every entry read (a large turn's thousands)
    def keys(self) -> tuple[str, ...]:
        return tuple(f.name for f in self.fields)

    @cached_property
    def key_set(self) -> frozenset[str]:
        return frozenset(self.keys)


def _kind_of(hint: Any) -> str:
    if hint is bool:
        return BOOL
    if hint is int:
        return INT
    if hint is str or (isinstance(hint, type) and issubclass(hint, str)):
        return STR  # OrderKind: its value
    if get_origin(hint) in (Union, types.UnionType) and set(get_args(hint)) == {int, type(None)}:
        return INT_OR_NULL
    if get_origin(hint) is tuple and get_args(hint) == (int, ...):
        return INT_LIST
    raise TypeError(f"no JSON kind for {hint!r}")  # a record's new field of a new type: give it one


def _section(name: str, record: type) -> Section:
    hints = get_type_hints(record)
    entry_fields = []
    for f in fields(record):
        default = f.default if f.default is not MISSING else NO_DEFAULT
        if isinstance(default, OrderKind):
            default = default.value
        choices = CHOICES.get(name, {}).get(f.name, ())
        entry_fields.append(EntryField(f.name, _kind_of(hints[f.name]), choices, default))
    return Section(name, record, tuple(entry_fields))


SECTIONS: dict[str, Section] = {
    name: _section(name, get_args(hint)[0]) for name, hint in get_type_hints(SheetEntries).items()
}
RECORD_SECTIONS: dict[type, Section] = {section.record: section for section in SECTIONS.values()}


def sheet_to_json(entries: SheetEntries) -> dict[str, Any]:
    """The sheet as stored and exchanged: every part, every key of every entry."""
    return {
        section.name: [entry_json(entry) for entry in getattr(entries, section.name)] for section in SECTIONS.values()
    }


def entry_json(entry: Any) -> dict[str, Any]:
    """One entry (a record of SheetEntries) as the sheet's JSON holds it."""
    return {f.name: _json_value(getattr(entry, f.name)) for f in RECORD_SECTIONS[type(entry)].fields}


def _json_value(value: Any) -> Any:
    if isinstance(value, OrderKind):
        return value.value
    if isinstance(value, tuple):
        return list(value)
    return value


def sheet_from_json(data: Mapping[str, Any]) -> SheetEntries:
    """The records of the sheet `data` holds (the inverse of sheet_to_json; older sheets read as
    the module says). Raises SheetCodecError naming the first malformed field."""
    parts: dict[str, tuple[Any, ...]] = {}
    for name, items in _parts(data).items():
        parts[name] = tuple(_entry(SECTIONS[name], item, f"{name}[{index}]") for index, item in enumerate(items))
    return SheetEntries(**parts)


def sheet_json_checked(data: Mapping[str, Any]) -> dict[str, Any]:
    """`sheet_to_json(sheet_from_json(data))` without the records between: `data` checked as
    sheet_from_json checks it (the same SheetCodecError for the same JSON), written as sheet_to_json
    writes it (every part, every key: a missing one as the record's default) in new lists and dicts.
    The export writes every sheet and submission of a campaign, before each phase too (its snapshot),
    so it skips building records it would only write again (issue 35)."""
    parts = _parts(data)
    return {
        section.name: [
            _entry_json(section, item, f"{section.name}[{index}]")
            for index, item in enumerate(parts.get(section.name, ()))
        ]
        for section in SECTIONS.values()
    }


def _parts(data: Any) -> Mapping[str, list[Any] | tuple[Any, ...]]:
    """The sheet's parts, each checked to be a part and a list."""
    if not isinstance(data, Mapping):
        raise SheetCodecError("the sheet", f"should be an object, not {_shown(data)}.")
    unknown = [name for name in data if name not in SECTIONS]
    if unknown:
        raise SheetCodecError(str(unknown[0]), "is no part of an order sheet.")
    for name, items in data.items():
        if not isinstance(items, list | tuple):
            raise SheetCodecError(name, f"should be a list, not {_shown(items)}.")
    return data


def _entry(section: Section, item: Any, where: str) -> Any:
    _entry_keys_checked(section, item, where)
    values: dict[str, Any] = {}
    for f in section.fields:  # the field's place in the error only: a turn reads thousands of them
        value = _field_value(f, item, where)
        if value is not NO_DEFAULT:  # otherwise the record's default
            values[f.name] = _record_value(section, f, value)
    return section.record(**values)


def _entry_json(section: Section, item: Any, where: str) -> dict[str, Any]:
    """One entry as sheet_to_json writes it, from its JSON as stored."""
    _entry_keys_checked(section, item, where)
    written: dict[str, Any] = {}
    for f in section.fields:
        value = _field_value(f, item, where)
        if value is NO_DEFAULT:
            value = f.default
        written[f.name] = list(value) if f.kind == INT_LIST else value  # a list of its own
    return written


def _entry_keys_checked(section: Section, item: Any, where: str) -> None:
    if not isinstance(item, Mapping):
        raise SheetCodecError(where, f"should be an object, not {_shown(item)}.")
    unknown = [key for key in item if key not in section.key_set]
    if unknown:
        raise SheetCodecError(f"{where}.{unknown[0]}", "is no field of the entry.")


def _field_value(f: EntryField, item: Mapping[str, Any], where: str) -> Any:
    """The entry's value for `f`, checked; NO_DEFAULT when it has none and the record has a default."""
    if f.name not in item:
        if f.required:
            raise SheetCodecError(f"{where}.{f.name}", "is missing.")
        return NO_DEFAULT
    value = item[f.name]
    if not _is_kind(value, f.kind):
        raise SheetCodecError(f"{where}.{f.name}", f"should be {KIND_WORDS[f.kind]}, not {_shown(value)}.")
    if f.choices and value not in f.choices:
        raise SheetCodecError(
            f"{where}.{f.name}", f"should be one of {', '.join(c for c in f.choices if c)}, not {_shown(value)}."
        )
    return value


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_kind(value: Any, kind: str) -> bool:
    if kind == INT:
        return _is_int(value)
    if kind == INT_OR_NULL:
        return value is None or _is_int(value)
    if kind == STR:
        return isinstance(value, str)
    if kind == BOOL:
        return isinstance(value, bool)
    return isinstance(value, list | tuple) and all(_is_int(x) for x in value)


def _record_value(section: Section, f: EntryField, value: Any) -> Any:
    if f.kind == INT_LIST:
        return tuple(value)
    if section.name == "orders" and f.name == "kind":
        return OrderKind(value)
    return value


def _shown(value: Any) -> str:
    return f"{value!r:.40}"
