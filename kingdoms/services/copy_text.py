"""The text of a `COPY ... FROM STDIN` (PostgreSQL's text format) for many rows of one table, built a
column at a time (kingdoms.services.bulk_rows writes a phase's big inserts with it).

psycopg's `Copy.write_row` takes one row per call: a Python call or two and the row's values
adapted one by one, about 3 microseconds a row before any value of ours is converted. A phase
COPYs ten thousand rows (the scenarios' dice rolls alone are six thousand), so this builds the
whole text instead, column by column, where most columns hold one kind of value and convert in
one C-level pass (`map(str, ...)`, one search of the column's joined text for a character to
escape); the rows are then joined, and the text goes in one `write`. The values stored are the
ones `write_row` stored: a value of a type without a pass of its own is adapted by the
connection's own psycopg dumpers, as `write_row` did; a JSON value is its JSON text.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from json.encoder import c_make_encoder, encode_basestring_ascii  # type: ignore[attr-defined]
from typing import Any

from django.db.models import Field, JSONField
from psycopg.abc import Transformer
from psycopg.adapt import PyFormat

NULL = "\\N"  # COPY's text for a NULL (never escaped: it is not a value's text)
# COPY's text format takes a backslash, a newline, a carriage return and the delimiter (a tab) in a
# value only escaped (PostgreSQL, COPY, "File Formats").
_SPECIAL = ("\\", "\t", "\n", "\r")
_ESCAPES = str.maketrans({"\\": "\\\\", "\t": "\\t", "\n": "\\n", "\r": "\\r"})
# What `str` writes for a list of integers (nested or not), which is what json.dumps writes for it;
# a list holding anything else (a bool, a text, a float) writes another character.
_INT_LIST_CHARACTERS = frozenset("[]0123456789, -")


def copy_text(
    fields: Sequence[Field],
    rows: Sequence[Sequence[Any]],
    *,
    value_of: Sequence[Callable[[Any], Any]],
    transformer: Transformer,
) -> str:
    """The COPY text of `rows` (each the values of `fields`, in their order), a line per row.
    `value_of[i]`: how a value of `fields[i]` that is not a plain int, str, bool, float or None is
    first converted (bulk_rows._copy_value: an enumeration to its value, Django's preparation);
    `transformer`: the connection's psycopg adapters, for the values with no pass of their own."""
    if not rows:
        return ""
    columns = [
        _json_column(list(values), field.encoder)
        if isinstance(field, JSONField)
        else _column(list(values), convert, transformer)
        for field, convert, values in zip(fields, value_of, zip(*rows, strict=True), strict=True)
    ]
    return "\n".join(map("\t".join, zip(*columns, strict=True))) + "\n"


_PLAIN = frozenset({int, str, bool, float, type(None)})


def _column(values: list[Any], convert: Callable[[Any], Any], transformer: Transformer) -> list[str]:
    """The COPY text of each value of a column (not JSON)."""
    types = set(map(type, values))
    if not types <= _PLAIN:
        first = values[0]
        if all(v is first for v in values):  # one value for every row (the time of the insert)
            return _dumped([convert(first)], transformer) * len(values)
        values = [convert(v) for v in values]
        types = set(map(type, values))
    if types == {int}:  # ids, turns, sequences, totals: most of a COPY's values
        return list(map(str, values))
    if types == {str}:
        return _escaped(values)
    if types == {int, type(None)}:
        return [NULL if v is None else str(v) for v in values]
    if types <= {str, type(None)}:
        return [NULL if t is None else t for t in _escaped_or_none(values)]
    return _dumped(values, transformer)


def _json_column(values: list[Any], encoder: type[json.JSONEncoder] | None) -> list[str]:
    """The COPY text of each value of a JSON column: its JSON text (NULL for None). A column of
    lists of integers (a roll's faces, the kingdoms and armies it concerns) is written by `str`,
    which writes them as json.dumps does, in one pass: json.dumps' own cost per call is most of the
    time of a column of small lists."""
    if set(map(type, values)) == {list}:
        texts = list(map(str, values))
        if set("".join(texts)) <= _INT_LIST_CHARACTERS:
            return texts
    dumps = _json_dumps(encoder)
    return [NULL if t is None else t for t in _escaped_or_none([None if v is None else dumps(v) for v in values])]


def _json_dumps(encoder: type[json.JSONEncoder] | None) -> Callable[[Any], str]:
    """What json.dumps(value, cls=encoder) writes, for many values: with the default encoder, one
    C encoder made for them all. json.dumps makes one per call (JSONEncoder.iterencode), most of
    its cost for the small documents a phase writes by the thousand (the events' data: about 6
    microseconds each against 2.5)."""
    if encoder is not None or c_make_encoder is None:
        return lambda value: json.dumps(value, cls=encoder)
    # json.dumps' defaults (JSONEncoder()): no indent, ", " and ": ", keys unsorted, not skipped,
    # NaN allowed, circular references refused (the markers).
    encode = c_make_encoder({}, _DEFAULT.default, encode_basestring_ascii, None, ": ", ", ", False, False, True)
    return lambda value: "".join(encode(value, 0))


_DEFAULT = json.JSONEncoder()


def _escaped(texts: list[str]) -> list[str]:
    """`texts` escaped for COPY's text format: searched once, joined, as they rarely need it."""
    joined = "".join(texts)
    if any(character in joined for character in _SPECIAL):
        return [text.translate(_ESCAPES) for text in texts]
    return texts


def _escaped_or_none(texts: list[str | None]) -> list[str | None]:
    joined = "".join(t for t in texts if t is not None)
    if any(character in joined for character in _SPECIAL):
        return [None if t is None else t.translate(_ESCAPES) for t in texts]
    return texts


def _dumped(values: list[Any], transformer: Transformer) -> list[str]:
    """Each value as psycopg's dumper for its type writes it (as `Copy.write_row` would), escaped."""
    dumped = transformer.dump_sequence(values, [PyFormat.TEXT] * len(values))
    texts = [None if d is None else bytes(d).decode() for d in dumped]
    return [NULL if t is None else t for t in _escaped_or_none(texts)]
