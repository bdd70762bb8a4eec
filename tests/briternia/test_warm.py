"""A gunicorn worker's warm-up before its first request (briternia/warm.py, gunicorn.conf.py's
post_worker_init; issue 35): what the first requests of a worker just started would each pay
during a rush is done once, before it serves."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor

from django.db import connection

from briternia.warm import web_process_warm, web_threads_connect


def _in_every_thread(pool: ThreadPoolExecutor, threads: int, task):  # type: ignore[no-untyped-def]
    """`task`'s answer in each of the pool's threads (each call held until all have started)."""
    together = threading.Barrier(threads)

    def run():  # type: ignore[no-untyped-def]
        together.wait(10)
        return threading.get_ident(), task()

    return dict(future.result(10) for future in [pool.submit(run) for _ in range(threads)])


def test_each_request_thread_is_started_with_its_database_connection_open(db):
    with ThreadPoolExecutor(max_workers=4) as pool:
        web_threads_connect(pool, 4)
        try:
            connected = _in_every_thread(pool, 4, lambda: connection.connection is not None)
        finally:
            _in_every_thread(pool, 4, lambda: connection.close())  # each thread its own
    assert len(connected) == 4 and all(connected.values())


def test_the_process_warm_up_loads_the_url_configuration_and_never_raises():
    from django.urls import get_resolver

    web_process_warm()
    assert "url_patterns" in get_resolver().__dict__  # imported, not left to the first request
