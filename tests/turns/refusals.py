"""A database that refuses to write a turn's log (a full disk, say), for the tests of a phase that
fails: the phase's events are its last big insert, after the world and the ledgers are written, so
a refusal there shows that everything before it is rolled back too.

The refusal is the database's, not a stand-in for our own code: `events_refused` fails every insert
into the log on its way to the database (an INSERT, or the COPY the phases write it with on
PostgreSQL) through Django's execute wrappers, with the error it is given; `turn_events_refused`
has the database itself refuse one turn's events (a trigger), so the other turns' still go in."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from typing import Any

from django.db import connection

from turns.models import Turn, TurnEvent

_TABLE = TurnEvent._meta.db_table


def _writes_the_log(sql: str) -> bool:
    return _TABLE in sql and sql.lstrip().upper().startswith(("INSERT", "COPY"))


class EventsRefused:
    """Every insert into the turns' log fails with `error` until `undo()` (the disk has room again)."""

    def __init__(self, error: Exception) -> None:
        def refuse(execute: Callable[..., Any], sql: str, params: Any, many: bool, context: Any) -> Any:
            if _writes_the_log(sql):
                raise error
            return execute(sql, params, many, context)

        self._stack = ExitStack()
        self._stack.enter_context(connection.execute_wrapper(refuse))

    def undo(self) -> None:
        self._stack.close()


@contextmanager
def events_refused(error: Exception) -> Iterator[EventsRefused]:
    refused = EventsRefused(error)
    try:
        yield refused
    finally:
        refused.undo()


@contextmanager
def turn_events_refused(turn: Turn, message: str) -> Iterator[None]:
    """The database refuses the events of `turn` only (a trigger raising `message`), until the block ends."""
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute(
                "CREATE FUNCTION test_turn_events_refused() RETURNS trigger AS "
                f"$$ BEGIN RAISE EXCEPTION '{message}'; END $$ LANGUAGE plpgsql"
            )
            cursor.execute(
                f"CREATE TRIGGER test_turn_events_refused BEFORE INSERT ON {_TABLE} FOR EACH ROW "
                f"WHEN (NEW.turn_id = {int(turn.pk)}) EXECUTE FUNCTION test_turn_events_refused()"
            )
        else:
            cursor.execute(
                f"CREATE TRIGGER test_turn_events_refused BEFORE INSERT ON {_TABLE} "
                f"WHEN NEW.turn_id = {int(turn.pk)} BEGIN SELECT RAISE(ABORT, '{message}'); END"
            )
    try:
        yield
    finally:
        with connection.cursor() as cursor:
            if connection.vendor == "postgresql":
                cursor.execute(f"DROP TRIGGER test_turn_events_refused ON {_TABLE}")
                cursor.execute("DROP FUNCTION test_turn_events_refused()")
            else:
                cursor.execute("DROP TRIGGER test_turn_events_refused")
