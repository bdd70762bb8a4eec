"""Loss of the Capitol in the sheet check and the turn's resolution (rulebook/turn/
capitol.py): the capitol moved by the Warlord, the coronation, the countdown, the player out.
Rulebook: Loss of the Capitol; Rogue Kingdom."""

from dataclasses import replace

from kernel.event_codes import EventCode
from rulebook.tables import ArmyType
from rulebook.turn.state import TurnState
from rulebook.turn.write_orders.check import order_sheet_check
from rulebook.turn.write_orders.context import order_sheet_context
from rulebook.turn.write_orders.problems import SheetProblemCode
from rulebook.turn.write_orders.records import ArmyOrder, MoveCapitol, OrderKind, SheetEntries
from tests import world_builders as wb
from tests.rulebook.resolving import of, resolve

# A 3 x 3 grid (corner to corner adjacent):
#   1 2 3
#   4 5 6
#   7 8 9
# Avalon (1) holds the cities in 1 (its capitol) and 3, and 2; its Warlord's army 11 stands in 2.
# Brython (2) holds the city in 9, its army 21 in 9.
AVALON, BRYTHON = 1, 2
CONTROL = {1: AVALON, 2: AVALON, 3: AVALON, 9: BRYTHON}
CITIES = {1, 3, 9}
AVALON_RECORD = {"treasury": 3000, "capitol": 1, "warlord_army": 11}


def state(turn=3, sheets=None, **avalon) -> TurnState:
    world = wb.world(
        provinces=[
            wb.province(n, "plains", "city" if n in CITIES else "none", controller=CONTROL.get(n)) for n in range(1, 10)
        ],
        kingdoms=[
            wb.kingdom(AVALON, "Avalon", ArmyType.BRETONNIANS, **{**AVALON_RECORD, **avalon}),
            wb.kingdom(BRYTHON, "Brython", ArmyType.DWARFS, treasury=3000, capitol=9),
        ],
        armies=[wb.army(11, AVALON, 2), wb.army(12, AVALON, 1), wb.army(21, BRYTHON, 9)],
        adjacency=wb.grid(3),
        turn=turn,
    )
    sheets = sheets or {}
    return TurnState(world=world, orders={o.army: o for s in sheets.values() for o in s.orders}, sheets=sheets)


def test_case_AL7_the_warlord_reaching_another_city_within_three_turns_is_crowned_there():
    """AL7: Avalon lost its capitol in turn 2; in turn 3 its Warlord's army marches into its city in 3:
    crowned there, it is the capitol, without gold (decision 159)."""
    s = state(
        turn=3,
        capitol=None,
        capitol_lost_turn=2,
        sheets={AVALON: SheetEntries(orders=(ArmyOrder(11, OrderKind.MOVE, target=3),))},
    )
    result = resolve(s)

    avalon = result.state.kingdoms[AVALON]
    assert (avalon.capitol, avalon.capitol_lost_turn) == (3, None)
    (crowned,) = of(result.events, EventCode.CORONATION)
    assert "crowned in 3 P3" in crowned.text and crowned.gold == 0
    assert of(result.events, EventCode.CAPITOL_COUNTDOWN) == []


def test_case_AL7_three_turns_without_a_coronation_the_player_is_out_and_the_kingdom_becomes_rogue():
    """AL7: lost in turn 2, the countdown tells turns 3, 4 and 5 in the report; when turn 6 begins the
    player is out and Avalon is a Rogue Kingdom: its armies leave the map, its orders are not resolved."""
    left = []
    for turn in (3, 4, 5):
        result = resolve(state(turn=turn, capitol=None, capitol_lost_turn=2))
        (countdown,) = of(result.events, EventCode.CAPITOL_COUNTDOWN)
        left.append(countdown.data["turns_left"])
        assert countdown.kingdom == AVALON
    assert left == [2, 1, 0]
    first = of(resolve(state(turn=3, capitol=None, capitol_lost_turn=2)).events, EventCode.CAPITOL_COUNTDOWN)[0]
    assert "2 more turns to crown the Warlord in a city of yours" in first.text

    moving = SheetEntries(orders=(ArmyOrder(11, OrderKind.MOVE, target=3),))
    result = resolve(state(turn=6, capitol=None, capitol_lost_turn=2, sheets={AVALON: moving}))

    avalon = result.state.kingdoms[AVALON]
    assert (avalon.rogue, avalon.capitol_lost_turn) == (True, None)
    (out,) = of(result.events, EventCode.PLAYER_OUT)
    assert "the player is out of the game and Avalon becomes a Rogue Kingdom" in out.text
    assert all(a.disbanded for a in result.state.armies.values() if a.kingdom == AVALON)
    assert of(result.events, EventCode.MOVED) == [] and of(result.events, EventCode.CORONATION) == []
    assert [e.kingdom for e in of(result.events, EventCode.TAXES)] == [BRYTHON]  # a Rogue Kingdom collects none


def test_case_AL7_the_warlord_moves_the_capitol_while_it_stands_for_1000_gold():
    s = state(turn=3)
    s.world.armies[11] = replace(s.world.armies[11], province=3)
    sheet = SheetEntries(capitol_moves=(MoveCapitol(3),))
    check = order_sheet_check(sheet, order_sheet_context(s.world, AVALON))
    assert check.costs == [("Move the capitol to 3 P3", 1000)] and not check.error_problems
    s.sheets[AVALON] = sheet
    result = resolve(s)

    assert result.state.kingdoms[AVALON].capitol == 3
    (moved,) = of(result.events, EventCode.CAPITOL_MOVED)
    assert (moved.gold, moved.ledger_reason) == (-1000, "capitol-moved")


def test_the_capitol_moves_only_to_an_own_city_where_the_warlord_stands():
    s = state(turn=3)
    ctx = order_sheet_context(s.world, AVALON)
    away = order_sheet_check(SheetEntries(capitol_moves=(MoveCapitol(3),)), ctx)
    not_a_city = order_sheet_check(SheetEntries(capitol_moves=(MoveCapitol(2),)), ctx)
    foreign = order_sheet_check(SheetEntries(capitol_moves=(MoveCapitol(9),)), ctx)

    assert [p.code for p in away.error_problems] == [SheetProblemCode.CAPITOL]
    assert "Your Warlord does not stand in 3 P3" in away.error_problems[0].text
    assert "is not a city of yours" in not_a_city.error_problems[0].text
    assert "is not a city of yours" in foreign.error_problems[0].text


def test_case_AL7_a_city_the_warlord_conquers_in_the_battles_of_the_third_turn_still_counts():
    """Loss of the Capitol: "If they cannot reach one of their cities or conquer one from another
    nation in this time": Avalon lost its capitol in turn 2; in turn 5, its third, its Warlord's army
    attacks Brython's city in 9 and wins it in the aftermath. When turn 6 begins Avalon is not out:
    its Warlord is crowned in 9, the new capitol (decision 390)."""
    last = of(resolve(state(turn=5, capitol=None, capitol_lost_turn=2)).events, EventCode.CAPITOL_COUNTDOWN)[0]
    assert "unless the Warlord's army conquers a city in its battles" in last.text
    s = state(turn=6, capitol=None, capitol_lost_turn=2)
    s.world.armies[11] = replace(s.world.armies[11], province=9)  # the victor of turn 5's battle keeps 9
    s.world.armies.pop(21)  # Brython's defender retreated
    s.world.provinces[9] = replace(s.world.provinces[9], controller=AVALON)
    result = resolve(s)

    avalon = result.state.kingdoms[AVALON]
    assert (avalon.rogue, avalon.capitol, avalon.capitol_lost_turn) == (False, 9, None)
    assert of(result.events, EventCode.PLAYER_OUT) == []
    (crowned,) = of(result.events, EventCode.CORONATION)
    assert "crowned in 9 P9, the city it conquered in the battles of turn 5" in crowned.text
