"""Campaigns that take seconds to build, built once per run and given to each test as rows (issue 30:
the demo campaign cost about 3.5 s for each of some 380 tests, its played turn with rendered reports
about 30 s for each of 26).

A shared build is a layer over the one below it (the demo campaign is the bottom one). The first
test that asks for a layer builds it through the real services, as its fixture always did, and the
rows the build changed are recorded: every row of every table it inserted, changed or deleted
(read generically from the models, so a model added later is recorded with no edit here). That
build is then undone, and this test and every later one gets the layer by writing the recorded rows
back (deleting the ones the build deleted or changed, inserting the ones it inserted or changed,
with their ids and every column as the build left them, in one `atomic` block): a few bulk
statements instead of seconds of services. So each test still builds its rows inside its own
transaction, which rolls them back (or, for a test that commits, which pytest-django's flush
empties), exactly as before; no transaction outlives a test and the test order is pytest's.

Why not Django's setUpTestData pattern (the rows built once and left in an open transaction under
the tests' own)? It was tried (commit e5513e0, reverted): on PostgreSQL one transaction open across
many tests, each test's savepoints inside it, made the PostgreSQL pass much slower, and every test
that commits had to tear it down and build it again.

The ids: a test's own new rows never take a recorded id. SQLite's AUTOINCREMENT counters follow the
ids written; each PostgreSQL sequence of a written table is set past them after the write (never
back), as the build itself left it. What a build leaves outside the database is given back too: the
emails it sent (a copy of django.core.mail.outbox as it stood). The world kept by
kingdoms.services.world (by campaign id) is forgotten after a build and a load.

A layer whose build must commit (`commits=True`: it is built as a test with transactional_db builds
it, each service's transaction committed and its on-commit work run then) is recorded in autocommit
and undone by writing the rows back as they were; it can be asked for only by a test that commits.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager, nullcontext
from dataclasses import dataclass, field
from typing import Any

from django.apps import apps
from django.core import mail
from django.db import connection, models, transaction
from django.test import TestCase

# A build: (a copy of the value of the layer below, or None; a capture of on-commit callbacks) -> its value.
Capture = Callable[..., AbstractContextManager[Any]]
Build = Callable[[Any, Capture], Any]

Rows = dict[type[models.Model], dict[Any, tuple[Any, ...]]]


@dataclass(eq=False)
class Layer:
    """A shared build: how it is made from the layer below it (its `parent`), whether it starts by
    clearing the outbox (so a test finds only the mail the layer itself sent), and whether it
    commits as it goes (built in autocommit; only tests that commit may ask for it)."""

    name: str
    build: Build
    parent: Layer | None = None
    clears_outbox: bool = False
    commits: bool = False


@dataclass
class Change:
    """What a layer's build did to the database: per model, the ids it deleted or changed (removed
    first) and the rows it inserted or changed (written after)."""

    removed: dict[type[models.Model], list[Any]]
    written: dict[type[models.Model], list[tuple[Any, ...]]]
    # PostgreSQL's sequences of the written tables, each with the highest id written (SQLite's
    # AUTOINCREMENT counters follow the ids written by themselves).
    sequences: list[tuple[str, int]]


@dataclass
class _Recorded:
    change: Change
    value: Any
    outbox: list[Any]


@dataclass
class Layers:
    """The layers recorded so far in this run, each once."""

    recorded: dict[Layer, _Recorded] = field(default_factory=dict)

    def take(self, layer: Layer) -> Any:
        """The layer written into the database for this test (its parent is already there: the
        layer's fixture asks for the parent's), and a copy of the value its build returned; the
        outbox as the build left it."""
        recorded = self.recorded.get(layer)
        if recorded is None:
            recorded = self.recorded[layer] = _record(layer, self._value_below(layer))
        _write(recorded.change)
        _world_forgotten()
        if layer.clears_outbox:
            mail.outbox.clear()
        mail.outbox.extend(copy.deepcopy(recorded.outbox))
        # A copy: a test may change its own objects, as it could the fixture's objects before.
        return copy.deepcopy(recorded.value)

    def _value_below(self, layer: Layer) -> Any:
        if layer.parent is None:
            return None
        return copy.deepcopy(self.recorded[layer.parent].value)


# The layers of this run (one database: the suite's default).
RECORDED = Layers()


def _record(layer: Layer, below: Any) -> _Recorded:
    """Builds the layer on the database as it is (the layer below written), reads what the build
    changed, and undoes it."""
    if layer.commits and connection.in_atomic_block:
        raise RuntimeError(
            f"{layer.name!r} commits as it is built: only a test that commits (transactional_db) may ask for it"
        )
    saved_outbox = list(mail.outbox)
    mail.outbox.clear()
    before = _rows()
    try:
        if layer.commits:
            with _tasks_run_here():
                value = layer.build(below, _no_capture)
            after = _rows()
            change = _change(before, after)
            # Undone as it was done: the rows as they were before, written back and committed.
            _write(_change(after, before))
        else:
            with transaction.atomic():
                with _tasks_run_here():
                    value = layer.build(below, TestCase.captureOnCommitCallbacks)
                change = _change(before, _rows())
                transaction.set_rollback(True)
        outbox = copy.deepcopy(mail.outbox)
    finally:
        mail.outbox[:] = saved_outbox
        _world_forgotten()
    return _Recorded(change, copy.deepcopy(value), outbox)


def _models() -> list[type[models.Model]]:
    """Every table of the project's models (many-to-many tables too), one model each."""
    return [
        model
        for model in apps.get_models(include_auto_created=True)
        if model._meta.managed and not model._meta.proxy and not model._meta.swapped
    ]


def _columns(model: type[models.Model]) -> list[models.Field[Any, Any]]:
    """The columns of the model's own table (a child model's parent link, not its parent's fields)."""
    return [f for f in model._meta.local_concrete_fields if not getattr(f, "generated", False)]


def _rows() -> Rows:
    """Every row of every table, by id, as Python values."""
    rows: Rows = {}
    for model in _models():
        names = [f.attname for f in _columns(model)]
        pk_index = names.index(model._meta.pk.attname)
        rows[model] = {row[pk_index]: row for row in model._base_manager.values_list(*names).iterator(chunk_size=2000)}
    return rows


def _change(before: Rows, after: Rows) -> Change:
    removed: dict[type[models.Model], list[Any]] = {}
    written: dict[type[models.Model], list[tuple[Any, ...]]] = {}
    for model, rows_after in after.items():
        rows_before = before.get(model, {})
        gone = [pk for pk in rows_before if pk not in rows_after]
        changed = [row for pk, row in rows_after.items() if rows_before.get(pk) != row]
        again = [pk for pk, row in rows_after.items() if pk in rows_before and rows_before[pk] != row]
        if gone or again:
            removed[model] = gone + again
        if changed:
            written[model] = changed
    return Change(removed, written, _sequences(written))


def _sequences(written: dict[type[models.Model], list[tuple[Any, ...]]]) -> list[tuple[str, int]]:
    """PostgreSQL: each written table's id sequence with the highest id written into it."""
    if connection.vendor != "postgresql":
        return []
    found = []
    with connection.cursor() as cursor:
        for model, rows in written.items():
            pk = model._meta.pk
            if not isinstance(pk, models.AutoField | models.BigAutoField | models.SmallAutoField):
                continue
            cursor.execute("SELECT pg_get_serial_sequence(%s, %s)", [model._meta.db_table, pk.column])
            (sequence,) = cursor.fetchone()
            index = [f.attname for f in _columns(model)].index(pk.attname)
            found.append((sequence, max(row[index] for row in rows)))
    return found


def _write(change: Change) -> None:
    """The change made again, in one transaction: every removal first, then every insert (foreign
    keys are checked at the commit, or at the end of a test's transaction, on both databases)."""
    with transaction.atomic():
        for model, pks in change.removed.items():
            for start in range(0, len(pks), 500):
                model._base_manager.filter(pk__in=pks[start : start + 500])._raw_delete(connection.alias)
        for model, rows in change.written.items():
            columns = _columns(model)
            names = [f.attname for f in columns]
            objects = [model.from_db(connection.alias, names, row) for row in rows]
            size = max(1, connection.ops.bulk_batch_size(columns, objects))
            for start in range(0, len(objects), size):
                # raw: every value as recorded (no auto_now, no defaults).
                model._base_manager._insert(objects[start : start + size], fields=columns, raw=True)
        if change.sequences:
            # Past the ids written, as SQLite's counters go by themselves: a test's own rows never take one
            # (a sequence set back since, by ids_set_apart, goes on after the build's rows as it did).
            with connection.cursor() as cursor:
                cursor.execute(
                    "SELECT "
                    + ", ".join(
                        f"setval(%s, GREATEST(%s, (SELECT last_value FROM {name})))" for name, _ in change.sequences
                    ),
                    [value for pair in change.sequences for value in pair],
                )


@contextmanager
def _no_capture(execute: bool = False) -> Iterator[list[Any]]:
    """In autocommit each service's on-commit work runs at its own commit: nothing to capture."""
    with nullcontext():
        yield []


@contextmanager
def _tasks_run_here() -> Iterator[None]:
    """A build's tasks run in-process, whichever test first asks for it (a celery_worker test sends
    its own tasks to the worker, not the build's)."""
    from celery.result import _set_task_join_will_block

    from briternia.celery import app

    previous = app.conf.task_always_eager
    app.conf.task_always_eager = True
    _set_task_join_will_block(False)
    try:
        yield
    finally:
        app.conf.task_always_eager = previous


def _world_forgotten() -> None:
    from kingdoms.services.world import world_kept_forget

    world_kept_forget()
