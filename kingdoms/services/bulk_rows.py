"""Writing many rows of one table in one set-based statement: `rows_update` updates each row only in
the fields that changed for it (the one world writer's, kingdoms.services.world_write, and the
scenarios' writes); `records_insert` inserts rows whose ids nobody reads back (a turn's dice rolls,
events, movements and ledger rows); `rows_insert_with_ids` inserts rows whose ids are wanted (a
turn's battles: their supports and scenario sheets name them), the ids drawn from the table's
sequence first, then the same COPY.

Django's `bulk_update` builds a `CASE WHEN id = ... THEN ...` per row per field (on the largest
campaign 28,860 expressions compiled in Python: most of the orders phase's time), and writes every
named field of every row. Here the changed values go in a list of rows joined to the table by id,
on PostgreSQL one JSON document the server unpacks (one parameter: a `VALUES` list had psycopg quote
each value into the statement, 640 kB of it for the largest turn's scenarios), on SQLite a `VALUES`
list:

    WITH v AS (SELECT * FROM jsonb_to_recordset(%s::jsonb) AS r(id bigint, m bigint, c0 ..., c1 ...))
    UPDATE t SET c0 = CASE WHEN v.m & 1 <> 0 THEN v.c0 ELSE t.c0 END, ...
    FROM v WHERE t.id = v.id

`m` is a bit mask of the fields that changed in that row, so a row keeps as stored every field the
writer did not change (a column set behind the writer's back stays set), and the statement names
only the fields that changed in some row: one statement per table whatever the number of rows
(PostgreSQL, and SQLite from 3.33 on, have UPDATE ... FROM). On SQLite a statement holds at most
the connection's limit of parameters (250,000 for the SQLite Python ships), so a table of more
rows than that allows takes a statement per batch.

`records_insert` (and `rows_insert`, the same from model instances) sends the rows to PostgreSQL
with `COPY ... FROM STDIN` (psycopg's copy support): one statement however many rows, the values
written by psycopg's C adapters, where Django's `bulk_create` prepares, adapts and quotes every
value in Python and builds a model instance per row. Ten thousand dice rolls (measured on a busy
machine, the least of seven runs): about 120 ms against 170 ms as one JSON document unpacked by
`jsonb_to_recordset` (the way before it, still used for an insert that skips conflicting rows,
which COPY cannot) and 500 ms with instances and `bulk_create`. On SQLite, where unpacking JSON in
the database is slower (measured too), it is a multi-row VALUES as Django's bulk_create writes,
in batches of SQLite's real limit of parameters rather than Django's 999."""

from __future__ import annotations

import datetime as dt
import json
import sqlite3
from collections.abc import Callable, Mapping, Sequence
from decimal import Decimal
from operator import itemgetter
from typing import Any
from uuid import UUID

from django.db import connection
from django.db.backends.utils import CursorDebugWrapper
from django.db.models import Field, JSONField, Model
from django.utils import timezone
from psycopg import adapt
from psycopg.abc import Transformer

from .copy_text import copy_text


def _parameters_limit() -> int:
    """How many parameters one statement may hold on this connection."""
    if connection.vendor == "sqlite":
        connection.ensure_connection()
        return int(connection.connection.getlimit(sqlite3.SQLITE_LIMIT_VARIABLE_NUMBER))
    # psycopg binds on the client by default (Django's ClientCursor): no server limit applies, but
    # a statement of more than this many values is split all the same, to bound its size.
    return 500_000


def rows_update(model: type[Model], changes: Mapping[int, Mapping[str, Any]]) -> int:
    """Write, for each primary key in `changes`, the fields it maps to their new values (field
    names as the model names them, foreign keys as ids or rows; the values as Python has them).
    Rows and fields not named are not written. Returns the number of statements run."""
    rows = {pk: values for pk, values in changes.items() if values}
    if not rows:
        return 0
    names = sorted({name for values in rows.values() for name in values})
    if len(names) > 62:
        raise ValueError(f"{model.__name__}: at most 62 fields in one update, not {len(names)}")
    fields = [model._meta.get_field(name) for name in names]
    bit = {name: 1 << i for i, name in enumerate(names)}
    table = connection.ops.quote_name(model._meta.db_table)
    pk = connection.ops.quote_name(model._meta.pk.column)
    columns = [connection.ops.quote_name(f.column) for f in fields]
    postgres = connection.vendor == "postgresql"
    assignments = ", ".join(
        f"{column} = CASE WHEN (v.m & {1 << i}) <> 0 THEN v.c{i} ELSE {table}.{column} END"
        for i, column in enumerate(columns)
    )
    value_names = ", ".join(f"c{i}" for i in range(len(columns)))
    if postgres:
        # The rows as one JSON document the server unpacks, typed by the record set: one parameter,
        # where a VALUES list had psycopg quote every value into the statement's text (on the
        # largest campaign the scenarios' 360 battles, a 640 kB statement).
        plain = [_json_value(f) for f in fields]
        document = []
        for key, values in sorted(rows.items()):
            record: dict[str, Any] = {"id": key, "m": sum(bit[name] for name in values)}
            for i, name in enumerate(names):
                if name in values:
                    value = values[name]
                    record[f"c{i}"] = plain[i](value.pk if isinstance(value, Model) else value)
            document.append(record)
        types = ", ".join(
            ["id bigint", "m bigint", *(f"c{i} {f.cast_db_type(connection)}" for i, f in enumerate(fields))]
        )
        with connection.cursor() as cursor:
            cursor.execute(
                f"WITH v AS (SELECT * FROM jsonb_to_recordset(%s::jsonb) AS r({types})) "
                f"UPDATE {table} SET {assignments} FROM v WHERE {table}.{pk} = v.id",
                [json.dumps(document, default=_json_default)],
            )
        return 1
    # SQLite: a VALUES list, each value as it is.
    row_sql = "(" + ", ".join(["%s"] * (len(fields) + 2)) + ")"
    per_batch = max(1, _parameters_limit() // (len(fields) + 2))
    items = sorted(rows.items())
    statements = 0
    with connection.cursor() as cursor:
        for start in range(0, len(items), per_batch):
            batch = items[start : start + per_batch]
            params: list[Any] = []
            for key, values in batch:
                mask = sum(bit[name] for name in values)
                params += [key, mask]
                for name, field in zip(names, fields, strict=True):
                    value = values.get(name)
                    if isinstance(value, Model):
                        value = value.pk
                    params.append(field.get_db_prep_save(value, connection) if name in values else None)
            cursor.execute(
                f"WITH v(id, m, {value_names}) AS (VALUES {', '.join([row_sql] * len(batch))}) "
                f"UPDATE {table} SET {assignments} FROM v WHERE {table}.{pk} = v.id",
                params,
            )
            statements += 1
    return statements


def rows_insert(model: type[Model], rows: Sequence[Model]) -> int:
    """Insert `rows` (unsaved instances of `model`, their ids left to the database and not read
    back) in one statement (on SQLite one per batch of the connection's limit of parameters);
    returns the number of statements run. `records_insert` takes the rows as mappings, without the
    cost of an instance per row."""
    fields = _insert_fields(model)
    # The defaults and auto_now_add, as save() would.
    return records_insert(model, [{f.attname: f.pre_save(row, add=True) for f in fields} for row in rows])


def rows_insert_with_ids(model: type[Model], rows: Sequence[Model]) -> int:
    """Insert `rows` (unsaved instances of `model`) in their order and give each its primary key, as
    bulk_create does; returns the number of statements run. On PostgreSQL the ids are drawn from the
    table's sequence first (one query, in ascending order: what an insert of the rows in their order
    would have given them) and the rows sent by COPY with them, without bulk_create's statement
    compiled value by value; elsewhere it is bulk_create (SQLite returns the ids it gave)."""
    if not rows:
        return 0
    if connection.vendor != "postgresql":
        model._default_manager.bulk_create(rows)
        return 1
    table = model._meta.db_table
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT nextval(pg_get_serial_sequence(%s, %s)) FROM generate_series(1, %s)",
            [table, model._meta.pk.column, len(rows)],
        )
        ids = sorted(pk for (pk,) in cursor.fetchall())
    for row, pk in zip(rows, ids, strict=True):
        row.pk = pk
        row._state.adding, row._state.db = False, connection.alias  # as bulk_create leaves its rows
    fields = list(model._meta.concrete_fields)
    # The defaults and auto_now_add, as save() would.
    _copy_records(model, fields, [[f.pre_save(row, add=True) for f in fields] for row in rows])
    return 2


def records_insert(model: type[Model], records: Sequence[Mapping[str, Any]], *, ignore_conflicts: bool = False) -> int:
    """Insert `records`, each a mapping of `model`'s field attnames (`campaign_id`, not `campaign`) to
    their values as Python has them, in one statement (on SQLite one per batch of the connection's
    limit of parameters); a field a record leaves out takes its default (an `auto_now_add` one, the
    time of the insert). The ids are left to the database and not read back. `ignore_conflicts`: a
    row that would break a unique constraint is skipped, as with bulk_create's. Returns the number
    of statements run."""
    if not records:
        return 0
    fields, rows = _rows_of(_insert_fields(model), records)
    return _rows_insert(model, fields, rows, ignore_conflicts=ignore_conflicts)


def values_insert(model: type[Model], names: Sequence[str], rows: Sequence[tuple[Any, ...]]) -> int:
    """`records_insert`, each record given as the tuple of its values for the field attnames `names`
    rather than as a mapping (a turn's thousands of dice rolls without a dict each); the fields
    not named take their defaults. Returns the number of statements run."""
    if not rows:
        return 0
    fields = _insert_fields(model)
    by_name = {f.attname: f for f in fields}
    named = [by_name[name] for name in names]
    left_out = [f for f in fields if f.attname not in set(names)]
    now = timezone.now()
    tail = tuple(_default(f, now) for f in left_out)
    return _rows_insert(
        model, [*named, *left_out], [row + tail for row in rows] if tail else rows, ignore_conflicts=False
    )


def _rows_insert(
    model: type[Model], fields: Sequence[Field], rows: Sequence[Sequence[Any]], *, ignore_conflicts: bool
) -> int:
    """Insert `rows`, each the values of `fields` in their order (records_insert's and values_insert's)."""
    if connection.vendor != "postgresql":
        return _insert_values(model, fields, rows, ignore_conflicts=ignore_conflicts)
    table = connection.ops.quote_name(model._meta.db_table)
    columns = ", ".join(connection.ops.quote_name(f.column) for f in fields)
    if ignore_conflicts:
        # COPY cannot skip a row: the rows as one JSON document the server unpacks.
        types = ", ".join(f"{connection.ops.quote_name(f.column)} {f.cast_db_type(connection)}" for f in fields)
        plain = [_json_value(f) for f in fields]
        document = [{f.column: p(v) for f, p, v in zip(fields, plain, row, strict=True)} for row in rows]
        with connection.cursor() as cursor:
            cursor.execute(
                f"INSERT INTO {table} ({columns}) SELECT {columns} FROM jsonb_to_recordset(%s::jsonb) AS r({types}) "
                "ON CONFLICT DO NOTHING",
                [json.dumps(document, default=_json_default)],
            )
        return 1
    _copy_records(model, fields, rows)
    return 1


def _copy_records(model: type[Model], fields: Sequence[Field], rows: Sequence[Sequence[Any]]) -> None:
    """COPY `rows` (each the values of `fields`, in their order) into `model`'s table (PostgreSQL)."""
    table = connection.ops.quote_name(model._meta.db_table)
    columns = ", ".join(connection.ops.quote_name(f.column) for f in fields)
    value_of = [_copy_value(f) for f in fields]
    _copy(
        f"COPY {table} ({columns}) FROM STDIN",
        lambda transformer: copy_text(fields, rows, value_of=value_of, transformer=transformer),
    )


def _insert_fields(model: type[Model]) -> list[Field]:
    return [f for f in model._meta.concrete_fields if not f.primary_key]


def _rows_of(fields: Sequence[Field], records: Sequence[Mapping[str, Any]]) -> tuple[list[Field], list[Sequence[Any]]]:
    """Each record's values, and the fields they are the values of (`fields`, maybe in another
    order); a field a record leaves out takes its default, as a model instance would
    (Field.get_default), an auto_now(_add) one the time of the insert. Records that all name the
    same fields (a phase's thousands of rows) are read with one itemgetter each, the fields they
    leave out last, their defaults taken once (the values are only written, never kept)."""
    now = timezone.now()

    def default(field: Field) -> Any:
        return _default(field, now)

    keys = records[0].keys() if records else {}
    named = [f for f in fields if f.attname in keys]
    if named and len(keys) == len(named) and all(record.keys() == keys for record in records):
        left_out = [f for f in fields if f.attname not in keys]
        tail = tuple(default(f) for f in left_out)
        take = itemgetter(*(f.attname for f in named))
        if len(named) == 1:
            return [*named, *left_out], [(take(record), *tail) for record in records]
        return [*named, *left_out], [take(record) + tail for record in records]
    names = [f.attname for f in fields]
    return list(fields), [
        [record[name] if name in record else default(field) for name, field in zip(names, fields, strict=True)]
        for record in records
    ]


def _default(field: Field, now: dt.datetime) -> Any:
    """The value of `field` in a row that leaves it out: `now` for an auto_now(_add) field, else
    its default, as a model instance would take it."""
    if getattr(field, "auto_now_add", False) or getattr(field, "auto_now", False):
        return now
    return field.get_default()


_PLAIN = frozenset({int, str, bool, float, type(None)})


def _copy_value(field: Field) -> Callable[[Any], Any]:
    """How a value of `field` goes into COPY's rows: JSON as its text; a plain value as it is (psycopg
    writes it); a str or int enumeration as its value; anything else as Django prepares it."""
    if isinstance(field, JSONField):
        encoder = field.encoder
        return lambda value: None if value is None else json.dumps(value, cls=encoder)

    def value_of(value: Any) -> Any:
        if type(value) in _PLAIN:
            return value
        if isinstance(value, str):  # a StrEnum or TextChoices member: its text, never its name
            return str.__str__(value)
        if isinstance(value, dt.datetime) and value.tzinfo is not None:
            return value
        return field.get_db_prep_save(value, connection)

    return value_of


def _json_value(field: Field) -> Callable[[Any], Any]:
    """How a value of `field` goes into a JSON document for jsonb_to_recordset: JSON as it is (through
    the field's own encoder), the rest as COPY takes it."""
    if isinstance(field, JSONField):
        encoder = field.encoder
        if encoder is None:
            return lambda value: value
        return lambda value: None if value is None else json.loads(json.dumps(value, cls=encoder))
    return _copy_value(field)


def _json_default(value: Any) -> str:
    if isinstance(value, dt.date | dt.time | Decimal | UUID):
        return str(value)
    raise TypeError(f"{type(value).__name__} does not go into a JSON document of rows")


def _copy(sql: str, text: Callable[[Transformer], str]) -> None:
    """Run `COPY ... FROM STDIN` with the rows `text(transformer)` writes (PostgreSQL, psycopg's copy
    support; `transformer`: the connection's adapters) through Django's execute wrappers and query
    log, as cursor.execute would: psycopg's execute does not take a COPY, and a statement the
    wrappers did not see would be missing from every count of queries (the tests that pin the
    phases' queries, `make bench`, phase_steps_recorded)."""
    with connection.cursor() as cursor:

        def copy(sql: str, params: Any, many: bool, context: Any) -> None:
            connection.validate_no_broken_transaction()
            data = text(adapt.Transformer.from_context(cursor.cursor))
            with connection.wrap_database_errors, cursor.cursor.copy(sql) as stream:
                stream.write(data)

        if isinstance(cursor, CursorDebugWrapper):
            with cursor.debug_sql(sql):
                cursor._execute_with_wrappers(sql, None, many=False, executor=copy)
        else:
            cursor._execute_with_wrappers(sql, None, many=False, executor=copy)


def _insert_values(
    model: type[Model], fields: Sequence[Field], rows: Sequence[Sequence[Any]], *, ignore_conflicts: bool
) -> int:
    """SQLite: a multi-row `INSERT ... VALUES`, as bulk_create's, but in batches of the connection's
    own limit of parameters (250,000 for the SQLite Python ships) rather than Django's 999."""
    table = connection.ops.quote_name(model._meta.db_table)
    columns = ", ".join(connection.ops.quote_name(f.column) for f in fields)
    row_sql = "(" + ", ".join(["%s"] * len(fields)) + ")"
    per_batch = max(1, _parameters_limit() // len(fields))
    verb = "INSERT OR IGNORE" if ignore_conflicts else "INSERT"
    statements = 0
    with connection.cursor() as cursor:
        for start in range(0, len(rows), per_batch):
            batch = rows[start : start + per_batch]
            params = [
                field.get_db_prep_save(value, connection)
                for row in batch
                for field, value in zip(fields, row, strict=True)
            ]
            cursor.execute(f"{verb} INTO {table} ({columns}) VALUES {', '.join([row_sql] * len(batch))}", params)
            statements += 1
    return statements
