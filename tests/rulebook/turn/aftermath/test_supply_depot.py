"""Supply Depot in the aftermath (rulebook/turn/aftermath/supply_depot.py), with scripted dice and no
database: a depot captured leaves its army without one, so it rolls on the Foraging Table the next
turn (2. Maintain Armies); a captured cart joins the captor's roster as a spare cart, which its army
can afford to lose with no penalty; a cart recaptured before the game ended is not lost.
Rulebook: Supply Depot; 2. Maintain Armies (Foraging Table); rule cases M1, M2."""

from __future__ import annotations

from dataclasses import replace

from kernel.dice import ScriptedDice
from kernel.event_codes import EventCode
from kernel.events import Event
from rulebook.turn.aftermath.results import BattleResult as R
from rulebook.turn.aftermath.sheets import DepotCapture
from rulebook.turn.maintain_armies import maintain_armies
from rulebook.turn.state import TurnState
from tests.rulebook.turn.aftermath.test_aftermath import AVALON, BRYTHON, GUARD, HOST, Scene, field_battle

GUARD_TAKEN_BY_HOST = DepotCapture(army=GUARD, by=HOST)


def depot_events(result) -> list[tuple[str, int | None, int | None]]:
    codes = {EventCode.DEPOT_LOST, EventCode.SPARE_CART_LOST, EventCode.DEPOT_CAPTURED, EventCode.CART_RECAPTURED}
    return [(e.code, e.kingdom, e.army) for e in result.events if e.code in codes]


def test_supply_depot_captured_leaves_the_army_without_one_and_it_forages_next_turn():
    """Supply Depot: "The Supply Depot is captured if the crew is killed / broken in combat ... and the
    unattended cart is touched by any enemy unit". 2. Maintain Armies: "Any army that does not have a
    Supply Depot at the start of its Maintain Armies phase must make a roll on the Foraging Table" (M2)."""
    world = Scene()
    field_battle(world, R.MINOR_VICTORY, attacker={"depots_captured": (GUARD_TAKEN_BY_HOST,)})
    result = world.run([])  # the Guard lost a minor loss: it is not wiped out and rolls nothing here

    guard, host = result.state.armies[GUARD], result.state.armies[HOST]
    assert guard.supply_depot is False and guard.spare_carts == 0
    assert host.supply_depot is True and host.spare_carts == 1  # decision 396: the cart is on its roster
    assert depot_events(result) == [
        (EventCode.DEPOT_LOST, BRYTHON, GUARD),
        (EventCode.DEPOT_CAPTURED, AVALON, HOST),
    ]
    lost = next(e for e in result.events if e.code == EventCode.DEPOT_LOST)
    assert "captured by Avalon: Army 10" in lost.text and "Foraging Table" in lost.text and "200 gold" in lost.text
    taken = next(e for e in result.events if e.code == EventCode.DEPOT_CAPTURED)
    assert "150 Victory Points" in taken.text

    # The next turn's 2. Maintain Armies: the Guard rolls 2D6 on the Foraging Table (7: no Forced
    # March); the Host, which kept its own depot, rolls nothing (M1).
    state = TurnState(world=result.state.world.working_copy())
    dice = ScriptedDice(faces=[3, 4])
    events: list[Event] = []
    maintain_armies(state, dice, events)
    assert [(r.expression, r.total, r.armies) for r in dice.rolls] == [("2D6", 7, (GUARD,))]
    assert [e.code for e in events] == [EventCode.FORAGING_NO_FORCED_MARCH]
    assert state.armies[GUARD].no_forced_march is True and state.armies[HOST].no_forced_march is False


def test_supply_depot_a_spare_cart_is_lost_without_penalty():
    """Supply Depot: "While troops do not gain an extra bonus from the captured Supply Depot(s), they
    can now afford to lose one of their carts with no penalties": the Guard carries a cart it captured
    before; the Host takes a cart: the spare goes, the Guard keeps its depot and does not forage."""
    world = Scene()
    field_battle(world, R.MINOR_VICTORY, attacker={"depots_captured": (GUARD_TAKEN_BY_HOST,)})
    world.armies[GUARD] = replace(world.armies[GUARD], spare_carts=1)
    result = world.run([])

    guard, host = result.state.armies[GUARD], result.state.armies[HOST]
    assert (guard.supply_depot, guard.spare_carts) == (True, 0)
    assert host.spare_carts == 1
    assert depot_events(result) == [
        (EventCode.SPARE_CART_LOST, BRYTHON, GUARD),
        (EventCode.DEPOT_CAPTURED, AVALON, HOST),
    ]
    assert "no penalty" in next(e.text for e in result.events if e.code == EventCode.SPARE_CART_LOST)

    state = TurnState(world=result.state.world.working_copy())
    dice = ScriptedDice(faces=[])  # any Foraging roll would exhaust the script
    maintain_armies(state, dice, [])
    assert dice.rolls == []


def test_supply_depot_a_spare_cart_does_not_spare_its_army_the_foraging_table():
    """Supply Depot: "troops do not gain an extra bonus from the captured Supply Depot(s)" (decision 396):
    the Host has no depot of its own; capturing the Guard's does not give it one, so it still forages."""
    world = Scene()
    field_battle(world, R.MINOR_VICTORY, attacker={"depots_captured": (GUARD_TAKEN_BY_HOST,)})
    world.armies[HOST] = replace(world.armies[HOST], supply_depot=False)
    result = world.run([])
    assert (result.state.armies[HOST].supply_depot, result.state.armies[HOST].spare_carts) == (False, 1)

    state = TurnState(world=result.state.world.working_copy())
    dice = ScriptedDice(faces=[5, 5, 3, 4])  # the Host: 10, the land provides; the Guard: 7
    maintain_armies(state, dice, [])
    assert [r.armies for r in dice.rolls] == [(HOST,), (GUARD,)]


def test_supply_depot_recaptured_before_the_game_ended_is_not_lost():
    """Supply Depot: "The Supply Depot is not lost if friendly forces manage to recapture the cart, just
    as they would capture a standard, before the game ends" (decision 397): the Guard's sheet reports
    its cart recaptured; the Host's capture of it is undone, and both kingdoms are told."""
    world = Scene()
    field_battle(
        world,
        R.MINOR_VICTORY,
        attacker={"depots_captured": (GUARD_TAKEN_BY_HOST,)},
        defender={"carts_recaptured": (GUARD,)},
    )
    result = world.run([])

    guard, host = result.state.armies[GUARD], result.state.armies[HOST]
    assert (guard.supply_depot, guard.spare_carts) == (True, 0)
    assert host.spare_carts == 0
    assert depot_events(result) == [
        (EventCode.CART_RECAPTURED, BRYTHON, GUARD),
        (EventCode.CART_RECAPTURED, AVALON, HOST),  # each kingdom's event names its own army
    ]
    assert all("not lost" in e.text for e in result.events if e.code == EventCode.CART_RECAPTURED)


def test_supply_depot_an_army_with_no_cart_left_loses_nothing_and_gives_nothing():
    """Supply Depot: only a cart on the table can be captured: an army that already lost its depot
    (and carries no spare) has none to give; the captor's roster gains nothing."""
    world = Scene()
    field_battle(world, R.MINOR_VICTORY, attacker={"depots_captured": (GUARD_TAKEN_BY_HOST,)})
    world.armies[GUARD] = replace(world.armies[GUARD], supply_depot=False)
    result = world.run([])
    assert result.state.armies[HOST].spare_carts == 0
    assert depot_events(result) == []
