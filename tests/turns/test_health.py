"""The health endpoint a monitor polls (issue 17): the database, the broker and the deadline sweep's
last run, without logging in and without any campaign's data."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator

import pytest
from celery import current_app
from django.conf import settings
from django.test import Client
from django.utils import timezone
from freezegun import freeze_time

from turns.tasks import deadline_sweep

pytestmark = pytest.mark.django_db


def test_health_answers_without_login_and_shows_the_sweep_once_it_ran(client: Client) -> None:
    before = client.get("/health/")
    assert before.status_code == 200
    assert before.json() == {
        "status": "ok",
        "database": "ok",
        "broker": "in-process",
        "last_sweep": None,
        "sweep_overdue": False,
        "phase_failed": 0,
    }

    deadline_sweep.delay()

    after = client.get("/health/").json()
    assert after["last_sweep"] is not None


@pytest.fixture
def unreachable_broker() -> Iterator[None]:
    """A site with workers whose broker does not answer (nothing listens on port 1). The check opens
    a connection of its own each time, so nothing of the app's pool keeps the wrong address."""
    conf = current_app.conf
    saved = conf.task_always_eager, conf.broker_url, conf.broker_write_url
    conf.task_always_eager = False
    conf.broker_url = conf.broker_write_url = "redis://127.0.0.1:1/0"
    yield
    conf.task_always_eager, conf.broker_url, conf.broker_write_url = saved


@pytest.mark.usefixtures("unreachable_broker")
def test_health_is_503_when_the_broker_does_not_answer(client: Client, monkeypatch) -> None:
    from turns import health

    # A web process that has just started (in a whole run, this one has been up for many minutes).
    monkeypatch.setattr(health, "_STARTED", timezone.now())
    response = client.get("/health/")

    assert response.status_code == 503
    body = response.json()
    assert body["status"] == "error" and body["database"] == "ok"
    assert body["broker"].startswith("error: ")
    # No sweep has run yet: on a first start that is no stopped beat (issue 37) ...
    assert body["sweep_overdue"] is False
    # ... until the site has been up for three sweep intervals without one.
    later = timezone.now() + 3 * dt.timedelta(seconds=settings.DEADLINE_SWEEP_SECONDS) + dt.timedelta(seconds=5)
    with freeze_time(later):
        assert client.get("/health/").json()["sweep_overdue"] is True


def test_health_answers_over_plain_http_when_pages_redirect_to_https(client: Client, settings) -> None:
    settings.SECURE_SSL_REDIRECT = True

    assert client.get("/accounts/login/").status_code == 301
    assert client.get("/health/").status_code == 200
