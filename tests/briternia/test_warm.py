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


def test_each_request_thread_builds_the_sheets_input_fields_before_its_first_request(db):
    """OrderSheetInput.of keeps its fields per thread (issue 35): built by the warm-up in each request
    thread, not by the thread's first sheet of the rush."""
    from orders.serializers import _kept_fields

    with ThreadPoolExecutor(max_workers=3) as pool:
        _in_every_thread(pool, 3, lambda: _kept_fields.__dict__.pop("fields", None))  # as a new thread has none
        web_threads_connect(pool, 3)
        try:
            built = _in_every_thread(pool, 3, lambda: getattr(_kept_fields, "fields", None) is not None)
        finally:
            _in_every_thread(pool, 3, lambda: connection.close())
    assert len(built) == 3 and all(built.values())


def test_the_process_warm_up_builds_the_submissions_statements():
    """The hand-written statements of a submission are built once by the warm-up, not by the first
    requests of a worker's threads, which the rush reaches all at once (issue 35)."""
    from briternia.auth import _token_sql
    from kingdoms.services.kingdom_rows import _compiled
    from orders.selectors import _turn_and_own_kingdom_sql
    from orders.services.sheet_statements import _sheet_row_written_sql, _turn_share_locked_sql

    built = (_token_sql, _compiled, _turn_and_own_kingdom_sql, _sheet_row_written_sql, _turn_share_locked_sql)
    for cached in built:
        cached.cache_clear()
    connection.close()  # as a worker just forked has none
    web_process_warm()
    assert [cached.cache_info().currsize for cached in built] == [1, 1, 1, 2, 2]
    if connection.vendor == "postgresql":  # (the tests' in-memory SQLite database is never closed)
        assert connection.connection is None  # built without connecting


def test_a_warm_worker_keeps_what_it_built_out_of_the_collector_and_spaces_young_collections():
    import gc

    from briternia.warm import web_process_gc_settle

    before, frozen = gc.get_threshold(), gc.get_freeze_count()
    try:
        web_process_gc_settle(young_threshold=12_345)
        assert gc.get_threshold() == (12_345, before[1], before[2])
        assert gc.get_freeze_count() > frozen
    finally:
        gc.unfreeze()
        gc.set_threshold(*before)
