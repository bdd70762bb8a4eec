"""The whole pure pipeline (rulebook/turn/pipeline.py): phases in the rulebook's order,
determinism, rule case C3 at resolution, and Fortify from the orders to the battle (R3, R12)."""

import dataclasses

from kernel.dice import ScriptedDice, SeededDice
from rulebook.tables import ArmyType
from rulebook.turn.pipeline import resolve_orders
from rulebook.turn.state import TurnState
from rulebook.turn.write_orders.records import ArmyOrder, OrderKind, SheetEntries, UpgradeArmy
from rulebook.world import ArmyState, World
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


# Fortify across the phases: 5. Executing Orders, then 6. Fight Battles -------------------------


def fortify_world(turn: int, *armies: ArmyState, fortified: tuple[int, ...] = ()) -> World:
    """A 4 x 4 grid of plains; kingdom 1 holds 5-7, kingdom 2 holds 9-11. No army forages (all
    have their supply depots) and the armies are of one size (no Guerrilla Tactics)."""
    return wb.world(
        provinces=[
            wb.province(
                n, controller=1 if n in (5, 6, 7) else 2 if n in (9, 10, 11) else None, fortified=n in fortified
            )
            for n in range(1, 17)
        ],
        kingdoms=[wb.kingdom(1, "K1", ArmyType.EMPIRE), wb.kingdom(2, "K2", ArmyType.DWARFS)],
        armies=armies,
        adjacency=wb.grid(4),
        turn=turn,
        player_count=2,
    )


def orders(*given: ArmyOrder) -> dict[int, ArmyOrder]:
    return {o.army: o for o in given}


def test_case_R3_a_fortified_army_moves_away_and_the_army_attacked_there_next_turn_is_not_fortified():
    """Fortify: "All Fortification bonuses are lost when the Fortified army moves away." Turn 3: the
    fortified A1 moves out of 6 and A2 moves in; turn 4: B1 attacks A2 in 6: no +200 points, no
    Defended Obstacles roll, no choice of table sides for A2."""
    world = fortify_world(
        3,
        wb.army(1, 1, 6, name="A1", fortified_in=6),
        wb.army(2, 1, 5, name="A2"),
        wb.army(3, 2, 10, name="B1"),
        fortified=(6,),
    )
    first = TurnState(
        world=world,
        orders=orders(ArmyOrder(1, OrderKind.MOVE, target=7), ArmyOrder(2, OrderKind.MOVE, target=6)),
    )
    resolution = resolve_orders(first, ScriptedDice(faces=[]))
    assert (resolution.state.armies[1].province, resolution.state.armies[2].province) == (7, 6)
    assert not resolution.state.provinces[6].fortified  # the map no longer shows it
    assert [e.text for e in resolution.events if e.code == "fortification-lost"] == [
        "The fortifications of 6 P6 are lost: A1 moved away (Fortify)."
    ]

    second = TurnState(
        world=dataclasses.replace(resolution.state.world, turn=4),
        orders=orders(ArmyOrder(3, OrderKind.MOVE, target=6)),
    )
    dice = ScriptedDice(faces=[])
    (battle,) = resolve_orders(second, dice).battles
    assert (battle.attacker_army, battle.defender_army) == (3, 2)
    assert (battle.fortified_points, battle.defended_obstacles) == (0, None)
    assert dice.rolls == []  # no Defended Obstacles roll
    assert not any("fortified" in note for note in battle.notes)


def test_case_R3_the_army_that_fortified_the_province_and_stayed_defends_it_fortified():
    """The same province while the Fortified army stays: its bonuses stand, turn after turn."""
    world = fortify_world(4, wb.army(1, 1, 6, name="A1", fortified_in=6), wb.army(3, 2, 10, name="B1"), fortified=(6,))
    state = TurnState(world=world, orders=orders(ArmyOrder(3, OrderKind.MOVE, target=6)))
    (battle,) = resolve_orders(state, ScriptedDice(faces=[5])).battles
    assert (battle.defender_army, battle.fortified_points, battle.defended_obstacles) == (1, 200, 3)


def test_case_R12_an_army_attacked_this_turn_fortifies_and_defends_that_battle_fortified():
    """Fortify: "If an army is given the Fortify order and was not in a battle the previous turn,
    then it may spend the turn fortifying the province." 5. Executing Orders comes before 6. Fight
    Battles: A1 (its last battle two turns ago) fortifies 6 and defends B1's attack fortified: +200
    points of core troops, the Defended Obstacles roll, and it chooses its table side(s)."""
    world = fortify_world(4, wb.army(1, 1, 6, name="A1", last_battle_turn=2), wb.army(3, 2, 10, name="B1"))
    state = TurnState(
        world=world, orders=orders(ArmyOrder(1, OrderKind.FORTIFY), ArmyOrder(3, OrderKind.MOVE, target=6))
    )
    dice = ScriptedDice(faces=[4])
    resolution = resolve_orders(state, dice)
    assert resolution.state.provinces[6].fortified and resolution.state.armies[1].fortified_in == 6
    assert "fortify-after-battle" not in [e.code for e in resolution.events]
    (battle,) = resolution.battles
    assert (battle.defender_army, battle.fortified_points, battle.defended_obstacles) == (1, 200, 2)
    assert [r.purpose for r in dice.rolls] == ["A1: defended obstacles in 6 P6"]
    assert any("chooses table side(s) after terrain" in note for note in battle.notes)


def test_case_R12_an_army_in_a_battle_last_turn_acts_as_if_given_hold():
    """Fortify: "If an army was given Fortify orders and was in a battle the last turn, it acts as if
    it were given Hold orders": attacked again, it defends unfortified."""
    world = fortify_world(4, wb.army(1, 1, 6, name="A1", last_battle_turn=3), wb.army(3, 2, 10, name="B1"))
    state = TurnState(
        world=world, orders=orders(ArmyOrder(1, OrderKind.FORTIFY), ArmyOrder(3, OrderKind.MOVE, target=6))
    )
    dice = ScriptedDice(faces=[])
    resolution = resolve_orders(state, dice)
    assert not resolution.state.provinces[6].fortified
    assert [e.text for e in resolution.events if e.code == "fortify-after-battle"] == [
        "A1 was in a battle last turn (turn 3): it cannot fortify 6 P6 this turn and holds (Fortify)."
    ]
    (battle,) = resolution.battles
    assert (battle.fortified_points, battle.defended_obstacles, dice.rolls) == (0, None, [])


# Multiple Moves into Battle through the orders phase and the aftermath (the fuzz harness's finding) ----


def test_a_move_held_by_multiple_moves_leaves_no_three_kingdoms_and_the_aftermath_passes_the_sanity_check():
    """Multiple Moves into Battle: "Three or more armies from three or more unallied kingdoms cannot
    occupy the same map section" (decision 576). A 3 x 3 grid. K1's army 1 leaves 5 for 6; K2's army
    2 and K3's army 3 move into 5. Into 6, held by K2's army 4, move army 1 and K3's army 5: army 1
    (1) loses to army 5 (6) and holds in 5, so armies 2 and 3 roll again for 5: army 3 (2) holds. One
    battle in 5, one in 6, and whichever side wins in 5 the aftermath leaves no unallied kingdoms
    together without a battle. (It left K1, K2 and K3 in 5, two battles against army 1, and both
    victors beside each other with no battle: the sanity check rolled the phase back every time.)"""
    from dataclasses import replace

    from kernel.event_codes import EventCode
    from rulebook.sanity import world_problems
    from rulebook.turn.aftermath.results import BattleResult, Outcome, SideOutcome, mirror
    from rulebook.turn.aftermath.run import resolve_aftermath
    from rulebook.turn.aftermath.sheets import BattleA, SideA
    from rulebook.turn.aftermath.state import AftermathState

    types = {1: ArmyType.EMPIRE, 2: ArmyType.DWARFS, 3: ArmyType.ORCS_AND_GOBLINS}
    world = wb.world(
        provinces=[wb.province(n) for n in range(1, 10)],
        kingdoms=[wb.kingdom(k, f"K{k}", t, treasury=0) for k, t in types.items()],
        armies=[wb.army(1, 1, 5), wb.army(2, 2, 4), wb.army(3, 3, 2), wb.army(4, 2, 6), wb.army(5, 3, 9)],
        adjacency=wb.grid(3),
        turn=2,
        player_count=3,
    )
    given = orders(
        ArmyOrder(1, OrderKind.MOVE, target=6),
        ArmyOrder(2, OrderKind.MOVE, target=5),
        ArmyOrder(3, OrderKind.MOVE, target=5),
        ArmyOrder(5, OrderKind.MOVE, target=6),
    )
    sheets = {
        k: SheetEntries(orders=tuple(o for o in given.values() if world.armies[o.army].kingdom == k)) for k in types
    }
    dice = ScriptedDice(faces=[1, 6, 5, 2])  # into 6: army 1, army 5; into 5 again: army 2, army 3
    result = resolve_orders(TurnState(world=world, orders=given, sheets=sheets), dice)
    assert dice.unused == []
    armies = result.state.armies
    assert sorted(a.kingdom for a in armies.values() if a.province == 5) == [1, 2]
    assert [(b.province, b.attacker_army, b.defender_army) for b in result.battles] == [(5, 2, 1), (6, 5, 4)]
    assert world_problems(result.state.world, battle_provinces=frozenset(b.province for b in result.battles)) == []

    came_from = {e.army: e.data["from"] for e in result.events if e.code == EventCode.MOVED}
    for in_5 in (BattleResult.MINOR_VICTORY, BattleResult.MINOR_LOSS):
        battles = [
            BattleA(
                i,
                b.province,
                SideA(kingdom=b.attacker_kingdom, army=b.attacker_army),
                SideA(kingdom=b.defender_kingdom, army=b.defender_army),
                Outcome(SideOutcome(r), SideOutcome(mirror(r))),
            )
            for i, (b, r) in enumerate(zip(result.battles, (in_5, BattleResult.DRAW), strict=True), start=1)
        ]
        after = resolve_aftermath(AftermathState(world=result.state.world, battles=battles, came_from=came_from), dice)
        assert dice.unused == []
        live = {i: a for i, a in after.state.world.armies.items() if not a.disbanded}
        assert world_problems(replace(after.state.world, armies=live)) == []
