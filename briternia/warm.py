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
