"""The deadline sweep runs each step, and each due turn, on its own (turns/services/sweep.py): a
phase that fails for one campaign's turn is rolled back and recorded on that turn for the organizer,
and every other due turn is still resolved in the same run (ARCHITECTURE: safe tasks; rulebook,
Campaign Schedule: the turn resolves at the orders deadline)."""

from __future__ import annotations

import datetime as dt

from django.utils import timezone
from freezegun import freeze_time

from tests.turns.builders import campaign_of_two_built
from tests.turns.refusals import turn_events_refused
from turns.models import Turn, TurnEvent
from turns.tasks import deadline_sweep


def test_one_turn_failing_to_resolve_stops_no_other(db, django_capture_on_commit_callbacks):
    now = timezone.now()
    # Built campaigns (tests/turns/builders.py): what is checked is the sweep's work, not the demo's.
    sound, broken = campaign_of_two_built("Sound"), campaign_of_two_built("Broken")
    Turn.objects.filter(campaign__in=[broken, sound]).update(orders_deadline=now - dt.timedelta(minutes=1))
    broken_turn, sound_turn = broken.turns.get(number=1), sound.turns.get(number=1)

    # The database refuses the broken campaign's events (a full disk, say), and only those.
    with (
        turn_events_refused(broken_turn, "disk full"),
        freeze_time(now),
        django_capture_on_commit_callbacks(execute=True),
    ):
        report = deadline_sweep.delay().get()

    assert report["failed"] == [f"orders phase of turn {broken_turn.pk}"]
    assert report["resolutions"] == 1
    broken_turn.refresh_from_db()
    sound_turn.refresh_from_db()
    assert broken_turn.status == Turn.Status.ORDERS_OPEN and "disk full" in broken_turn.resolution_error
    assert not TurnEvent.objects.filter(turn=broken_turn).exists()
    assert sound_turn.status == Turn.Status.BATTLES and TurnEvent.objects.filter(turn=sound_turn).exists()

    # Once the disk has room again, the next sweep resolves it. (It runs the sound turn's aftermath
    # too; the reports that queues, on commit, are rendered by no assertion here, so are not run.)
    with freeze_time(now + dt.timedelta(minutes=1)):
        assert deadline_sweep.delay().get()["resolutions"] == 1
    broken_turn.refresh_from_db()
    assert broken_turn.status == Turn.Status.BATTLES and broken_turn.resolution_error == ""
