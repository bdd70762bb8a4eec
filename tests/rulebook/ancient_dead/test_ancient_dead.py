"""The Ancient Dead run themselves (The Ancient Dead: Setup, Armies, Deserts, Movement, Return to
the Tomb): their Army Table, their size in battle, the desert's spreading, the deserts, their
computed orders and their rising again. Rule cases AD1-AD5; no database."""

from __future__ import annotations

from dataclasses import replace

import pytest

from kernel.dice import ScriptedDice, SeededDice
from kernel.event_codes import EventCode
from rulebook.ancient_dead.armies import (
    ANCIENT_DEAD_ARMY_TABLE,
    ancient_dead_army_count,
    ancient_dead_rise,
    rising_provinces,
)
from rulebook.ancient_dead.movement import ancient_dead_orders
from rulebook.setup.maps import load_default_map
from rulebook.tables import ArmyType, Settlement, Terrain
from rulebook.turn.fight_battles.towns_cities_capitols import DESERT_GARRISON_POINTS, province_garrison
from rulebook.turn.pipeline import Resolution, resolve_orders
from rulebook.turn.state import TurnState
from rulebook.turn.tally_gold import tax_tally
from rulebook.turn.write_orders.check import order_sheet_check
from rulebook.turn.write_orders.context import order_sheet_context
from rulebook.turn.write_orders.records import ArmyOrder, OrderKind, SheetEntries
from rulebook.world import ArmyState, World
from tests import world_builders as wb

DEAD, AVALON = 9, 1
PYRAMID = 13  # the centre of a 5 x 5 grid
RING = (7, 8, 9, 12, 14, 17, 18, 19)  # the deserts around it


def grid_world(
    *,
    deserts: tuple[int, ...] = (PYRAMID, *RING),
    armies: tuple[ArmyState, ...] = (),
    terrain: dict[int, str] | None = None,
    settlements: dict[int, str] | None = None,
    player_count: int = 4,
    turn: int = 1,
    controller: dict[int, int] | None = None,
) -> World:
    """A 5 x 5 grid (corner to corner adjacent) with the pyramid in the middle, its desert held by
    the Ancient Dead, plains elsewhere unless told; the Ancient Dead's Capitol Garrison at the pyramid."""
    terrain = terrain or {}
    settlements = settlements or {}
    controller = controller or {}
    provinces = [
        wb.province(
            n,
            "desert" if n in deserts else terrain.get(n, "plains"),
            settlements.get(n, "none"),
            col=(n - 1) % 5,
            row=(n - 1) // 5,
            pyramid=n == PYRAMID,
            controller=DEAD if n in deserts else controller.get(n),
        )
        for n in range(1, 26)
    ]
    return wb.world(
        provinces=provinces,
        kingdoms=[
            wb.kingdom(AVALON, "Avalon", treasury=0, capitol=1),
            wb.kingdom(DEAD, "The Ancient Dead", ArmyType.ANCIENT_DEAD, capitol=PYRAMID),
        ],
        armies=armies,
        garrisons=[wb.garrison(90, DEAD, PYRAMID, 2000, name="Capitol Garrison")],
        adjacency=wb.grid(5),
        turn=turn,
        player_count=player_count,
    )


def host(id: int, province: int, **changes: object) -> ArmyState:
    return wb.army(id, DEAD, province, 2000, name=f"Host {id}", **changes)


def resolve(
    world: World, *orders: ArmyOrder, dice: list[int] | None = None, rise: list[int] | None = None
) -> Resolution:
    """One turn's orders: the Ancient Dead's computed unless `orders` are given."""
    given = {o.army: o for o in (orders or ancient_dead_orders(world))}
    state = TurnState(world=world, orders=given, sheets={DEAD: SheetEntries(orders=tuple(given.values()))})
    return resolve_orders(state, wb_dice(dice), None if rise is None else ScriptedDice(faces=rise))


def wb_dice(faces: list[int] | None) -> ScriptedDice:
    return ScriptedDice(faces=faces or [])


def codes(resolution: Resolution) -> list[EventCode]:
    return [e.code for e in resolution.events]


# --- AD1: the Army Table ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("players", "held", "armies"),
    [(2, 5, 1), (2, 6, 2), (3, 10, 3), (4, 9, 3), (5, 9, 4), (8, 9, 4), (1, 6, 2)],
)
def test_case_AD1_the_army_table_gives_their_armies_by_players_and_provinces(players, held, armies) -> None:
    """The Ancient Dead: Armies, Army Table: the starting army and one more for every 6 (2 players),
    5 (3), 4 (4) or 3 (5+) provinces they hold, rounded down (decision 100)."""
    assert ANCIENT_DEAD_ARMY_TABLE == {2: 6, 3: 5, 4: 4, 5: 3}
    assert ancient_dead_army_count(player_count=players, provinces_held=held) == armies


def test_case_AD1_the_armies_of_their_table_rise_in_random_deserts_next_to_the_land() -> None:
    """The Ancient Dead: Setup, Armies: four players, nine deserts held: three armies. With the
    First Host at the pyramid, two more rise, each in a random desert next to a non-desert province
    (a D8, then a D7 over those left), at a starting army's points, their lists not wanted."""
    world = grid_world(armies=(host(1, PYRAMID),), turn=0).working_copy()
    assert rising_provinces(world) == list(RING)
    dice = ScriptedDice(faces=[3, 1])
    events = ancient_dead_rise(world, dice, "setup")

    risen = sorted((a for a in world.armies.values() if a.id < 0), key=lambda a: -a.id)
    assert [(a.province, a.size, a.created_turn, a.list_due) for a in risen] == [(9, 2000, 0, True), (7, 2000, 0, True)]
    assert [r.expression for r in dice.rolls] == ["D8", "D7"] and dice.unused == []
    assert [e.code for e in events] == [EventCode.ANCIENT_DEAD_RISEN] * 2
    # Safe twice: the armies there count.
    assert ancient_dead_rise(world, ScriptedDice(faces=[]), "setup") == []


# --- AD2: their size in battle -----------------------------------------------------------------


def test_case_AD2_an_ancient_dead_army_is_250_points_less_than_its_opponent_after_supports() -> None:
    """The Ancient Dead: Armies: "always 250 points less than the army they are facing (after all
    supports are calculated)": Avalon's 1,600 points with a 200-point detachment from an adjacent
    army face 1,550 points of the Ancient Dead; their garrisons keep their size."""
    world = grid_world(
        armies=(
            host(1, 8),
            wb.army(10, AVALON, 3, 1600),
            wb.army(11, AVALON, 4, 1500),
        ),
        controller={3: AVALON, 4: AVALON},
    )
    resolution = resolve(
        world,
        ArmyOrder(1, OrderKind.MOVE, target=3),
        ArmyOrder(10, OrderKind.HOLD),
        ArmyOrder(11, OrderKind.SUPPORT, support=3),
        dice=[4],  # the detachment's Support Arrival: on time
    )
    (battle,) = resolution.battles
    assert [(s.army, s.points) for s in battle.supports] == [(11, 200)]
    assert battle.ancient_dead_points == 1600 + 200 - 250
    (size,) = [e for e in resolution.events if e.code == EventCode.ANCIENT_DEAD_SIZE]
    assert size.data == {"side": "attacker", "points": 1550, "facing": 1800}
    assert any("250 less than the 1,800 points it faces after supports" in note for note in battle.notes)

    # A desert's garrison keeps its 1,000 points; it is not an army of the Ancient Dead.
    garrison = province_garrison(TurnState(world=world), 8)
    assert garrison is not None and garrison.points == DESERT_GARRISON_POINTS and garrison.desert


def test_case_AD2_their_armies_never_support_each_other() -> None:
    """The Ancient Dead: Armies: "The armies of the Ancient Dead cannot support each other"."""
    world = grid_world(armies=(host(1, 8), host(2, 9), wb.army(10, AVALON, 3, 1500)), controller={3: AVALON})
    resolution = resolve(world, ArmyOrder(1, OrderKind.MOVE, target=3), ArmyOrder(2, OrderKind.SUPPORT, support=3))
    (battle,) = resolution.battles
    assert battle.supports == [] and battle.ancient_dead_points == 1500 - 250
    refused = [e for e in resolution.events if e.code == EventCode.SUPPORT_REFUSED]
    assert [e.data["reason"] for e in refused] == ["ancient-dead"]


# --- AD3: the desert spreads -------------------------------------------------------------------


def test_case_AD3_plains_turn_to_desert_after_one_turn_and_a_forest_takes_two() -> None:
    """The Ancient Dead: Movement: an army that enters an unoccupied plains province turns it to
    desert by the end of the turn; a forest becomes plains after one turn and desert after another
    (the army stands there reciting: its computed order holds)."""
    world = grid_world(armies=(host(1, 8), host(2, 12)), terrain={11: "forest"})
    first = resolve(world, ArmyOrder(1, OrderKind.MOVE, target=3), ArmyOrder(2, OrderKind.MOVE, target=11))
    after = first.state.world
    assert after.provinces[3].terrain is Terrain.DESERT and after.provinces[3].controller == DEAD
    assert after.provinces[11].terrain is Terrain.PLAINS and after.provinces[11].controller == DEAD
    assert codes(first).count(EventCode.DESERT_SPREAD) == 1 and codes(first).count(EventCode.INCANTATION) == 1

    second_world = replace(after, turn=2)
    orders = {o.army: o for o in ancient_dead_orders(second_world)}
    assert orders[2].kind is OrderKind.HOLD  # it stays until the forest is desert
    second = resolve(second_world)
    assert second.state.world.provinces[11].terrain is Terrain.DESERT


def test_case_AD3_a_town_turned_to_desert_is_sacked_and_becomes_ruins() -> None:
    """The Ancient Dead: Deserts: "Any town or city in a province which becomes a Desert will be
    considered Sacked and turned into Ruins" with a 150-point garrison and no Scarab Amulet; razed
    land turns in one turn."""
    world = grid_world(armies=(host(1, 8), host(2, 12)), settlements={3: "town"}, terrain={11: "forest"})
    world.provinces[11] = replace(world.provinces[11], razed=True)
    resolution = resolve(world, ArmyOrder(1, OrderKind.MOVE, target=3), ArmyOrder(2, OrderKind.MOVE, target=11))
    provinces = resolution.state.world.provinces
    assert (provinces[3].terrain, provinces[3].settlement) == (Terrain.DESERT, Settlement.RUINS)
    assert (provinces[11].terrain, provinces[11].razed) == (Terrain.DESERT, False)
    (ruins,) = [e for e in resolution.events if e.code == EventCode.DESERT_RUINS]
    assert "150-point garrison and no Scarab Amulet" in ruins.text


def test_case_AD3_no_incantation_where_they_fight() -> None:
    """Movement: entering an occupied province they attack the occupants; the land turns only once
    they stand there unopposed (after winning, the next turn)."""
    world = grid_world(armies=(host(1, 8), wb.army(10, AVALON, 3, 1500)), controller={3: AVALON})
    resolution = resolve(world, ArmyOrder(1, OrderKind.MOVE, target=3), ArmyOrder(10, OrderKind.HOLD))
    assert len(resolution.battles) == 1
    assert resolution.state.world.provinces[3].terrain is Terrain.PLAINS
    assert EventCode.DESERT_SPREAD not in codes(resolution)


# --- AD4: the deserts --------------------------------------------------------------------------


def test_case_AD4_deserts_pay_no_tax_bar_forced_marches_and_keep_a_garrison_that_never_supports() -> None:
    """The Ancient Dead: Deserts: no taxes; no Forced March through a desert; each desert has a
    1,000-point garrison of the Ancient Dead that never leaves and never supports."""
    world = grid_world(armies=(wb.army(10, AVALON, 2, 1500),), controller={2: AVALON, 3: AVALON})
    world.provinces[3] = replace(world.provinces[3], terrain=Terrain.DESERT)
    taxes = tax_tally(world, AVALON)
    assert taxes.taxes == tax_tally(replace(world, provinces={2: world.provinces[2]}), AVALON).taxes > 0

    check = order_sheet_check(
        SheetEntries(orders=(ArmyOrder(10, OrderKind.FORCED_MARCH, path=(3, 4)),)),
        order_sheet_context(world, AVALON),
    )
    assert "forced-march-desert" in [p.code.value for p in check.error_problems]

    garrison = province_garrison(TurnState(world=world), 8)
    assert garrison is not None and (garrison.points, garrison.desert) == (1000, True)
    # It never supports: an Avalon army attacked next to it gets nothing from it.
    attacked = grid_world(armies=(host(1, 8), wb.army(10, AVALON, 3, 1500)), controller={3: AVALON})
    (battle,) = resolve(attacked, ArmyOrder(1, OrderKind.MOVE, target=3), ArmyOrder(10, OrderKind.HOLD)).battles
    assert battle.supports == [] and battle.garrison_points == 0


def test_a_host_crossing_a_desert_another_kingdom_took_from_them_takes_it_back() -> None:
    """The Ancient Dead: Deserts ("Each Desert province contains a 1000 point Ancient Dead garrison")
    and 5. Executing Orders, Move ("If there are no enemy armies in the province, then you may control
    it"): Avalon took the desert 8 from them and left it; host 2, crossing its desert from the pyramid
    towards 4, enters 8 and meets no enemy there (the garrison is theirs): it takes the desert back,
    with no battle. Before, the garrison "did not fight it", and the host stood in Avalon's desert
    taking nothing: their Army Table never counted it again."""
    world = grid_world(armies=(host(1, PYRAMID), host(2, PYRAMID)))
    world.provinces[8] = replace(world.provinces[8], controller=AVALON)

    resolution = resolve(world)  # their computed orders: host 1 into 7, host 2 into 8

    assert resolution.state.armies[2].province == 8
    assert resolution.battles == [] and EventCode.NO_BATTLE not in codes(resolution)
    assert resolution.state.provinces[8].controller == DEAD
    assert [(e.kingdom, e.province) for e in resolution.events if e.code == EventCode.PROVINCE_LOST] == [(AVALON, 8)]
    onwards = {o.army: o.target for o in ancient_dead_orders(replace(resolution.state.world, turn=2))}
    assert onwards == {1: 3, 2: 4}


# --- AD5: rising again -------------------------------------------------------------------------


def test_case_AD5_a_destroyed_army_rises_in_a_random_desert_next_to_the_land_and_holds() -> None:
    """The Ancient Dead: Armies: "If an Ancient Dead army is destroyed, a new one will rise ... in a
    random Desert province that is adjacent to a non-Desert province", unable to move that turn.
    Two players, nine deserts: two armies allowed; one was destroyed, so one rises (a D8 over the
    eight deserts next to the land: 5 is 14). The pyramid, in the middle of the desert, is never one."""
    world = grid_world(armies=(host(1, 7),), player_count=2, turn=3)
    resolution = resolve(world, ArmyOrder(1, OrderKind.HOLD), rise=[5])
    (risen,) = [a for a in resolution.state.armies.values() if a.kingdom == DEAD and a.id != 1]
    assert (risen.province, risen.created_turn) == (14, 3)
    assert resolution.state.orders[risen.id].kind is OrderKind.HOLD
    (event,) = [e for e in resolution.events if e.code == EventCode.ANCIENT_DEAD_RISEN]
    assert "cannot move this turn" in event.text
    assert PYRAMID not in rising_provinces(world)


def test_they_rise_no_more_once_returned_to_the_tomb() -> None:
    """Return to the Tomb: their capitol taken (the Warlord with its garrison), they stop: no orders,
    no risings, no incantations (decision 108)."""
    world = grid_world(armies=(host(1, 3),), player_count=2, turn=5)
    world.provinces[PYRAMID] = replace(world.provinces[PYRAMID], controller=AVALON)
    assert ancient_dead_orders(world) == ()
    resolution = resolve(world, ArmyOrder(1, OrderKind.HOLD), rise=[])
    assert resolution.state.world.provinces[3].terrain is Terrain.PLAINS
    assert not {EventCode.ANCIENT_DEAD_RISEN, EventCode.DESERT_SPREAD} & set(codes(resolution))


# --- Computed orders ---------------------------------------------------------------------------


def test_the_circular_pattern_takes_the_nearest_ring_clockwise_from_north() -> None:
    """Decision 104: ring by ring from the pyramid; in the ring, the province nearest the army, then
    clockwise from north around the pyramid."""
    world = grid_world(armies=(host(1, 7), host(2, 19)))
    orders = {o.army: o for o in ancient_dead_orders(world)}
    # Ring 2 is all of the grid's edge. Host 1 at 7 reaches 1, 2, 3, 6, 11 in one step: clockwise
    # from north around the pyramid (col 2, row 2), 3 is due north (angle 0): it goes there.
    assert (orders[1].kind, orders[1].target) == (OrderKind.MOVE, 3)
    # Host 2 at 19 reaches 15, 20, 25, 24, 23: 15 (east-north-east) comes first clockwise from north.
    assert (orders[2].kind, orders[2].target) == (OrderKind.MOVE, 15)


def test_from_the_pyramid_they_cross_their_desert_one_province_a_turn() -> None:
    """All around the pyramid is desert: the army moves one province a turn through it towards the
    ring's first province, never a Forced March; two armies never take the same province."""
    world = grid_world(armies=(host(1, PYRAMID), host(2, PYRAMID)))
    orders = ancient_dead_orders(world)
    assert all(o.kind is OrderKind.MOVE for o in orders)
    # Host 1 makes for 3 (due north) through 7; host 2 for the next clockwise, 4, through 8.
    assert [o.target for o in orders] == [7, 8]
    after = resolve(world).state.world
    second = {o.army: o.target for o in ancient_dead_orders(replace(after, turn=2))}
    assert second == {1: 3, 2: 4}


def test_the_computed_orders_are_the_same_for_the_same_state() -> None:
    world = grid_world(armies=(host(1, PYRAMID), host(2, 9), host(3, 17)))
    assert ancient_dead_orders(world) == ancient_dead_orders(world.working_copy())


# --- Ten turns of the demo campaign's map, nobody opposing them -------------------------------------


def demo_map_world() -> World:
    spec = load_default_map()
    provinces = [
        wb.province(
            p.number,
            p.terrain,
            p.settlement,
            name=p.name,
            col=p.col,
            row=p.row,
            pyramid=p.pyramid,
            controller=DEAD if p.terrain == "desert" else None,
        )
        for p in spec.provinces
    ]
    pyramid = next(p.number for p in spec.provinces if p.pyramid)
    return wb.world(
        provinces=provinces,
        kingdoms=[wb.kingdom(DEAD, "The Ancient Dead", ArmyType.ANCIENT_DEAD, capitol=pyramid)],
        armies=[host(1, pyramid)],
        garrisons=[wb.garrison(90, DEAD, pyramid, 2000, name="Capitol Garrison")],
        adjacency={p.number: spec.neighbours(p.number) for p in spec.provinces},
        player_count=4,
    )


def test_ten_turns_of_the_demo_map_the_desert_grows_as_the_movement_rules_say() -> None:
    """Nobody opposes them for ten turns on the demo campaign's map: each turn every army moves one
    province (or stays reciting), no province is turned that no army stood in, plains turn in one
    turn and other land in two, the desert only grows, ring by ring, and the same seed gives the
    same desert."""

    def play() -> list[frozenset[int]]:
        world = demo_map_world()
        pyramid = 41
        # Setup: the armies of their Army Table rise before turn 1 (kingdoms.services.ancient_dead).
        world = replace(world, turn=0).working_copy()
        ancient_dead_rise(world, SeededDice(seed="demo", stream="setup"), "setup")
        deserts = [frozenset(n for n, p in world.provinces.items() if p.terrain is Terrain.DESERT)]
        for turn in range(1, 11):
            world = replace(world, turn=turn)
            before = world
            orders = ancient_dead_orders(world)
            state = TurnState(world=world, orders={o.army: o for o in orders})
            resolution = resolve_orders(
                state, SeededDice(seed="demo", stream="turn"), SeededDice(seed="demo", stream="ancient")
            )
            world = resolution.state.world
            now = frozenset(n for n, p in world.provinces.items() if p.terrain is Terrain.DESERT)
            assert deserts[-1] <= now  # it only grows
            stood = {a.province for a in world.armies.values() if a.kingdom == DEAD}
            for number in now - deserts[-1]:
                assert number in stood  # an army stood there
                was = before.provinces[number]
                assert was.terrain is Terrain.PLAINS or was.razed  # other land is plains first
            for order in orders:
                army = before.armies[order.army]
                if order.kind is OrderKind.MOVE:
                    assert order.target is not None and before.adjacent(army.province, order.target)
                else:
                    assert order.kind is OrderKind.HOLD
            # Ring by ring: nothing turned two rings farther out than the nearest land left.
            from rulebook.ancient_dead.armies import distances

            ring = distances(world.adjacency, pyramid)
            land = [ring[n] for n in world.provinces if n not in deserts[-1]]
            assert all(ring[n] <= min(land) + 1 for n in now - deserts[-1])
            deserts.append(now)
        return deserts

    growth = play()
    assert growth == play()
    added = [len(b - a) for a, b in zip(growth, growth[1:], strict=False)]
    assert sum(added) >= 15 and added[0] >= 1  # the first province turns on turn 1


def test_two_armies_rising_where_one_desert_is_left_take_different_names() -> None:
    """Armies: with one desert next to the land left, every army rising that turn rises there (no
    roll); army names stay unique within the kingdom. Five players, three provinces held: two armies."""
    world = wb.world(
        provinces=[
            wb.province(1, controller=DEAD),
            wb.province(2, "desert", controller=DEAD),
            wb.province(3, "desert", pyramid=True, controller=DEAD),
        ],
        kingdoms=[wb.kingdom(DEAD, "The Ancient Dead", ArmyType.ANCIENT_DEAD, capitol=3)],
        adjacency=wb.edges([(1, 2), (2, 3)], [1, 2, 3]),
        player_count=5,
        turn=2,
    ).working_copy()
    assert rising_provinces(world) == [2]
    events = ancient_dead_rise(world, ScriptedDice(faces=[]), "ancient-dead")
    assert [(a.province, a.name) for a in sorted(world.armies.values(), key=lambda a: -a.id)] == [
        (2, "Host risen in P2, turn 2"),
        (2, "Host risen in P2, turn 2 (2)"),
    ]
    assert len(events) == 2
