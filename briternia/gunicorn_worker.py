"""gunicorn's threaded worker (gthread), stamping each request when the worker's main loop takes it
(gunicorn.conf.py names it as `worker_class`).

The main loop accepts connections at once (up to `worker_connections`) and hands each to a pool of
`threads`; when every thread is busy (the weekly rush) a request waits for one, and the time Django
sees is when a thread got to it, not when it reached the site. So the loop stamps the connection as
it hands it over, and the thread that serves it leaves the stamp in the WSGI environ under
briternia.arrival.ENVIRON_KEY, where the arrival middleware takes it (the earliest trusted time wins).

A request is stamped when its first bytes are there to read: a connection accepted before its client
has written waits on the loop's poller (not in a thread) and is stamped when it becomes readable, so
a client gains nothing by connecting early and writing late.
"""

from __future__ import annotations

import select
import selectors
import threading
import time
from functools import partial
from typing import Any

from gunicorn.workers.gthread import DEFAULT_WORKER_DATA_TIMEOUT, ThreadWorker

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
        if not conn.initialized and not conn.data_ready and self.alive and not _readable(conn.sock):
            # Just accepted, its request not sent yet (the client writes once connected): the loop
            # waits for it on its poller, as gunicorn does for a connection a thread gave up on, and
            # stamps it the moment it is readable (on_pending_socket_readable comes back here).
            conn.sock.setblocking(False)
            conn.timeout = time.monotonic() + DEFAULT_WORKER_DATA_TIMEOUT + self.cfg.keepalive
            self.pending_conns.append(conn)
            self.poller.register(conn.sock, selectors.EVENT_READ, partial(self.on_pending_socket_readable, conn))
            return
        conn.briternia_received_at = time.time()
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
