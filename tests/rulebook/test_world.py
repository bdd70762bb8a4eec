"""The world state every phase reads (rulebook/world.py): the rules that belong to its
records (Looting, Fortify) and the working copy. No database."""

from __future__ import annotations

import dataclasses

from rulebook.tables import ArmyType, Settlement, Terrain
from rulebook.turn.write_orders.context import order_sheet_context
from rulebook.world import LOOTED_TURNS, lose_fortifications
from tests import world_builders as wb


def test_a_town_looted_at_the_end_of_turn_4_creates_armies_again_from_turn_6():
    """Looting: "Player A takes a city from Player B on the end of turn 4, the city cannot upgrade /
    create armies until the beginning of turn 6." """
    town = wb.province(2, settlement="town", looted_turn=4)
    assert LOOTED_TURNS == 2
    assert town.looted_in(5) and not town.looted_in(6) and not town.looted_in(7)
    assert not wb.province(2, settlement="town").looted_in(5)


def test_fortification_is_lost_when_control_changes_and_kept_by_the_same_kingdom():
    """Fortify: "All Fortification bonuses are lost ... when the control of the province changes"."""
    fort = wb.province(5, controller=1, fortified=True)
    taken = fort.taken_by(2)
    assert (taken.controller, taken.fortified) == (2, False)
    assert fort.taken_by(1) is fort
    assert wb.province(6, fortified=True).taken_by(None).fortified  # neutral stays neutral


def fortified_world(*armies):
    """Province 5 fortified by army 10 (Avalon), which may since have moved or gone."""
    return wb.world(
        provinces=[wb.province(n, controller=1, fortified=n == 5) for n in (4, 5, 6)],
        kingdoms=[wb.kingdom(1, "Avalon")],
        armies=armies,
        adjacency=wb.edges([(4, 5), (5, 6)], [4, 5, 6]),
    ).working_copy()


def test_the_fortifications_are_the_fortified_army_s_while_it_stands_there():
    """Fortify: the bonuses belong to the army that fortified the province, not to whoever stands
    in it; a friendly army beside it (sharing the province) has none."""
    world = fortified_world(wb.army(10, 1, 5, fortified_in=5), wb.army(11, 1, 5, co_occupying=True))
    assert world.fortifier(5) is world.armies[10]
    assert world.fortifier(4) is None
    assert lose_fortifications(world, "orders") == [] and world.provinces[5].fortified


def test_the_fortifications_are_lost_when_the_fortified_army_moves_away():
    """Fortify: "All Fortification bonuses are lost when the Fortified army moves away" (a move, a
    forced march or a retreat alike): the map stops showing them, and the player is told why."""
    world = fortified_world(wb.army(10, 1, 4, fortified_in=5, name="Iron Guard"), wb.army(11, 1, 5))
    (event,) = lose_fortifications(world, "aftermath")
    assert event.text == "The fortifications of 5 P5 are lost: Iron Guard moved away (Fortify)."
    assert (event.phase, event.code, event.kingdom, event.army, event.province) == (
        "aftermath",
        "fortification-lost",
        1,
        10,
        5,
    )
    assert not world.provinces[5].fortified and world.armies[10].fortified_in is None
    assert world.fortifier(5) is None  # army 11, which stands there now, has no bonus


def test_the_fortifications_are_lost_when_the_fortified_army_is_disbanded():
    world = fortified_world(wb.army(10, 1, 5, fortified_in=5, name="Iron Guard", disbanded=True))
    (event,) = lose_fortifications(world, "orders")
    assert event.text == "The fortifications of 5 P5 are lost: Iron Guard was disbanded (Fortify)."
    assert not world.provinces[5].fortified


def test_a_fortified_province_with_no_army_that_fortified_it_is_not_fortified():
    world = fortified_world(wb.army(11, 1, 5))
    (event,) = lose_fortifications(world, "orders")
    assert event.text == "The fortifications of 5 P5 are lost: no army that fortified it stands there (Fortify)."
    assert (event.kingdom, event.army) == (1, None) and not world.provinces[5].fortified


def test_an_army_keeps_no_claim_on_a_province_no_longer_fortified():
    """Control changed (or the province was razed): the event that did it told the player; the army
    that had fortified it cannot bring the bonuses back by standing there."""
    world = fortified_world(wb.army(10, 1, 5, fortified_in=5))
    world.provinces[5] = world.provinces[5].taken_by(2)
    assert lose_fortifications(world, "aftermath") == []
    assert world.armies[10].fortified_in is None


def test_the_records_speak_in_enums():
    province = wb.province(3, "desert", "ruins")
    assert (province.terrain, province.settlement) == (Terrain.DESERT, Settlement.RUINS)
    assert Settlement.TOWN.town_or_city and not Settlement.RUINS.town_or_city
    assert wb.kingdom(9, "The Ancient Dead", ArmyType.ANCIENT_DEAD).ancient_dead


def test_a_working_copy_takes_replaced_records_and_leaves_the_original_alone():
    world = wb.world(
        provinces=[wb.province(1), wb.province(2)],
        kingdoms=[wb.kingdom(1, "Avalon")],
        armies=[wb.army(10, 1, 1)],
        adjacency=wb.edges([(1, 2)], [1, 2]),
    )
    work = world.working_copy()
    work.armies[10] = dataclasses.replace(work.armies[10], province=2)
    work.provinces[2] = work.provinces[2].taken_by(1)
    assert (world.armies[10].province, world.provinces[2].controller) == (1, None)
    assert [a.id for a in work.armies_in(2)] == [10] and work.adjacent(1, 2)


def test_the_sheet_check_sees_the_world_through_one_kingdom():
    world = wb.world(
        provinces=[wb.province(1, controller=1), wb.province(2, controller=2)],
        kingdoms=[wb.kingdom(1, "Avalon", treasury=700, capitol=1), wb.kingdom(2, "Brython", ArmyType.DWARFS)],
        armies=[wb.army(10, 1, 1), wb.army(20, 2, 2)],
        turn=5,
        player_count=3,
    )
    ctx = order_sheet_context(world, 1, army_names=frozenset({"Army 10", "Old Guard"}))
    assert list(ctx.armies) == [10]
    assert (ctx.treasury, ctx.capitol, ctx.army_type, ctx.turn, ctx.player_count) == (700, 1, ArmyType.EMPIRE, 5, 3)
    assert ctx.provinces is world.provinces
