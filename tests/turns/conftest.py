"""Fixtures of the turn cycle's tests."""

from __future__ import annotations

import pytest

from briternia.celery import app
from tests.battles.conftest import BATTLES_FILED, BATTLES_POSTED
from tests.smtp import free_port
from turns.models import Turn


@pytest.fixture
def broker_down():
    """Redis is down: tasks go to a broker on a port nothing listens on (not run in-process), and
    results, were any stored, to the same closed port. The write URL is the one publishing uses (the
    broker URL of the settings, when CI configures one, stays as it is)."""
    url = f"redis://127.0.0.1:{free_port()}/14"
    saved = app.conf.task_always_eager, app.conf.broker_write_url, app.conf.result_backend
    app.conf.task_always_eager = False
    app.conf.broker_write_url = app.conf.result_backend = url
    _reset_connections()
    yield
    app.conf.task_always_eager, app.conf.broker_write_url, app.conf.result_backend = saved
    _reset_connections()


def _reset_connections() -> None:
    app._pool = None
    app.amqp._producer_pool = None
    app._backend_cache = None
    app._local.backend = None


@pytest.fixture
def battles_posted_turn(demo_campaign, turn, shared_layers) -> Turn:
    """The demo's turn 1 resolved into its battles (tests/battles/conftest.py's shared builds)."""
    shared_layers.take(BATTLES_FILED)
    shared_layers.take(BATTLES_POSTED)
    turn.refresh_from_db()
    return turn
