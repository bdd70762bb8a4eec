"""A sheet's arrival as a trusted proxy stamped it (issue 34): `X-Request-Start` counts only from a
proxy listed in TRUSTED_PROXY_IPS and only near this server's clock; otherwise the server's own
stamp decides. Real requests through the API with the address they came from (REMOTE_ADDR)."""

from __future__ import annotations

import datetime as dt

import pytest
from django.utils import timezone

from briternia.arrival import arrival_decide, request_start_parse, trusted_networks
from demo.campaign import demo_campaign_create
from kingdoms.models import Army
from orders.models import OrderSubmission
from tests.clients import api_as
from turns.models import Turn


@pytest.mark.parametrize(
    ("header", "seconds"),
    [
        ("t=1790000000.123", 1790000000.123),  # nginx: t=${msec}
        ("1790000000123", 1790000000.123),  # Heroku: milliseconds
        ("t=1790000000123456", 1790000000.123456),  # microseconds
        (" t=1790000000 ", 1790000000.0),
    ],
)
def test_the_proxy_stamp_is_read_in_each_senders_unit(header: str, seconds: float) -> None:
    assert request_start_parse(header) == pytest.approx(seconds, abs=1e-6)


@pytest.mark.parametrize("header", ["", "t=", "soon", "t=-5", "nan", "inf", "t=1e400"])
def test_a_stamp_that_is_not_a_time_is_no_time(header: str) -> None:
    assert request_start_parse(header) is None


def test_which_clock_wins() -> None:
    proxies = trusted_networks(("10.0.0.0/24",))
    decide = {"now": 1000.0, "networks": proxies, "max_age": 60.0, "max_skew": 1.0, "worker_stamp": None}
    assert arrival_decide(proxy_header="t=990.5", remote_addr="10.0.0.7", **decide) == (990.5, "proxy")
    assert arrival_decide(proxy_header="t=990.5", remote_addr="10.0.1.7", **decide) == (1000.0, "server")
    assert arrival_decide(proxy_header="t=1000.5", remote_addr="10.0.0.7", **decide) == (1000.0, "server")  # skew
    assert arrival_decide(proxy_header="t=1002", remote_addr="10.0.0.7", **decide) == (1000.0, "server")  # future
    assert arrival_decide(proxy_header="t=930", remote_addr="10.0.0.7", **decide) == (1000.0, "server")  # too old
    assert arrival_decide(proxy_header="t=990.5", remote_addr="", **decide) == (1000.0, "server")
    with_worker = {**decide, "worker_stamp": 995.0}
    assert arrival_decide(proxy_header=None, remote_addr="10.0.0.7", **with_worker) == (995.0, "worker")
    assert arrival_decide(proxy_header="t=990.5", remote_addr="10.0.0.7", **with_worker) == (990.5, "proxy")
    assert arrival_decide(proxy_header="t=997", remote_addr="10.0.0.7", **with_worker) == (995.0, "worker")


def test_nothing_is_trusted_by_default() -> None:
    from briternia import settings as project_settings

    assert project_settings.TRUSTED_PROXY_IPS == []


@pytest.fixture
def late_turn(db):
    """Turn 1 of the demo campaign, its orders deadline passed 5 s ago."""
    campaign = demo_campaign_create()
    turn = campaign.turns.get(number=1)
    deadline = timezone.now() - dt.timedelta(seconds=5)
    Turn.objects.filter(pk=turn.pk).update(orders_deadline=deadline)
    army = Army.objects.get(kingdom__campaign=campaign, kingdom__name="Ostland", kind="field")
    return turn, deadline, army


def _send(turn: Turn, army: Army, **meta: str):  # type: ignore[no-untyped-def]
    body = {"submit": True, "orders": [{"army": army.id, "kind": "hold"}]}
    return api_as("alice").put(f"/api/turns/{turn.pk}/sheet/", body, format="json", **meta)


def test_a_sheet_a_trusted_proxy_stamped_before_the_deadline_counts_at_that_time(late_turn, settings) -> None:
    settings.TRUSTED_PROXY_IPS = ["10.0.0.0/24"]
    turn, deadline, army = late_turn
    stamped = deadline - dt.timedelta(seconds=1, microseconds=250_000)
    response = _send(turn, army, REMOTE_ADDR="10.0.0.9", HTTP_X_REQUEST_START=f"t={stamped.timestamp():.3f}")
    assert response.status_code == 200, response.json()
    (submission,) = OrderSubmission.objects.filter(sheet__turn=turn)
    assert abs(submission.submitted_at - stamped) < dt.timedelta(milliseconds=1)


@pytest.mark.parametrize(
    ("remote_addr", "shift"),
    [
        ("10.0.1.9", dt.timedelta(seconds=-1)),  # not from the proxy: a client's own header
        ("10.0.0.9", dt.timedelta(seconds=-120)),  # absurdly old: ignored
    ],
)
def test_a_stamp_from_elsewhere_or_far_from_the_clock_is_ignored_and_the_late_sheet_refused(
    late_turn, settings, remote_addr: str, shift: dt.timedelta
) -> None:
    settings.TRUSTED_PROXY_IPS = ["10.0.0.0/24"]
    turn, deadline, army = late_turn
    stamped = deadline + shift
    response = _send(turn, army, REMOTE_ADDR=remote_addr, HTTP_X_REQUEST_START=f"t={stamped.timestamp():.3f}")
    assert response.status_code == 400
    (error,) = [e["detail"] for e in response.json()["errors"]]
    assert "after the deadline" in error
    assert not OrderSubmission.objects.filter(sheet__turn=turn).exists()


def test_a_stamp_in_the_future_is_ignored(db, settings) -> None:
    """A proxy whose clock runs ahead cannot push a sheet past the deadline either: the server's
    own time stands (the sheet is in time and recorded at the server's arrival)."""
    settings.TRUSTED_PROXY_IPS = ["10.0.0.9"]
    campaign = demo_campaign_create()
    turn = campaign.turns.get(number=1)
    army = Army.objects.get(kingdom__campaign=campaign, kingdom__name="Ostland", kind="field")
    before = timezone.now()
    ahead = before + dt.timedelta(minutes=5)
    response = _send(turn, army, REMOTE_ADDR="10.0.0.9", HTTP_X_REQUEST_START=f"t={ahead.timestamp():.3f}")
    assert response.status_code == 200
    (submission,) = OrderSubmission.objects.filter(sheet__turn=turn)
    assert before <= submission.submitted_at <= timezone.now()
