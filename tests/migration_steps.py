"""Migrating the test database back to the state before a data migration and forward again, for the
tests of what a migration does to the rows it finds.

Most of such a test's time is Django rendering the project's models as they stood at some point of
the migration graph (`ProjectState.apps`). A backward run renders them once for its own use; this
renders the state it ends in once more, for the test's old models, and hands that same rendered
state to the forward run instead of letting it render the whole project again; nothing renders the
state at the latest migrations, which the test reads through its ordinary models."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from django.apps.registry import Apps
from django.db import connection
from django.db.migrations.executor import MigrationExecutor


@contextmanager
def migrated_back(before: list[tuple[str, str]]) -> Iterator[Apps]:
    """Migrate back to `before` (app label, migration name), yield the models as they stand there, and
    migrate every app to its latest migration on the way out, even when the test failed in between."""
    state = MigrationExecutor(connection).migrate(before)
    try:
        yield state.apps
    finally:
        # A new executor: the first one's loader read which migrations were applied before it
        # unapplied some. The state is the one at `before`, where the database now stands.
        executor = MigrationExecutor(connection)
        executor.migrate(executor.loader.graph.leaf_nodes(), state=state)
