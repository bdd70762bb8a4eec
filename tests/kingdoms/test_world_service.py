"""Loading the world state (kingdoms/services/world.py): one loader, a fixed number of queries, and
the same state for the sheet check, the turn's resolution and the aftermath."""

from __future__ import annotations

from dataclasses import replace

from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from battles.services.aftermath_state import aftermath_state_load
from kingdoms.models import ArmoryItem, Army, Character, Province
from kingdoms.services.world import world_load
from orders.services.resolution import turn_state_load
from orders.services.sheets import order_sheet_context_load
from rulebook.tables import ArmyKind, Settlement, Terrain


def test_the_world_is_loaded_in_the_same_number_of_queries_for_10_and_100_armies(demo_campaign):
    kingdom = demo_campaign.kingdoms.get(name="Ostland")
    provinces = list(demo_campaign.provinces.exclude(terrain="desert"))

    def more(start, count):
        Army.objects.bulk_create(
            Army(kingdom=kingdom, name=f"Extra {i}", province=provinces[i % len(provinces)], size=1000)
            for i in range(start, start + count)
        )

    more(0, 10)
    with CaptureQueriesContext(connection) as ten:
        world_load(campaign=demo_campaign, turn_number=1)
    more(10, 90)
    with CaptureQueriesContext(connection) as hundred:
        world = world_load(campaign=demo_campaign, turn_number=1)
    assert len(world.armies) >= 100
    assert len(hundred.captured_queries) == len(ten.captured_queries)


def test_the_world_holds_what_the_rows_say(demo_campaign):
    ostland = demo_campaign.kingdoms.get(name="Ostland")
    town = Province.objects.filter(campaign=demo_campaign, settlement="town").first()
    Province.objects.filter(pk=town.pk).update(controller=ostland, looted_turn=1)
    garrison = Army.objects.create(
        kingdom=ostland, name="Elite Defense Force", kind=Army.Kind.GARRISON, province=town, size=500
    )
    first = ostland.armies.filter(kind="field").first()
    unit = first.units.first()
    ArmoryItem.objects.create(kingdom=ostland, name="Sword of Testing", points=25, bearer=unit)
    Army.objects.create(kingdom=ostland, name="Gone", province=town, size=1000, status=Army.Status.DISBANDED)
    raised = Army.objects.create(kingdom=ostland, name="2nd Army", province=town, size=1500, created_turn=1)
    upgraded = Army.objects.create(
        kingdom=ostland, name="3rd Army", province=town, size=2000, list_due=True, losses_before_list=100
    )
    upgraded.units.create(name="Old Guard", category="core", models_count=100, points_per_model=10)

    world = world_load(campaign=demo_campaign, turn_number=2)

    assert (world.turn, world.player_count) == (2, demo_campaign.player_count)
    province = world.provinces[town.number]
    assert (province.settlement, province.controller, province.elite_defense) == (Settlement.TOWN, ostland.id, True)
    assert province.looted_in(2) and not province.looted_in(3)
    assert all(isinstance(p.terrain, Terrain) for p in world.provinces.values())
    assert world.garrisons[garrison.id].kind is ArmyKind.GARRISON and garrison.id not in world.armies
    assert "Gone" not in {a.name for a in world.armies.values()}
    items = ArmoryItem.objects.filter(bearer__army=first, destroyed=False)  # the Sword of Testing among them
    listed = sum(u.points for u in first.units.all()) + sum(i.points for i in items)
    # The list is what counts: nothing is subtracted from it.
    assert world.armies[first.id].points == listed
    assert not world.armies[first.id].list_due
    assert [u.name for u in world.units[first.id]] == [u.name for u in first.units.all()]
    # A new army without its list counts at the points paid for it; an upgraded one at its new
    # size, less what it lost since (Army Restrictions; 3. Create / Upgrade Armies).
    assert (world.armies[raised.id].points, world.armies[raised.id].list_due) == (1500, True)
    assert (world.armies[upgraded.id].points, world.armies[upgraded.id].list_due) == (1900, True)
    assert world.kingdoms[ostland.id].treasury == ostland.treasury_balance()
    assert world.kingdoms[ostland.id].capitol == ostland.capitol.number
    # The characters and magic items of the armies on the map, read with their lists.
    aftermath = world
    assert {i.name for i in aftermath.items.values() if i.bearer == unit.id} >= {"Sword of Testing"}
    living = Character.objects.filter(unit__army__in=list(world.armies) + list(world.garrisons), alive=True)
    assert living and {c.id: c.unit for c in aftermath.characters.values()} == {c.id: c.unit_id for c in living}


def test_the_sheet_check_the_resolution_and_the_aftermath_read_one_world(turn, demo_campaign):
    ostland = demo_campaign.kingdoms.get(name="Ostland")
    world = world_load(campaign=demo_campaign, turn_number=turn.number)
    # The sheet's check reads no characters nor magic items (world_for_kingdom).
    assert order_sheet_context_load(kingdom=ostland, turn=turn).world == replace(world, characters={}, items={})
    # The resolution's and the aftermath's are the same world, with the characters and magic items of the
    # armies on the map (a foraging disband, decision 591; a spied list, decision 590).
    assert turn_state_load(turn).world == world
    aftermath = aftermath_state_load(turn, now=timezone.now()).world
    assert aftermath == world and world.characters
