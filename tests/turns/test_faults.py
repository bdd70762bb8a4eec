"""Faults, tested (issue 17), with real processes on CI's PostgreSQL and Redis (skipped elsewhere:
tests/turns/workers.py says why). Redis down is tests/turns/test_broker_down.py.

- A worker killed (SIGKILL) in the middle of a resolution: the phase's claim and every write are in
  one transaction (turns/services/phases.py), so the database rolls them back when the connection
  dies; the turn is claimable again, the next sweep sends it to a worker, and it resolves once,
  with the events, rolls, ledger rows and battles of one resolution. The killed task's message,
  acknowledged late and so delivered again, then finds nothing to claim.
- A mail server that refuses every connection for a while, then recovers: the outbox retries
  each email until it is accepted, each arrives once, and no resolution waits for it.
"""

from __future__ import annotations

import re
from collections import Counter
from email import message_from_bytes
from email.header import decode_header, make_header
from pathlib import Path

import psycopg
import pytest
from aiosmtpd.controller import Controller
from django.db import connection

from battles.models import Battle
from briternia.celery import app
from demo.campaign import demo_campaign_create
from kernel.dice import SeededDice
from kingdoms.models import TreasuryEntry
from orders.services.resolution import ANCIENT_DEAD_STREAM, DICE_STREAM, ancient_dead_dice, turn_state_load
from outbox.models import Email
from rulebook.turn.pipeline import resolve_orders
from tests.battle_setup import file_battle_orders
from tests.smtp import FlakySMTP, free_port
from tests.turns.workers import Worker, needs_postgres_and_broker, wait_until
from turns.models import DiceRoll, Turn, TurnEvent
from turns.tasks import deadline_sweep, orders_phase_task

pytestmark = [pytest.mark.celery_worker, needs_postgres_and_broker]


def _written(turn: Turn) -> dict[str, object]:
    """What a resolution writes for the turn, counted (and the rolls by stream and sequence)."""
    rolls = DiceRoll.objects.filter(campaign=turn.campaign, turn=turn.number)
    return {
        "events": TurnEvent.objects.filter(turn=turn).count(),
        "rolls": Counter(rolls.values_list("stream", flat=True)),
        "doubled rolls": rolls.count() - rolls.values("stream", "sequence").distinct().count(),
        "ledger": TreasuryEntry.objects.filter(kingdom__campaign=turn.campaign, turn=turn.number).count(),
        "battles": Battle.objects.filter(turn=turn).count(),
    }


def _session(sql: str, *args: object) -> psycopg.Connection:
    """A connection of the test's own, outside Django's, in a transaction (psycopg opens one): it
    holds a lock the worker will meet."""
    db = connection.settings_dict
    session = psycopg.connect(
        dbname=db["NAME"], user=db["USER"], password=db["PASSWORD"] or None, host=db["HOST"], port=db["PORT"] or 5432
    )
    try:
        session.execute(sql, args)
    except Exception:
        session.close()
        raise
    return session


def _worker_waiting_on_the_lock(database: str) -> str | None:
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT query FROM pg_stat_activity WHERE datname = %s AND pid <> pg_backend_pid()"
            " AND wait_event_type = 'Lock' AND query ILIKE 'INSERT INTO \"orders_turnreport\"%%'",
            [database],
        )
        row = cursor.fetchone()
    return row[0] if row else None


@pytest.fixture
def due_turn(transactional_db):
    """The demo's turn 1 with battles filed, its deadline passed: the sweep resolves it."""
    campaign = demo_campaign_create()
    turn = campaign.turns.get(number=1)
    file_battle_orders(campaign, turn)
    Turn.objects.filter(pk=turn.pk).update(orders_deadline=turn.orders_deadline.replace(year=2000))
    app.control.purge()  # this test's broker database: nothing queued by an earlier test
    return Turn.objects.get(pk=turn.pk)


def test_a_worker_killed_mid_resolution_leaves_the_turn_to_the_sweep_which_resolves_it_once(
    due_turn: Turn, tmp_path: Path
) -> None:
    turn = due_turn
    before = _written(turn)
    # What one resolution writes: the same dice (the turn's seed) in a dry run.
    dice, ancient = SeededDice(seed=turn.seed, stream=DICE_STREAM), ancient_dead_dice(turn)
    preview = resolve_orders(turn_state_load(turn), dice, ancient)
    assert preview.battles, "the demo's filed orders make battles"
    log = tmp_path / "workers.log"

    # The worker is stopped mid-way: the test holds the reports table, which the resolution
    # writes after its events, rolls, ledger rows and battles (orders_phase_run).
    lock = _session("LOCK TABLE orders_turnreport IN EXCLUSIVE MODE")
    first = Worker(log)
    try:
        deadline_sweep()  # beat's sweep: the turn is due, its task goes to the worker
        query = wait_until(
            lambda: _worker_waiting_on_the_lock(connection.settings_dict["NAME"]),
            seconds=120,
            what="the worker reaching the reports of the resolution",
            log=log,
        )
        assert "orders_turnreport" in str(query)
        # It holds the turn's claim (uncommitted): another claim would wait for it.
        with pytest.raises(psycopg.errors.LockNotAvailable):
            _session("SELECT 1 FROM orders_turn WHERE id = %s FOR UPDATE NOWAIT", turn.pk)
        first.kill()
    finally:
        lock.rollback()
        lock.close()
        first.stop()

    # The database rolled the dead worker's transaction back: nothing written, the turn claimable.
    turn.refresh_from_db()
    assert turn.status == Turn.Status.ORDERS_OPEN and turn.resolved_at is None
    assert _written(turn) == before

    second = Worker(log)
    try:
        deadline_sweep()  # the next minute's sweep finds the turn still due
        wait_until(
            lambda: Turn.objects.get(pk=turn.pk).status == Turn.Status.BATTLES,
            seconds=180,
            what="the sweep's resolution",
            log=log,
        )
        # The killed task's message comes back (acks_late): it finds the turn claimed, does nothing.
        orders_phase_task.delay(turn_id=turn.pk)
        wait_until(
            lambda: re.search(r"orders_phase_task\[[^\]]+\] succeeded in [\d.]+s: False", second.output()),
            seconds=60,
            what="the task delivered again, finding nothing to claim",
            log=log,
        )
    finally:
        second.stop()

    after = _written(turn)
    assert after["events"] == before["events"] + len(preview.events), (before, after)
    for stream, rolled in ((DICE_STREAM, dice), (ANCIENT_DEAD_STREAM, ancient)):
        expected = before["rolls"][stream] + (len(rolled.rolls) if rolled else 0)
        assert after["rolls"][stream] == expected, (stream, before, after)
    assert after["doubled rolls"] == 0
    ledger = sum(1 for e in preview.events if e.gold and e.kingdom is not None)
    assert after["ledger"] == before["ledger"] + ledger, (before, after)
    assert after["battles"] == before["battles"] + len(preview.battles), (before, after)


def test_a_mail_server_down_for_a_while_delays_no_resolution_and_every_email_arrives_once(
    due_turn: Turn, tmp_path: Path
) -> None:
    """SMTP refuses every connection (nothing listens on its port) while the sweep resolves the
    turn; the scenario sheets' emails fail and are retried (backoff scaled to seconds); the
    server comes back; every email is accepted once."""
    turn = due_turn
    port = free_port()
    already = set(Email.objects.values_list("pk", flat=True))  # the demo's invitations, sent at set-up
    log = tmp_path / "worker.log"
    worker = Worker(
        log,
        EMAIL_HOST="127.0.0.1",
        EMAIL_PORT=str(port),
        EMAIL_USE_TLS="0",
        EMAIL_TIMEOUT="5",
        EMAIL_BACKOFF_SCALE="0.2",  # retries after 6 s, 24 s, 2 min, 6 min
    )
    server = None
    try:
        deadline_sweep()
        # The resolution does not wait for the mail server.
        wait_until(
            lambda: Turn.objects.get(pk=turn.pk).status == Turn.Status.BATTLES,
            seconds=120,
            what="the resolution",
            log=log,
        )
        new = Email.objects.exclude(pk__in=already)
        wait_until(
            lambda: new.filter(attempts__gte=1, status=Email.Status.QUEUED).exists(),
            seconds=180,  # the scenario sheets are rendered (PDF) before their emails are sent
            what="an email refused by the server",
            log=log,
        )
        # The email that waits for its retry: another may be on its first try at this moment
        # ("sending", its attempt counted, no error yet).
        refused = new.filter(attempts__gte=1, status=Email.Status.QUEUED).first()
        assert refused is not None and "refused" in refused.last_error.lower(), refused.last_error
        assert not new.filter(status=Email.Status.SENT).exists()

        # The server comes back on its port.
        handler = FlakySMTP(0)
        server = Controller(handler, hostname="127.0.0.1", port=port)
        server.start()
        wait_until(
            lambda: new.exists() and not new.exclude(status=Email.Status.SENT).exists(),
            seconds=120,
            what="every email sent",
            log=log,
        )
    finally:
        worker.stop()
        if server is not None:
            server.stop()

    emails = list(Email.objects.exclude(pk__in=already))
    assert all(e.status == Email.Status.SENT for e in emails)
    assert any(e.attempts > 1 for e in emails), [e.attempts for e in emails]  # retried, not lucky
    # Each arrived exactly once: one message per email, addressed as the email says.
    received = Counter((tuple(sorted(env.rcpt_tos)), _subject(env.content)) for env in handler.received)
    expected = Counter((tuple(sorted(e.to)), e.subject) for e in emails)
    assert received == expected, (received, expected)
    assert max(received.values()) == 1
    assert Turn.objects.get(pk=turn.pk).resolved_at < min(e.sent_at for e in emails)


def _subject(content: bytes) -> str:
    return str(make_header(decode_header(message_from_bytes(content)["Subject"])))
