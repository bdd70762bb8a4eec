"""A web worker's publisher of send tasks (outbox.services.EmailPublisher, issue 35): the emails its
requests commit (a receipt per submission) go to a worker in one task for those gathered together,
each sent once; what it holds when the process stops is published then; a broker that is down
loses nothing (the rows are marked for the deadline sweep). Elsewhere, each email's own task, as
tests/outbox/test_services.py shows."""

from __future__ import annotations

import time

import pytest
from django.core import mail
from django.db import transaction

from briternia.celery import app
from outbox.models import Email
from outbox.services import NOT_ENQUEUED, EmailPublisher, email_publisher, email_queue
from outbox.tasks import emails_send
from tests.outbox.test_outage import MailServer, _wait_until
from tests.smtp import FlakySMTP, use_smtp
from tests.turns.workers import needs_postgres_and_broker


def _queue(campaign, to: str) -> Email:
    """An email queued as a request queues it: in its transaction, its task handed on at commit."""
    with transaction.atomic():
        email = email_queue(
            template="orders-reminder",
            kind=Email.Kind.ORDERS_RECEIPT,
            to=[to],
            context={"kingdom": {"name": "Ostland"}, "turn": {"number": 1, "pk": 1}, "campaign": campaign},
            campaign_id=campaign.pk,
        )
    assert email is not None
    return email


@pytest.fixture
def publisher():
    """The process's publisher running (as in a web worker), stopped after the test."""
    email_publisher.start()
    yield email_publisher
    email_publisher.stop()


@pytest.mark.django_db(transaction=True)
def test_the_emails_a_publisher_holds_are_sent_once_when_it_stops(publisher, new_campaign, monkeypatch):
    """Tasks run in-process here (the tests' eager Celery): the publisher's one task sends every
    email it gathered, once; stopping does not wait out the gathering."""
    monkeypatch.setattr(publisher, "gather_seconds", 60.0)
    mail.outbox.clear()
    emails = [_queue(new_campaign, f"p{n}@example.org") for n in range(3)]
    assert mail.outbox == []  # gathered, not yet published
    started = time.monotonic()
    publisher.stop()
    assert time.monotonic() - started < 10
    assert sorted(m.to[0] for m in mail.outbox) == ["p0@example.org", "p1@example.org", "p2@example.org"]
    assert {e.status for e in Email.objects.filter(pk__in=[e.pk for e in emails])} == {Email.Status.SENT}
    assert not publisher.running


@pytest.mark.django_db(transaction=True)
def test_a_broker_that_is_down_when_the_publisher_sends_loses_nothing(publisher, new_campaign, monkeypatch):
    """The publisher's task cannot be enqueued: every email it carried stays queued, marked for the
    deadline sweep and due at once (as a request's own task that could not be enqueued)."""

    def broker_down(**kwargs):
        raise ConnectionRefusedError("the broker is down")

    monkeypatch.setattr(emails_send, "delay", broker_down)
    emails = [_queue(new_campaign, f"p{n}@example.org") for n in range(2)]
    publisher.stop()
    for email in Email.objects.filter(pk__in=[e.pk for e in emails]):
        assert email.status == Email.Status.QUEUED
        assert email.last_error.startswith(NOT_ENQUEUED) and "the broker is down" in email.last_error
        assert email.take_up_at is not None


def test_a_publisher_not_started_in_this_process_takes_nothing():
    """Outside a web worker (and in a process forked from one) the caller enqueues each email's task."""
    assert EmailPublisher().take(1, bulk=False) is False


def test_the_publisher_s_task_goes_on_the_transactional_queue():
    assert app.amqp.router.route({}, "outbox.tasks.emails_send")["queue"].name == "transactional"
    assert app.amqp.router.route({}, "outbox.tasks.emails_send_bulk")["queue"].name == app.conf.task_default_queue


@pytest.mark.celery_worker
@needs_postgres_and_broker  # the worker's thread and the test write at once: SQLite's test database locks
def test_emails_gathered_by_the_publisher_reach_a_real_worker_and_go_once(
    celery_worker, publisher, new_campaign, settings
):
    """Over the real broker: the emails several requests commit within the gathering go in one
    task, each sent once, within a few seconds."""
    server = MailServer(FlakySMTP(failures=0))
    use_smtp(settings, server.port)
    server.start()
    try:
        emails = [_queue(new_campaign, f"p{n}@example.org") for n in range(5)]
        ids = [e.pk for e in emails]
        assert _wait_until(
            lambda: set(Email.objects.filter(pk__in=ids).values_list("status", flat=True)) == {Email.Status.SENT}, 20
        )
        received = sorted(address for envelope in server.handler.received for address in envelope.rcpt_tos)
        assert received == sorted(f"p{n}@example.org" for n in range(5))
    finally:
        server.stop()
