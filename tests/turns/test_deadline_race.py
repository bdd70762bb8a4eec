"""The deadline a player can trust (issue 20), on PostgreSQL with real concurrency: sheets sent through
the API by four players in threads from just before to just after the deadline, while the deadline
sweep runs in another thread. Every sheet that arrived by the deadline is taken in, the last of
them is the one that resolves; every one after is refused, stating the true times. The orders
phase's claim waits for sheets already in flight (they share a lock on the turn row).

SQLite runs one writer at a time and has no row locks: these run in CI's PostgreSQL pass."""

from __future__ import annotations

import datetime as dt
import re
import threading
import time
from zoneinfo import ZoneInfo

import pytest
from django.db import connection, transaction
from django.utils import timezone

from demo.campaign import demo_campaign_create
from kingdoms.models import Army, Kingdom, Province
from orders.models import OrderSubmission
from orders.services.sheets import order_sheet_save
from rulebook.turn.write_orders.records import ArmyOrder, OrderKind, SheetEntries
from tests.clients import api_as, user_named
from turns.models import Turn
from turns.services.cycle import orders_phase_run
from turns.services.sweep import deadline_sweep_run

pytestmark = pytest.mark.skipif(
    connection.vendor != "postgresql", reason="row locks and concurrent writers: CI's PostgreSQL pass runs this"
)

PLAYERS = {"Ostland": "alice", "Da Red Fang": "bob", "Karak Dumn": "carol", "Tor Anlec": "dave"}
# When each version is sent, in seconds from the deadline (each kingdom a little apart from the next).
OFFSETS = (-0.9, -0.6, -0.35, -0.2, -0.1, -0.03, 0.04, 0.15, 0.4)


def _targets(army: Army) -> list[int | None]:
    """The versions a kingdom cycles through: hold, then moves into its own or neutral neighbours,
    so two versions in a row never resolve alike. Never into ruins: with no Tomb Raid sent there the
    army waits outside (Ruins), so that move would resolve as a hold (Tor Anlec's province 1)."""
    own = (
        army.province.neighbours.exclude(terrain="desert")
        .exclude(settlement=Province.Settlement.RUINS)
        .filter(controller__in=[None, army.kingdom_id])
    )
    return [None, *sorted(own.values_list("number", flat=True))[:2]]


def _order(army: Army, target: int | None) -> dict:
    return {"army": army.id, "kind": "hold"} if target is None else {"army": army.id, "kind": "move", "target": target}


@pytest.fixture
def race(transactional_db, settings):
    settings.ORDERS_DEADLINE_GRACE_SECONDS = 0.5  # 5 s by default; the race is kept short
    campaign = demo_campaign_create()
    turn = campaign.turns.get(number=1)
    deadline = (timezone.now() + dt.timedelta(seconds=2.5)).replace(microsecond=0)
    Turn.objects.filter(pk=turn.pk).update(orders_deadline=deadline)
    turn.refresh_from_db()
    return campaign, turn


def test_every_sheet_that_arrived_by_the_deadline_counts_and_every_later_one_is_refused_with_the_true_times(race):
    campaign, turn = race
    deadline = turn.orders_deadline
    zone = ZoneInfo(campaign.time_zone)
    armies = {name: Army.objects.get(kingdom__campaign=campaign, kingdom__name=name, kind="field") for name in PLAYERS}
    targets = {name: _targets(army) for name, army in armies.items()}
    sent: dict[str, list[dict]] = {name: [] for name in PLAYERS}
    sweeps: list[dict] = []

    def player(index: int, name: str) -> None:
        client = api_as(PLAYERS[name])
        try:
            for version, offset in enumerate(OFFSETS):
                at = deadline.timestamp() + offset + 0.011 * index
                time.sleep(max(0.0, at - time.time()))
                target = targets[name][version % len(targets[name])]
                body = {"submit": True, "orders": [_order(armies[name], target)]}
                before = timezone.now()
                response = client.put(f"/api/turns/{turn.pk}/sheet/", body, format="json")
                after = timezone.now()
                sent[name].append(
                    {
                        "target": target,
                        "before": before,
                        "after": after,
                        "status": response.status_code,
                        "body": response.json(),
                    }
                )
        finally:
            connection.close()

    def sweeper() -> None:
        try:
            time.sleep(max(0.0, deadline.timestamp() - time.time()))
            stop = time.time() + 10
            while time.time() < stop and Turn.objects.get(pk=turn.pk).status == Turn.Status.ORDERS_OPEN:
                sweeps.append(
                    deadline_sweep_run(
                        orders_phase=lambda turn_id: orders_phase_run(turn_id=turn_id),
                        aftermath_phase=lambda turn_id: None,
                    )
                )
                time.sleep(0.05)
        finally:
            connection.close()

    threads = [threading.Thread(target=player, args=(i, name)) for i, name in enumerate(PLAYERS)]
    threads.append(threading.Thread(target=sweeper))
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    assert not any(thread.is_alive() for thread in threads)

    turn.refresh_from_db()
    assert turn.status == Turn.Status.BATTLES, turn.resolution_error
    assert sum(report["resolutions"] for report in sweeps) == 1
    assert all(report["failed"] == [] for report in sweeps)
    in_time = late = 0
    for name, requests in sent.items():
        kingdom = Kingdom.objects.get(campaign=campaign, name=name)
        submissions = list(OrderSubmission.objects.filter(sheet__kingdom=kingdom).order_by("submitted_at", "id"))
        accepted = [r for r in requests if r["status"] == 200]
        assert len(submissions) == len(accepted), name
        for request, submission in zip(accepted, submissions, strict=True):
            # The one time recorded is the arrival: between the send and the answer, by the deadline.
            assert request["before"] <= submission.submitted_at <= min(request["after"], deadline), name
        for request in requests:
            if request["after"] <= deadline:
                assert request["status"] == 200, (name, request["body"])  # surely arrived in time: taken in
                in_time += 1
            if request["before"] > deadline:
                assert request["status"] == 400, (name, request)  # surely arrived late: refused
                late += 1
            if request["status"] == 400:
                assert request["body"]["type"] == "validation_error"
                (error,) = [e["detail"] for e in request["body"]["errors"]]
                stated = re.fullmatch(
                    r"This sheet arrived at (\d\d:\d\d:\d\d(?:\.\d{3})?), after the deadline of (\d\d:\d\d:\d\d) "
                    r"\(\w+day \d+ \w+ \d{4}, Europe/London\): the orders of turn 1 are closed to it\.",
                    error,
                )
                assert stated, error
                assert stated[2] == f"{deadline.astimezone(zone):%H:%M:%S}"
                # The arrival stated is the true one: within the request's own span, after the deadline.
                fmt = "%H:%M:%S.%f" if "." in stated[1] else "%H:%M:%S"
                arrived = dt.datetime.strptime(stated[1], fmt).time()
                lo, hi = (request["before"].astimezone(zone), request["after"].astimezone(zone))
                precision = dt.timedelta(milliseconds=1) if "." in stated[1] else dt.timedelta(seconds=1)
                assert (lo - precision).time() <= arrived <= hi.time(), (error, lo, hi)
        # The version that resolved is the last one taken in: where the army stands (hold: home).
        last = accepted[-1]
        army = Army.objects.select_related("province").get(pk=armies[name].pk)
        expected = last["target"] if last["target"] is not None else armies[name].province.number
        assert army.province.number == expected, (name, [(r["target"], r["status"]) for r in requests])
    assert in_time >= 4 and late >= 4, (in_time, late)  # the race had sheets on both sides of the deadline


def test_the_orders_phase_waits_for_a_sheet_in_flight_and_resolves_it(transactional_db, settings):
    """A sheet that arrived in time is still being saved (its transaction is open) when the sweep
    claims the turn: the claim waits for it, and the resolution reads it."""
    campaign = demo_campaign_create()
    turn = campaign.turns.get(number=1)
    ostland = Kingdom.objects.get(campaign=campaign, name="Ostland")
    army = ostland.armies.get(kind="field")
    target = _targets(army)[1]
    saved, release = threading.Event(), threading.Event()
    resolved: list[bool] = []

    def sheet_in_flight() -> None:
        try:
            with transaction.atomic():
                order_sheet_save(
                    kingdom=ostland,
                    turn=turn,
                    entries=SheetEntries(orders=(ArmyOrder(army.id, OrderKind.MOVE, target=target),)),
                    submitted_by=user_named("alice"),
                    submit=True,
                    arrived_at=turn.orders_deadline - dt.timedelta(milliseconds=1),
                )
                saved.set()
                release.wait(10)  # still in flight: checked and written, not yet committed
        finally:
            connection.close()

    def phase() -> None:
        try:
            resolved.append(orders_phase_run(turn_id=turn.pk).resolved)
        finally:
            connection.close()

    sheet = threading.Thread(target=sheet_in_flight)
    sheet.start()
    assert saved.wait(10)
    claim = threading.Thread(target=phase)
    claim.start()
    claim.join(0.5)
    assert claim.is_alive()  # the claim waits for the sheet in flight
    release.set()
    sheet.join(10)
    claim.join(20)
    assert resolved == [True]
    army.refresh_from_db()
    assert army.province.number == target  # the sheet that was in flight is the one that resolved
