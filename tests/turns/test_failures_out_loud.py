"""A phase that fails is said out loud (issue 37): every page that would say "queued" says FAILED
with the reason (the organizer's alone) and what to do, the organizer is emailed once per run of
failures, /health/ counts it, the deadline sweep backs it off (1, 2, 4 ... minutes, an hour at most)
instead of trying it every minute for ever, and the desk's Retry runs it at once (rulebook, Campaign
Schedule: the turn resolves at the orders deadline; architecture: safe tasks).

The failure is real: the database refuses the turn's events (a full disk), at Django's manager, as
tests/turns/test_sweep_isolation.py does; nothing of the project's own code is replaced."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from django.test import Client
from django.utils import timezone
from freezegun import freeze_time

from outbox.models import Email
from tests.clients import pages_as
from tests.turns.refusals import events_refused
from turns.models import Turn, phase_retry_delay
from turns.services.cycle import aftermath_phase_run
from turns.tasks import deadline_sweep

pytestmark = pytest.mark.django_db


@pytest.fixture
def full_disk():
    """The database refuses every turn's events until the test calls `undo()` (the disk has room)."""
    with events_refused(OSError("disk full")) as refused:
        yield refused


def _sweep_at(when: dt.datetime, capture) -> dict:
    with freeze_time(when), capture(execute=True):
        return deadline_sweep.delay().get()


def _page(client: Client, url: str) -> str:
    response = client.get(url)
    assert response.status_code == 200, url
    return response.content.decode()


def _alerts(campaign) -> list[Email]:
    alerts = Email.objects.filter(campaign=campaign, kind=Email.Kind.ORGANIZER_ALERT)
    return list(alerts.filter(key__startswith="phase-failed:"))


def test_the_sweep_waits_longer_after_each_failure_an_hour_at_most() -> None:
    minutes = [phase_retry_delay(n) / dt.timedelta(minutes=1) for n in range(1, 10)]
    assert minutes == [1, 2, 4, 8, 16, 32, 60, 60, 60]
    assert phase_retry_delay(500) == dt.timedelta(hours=1)


def test_a_failing_orders_phase_is_said_out_loud_backed_off_emailed_once_and_retried_from_the_desk(
    demo_campaign, turn, full_disk, client, django_capture_on_commit_callbacks
) -> None:
    campaign = demo_campaign
    now = timezone.now().replace(microsecond=0)
    Turn.objects.filter(pk=turn.pk).update(orders_deadline=now - dt.timedelta(minutes=5))

    report = _sweep_at(now, django_capture_on_commit_callbacks)

    assert report["failed"] == [f"orders phase of turn {turn.pk}"]
    turn.refresh_from_db()
    assert turn.status == Turn.Status.ORDERS_OPEN and "disk full" in turn.resolution_error
    assert (turn.phase_failures, turn.phase_failed_at, turn.phase_retry_at) == (1, now, now + dt.timedelta(minutes=1))

    # The organizer is told once, in words, with what to do.
    (alert,) = _alerts(campaign)
    assert alert.to == [campaign.organizer.email]
    assert alert.subject == f"{campaign.name}, turn 1: the orders phase FAILED and changed nothing"
    assert "The orders phase of turn 1 FAILED at " in alert.text
    assert "Why: The orders phase failed on an error in the site and changed nothing (OSError: disk full)" in alert.text
    assert f"/campaigns/{campaign.pk}/desk/" in alert.text and f"/turns/{turn.pk}/snapshots/" in alert.text
    assert "retry it at once from the game master's desk" in alert.text
    assert "disk full" in alert.html

    # Backed off: not tried again within the minute, then tried, then two minutes later, not every minute.
    assert _sweep_at(now + dt.timedelta(seconds=30), django_capture_on_commit_callbacks)["failed"] == []
    assert Turn.objects.get(pk=turn.pk).phase_failures == 1
    assert _sweep_at(now + dt.timedelta(minutes=1), django_capture_on_commit_callbacks)["failed"] != []
    turn.refresh_from_db()
    second = now + dt.timedelta(minutes=1)
    assert (turn.phase_failures, turn.phase_retry_at) == (2, second + dt.timedelta(minutes=2))
    assert _sweep_at(second + dt.timedelta(minutes=1), django_capture_on_commit_callbacks)["failed"] == []
    assert Turn.objects.get(pk=turn.pk).phase_failures == 2
    assert len(_alerts(campaign)) == 1  # a failure that repeats is not emailed again

    # /health/ counts it (never names it: the page is public).
    assert client.get("/health/").json()["phase_failed"] == 1

    # Every page of the turn says FAILED with the reason to the organizer, and to a player that it
    # failed, never why (the reason may name another kingdom's treasury).
    organizer = pages_as("organizer")
    for url in (f"/campaigns/{campaign.pk}/", f"/turns/{turn.pk}/sheets/", f"/turns/{turn.pk}/results/"):
        page = _page(organizer, url)
        assert "FAILED" in page and "OSError: disk full" in page, url
        assert "queued" not in page, url
    assert "2 tries in a row" in _page(organizer, f"/turns/{turn.pk}/results/")
    player = _page(pages_as("alice"), f"/campaigns/{campaign.pk}/")
    assert "The orders phase of turn 1 FAILED and changed nothing. The organizer has been told" in player
    assert "disk full" not in player

    # The desk: the reason, since when, the tries, the sweep's next try, Retry and the snapshots.
    desk = _page(organizer, f"/campaigns/{campaign.pk}/desk/")
    assert "FAILED:</strong> the orders phase of turn 1 changed nothing" in desk
    assert "OSError: disk full" in desk and "(2 tries in a row)" in desk
    assert 'id="next-try"' in desk and f'action="/turns/{turn.pk}/retry/"' in desk
    assert "Run the orders phase of turn 1 now?" in desk  # the Retry asks first
    assert f'href="/turns/{turn.pk}/snapshots/"' in desk

    # Retry is the organizer's, by POST only, with the form's CSRF token.
    assert pages_as("alice").post(f"/turns/{turn.pk}/retry/").status_code == 404
    assert organizer.get(f"/turns/{turn.pk}/retry/").status_code == 405
    forged = Client(enforce_csrf_checks=True)
    forged.force_login(campaign.organizer)
    assert forged.post(f"/turns/{turn.pk}/retry/").status_code == 403

    # Once the disk has room, the desk's Retry runs it now, not at the sweep's next try.
    full_disk.undo()
    with django_capture_on_commit_callbacks(execute=True):
        response = organizer.post(f"/turns/{turn.pk}/retry/")
    assert response.status_code == 302 and response["Location"] == f"/campaigns/{campaign.pk}/desk/"
    turn.refresh_from_db()
    assert turn.status == Turn.Status.BATTLES and turn.resolution_error == ""
    assert (turn.phase_failures, turn.phase_failed_at, turn.phase_retry_at) == (0, None, None)
    assert client.get("/health/").json()["phase_failed"] == 0
    assert "FAILED" not in _page(organizer, f"/campaigns/{campaign.pk}/desk/")
    assert len(_alerts(campaign)) == 1


def test_an_aftermath_asked_for_then_failing_says_failed_not_queued_on_every_page(
    battles_posted_turn, full_disk
) -> None:
    turn = battles_posted_turn
    Turn.objects.filter(pk=turn.pk).update(results_deadline=timezone.now() - dt.timedelta(minutes=1))
    organizer = pages_as("organizer")
    # The organizer's Run the aftermath: recorded, its task not yet run (no commit callbacks here).
    assert organizer.post(f"/turns/{turn.pk}/aftermath/").status_code == 302
    assert "The aftermath of turn 1 is queued" in _page(organizer, f"/turns/{turn.pk}/battles/")

    with pytest.raises(OSError, match="disk full"):  # the worker takes it up, and it fails
        aftermath_phase_run(turn_id=turn.pk)

    turn.refresh_from_db()
    assert turn.status == Turn.Status.BATTLES and turn.aftermath_requested_at is not None
    for url in (f"/turns/{turn.pk}/battles/", f"/turns/{turn.pk}/results/", f"/campaigns/{turn.campaign_id}/"):
        page = _page(organizer, url)
        assert "queued" not in page and "in a moment" not in page, url
        assert "The aftermath of turn 1 FAILED and changed nothing." in page, url
        assert "The aftermath failed on an error in the site and changed nothing (OSError: disk full)" in page, url
        assert f'href="/campaigns/{turn.campaign_id}/desk/#failures"' in page, url
    for name in ("alice", "dave"):
        page = _page(pages_as(name), f"/turns/{turn.pk}/battles/")
        assert "The aftermath of turn 1 FAILED" in page and "disk full" not in page
    # The desk offers the snapshot to restore: the campaign before turn 1's orders phase (the failed
    # aftermath's own snapshot rolled back with it).
    desk = _page(organizer, f"/campaigns/{turn.campaign_id}/desk/")
    restore = rf'href="/turns/{turn.pk}/snapshots/\d+/restore/">Restore to before the orders phase of turn 1<'
    assert re.search(restore, desk)
    # The page's polling script reloads on the change: its state says failed.
    status = organizer.get(f"/turns/{turn.pk}/status/").json()
    assert status["failed"] and not status["running"] and status["tries"] == 1
    (alert,) = _alerts(turn.campaign)
    assert "the aftermath FAILED" in alert.subject
