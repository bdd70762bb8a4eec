"""Land Sales and Civil Unrest in the sheet check (rulebook/turn/write_orders/land_sales.py) and the turn's resolution
(rulebook/player_issues/land_sales.py), with scripted dice. Rulebook: Player Issues > Land Sales."""

from dataclasses import replace

from kernel.event_codes import EventCode
from rulebook.tables import ArmyType
from rulebook.turn.state import TurnState
from rulebook.turn.tables import transfer_affordable
from rulebook.turn.write_orders.check import order_sheet_check
from rulebook.turn.write_orders.context import order_sheet_context
from rulebook.turn.write_orders.problems import SheetProblemCode
from rulebook.turn.write_orders.records import ArmyOrder, LandDeal, OrderKind, SheetEntries
from tests import world_builders as wb
from tests.rulebook.resolving import of, resolve

# A 3 x 3 grid (corner to corner adjacent):
#   1 2 3
#   4 5 6
#   7 8 9
# Avalon (1) holds 1 (its capitol), 2, the town in 4 and 5; Brython (2) holds 3 and 6 (its capitol);
# Carnwyl (3) holds 8 (its capitol) and 9.
AVALON, BRYTHON, CARNWYL = 1, 2, 3
CONTROL = {1: AVALON, 2: AVALON, 4: AVALON, 5: AVALON, 3: BRYTHON, 6: BRYTHON, 8: CARNWYL, 9: CARNWYL}


def world(turn=2, armies=()):
    return wb.world(
        provinces=[
            wb.province(n, "plains", "town" if n == 4 else "none", controller=CONTROL.get(n)) for n in range(1, 10)
        ],
        kingdoms=[
            wb.kingdom(AVALON, "Avalon", ArmyType.BRETONNIANS, treasury=2000, capitol=1),
            wb.kingdom(BRYTHON, "Brython", ArmyType.DWARFS, treasury=2000, capitol=6),
            wb.kingdom(CARNWYL, "Carnwyl", ArmyType.HIGH_ELVES, treasury=2000, capitol=8),
        ],
        armies=armies,
        adjacency=wb.grid(3),
        turn=turn,
        player_count=3,
    )


def state(sheets, turn=2, armies=()) -> TurnState:
    orders = {o.army: o for s in sheets.values() for o in s.orders}
    return TurnState(world=world(turn, armies), orders=orders, sheets=sheets)


def check(entries, kingdom=AVALON):
    return order_sheet_check(entries, order_sheet_context(world(), kingdom))


def test_case_AL6_a_province_is_sold_to_a_neighbour_and_a_second_sale_to_the_same_receiver_is_refused():
    """AL6: Avalon sells 2 to Brython for 600 gold, both declaring it on their sheets: the province
    changes hands now, and the price is a Transfer of Gold (decision 384): Brython pays 600 and its
    60 transportation fee now, and the 600 arrive in Avalon's treasury at the beginning of turn 4.
    A second province for Brython the same turn is refused, on the sheet and in the resolution
    (Carnwyl's gift)."""
    twice = check(SheetEntries(land_deals=(LandDeal(BRYTHON, province=2), LandDeal(BRYTHON, province=5))))
    assert [p.code for p in twice.error_problems] == [SheetProblemCode.LAND_SALE_TWICE]
    assert "one province per turn per player receiving the land" in twice.error_problems[0].text

    sheets = {
        AVALON: SheetEntries(land_deals=(LandDeal(BRYTHON, province=2),)),
        BRYTHON: SheetEntries(land_deals=(LandDeal(AVALON, gold=600), LandDeal(CARNWYL))),
        CARNWYL: SheetEntries(land_deals=(LandDeal(BRYTHON, province=9),)),
    }
    result = resolve(state(sheets))

    assert result.state.provinces[2].controller == BRYTHON
    assert result.state.provinces[2].land_sale_turn == 2
    taxes = {e.kingdom: e.gold for e in of(result.events, EventCode.TAXES)}
    assert result.state.kingdoms[AVALON].treasury == 2000 + taxes[AVALON]  # the price is on its way
    assert result.state.kingdoms[BRYTHON].treasury == 2000 + taxes[BRYTHON] - 660
    sold = of(result.events, EventCode.LAND_DEAL)
    assert [(e.kingdom, e.gold, e.ledger_reason) for e in sold] == [(AVALON, 0, ""), (BRYTHON, 0, "")]
    assert "gives 2 P2 to Brython" in sold[0].text and "Civil Unrest" in sold[1].text
    assert "is paid 600 gold, arriving at the beginning of turn 4" in sold[0].text
    (paid,) = of(result.events, EventCode.LAND_PRICE_PAID)
    assert (paid.kingdom, paid.gold, paid.ledger_reason) == (BRYTHON, -660, "land-sale")
    assert paid.data == {"to": AVALON, "gold": 600, "fee": 60, "arrives": 4}
    (refused, _) = of(result.events, EventCode.LAND_DEAL_REFUSED)
    assert "Brython has received a province this turn already" in refused.text
    assert result.state.provinces[9].controller == CARNWYL


def test_case_AL6_transfer_of_gold_the_sheet_counts_a_land_price_with_its_fee():
    """Land Sales, Transfer of Gold: "subject to a 10% transportation fee ... to transfer 1,000 gold
    pieces to another player, it will cost 1,100 gold". The sheet counts the price and its fee in
    what it spends, and refuses a price the kingdom could pay but not with its fee (decision 384)."""
    sale = check(SheetEntries(land_deals=(LandDeal(AVALON, gold=600),)), BRYTHON)
    assert sale.ok, sale.errors
    assert sale.costs == [
        ("Land deal with Avalon: 600 gold (+60 transportation fee; arrives at the beginning of turn 4)", 660)
    ]

    available = check(SheetEntries(), BRYTHON).available
    most = transfer_affordable(available, available)
    assert check(SheetEntries(land_deals=(LandDeal(AVALON, gold=most),)), BRYTHON).ok
    short = check(SheetEntries(land_deals=(LandDeal(AVALON, gold=most + 1),)), BRYTHON)
    assert most + 1 <= available  # the price alone would fit
    assert [p.code for p in short.error_problems] == [SheetProblemCode.OVER_BUDGET]


def test_transfer_of_gold_a_land_price_the_treasury_cannot_pay_with_its_fee_is_refused():
    """Land Sales, Transfer of Gold: at the resolution the payer pays the price and its 10% fee; a
    price its treasury holds but not with the fee refuses the deal, naming the rule, and nothing
    changes hands (decision 384)."""
    taxes = {e.kingdom: e.gold for e in of(resolve(state({})).events, EventCode.TAXES)}
    price = 2000 + taxes[BRYTHON] - 1
    sheets = {
        AVALON: SheetEntries(land_deals=(LandDeal(BRYTHON, province=2),)),
        BRYTHON: SheetEntries(land_deals=(LandDeal(AVALON, gold=price),)),
    }
    result = resolve(state(sheets))

    assert result.state.provinces[2].controller == AVALON
    assert of(result.events, EventCode.LAND_PRICE_PAID) == []
    refused = of(result.events, EventCode.LAND_DEAL_REFUSED)
    assert [e.kingdom for e in refused] == [AVALON, BRYTHON]
    assert f"Brython cannot pay the {price:,} gold and its" in refused[0].text
    assert "transportation fee" in refused[0].text and "Transfer of Gold" in refused[0].text
    assert result.state.kingdoms[BRYTHON].treasury == 2000 + taxes[BRYTHON]


def test_case_AL6_no_army_there_by_the_next_turn_4_plus_makes_it_a_rogue_kingdom_province():
    """AL6: Brython bought 2 in turn 2; in turn 3 it has no army there: D6 4 makes it a Rogue Kingdom
    province, out of Brython's control (and an army entering it later rolls on the Rogue Kingdom table)."""
    s = state({}, turn=3)
    s.world.provinces[2] = replace(s.world.provinces[2], controller=BRYTHON, land_sale_turn=2)
    result = resolve(s, [4])

    province = result.state.provinces[2]
    assert (province.controller, province.rogue, province.land_sale_turn) == (None, True, None)
    (unrest,) = of(result.events, EventCode.CIVIL_UNREST)
    assert (unrest.kingdom, unrest.data) == (BRYTHON, {"roll": 4, "lost": True})
    assert "becomes a Rogue Kingdom province" in unrest.text

    # An army of Avalon entering it the next turn rolls on the Rogue Kingdom table (1: empty, it claims it).
    later = state(
        {AVALON: SheetEntries(orders=(ArmyOrder(11, OrderKind.MOVE, target=2),))},
        turn=4,
        armies=[wb.army(11, AVALON, 1)],
    )
    later.world.provinces.update(result.state.provinces)
    claimed = resolve(later, [1])
    assert of(claimed.events, EventCode.ROGUE_KINGDOM_ROLL)[0].data["roll"] == 1
    assert (claimed.state.provinces[2].controller, claimed.state.provinces[2].rogue) == (AVALON, False)


def test_civil_unrest_a_3_keeps_the_province_and_an_army_there_pacifies_it():
    s = state({}, turn=3, armies=[wb.army(21, BRYTHON, 5)])
    s.world.provinces[2] = replace(s.world.provinces[2], controller=BRYTHON, land_sale_turn=2)
    s.world.provinces[5] = replace(s.world.provinces[5], controller=BRYTHON, land_sale_turn=2)
    result = resolve(s, [3])

    assert result.state.provinces[2].controller == BRYTHON and not result.state.provinces[2].rogue
    assert [e.province for e in of(result.events, EventCode.PACIFIED)] == [5]
    assert of(result.events, EventCode.CIVIL_UNREST)[0].data == {"roll": 3, "lost": False}
    # Rolled once: the next turn nothing more.
    again = TurnState(world=replace(result.state.world, turn=4), orders={}, sheets={})
    assert of(resolve(again).events, EventCode.CIVIL_UNREST) == []


def test_a_land_deal_declared_by_one_side_changes_nothing_and_towns_are_not_sold():
    result = resolve(state({AVALON: SheetEntries(land_deals=(LandDeal(BRYTHON, province=2),))}))
    assert result.state.provinces[2].controller == AVALON
    assert of(result.events, EventCode.LAND_DEAL_NOT_AGREED, AVALON)

    town = check(SheetEntries(land_deals=(LandDeal(BRYTHON, province=4),)))
    capitol = check(SheetEntries(land_deals=(LandDeal(BRYTHON, province=1),)))
    foreign = check(SheetEntries(land_deals=(LandDeal(BRYTHON, province=3),)))
    assert "holds a town: towns or cities may not be given away or sold" in town.error_problems[0].text
    assert "holds a capitol" in capitol.error_problems[0].text
    assert "province 3 is not yours to give" in foreign.error_problems[0].text


def test_a_trade_swaps_two_provinces():
    sheets = {
        AVALON: SheetEntries(land_deals=(LandDeal(BRYTHON, province=2),)),
        BRYTHON: SheetEntries(land_deals=(LandDeal(AVALON, province=3),)),
    }
    result = resolve(state(sheets))

    assert (result.state.provinces[2].controller, result.state.provinces[3].controller) == (BRYTHON, AVALON)
    assert [e.gold for e in of(result.events, EventCode.LAND_DEAL)] == [0, 0]
