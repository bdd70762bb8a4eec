"""The statements a sheet's save writes by hand (issue 17's second pass, issue 35): the turn read
under its share lock with whatever else the save reads (its campaign, the kingdom's own rows), and
the sheet's row made or updated and locked in one statement. Each replaces several ORM queries on
the path every submission of the weekly rush takes (docs/performance.md, "One warm submission")."""

from __future__ import annotations

import contextlib
import datetime as dt
import functools
from typing import Any

from django.db import OperationalError, connection
from django.utils import timezone

from briternia.locks import LOCK_NOT_AVAILABLE
from briternia.one_statement import model_from_row, row_converters_build
from briternia.prepared import prepared_cursor
from kingdoms.models import Campaign, Kingdom
from kingdoms.services.kingdom_rows import KingdomRows, kingdom_rows_compiled, kingdom_rows_decode
from turns.models import Turn

from ..models import OrderSheet, OrderSubmission
from ..selectors import order_sheet_turn_statement_build, order_sheet_turn_statement_prepare

# The kingdom's armies' fields the receipt reads beside the world's (describe.ARMY_ROW_FIELDS).
ARMY_EXTRA = ("province__number",)


# The sheet row's columns as `sheet_row_written` writes them (its statement is built for them).
SHEET_ROW_COLUMNS = ("turn_id", "kingdom_id", "status", "entries", "updated_at", "submitted_at")


def sheet_statements_build() -> None:
    """Every hand-written statement of a submission built now, with its rows' converters (a web
    worker's warm-up, briternia/warm.py): built by the first request that needs each, the eight
    threads of a worker that the rush reaches at once would each build them."""
    vendor = connection.vendor
    order_sheet_turn_statement_build()
    kingdom_rows_compiled(*ARMY_EXTRA)
    for wait in (True, False):
        _turn_share_locked_sql(vendor, wait=wait)
    for submit in (True, False):
        _sheet_row_written_sql(vendor, submit=submit, columns=SHEET_ROW_COLUMNS)
    row_converters_build(Turn, Campaign, OrderSheet)


def sheet_statements_prepare() -> None:
    """On PostgreSQL, this thread's connection prepares a submission's reading statements now (a
    web worker's warm-up, briternia/warm.py), run once for a turn and a user that do not exist: the
    server plans each and loads the catalogue of the tables they read for this connection's
    process, which the rush's first sheet on each of the worker's connections paid (about 2 ms of
    PostgreSQL's CPU per submission of a first wave). Reads nothing, locks nothing, writes nothing;
    only on a connection already open (a thread that could not connect leaves it to its requests)."""
    if not _pg() or connection.connection is None:
        return
    order_sheet_turn_statement_prepare()
    with contextlib.suppress(Turn.DoesNotExist):
        turn_share_locked(0, kingdom=0, wait=False)  # FOR SHARE of no row, outside a transaction


class TurnRowHeld(Exception):
    """The turn's row is held (by a running phase, or a change of the turn) and its share lock was
    not waited for (`turn_share_locked` without `wait`); the transaction is to be rolled back."""


def turn_share_locked(
    turn_id: int, *, kingdom: int | None = None, wait: bool = True
) -> tuple[Turn, KingdomRows | None]:
    """The turn with its campaign, read under a share lock of the turn row held until the sheet's
    transaction ends, and with `kingdom` its own rows (`kingdom_rows`, with ARMY_EXTRA), all in one
    statement.

    PostgreSQL: sheets of different kingdoms hold the share lock together and never wait for each
    other, while the orders phase's claim (an UPDATE of the row) waits until every sheet already in
    flight is saved, so the resolution reads them all. Django locks rows only FOR UPDATE
    (select_for_update), which would make the sheets wait for each other: the statement is written
    by hand. Without `wait` the lock is not waited for (NOWAIT: TurnRowHeld is raised at once if
    the row is held, by a running phase above all, instead of queueing on it); the kingdom's rows are
    read only then: a statement that waited for the lock would have read them as they stood before
    it waited.

    SQLite runs one writer at a time and has no row locks: the sheet takes the database's write lock
    first, with an update that changes nothing and returns the rows (RETURNING), so a claim cannot
    commit between its reading the turn and its writing the submission."""
    compiled = kingdom_rows_compiled(*ARMY_EXTRA) if kingdom is not None and not (wait and _pg()) else None
    extra_sql, extra_params = compiled.columns(kingdom) if compiled and kingdom is not None else ("", [])
    head, tail = _turn_share_locked_sql(connection.vendor, wait=wait)
    params = [*extra_params, turn_id] if _pg() else [turn_id, *extra_params]
    with prepared_cursor() as cursor:
        try:
            cursor.execute(f"{head}, {extra_sql}{tail}" if extra_sql else f"{head}{tail}", params)
        except OperationalError as exc:
            if not wait and getattr(exc.__cause__, "sqlstate", None) == LOCK_NOT_AVAILABLE:
                raise TurnRowHeld(turn_id) from exc
            raise
        row = cursor.fetchone()
    if row is None:
        raise Turn.DoesNotExist(f"No turn {turn_id}.")
    turn_count, campaign_count = len(Turn._meta.concrete_fields), len(Campaign._meta.concrete_fields)
    split = turn_count + campaign_count
    turn = model_from_row(Turn, row[:turn_count])
    turn.campaign = model_from_row(Campaign, row[turn_count:split])
    return turn, kingdom_rows_decode(compiled, row[split:], *ARMY_EXTRA) if compiled else None


@functools.cache
def _turn_share_locked_sql(vendor: str, *, wait: bool) -> tuple[str, str]:
    """`turn_share_locked`'s statement (built once), in two: the kingdom's rows go between."""
    quote = connection.ops.quote_name
    turn_fields, campaign_fields = Turn._meta.concrete_fields, Campaign._meta.concrete_fields
    turn_table, campaign_table = quote(Turn._meta.db_table), quote(Campaign._meta.db_table)
    campaign_column = quote(Turn._meta.get_field("campaign").column)
    if vendor == "postgresql":
        columns = [f"t.{quote(f.column)}" for f in turn_fields] + [f"c.{quote(f.column)}" for f in campaign_fields]
        return (
            f"SELECT {', '.join(columns)}",
            f" FROM {turn_table} t INNER JOIN {campaign_table} c ON c.id = t.{campaign_column} "
            f"WHERE t.id = %s FOR SHARE OF t{'' if wait else ' NOWAIT'}",
        )
    columns = [f"{turn_table}.{quote(f.column)}" for f in turn_fields] + [
        f"(SELECT c.{quote(f.column)} FROM {campaign_table} c WHERE c.id = {turn_table}.{campaign_column})"
        for f in campaign_fields
    ]
    return f"UPDATE {turn_table} SET status = status WHERE id = %s RETURNING {', '.join(columns)}", ""


@functools.cache
def _sheet_row_written_sql(vendor: str, *, submit: bool, columns: tuple[str, ...]) -> str:
    """`sheet_row_written`'s statement for `columns`' values (built once)."""
    quote = connection.ops.quote_name
    table = quote(OrderSheet._meta.db_table)
    field = OrderSheet._meta.get_field
    updated = ["entries", "updated_at"]
    if submit:
        updated.append("status")
    assignments = [f"{quote(field(name).column)} = excluded.{quote(field(name).column)}" for name in updated]
    if submit:
        # The last to arrive stands (`standing_submission`): the sheet's time is the latest arrival.
        at = quote(field("submitted_at").column)
        assignments.append(
            f"{at} = CASE WHEN {table}.{at} IS NULL OR {table}.{at} < excluded.{at} "
            f"THEN excluded.{at} ELSE {table}.{at} END"
        )
    kept = OrderSubmission._meta.get_field
    records = (
        f"EXISTS (SELECT 1 FROM {quote(OrderSubmission._meta.db_table)} s "
        f"WHERE s.{quote(kept('sheet').column)} = {table}.id AND s.{quote(kept('for_record').column)})"
    )
    returned = [f"{table}.{quote(f.column)}" for f in OrderSheet._meta.concrete_fields]
    return (
        f"INSERT INTO {table} ({', '.join(quote(field(c).column) for c in columns)}) "
        f"VALUES ({', '.join(['%s'] * len(columns))}) "
        f"ON CONFLICT ({quote(field('turn').column)}, {quote(field('kingdom').column)}) "
        f"DO UPDATE SET {', '.join(assignments)} "
        f"RETURNING {', '.join(returned)}, {records}"
    )


def _pg() -> bool:
    return connection.vendor == "postgresql"


def sheet_row_written(
    *, turn: Turn, kingdom: Kingdom, entries: dict[str, Any], submit: bool, arrived_at: dt.datetime
) -> OrderSheet:
    """The kingdom's sheet for the turn made, or updated, and locked until the transaction ends, in
    one statement (an INSERT ... ON CONFLICT DO UPDATE ... RETURNING, where it was a make, a lock
    and an update): `entries` is its working copy; a submission (`submit`) marks it submitted and
    moves its `submitted_at` to `arrived_at` unless a later arrival stands already. A save racing
    this one for the same sheet waits for it, then updates what it wrote.

    The sheet returned carries `has_records` (whether any of its submissions was kept for the
    record: the answer lists them), read in the same statement, and its turn and kingdom."""
    values = dict(
        zip(
            SHEET_ROW_COLUMNS,
            (
                turn.pk,
                kingdom.pk,
                OrderSheet.Status.SUBMITTED if submit else OrderSheet.Status.DRAFT,
                entries,
                timezone.now(),
                arrived_at if submit else None,
            ),
            strict=True,
        )
    )
    field = OrderSheet._meta.get_field
    params = [field(name).get_db_prep_save(value, connection) for name, value in values.items()]
    sql = _sheet_row_written_sql(connection.vendor, submit=submit, columns=SHEET_ROW_COLUMNS)
    with prepared_cursor() as cursor:
        cursor.execute(sql, params)
        row = cursor.fetchone()
    sheet = model_from_row(OrderSheet, row[:-1])
    sheet.has_records = bool(row[-1])  # type: ignore[attr-defined]
    sheet.turn, sheet.kingdom = turn, kingdom  # the answer reads them: not again
    return sheet
