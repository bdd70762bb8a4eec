"""A web worker's start, before it takes its first request (gunicorn.conf.py's `post_worker_init`).

Django imports the URL configuration (and with it every view, serializer and form) and compiles
its paths on the first request it serves, and Celery binds its tasks and imports and builds its
broker transport, its task messages' router and the result backend on the first task a request
sends: about 0.9 s of CPU together (0.16 s is left to the first request), paid by the first requests
of every worker, all at once when a rush meets a worker just started (at boot, or
recycled after gunicorn's `max_requests`; issue 35). Done here instead, without connecting to
anything: a broker that is down is still the first request's to meet (briternia/queue.py)."""

from __future__ import annotations

import logging
import threading
from concurrent.futures import Executor, wait

from django.db import connection
from django.urls import URLResolver, get_resolver

logger = logging.getLogger(__name__)


def web_process_warm() -> None:
    """Import and build what the first request would, in this process; never raises (a worker
    that could not warm up still serves, only its first request is slower)."""
    try:
        from celery import current_app

        _patterns_compile(get_resolver())  # imports the URLconf (every app's views), compiles its paths
        if not current_app.conf.task_always_eager:
            current_app.tasks  # noqa: B018  (finalizes the app: its tasks bound)
            current_app.amqp.router  # noqa: B018
            current_app.backend  # noqa: B018
            with current_app.connection_for_write() as conn:
                conn.transport  # noqa: B018  (the transport's class and its client library, unconnected)
    except Exception:  # a warm-up is an optimisation: the worker serves without it
        logger.exception("The web process could not warm up; its first requests will")


def _patterns_compile(resolver: URLResolver) -> None:
    """Every path's pattern compiled (Django compiles each the first time a request is matched
    against it)."""
    for pattern in resolver.url_patterns:
        pattern.pattern.regex  # noqa: B018
        if isinstance(pattern, URLResolver):
            _patterns_compile(pattern)


def web_threads_connect(pool: Executor, threads: int, *, wait_seconds: float = 5.0) -> None:
    """Start each of the worker's `threads` request threads (`pool`, gunicorn's, which starts them
    one by one as requests come) and open its own database connection (Django's are per thread and
    kept between requests: CONN_MAX_AGE), before the first request: a rush that meets a worker just
    started waits for neither, and PostgreSQL starts its server processes before it. Waits at most
    `wait_seconds`; a database that does not answer is the first requests' to meet."""
    started = threading.Barrier(threads)

    def connect() -> None:
        try:
            started.wait(wait_seconds)  # each task held until all have a thread of their own
            connection.ensure_connection()
        except Exception:  # noqa: BLE001  (a warm-up: the requests connect as usual)
            logger.warning("A request thread could not connect to the database before serving", exc_info=True)

    wait([pool.submit(connect) for _ in range(threads)], timeout=wait_seconds)
