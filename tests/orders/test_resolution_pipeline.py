"""The whole pure pipeline (orders/rules/resolution/pipeline.py): phases in the rulebook's order,
determinism, and rule case C3 at resolution."""

from kernel.dice import SeededDice
from kingdoms.rules.tables import ArmyType
from orders.rules.resolution.pipeline import resolve_turn
from orders.rules.resolution.state import ArmyS, KingdomS, ProvinceS, TurnState
from orders.rules.sheets import ArmyOrder, OrderKind, SheetEntries, UpgradeArmy


def grid(n=4):
    pos = {i: ((i - 1) % n, (i - 1) // n) for i in range(1, n * n + 1)}
    return {
        a: frozenset(b for b in pos if b != a and abs(pos[a][0] - pos[b][0]) <= 1 and abs(pos[a][1] - pos[b][1]) <= 1)
        for a in pos
    }


def state() -> TurnState:
    provinces = {n: ProvinceS(number=n, name=f"P{n}", terrain="plains") for n in range(1, 17)}
    provinces[6].settlement = "town"
    provinces[6].controller = 1
    provinces[11].controller = 2
    armies = {
        1: ArmyS(id=1, kingdom=1, name="A1", province=6, points=1200, size=1200, supply_depot=False),
        2: ArmyS(id=2, kingdom=2, name="B1", province=11, points=1500, size=1500),
        3: ArmyS(id=3, kingdom=2, name="B2", province=16, points=1500, size=1500),
    }
    return TurnState(
        turn=3,
        player_count=2,
        provinces=provinces,
        adjacency=grid(),
        kingdoms={
            1: KingdomS(1, "K1", ArmyType.EMPIRE, 1000, capitol=6),
            2: KingdomS(2, "K2", ArmyType.ORCS_AND_GOBLINS, 1000),
        },
        armies=armies,
        orders={2: ArmyOrder(2, OrderKind.MOVE, target=7), 3: ArmyOrder(3, OrderKind.FORCED_MARCH, path=(12, 8))},
    )


def test_phases_run_in_the_rulebooks_order():
    resolution = resolve_turn(state(), SeededDice(seed="s", stream="t"))
    phases = [e.phase for e in resolution.events]
    first_seen = list(dict.fromkeys(phases))
    order = ["tally-gold", "maintain-armies", "orders"]
    assert [p for p in first_seen if p in order] == order


def test_the_same_state_and_seed_give_identical_results_and_the_input_is_untouched():
    original = state()
    a = resolve_turn(original, SeededDice(seed="seed-1", stream="turn"))
    b = resolve_turn(state(), SeededDice(seed="seed-1", stream="turn"))
    assert a.events == b.events
    assert a.state.armies == b.state.armies and a.state.provinces == b.state.provinces
    assert original.armies == state().armies and original.provinces == state().provinces


def test_case_C3_at_resolution_an_army_upgraded_this_turn_does_not_move():
    s = state()
    s.orders[1] = ArmyOrder(1, OrderKind.MOVE, target=7)
    s.sheets[1] = SheetEntries(orders=(s.orders[1],), upgrades=(UpgradeArmy(1, 1600),))
    resolution = resolve_turn(s, SeededDice(seed="x", stream="t"))
    assert resolution.state.armies[1].province == 6
    assert resolution.state.armies[1].size == 1600
    assert any(e.code == "order-illegal" and "may not move or support" in e.text for e in resolution.events)
