"""Fixtures of the turn cycle's tests."""

from __future__ import annotations

import pytest

from briternia.celery import app
from tests.smtp import free_port


@pytest.fixture
def broker_down():
    """Tasks go to a Redis broker on a port nothing listens on (not run in-process)."""
    saved = app.conf.task_always_eager, app.conf.broker_url
    app.conf.task_always_eager = False
    app.conf.broker_url = f"redis://127.0.0.1:{free_port()}/14"
    app._pool = None
    app.amqp._producer_pool = None
    yield
    app.conf.task_always_eager, app.conf.broker_url = saved
    app._pool = None
    app.amqp._producer_pool = None
