"""A gunicorn worker's warm-up before its first request (briternia/warm.py, gunicorn.conf.py's
post_worker_init; issue 35): what the first requests of a worker just started would each pay
during a rush is done once, before it serves."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

from django.db import connection

from briternia.warm import web_process_warm, web_threads_connect
from tests.threads import in_every_thread


def test_each_request_thread_is_started_with_its_database_connection_open(db):
    with ThreadPoolExecutor(max_workers=4) as pool:
        web_threads_connect(pool, 4)
        try:
            connected = in_every_thread(pool, 4, lambda: connection.connection is not None)
        finally:
            in_every_thread(pool, 4, lambda: connection.close())  # each thread its own
    assert len(connected) == 4 and all(connected.values())


def test_the_process_warm_up_loads_the_url_configuration_and_never_raises():
    from django.urls import get_resolver

    web_process_warm()
    assert "url_patterns" in get_resolver().__dict__  # imported, not left to the first request


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
