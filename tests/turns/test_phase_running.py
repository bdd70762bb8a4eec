"""No request waits on a running phase (issue 34), on PostgreSQL with real threads: a phase of the
turn is held open in one thread (claimed, its transaction holding the turn's row) while requests
come in from another, as the organizer and the players send them. Each is answered while the phase
still runs, in under a second, that it runs and since when, and changes nothing.

The phase is held by a hook that runs in its transaction once it has claimed the turn (the same
place transfer's snapshot runs: turns/services/phases.py), so the phase is the real one.

SQLite runs one writer at a time and has neither row locks nor advisory locks: CI's PostgreSQL pass
runs these."""

from __future__ import annotations

import datetime as dt
import html
import re
import threading
import time
from collections.abc import Iterator
from email import message_from_bytes, policy
from zoneinfo import ZoneInfo

import pytest
from django.contrib.messages import get_messages
from django.db import connection
from django.utils import timezone

from demo.campaign import demo_campaign_create
from kernel.event_codes import EventCode
from kingdoms.models import Army
from kingdoms.services.co_players import co_player_add
from orders.models import OrderSheet, OrderSubmission
from tests.clients import api_as, pages_as
from turns.models import Turn, TurnEvent
from turns.services import phases
from turns.services.cycle import aftermath_phase_run, orders_phase_run

pytestmark = pytest.mark.skipif(
    connection.vendor != "postgresql", reason="row and advisory locks: CI's PostgreSQL pass runs this"
)


class HeldPhase:
    """A phase of `turn_id` running in a thread of its own, held open after its claim until released."""

    def __init__(self, run, turn_id: int) -> None:  # type: ignore[no-untyped-def]
        self.claimed, self.release = threading.Event(), threading.Event()
        self.started_at: dt.datetime | None = None
        self.errors: list[BaseException] = []

        def hold(turn: Turn, phase: phases.Phase) -> None:
            if turn.pk == turn_id:
                self.started_at = timezone.now()
                self.claimed.set()
                self.release.wait(30)

        def phase_thread() -> None:
            try:
                run(turn_id=turn_id)
            except Exception as exc:  # the aftermath refuses once released: its blockers
                self.errors.append(exc)
            finally:
                connection.close()

        self.hook = hold
        self.thread = threading.Thread(target=phase_thread)

    def __enter__(self) -> HeldPhase:
        phases.before_phase_register(self.hook)
        self.thread.start()
        assert self.claimed.wait(20), "the phase never claimed the turn"
        return self

    def __exit__(self, *exc: object) -> None:
        self.release.set()
        self.thread.join(30)
        phases._BEFORE_PHASE.remove(self.hook)
        assert not self.thread.is_alive()

    @property
    def running(self) -> bool:
        return self.thread.is_alive() and not self.release.is_set()


def _timed(send) -> tuple[object, float]:  # type: ignore[no-untyped-def]
    begin = time.monotonic()
    try:
        return send(), time.monotonic() - begin
    finally:
        connection.close()  # each request thread's own connection


def _in_thread(send) -> tuple[object, float]:  # type: ignore[no-untyped-def]
    """`send()` in a thread of its own (its own connection, as a request of the web process)."""
    out: list[tuple[object, float]] = []
    thread = threading.Thread(target=lambda: out.append(_timed(send)))
    thread.start()
    thread.join(20)
    assert not thread.is_alive(), "the request waited on the phase"
    return out[0]


@pytest.fixture
def campaign(transactional_db) -> Iterator:
    yield demo_campaign_create()


def _details(response) -> list[str]:  # type: ignore[no-untyped-def]
    return [e["detail"] for e in response.json()["errors"]]


def test_a_second_resolve_while_the_orders_phase_runs_is_answered_at_once_that_it_runs_and_since_when(campaign):
    turn = campaign.turns.get(number=1)
    with HeldPhase(orders_phase_run, turn.pk) as phase:
        api, seconds = _in_thread(lambda: api_as("organizer").post(f"/api/turns/{turn.pk}/resolve/"))
        assert phase.running  # answered while the phase still holds the turn
        page, page_seconds = _in_thread(lambda: pages_as("organizer").post(f"/turns/{turn.pk}/resolve/"))
        assert phase.running
    assert seconds < 1 and page_seconds < 1, (seconds, page_seconds)
    assert api.status_code == 400
    (detail,) = _details(api)
    assert detail.startswith("Turn 1 is being resolved: it has been running since ")
    local = phase.started_at.astimezone(ZoneInfo(campaign.time_zone))
    assert f"{local:%H:%M}" in detail  # when the phase began, in the campaign's time zone
    # The organizer's page: back on the turn's page, with the same words.
    assert page.status_code == 302
    assert [str(m) for m in get_messages(page.wsgi_request)] == [detail]
    # Nothing was recorded by the refused clicks; the phase ran to its end.
    turn.refresh_from_db()
    assert turn.status == Turn.Status.BATTLES and turn.orders_requested_at is None
    assert phase.errors == []


def _sent(username: str, army: Army, turn: Turn, kind: str, *, submit: bool = True) -> tuple[object, float]:
    """The player's sheet giving `army` the order `kind`, submitted (or saved as a draft) through the
    API in another thread: its answer and how long it took."""
    return _in_thread(
        lambda: api_as(username).put(
            f"/api/turns/{turn.pk}/sheet/",
            {"submit": submit, "orders": [{"army": army.id, "kind": kind}]},
            format="json",
        )
    )


def test_a_sheet_sent_in_time_while_the_orders_phase_runs_is_kept_for_the_record_at_once(campaign, smtp):
    """Campaign Schedule: orders are due by the deadline (rules decisions 180 and 520). The organizer
    resolves before the deadline; sheets sent while that runs are answered at once: one in time is
    accepted for the record (202: its arrival to the millisecond, since when the turn was being
    resolved, which submission the resolution uses), kept, and never resolved; a draft is refused;
    one after the deadline is refused with the two times. The resolution runs on what was
    submitted before it began."""
    server = smtp(0)  # the receipts go out through a real SMTP server
    turn = campaign.turns.get(number=1)
    ostland, red_fang = (campaign.kingdoms.get(name=name) for name in ("Ostland", "Da Red Fang"))
    armies = {k.name: Army.objects.get(kingdom=k, kind="field") for k in (ostland, red_fang)}
    # Ostland submitted before the resolution began: that is what it resolves.
    first = api_as("alice").put(
        f"/api/turns/{turn.pk}/sheet/", {"submit": True, "orders": [{"army": armies["Ostland"].id, "kind": "hold"}]}
    )
    assert first.status_code == 200
    # The organizer resolves a few seconds before the deadline (the turn's row is the phase's from then).
    deadline = timezone.now() + dt.timedelta(seconds=4)
    Turn.objects.filter(pk=turn.pk).update(orders_deadline=deadline)
    with HeldPhase(orders_phase_run, turn.pk) as phase:
        in_time, seconds = _sent("alice", armies["Ostland"], turn, "fortify")
        assert phase.running  # answered while the phase still holds the turn
        none_yet, none_seconds = _sent("bob", armies["Da Red Fang"], turn, "fortify")
        assert phase.running
        # The order page: on to the receipt, with the same words.
        page, page_seconds = _in_thread(
            lambda: pages_as("bob").post(
                f"/turns/{turn.pk}/orders/{red_fang.pk}/",
                {f"army-{armies['Da Red Fang'].pk}-kind": "hold", "action": "submit"},
            )
        )
        assert phase.running
        draft, draft_seconds = _sent("alice", armies["Ostland"], turn, "hold", submit=False)
        assert phase.running
        # The deadline passes while the phase runs: a sheet after it is refused as late, at once.
        time.sleep(max(0.0, (deadline - timezone.now()).total_seconds() + 0.1))
        late, late_seconds = _sent("bob", armies["Da Red Fang"], turn, "hold")
        assert phase.running
    times = (seconds, none_seconds, page_seconds, draft_seconds, late_seconds)
    assert max(times) < 1, times
    assert phase.errors == []

    assert in_time.status_code == 202, in_time.content
    body = in_time.json()
    message = body["record"]["message"]
    local = phase.started_at.astimezone(ZoneInfo(campaign.time_zone))
    assert re.match(r"Accepted for the record at \w+ \d+ \w+ \d{4}, \d\d:\d\d:\d\d\.\d{3} \(", message), message
    assert "this sheet arrived before the deadline" in message
    assert f"but turn 1 was already being resolved (since {local:%A} {local.day}" in message
    assert "kept for the record and not resolved" in message
    assert "The resolution uses your kingdom's submission that arrived at " in message and "from alice" in message
    assert body["record"]["entries"]["orders"][0]["kind"] == "fortify"
    assert body["submitted"]["entries"]["orders"][0]["kind"] == "hold"  # what the resolution uses
    assert body["kept_for_record"][0]["message"] == message
    assert none_yet.status_code == 202
    assert (
        "The resolution has no submission from your kingdom, whose orders count as missing."
        in (none_yet.json()["record"]["message"])
    )
    assert page.status_code == 302 and page["Location"] == f"/turns/{turn.pk}/orders/{red_fang.pk}/receipt/"
    (flash,) = [str(m) for m in get_messages(page.wsgi_request)]
    assert flash.startswith("Accepted for the record at ") and "count as missing" in flash
    assert draft.status_code == 400
    (detail,) = _details(draft)
    assert "have been resolving since " in detail and "it was not saved" in detail
    (detail,) = _details(late)
    assert detail.startswith("This sheet arrived at ") and "after the deadline of" in detail

    # Kept: Ostland's sent in time, Da Red Fang's two; none resolved, none standing, none orders in.
    kept = OrderSubmission.objects.filter(sheet__turn=turn, for_record=True)
    assert sorted(s.sheet.kingdom.name for s in kept) == ["Da Red Fang", "Da Red Fang", "Ostland"]
    assert all(s.submitted_at <= deadline for s in kept)
    assert OrderSubmission.objects.filter(sheet__turn=turn, for_record=False).count() == 1  # Ostland's first
    assert OrderSheet.objects.get(turn=turn, kingdom=red_fang).status == OrderSheet.Status.DRAFT
    turn.refresh_from_db()
    assert turn.status == Turn.Status.BATTLES
    ostland_codes = set(TurnEvent.objects.filter(turn=turn, army=armies["Ostland"]).values_list("code", flat=True))
    assert EventCode.FORTIFIED not in ostland_codes  # the Hold submitted before, not the Fortify kept
    assert TurnEvent.objects.filter(turn=turn, kingdom=red_fang, code=EventCode.MISSED_ORDERS).exists()
    # The receipt email of each, as the mail server received it: kept for the record, not resolved.
    received = [message_from_bytes(e.content, policy=policy.default) for e in server.received]
    kept_mail = [m for m in received if "kept for the record (not resolved)" in str(m["subject"])]
    assert len(kept_mail) == 3, [str(m["subject"]) for m in received]
    texts = [" ".join(m.get_body(preferencelist=("plain",)).get_content().split()) for m in kept_mail]
    for submission in kept:
        assert sum(" ".join(submission.receipt["record"].split()) in text for text in texts) == 1
    assert all("they do not resolve" in text and "the last submission stands" not in text for text in texts)
    # The receipt page, after the resolution: what stood and resolved, and what was kept beside it.
    receipt = html.unescape(pages_as("alice").get(f"/turns/{turn.pk}/orders/{ostland.pk}/receipt/").content.decode())
    assert "Kept for the record, not resolved" in receipt and message in receipt
    assert pages_as("alice").get(f"/turns/{turn.pk}/orders/{red_fang.pk}/receipt/").status_code == 404


def test_run_the_aftermath_while_it_runs_is_answered_at_once(campaign):
    turn = campaign.turns.get(number=1)
    assert orders_phase_run(turn_id=turn.pk).resolved
    with HeldPhase(aftermath_phase_run, turn.pk) as phase:
        api, seconds = _in_thread(lambda: api_as("organizer").post(f"/api/turns/{turn.pk}/aftermath/"))
        assert phase.running
    assert seconds < 1, seconds
    assert api.status_code == 400
    (detail,) = _details(api)
    assert detail.startswith("The aftermath of turn 1 is being resolved: it has been running since ")
    turn.refresh_from_db()
    assert turn.aftermath_requested_at is None


def test_a_sheet_that_meets_a_lock_held_by_something_else_is_answered_within_the_bound(campaign):
    """The web process's connections wait at most REQUEST_LOCK_TIMEOUT_MS for a lock (briternia/
    settings.py sets it there; the request thread here sets the same on its connection): a sheet
    behind another holder of the turn's row (the sweep holding a turn for the organizer) is told to
    send it again, in about a second, rather than left waiting."""
    turn = campaign.turns.get(number=1)
    army = Army.objects.get(kingdom__campaign=campaign, kingdom__name="Ostland", kind="field")
    held, release = threading.Event(), threading.Event()

    def holder() -> None:
        from django.db import transaction

        try:
            with transaction.atomic():
                Turn.objects.select_for_update().get(pk=turn.pk)
                held.set()
                release.wait(20)
        finally:
            connection.close()

    def send():  # type: ignore[no-untyped-def]
        with connection.cursor() as cursor:
            cursor.execute("SET lock_timeout = '1000ms'")
        body = {"submit": True, "orders": [{"army": army.id, "kind": "hold"}]}
        return api_as("alice").put(f"/api/turns/{turn.pk}/sheet/", body, format="json")

    thread = threading.Thread(target=holder)
    thread.start()
    try:
        assert held.wait(10)
        response, seconds = _in_thread(send)
    finally:
        release.set()
        thread.join(10)
    assert seconds < 3, seconds
    assert response.status_code == 400
    (detail,) = _details(response)
    assert detail.startswith("This sheet could not be saved just now") and "send it again" in detail
    assert not OrderSubmission.objects.filter(sheet__turn=turn).exists()


SHOW_LOCK_TIMEOUT = """
import os, sys
if sys.argv[1] == "web":
    import briternia.wsgi  # the web process, as gunicorn loads it
else:
    import django
    django.setup()  # a Celery worker or a command
from django.db import connection
with connection.cursor() as cursor:
    cursor.execute("SHOW lock_timeout")
    print(cursor.fetchone()[0])
"""


@pytest.mark.parametrize(("process", "expected"), [("web", "1s"), ("worker", "0")])
def test_the_web_process_connections_wait_at_most_a_second_for_a_lock(process: str, expected: str) -> None:
    """The bound every request has (REQUEST_LOCK_TIMEOUT_MS, briternia/settings.py), on a real
    connection of each kind of process: the workers' phases wait as long as their claims need."""
    import os
    import subprocess
    import sys
    from pathlib import Path

    env = {k: v for k, v in os.environ.items() if k not in {"DJANGO_SETTINGS_MODULE", "BRITERNIA_WEB_PROCESS"}}
    # Any database of the server will do: the maintenance one always exists.
    server = connection.settings_dict
    url = f"postgres://{server['USER']}:{server['PASSWORD']}@{server['HOST']}:{server['PORT'] or 5432}/postgres"
    env.update(DJANGO_SETTINGS_MODULE="briternia.settings", DJANGO_DEBUG="1", DATABASE_URL=url)
    result = subprocess.run(
        [sys.executable, "-c", SHOW_LOCK_TIMEOUT, process],
        cwd=Path(__file__).resolve().parents[2],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip().splitlines()[-1] == expected


def test_marking_a_player_out_while_the_orders_phase_runs_is_answered_at_once_and_changes_nothing(campaign):
    """Rogue Kingdom (decision 150: a kingdom changes hands only while its turn is open for orders, so
    the orders phase finds it as it will stay for the turn): the organizer marks Tor Anlec's player
    out while the orders phase runs. Answered at once that the turn is being resolved; the kingdom,
    its player and its armies are as they were, and the phase resolves with them."""
    turn = campaign.turns.get(number=1)
    tor = campaign.kingdoms.get(name="Tor Anlec")
    with HeldPhase(orders_phase_run, turn.pk) as phase:
        page, seconds = _in_thread(
            lambda: pages_as("organizer").post(f"/kingdoms/{tor.pk}/leader/", {"action": "rogue", "why": "gone"})
        )
        assert phase.running
    assert seconds < 1, seconds
    assert page.status_code == 400
    assert "Turn 1 is being resolved" in html.unescape(page.content.decode())
    tor.refresh_from_db()
    assert tor.rogue_turn is None and tor.players.filter(username="dave").exists()
    assert Army.objects.filter(kingdom=tor, status=Army.Status.ACTIVE).exists()
    assert not TurnEvent.objects.filter(turn=turn, code=EventCode.ROGUE_KINGDOM).exists()
    turn.refresh_from_db()
    assert turn.status == Turn.Status.BATTLES and phase.errors == []


def test_independence_declared_while_the_orders_phase_runs_is_answered_at_once_and_changes_nothing(campaign):
    """Joint kingdoms (decision 225: independence is declared while a turn is open for orders): the
    organizer enters a co-player's independence while the orders phase runs. Answered at once that
    the turn is being resolved; no kingdom is made, no province changes hands."""
    turn = campaign.turns.get(number=1)
    ostland = campaign.kingdoms.get(name="Ostland")
    erin = co_player_add(kingdom=ostland, email="erin@example.com")
    province = ostland.provinces.exclude(pk=ostland.capitol_id).filter(armies__isnull=True).order_by("number")[0]
    with HeldPhase(orders_phase_run, turn.pk) as phase:
        page, seconds = _in_thread(
            lambda: pages_as("organizer").post(
                f"/kingdoms/{ostland.pk}/independence/",
                {"co_player": str(erin.pk), "name": "Eldenmark", "provinces": [str(province.number)]},
            )
        )
        assert phase.running
    assert seconds < 1, seconds
    assert page.status_code == 400
    assert "Turn 1 is being resolved" in html.unescape(page.content.decode())
    assert not campaign.kingdoms.filter(name="Eldenmark").exists()
    province.refresh_from_db()
    assert province.controller_id == ostland.pk and ostland.players.filter(pk=erin.pk).exists()
    turn.refresh_from_db()
    assert turn.status == Turn.Status.BATTLES and phase.errors == []


def test_moving_the_deadlines_while_the_orders_phase_runs_is_answered_at_once_and_changes_nothing(campaign):
    """Campaign Schedule: the organizer moves the results deadline while the turn's orders are being
    resolved. The page answers at once that the turn is being resolved (it no longer waits on the
    turn's row, which the web process's lock timeout ended in an error); nothing is recorded."""
    turn = campaign.turns.get(number=1)
    zone = ZoneInfo(campaign.time_zone)
    later = turn.results_deadline + dt.timedelta(days=1)
    with HeldPhase(orders_phase_run, turn.pk) as phase:
        page, seconds = _in_thread(
            lambda: pages_as("organizer").post(
                f"/turns/{turn.pk}/deadlines/",
                {
                    "orders_deadline": turn.orders_deadline.astimezone(zone).strftime("%Y-%m-%dT%H:%M"),
                    "results_deadline": later.astimezone(zone).strftime("%Y-%m-%dT%H:%M"),
                },
            )
        )
        assert phase.running
    assert seconds < 1, seconds
    assert page.status_code == 302
    told = [str(m) for m in get_messages(page.wsgi_request)]
    assert len(told) == 1 and told[0].startswith("Turn 1 is being resolved (since "), told
    turn.refresh_from_db()
    assert turn.results_deadline == later - dt.timedelta(days=1) and not turn.deadline_changes.exists()
    assert turn.status == Turn.Status.BATTLES and phase.errors == []
