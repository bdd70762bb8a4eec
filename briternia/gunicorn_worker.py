"""gunicorn's threaded worker (gthread), stamping each request when the worker's main loop takes it
(gunicorn.conf.py names it as `worker_class`).

The main loop accepts connections at once (up to `worker_connections`) and hands each to a pool of
`threads`; when every thread is busy (the weekly rush) a request waits for one, and the time Django
sees is when a thread got to it, not when it reached the site. So the loop stamps the connection as
it hands it over, and the thread that serves it leaves the stamp in the WSGI environ under
briternia.arrival.ENVIRON_KEY, where the arrival middleware takes it (the earliest trusted time wins).

A new connection is stamped only if its request is already there to read: one opened early and
written late is stamped by the thread instead, so a slow client gains nothing by connecting first.
"""

from __future__ import annotations

import select
import threading
import time
from typing import Any

from gunicorn.workers.gthread import ThreadWorker

from .arrival import ENVIRON_KEY

_serving = threading.local()


def _readable(sock: Any) -> bool:
    try:
        ready, _, _ = select.select([sock], [], [], 0)
    except (OSError, ValueError):
        return False
    return bool(ready)


class StampingThreadWorker(ThreadWorker):  # type: ignore[misc]
    def enqueue_req(self, conn: Any) -> None:
        conn.briternia_received_at = time.time() if _readable(conn.sock) else None
        super().enqueue_req(conn)

    def handle(self, conn: Any) -> Any:
        _serving.received_at = getattr(conn, "briternia_received_at", None)
        try:
            return super().handle(conn)
        finally:
            _serving.received_at = None

    def load_wsgi(self) -> None:
        super().load_wsgi()
        app = self.wsgi

        def stamped(environ: dict[str, Any], start_response: Any) -> Any:
            received = getattr(_serving, "received_at", None)
            if received is not None:
                environ[ENVIRON_KEY] = received
            return app(environ, start_response)

        self.wsgi = stamped
