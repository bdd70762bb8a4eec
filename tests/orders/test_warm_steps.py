"""The orders app's steps of a web worker's warm-up (orders/apps.py registers them with
briternia/warm.py; issue 35): the sheet's input fields in each request thread and the submission's
hand-written statements once per process, built before the rush's first requests, which reach a
worker's threads all at once."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

from django.db import connection

from briternia.warm import web_process_warm, web_threads_connect
from tests.threads import in_every_thread


def test_each_request_thread_builds_the_sheets_input_fields_before_its_first_request(db):
    """OrderSheetInput.of keeps its fields per thread (issue 35): built by the warm-up in each request
    thread, not by the thread's first sheet of the rush."""
    from orders.serializers import _kept_fields

    with ThreadPoolExecutor(max_workers=3) as pool:
        in_every_thread(pool, 3, lambda: _kept_fields.__dict__.pop("fields", None))  # as a new thread has none
        web_threads_connect(pool, 3)
        try:
            built = in_every_thread(pool, 3, lambda: getattr(_kept_fields, "fields", None) is not None)
        finally:
            in_every_thread(pool, 3, lambda: connection.close())
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
