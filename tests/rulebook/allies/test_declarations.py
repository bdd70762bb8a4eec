"""Allies in the turn's resolution (rulebook/allies/declarations.py, turn/executing_orders/) and the sheet
check (rulebook/turn/write_orders/alliances.py), with scripted dice. Rulebook: Allies (Alliance Chart, breaking an
alliance)."""

from dataclasses import replace

from kernel.dice import ScriptedDice
from rulebook.allies.chart import AllianceState, TrustLevel
from rulebook.tables import ArmyType
from rulebook.turn.pipeline import resolve_orders
from rulebook.turn.state import TurnState
from rulebook.turn.write_orders.check import order_sheet_check
from rulebook.turn.write_orders.context import order_sheet_context
from rulebook.turn.write_orders.problems import SheetProblemCode
from rulebook.turn.write_orders.records import (
    ArmyOrder,
    DeclareAlliance,
    EndAlliance,
    OrderKind,
    SheetEntries,
    TransferGold,
)
from tests import world_builders as wb

# A 4 x 4 grid (corner to corner adjacent):
#   1  2  3  4
#   5  6  7  8
#   9 10 11 12
#  13 14 15 16
# Kingdom 1 (Empire) holds 1, 5, 6; kingdom 2 (Dwarfs) holds 3, 7, 8 and the town in 11; kingdom 3
# (Orcs & Goblins) holds 13, 14; kingdom 4 (High Elves) holds 16.
CONTROL = {1: 1, 5: 1, 6: 1, 3: 2, 7: 2, 8: 2, 11: 2, 13: 3, 14: 3, 16: 4}
TYPES = {1: ArmyType.EMPIRE, 2: ArmyType.DWARFS, 3: ArmyType.ORCS_AND_GOBLINS, 4: ArmyType.HIGH_ELVES}
ALLIANCE = AllianceState(id=7, first=1, second=2, trust=TrustLevel.TRUSTED, formed_turn=1)


def state(armies=(), sheets=None, alliances=(), treasury=5000) -> TurnState:
    world = wb.world(
        provinces=[
            wb.province(n, "plains", "town" if n == 11 else "none", controller=CONTROL.get(n)) for n in range(1, 17)
        ],
        kingdoms=[wb.kingdom(k, f"K{k}", TYPES[k], treasury=treasury) for k in TYPES],
        armies=armies,
        adjacency=wb.grid(4),
        turn=2,
        player_count=4,
    )
    world.alliances.update({a.id: a for a in alliances})
    sheets = sheets or {}
    orders = {o.army: o for s in sheets.values() for o in s.orders}
    return TurnState(world=world, orders=orders, sheets=sheets)


def resolve(s: TurnState, faces=()):
    dice = ScriptedDice(faces=list(faces))
    result = resolve_orders(s, dice)
    assert dice.unused == [], "every scripted die is used"
    return result


def of(events, code, kingdom=None):
    return [e for e in events if e.code == code and (kingdom is None or e.kingdom == kingdom)]


def declare(kingdom: int, *orders: ArmyOrder) -> SheetEntries:
    return SheetEntries(orders=orders, alliances=(DeclareAlliance(kingdom=kingdom),))


def test_case_AL1_both_declare_the_same_turn_each_pays_1000_and_the_alliance_is_recognised():
    """Allies: "To form an alliance it will cost both players 1000 gold pieces ... Both players MUST
    declare their alliance"."""
    result = resolve(state(sheets={1: declare(2), 2: declare(1)}))

    (alliance,) = result.state.world.alliances.values()
    assert (alliance.first, alliance.second, alliance.trust) == (1, 2, TrustLevel.TRUSTED)
    formed = of(result.events, "alliance-formed")
    assert [(e.kingdom, e.gold, e.ledger_reason) for e in formed] == [(1, -1000, "alliance"), (2, -1000, "alliance")]
    assert all(e.data["ally"] in (1, 2) and e.data["trust"] == "T" for e in formed)
    assert formed[0].text == "K1 and K2 are allies (Trusted Allies): K1 pays 1,000 gold (Allies)."
    for k in (1, 2):  # the taxes (and the Empire's levy) in, the alliance's 1,000 out
        income = sum(e.gold for e in result.events if e.kingdom == k and e.code in ("taxes", "imperial-taxation"))
        assert result.state.kingdoms[k].treasury == 5000 + income - 1000


def test_case_AL1_only_one_declares_nothing_happens_and_nothing_is_paid():
    result = resolve(state(sheets={1: declare(2), 2: SheetEntries()}))

    assert result.state.world.alliances == {}
    (lonely,) = of(result.events, "alliance-not-recognised")
    assert lonely.kingdom == 1 and lonely.gold == 0  # told to the declarer only
    assert of(result.events, "alliance-formed") == []


def test_case_AL1_a_third_kingdom_cannot_join_and_an_x_pair_is_refused_at_the_sheet_check():
    """ "There can be only a total of two kingdoms per alliance"; X on the Alliance Chart: disallowed."""
    world = state(alliances=[ALLIANCE]).world
    third = order_sheet_check(declare(1), order_sheet_context(world, 4))  # High Elves with allied Empire
    assert [p.code for p in third.error_problems] == [SheetProblemCode.ALLIANCE_FULL]
    assert "K1 is already in an alliance" in third.errors[0]

    orcs = order_sheet_check(declare(1), order_sheet_context(state().world, 3))  # Orcs & Goblins with the Empire
    assert [p.code for p in orcs.error_problems] == [SheetProblemCode.ALLIANCE_DISALLOWED]
    assert orcs.errors == ["Orcs & Goblins and Empire cannot ally: the Alliance Chart marks them X (K1; Allies)."]

    fine = order_sheet_check(declare(2), order_sheet_context(state().world, 1))
    assert fine.ok and fine.costs == [("Alliance with K2 (Trusted Allies)", 1000)]


def test_a_third_kingdom_declaring_with_an_allied_one_in_the_same_turn_is_refused_at_the_resolution():
    """Two pairs declared the same turn over one kingdom: only mutual declarations count, and the
    turn's first alliance makes the kingdom busy."""
    s = state(sheets={1: declare(2), 2: declare(1), 4: declare(1)})
    result = resolve(s)
    assert [a.members for a in result.state.world.alliances.values()] == [frozenset({1, 2})]
    (refused,) = of(result.events, "alliance-not-recognised")
    assert refused.kingdom == 4


def test_an_alliance_the_treasury_cannot_pay_is_refused_and_nothing_is_paid():
    result = resolve(state(sheets={1: declare(2), 2: declare(1)}, treasury=-5000))
    assert result.state.world.alliances == {}
    assert [e.kingdom for e in of(result.events, "alliance-refused")] == [1, 2]
    assert all(e.gold == 0 for e in result.events if e.code.startswith("alliance"))


def test_case_AL2_an_allied_army_moves_into_an_ally_province_without_battle_or_change_of_control():
    s = state(
        armies=[wb.army(1, 1, 6, name="Reiksguard"), wb.army(2, 2, 7, name="Ironbreakers")],
        sheets={1: SheetEntries(orders=(ArmyOrder(1, OrderKind.MOVE, target=7),))},
        alliances=[ALLIANCE],
    )
    result = resolve(s)

    assert result.state.armies[1].province == 7
    assert result.state.provinces[7].controller == 2
    assert result.contacts == [] and result.battles == []
    passage = of(result.events, "ally-passage")
    assert [e.kingdom for e in passage] == [1, 2]
    assert passage[1].army is None  # the ally's line names the army, it links to nothing of it
    assert "Reiksguard (1,500 points) enters your province 7 P7 as an ally" in passage[1].text


def test_allies_moving_into_each_other_do_not_pass_in_the_night_and_into_an_ally_town_no_assault():
    s = state(
        armies=[wb.army(1, 1, 6), wb.army(2, 2, 7), wb.army(3, 1, 10)],
        sheets={
            1: SheetEntries(orders=(ArmyOrder(1, OrderKind.MOVE, target=7), ArmyOrder(3, OrderKind.MOVE, target=11))),
            2: SheetEntries(orders=(ArmyOrder(2, OrderKind.MOVE, target=6),)),
        },
        alliances=[ALLIANCE],
    )
    result = resolve(s)  # no Don't Pass in the Night roll: no dice at all
    assert (result.state.armies[1].province, result.state.armies[2].province) == (7, 6)
    assert result.state.armies[3].province == 11 and result.battles == []
    assert (result.state.provinces[6].controller, result.state.provinces[7].controller) == (1, 2)


def test_case_AL4_an_army_whose_order_takes_the_ally_province_breaks_the_alliance_the_betrayed_gets_2000():
    s = state(
        armies=[wb.army(1, 1, 6, name="Reiksguard")],
        sheets={1: SheetEntries(orders=(ArmyOrder(1, OrderKind.MOVE, target=7, take_control=True),))},
        alliances=[ALLIANCE],
    )
    result = resolve(s)

    assert result.state.world.alliances == {}
    assert result.state.provinces[7].controller == 1  # claimed: it is no ally's province any more
    broken = of(result.events, "alliance-broken")
    assert [(e.kingdom, e.gold) for e in broken] == [(1, 0), (2, 2000)]
    assert broken[1].ledger_reason == "alliance" and broken[1].data["how"] == "invasion"
    assert broken[1].data["broken_by"] == 1
    assert broken[1].text == (
        "K1 breaks its alliance with K2 by invasion (7 P7): K2 receives 2,000 gold, its own 1,000 back and K1's "
        "(Allies)."
    )
    assert [e.kingdom for e in of(result.events, "province-claimed")] == [1]


def test_case_AL4_an_army_moving_through_without_saying_so_takes_nothing():
    s = state(
        armies=[wb.army(1, 1, 6)],
        sheets={1: SheetEntries(orders=(ArmyOrder(1, OrderKind.MOVE, target=7),))},
        alliances=[ALLIANCE],
    )
    result = resolve(s)
    assert list(result.state.world.alliances) == [7]
    assert result.state.provinces[7].controller == 2
    assert of(result.events, "alliance-broken") == [] and of(result.events, "province-claimed") == []


def test_an_end_stored_on_an_order_sheet_no_longer_ends_the_alliance_at_the_resolution():
    """Allies, Announcement: "During the End of Campaign Turn, a player can announce that an alliance
    is broken" (decision 385; decision 135 withdrawn). An end on an order sheet stored before is not
    an announcement: the alliance holds for the turn's orders and K1's army moving into its ally's 7
    claims nothing."""
    s = state(
        armies=[wb.army(1, 1, 6)],
        sheets={
            1: SheetEntries(orders=(ArmyOrder(1, OrderKind.MOVE, target=7),), alliance_ends=(EndAlliance(2),)),
            2: SheetEntries(alliance_ends=(EndAlliance(1),)),
        },
        alliances=[ALLIANCE],
    )
    result = resolve(s)
    assert list(result.state.world.alliances) == [7]
    assert of(result.events, "alliance-broken") == [] and of(result.events, "alliance-cancelled") == []
    assert result.state.provinces[7].controller == 2


def test_razing_an_ally_province_it_occupies_breaks_the_alliance_and_takes_it():
    """Allies, Raze: "By Razing the province this way, the backstabber takes control of that province.\""""
    s = state(
        armies=[wb.army(1, 1, 7)],
        sheets={1: SheetEntries(orders=(ArmyOrder(1, OrderKind.RAZE_HOLD),))},
        alliances=[ALLIANCE],
    )
    result = resolve(s)
    assert result.state.provinces[7].controller == 1 and result.state.provinces[7].razed
    assert [(e.kingdom, e.gold, e.data["how"]) for e in of(result.events, "alliance-broken")] == [
        (1, 0, "raze"),
        (2, 2000, "raze"),
    ]
    assert [e.kingdom for e in of(result.events, "province-lost")] == [2]


def _raze_in_11(*, capitol: bool = False, elite_defense: bool = False) -> TurnState:
    """K1's army 1 stands in allied K2's city in 11 (allied passage) and razes it; 11 K2's capitol when
    told, with K2's Elite Defense Force 50 when told."""
    s = state(
        armies=[wb.army(1, 1, 11)],
        sheets={1: SheetEntries(orders=(ArmyOrder(1, OrderKind.RAZE_HOLD),))},
        alliances=[ALLIANCE],
    )
    s.provinces[11] = wb.province_with(s.provinces[11], settlement="city", elite_defense=elite_defense)
    if capitol:
        s.kingdoms[2] = replace(s.kingdoms[2], capitol=11)
    if elite_defense:
        s.world.garrisons[50] = wb.garrison(50, 2, 11)
    return s


def test_razing_the_ally_s_capitol_takes_it_and_the_capitol_is_lost():
    """Allies, Raze: "the backstabber takes control of that province"; Loss of the Capitol: "A player who
    loses their capitol has 3 turns to get their Warlord into another city for a coronation ceremony"
    (decisions 159, 556). K2 no longer has a capitol K1 holds: its countdown starts this turn."""
    result = resolve(_raze_in_11(capitol=True))

    assert result.state.provinces[11].controller == 1
    k2 = result.state.kingdoms[2]
    assert (k2.capitol, k2.capitol_lost_turn) == (None, 2)
    (lost,) = of(result.events, "capitol-lost")
    assert (lost.kingdom, lost.province) == (2, 11) and "3 turns" in lost.text
    # No Warlord of K2's in a city of its own after the moves: the countdown counts the turns left.
    assert [e.data["turns_left"] for e in of(result.events, "capitol-countdown", 2)] == [3]
    assert result.state.kingdoms[1].capitol_lost_turn is None


def test_a_capitol_razed_away_before_the_moves_may_be_crowned_after_them():
    """Loss of the Capitol (decision 159): the capitol razed away in 5. Executing Orders is lost before
    the turn's moves; K2's Warlord, whose army stands in K2's city in 7, is crowned there after them."""
    s = _raze_in_11(capitol=True)
    s.provinces[7] = wb.province_with(s.provinces[7], settlement="city")
    s.world.armies[2] = wb.army(2, 2, 7)
    s.kingdoms[2] = replace(s.kingdoms[2], warlord_army=2)
    result = resolve(s)

    k2 = result.state.kingdoms[2]
    assert (k2.capitol, k2.capitol_lost_turn) == (7, None)
    assert [e.province for e in of(result.events, "coronation", 2)] == [7]


def test_razing_the_ally_s_city_its_elite_defense_force_perishes():
    """Allies, Raze, and Battle for Towns, Cities, and Capitols: "Should the town / city be conquered, the
    Elite Defense Force it to be considered to have perished to the last man" (decision 556): taken by a
    raze, K2's Elite Defense Force does not stay on as K2's in K1's city. Not K2's capitol: nothing else."""
    result = resolve(_raze_in_11(elite_defense=True))

    assert result.state.provinces[11].controller == 1
    assert result.state.world.garrisons[50].disbanded and not result.state.provinces[11].elite_defense
    (perished,) = of(result.events, "elite-defense-force-perished")
    assert (perished.kingdom, perished.army, perished.province) == (2, 50, 11)
    assert of(result.events, "capitol-lost") == [] and result.state.kingdoms[2].capitol_lost_turn is None


def test_take_control_on_an_order_that_moves_nowhere_is_refused():
    check = order_sheet_check(
        SheetEntries(orders=(ArmyOrder(1, OrderKind.HOLD, take_control=True),)),
        order_sheet_context(state(armies=[wb.army(1, 1, 6)]).world, 1),
    )
    assert [p.code for p in check.error_problems] == [SheetProblemCode.TAKE_CONTROL]


def test_an_end_announced_on_the_order_sheet_is_refused_pointing_to_the_end_of_turn():
    """Allies, Announcement: the end is announced "During the End of Campaign Turn", not on the order
    sheet (decision 385): the sheet is refused, naming the rule and where to announce, ally or not."""
    for ally in (2, 4):
        check = order_sheet_check(
            SheetEntries(alliance_ends=(EndAlliance(ally),)), order_sheet_context(state(alliances=[ALLIANCE]).world, 1)
        )
        assert [p.code for p in check.error_problems] == [SheetProblemCode.ALLIANCE_END_AT_END_OF_TURN]
        (problem,) = check.error_problems
        assert f"with K{ally}" in problem.text
        assert "turn summary sheet" in problem.text and "(Allies, Announcement)" in problem.text


def _battle_with_ally_support(alliance: AllianceState, supporter_kingdom: int, faces):
    """K3's army in 12 attacks K2's army in 7; an army of `supporter_kingdom` in 6 supports 7."""
    s = state(
        armies=[wb.army(1, supporter_kingdom, 6, name="Helpers"), wb.army(2, 2, 7), wb.army(3, 3, 12)],
        sheets={
            supporter_kingdom: SheetEntries(orders=(ArmyOrder(1, OrderKind.SUPPORT, support=7),)),
            3: SheetEntries(orders=(ArmyOrder(3, OrderKind.MOVE, target=7),)),
        },
        alliances=[alliance],
    )
    return resolve(s, faces)


def test_case_AL3_an_ally_supports_with_300_points_rolling_alliance_support_arrival():
    """Allies: "Armies may support adjacent ally armies in battle with 300 points of core troops, but
    are subjected to the chart below"; Alliance Support Arrival (D6): 1-3 Unexpected Delay, 4-6 On Time."""
    result = _battle_with_ally_support(ALLIANCE, 1, faces=[4])
    (battle,) = result.battles
    (support,) = battle.supports
    assert (support.army, support.kingdom, support.side, support.points, support.arrival) == (1, 1, "defender", 300, 4)
    (sent,) = of(result.events, "support")
    assert sent.text == (
        "Helpers supports its ally K2 with 300 points of core troops to the defender in 7 P7; "
        "Alliance Support Arrival 4: On Time (Allies)."
    )
    (told,) = of(result.events, "ally-support")
    assert told.kingdom == 2 and told.army is None and "Your ally K1's army Helpers sends 300 points" in told.text
    assert not any("delayed" in n for n in battle.notes)

    delayed = _battle_with_ally_support(ALLIANCE, 1, faces=[3])
    assert delayed.battles[0].supports[0].arrival == 3
    assert any("allied detachment is delayed" in n for n in delayed.battles[0].notes)


def test_case_AL3_distrusted_allies_subtract_1_from_the_arrival_roll():
    distrusted = AllianceState(id=8, first=2, second=4, trust=TrustLevel.DISTRUSTED, formed_turn=1)
    result = _battle_with_ally_support(distrusted, 4, faces=[4])
    (support,) = result.battles[0].supports
    assert support.arrival == 3  # 4 - 1: Unexpected Delay
    (sent,) = of(result.events, "support")
    assert "Alliance Support Arrival 4-1=3: Unexpected Delay" in sent.text
    assert result.battles[0].supports[0].points == 300


def test_an_army_not_allied_with_either_side_cannot_support():
    result = _battle_with_ally_support(ALLIANCE, 4, faces=[])  # K4 is no ally of K2 or K3
    assert result.battles[0].supports == []
    (refused,) = of(result.events, "support-refused")
    assert refused.data["reason"] == "no-side"


def test_case_AL5_a_transfer_of_1000_in_turn_2_costs_1100_and_is_due_at_the_beginning_of_turn_4():
    """Player Issues, Transfer of Gold: "to transfer 1,000 gold pieces to another player, it will
    cost 1,100 gold. And if it were transferred in Turn 2, it will arrive at the beginning of Turn 4"."""
    sheet = SheetEntries(gold_transfers=(TransferGold(kingdom=3, gold=1000),))
    check = order_sheet_check(sheet, order_sheet_context(state().world, 1))
    assert check.ok
    assert check.costs == [
        ("Transfer 1,000 gold to K3 (+100 transportation fee; arrives at the beginning of turn 4)", 1100)
    ]

    result = resolve(state(sheets={1: sheet}))  # the state's turn is 2
    (sent,) = of(result.events, "transfer-sent")
    assert (sent.kingdom, sent.gold, sent.ledger_reason) == (1, -1100, "transfer")
    assert sent.data == {"to": 3, "gold": 1000, "fee": 100, "arrives": 4}
    assert sum(e.gold for e in result.events if e.kingdom == 3) == sum(
        e.gold for e in result.events if e.kingdom == 3 and e.code == "taxes"
    )  # nothing arrives at K3 this turn


def test_a_transfer_the_treasury_cannot_pay_is_not_sent_and_a_bad_one_is_refused_at_the_check():
    result = resolve(state(sheets={1: SheetEntries(gold_transfers=(TransferGold(kingdom=3, gold=90000),))}))
    assert of(result.events, "transfer-sent") == []
    assert [e.kingdom for e in of(result.events, "transfer-refused")] == [1]
    for bad in (TransferGold(kingdom=1, gold=10), TransferGold(kingdom=3, gold=0)):
        check = order_sheet_check(SheetEntries(gold_transfers=(bad,)), order_sheet_context(state().world, 1))
        assert [p.code for p in check.error_problems] == [SheetProblemCode.TRANSFER]


def test_an_army_fortifies_in_its_ally_s_province_and_control_does_not_change_hands():
    """Allies (issue 15's list: fortifying in an ally's province) and Fortify: the Reiksguard stands
    in its ally's 7 (where it takes no control, AL2) and fortifies it; 7 stays the Dwarfs', the
    bonuses are the Reiksguard's own while it stays there. Fortify sets no condition of control, and
    the alliance is not touched (decision 222)."""
    s = state(
        armies=[wb.army(1, 1, 7, name="Reiksguard")],
        sheets={1: SheetEntries(orders=(ArmyOrder(1, OrderKind.FORTIFY),))},
        alliances=[ALLIANCE],
    )
    check = order_sheet_check(s.sheets[1], order_sheet_context(s.world, 1))
    assert check.ok and check.warning_problems == []
    result = resolve(s)

    assert result.state.provinces[7].fortified and result.state.provinces[7].controller == 2
    assert result.state.armies[1].fortified_in == 7
    assert result.state.world.alliances == {ALLIANCE.id: ALLIANCE}
    (fortified,) = of(result.events, "fortified")
    assert fortified.text == "Reiksguard fortifies 7 P7: the bonuses are its own while it stays there (Fortify)."
