"""Redis down (issue 20): enqueueing after a write has committed never turns the saved write into an
error. The broker is a closed port on this machine; a player's submission, the organizer's Resolve
and a deadline change each answer at once (under two seconds) with the change saved, the work is
recorded in the database, and the deadline sweep takes it up once tasks run again."""

from __future__ import annotations

import datetime as dt
import time

import pytest
from django.utils import timezone

from briternia.celery import app
from demo.campaign import demo_campaign_create
from kingdoms.models import Kingdom
from orders.models import DeadlineChange, OrderSubmission
from outbox.models import Email
from outbox.services import NOT_ENQUEUED
from tests.clients import api_as, pages_as
from turns.models import Turn
from turns.tasks import deadline_sweep


@pytest.fixture
def campaign(transactional_db):
    return demo_campaign_create()


def timed(call):  # type: ignore[no-untyped-def]
    start = time.monotonic()
    response = call()
    return response, time.monotonic() - start


def test_with_the_broker_down_every_saved_write_answers_at_once_and_the_sweep_takes_the_work_up(
    campaign, broker_down, settings
):
    turn = campaign.turns.get(number=1)
    ostland = Kingdom.objects.get(campaign=campaign, name="Ostland")
    army = ostland.armies.get(kind="field")

    # A player submits through the API: 200, the sheet saved, the receipt queued and marked for the sweep.
    response, took = timed(
        lambda: api_as("alice").put(
            f"/api/turns/{turn.pk}/sheet/",
            {"submit": True, "orders": [{"army": army.id, "kind": "fortify"}]},
            format="json",
        )
    )
    assert response.status_code == 200, response.content
    assert took < 2, took
    assert response.json()["submitted"]["entries"]["orders"][0]["kind"] == "fortify"
    submission = OrderSubmission.objects.get(sheet__kingdom=ostland)
    receipt = Email.objects.get(key=f"orders-receipt:{submission.pk}")
    assert receipt.status == Email.Status.QUEUED and receipt.last_error.startswith(NOT_ENQUEUED)

    # Through the page too: the player is sent to the receipt, which shows the saved orders.
    da_red_fang = Kingdom.objects.get(campaign=campaign, name="Da Red Fang")
    bobs_army = da_red_fang.armies.get(kind="field")
    page = pages_as("bob")
    response, took = timed(
        lambda: page.post(
            f"/turns/{turn.pk}/orders/{da_red_fang.pk}/", {f"army-{bobs_army.id}-kind": "hold", "action": "submit"}
        )
    )
    assert response.status_code == 302 and response["Location"].endswith("/receipt/"), response.content[:500]
    assert took < 2, took
    assert "Hold" in page.get(response["Location"]).content.decode()

    # The organizer moves the deadline: saved and announced (the announcement waits in the outbox).
    new_deadline = turn.orders_deadline + dt.timedelta(days=1)
    response, took = timed(
        lambda: api_as("organizer").post(
            f"/api/turns/{turn.pk}/deadlines/", {"orders_deadline": new_deadline.isoformat()}, format="json"
        )
    )
    assert response.status_code == 200, response.content
    assert took < 2, took
    assert DeadlineChange.objects.filter(turn=turn, kind="orders").exists()
    announcement = Email.objects.get(kind=Email.Kind.ANNOUNCEMENT, turn=turn)
    assert announcement.last_error.startswith(NOT_ENQUEUED)

    # The organizer clicks Resolve: told it is on its way, the request recorded on the turn.
    response, took = timed(lambda: pages_as("organizer").post(f"/turns/{turn.pk}/resolve/"))
    assert response.status_code == 302 and took < 2, took
    turn.refresh_from_db()
    assert turn.status == Turn.Status.ORDERS_OPEN and turn.orders_requested_at is not None

    # The broker is back (tasks run again): the next sweep sends what waits and, once the request is
    # a minute old, resolves the turn; nothing is lost, nothing sent twice.
    app.conf.task_always_eager = True
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    report = deadline_sweep.delay().get()
    assert report["resolutions"] == 0 and report["deliveries"] >= 3
    assert set(Email.objects.filter(campaign=campaign).values_list("status", flat=True)) == {Email.Status.SENT}
    later = timezone.now() + dt.timedelta(seconds=settings.PHASE_REQUEST_TAKE_UP_SECONDS)
    from turns.services.cycle import orders_phase_run
    from turns.services.sweep import deadline_sweep_run

    report = deadline_sweep_run(
        orders_phase=lambda turn_id: orders_phase_run(turn_id=turn_id), aftermath_phase=lambda t: None, now=later
    )
    assert report["resolutions"] == 1
    turn.refresh_from_db()
    assert turn.status == Turn.Status.BATTLES and turn.orders_requested_at is None
