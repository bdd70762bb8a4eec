"""The whole pure pipeline (orders/rules/resolution/pipeline.py): phases in the rulebook's order,
determinism, and rule case C3 at resolution."""

from kernel.dice import SeededDice
from kingdoms.rules.tables import ArmyType
from orders.rules.resolution.pipeline import resolve_orders
from orders.rules.resolution.state import TurnState
from orders.rules.sheets import ArmyOrder, OrderKind, SheetEntries, UpgradeArmy
from tests import world_builders as wb


def state() -> TurnState:
    provinces = [wb.province(n) for n in range(1, 17)]
    provinces[5] = wb.province(6, settlement="town", controller=1)
    provinces[10] = wb.province(11, controller=2)
    world = wb.world(
        provinces=provinces,
        kingdoms=[
            wb.kingdom(1, "K1", ArmyType.EMPIRE, treasury=1000, capitol=6),
            wb.kingdom(2, "K2", ArmyType.ORCS_AND_GOBLINS, treasury=1000),
        ],
        armies=[
            wb.army(1, 1, 6, 1200, name="A1", supply_depot=False),
            wb.army(2, 2, 11, 1500, name="B1"),
            wb.army(3, 2, 16, 1500, name="B2"),
        ],
        adjacency=wb.grid(4),
        turn=3,
        player_count=2,
    )
    return TurnState(
        world=world,
        orders={2: ArmyOrder(2, OrderKind.MOVE, target=7), 3: ArmyOrder(3, OrderKind.FORCED_MARCH, path=(12, 8))},
    )


def test_phases_run_in_the_rulebooks_order():
    resolution = resolve_orders(state(), SeededDice(seed="s", stream="t"))
    phases = [e.phase for e in resolution.events]
    first_seen = list(dict.fromkeys(phases))
    order = ["tally-gold", "maintain-armies", "orders"]
    assert [p for p in first_seen if p in order] == order


def test_the_same_state_and_seed_give_identical_results_and_the_input_is_untouched():
    original = state()
    a = resolve_orders(original, SeededDice(seed="seed-1", stream="turn"))
    b = resolve_orders(state(), SeededDice(seed="seed-1", stream="turn"))
    assert a.events == b.events
    assert a.state.armies == b.state.armies and a.state.provinces == b.state.provinces
    assert original.armies == state().armies and original.provinces == state().provinces


def test_case_C3_at_resolution_an_army_upgraded_this_turn_does_not_move():
    s = state()
    s.orders[1] = ArmyOrder(1, OrderKind.MOVE, target=7)
    s.sheets[1] = SheetEntries(orders=(s.orders[1],), upgrades=(UpgradeArmy(1, 1600),))
    resolution = resolve_orders(s, SeededDice(seed="x", stream="t"))
    assert resolution.state.armies[1].province == 6
    assert resolution.state.armies[1].size == 1600
    assert any(e.code == "order-illegal" and "may not move or support" in e.text for e in resolution.events)
