"""Migrating the test database back to the state before a data migration and forward again, for the
tests of what a migration does to the rows it finds.

Most of such a test's time is Django rendering the project's models as they stood at some point of
the migration graph (`ProjectState.apps`), again after every operation. Django's own runs compute
each operation's states three times for one test: its backward run once to find the state before
each migration it undoes and once more inside each `Migration.unapply`, then the forward run once
more in each `Migration.apply`. They are the same states both ways (the state before and after
each operation of a migration, walked forwards from the state before it). So this computes them
once, walking the migrations to undo in the order Django applies them, and hands them to every
operation's `database_backwards` (latest first, as `Migration.unapply` does) and, after the test,
to its `database_forwards` (as `Migration.apply` does), with each migration's schema editor,
transaction and row in django_migrations as Django's executor gives them. The database sees the
same statements, and each data migration runs on the test's rows with the historical models Django
would give it; only the rendering is not repeated."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from django.apps.registry import Apps
from django.db import connection, transaction
from django.db.migrations.executor import MigrationExecutor
from django.db.migrations.migration import Migration
from django.db.migrations.state import ProjectState

# Per migration undone: (operation, the state before it, the state after it), in its own order.
Steps = list[tuple[Any, ProjectState, ProjectState]]


@contextmanager
def migrated_back(before: list[tuple[str, str]]) -> Iterator[Apps]:
    """Migrate back to `before` (app label, migration name), yield the models as they stand there, and
    migrate every app to its latest migration on the way out, even when the test failed in between."""
    executor = MigrationExecutor(connection)
    plan = executor.migration_plan(before)
    assert plan and all(backwards for _, backwards in plan), f"{before} is not behind the database"
    full_plan = [m for m, _ in executor.migration_plan(executor.loader.graph.leaf_nodes(), clean_start=True)]
    steps = _steps(executor, {migration for migration, _ in plan}, full_plan)
    for migration, _ in plan:  # latest first
        _run(executor, migration, steps[migration], forwards=False)
    executor.loader.build_graph()  # what is applied now
    state = executor._create_project_state(with_applied_migrations=True)
    try:
        yield state.apps
    finally:
        for migration in full_plan:  # in the order Django applies them
            if migration in steps:
                _run(executor, migration, steps[migration], forwards=True)


def _steps(executor: MigrationExecutor, to_undo: set[Migration], full_plan: list[Migration]) -> dict[Migration, Steps]:
    """Each migration to undo's operations with their states, as `_migrate_all_backwards` and
    `Migration.unapply` compute them: the project state walked along the full plan, every migration
    applied now mutating it, rendered once before the first migration to undo."""
    graph = executor.loader.graph
    applied = {graph.nodes[key] for key in executor.loader.applied_migrations if key in graph.nodes}
    state = executor._create_project_state()
    steps: dict[Migration, Steps] = {}
    for migration in full_plan:
        if len(steps) == len(to_undo):
            break
        if migration in to_undo:
            if "apps" not in state.__dict__:
                state.apps  # noqa: B018 - render all once, as Django's backward run does
            ops: Steps = []
            for operation in migration.operations:
                assert operation.reversible, f"{operation} in {migration} is not reversible"
                state = state.clone()
                old_state = state.clone()
                operation.state_forwards(migration.app_label, state)
                ops.append((operation, old_state, state))
            steps[migration] = ops
            # Its last state kept as it is: the migrations applied after it change a copy.
            state = state.clone()
        elif migration in applied:
            migration.mutate_state(state, preserve=False)
    return steps


def _run(executor: MigrationExecutor, migration: Migration, steps: Steps, *, forwards: bool) -> None:
    """One migration applied (`Migration.apply`, `MigrationExecutor.apply_migration`) or undone
    (`Migration.unapply`, `unapply_migration`) with the states already computed."""
    recorded = False
    with connection.schema_editor(atomic=migration.atomic) as editor:
        for operation, old_state, new_state in steps if forwards else reversed(steps):
            atomic_operation = operation.atomic or (migration.atomic and operation.atomic is not False)
            with (
                transaction.atomic(connection.alias) if not editor.atomic_migration and atomic_operation else _nothing()
            ):
                if forwards:
                    operation.database_forwards(migration.app_label, editor, old_state, new_state)
                else:
                    operation.database_backwards(migration.app_label, editor, new_state, old_state)
        if forwards and not editor.deferred_sql:
            executor.recorder.record_applied(migration.app_label, migration.name)
            recorded = True
    if not forwards:
        executor.recorder.record_unapplied(migration.app_label, migration.name)
    elif not recorded:
        executor.recorder.record_applied(migration.app_label, migration.name)


@contextmanager
def _nothing() -> Iterator[None]:
    yield
