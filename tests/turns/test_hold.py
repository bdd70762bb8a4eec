"""The deadline does not resolve a turn by itself when too many kingdoms missed their orders
(issue 17, "Safeguards around each turn"): the organizer sets the share, is told once, and resolves
the turn or extends the deadline."""

from __future__ import annotations

import datetime as dt
from zoneinfo import ZoneInfo

import pytest
from django.utils import timezone
from freezegun import freeze_time

from demo.campaign import demo_campaign_create
from orders.models import OrderSheet
from outbox.models import Email
from tests.clients import pages_as
from turns.models import Turn
from turns.tasks import deadline_sweep

pytestmark = pytest.mark.django_db


def _sweep_at(when: dt.datetime) -> dict:
    with freeze_time(when):
        return deadline_sweep.delay().get()


def _submit_for(turn: Turn, *names: str) -> None:
    for kingdom in turn.campaign.kingdoms.filter(name__in=names):
        OrderSheet.objects.create(turn=turn, kingdom=kingdom, status=OrderSheet.Status.SUBMITTED)


def test_a_turn_with_too_many_orders_missing_waits_for_the_organizer() -> None:
    campaign = demo_campaign_create()
    turn = campaign.turns.get(number=1)
    organizer = pages_as("organizer")
    response = organizer.post(
        f"/campaigns/{campaign.pk}/schedule/",
        {
            "orders_weekday": 6,
            "orders_time": "20:00",
            "results_weekday": 2,
            "results_time": "21:00",
            "hold_when_missing": 50,
        },
    )
    assert response.status_code == 302
    _submit_for(turn, "Ostland")  # 3 of the 4 kingdoms miss their orders: 75% >= 50%

    report = _sweep_at(turn.orders_deadline + dt.timedelta(minutes=1))
    again = _sweep_at(turn.orders_deadline + dt.timedelta(minutes=2))

    turn.refresh_from_db()
    assert (report["resolutions"], report["held"]) == (0, 1)
    assert (again["resolutions"], again["held"]) == (0, 0)  # held: not counted or told twice
    assert turn.status == Turn.Status.ORDERS_OPEN and turn.held_at is not None
    (alert,) = Email.objects.filter(campaign=campaign, kind=Email.Kind.ORGANIZER_ALERT)
    assert alert.to == [campaign.organizer.email]
    assert "3 of 4 orders missing" in alert.subject
    page = organizer.get(f"/turns/{turn.pk}/sheets/").content.decode()
    assert 'id="held"' in page and "(3 of 4)" in page

    # The organizer extends the deadline: the hold is lifted; when it passes with the orders in, the
    # sweep resolves the turn by itself.
    new_deadline = timezone.localtime(timezone.now() + dt.timedelta(days=1), ZoneInfo(campaign.time_zone))
    response = organizer.post(
        f"/turns/{turn.pk}/deadlines/",
        {
            "orders_deadline": new_deadline.strftime("%Y-%m-%dT%H:%M"),
            "results_deadline": (new_deadline + dt.timedelta(days=3)).strftime("%Y-%m-%dT%H:%M"),
        },
    )
    assert response.status_code == 302
    turn.refresh_from_db()
    assert turn.held_at is None
    _submit_for(turn, "Da Red Fang", "Karak Dumn")  # 1 of 4 missing: 25% < 50%

    report = _sweep_at(turn.orders_deadline + dt.timedelta(minutes=1))

    turn.refresh_from_db()
    assert (report["resolutions"], report["held"]) == (1, 0)
    assert turn.status == Turn.Status.BATTLES


def test_with_no_share_set_the_deadline_resolves_whatever_is_missing() -> None:
    """The default (0): the deadline resolves the turn; kingdoms without orders hold (4. Write Orders)."""
    campaign = demo_campaign_create()
    turn = campaign.turns.get(number=1)

    report = _sweep_at(turn.orders_deadline + dt.timedelta(minutes=1))

    turn.refresh_from_db()
    assert (report["resolutions"], report["held"]) == (1, 0)
    assert turn.status == Turn.Status.BATTLES and turn.held_at is None
