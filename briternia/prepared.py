"""Hot statements kept prepared by PostgreSQL (issue 35): the weekly rush's submissions send the
same few hand-written statements thousands of times, and PostgreSQL planned each one anew every
time: the turn read under its share lock with the kingdom's own rows (six subqueries) took about
1 ms to plan and 0.3 ms to run, most of the database's CPU per submission.

Django sends every statement with its parameters bound on the client (psycopg's ClientCursor), so
nothing can be prepared. `prepared_cursor` hands out a cursor that binds them on the server
instead (Django's own ServerBindingCursor), on the same connection and transaction, wrapped as
Django wraps any cursor (errors, the query log and counts see it). With settings'
DATABASE_PREPARED_STATEMENTS the connection prepares each statement such a cursor runs the first
time (psycopg's `prepare_threshold` 0: the client-bound cursors never prepare) and runs the
prepared one from then on, for as long as the persistent connection lives (psycopg drops them all
at a rollback, and beyond its 100 most recent). Without it (behind a pooler in transaction mode,
where a prepared statement would not follow the connection), or on SQLite, it is the usual cursor.
"""

from __future__ import annotations

import functools
from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager
from typing import Any

from django.conf import settings
from django.db import connection
from django.db.backends.utils import CursorWrapper


def prepared_statements_enabled() -> bool:
    return connection.vendor == "postgresql" and settings.DATABASE_PREPARED_STATEMENTS


@contextmanager
def prepared_cursor() -> Iterator[CursorWrapper]:
    """A cursor of the default connection whose statements PostgreSQL keeps prepared (see above)."""
    with connection.cursor() as cursor:  # Django's checks: the connection, its health, its thread
        if not prepared_statements_enabled():
            yield cursor
            return
        from django.db.backends.postgresql.base import ServerBindingCursor

        server_bound = ServerBindingCursor(connection.connection)
        try:
            if connection.queries_logged:
                yield _logged_wrapper()(server_bound, connection)
            else:
                yield connection.make_cursor(server_bound)
        finally:
            server_bound.close()


@functools.cache
def _logged_wrapper() -> type[CursorWrapper]:
    from django.db.backends.postgresql.base import CursorDebugWrapper

    class ServerBoundDebugWrapper(CursorDebugWrapper):  # type: ignore[misc,valid-type]
        """Django's wrapper while queries are logged (DEBUG, the tests' query counts): each
        statement logged with its parameters in place, as the client-bound cursor sends it (a
        prepared statement's own text has none: Django would log nothing)."""

        def debug_sql(
            self, sql: Any = None, params: Any = None, use_last_executed_query: bool = False, many: bool = False
        ) -> AbstractContextManager[None]:
            if use_last_executed_query:
                sql = self.db.ops.compose_sql(sql, params)
            return super().debug_sql(sql, params, use_last_executed_query=False, many=many)  # type: ignore[no-any-return]

    return ServerBoundDebugWrapper
