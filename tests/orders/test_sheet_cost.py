"""What one submission costs the server under the weekly rush (issue 17, docs/performance.md "Order
sheets under load"): a fixed number of queries whatever the campaign's size, no read of the map
once the campaign's world is kept, a receipt that says the same as one written from the database,
and (PostgreSQL) sheets of different kingdoms that never wait for each other while the orders
phase's claim waits for them all."""

from __future__ import annotations

import threading
import time

import pytest
from django.db import OperationalError, connection, transaction
from django.test.utils import CaptureQueriesContext

from demo.campaign import demo_campaign_create
from kingdoms.models import Army, Kingdom, MissionEffect, Province, Unit
from kingdoms.services.world import world_changed
from orders.models import OrderSubmission
from orders.services.describe import describe_entries
from orders.services.sheets import order_sheet_context_load, order_sheet_save
from rulebook.turn.write_orders.records import SheetEntries
from tests.clients import user_named
from turns.models import Turn

# One full submission through the API once the campaign's world is kept (issue 35), each statement
# and why it is needed:
#  1. the turn with its campaign and the user's kingdom there (orders.selectors.order_sheet_turn_get):
#     whether the user may see the turn (404 if not) and whose sheet it is; a late sheet is refused
#     by it before anything waits;
#  2. the sheet's transaction begins (here a savepoint: the test runs in a transaction; a request's
#     BEGIN);
#  3. the turn and its campaign again, under the turn's share lock (taken without waiting, so a
#     running orders phase is found at once; SQLite: its write lock, an update returning the rows),
#     with the kingdom's own rows in the same statement: its armies, their units, characters and
#     magic items, its gold and its deliveries on the way (orders.services.sheet_statements): the
#     deadline and the turn's status as they stand once no claim can start, the campaign's
#     world_version (whether the kept world stands) and what the kingdom changes itself during the week;
#  4. the sheet's row made or updated and locked (an upsert returning it, and whether any of its
#     submissions was kept for the record);
#  5. the submission, with its receipt;
#  6. its receipt email's one row (the worker renders it);
#  7. the transaction's end (a request's COMMIT; here the savepoint's release).
# The same on both databases. A token's lookup adds one (the test client authenticates without):
# 8 for a script's request, issue 35's target. PostgreSQL asks whether the orders phase runs
# (briternia/locks.py, issue 34) only when the turn's row is held. It was 17 on both (2026-12-06),
# 23 and 24 before issue 35's first pass, 37 before issue 17's second pass. A change that adds a
# query to every submission should be a decision, not an accident.
MAX_QUERIES_PER_SUBMISSION = 7


def _orders_for(kingdom: Kingdom) -> list[dict]:
    """Every field army of the kingdom moves into a neighbouring province it may enter."""
    orders = []
    for army in kingdom.armies.filter(kind="field", status="active").select_related("province"):
        target = army.province.neighbours.exclude(terrain="desert").order_by("number").first()
        orders.append({"army": army.id, "kind": "move", "target": target.number})
    return orders


def _submit(api_client_for, name: str, kingdom: Kingdom, turn: Turn):  # type: ignore[no-untyped-def]
    """Submit the kingdom's moves: the SQL of the request alone."""
    client, body = api_client_for(user_named(name)), {"orders": _orders_for(kingdom), "submit": True}
    with CaptureQueriesContext(connection) as queries:
        response = client.put(f"/api/turns/{turn.pk}/sheet/", body, format="json")
    assert response.status_code == 200, response.json()
    return [q["sql"] for q in queries.captured_queries]


def _more_armies(kingdom: Kingdom, count: int) -> None:
    """`count` more armies of `kingdom`, each with a list, on its own provinces (more campaign to load)."""
    provinces = list(Province.objects.filter(controller=kingdom).order_by("number"))
    armies = Army.objects.bulk_create(
        Army(kingdom=kingdom, name=f"Levy {i}", province=provinces[i % len(provinces)], size=1000) for i in range(count)
    )
    Unit.objects.bulk_create(
        Unit(army=a, name="Spearmen", category="core", models_count=100, points_per_model=10) for a in armies
    )


def test_a_submission_reads_no_map_and_takes_a_fixed_number_of_queries(demo_campaign, api_client_for):
    """The weekly rush: once one sheet of the campaign has been checked, the next kingdom's full
    submission reads no province and no adjacency (the map is kept), and its queries stay within
    MAX_QUERIES_PER_SUBMISSION however many armies the other kingdoms have."""
    turn = demo_campaign.turns.get(number=1)
    kingdoms = {k.name: k for k in demo_campaign.kingdoms.all()}
    _submit(api_client_for, "alice", kingdoms["Ostland"], turn)  # the first sheet reads the world
    sql = _submit(api_client_for, "bob", kingdoms["Da Red Fang"], turn)

    assert not [s for s in sql if 'FROM "kingdoms_province"' in s]
    assert not [s for s in sql if "kingdoms_province_neighbours" in s]
    assert len(sql) <= MAX_QUERIES_PER_SUBMISSION, "\n".join(sql)

    _more_armies(kingdoms["Tor Anlec"], 60)  # the campaign grows: the next check reads it once
    _submit(api_client_for, "alice", kingdoms["Ostland"], turn)
    assert len(_submit(api_client_for, "carol", kingdoms["Karak Dumn"], turn)) == len(sql)


@pytest.mark.skipif(connection.vendor != "postgresql", reason="prepared statements: CI's PostgreSQL pass")
def test_a_submissions_hand_written_statements_are_planned_once_per_connection(demo_campaign, api_client_for):
    """Issue 35: PostgreSQL keeps the submission's hot statements prepared on the connection
    (briternia/prepared.py): the turn under its share lock with the kingdom's rows, the sheet's
    upsert, the turn with the player's kingdom; a second submission runs the same prepared
    statements, preparing none."""

    def prepared() -> dict[str, int]:
        with connection.cursor() as cursor:
            cursor.execute("SELECT statement, generic_plans + custom_plans FROM pg_prepared_statements")
            return dict(cursor.fetchall())

    turn = demo_campaign.turns.get(number=1)
    kingdoms = {k.name: k for k in demo_campaign.kingdoms.all()}
    _submit(api_client_for, "alice", kingdoms["Ostland"], turn)
    first = prepared()
    assert [s for s in first if "FOR SHARE OF t" in s and "kingdoms_army" in s]
    assert [s for s in first if s.startswith('INSERT INTO "orders_ordersheet"')]
    assert [s for s in first if "LEFT OUTER JOIN" in s and 'FROM "orders_turn" t' in s]

    _submit(api_client_for, "bob", kingdoms["Da Red Fang"], turn)
    second = prepared()
    assert set(second) == set(first)  # the same statements, run again
    assert all(second[s] == first[s] + 1 for s in first)


def test_a_submissions_answer_is_what_the_sheet_reads_from_the_database(demo_campaign, api_client_for):
    """Issue 35: the answer to a submission takes the standing submission from what it has just
    written and the kingdom's usable effects from the world it was checked against, not read again;
    it says word for word what the sheet's GET (which reads them) says, a later arrival included."""
    turn = demo_campaign.turns.get(number=1)
    ostland = Kingdom.objects.get(campaign=demo_campaign, name="Ostland")
    fang = Kingdom.objects.get(campaign=demo_campaign, name="Da Red Fang")
    spied = Army.objects.filter(kingdom=fang, kind="field").first()
    MissionEffect.objects.create(
        campaign=demo_campaign, kingdom=ostland, target=fang, mission="army-orders", earned_turn=0, target_army=spied
    )
    MissionEffect.objects.create(
        campaign=demo_campaign, kingdom=ostland, target=fang, mission="destroy-communication", earned_turn=0,
        expires_turn=2,
    )  # fmt: skip
    world_changed(demo_campaign.pk)  # as the phase that earns them does
    client = api_client_for(user_named("alice"))
    url = f"/api/turns/{turn.pk}/sheet/"
    answer = client.put(url, {"orders": _orders_for(ostland), "submit": True}, format="json")
    assert answer.status_code == 200, answer.json()
    assert len(answer.json()["usable_effects"]) == 2
    assert answer.json() == client.get(url).json()

    # A draft after it: the submission still stands, the draft is shown beside it.
    draft = client.put(url, {"orders": [], "submit": False}, format="json")
    assert draft.json()["draft"] is not None and draft.json() == client.get(url).json()


def test_the_receipt_says_what_one_written_from_the_database_says(demo_campaign, api_client_for):
    """The receipt names the provinces and the garrisons (Battle for Towns, Cities, and Capitols)
    from the world the sheet was checked against; it says word for word what a description read
    from the database says, for every kingdom."""
    turn = demo_campaign.turns.get(number=1)
    # A capitol that is neither a town nor a city: its garrison may still fight there.
    ostland = Kingdom.objects.get(campaign=demo_campaign, name="Ostland")
    Province.objects.filter(pk=ostland.capitol_id).update(settlement="none")
    garrison_lines: list[str] = []
    for name, kingdom in (
        ("alice", "Ostland"),
        ("bob", "Da Red Fang"),
        ("carol", "Karak Dumn"),
        ("dave", "Tor Anlec"),
    ):
        realm = Kingdom.objects.get(campaign=demo_campaign, name=kingdom)
        _submit(api_client_for, name, realm, turn)
        submission = OrderSubmission.objects.filter(sheet__kingdom=realm).latest("id")
        from_database = describe_entries(kingdom=realm, entries=submission.entries)
        assert submission.receipt["orders"] == from_database["orders"]
        assert submission.receipt["kingdom"] == from_database["kingdom"]
        ctx = order_sheet_context_load(kingdom=realm, turn=turn)
        assert describe_entries(kingdom=realm, entries=submission.entries, world=ctx.world) == from_database
        # Armies that hold where they stand: in their capitol the garrison may fight for them.
        holding = {"orders": [{"army": a.id, "kind": "hold"} for a in realm.armies.filter(kind="field")]}
        said = describe_entries(kingdom=realm, entries=holding, world=ctx.world)
        assert said == describe_entries(kingdom=realm, entries=holding)
        garrison_lines += [line for line in said["orders"] if "the garrison supports it" in line]
    assert garrison_lines  # the towns, cities and capitols were compared, not only the names
    assert [line for line in garrison_lines if line.startswith(ostland.armies.get(kind="field").name)]


@pytest.mark.skipif(
    connection.vendor != "postgresql", reason="row locks and concurrent writers: CI's PostgreSQL pass runs this"
)
def test_sheets_of_two_kingdoms_do_not_wait_for_each_other_and_the_claim_waits_for_both(transactional_db):
    """Lock the sheet, not the turn: while one kingdom's submission is still being saved, another
    kingdom's goes through at once; the orders phase's claim of the turn (an update of its row)
    cannot start until both are saved, so the resolution reads every sheet in flight."""
    campaign = demo_campaign_create()
    turn = campaign.turns.get(number=1)
    ostland = Kingdom.objects.get(campaign=campaign, name="Ostland")
    fang = Kingdom.objects.get(campaign=campaign, name="Da Red Fang")
    saved, release = threading.Event(), threading.Event()
    failures: list[BaseException] = []

    def alice_saves_and_holds() -> None:
        try:
            with transaction.atomic():
                order_sheet_save(
                    kingdom=ostland, turn=turn, entries=SheetEntries(), submitted_by=user_named("alice"), submit=True
                )
                saved.set()
                assert release.wait(30)
        except BaseException as exc:  # reported by the main thread
            failures.append(exc)
            saved.set()
        finally:
            connection.close()

    worker = threading.Thread(target=alice_saves_and_holds)
    worker.start()
    try:
        assert saved.wait(30) and not failures
        with transaction.atomic():
            with connection.cursor() as cursor:
                cursor.execute("SET LOCAL lock_timeout = '3s'")  # waiting would fail, not hang
            order_sheet_save(
                kingdom=fang, turn=turn, entries=SheetEntries(), submitted_by=user_named("bob"), submit=True
            )
        # The claim waits for Alice's sheet, still in flight.
        with pytest.raises(OperationalError), transaction.atomic():
            list(Turn.objects.select_for_update(nowait=True).filter(pk=turn.pk))
    finally:
        release.set()
        worker.join(30)
    assert not failures
    assert OrderSubmission.objects.filter(sheet__turn=turn).count() == 2
    with transaction.atomic():  # both saved: the claim takes the row at once
        assert list(Turn.objects.select_for_update(nowait=True).filter(pk=turn.pk))


@pytest.mark.skipif(
    connection.vendor != "postgresql", reason="row locks and concurrent writers: CI's PostgreSQL pass runs this"
)
def test_a_sheet_behind_a_short_hold_of_the_turns_row_waits_for_it_and_is_saved(transactional_db):
    """A submission takes the turn's share lock without waiting (so a running phase is answered at
    once, issue 34), but a row held by something else for a moment (a change of the deadline) is
    then waited for within the request's bound: the sheet is saved, not refused."""
    campaign = demo_campaign_create()
    turn = campaign.turns.get(number=1)
    ostland = Kingdom.objects.get(campaign=campaign, name="Ostland")
    held = threading.Event()

    def holds_the_turn_a_moment() -> None:
        try:
            with transaction.atomic():
                list(Turn.objects.select_for_update().filter(pk=turn.pk))
                held.set()
                time.sleep(0.4)
        finally:
            held.set()
            connection.close()

    holder = threading.Thread(target=holds_the_turn_a_moment)
    holder.start()
    try:
        assert held.wait(30)
        with transaction.atomic():
            with connection.cursor() as cursor:
                cursor.execute("SET LOCAL lock_timeout = '3s'")
            result = order_sheet_save(
                kingdom=ostland, turn=turn, entries=SheetEntries(), submitted_by=user_named("alice"), submit=True
            )
    finally:
        holder.join(30)
    assert result.standing is not None
    assert OrderSubmission.objects.filter(sheet__turn=turn, sheet__kingdom=ostland).count() == 1
