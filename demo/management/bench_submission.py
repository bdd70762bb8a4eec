"""`make bench`'s submission figure (issue 35): what one warm submission of a full order sheet
through the API costs the web process, in Python CPU (`time.process_time`) and in queries.

A generated campaign the size of `make loadtest`'s map (40 x 40 provinces, two armies per kingdom),
each kingdom with a player and an API token; one submission warms the process's kept world, then
each of `submissions` kingdoms PUTs its sheet (`submit: true`) through REST framework's test client
with its token, one after the other, each in its own transaction as a request runs. DEBUG is off
while measuring (as in production: no query log unless one is captured), and the CPU is measured
in a pass of its own, without capturing the queries; the second pass counts them (a token's lookup
included). The receipt's send task is handed to the configured broker (an in-memory one when none
is set, instead of running the worker's task in-process): the worker's work is not the request's.
While the CPU is measured the process hands its receipts to its publisher, as a web worker does
(outbox.services.EmailPublisher: one task for those committed within its gathering time), and the
publisher's thread is measured with it.
"""

from __future__ import annotations

import datetime as dt
import random
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from celery import current_app
from django.contrib.auth import get_user_model
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext, override_settings
from django.utils import timezone
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from kingdoms.models import Campaign
from kingdoms.services.world import world_kept_forget
from outbox.models import Email
from outbox.services import email_publisher
from turns.models import Turn

from .commands.bench import campaign_generate, kingdom_sheets_generate


@dataclass(frozen=True)
class SubmissionFigures:
    submissions: int  # measured, after the one that warmed the kept world
    cpu_ms: float  # Python CPU per submission, the mean of the CPU pass
    queries: int  # per submission, the most of the counting pass
    queries_least: int  # the fewest (they should all be the same)


@dataclass(frozen=True)
class _Filing:
    token: str
    body: dict[str, Any]


@contextmanager
def _tasks_to_broker() -> Iterator[None]:
    """The send tasks go to a broker instead of running in-process: kombu's in-memory transport
    when none is configured (the tasks are never run: the bench's campaign and its emails go)."""
    app = current_app  # the project's (briternia.celery), loaded when Django starts
    eager = app.conf.task_always_eager
    app.conf.task_always_eager = False
    try:
        yield
    finally:
        app.conf.task_always_eager = eager


def _campaign(kingdoms: int) -> tuple[Turn, list[_Filing]]:
    """The load test's map with `kingdoms` kingdoms, each with a player, a token and a full sheet."""
    rng = random.Random(35)
    with transaction.atomic():
        campaign = campaign_generate(
            kingdoms=kingdoms, columns=40, rows=40, armies_per_kingdom=2, seed=35, sheets=False
        )
        User = get_user_model()
        users = User.objects.bulk_create(
            User(username=f"bench-{campaign.pk}-{i}", email=f"bench-{i}@briternia.local") for i in range(kingdoms)
        )
        realms = list(campaign.kingdoms.order_by("id"))
        for kingdom, user in zip(realms, users, strict=True):
            kingdom.players.add(user)
        tokens = {
            t.user_id: t.key for t in Token.objects.bulk_create(Token(user=u, key=Token.generate_key()) for u in users)
        }
        turn = campaign.turns.get(number=1)
        Turn.objects.filter(pk=turn.pk).update(orders_deadline=timezone.now() + dt.timedelta(days=30))
    sheets = kingdom_sheets_generate(campaign=campaign, kingdoms=realms, rng=rng)
    filings = [
        _Filing(token=tokens[user.id], body={**sheet, "submit": True})
        for sheet, user in zip(sheets, users, strict=True)
    ]
    return turn, filings


def _submit(client: APIClient, url: str, filing: _Filing) -> None:
    response = client.put(url, filing.body, format="json", HTTP_AUTHORIZATION=f"Token {filing.token}")
    if response.status_code != 200:
        raise RuntimeError(f"The bench's submission was refused: {response.status_code} {response.content[:500]!r}")


def submission_bench(*, submissions: int = 50) -> SubmissionFigures:
    """Submit `submissions` full sheets twice over (CPU, then queries) after one that warms the
    kept world; the campaign is made for the bench and deleted afterwards."""
    turn, filings = _campaign(submissions + 1)
    url = f"/api/turns/{turn.pk}/sheet/"
    client = APIClient()
    try:
        with override_settings(DEBUG=False, ALLOWED_HOSTS=["testserver"]), _tasks_to_broker():
            world_kept_forget()
            _submit(client, url, filings[0])  # the kept world is read once per process
            measured = filings[1:]
            email_publisher.start()  # as in a web worker: the receipts' tasks go in few messages
            started = time.process_time()  # this process's CPU, its publisher's thread included
            for filing in measured:
                _submit(client, url, filing)
            email_publisher.stop()  # what it still holds published, and counted
            cpu = time.process_time() - started
            counts = []
            for filing in measured:  # the same sheets again: a second submission stands
                with CaptureQueriesContext(connection) as queries:
                    _submit(client, url, filing)
                counts.append(len(queries.captured_queries))
    finally:
        Email.objects.filter(campaign_id=turn.campaign_id).delete()
        Campaign.objects.filter(pk=turn.campaign_id).delete()
        get_user_model().objects.filter(username__startswith=f"bench-{turn.campaign_id}-").delete()
    return SubmissionFigures(
        submissions=len(measured), cpu_ms=cpu * 1000 / len(measured), queries=max(counts), queries_least=min(counts)
    )
