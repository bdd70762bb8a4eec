"""gunicorn's threaded worker (gthread), stamping each request with the time its first bytes reached
the machine, and taking a connection only while one of its threads is free, so the workers share
the rush evenly (gunicorn.conf.py names it as `worker_class`).

The stamp. The worker asks the kernel to timestamp what arrives on its TCP listeners
(`SO_TIMESTAMPNS`, inherited by every accepted connection) and reads, without consuming it, the
time the request's first byte arrived. That time does not depend on how long the connection then
waited: in the listen backlog, on the loop's poller, or for a thread. The thread that serves the
request leaves the stamp in the WSGI environ under briternia.arrival.ENVIRON_KEY, where the arrival
middleware takes it (the earliest trusted time wins). A connection whose client has not written yet
waits on the loop's poller (not in a thread) and is stamped from its first bytes, so a client gains
nothing by connecting early and writing late. Where the kernel gives no time (a Unix socket), the
loop's clock when it hands the request to a thread stands in, as before.

The fair share. Every worker's loop waits on the same listening socket, and gunicorn's gthread loop
accepts whenever it can (up to `worker_connections`, 1,000): the loop that wakes first takes the
connection, whether its threads are idle or all busy. Under the rush that piled requests on one
worker while another had idle threads (issue 35: 81, 64 and 57 requests over three workers, the
busiest one's median 1.7 times the others'). With the kernel's stamp a request loses nothing by
waiting in the backlog, so this worker stops accepting while all of its `threads` are serving, and
the next free thread of any worker takes the oldest connection waiting: one queue for all workers.
Without a kernel stamp it accepts as gunicorn does (a request must reach the loop to be stamped).
"""

from __future__ import annotations

import select
import selectors
import socket
import struct
import sys
import threading
import time
from functools import partial
from typing import Any

from gunicorn.workers.gthread import DEFAULT_WORKER_DATA_TIMEOUT, ThreadWorker

from .arrival import ENVIRON_KEY

_serving = threading.local()

# Linux's number for the option (Python 3.11's socket module does not name it; the ancillary
# message's type, SCM_TIMESTAMPNS, is the same number). Elsewhere the worker takes no kernel stamp.
SO_TIMESTAMPNS: int | None = getattr(socket, "SO_TIMESTAMPNS", 35 if sys.platform == "linux" else None)
_TIMESPEC = struct.Struct("@qq")  # struct timespec on a 64-bit Linux: seconds, nanoseconds


def _readable(sock: Any) -> bool:
    try:
        ready, _, _ = select.select([sock], [], [], 0)
    except (OSError, ValueError):
        return False
    return bool(ready)


def listener_timestamps_enable(listener: Any) -> bool:
    """Asks the kernel to timestamp every packet a TCP listener's connections receive; whether it
    does (a Unix socket, or a system without the option, does not)."""
    if SO_TIMESTAMPNS is None or getattr(listener, "family", None) not in (socket.AF_INET, socket.AF_INET6):
        return False
    try:
        listener.setsockopt(socket.SOL_SOCKET, SO_TIMESTAMPNS, 1)
        return bool(listener.getsockopt(socket.SOL_SOCKET, SO_TIMESTAMPNS))
    except OSError:
        return False


def first_byte_arrival(sock: Any) -> float | None:
    """When the first unread byte on `sock` reached the machine (seconds since the epoch), by the
    kernel's timestamp, leaving the byte to be read; None when nothing is there to read yet or the
    kernel gave no time."""
    try:
        _data, ancillary, _flags, _address = sock.recvmsg(
            1, socket.CMSG_SPACE(_TIMESPEC.size), socket.MSG_PEEK | socket.MSG_DONTWAIT
        )
    except (OSError, ValueError, NotImplementedError):  # NotImplementedError: a TLS socket
        return None
    for level, kind, payload in ancillary:
        if level == socket.SOL_SOCKET and kind == SO_TIMESTAMPNS and len(payload) >= _TIMESPEC.size:
            seconds, nanoseconds = _TIMESPEC.unpack_from(payload)
            if seconds > 0:
                return seconds + nanoseconds / 1e9
    return None


class StampingThreadWorker(ThreadWorker):  # type: ignore[misc]
    def init_process(self) -> None:
        self.kernel_stamps = bool(self.sockets) and all(listener_timestamps_enable(s) for s in self.sockets)
        self.serving = 0  # requests handed to the thread pool and not yet finished
        super().init_process()

    def set_accept_enabled(self, enabled: bool) -> None:
        # gunicorn's loop asks to accept whenever it holds fewer than worker_connections; with the
        # kernel's stamp a connection may rather wait in the backlog for a free thread (of any worker).
        if enabled and self.kernel_stamps and self.serving >= self.cfg.threads:
            enabled = False
        super().set_accept_enabled(enabled)

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
        now = time.time()
        arrived = first_byte_arrival(conn.sock) if self.kernel_stamps else None
        conn.briternia_received_at = arrived if arrived is not None and arrived <= now else now
        self.serving += 1
        if self.serving >= self.cfg.threads:
            self.set_accept_enabled(False)
        super().enqueue_req(conn)

    def finish_request(self, conn: Any, fs: Any) -> None:
        self.serving -= 1
        super().finish_request(conn, fs)
        if self.alive and not self._accepting and self.nr_conns < self.worker_connections:
            self.set_accept_enabled(True)

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
