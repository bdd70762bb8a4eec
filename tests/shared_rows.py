"""Campaigns that take seconds to build, built once and shared by the tests that run one after
another and ask for them (issue 30: the demo campaign cost about 1.5 s for each of some 380 tests,
its played turn with rendered reports about 30 s for each of 26).

A shared build is a layer: its rows are written inside a transaction of its own, left open under
the tests' own transactions (pytest-django's per-test TestCase transaction becomes a savepoint in
it), so every test still rolls back its own writes and the next test finds the layer as it was
built. This is Django's setUpTestData made to follow pytest's fixtures:

- before a test's transaction opens (`arrange`, called from tests/conftest.py's
  `_django_db_helper`), the layers open are made to match what the test asks for: the layers it
  does not ask for are rolled back (no test sees rows it did not ask for, so a test that builds its
  own users or campaigns meets no demo accounts), the missing ones are built on top;
- a test that commits for real (transactional_db, live servers, a Django TestCase class) gets no
  layer and its fixtures build their rows themselves, as they always did; so does a fixture asked
  for in a way the arrangement cannot see (request.getfixturevalue);
- what a build leaves outside the database is given back to each test as the build left it: the
  emails it sent (django.core.mail.outbox); the world cache is forgotten whenever a layer comes or
  goes (kingdoms.services.world keeps worlds by campaign id, which a rolled-back build hands out
  again).
"""

from __future__ import annotations

import copy
import itertools
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass, field
from typing import Any

import pytest
from django.core import mail
from django.db import transaction
from django.test import TestCase

# A build: (the value of the layer below or None, a capture of on-commit callbacks) -> its value.
Capture = Callable[..., AbstractContextManager[Any]]
Build = Callable[[Any, Capture], Any]


@dataclass(eq=False)
class Layer:
    """A shared build: how it is made from the layer below it (its `parent`), and whether it starts
    by clearing the outbox (so a test finds only the mail the layer itself sent)."""

    name: str
    build: Build
    parent: Layer | None = None
    clears_outbox: bool = False

    def chain(self) -> list[Layer]:
        return [*self.parent.chain(), self] if self.parent else [self]

    def fixture(self, function: Callable[..., Any]) -> Callable[..., Any]:
        """Marks a fixture function as the one that hands out this layer (`Layers.wanted` finds it)."""
        function._shared_layer = self  # type: ignore[attr-defined]
        return function


@dataclass
class _Built:
    layer: Layer
    atomic: Any
    value: Any
    outbox: list[Any]


@dataclass
class Layers:
    """The layers open on the default database's connection, bottom first."""

    built: list[_Built] = field(default_factory=list)
    # The test the open layers were arranged for: only its fixtures take them.
    arranged_for: str | None = None

    def arrange(self, item: pytest.Item, chain: list[Layer]) -> None:
        while self.built and [b.layer for b in self.built] != chain[: len(self.built)]:
            self._pop()
        for layer in chain[len(self.built) :]:
            self._push(layer)
        self.arranged_for = item.nodeid

    def close(self) -> None:
        while self.built:
            self._pop()
        self.arranged_for = None

    def take(self, request: pytest.FixtureRequest, layer: Layer) -> Any | None:
        """The layer's value for this test (its outbox as the build left it), or None when the test
        has no layer open and builds its own."""
        if self.arranged_for != request.node.nodeid:
            return None
        for built in self.built:
            if built.layer is layer:
                if layer.clears_outbox:
                    mail.outbox.clear()
                mail.outbox.extend(copy.deepcopy(built.outbox))
                # A copy of the objects the build returned, in the state it left them (a test may
                # change its own, as it could the fixture's objects before).
                return copy.deepcopy(built.value)
        return None

    def _push(self, layer: Layer) -> None:
        # A copy: a build may change the objects it is given, which stay the layer below's.
        below = copy.deepcopy(self.built[-1].value) if self.built else None
        atomic = transaction.atomic()
        atomic.__enter__()
        saved = list(mail.outbox)
        mail.outbox.clear()
        try:
            with _tasks_run_here():
                value = layer.build(below, TestCase.captureOnCommitCallbacks)
            outbox = copy.deepcopy(mail.outbox)
        except BaseException as error:
            atomic.__exit__(type(error), error, error.__traceback__)
            raise
        finally:
            mail.outbox[:] = saved
            _world_forgotten()
        self.built.append(_Built(layer, atomic, value, outbox))

    def _pop(self) -> None:
        built = self.built.pop()
        transaction.set_rollback(True)
        built.atomic.__exit__(None, None, None)
        _world_forgotten()


# The layers open on the test database (one database, one connection: the suite's default).
OPEN = Layers()


def commits(item: pytest.Item) -> bool:
    """Whether the test commits for real (as pytest-django decides to give it a TransactionTestCase)."""
    from pytest_django.django_compat import is_django_unittest

    marker = item.get_closest_marker("django_db")
    return (
        is_django_unittest(item)
        or bool(marker and (marker.kwargs.get("transaction") or marker.kwargs.get("reset_sequences")))
        or any(name in item.fixturenames for name in ("transactional_db", "live_server", "django_db_reset_sequences"))
    )


def wanted(item: pytest.Item) -> list[Layer]:
    """The layers a test's fixtures hand out, as one chain: none when they are not one chain, or
    when the test commits."""
    if commits(item):
        return []
    layers = []
    for definitions in item._fixtureinfo.name2fixturedefs.values():  # type: ignore[attr-defined]
        layer = getattr(definitions[-1].func, "_shared_layer", None)
        if layer is not None:
            layers.append(layer)
    if not layers:
        return []
    deepest = max((layer.chain() for layer in layers), key=len)
    return deepest if all(layer in deepest for layer in layers) else []


def grouped(items: list[pytest.Item]) -> list[pytest.Item]:
    """The tests of each file with those that share the same layers one after another (each group
    where its first test stands, the file's order within it), so a layer is built once per file
    rather than once per run of tests asking for it."""
    result: list[pytest.Item] = []
    for _, module_items in itertools.groupby(items, key=lambda item: item.path):
        groups: dict[tuple[int, ...], list[pytest.Item]] = {}
        for item in module_items:
            groups.setdefault(tuple(id(layer) for layer in wanted(item)), []).append(item)
        for group in groups.values():
            result.extend(group)
    return result


@contextmanager
def _tasks_run_here() -> Iterator[None]:
    """A build's tasks run in-process, as they do in the test that used to build it (the autouse
    fixture that says so may not have run yet when the layer is built)."""
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
