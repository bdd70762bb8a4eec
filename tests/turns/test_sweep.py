"""The deadline sweep and the mail server (turns/services/sweep.py, outbox): the sweep queues the
reminders as outbox emails and never talks to SMTP itself, so a mail server that refuses every
connection stops no other step; the reminders end as failed emails the organizer sees and resends."""

from __future__ import annotations

import datetime as dt

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.test import Client
from django.utils import timezone
from freezegun import freeze_time

from outbox.models import Email
from outbox.services import EMAIL_TRIES
from tests.conftest import DEMO
from tests.smtp import free_port, use_smtp
from tests.turns.builders import campaign_of_two_built
from turns.models import Turn
from turns.services.cycle import orders_phase_run
from turns.tasks import deadline_sweep


def client_for(username: str) -> Client:
    client = Client()
    client.force_login(get_user_model().objects.get(username=username))
    return client


@pytest.fixture
def tasks_retry_in_process():
    """An eager task that asks to be retried is run again at once, as a worker would after the
    backoff (Celery's `apply` does so when it does not propagate errors: the test settings make it
    propagate, so a test sees a task's failure)."""
    from briternia.celery import app

    previous = app.conf.task_eager_propagates
    app.conf.task_eager_propagates = False
    yield
    app.conf.task_eager_propagates = previous


def test_a_mail_server_that_refuses_every_connection_stops_nothing_and_loses_no_reminder(
    transactional_db, shared_layers, settings, tasks_retry_in_process
):
    """The issue's "Done when": one run of the sweep, with SMTP refusing every connection, resolves
    another campaign's due turn and runs a third's due aftermath; the due reminders end as failed
    emails after their tries; the organizer sees them and resends them."""
    now = timezone.now()
    # The run's shared demo campaign (tests/shared_rows.py) for the one reminded (its players and
    # kingdoms are named below); the resolved and the ended ones are built (tests/turns/builders.py).
    reminded = shared_layers.take(DEMO)
    resolved, ended = campaign_of_two_built("Resolved"), campaign_of_two_built("Ended")
    Turn.objects.filter(campaign=reminded).update(orders_deadline=now + dt.timedelta(hours=2))
    Turn.objects.filter(campaign=resolved).update(orders_deadline=now - dt.timedelta(minutes=1))
    battles = ended.turns.get(number=1)
    assert orders_phase_run(turn_id=battles.pk).resolved  # nobody filed orders: no battles to wait for
    Turn.objects.filter(pk=battles.pk).update(results_deadline=now - dt.timedelta(minutes=1))
    use_smtp(settings, free_port())  # nothing listens there: every connection is refused

    with freeze_time(now):
        report = deadline_sweep.delay().get()

    assert report["failed"] == []
    assert (report["reminders"], report["resolutions"], report["aftermaths"]) == (4, 1, 1)
    assert resolved.turns.get(number=1).status == Turn.Status.BATTLES
    assert ended.turns.get(number=1).status == Turn.Status.REPORTED
    assert ended.turns.filter(number=2, status=Turn.Status.ORDERS_OPEN).exists()
    reminders = Email.objects.filter(campaign=reminded, kind=Email.Kind.ORDERS_REMINDER)
    assert sorted(address for e in reminders for address in e.to) == [
        f"{name}@briternia.local" for name in ("alice", "bob", "carol", "dave")
    ]
    for email in reminders:
        assert (email.status, email.attempts) == (Email.Status.FAILED, EMAIL_TRIES)
        assert "Connection refused" in email.last_error or "ConnectionRefused" in email.last_error
    # The reports of the ended turn were rendered and met the same server: failed too, nothing lost.
    # (The setup's "turn 1 is open" email went out when the campaign started, before the server did.)
    report_emails = Email.objects.filter(campaign=ended, turn__number=1).exclude(kind=Email.Kind.SETUP)
    assert {e.kind for e in report_emails} == {Email.Kind.KINGDOM_REPORT, Email.Kind.BULLETIN}
    assert {(e.status, e.attempts) for e in report_emails} == {(Email.Status.FAILED, EMAIL_TRIES)}

    organizer = client_for("organizer")
    campaign_page = organizer.get(f"/campaigns/{reminded.pk}/").content.decode()
    assert f"/campaigns/{reminded.pk}/emails/" in campaign_page and "(4 failed)" in campaign_page
    page = organizer.get(f"/campaigns/{reminded.pk}/emails/").content.decode()
    bob = reminders.get(to=["bob@briternia.local"])
    assert "Da Red Fang&#x27;s orders are due in 2 hours" in page and f"/emails/{bob.pk}/resend/" in page
    assert client_for("bob").get(f"/campaigns/{reminded.pk}/emails/").status_code == 404
    assert client_for("bob").post(f"/emails/{bob.pk}/resend/").status_code == 404

    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"  # the server is back
    mail.outbox.clear()
    response = organizer.post(f"/emails/{bob.pk}/resend/", {"next": f"/campaigns/{reminded.pk}/emails/"})
    assert response.status_code == 302 and response["Location"] == f"/campaigns/{reminded.pk}/emails/"
    bob.refresh_from_db()
    assert (bob.status, bob.attempts, bob.last_error) == (Email.Status.SENT, 1, "")
    (message,) = mail.outbox
    assert message.to == ["bob@briternia.local"] and "Da Red Fang's orders are due in 2 hours" in message.subject


def test_the_sweep_only_queues_the_reminders_their_tasks_send_them(
    demo_campaign, monkeypatch, django_capture_on_commit_callbacks
):
    """The sweep writes the reminders as rows; their send tasks are enqueued once the rows commit.
    The sweep itself sends nothing."""
    from outbox.tasks import email_send

    enqueued: list[int] = []
    monkeypatch.setattr(email_send, "delay", lambda *, email_id: enqueued.append(email_id))
    turn = demo_campaign.turns.get(number=1)
    mail.outbox.clear()
    due = freeze_time(turn.orders_deadline - dt.timedelta(hours=2))
    with django_capture_on_commit_callbacks() as after_commit, due:
        assert deadline_sweep.delay().get()["reminders"] == 4
    rows = Email.objects.filter(campaign=demo_campaign, kind=Email.Kind.ORDERS_REMINDER)
    assert mail.outbox == [] and enqueued == []
    assert [e.status for e in rows] == [Email.Status.QUEUED] * 4
    for callback in after_commit:
        callback()
    assert sorted(enqueued) == sorted(e.pk for e in rows)
