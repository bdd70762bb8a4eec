"""Resolving a turn through the service and the task (orders/services/resolution.py): the demo
campaign end to end, claims, rollback, determinism, the dry run and the query count."""

import datetime as dt
import threading

import pytest
from django.contrib.auth import get_user_model
from django.db import connection

from battles.models import Battle
from kingdoms.models import Army, ArmyMovement, Province, TreasuryEntry
from orders.models import OrderSheet
from orders.services.resolution import turn_preview, turn_state_load
from orders.services.sheets import order_sheet_save
from outbox.models import Email
from rulebook.campaign_schedule import deadline_text
from rulebook.turn.write_orders.records import ArmyOrder, OrderKind, SheetEntries
from tests.conftest import needs_broker
from turns.models import DiceRoll, Turn, TurnEvent
from turns.services.cycle import orders_phase_run


def submit(kingdom, turn, *orders):
    user = kingdom.players.first()
    order_sheet_save(
        kingdom=kingdom,
        turn=turn,
        entries=SheetEntries(orders=tuple(orders)),
        submitted_by=user,
        submit=True,
        arrived_at=turn.orders_deadline - dt.timedelta(days=1),
    )


@pytest.fixture
def orders_filed(turn, k):
    """Ostland's 1st Army claims a neutral neighbour; a Tor Anlec army, placed next to Ostland's
    capitol, marches into it (an assault on the capitol's garrison); Da Red Fang holds; Karak Dumn
    files nothing (it misses its orders)."""
    ostland, tor = k["Ostland"], k["Tor Anlec"]
    first = ostland.armies.get(kind="field")
    capitol = ostland.capitol
    neutral = capitol.neighbours.filter(controller=None).exclude(terrain="desert").order_by("number")
    claim, staging = neutral[0], neutral[1]
    raider = Army.objects.create(kingdom=tor, name="Raiders", province=staging, size=1500)
    # Its list: the raiders field 1,500 points (list points drive claims and guerrilla tactics).
    raider.units.create(name="Spearmen", category="core", models_count=150, points_per_model=10)
    submit(ostland, turn, ArmyOrder(first.id, OrderKind.MOVE, target=claim.number))
    submit(tor, turn, ArmyOrder(raider.id, OrderKind.MOVE, target=capitol.number))
    submit(k["Da Red Fang"], turn)
    return {"first": first, "claim": claim, "capitol": capitol, "raider": raider}


def income(kingdom) -> int:
    yields = {"city": 300, "town": 150}
    return sum(0 if p.razed or p.terrain == "desert" else yields.get(p.settlement, 30) for p in kingdom.provinces.all())


def test_the_demo_turn_resolves_by_the_rules(turn, k, orders_filed):
    expected_tax = {name: income(kingdom) for name, kingdom in k.items()}
    outcome = orders_phase_run(turn_id=turn.pk)
    assert outcome.resolved
    turn.refresh_from_db()
    assert turn.status == Turn.Status.BATTLES and turn.resolved_at and turn.resolution_error == ""

    # 1. Tally gold: a ledger row per kingdom, the rulebook's taxes (Empire pays imperial taxation).
    for name, kingdom in k.items():
        taxes = TreasuryEntry.objects.filter(kingdom=kingdom, turn=1, reason="taxes")
        assert [t.amount for t in taxes] == ([expected_tax[name]] if expected_tax[name] else []), name
    assert expected_tax["The Ancient Dead"] == 0  # deserts yield nothing (G3)
    imperial = TreasuryEntry.objects.get(kingdom=k["Ostland"], turn=1, reason="imperial-taxation")
    assert imperial.amount < 0

    # 5. Orders: the move, the claim and the record of the provinces passed through.
    first = Army.objects.get(pk=orders_filed["first"].pk)
    assert first.province == orders_filed["claim"]
    assert Province.objects.get(pk=orders_filed["claim"].pk).controller == k["Ostland"]
    assert ArmyMovement.objects.filter(army=first, turn=1).last().province == orders_filed["claim"]

    # 6. The raiders assault Ostland's capitol, defended by its 2,000-point garrison with 3 defenses.
    battle = Battle.objects.get(turn=turn)
    assert (battle.province, battle.attacker_army, battle.defender_army) == (
        orders_filed["capitol"],
        orders_filed["raider"],
        None,
    )
    assert battle.assault and (battle.garrison_points, battle.garrison_defenses) == (2000, 3)
    assert battle.defender_kingdom == k["Ostland"]
    assert Province.objects.get(pk=orders_filed["capitol"].pk).controller == k["Ostland"]  # decided by the battle

    # O1: Karak Dumn sent nothing; the turn records it, and its army held.
    assert TurnEvent.objects.filter(turn=turn, code="missed-orders", kingdom=k["Karak Dumn"]).exists()
    # The events explain the ledger: each gold row has its event.
    gold_events = [e for e in TurnEvent.objects.filter(turn=turn) if e.gold]
    assert sorted(e.gold for e in gold_events) == sorted(
        TreasuryEntry.objects.filter(turn=1).values_list("amount", flat=True)
    )


def test_resolving_again_does_nothing(turn, orders_filed):
    assert orders_phase_run(turn_id=turn.pk).resolved
    counts = (TreasuryEntry.objects.count(), TurnEvent.objects.count(), Battle.objects.count())
    assert not orders_phase_run(turn_id=turn.pk).resolved
    assert (TreasuryEntry.objects.count(), TurnEvent.objects.count(), Battle.objects.count()) == counts


def test_the_dry_run_writes_nothing_and_shows_what_the_resolution_does(turn, orders_filed):
    counts = (
        TreasuryEntry.objects.count(),
        TurnEvent.objects.count(),
        Battle.objects.count(),
        DiceRoll.objects.count(),
    )
    preview = turn_preview(turn=turn)
    assert (
        TreasuryEntry.objects.count(),
        TurnEvent.objects.count(),
        Battle.objects.count(),
        DiceRoll.objects.count(),
    ) == counts
    turn.refresh_from_db()
    assert turn.status == Turn.Status.ORDERS_OPEN
    # Same state, same seed: the real resolution gives exactly what the preview showed.
    resolved = orders_phase_run(turn_id=turn.pk).resolution
    assert [(e.code, e.text, e.gold) for e in resolved.events] == [(e.code, e.text, e.gold) for e in preview.events]
    assert [e.code for e in TurnEvent.objects.filter(turn=turn)] == [e.code for e in preview.events]


def test_an_exception_in_the_middle_leaves_everything_as_it_was(turn, orders_filed):
    def boom(execute, sql, params, many, context):
        # The database fails the events' insert (an INSERT, or a COPY on PostgreSQL).
        if "orders_turnevent" in sql and sql.lstrip().upper().startswith(("INSERT", "COPY")):
            raise RuntimeError("disk full")
        return execute(sql, params, many, context)

    before = (
        TreasuryEntry.objects.count(),
        Army.objects.filter(province=orders_filed["claim"]).count(),
        list(Province.objects.order_by("id").values_list("controller", "razed", "fortified")),
    )
    # The ledger rows are written first; the failure comes after them, while writing the events.
    with connection.execute_wrapper(boom), pytest.raises(RuntimeError, match="disk full"):
        orders_phase_run(turn_id=turn.pk)
    after = (
        TreasuryEntry.objects.count(),
        Army.objects.filter(province=orders_filed["claim"]).count(),
        list(Province.objects.order_by("id").values_list("controller", "razed", "fortified")),
    )
    assert after == before
    turn.refresh_from_db()
    assert turn.status == Turn.Status.ORDERS_OPEN and "disk full" in turn.resolution_error
    assert orders_phase_run(turn_id=turn.pk).resolved  # claimable again


def _armies(campaign, count, start=0):
    """`count` more armies of Ostland's, in provinces no other kingdom's army stands in (armies of two
    kingdoms in one province with no battle fail the phase's sanity check)."""
    kingdom = campaign.kingdoms.get(name="Ostland")
    others = Army.objects.filter(kingdom__campaign=campaign).exclude(kingdom=kingdom)
    provinces = list(campaign.provinces.exclude(terrain="desert").exclude(armies__in=others))
    Army.objects.bulk_create(
        Army(kingdom=kingdom, name=f"Extra {i}", province=provinces[i % len(provinces)], size=1000)
        for i in range(start, start + count)
    )


def test_loading_the_state_takes_the_same_number_of_queries_for_10_and_100_armies(turn, demo_campaign):
    _armies(demo_campaign, 10)
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as ten:
        turn_state_load(turn)
    _armies(demo_campaign, 90, start=10)
    with CaptureQueriesContext(connection) as hundred:
        state = turn_state_load(turn)
    assert len(state.armies) >= 100
    assert len(hundred.captured_queries) == len(ten.captured_queries)


@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif(connection.vendor == "sqlite", reason="concurrent writers need PostgreSQL (CI's second pass)")
def test_two_concurrent_triggers_resolve_the_turn_once(demo_campaign_committed):
    turn = demo_campaign_committed.turns.get(number=1)
    results = []

    def trigger():
        try:
            results.append(orders_phase_run(turn_id=turn.pk).resolved)
        finally:
            connection.close()

    threads = [threading.Thread(target=trigger) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(results) == [False, True]
    assert TreasuryEntry.objects.filter(turn=1, reason="taxes").count() == demo_campaign_committed.kingdoms.count() - 1


@pytest.fixture
def demo_campaign_committed(transactional_db):
    from demo.campaign import demo_campaign_create

    return demo_campaign_create()


@pytest.mark.celery_worker
@needs_broker
def test_the_organizer_button_resolves_through_a_real_worker(celery_worker, client):
    import time

    from demo.campaign import demo_campaign_create

    campaign = demo_campaign_create()
    turn = campaign.turns.get(number=1)
    client.force_login(get_user_model().objects.get(username="organizer"))
    response = client.post(f"/turns/{turn.pk}/resolve/")
    assert response.status_code == 302
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        turn.refresh_from_db()
        if turn.status == Turn.Status.BATTLES:
            break
        time.sleep(0.2)
    assert turn.status == Turn.Status.BATTLES
    assert TurnEvent.objects.filter(turn=turn, code="taxes").count() == campaign.kingdoms.count() - 1


@pytest.mark.skipif(
    connection.vendor == "sqlite",
    reason="SQLite splits bulk writes into batches of 999 parameters; CI's PostgreSQL pass runs this",
)
def test_the_whole_resolution_takes_the_same_number_of_queries_for_10_and_100_armies(
    db, django_capture_on_commit_callbacks
):
    from django.test.utils import CaptureQueriesContext

    from demo.campaign import demo_campaign_create

    counts = []
    for extra in (10, 100):
        with django_capture_on_commit_callbacks(execute=True):
            campaign = demo_campaign_create()
        _armies(campaign, extra)
        turn = campaign.turns.get(number=1)
        # The Ancient Dead hold (no computed sheet): their march would meet one of the hundred
        # armies and post a battle the ten never meet, and this counts the armies' cost alone.
        OrderSheet.objects.filter(turn=turn, kingdom__army_type="ancient-dead").delete()
        with CaptureQueriesContext(connection) as queries:
            assert orders_phase_run(turn_id=turn.pk).resolved
        counts.append(len(queries.captured_queries))
    assert counts[0] == counts[1]


def test_a_fortify_order_writes_the_fortified_army_and_the_province_the_map_shows(turn, k):
    """Fortify: the province shows fortified, and the bonuses are written as the army's own
    (Army.fortified_in), which the next turn's world reads back."""
    ostland = k["Ostland"]
    first = ostland.armies.get(kind="field")
    submit(ostland, turn, ArmyOrder(first.id, OrderKind.FORTIFY))
    for other in ("Tor Anlec", "Da Red Fang", "Karak Dumn"):
        submit(k[other], turn)
    assert orders_phase_run(turn_id=turn.pk).resolved
    first.refresh_from_db()
    assert first.fortified_in_id == first.province_id
    assert Province.objects.get(pk=first.province_id).fortified
    world = turn_state_load(turn).world
    assert world.fortifier(first.province.number) == world.armies[first.id]


def test_only_the_armies_that_fight_a_battle_were_in_a_battle_for_fortify(turn, k, orders_filed):
    """Decision 33: "in a battle the previous turn" is having fought one; an army that sent a
    support detachment to it was not in a battle itself (its Fortify next turn stands)."""
    tor, capitol = k["Tor Anlec"], orders_filed["capitol"]
    free = (
        capitol.neighbours.filter(controller=None, armies=None)
        .exclude(terrain="desert")
        .exclude(pk=orders_filed["claim"].pk)
        .order_by("number")
    )
    reserve = Army.objects.create(kingdom=tor, name="Reserve", province=free.last(), size=1000)
    reserve.units.create(name="Spearmen", category="core", models_count=100, points_per_model=10)
    submit(
        tor,
        turn,
        ArmyOrder(orders_filed["raider"].id, OrderKind.MOVE, target=capitol.number),
        ArmyOrder(reserve.id, OrderKind.SUPPORT, support=capitol.number),
    )
    assert orders_phase_run(turn_id=turn.pk).resolved
    assert TurnEvent.objects.filter(turn=turn, code="support", army=reserve).exists()
    orders_filed["raider"].refresh_from_db()
    reserve.refresh_from_db()
    assert (orders_filed["raider"].last_battle_turn, reserve.last_battle_turn) == (1, None)


def _free_provinces(campaign):
    """Plain neutral provinces with no army in them, and their neighbours, by number."""
    taken = set(
        Army.objects.filter(kingdom__campaign=campaign, status=Army.Status.ACTIVE).values_list(
            "province__number", flat=True
        )
    )
    provinces = {p.number: p for p in campaign.provinces.prefetch_related("neighbours")}
    free = {
        n
        for n, p in provinces.items()
        if p.controller_id is None and p.settlement == "none" and p.terrain != "desert" and not p.pyramid
    } - taken
    return free, {n: {q.number for q in p.neighbours.all()} for n, p in provinces.items()}


def _maintained_and_written(turn, before, work, dice) -> None:
    """2. Maintain Armies on `work` (the turn's state as loaded: `before`), written as the orders phase writes."""
    from django.db import transaction

    from orders.services.resolution import resolution_write
    from rulebook.turn.maintain_armies import maintain_armies
    from rulebook.turn.pipeline import Resolution

    events: list = []
    maintain_armies(work, dice, events)
    with transaction.atomic():
        resolution_write(
            turn=turn,
            before=before,
            resolution=Resolution(state=work, events=events, contacts=[], battles=[]),
            dice=dice,
        )


def test_case_R9_an_army_without_its_list_counts_at_the_points_paid_for_it(
    turn, k, demo_campaign, django_capture_on_commit_callbacks
):
    """Army Restrictions, 3. Create / Upgrade Armies: a kingdom paid 1,500 gold for each of three new
    armies and has entered none of their lists. Each counts as 1,500 points: one claims a province
    ("Armies less than 1000 points cannot claim provinces"), one is the larger army a 1,000-point
    army rolls Guerrilla Tactics against, one sends a full 200-point detachment (Support). Its
    players are told the lists are due, and by when."""
    ostland, tor = k["Ostland"], k["Tor Anlec"]
    free, near = _free_provinces(demo_campaign)
    # A battle province with two free neighbours (the attacker's and the supporter's), and elsewhere
    # a free province next to another to claim.
    battle, b_from, c_from = next(
        (x, y, z) for x in sorted(free) for y in sorted(near[x] & free) for z in sorted(near[x] & free) if y < z
    )
    used = {battle, b_from, c_from} | near[battle] | near[b_from] | near[c_from]
    a_from, claim = next((a, n) for a in sorted(free - used) for n in sorted((near[a] & free) - used))
    province = {p.number: p for p in demo_campaign.provinces.all()}

    def unlisted(name, number):
        return Army.objects.create(kingdom=ostland, name=name, province=province[number], size=1500, list_due=True)

    claimer, attacker, supporter = (
        unlisted("2nd Army", a_from),
        unlisted("3rd Army", b_from),
        unlisted("4th Army", c_from),
    )
    enemy = Army.objects.create(kingdom=tor, name="Skirmishers", province=province[battle], size=1000)
    enemy.units.create(name="Archers", category="core", models_count=100, points_per_model=10)
    with django_capture_on_commit_callbacks(execute=True):  # the worker renders and sends the receipt
        submit(
            ostland,
            turn,
            ArmyOrder(claimer.id, OrderKind.MOVE, target=claim),
            ArmyOrder(attacker.id, OrderKind.MOVE, target=battle),
            ArmyOrder(supporter.id, OrderKind.SUPPORT, support=battle),
        )

    preview = turn_preview(turn=turn)

    claimed = [e for e in preview.events if e.code == "province-claimed" and e.army == claimer.id]
    assert claimed and claimed[0].province == claim
    (fought,) = [b for b in preview.battles if b.province == battle]
    assert fought.guerrilla is not None
    assert (fought.guerrilla["army"], fought.guerrilla["target"]) == (enemy.id, attacker.id)
    sent = [e for e in preview.events if e.army == supporter.id and e.code in ("support", "support-refused")]
    assert [(e.code, e.data.get("points")) for e in sent] == [("support", 200)]

    # Its players are told: on the receipt of the sheet, naming the deadline.
    (receipt,) = [e for e in Email.objects.filter(kind=Email.Kind.ORDERS_RECEIPT) if ostland.name in e.subject]
    deadline = deadline_text(turn.orders_deadline, demo_campaign.time_zone)
    for army in (claimer, attacker, supporter):
        assert f"{army.name}: its list is due; enter it by {deadline}." in receipt.text
    assert "counts at the 1,500 points paid for it (Army Restrictions)" in receipt.text


def test_case_R7_foraging_losses_are_written_to_the_list_and_counted_once(turn, k):
    """Foraging Table, 3-4, through the writer: the models come off the stored list (the unit's
    casualties kept), and the army counts its list from then on: 150 points less, once, turn after
    turn."""

    from kernel.dice import ScriptedDice

    ostland = k["Ostland"]
    army = Army.objects.create(kingdom=ostland, name="Wardens", province=ostland.capitol, size=1500)
    army.units.create(name="Captain", category="character", models_count=1, points_per_model=100)
    spearmen = army.units.create(name="Spearmen", category="core", models_count=140, points_per_model=10)
    Army.objects.filter(pk=army.pk).update(supply_depot=False)
    before = turn_state_load(turn)
    assert before.armies[army.id].points == 1500
    work = before.working_copy()
    dice = ScriptedDice(faces=[2, 2, 3])  # 2D6 = 4; D6 = 3: 150 points
    _maintained_and_written(turn, before, work, dice)

    spearmen.refresh_from_db()
    assert (spearmen.models_count, spearmen.models_lost) == (125, 15)
    assert turn_state_load(turn).armies[army.id].points == 1350
    assert turn_state_load(turn).armies[army.id].points == 1350  # loading again subtracts nothing more
    event = TurnEvent.objects.get(turn=turn, code="foraging-losses", army=army)
    assert event.data["taken"] == [["Spearmen", 15, 150]]


def test_case_R7_guerrilla_losses_are_written_to_the_list_a_whole_unit_included(turn, k):
    """Guerrilla Tactics, Ambushed! (10%), through the writer: "this counts as destroyed", so the
    models come off the stored list; a unit the loss takes whole keeps no models (Casualties taken
    from the list, R7), and the army counts its list from then on."""
    from django.db import transaction

    from kernel.dice import ScriptedDice
    from orders.services.resolution import resolution_write
    from rulebook.turn.fight_battles.scheduling import build_battles
    from rulebook.turn.pipeline import Resolution
    from rulebook.turn.state import Contact

    ostland, tor = k["Ostland"], k["Tor Anlec"]
    field = ostland.capitol.neighbours.filter(controller=None).exclude(terrain="desert").order_by("number")[0]
    large = Army.objects.create(kingdom=ostland, name="Wardens", province=field, size=2000)
    large.units.create(name="Captain", category="character", models_count=1, points_per_model=100)
    reserve = large.units.create(name="State Troops Reserve", category="core", models_count=20, points_per_model=5)
    knights = large.units.create(name="Knights", category="special", models_count=60, points_per_model=30)
    small = Army.objects.create(kingdom=tor, name="Raiders", province=field, size=1000)
    small.units.create(name="Spearmen", category="core", models_count=100, points_per_model=10)
    before = turn_state_load(turn)
    assert before.armies[large.id].points == 2000
    work = before.working_copy()
    events: list = []
    battles = build_battles(
        work, [Contact(province=field.number, attacker=small.id, defender=large.id)], ScriptedDice(faces=[6]), events
    )
    assert battles[0].guerrilla["points_lost"] == 200
    with transaction.atomic():
        resolution_write(
            turn=turn,
            before=before,
            resolution=Resolution(state=work, events=events, contacts=[], battles=battles),
            dice=ScriptedDice(faces=[]),
        )

    reserve.refresh_from_db()
    knights.refresh_from_db()
    # 200 points: the core unit first (20 models, 100 points), then 4 Knights (120 points).
    assert (reserve.models_count, reserve.models_lost) == (0, 20)
    assert (knights.models_count, knights.models_lost) == (56, 4)
    assert turn_state_load(turn).armies[large.id].points == 100 + 56 * 30


def test_the_characters_of_an_army_foraging_disbands_are_written_gone_and_the_warlord_succeeded(turn, k):
    """2. Maintain Armies, through the loader and the writer (decision 591; Army Restrictions: "going their
    separate ways"; Warlord: "a General with the most experience from the player's armies is selected"):
    Ostland's Warlord's army disbands on a foraging Disaster. The world the resolution loads holds his
    army's characters and items: they leave with it, and the database records them dead, his magic item
    destroyed, and the General of Ostland's most experienced army the Warlord."""

    from kernel.dice import ScriptedDice
    from kingdoms.models import ArmoryItem, Character
    from tests.kingdoms.builders import army_built, character_built, unit_built

    ostland = k["Ostland"]
    warlord = Character.objects.get(kingdom=ostland, role="warlord", alive=True)
    host = warlord.unit.army
    hero = character_built(host, "Sir Wendel", points=60)
    sword = ArmoryItem.objects.create(kingdom=ostland, name="Runefang of Solland", points=50, bearer=warlord.unit)
    veterans = army_built(ostland, name="Veterans", province=ostland.capitol.number, size=1000, experience=900)
    unit_built(veterans, "Greatswords", models_count=80, points_per_model=12)
    heir = character_built(veterans, "Captain Brandt", points=80, role="general")
    Army.objects.filter(kingdom__campaign=turn.campaign).update(supply_depot=True)
    Army.objects.filter(pk=host.pk).update(supply_depot=False)
    leaving = set(Character.objects.filter(unit__army=host, alive=True).values_list("id", flat=True))
    assert {warlord.id, hero.id} <= leaving
    before = turn_state_load(turn)
    work = before.working_copy()
    work.orders[host.id] = ArmyOrder(host.id, disaster_choice="disband")
    dice = ScriptedDice(faces=[1, 1])  # 2: Disaster, and its banner chose disbanding
    _maintained_and_written(turn, before, work, dice)

    host.refresh_from_db()
    assert host.status == Army.Status.DISBANDED
    for character in (warlord, hero, heir):
        character.refresh_from_db()
    assert not Character.objects.filter(pk__in=leaving, alive=True).exists()
    assert (heir.alive, heir.role) == (True, Character.Role.WARLORD)
    sword.refresh_from_db()
    assert sword.destroyed
    assert TurnEvent.objects.filter(turn=turn, code="character-retired", army=host).count() == len(leaving)
    succession = TurnEvent.objects.get(turn=turn, code="warlord-succession")
    assert "Captain Brandt" in succession.text and succession.army_id == veterans.id
