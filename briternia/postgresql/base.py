"""Django's PostgreSQL backend, its health check without a round trip while the connection is quiet.

With CONN_HEALTH_CHECKS (briternia/settings.py) Django checks a kept connection before the first
query of each request: `SELECT 1`, a round trip to the server at every request (issue 35: one more
statement for each of the rush's submissions, on both sides). A kept connection the server has
closed (a restart, `pg_terminate_backend`, an idle timeout) has something to read: the server's
last message, or the end of the stream. So the check first asks the kernel, without reading or
waiting, whether the idle connection's socket has anything to read: nothing there, the connection
stands as the last request left it, and no statement is sent; anything there, Django's own check
runs (`SELECT 1`, which reads it) and drops a connection that fails. A host that vanished without
closing its end is found by neither check until the first query's own timeout, as before.
"""

from __future__ import annotations

import select
from typing import Any

from django.db.backends.postgresql import base as postgresql
from psycopg import pq  # the project's driver (requirements.txt): psycopg 3


def connection_quiet(connection: Any) -> bool:
    """Whether a psycopg connection is open, outside any transaction, and has nothing on its socket
    to read (asked of the kernel, without waiting): the server has neither closed it nor said
    anything since its last answer."""
    if connection.closed or connection.pgconn.status != pq.ConnStatus.OK:
        return False
    if connection.info.transaction_status != pq.TransactionStatus.IDLE:
        return False
    try:
        poller = select.poll()
        poller.register(connection.fileno(), select.POLLIN | select.POLLPRI)
        return not poller.poll(0)
    except (OSError, ValueError, AttributeError):  # no poll() on this system, or no socket
        return False


class DatabaseWrapper(postgresql.DatabaseWrapper):
    def close_if_health_check_failed(self) -> None:
        if (
            self.connection is not None
            and self.health_check_enabled
            and not self.health_check_done
            and not self.pool
            and connection_quiet(self.connection)
        ):
            self.health_check_done = True
            return
        super().close_if_health_check_failed()
