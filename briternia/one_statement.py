"""Several reads in one statement (issue 35): a hot path that needs a handful of small row sets (an
order sheet's kingdom: its armies, their lists, its gold) pays for each query it sends, in Python
(building, compiling, running it and converting its rows: about a millisecond each) and in round
trips. Here each row set is the ORM's own query, compiled as usual and read as one JSON column
of the same statement (PostgreSQL `json_agg`, SQLite `json_group_array`), so the filters stay
written once in the ORM and the caller decides what else the statement reads (a row it locks).

Only the types a JSON document holds travel this way: integers, text, booleans (SQLite's 0 and 1
made booleans again), JSON fields and nulls; a row set with a date, a decimal or a float would come
back as text or a float, so `RowSet` refuses one.
"""

from __future__ import annotations

import dataclasses
import functools
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from django.db import connection, models

ModelT = TypeVar("ModelT", bound=models.Model)


@dataclass(frozen=True)
class RowSet:
    """A `values_list` queryset read as one column of a larger statement. `order`: the columns
    (indexes) the rows are sorted by, in Python (an order inside an aggregate is not portable between
    the two databases); its last `keys_only` columns are read only to sort by, and dropped."""

    query: models.QuerySet[Any]
    order: tuple[int, ...] = ()
    keys_only: int = 0
    # The model field behind each selected column (None for an annotation, such as a sum).
    fields: tuple[models.Field[Any, Any] | None, ...] = dataclasses.field(init=False)

    def __post_init__(self) -> None:
        query = self.query.query
        annotations = set(query.annotation_select)
        fields = tuple(None if name in annotations else _field(self.query.model, name) for name in _selected(query))
        for selected in fields:
            if selected is not None and not isinstance(selected, _JSON_SAFE):
                raise TypeError(f"{selected!r} does not travel as JSON unchanged: read it with a query of its own.")
        object.__setattr__(self, "fields", fields)

    def column_sql(self) -> tuple[str, list[Any]]:
        """The scalar subquery that reads the rows as one JSON array of arrays, and its parameters."""
        sql, params = self.query.query.sql_with_params()
        fields = self.fields
        names = [f"c{i}" for i in range(len(fields))]
        if connection.vendor == "postgresql":
            items = ", ".join(names)
            agg = f"coalesce(json_agg(json_build_array({items})), '[]')"
        else:
            # SQLite stores a JSON field as text: json() embeds it as JSON, not as a string.
            items = ", ".join(
                f"json({n})" if isinstance(f, models.JSONField) else n for n, f in zip(names, fields, strict=True)
            )
            agg = f"json_group_array(json_array({items}))"
        return f"(WITH s({', '.join(names)}) AS ({sql}) SELECT {agg} FROM s)", list(params)

    def decode(self, value: Any) -> list[tuple[Any, ...]]:
        """The rows of the column `column_sql` read, as `values_list` gives them."""
        rows = json.loads(value) if isinstance(value, str | bytes) else value
        flags = [i for i, f in enumerate(self.fields) if isinstance(f, models.BooleanField)]
        if flags and connection.vendor != "postgresql":
            for row in rows:
                for i in flags:
                    if row[i] is not None:
                        row[i] = bool(row[i])
        if self.order:
            rows.sort(key=lambda row: [row[i] for i in self.order])
        if self.keys_only:
            return [tuple(row[: -self.keys_only]) for row in rows]
        return [tuple(row) for row in rows]


_JSON_SAFE = (
    models.IntegerField,  # the positive and small ones too
    models.AutoField,
    models.BigAutoField,
    models.CharField,
    models.TextField,
    models.BooleanField,
    models.JSONField,
    models.ForeignKey,
)


def _selected(query: Any) -> list[str]:
    """The names a values_list query selects, in order (fields, then annotations)."""
    if query.selected:
        return list(query.selected)
    return [*query.values_select, *query.annotation_select]


def _field(model: type[models.Model], path: str) -> models.Field[Any, Any]:
    """The field `path` names from `model` (`unit__army_id`: Unit's `army`)."""
    *joins, last = path.split("__")
    for name in joins:
        model = model._meta.get_field(name).related_model  # type: ignore[assignment]
    return model._meta.get_field(last)  # type: ignore[return-value]


@dataclass(frozen=True)
class RowSetsCompiled:
    """Row sets that differ only by one value (a kingdom's id), compiled once (`row_sets_compiled`):
    building and compiling the ORM's queries was most of what reading them cost."""

    row_sets: tuple[RowSet, ...]
    sql: str  # the columns, comma-separated
    params: tuple[Any, ...]  # with the placeholder value where the value goes
    at: tuple[int, ...]  # where the value goes in `params`

    def columns(self, value: int) -> tuple[str, list[Any]]:
        """The columns' SQL and their parameters for `value`."""
        params = list(self.params)
        for i in self.at:
            params[i] = value
        return self.sql, params

    def decode(self, values: Sequence[Any]) -> list[list[tuple[Any, ...]]]:
        """The rows of each row set, from the columns read (in their order)."""
        return [rows.decode(value) for rows, value in zip(self.row_sets, values, strict=True)]


# No id is negative: the placeholder is found among the compiled parameters and nowhere else.
_PLACEHOLDER = -735_173_517


def row_sets_compiled(build: Callable[[int], Sequence[RowSet]]) -> RowSetsCompiled:
    """The row sets `build(value)` makes, compiled for this connection's database once, for any
    value: callers keep the result (per database vendor)."""
    row_sets = tuple(build(_PLACEHOLDER))
    columns = [rows.column_sql() for rows in row_sets]
    params = tuple(p for _, column_params in columns for p in column_params)
    at = tuple(i for i, p in enumerate(params) if type(p) is int and p == _PLACEHOLDER)
    if not at or any(str(_PLACEHOLDER) in sql for sql, _ in columns):
        raise ValueError("The row sets must take the value as a query parameter.")
    return RowSetsCompiled(row_sets=row_sets, sql=", ".join(sql for sql, _ in columns), params=params, at=at)


def row_sets_read(compiled: RowSetsCompiled, value: int) -> list[list[tuple[Any, ...]]]:
    """The rows of each of the compiled row sets for `value`, in one statement."""
    sql, params = compiled.columns(value)
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT {sql}", params)
        values = cursor.fetchone()
    return compiled.decode(values)


def model_from_row(model: type[ModelT], values: Sequence[Any]) -> ModelT:
    """An instance of `model` from its concrete fields' column values, converted as a query would
    (a row read by a hand-written statement)."""
    names, converters = _converters(model, connection.vendor)
    converted = list(values)
    for i, column, convert in converters:
        converted[i] = convert(converted[i], column, connection)
    return model.from_db(connection.alias, names, converted)


def row_converters_build(*models: type[models.Model]) -> None:
    """Look up each model's converters now (`model_from_row`'s; a web worker's warm-up)."""
    for model in models:
        _converters(model, connection.vendor)


@functools.cache
def _converters(model: type[models.Model], vendor: str) -> tuple[list[str], list[tuple[int, Any, Any]]]:
    """`model`'s concrete fields' attribute names, and each column's converters from the database's
    values (by the field's index), as a query applies them; looked up once per model."""
    fields = model._meta.concrete_fields
    converters = []
    for i, concrete in enumerate(fields):
        column = concrete.get_col(model._meta.db_table)
        for convert in connection.ops.get_db_converters(column) + concrete.get_db_converters(connection):
            converters.append((i, column, convert))
    return [f.attname for f in fields], converters
