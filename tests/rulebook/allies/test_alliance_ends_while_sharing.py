"""An alliance that ends while the two allies' armies share a province (decisions 570, 571): the
orders, the battles and the aftermath chained with scripted dice and no database, each phase's
result read by the sanity check the services run after it (rulebook/sanity.py). Allied armies may
stand together (Allies: "Armies may move through their allies' province"); once the alliance ends,
"When two unallied armies occupy the same province, a combat occurs" (6. Fight Battles): this turn
when it ends before the moves (Allies: Raze, Invasion), the next turn when it ends after the battles
(Allies: Announcement, "During the next Campaign Turn, the rules for allies cease to apply"; Withdraw
of support). Rulebook: Allies; 5. Executing Orders; 6. Fight Battles (Multiple Moves into Battle);
7. Aftermath."""

from __future__ import annotations

from dataclasses import replace

from kernel.dice import ScriptedDice
from kernel.event_codes import EventCode
from rulebook.allies.chart import AllianceState, TrustLevel
from rulebook.sanity import world_problems
from rulebook.tables import ArmyType
from rulebook.turn.aftermath.results import BattleResult, Outcome, SideOutcome, mirror
from rulebook.turn.aftermath.run import AftermathResult, resolve_aftermath
from rulebook.turn.aftermath.sheets import BattleA, SideA
from rulebook.turn.aftermath.state import AftermathState
from rulebook.turn.pipeline import Resolution, resolve_orders
from rulebook.turn.state import TurnState
from rulebook.turn.write_orders.check import order_sheet_check
from rulebook.turn.write_orders.context import order_sheet_context
from rulebook.turn.write_orders.records import ArmyOrder, OrderKind, SheetEntries
from rulebook.world import World
from tests import world_builders as wb

# 1 2 3
# 4 5 6     a 3 x 3 grid of plains, corners adjacent
# 7 8 9
K1, K2, K3 = 1, 2, 3  # Empire, Dwarfs (K1's ally), Orcs & Goblins
TYPES = {K1: ArmyType.EMPIRE, K2: ArmyType.DWARFS, K3: ArmyType.ORCS_AND_GOBLINS}
ALLIANCE = AllianceState(id=7, first=K1, second=K2, trust=TrustLevel.TRUSTED, formed_turn=1)
EX_ALLIES = frozenset({K1, K2})


def world(armies, control=None, alliances=(ALLIANCE,), turn=2) -> World:
    w = wb.world(
        provinces=[wb.province(n, controller=(control or {}).get(n)) for n in range(1, 10)],
        kingdoms=[wb.kingdom(k, f"K{k}", t, treasury=0) for k, t in TYPES.items()],
        armies=armies,
        adjacency=wb.grid(3),
        turn=turn,
        player_count=3,
    )
    w.alliances.update({a.id: a for a in alliances})
    # As kingdoms.services.world loads them: a field army without a list has its list due.
    w.armies.update({i: replace(a, list_due=True) for i, a in w.armies.items()})
    return w


def orders(w: World, *given: ArmyOrder, faces=()) -> Resolution:
    """Resolve the orders as the services do, each kingdom's sheet accepted by the sheet check first."""
    sheets: dict[int, SheetEntries] = {}
    for o in given:
        k = w.armies[o.army].kingdom
        sheets[k] = SheetEntries(orders=(*sheets.get(k, SheetEntries()).orders, o))
    for k, entries in sheets.items():
        assert not order_sheet_check(entries, order_sheet_context(w, k)).error_problems
    dice = ScriptedDice(faces=list(faces))
    result = resolve_orders(TurnState(world=w, orders={o.army: o for o in given}, sheets=sheets), dice)
    assert dice.unused == []
    return result


def orders_problems(result: Resolution) -> list[str]:
    """The sanity check after the orders phase: the battles' provinces wait for their battles."""
    return world_problems(result.state.world, battle_provinces=frozenset(b.province for b in result.battles))


def fought(result: Resolution) -> list[tuple[int, int | None, int | None, bool]]:
    both = {c.province for c in result.contacts if c.both_moved}
    return [(b.province, b.attacker_army, b.defender_army, b.province in both) for b in result.battles]


def aftermath(result: Resolution, outcomes=(), withdrawn=None, announced=()) -> AftermathResult:
    """The aftermath as battles/services/aftermath_state.py loads it after the orders phase."""
    w = live(result.state.world)
    came_from = {e.army: e.data["from"] for e in result.events if e.code == EventCode.MOVED}
    both = {c.province for c in result.contacts if c.both_moved}
    battles = []
    for i, (b, attacker_result) in enumerate(zip(result.battles, outcomes, strict=True), start=1):
        sides = {
            side: SideA(
                kingdom=kingdom,
                army=army,
                supports=tuple(s.army for s in b.supports if s.side == side),
                withdrawn=tuple((withdrawn or {}).get((i, side), ())),
            )
            for side, army, kingdom in (
                ("attacker", b.attacker_army, b.attacker_kingdom),
                ("defender", b.defender_army, b.defender_kingdom),
            )
        }
        outcome = Outcome(SideOutcome(attacker_result), SideOutcome(mirror(attacker_result)))
        battles.append(
            BattleA(i, b.province, sides["attacker"], sides["defender"], outcome, both_moved=b.province in both)
        )
    state = AftermathState(world=w, battles=battles, came_from=came_from, announced_ends=tuple(announced))
    dice = ScriptedDice(faces=[])
    after = resolve_aftermath(state, dice)
    assert dice.unused == []
    return after


def live(w: World) -> World:
    return replace(w, armies={i: a for i, a in w.armies.items() if not a.disbanded})


def next_turn(w: World) -> World:
    return replace(live(w), turn=w.turn + 1)


def allies_sharing() -> Resolution:
    """Turn 2: K1's army 1 moves into its ally K2's province 5, where K2's army 2 holds: both stand
    in 5, no battle (Allies; decision 136), the sanity check passes. Army 3 (K1) waits in 1."""
    w = world(
        [wb.army(1, K1, 4), wb.army(2, K2, 5), wb.army(3, K1, 1)],
        control={1: K1, 4: K1, 5: K2, 2: K2},
    )
    result = orders(w, ArmyOrder(1, OrderKind.MOVE, target=5))
    assert [result.state.armies[1].province, result.state.armies[2].province] == [5, 5]
    assert result.battles == [] and orders_problems(result) == []
    return result


def test_razing_the_ally_s_province_both_stand_in_makes_them_fight_this_turn():
    """Allies, Raze: "An army can end an alliance by Razing an ally' province that it occupies. By
    Razing the province this way, the backstabber takes control of that province." Army 1 razes 5,
    where its ally's army 2 stands: two unallied armies in one province, "a combat occurs" this turn
    (decision 570). The backstabber now holds 5: its army defends it, army 2 attacks to win it back;
    army 2 wins, takes 5 (the victor keeps the province) and army 1 retreats home to 4."""
    result = orders(next_turn(allies_sharing().state.world), ArmyOrder(1, OrderKind.RAZE_HOLD))

    assert [e.data["how"] for e in result.events if e.code == EventCode.ALLIANCE_BROKEN] == ["raze", "raze"]
    assert fought(result) == [(5, 2, 1, False)]
    assert orders_problems(result) == []
    after = aftermath(result, outcomes=[BattleResult.MINOR_VICTORY])
    assert (after.state.armies[1].province, after.state.armies[2].province) == (4, 5)
    assert after.state.world.provinces[5].controller == K2
    assert world_problems(live(after.state.world)) == []


def test_an_invasion_elsewhere_makes_the_allies_sharing_a_province_fight_this_turn():
    """Allies, Invasion: army 3 takes K2's empty province 2; the alliance is broken before the moves
    (decision 137), and armies 1 and 2, which stay in 5, are unallied: they fight this turn. 5 is
    K2's: its army defends, the invader's attacks (decision 570). A draw sends the attacker away, to
    its home province 1, which army 3 left (7. Aftermath: it did not move, so home first)."""
    result = orders(next_turn(allies_sharing().state.world), ArmyOrder(3, OrderKind.MOVE, target=2, take_control=True))

    assert [e.data["how"] for e in result.events if e.code == EventCode.ALLIANCE_BROKEN] == ["invasion", "invasion"]
    assert fought(result) == [(5, 1, 2, False)]
    assert orders_problems(result) == []
    after = aftermath(result, outcomes=[BattleResult.DRAW])
    assert (after.state.armies[1].province, after.state.armies[2].province) == (1, 5)
    assert world_problems(live(after.state.world)) == []


def test_allies_sharing_a_province_that_part_as_the_alliance_breaks_do_not_fight():
    """The armies standing together once the moves are made fight (decision 570): army 1 razes 5 and
    moves on to 6 (Raze: a 3+), army 2 holds: nobody is left to fight."""
    result = orders(next_turn(allies_sharing().state.world), ArmyOrder(1, OrderKind.RAZE_MOVE, target=6), faces=[3])

    assert result.state.armies[1].province == 6 and result.battles == []
    assert orders_problems(result) == []


def test_an_end_announced_during_the_end_of_turn_leaves_them_together_until_the_next_turn_s_battle():
    """Allies, Announcement: "During the End of Campaign Turn, a player can announce that an alliance
    is broken. During the next Campaign Turn, the rules for allies cease to apply" (decision 385).
    K1 announces (or both do: cancelled) in the End of Turn of the turn its army moved in beside its
    ally's: the two still stand in 5 after the aftermath, which the sanity check accepts for an
    alliance the aftermath ended; in the next turn's orders neither moves out, and they fight: K2's
    army defends its province, K1's attacks (decision 570)."""
    for announced in (((K1, K2),), ((K1, K2), (K2, K1))):
        after = aftermath(allies_sharing(), announced=announced)
        assert after.state.world.alliances == {}
        sharing = live(after.state.world)
        assert (sharing.armies[1].province, sharing.armies[2].province) == (5, 5)
        assert world_problems(sharing, ended_after_the_battles={EX_ALLIES}) == []
        assert world_problems(sharing) == ["Armies of K1 and K2 stand in 5 P5 with no battle between them."]

        result = orders(next_turn(after.state.world))
        assert fought(result) == [(5, 1, 2, False)]
        assert orders_problems(result) == []


def test_after_an_end_announced_one_army_moving_out_leaves_nobody_to_fight_and_a_third_kingdom_holds():
    """The next turn's orders decide (decision 570): army 2 moves out of 5 to 6, army 1 stays: no
    battle. Had both stayed, K3's army 9 moving into 5 would have made three unallied kingdoms there:
    Multiple Moves into Battle (B5): two sides stand there already, so it holds with no roll (no roll
    could let it in), and the two ex-allies fight."""
    after = aftermath(allies_sharing(), announced=((K2, K1),))
    w = next_turn(after.state.world)
    parted = orders(w, ArmyOrder(2, OrderKind.MOVE, target=6))
    assert parted.battles == [] and orders_problems(parted) == []

    w.armies[9] = wb.army(9, K3, 9, list_due=True)
    crowded = orders(w, ArmyOrder(9, OrderKind.MOVE, target=5))
    assert [e.army for e in crowded.events if e.code == EventCode.MULTIPLE_MOVES] == [9]
    assert fought(crowded) == [(5, 1, 2, False)]
    assert orders_problems(crowded) == []


def test_a_withdrawal_of_support_while_the_allies_share_a_province_makes_them_fight_the_next_turn():
    """Allies, Withdraw of support (decision 220): army 1, in 5 beside its ally's army 2, supports
    K2's army 4 attacked in 6 by K3's army 9 and withdraws mid-battle: the aftermath breaks the
    alliance; armies 1 and 2 stand in 5 until the next turn's orders, where they fight (decision 570)."""
    w = next_turn(allies_sharing().state.world)
    w.armies.update({4: wb.army(4, K2, 6, list_due=True), 9: wb.army(9, K3, 9, list_due=True)})
    result = orders(
        w,
        ArmyOrder(1, OrderKind.SUPPORT, support=6),
        ArmyOrder(9, OrderKind.MOVE, target=6),
        faces=[6],  # Alliance Support Arrival
    )
    assert [(s.army, s.side) for s in result.battles[0].supports] == [(1, "defender")]
    after = aftermath(result, outcomes=[BattleResult.MINOR_LOSS], withdrawn={(1, "defender"): (1,)})
    assert [e.data["how"] for e in after.events if e.code == EventCode.ALLIANCE_BROKEN] == ["withdrawal", "withdrawal"]
    assert world_problems(live(after.state.world), ended_after_the_battles={EX_ALLIES}) == []

    following = orders(next_turn(after.state.world))
    assert fought(following) == [(5, 1, 2, False)]
    assert orders_problems(following) == []


def test_ex_allies_in_a_third_kingdom_s_town_meet_and_its_own_army_holds_out_of_it():
    """K1's army 1 and K2's army 2, allies of under 1,000 points, stand in K3's town 5 (each won
    there and could not claim it: Army Restrictions). K1's army 3 takes K2's empty 1 (Invasion): the
    alliance is broken before the moves, and 5 holds three sides: K1, K2 and K3's garrison (decision
    372). K3's army 6 marching back into its town would make three armies of three unallied kingdoms
    there, which "cannot occupy the same map section" (Multiple Moves into Battle): it holds, no roll
    (decision 571). The ex-allies fight; neither holds 5, so neither defends: they meet as armies
    that moved in together (decision 570), and the garrison takes no part."""
    w = world(
        [wb.army(1, K1, 5, 900), wb.army(2, K2, 5, 900), wb.army(3, K1, 4), wb.army(6, K3, 6)],
        control={1: K2, 4: K1, 5: K3, 6: K3},
    )
    w.provinces[5] = replace(w.provinces[5], settlement=wb.province(5, settlement="town").settlement)
    assert world_problems(w) == []

    result = orders(
        w, ArmyOrder(3, OrderKind.MOVE, target=1, take_control=True), ArmyOrder(6, OrderKind.MOVE, target=5)
    )

    (held,) = [e for e in result.events if e.code == EventCode.MULTIPLE_MOVES]
    assert held.army == 6 and "three sides" in held.text and "K3's town garrison" in held.text
    assert result.state.armies[6].province == 6
    assert fought(result) == [(5, 1, 2, True)]
    assert orders_problems(result) == []
    after = aftermath(result, outcomes=[BattleResult.MINOR_VICTORY])
    assert after.state.world.provinces[5].controller == K3  # 900 points cannot claim it (Army Restrictions)
    assert world_problems(live(after.state.world)) == []
