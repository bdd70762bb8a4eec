"""Writing many rows of one table in one set-based statement: `rows_update` updates each row only in
the fields that changed for it (the one world writer's, kingdoms.services.world_write, and the
scenarios' writes); `rows_insert` inserts rows whose ids nobody reads back (a turn's dice rolls).

Django's `bulk_update` builds a `CASE WHEN id = ... THEN ...` per row per field (on the largest
campaign 28,860 expressions compiled in Python: most of the orders phase's time), and writes every
named field of every row. Here the changed values go in a `VALUES` list joined to the table by id:

    WITH v(id, m, c0, c1) AS (VALUES (%s, %s, %s, %s), ...)
    UPDATE t SET c0 = CASE WHEN v.m & 1 <> 0 THEN v.c0 ELSE t.c0 END, ...
    FROM v WHERE t.id = v.id

`m` is a bit mask of the fields that changed in that row, so a row keeps as stored every field the
writer did not change (a column set behind the writer's back stays set), and the statement names
only the fields that changed in some row: one statement per table whatever the number of rows
(PostgreSQL, and SQLite from 3.33 on, have UPDATE ... FROM). On SQLite a statement holds at most
the connection's limit of parameters (250,000 for the SQLite Python ships), so a table of more
rows than that allows takes a statement per batch.

`rows_insert` sends the rows to PostgreSQL as one JSON document that the server unpacks
(`jsonb_to_recordset`): one parameter and one statement however many rows, where Django's
`bulk_create` prepares, adapts and quotes every value (ten thousand dice rolls: about 30% less
Python CPU, measured). On SQLite, where unpacking JSON in the database is slower (measured too),
it is a multi-row VALUES as Django's bulk_create writes, in batches of SQLite's real limit of
parameters rather than Django's 999."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Mapping, Sequence
from typing import Any

from django.db import connection
from django.db.models import JSONField, Model


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
    # PostgreSQL types a VALUES list from its rows: every value cast to its column's type (a NULL or
    # a JSON text would not say it); SQLite takes each value as it is.
    casts = (
        ["::bigint", "::bigint", *(f"::{f.cast_db_type(connection)}" for f in fields)]
        if postgres
        else [""] * (len(fields) + 2)
    )
    row_sql = "(" + ", ".join(f"%s{cast}" for cast in casts) + ")"
    assignments = ", ".join(
        f"{column} = CASE WHEN (v.m & {1 << i}) <> 0 THEN v.c{i} ELSE {table}.{column} END"
        for i, column in enumerate(columns)
    )
    value_names = ", ".join(f"c{i}" for i in range(len(columns)))
    per_batch = max(1, _parameters_limit() // len(casts))
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
    returns the number of statements run."""
    if not rows:
        return 0
    fields = [f for f in model._meta.concrete_fields if not f.primary_key]
    if connection.vendor != "postgresql":
        return _rows_insert_values(model, fields, rows)
    document = []
    for row in rows:
        record: dict[str, Any] = {}
        for field in fields:
            value = field.pre_save(row, add=True)  # the defaults and auto_now_add, as save() would
            if isinstance(field, JSONField):
                # A jsonb column of the record set: the value as it is (through the field's own encoder).
                record[field.column] = (
                    value if field.encoder is None else json.loads(json.dumps(value, cls=field.encoder))
                )
            else:
                record[field.column] = field.get_db_prep_save(value, connection)
        document.append(record)
    table = connection.ops.quote_name(model._meta.db_table)
    columns = ", ".join(connection.ops.quote_name(f.column) for f in fields)
    types = ", ".join(f"{connection.ops.quote_name(f.column)} {f.cast_db_type(connection)}" for f in fields)
    sql = f"INSERT INTO {table} ({columns}) SELECT {columns} FROM jsonb_to_recordset(%s::jsonb) AS r({types})"
    with connection.cursor() as cursor:
        cursor.execute(sql, [json.dumps(document, default=str)])
    return 1


def _rows_insert_values(model: type[Model], fields: list[Any], rows: Sequence[Model]) -> int:
    """SQLite: a multi-row `INSERT ... VALUES`, as bulk_create's, but in batches of the connection's
    own limit of parameters (250,000 for the SQLite Python ships) rather than Django's 999."""
    table = connection.ops.quote_name(model._meta.db_table)
    columns = ", ".join(connection.ops.quote_name(f.column) for f in fields)
    row_sql = "(" + ", ".join(["%s"] * len(fields)) + ")"
    per_batch = max(1, _parameters_limit() // len(fields))
    statements = 0
    with connection.cursor() as cursor:
        for start in range(0, len(rows), per_batch):
            batch = rows[start : start + per_batch]
            params = [
                field.get_db_prep_save(field.pre_save(row, add=True), connection) for row in batch for field in fields
            ]
            cursor.execute(f"INSERT INTO {table} ({columns}) VALUES {', '.join([row_sql] * len(batch))}", params)
            statements += 1
    return statements
