"""Mail that outlasts an outage (issue 34): an email is retried for a day before it fails, the wait
between tries is never cut short (not by the deadline sweep, not by a duplicate message), every
email goes exactly once after the mail server returns, and the emails a person waits for (a
receipt, an invitation, a reminder) go on their own queue, ahead of a turn's bulk mail and PDFs.

The mail server is a real one (aiosmtpd) on 127.0.0.1, started late ("down": nothing listens on
its port) and stopped by the test that started it; the worker tests run a real Celery worker over
the real broker (CELERY_BROKER_URL), bounded in time."""

from __future__ import annotations

import asyncio
import datetime as dt
import threading
import time
from itertools import accumulate, pairwise

import pytest
from aiosmtpd.controller import Controller
from django.utils import timezone
from freezegun import freeze_time

from briternia.celery import app
from outbox.models import STALE_AFTER, Email
from outbox.services import (
    EMAIL_TRIES,
    RETRY_BACKOFF_SECONDS,
    email_queue,
    email_retry_countdown_max,
    email_retry_delay,
)
from outbox.tasks import email_send, email_send_task, emails_take_up
from tests.smtp import FlakySMTP, free_port, use_smtp
from tests.turns.workers import needs_postgres_and_broker

DAY = dt.timedelta(hours=24)
TRANSACTIONAL = [Email.Kind.ORDERS_RECEIPT, Email.Kind.INVITATION, Email.Kind.ORDERS_REMINDER]
BULK = [Email.Kind.KINGDOM_REPORT, Email.Kind.BULLETIN, Email.Kind.SCENARIO_SHEET]


def _queue(campaign, kind: str, to: str, **options) -> Email:
    email = email_queue(
        template="orders-reminder",
        kind=kind,
        to=[to],
        context={"kingdom": {"name": "Ostland"}, "turn": {"number": 1, "pk": 1}, "campaign": campaign},
        campaign_id=campaign.pk,
        **options,
    )
    assert email is not None
    return email


def _offsets() -> list[float]:
    """When each try may start, in seconds after the first: 0, then the waits added up."""
    return [0.0, *accumulate(email_retry_delay(n) for n in range(1, EMAIL_TRIES))]


class MailServer:
    """A real SMTP server on a port chosen now, started later (until then the mail server is
    down: the port refuses connections), stopped by the test."""

    def __init__(self, handler) -> None:
        self.handler = handler
        self.port = free_port()
        self.controller: Controller | None = None

    def start(self) -> None:
        self.controller = Controller(self.handler, hostname="127.0.0.1", port=self.port)
        self.controller.start()

    def stop(self) -> None:
        if self.controller is not None:
            self.controller.stop()
            self.controller = None


@pytest.fixture
def mail_server_down(settings):
    """The site sends through 127.0.0.1:<port>, where no server listens until the test starts one."""
    server = MailServer(FlakySMTP(failures=0))
    use_smtp(settings, server.port)
    settings.EMAIL_BACKOFF_SCALE = 1
    yield server
    server.stop()


def test_an_email_is_retried_for_a_day_before_it_fails(settings):
    """The schedule: quick tries first (a server restarting), then hourly, for at least 24 hours
    before the last try; after an outage ends, the next try comes within the hour."""
    settings.EMAIL_BACKOFF_SCALE = 1
    waits = [email_retry_delay(n) for n in range(1, EMAIL_TRIES)]
    assert waits == sorted(waits) and waits[0] <= 60
    assert dt.timedelta(seconds=sum(waits)) >= DAY
    assert max(waits) <= 3600
    assert len(RETRY_BACKOFF_SECONDS) == EMAIL_TRIES - 1
    # Only the short waits are countdowns the broker holds (within its visibility timeout); the
    # longer ones are the deadline sweep's.
    visibility = app.conf.broker_transport_options.get("visibility_timeout", 3600)
    assert 0 < email_retry_countdown_max() < visibility
    assert [w <= email_retry_countdown_max() for w in waits[:3]] == [True, True, False]
    # The scale shortens the whole schedule (tests run it fast).
    settings.EMAIL_BACKOFF_SCALE = 0.001
    assert email_retry_delay(EMAIL_TRIES - 1) == pytest.approx(3.6)


@pytest.mark.parametrize("kind", TRANSACTIONAL + [Email.Kind.ANNOUNCEMENT, Email.Kind.SETUP])
def test_an_email_a_person_waits_for_goes_on_the_transactional_queue(kind):
    task = email_send_task(bulk=Email(kind=kind).bulk)
    assert task is email_send
    assert app.amqp.router.route({}, task.name)["queue"].name == "transactional"


def test_each_queue_receives_only_its_own_tasks():
    """Each queue is bound by its own routing key: were the transactional queue bound by the
    default one, the broker would copy every task of the default queue (PDFs, resolutions) into
    it, for the mailer to run."""
    bindings = {name: queue.routing_key for name, queue in app.amqp.queues.items()}
    assert bindings == {"transactional": "transactional", app.conf.task_default_queue: app.conf.task_default_queue}
    for name in bindings:
        assert app.amqp.router.route({"queue": name}, "any.task")["queue"].routing_key == name


@pytest.mark.parametrize("kind", BULK)
def test_a_turn_s_reports_go_on_the_bulk_queue_with_the_pdfs(kind):
    task = email_send_task(bulk=Email(kind=kind).bulk)
    assert app.amqp.router.route({}, task.name)["queue"].name == app.conf.task_default_queue
    assert app.amqp.router.route({}, "reports.tasks.report_render_task")["queue"].name == app.conf.task_default_queue


def test_a_mail_server_down_for_five_hours_loses_nothing_and_sends_nothing_twice(
    settings, mail_server_down, new_campaign
):
    """On the real schedule (a frozen clock moved five minutes at a time, the sweep run at each
    step, and every twenty minutes a duplicate message of every email, as Redis may redeliver one): no
    try starts before its wait is over, every email is still queued after five hours, and each goes
    exactly once within the hour after the server returns. An email queued later keeps its own
    schedule. Waits here are all the sweep's (EMAIL_RETRY_COUNTDOWN_MAX_SECONDS = 0), so the
    in-process tasks never hold a countdown."""
    settings.EMAIL_RETRY_COUNTDOWN_MAX_SECONDS = 0
    start = timezone.now().replace(microsecond=0)
    tries: dict[int, list[dt.datetime]] = {}
    emails: list[Email] = []
    with freeze_time(start, real_asyncio=True) as clock:
        for minute in range(0, 6 * 60 + 5, 5):  # beat's sweep, every five minutes here
            now = timezone.now()
            if minute in (0, 15):  # three emails at the start, three more a quarter of an hour later
                for kind in (Email.Kind.ORDERS_RECEIPT, Email.Kind.INVITATION, Email.Kind.KINGDOM_REPORT):
                    emails.append(_queue(new_campaign, kind, f"{kind}-{minute}@example.org", after_commit=False))
                    email_send_task(bulk=emails[-1].bulk).delay(email_id=emails[-1].pk)  # its task, after commit
            if minute == 5 * 60:
                mail_server_down.start()  # the outage ends
                back = now
            if minute % 20 == 5:  # a duplicate message (as Redis may redeliver one): never a try before its time
                for email in emails:
                    email_send.delay(email_id=email.pk)
            emails_take_up(now=now)  # the deadline sweep
            for email in Email.objects.filter(pk__in=[e.pk for e in emails]):
                if email.claimed_at and email.claimed_at not in tries.setdefault(email.pk, []):
                    tries[email.pk].append(email.claimed_at)
            clock.tick(dt.timedelta(minutes=5))
    received = sorted(address for envelope in mail_server_down.handler.received for address in envelope.rcpt_tos)
    assert received == sorted(address for email in emails for address in email.to)  # each exactly once
    offsets = _offsets()
    for email in Email.objects.filter(pk__in=[e.pk for e in emails]):
        assert email.status == Email.Status.SENT, (email.kind, email.last_error)
        assert email.retry_at is None and email.take_up_at is None
        times = tries[email.pk]
        assert len(times) == email.attempts > 8
        # Each try starts once its wait is over, and at most one run of the sweep later.
        for n, (previous, this) in enumerate(pairwise(times), start=1):
            waited = (this - previous).total_seconds()
            assert email_retry_delay(n) <= waited <= email_retry_delay(n) + 300, (n, waited)
        assert (times[-1] - times[0]).total_seconds() >= offsets[email.attempts - 1]
        assert back <= email.sent_at <= back + dt.timedelta(hours=1, minutes=5)


def test_after_the_last_try_of_the_day_the_email_fails_for_the_organizer_to_resend(
    settings, mail_server_down, new_campaign
):
    """A server down for more than a day: the email is FAILED only after a day of tries; the
    sweep takes it up no more; the organizer's resend queues it again."""
    from outbox.services import email_resend

    settings.EMAIL_RETRY_COUNTDOWN_MAX_SECONDS = 0
    start = timezone.now().replace(microsecond=0)
    with freeze_time(start, real_asyncio=True) as clock:
        email = _queue(new_campaign, Email.Kind.ORDERS_RECEIPT, "late@example.org", after_commit=False)
        email_send.delay(email_id=email.pk)
        failed_at = None
        for _ in range(26 * 6):  # the sweep every ten minutes for 26 hours
            clock.tick(dt.timedelta(minutes=10))
            emails_take_up(now=timezone.now())
            email.refresh_from_db()
            if failed_at is None and email.status == Email.Status.FAILED:
                failed_at = timezone.now()
        assert failed_at is not None and failed_at - start >= DAY
        assert (email.attempts, email.take_up_at, email.retry_at) == (EMAIL_TRIES, None, None)
        assert emails_take_up(now=timezone.now() + DAY) == 0
        email_resend(email=email)
        email.refresh_from_db()
        assert (email.status, email.attempts, email.retry_at) == (Email.Status.QUEUED, 0, None)
        assert email.take_up_at == timezone.now() + STALE_AFTER  # the sweep sends it if its task is lost


# The real stack: a worker over the real broker.


def _wait_until(condition, seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.02)
    return True


@pytest.mark.celery_worker
@needs_postgres_and_broker  # the worker's thread and the test write at once: SQLite's test database locks
@pytest.mark.parametrize("countdown_max", [300, 0], ids=["short-waits-on-the-broker", "every-wait-the-sweep-s"])
def test_on_a_real_worker_every_email_goes_once_after_a_ten_minute_outage(
    celery_worker, settings, mail_server_down, new_campaign, countdown_max
):
    """The schedule scaled down 200 times (a ten-minute outage lasts 3 s): six emails of every
    kind are tried while nothing listens, the sweep runs every 50 ms beside the worker, then the
    server starts. Each email is delivered exactly once, and no try came before its wait."""
    settings.EMAIL_BACKOFF_SCALE = scale = 0.005
    settings.EMAIL_RETRY_COUNTDOWN_MAX_SECONDS = countdown_max
    emails = [_queue(new_campaign, kind, f"{kind}@example.org") for kind in TRANSACTIONAL + BULK]
    queued = time.monotonic()
    outage = 600 * scale

    def sent() -> bool:
        emails_take_up(now=timezone.now())  # the deadline sweep, much more often than beat runs it
        return not Email.objects.filter(pk__in=[e.pk for e in emails]).exclude(status=Email.Status.SENT).exists()

    while time.monotonic() < queued + outage:  # the outage, the sweep running beside the worker
        assert not sent()
        time.sleep(0.05)
    mail_server_down.start()
    up = time.monotonic() - queued
    assert _wait_until(sent, 30), list(Email.objects.filter(pk__in=[e.pk for e in emails]).values("kind", "status"))
    time.sleep(0.5)  # a duplicate in flight would arrive now
    received = sorted(address for envelope in mail_server_down.handler.received for address in envelope.rcpt_tos)
    assert received == sorted(f"{kind}@example.org" for kind in TRANSACTIONAL + BULK)
    offsets = _offsets()
    for email in Email.objects.filter(pk__in=[e.pk for e in emails]):
        # Tries failed while the server was down; the failed ones all started before it came
        # up, and each after its wait: no more of them than the schedule allows.
        assert email.attempts >= 2, email.kind
        assert offsets[email.attempts - 2] < up, (email.kind, email.attempts, up)


class GatedSMTP:
    """A real SMTP server that keeps the first message waiting until `release` is set, and records
    the order in which the messages arrive."""

    def __init__(self) -> None:
        self.first_arrived = threading.Event()
        self.release = threading.Event()
        self.order: list[str] = []

    async def handle_DATA(self, server, session, envelope):  # noqa: N802 (aiosmtpd's hook name)
        if not self.first_arrived.is_set():
            self.first_arrived.set()
            while not self.release.is_set():
                await asyncio.sleep(0.01)
        self.order.extend(envelope.rcpt_tos)
        return "250 OK"


@pytest.fixture
def gated_server(settings):
    server = MailServer(GatedSMTP())
    use_smtp(settings, server.port)
    server.start()
    yield server.handler
    server.handler.release.set()
    server.stop()


@pytest.mark.celery_worker
@needs_postgres_and_broker  # the worker's thread and the test write at once: SQLite's test database locks
def test_a_receipt_queued_after_a_turn_s_bulk_mail_is_delivered_before_it(celery_worker, gated_server, new_campaign):
    """A turn's reports fill the bulk queue (the worker busy with the first); a receipt, an
    invitation and a reminder queued after them are the next three to go, before the rest."""
    pdf = ("report.pdf", b"%PDF-1.7 " + b"x" * 50_000, "application/pdf")
    bulk = [_queue(new_campaign, BULK[n % 3], f"bulk-{n:02}@example.org", attachment=pdf).to[0] for n in range(12)]
    assert gated_server.first_arrived.wait(20)  # the worker is sending the first of them
    waited_for = [_queue(new_campaign, kind, f"{kind}@example.org").to[0] for kind in TRANSACTIONAL]
    gated_server.release.set()
    assert _wait_until(lambda: len(gated_server.order) == len(bulk) + len(waited_for), 30), gated_server.order
    assert gated_server.order[0] == bulk[0]
    assert sorted(gated_server.order[1:4]) == sorted(waited_for), gated_server.order
    assert gated_server.order[4:] == bulk[1:]


@pytest.mark.parametrize("procfile", ["Procfile", "deploy/Procfile.stack", "deploy/Procfile.run"])
def test_every_worker_of_the_stack_takes_the_transactional_queue_first(procfile):
    """The workers the stacks run (production, `make stack`, `make run`) list the transactional
    queue first (taken first: queue_order_strategy "priority"), and one of them takes the
    default queue, where the PDFs and the rest go."""
    from pathlib import Path

    lines = (Path(__file__).resolve().parents[2] / procfile).read_text().splitlines()
    commands = [line.split(":", 1)[1] for line in lines if line and not line.startswith("#")]
    workers = [command.split(" -Q ", 1)[1].split()[0].split(",") for command in commands if " worker " in command]
    assert workers and all(queues[0] == "transactional" for queues in workers)
    assert any(app.conf.task_default_queue in queues for queues in workers)
    assert app.conf.broker_transport_options.get("queue_order_strategy", "priority") == "priority"
