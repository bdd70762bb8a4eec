"""Transfer of Gold, the items (rulebook/turn/write_orders/transfers.py, rulebook/player_issues/transfer_of_gold.py):
"Kingdoms may transfer gold and items between each other, but they will be subject to a 10%
transportation fee and suffer a one Turn Delay ... An item's gold cost is double its point value."
No database. Rules decision 143."""

from dataclasses import replace

from kernel.event_codes import EventCode
from rulebook.experience.spending import ItemRecord, SpendingRoster
from rulebook.turn.tally_gold import tax_tally
from rulebook.turn.write_orders.check import order_sheet_check
from rulebook.turn.write_orders.context import order_sheet_context
from rulebook.turn.write_orders.problems import SheetProblemCode
from rulebook.turn.write_orders.records import SheetEntries, TransferItem
from tests import world_builders as wb
from tests.rulebook.allies.test_declarations import of, resolve, state

RUNEFANG = ItemRecord(id=70, name="Runefang", points=85, army=10)
SHIELD_IN_ARMORY = ItemRecord(id=71, name="Enchanted Shield", points=10, common=True)
SHIELD_CARRIED = ItemRecord(id=72, name="Enchanted Shield", points=10, common=True, army=10)
ROSTER = SpendingRoster(armory=(SHIELD_IN_ARMORY, RUNEFANG, SHIELD_CARRIED))
HOST = wb.army(10, 1, 1, 1500, name="Host")


def _sent(sheet: SheetEntries, treasury: int = 5000):
    s = state(armies=(HOST,), sheets={1: sheet}, treasury=treasury)
    return resolve(replace(s, rosters={1: ROSTER}))


def test_an_item_of_85_points_costs_a_fee_of_17_and_arrives_the_turn_after_next() -> None:
    """The Runefang (85 points) is worth 170 gold: K1 pays 17 in turn 2 and it is due at the
    beginning of turn 4; it leaves the Host's list now (the Host counts 85 points less)."""
    sheet = SheetEntries(item_transfers=(TransferItem(kingdom=3, item="Runefang"),))
    check = order_sheet_check(sheet, order_sheet_context(state(armies=(HOST,)).world, 1, roster=ROSTER))
    assert check.ok, check.errors
    assert check.costs == [
        (
            "Transfer Runefang (85 points, 170 gold) to K3 (+17 transportation fee; arrives at the beginning of "
            "turn 4)",
            17,
        )
    ]

    result = _sent(sheet)
    (sent,) = of(result.events, EventCode.ITEM_SENT)
    assert (sent.kingdom, sent.gold, sent.ledger_reason, sent.army) == (1, -17, "transfer", 10)
    assert sent.data == {
        "to": 3,
        "item_id": 70,
        "name": "Runefang",
        "points": 85,
        "common": False,
        "fee": 17,
        "arrives": 4,
    }
    assert result.state.armies[10].points == 1500 - 85
    assert not [e for e in result.events if e.kingdom == 3 and e.code != EventCode.TAXES]  # nothing arrives yet


def test_of_two_items_of_a_name_the_armory_s_goes_first_then_the_army_s() -> None:
    """Decision 143: two Enchanted Shields sent, the armory's first, then the Host's; a third is refused."""
    two = SheetEntries(item_transfers=(TransferItem(3, "Enchanted Shield"), TransferItem(4, "enchanted shield")))
    result = _sent(two)
    assert [e.data["item_id"] for e in of(result.events, EventCode.ITEM_SENT)] == [71, 72]
    three = SheetEntries(item_transfers=(*two.item_transfers, TransferItem(3, "Enchanted Shield")))
    check = order_sheet_check(three, order_sheet_context(state(armies=(HOST,)).world, 1, roster=ROSTER))
    assert [p.code for p in check.error_problems] == [SheetProblemCode.ITEM_TRANSFER]
    assert "the kingdom holds 2, in its armies or its armory (Transfer of Gold)" in check.errors[0]


def test_an_item_not_held_or_to_no_other_kingdom_is_refused_at_the_check() -> None:
    world = state(armies=(HOST,)).world
    for bad, words in (
        (TransferItem(3, "Crown of Command"), "holds no magic item of that name"),
        (TransferItem(1, "Runefang"), "is not another player's kingdom"),
        (TransferItem(99, "Runefang"), "is not another player's kingdom"),
    ):
        check = order_sheet_check(SheetEntries(item_transfers=(bad,)), order_sheet_context(world, 1, roster=ROSTER))
        assert [p.code for p in check.error_problems] == [SheetProblemCode.ITEM_TRANSFER]
        assert words in check.errors[0]


def test_a_fee_the_treasury_cannot_pay_sends_nothing() -> None:
    """The fee is paid after 1. Tally Gold: a treasury 16 gold once this turn's taxes are in is 1 short."""
    taxes = tax_tally(state(armies=(HOST,)).world, 1).net
    result = _sent(SheetEntries(item_transfers=(TransferItem(3, "Runefang"),)), treasury=16 - taxes)
    assert of(result.events, EventCode.ITEM_SENT) == []
    (refused,) = of(result.events, EventCode.ITEM_TRANSFER_REFUSED)
    assert refused.kingdom == 1 and "the treasury holds 16 and the fee is 17" in refused.text
    assert result.state.armies[10].points == 1500
