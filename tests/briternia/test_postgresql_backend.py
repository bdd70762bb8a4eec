"""briternia/postgresql: Django's PostgreSQL backend, its health check sending no `SELECT 1` while a
kept connection is quiet, and still dropping one the server has closed (issue 35)."""

from __future__ import annotations

from unittest import mock

import pytest
from django.db import connection, connections

pytestmark = pytest.mark.skipif(connection.vendor != "postgresql", reason="PostgreSQL's backend: CI's PostgreSQL pass")


@pytest.fixture
def kept(db):  # type: ignore[no-untyped-def]
    """A connection of its own (not the test's, which runs in a transaction), kept between requests
    as a web thread's is."""
    settings = {**connections["default"].settings_dict, "CONN_MAX_AGE": 600, "CONN_HEALTH_CHECKS": True}
    wrapper = type(connections["default"])(settings, alias="kept")
    wrapper.ensure_connection()
    assert wrapper.health_check_enabled and wrapper.close_at is not None
    yield wrapper
    wrapper.close()


def _request_begins(wrapper) -> None:  # type: ignore[no-untyped-def]
    """What Django does at a request's start (close_old_connections), then the request's first query."""
    wrapper.close_if_unusable_or_obsolete()
    with wrapper.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        return cursor.fetchone()[0]


def test_a_quiet_kept_connection_is_not_sent_a_health_check(kept):
    from briternia.postgresql.base import DatabaseWrapper, connection_quiet

    assert isinstance(kept, DatabaseWrapper)
    first = _request_begins(kept)
    with mock.patch.object(DatabaseWrapper, "is_usable", autospec=True, side_effect=lambda self: True) as checked:
        assert connection_quiet(kept.connection)
        assert _request_begins(kept) == first
        assert _request_begins(kept) == first
    assert checked.call_count == 0


def test_a_connection_the_server_closed_is_checked_dropped_and_opened_again(kept):
    from briternia.postgresql.base import DatabaseWrapper, connection_quiet

    first = _request_begins(kept)
    with connection.cursor() as cursor:  # the server ends it (as a restart or an idle timeout would)
        cursor.execute("SELECT pg_terminate_backend(%s, 5000)", [first])
    assert not connection_quiet(kept.connection)
    real = DatabaseWrapper.is_usable
    with mock.patch.object(DatabaseWrapper, "is_usable", autospec=True, side_effect=real) as checked:
        second = _request_begins(kept)
    assert checked.call_count == 1
    assert second != first


def test_a_connection_in_a_transaction_is_not_quiet(kept):
    from briternia.postgresql.base import connection_quiet

    kept.connection.execute("BEGIN")
    try:
        assert not connection_quiet(kept.connection)
    finally:
        kept.connection.execute("ROLLBACK")
    assert connection_quiet(kept.connection)
