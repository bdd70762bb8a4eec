"""A requested phase cannot be lost (issue 20): the organizer's Resolve and Run the aftermath are
recorded on the turn with the request; when their task never runs (here the broker is a closed port;
a worker that died after taking it is the same for the database), the deadline sweep takes the
request up once it is PHASE_REQUEST_TAKE_UP_SECONDS old, and the phase runs once."""

from __future__ import annotations

import datetime as dt

import pytest
from django.utils import timezone

from demo.campaign import demo_campaign_create
from kingdoms.models import Alliance
from tests.clients import api_as, pages_as
from turns.models import Turn
from turns.services.cycle import aftermath_phase_run, orders_phase_run
from turns.services.sweep import deadline_sweep_run


@pytest.fixture
def turn(transactional_db):
    return demo_campaign_create().turns.get(number=1)


def sweep(now: dt.datetime) -> dict:
    return dict(
        deadline_sweep_run(
            orders_phase=lambda turn_id: orders_phase_run(turn_id=turn_id),
            aftermath_phase=lambda turn_id: aftermath_phase_run(turn_id=turn_id),
            now=now,
        )
    )


def test_a_resolve_and_an_aftermath_whose_tasks_never_ran_are_taken_up_by_the_sweep(turn, broker_down, settings):
    take_up = dt.timedelta(seconds=settings.PHASE_REQUEST_TAKE_UP_SECONDS)
    response = api_as("organizer").post(f"/api/turns/{turn.pk}/resolve/")
    assert response.status_code == 202
    turn.refresh_from_db()
    requested = turn.orders_requested_at
    assert turn.status == Turn.Status.ORDERS_OPEN and requested is not None
    assert api_as("alice").post(f"/api/turns/{turn.pk}/resolve/").status_code == 404  # the organizer's only

    # The task may still be on its way: the sweep leaves a young request alone (the deadline is days off).
    assert sweep(requested + take_up / 2)["resolutions"] == 0
    assert sweep(requested + take_up)["resolutions"] == 1
    turn.refresh_from_db()
    assert turn.status == Turn.Status.BATTLES and turn.orders_requested_at is None
    # Two kingdoms allied: the End of Turn stays open to the results deadline (decision 511), so only
    # the organizer's click moves this battle-less turn on early.
    kingdoms = {k.name: k for k in turn.campaign.kingdoms.all()}
    Alliance.objects.create(
        campaign=turn.campaign, first=kingdoms["Ostland"], second=kingdoms["Karak Dumn"], trust="T", formed_turn=1
    )
    assert sweep(requested + 2 * take_up)["resolutions"] == 0  # once

    # Nobody filed orders, so no battles: the aftermath may run before the results deadline.
    response = pages_as("organizer").post(f"/turns/{turn.pk}/aftermath/")
    assert response.status_code == 302
    turn.refresh_from_db()
    asked = turn.aftermath_requested_at
    assert turn.status == Turn.Status.BATTLES and asked is not None and asked < turn.results_deadline
    assert sweep(asked + take_up / 2)["aftermaths"] == 0
    assert sweep(asked + take_up)["aftermaths"] == 1
    turn.refresh_from_db()
    assert turn.status == Turn.Status.REPORTED and turn.aftermath_requested_at is None
    assert turn.campaign.turns.filter(number=2, status=Turn.Status.ORDERS_OPEN).exists()


def test_a_requested_resolution_runs_even_while_the_campaign_is_paused(turn, broker_down, settings):
    """The organizer asked for it: a pause holds the deadline, not the organizer's own request."""
    from orders.services.turns import campaign_pause

    campaign_pause(campaign=turn.campaign, paused=True, changed_by=turn.campaign.organizer, reason="Holidays")
    assert api_as("organizer").post(f"/api/turns/{turn.pk}/resolve/").status_code == 202
    later = timezone.now() + dt.timedelta(seconds=settings.PHASE_REQUEST_TAKE_UP_SECONDS + 1)
    assert sweep(later)["resolutions"] == 1
    # The deadline itself does not pass while paused: another campaign's paused turn is not resolved.
    other = demo_campaign_create().turns.get(number=1)
    campaign_pause(campaign=other.campaign, paused=True, changed_by=other.campaign.organizer, reason="Holidays")
    assert sweep(other.orders_deadline + dt.timedelta(days=1))["resolutions"] == 0
