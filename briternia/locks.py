"""Waits a request never makes (issue 34): a row lock waited on for at most a second (the web
process's connections carry PostgreSQL's `lock_timeout`, REQUEST_LOCK_TIMEOUT_MS: briternia/settings.py),
and the mark a running phase of the turn leaves where any request can see it without waiting.

A phase of the turn runs in one transaction that holds the turn's row from its claim to its commit
(turns/services/phases.py), and its claim is not visible to anyone before that commit: a Resolve
click or a sheet that reads the turn sees it open. So the phase also holds a PostgreSQL advisory
lock of its own for the turn while it runs, which PostgreSQL lists in `pg_locks` beside the
transaction's start (`pg_stat_activity.xact_start`): a request asks whether that lock is held and
since when, and answers at once instead of queueing on the row. The lock goes with the transaction,
so a phase that fails or whose worker dies leaves no stale mark.

SQLite runs one writer at a time and has neither: there the phase is never seen running and a
request waits on the database's lock as before (the embedded default serves a handful of players).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from contextlib import contextmanager

from django.db import OperationalError, connection

# The advisory locks' first key, one per phase (the second is the turn's id): "BT" and the phase.
PHASE_LOCK_SPACE = {"orders phase": 0x4254_0001, "aftermath": 0x4254_0002}
LOCK_NOT_AVAILABLE = "55P03"  # PostgreSQL's sqlstate for lock_timeout and NOWAIT


class LockBusy(Exception):
    """A row lock was not free within the request's bound (REQUEST_LOCK_TIMEOUT_MS), and no phase
    holds it; what the guarded block had written was rolled back."""


class PhaseRunning(Exception):
    """The phase runs on the turn (since `since`): the guarded block did not run, or was rolled back."""

    def __init__(self, since: dt.datetime) -> None:
        super().__init__(f"running since {since.isoformat()}")
        self.since = since


_MARK = (
    "FROM pg_locks l WHERE l.locktype = 'advisory' AND l.granted AND l.objsubid = 2 AND l.classid = %s "
    "AND l.objid = %s AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())"
)
_SINCE = (
    "SELECT coalesce((SELECT a.xact_start FROM pg_stat_activity a WHERE a.pid = l.pid), statement_timestamp()) "
    f"{_MARK} LIMIT 1"
)


def phase_refuse_if_running(phase_name: str, turn_id: int, *, fresh: bool = False) -> None:
    """Raise PhaseRunning at once if the phase runs on the turn (one statement, no wait; `fresh`:
    see phase_running_since)."""
    since = phase_running_since(phase_name, turn_id, fresh=fresh)
    if since is not None:
        raise PhaseRunning(since)


@contextmanager
def lock_wait_cut_short(phase_name: str, turn_id: int) -> Iterator[None]:
    """Around a request's transaction on the turn: a lock wait cut short by the web process's bound
    (REQUEST_LOCK_TIMEOUT_MS, PostgreSQL's `lock_timeout`) raises PhaseRunning if the phase began
    meanwhile (its claim holds the turn's row), LockBusy otherwise."""
    try:
        yield
    except OperationalError as exc:
        if getattr(exc.__cause__, "sqlstate", None) != LOCK_NOT_AVAILABLE:
            raise
        phase_refuse_if_running(phase_name, turn_id, fresh=True)
        raise LockBusy(str(exc)) from exc


def phase_lock_wait_unbounded() -> None:
    """First thing in a phase's transaction: its locks are waited for however long (the claim waits
    for the sheets in flight), even in a process whose requests' waits are bounded (a web process
    running a task eagerly, without a broker)."""
    if connection.vendor != "postgresql":
        return
    with connection.cursor() as cursor:
        cursor.execute("SELECT set_config('lock_timeout', '0', true)")


def phase_running_mark(phase_name: str, turn_id: int) -> None:
    """Inside a phase's transaction, once it has claimed the turn: mark the phase running until the
    transaction ends (PostgreSQL; nothing on SQLite)."""
    if connection.vendor != "postgresql":
        return
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_advisory_xact_lock(%s, %s)", [PHASE_LOCK_SPACE[phase_name], turn_id])


def phase_running_since(phase_name: str, turn_id: int, *, fresh: bool = False) -> dt.datetime | None:
    """When the phase now running on the turn began (its transaction's start; now, for a database
    role that may not read the phase's session), or None if it is not running. Never waits.
    `fresh`: for a second look in the same transaction (PostgreSQL keeps the sessions' view, not the
    locks', from the first: without it a phase begun since would be stated as begun now)."""
    if connection.vendor != "postgresql":
        return None
    with connection.cursor() as cursor:
        if fresh and connection.in_atomic_block:
            cursor.execute("SELECT pg_stat_clear_snapshot()")
        cursor.execute(_SINCE, [PHASE_LOCK_SPACE[phase_name], turn_id])
        row = cursor.fetchone()
    return row[0] if row else None
