"""The Ancient Dead run themselves in the demo campaign, through the real services: their Army Table
at the start, their orders drafted when a turn opens (the organizer may change them), their size
on the scenario sheet, the desert on the turn's map and in the bulletin."""

from __future__ import annotations

import datetime as dt

import pytest

from battles.models import Battle
from battles.services.scenarios import scenario_sheet_context
from demo.turn import army_with_list
from kernel.event_codes import EventCode
from kingdoms.models import Army, Campaign, Character, Kingdom, Province
from kingdoms.services.world import world_load
from orders.entries import sheet_from_json
from orders.models import OrderSheet
from orders.services.sheets import order_sheet_save
from reports.models import TurnMap
from reports.services.reports import bulletin_context
from rulebook.ancient_dead.movement import ancient_dead_orders
from rulebook.tables import ArmyType
from rulebook.turn.write_orders.records import ArmyOrder, OrderKind, SheetEntries
from tests.battle_setup import sheet_filed
from tests.clients import pages_as, user_named
from tests.conftest import DEMO_TURN_PLAYED
from turns.models import DiceRoll, Turn, TurnEvent
from turns.services.cycle import aftermath_phase_run, orders_phase_run

pytestmark = pytest.mark.django_db


def ancient_dead(campaign) -> Kingdom:  # type: ignore[no-untyped-def]
    return campaign.kingdoms.get(army_type=ArmyType.ANCIENT_DEAD)


def test_case_AD1_the_campaign_starts_with_the_armies_of_their_army_table(demo_campaign) -> None:
    """The Ancient Dead: Setup, Armies (rule case AD1): four players, nine deserts held: their Army
    Table gives three armies, the First Host in the pyramid and two risen at random in deserts next
    to the land (the roll kept with the setup dice); the Warlord stays with the Capitol Garrison,
    with an Archetype; the other Generals have none."""
    kingdom = ancient_dead(demo_campaign)
    field = list(kingdom.armies.filter(kind=Army.Kind.FIELD).select_related("province").order_by("id"))
    assert len(field) == 3 and field[0].name == "First Host" and field[0].province == kingdom.capitol
    for host in field[1:]:
        assert host.province.terrain == "desert" and host.created_turn == 0
        assert host.province.neighbours.exclude(terrain="desert").exists()
    rolls = DiceRoll.objects.filter(campaign=demo_campaign, turn=0, stream="ancient-dead-setup")
    assert [r.expression for r in rolls] == ["D8", "D7"]

    warlord = Character.objects.get(kingdom=kingdom, role="warlord")
    assert warlord.unit.army.name == "Capitol Garrison" and warlord.archetype
    assert not Character.objects.filter(kingdom=kingdom, role="general").exclude(archetype="").exists()


def test_their_orders_are_drafted_when_the_turn_opens_and_the_organizer_may_change_them(demo_campaign) -> None:
    """The Ancient Dead: Movement: the engine writes their orders as a draft when the turn opens;
    the organizer reads them on their order sheet page and may change them; the turn resolves the
    sheet as it then stands (no missed orders for them)."""
    turn = demo_campaign.turns.get(number=1)
    kingdom = ancient_dead(demo_campaign)
    sheet = OrderSheet.objects.get(turn=turn, kingdom=kingdom)
    assert sheet.status == OrderSheet.Status.DRAFT
    computed = ancient_dead_orders(world_load(campaign=demo_campaign, turn_number=1))
    assert sheet_from_json(sheet.entries).orders == computed
    assert all(o.kind is OrderKind.MOVE for o in computed)

    organizer = pages_as("organizer")
    page = organizer.get(f"/turns/{turn.pk}/orders/{kingdom.pk}/").content.decode()
    first = kingdom.armies.get(name="First Host")
    first_order = next(o for o in computed if o.army == first.id)
    assert f'name="army-{first.id}-kind"' in page and f'value="{first_order.target}" selected' in page
    assert "The engine computed these orders" in page and 'id="lists-due"' not in page
    assert pages_as("alice").get(f"/turns/{turn.pk}/orders/{kingdom.pk}/").status_code == 404

    # The organizer keeps the First Host in the pyramid; the others go as computed.
    changed = tuple(ArmyOrder(o.army, OrderKind.HOLD) if o.army == first.id else o for o in computed)
    order_sheet_save(
        kingdom=kingdom,
        turn=turn,
        entries=SheetEntries(orders=changed),
        submitted_by=user_named("organizer"),
        submit=False,
        arrived_at=turn.orders_deadline - dt.timedelta(days=1),
    )
    orders_phase_run(turn_id=turn.pk)
    first.refresh_from_db()
    assert first.province == kingdom.capitol
    moved = TurnEvent.objects.filter(turn=turn, kingdom=kingdom, code=EventCode.MOVED)
    assert {e.army_id for e in moved} == {o.army for o in computed if o.army != first.id}
    assert not TurnEvent.objects.filter(turn=turn, kingdom=kingdom, code=EventCode.MISSED_ORDERS).exists()


def _host_attacks_ironguard(demo_campaign: Campaign) -> tuple[Turn, Army, Kingdom, Army, Battle]:
    """Turn 1 resolved with a risen host (not the First Host) attacking Karak Dumn's 1,200-point
    Ironguard, raised in the free province next to the desert: (turn, host, karak, ironguard, battle)."""
    turn = demo_campaign.turns.get(number=1)
    kingdom = ancient_dead(demo_campaign)
    host = kingdom.armies.filter(kind=Army.Kind.FIELD).exclude(name="First Host").order_by("id").first()
    target = host.province.neighbours.exclude(terrain="desert").filter(armies__isnull=True).order_by("number").first()
    karak = demo_campaign.kingdoms.get(name="Karak Dumn")
    ironguard = army_with_list(karak, "Ironguard", target, [("Warriors", 100, 12)])
    order_sheet_save(
        kingdom=kingdom,
        turn=turn,
        entries=SheetEntries(orders=(ArmyOrder(host.id, OrderKind.MOVE, target=target.number),)),
        submitted_by=user_named("organizer"),
        submit=True,
        arrived_at=turn.orders_deadline - dt.timedelta(days=1),
    )
    orders_phase_run(turn_id=turn.pk)
    battle = Battle.objects.get(turn=turn, province=target)
    return turn, host, karak, ironguard, battle


def test_case_AD2_the_scenario_sheet_shows_their_size_for_the_battle(demo_campaign) -> None:
    """The Ancient Dead: Armies (rule case AD2): a risen host attacks Karak Dumn's 1,200-point army
    next to the desert: it fights at 950 points, and the scenario sheet says so."""
    turn, host, karak, ironguard, battle = _host_attacks_ironguard(demo_campaign)
    target = battle.province
    assert (battle.attacker_army, battle.defender_army, battle.ancient_dead_points) == (host, ironguard, 950)
    context = scenario_sheet_context(battle)
    assert (context["attacker"]["points"], context["defender"]["points"]) == (950, 1200)
    page = pages_as("organizer").get(f"/battles/{battle.pk}/").content.decode()
    assert "950 points: the Ancient Dead, 250 less than their opponent after supports" in page
    assert not TurnEvent.objects.filter(turn=turn, code=EventCode.GUERRILLA, province=target.number).exists()


def test_victory_over_the_ancient_dead_pays_for_the_points_they_fought_at(demo_campaign) -> None:
    """Looting ("100 gold pieces for each 500 points of army faced", here 150 for a major victory)
    and The Ancient Dead: Armies (rules decision 370): Karak Dumn's 1,200-point army beats a risen
    host that fought it at 950 points; the army faced is the host as it stood on the table (one full
    500), not the points of its list."""
    turn, host, karak, ironguard, battle = _host_attacks_ironguard(demo_campaign)
    target = battle.province
    assert (battle.defender_army, battle.ancient_dead_points) == (ironguard, 950)
    assert Army.objects.get(pk=host.pk).size > 1000  # its list would have paid twice as much

    sheet_filed(battle, karak, result="major-victory")
    assert aftermath_phase_run(turn_id=turn.pk).resolved
    (gold,) = TurnEvent.objects.filter(turn=turn, code=EventCode.VICTORY_GOLD, kingdom=karak)
    assert gold.gold == 150
    assert gold.text == f"Victory gold for the major victory in {target}: 150 (950 points faced; Looting)."


def test_the_demo_turn_has_their_computed_move_and_the_first_desert_on_the_map_and_in_the_bulletin(
    demo_campaign, shared_layers
) -> None:
    """make demo: the Ancient Dead march out by themselves: the First Host leaves the pyramid, the
    risen hosts turn the land next to the desert, and the turn's map and bulletin show it (the map
    as the aftermath stored it, the bulletin's context: the PDFs are not rendered here)."""
    turn = demo_campaign.turns.get(number=1)
    kingdom = ancient_dead(demo_campaign)
    computed = {o.army: o.target for o in ancient_dead_orders(world_load(campaign=demo_campaign, turn_number=1))}
    shared_layers.take(DEMO_TURN_PLAYED)  # demo_turn_play's turn (tests/conftest.py)

    for army in kingdom.armies.filter(kind=Army.Kind.FIELD, created_turn=0).select_related("province"):
        assert army.province.number == computed[army.id]  # each went where the engine sent it
    assert kingdom.armies.get(name="First Host").province != kingdom.capitol
    turned = TurnEvent.objects.filter(turn=turn, code__in=[EventCode.DESERT_SPREAD, EventCode.INCANTATION])
    assert turned.exists()
    svg = TurnMap.objects.get(turn=turn).svg
    provinces = {p.number: p for p in Province.objects.filter(campaign=demo_campaign)}
    for event in turned:
        province = provinces[event.province]
        assert province.terrain == ("desert" if event.code == EventCode.DESERT_SPREAD else "plains")
        mark = "terrain-desert" if event.code == EventCode.DESERT_SPREAD else "incantation"
        start = svg.index(f'id="province-{event.province}"')
        assert mark in svg[start : svg.index(">", start)]
    news = bulletin_context(turn=turn)["ancient_dead"]
    assert all(any(str(provinces[e.province]) in line for line in news) for e in turned)
    assert not any("Host" in line for line in news)  # no army named in the public bulletin
