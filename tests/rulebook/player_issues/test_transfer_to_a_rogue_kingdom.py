"""Gold and items sent to a Rogue Kingdom (Player Issues > Rogue Kingdom: "it lacks a leader to control it";
Transfer of Gold: "Kingdoms may transfer gold and items between each other"; decision 604). No database.
A Rogue Kingdom takes no land (Land Sales, its sheet check), and now no transfer: the order sheet refuses
one naming the rule, and a sheet submitted before the receiver's player was marked out sends nothing and
pays no fee."""

from dataclasses import replace

from kernel.event_codes import EventCode
from rulebook.turn.write_orders.check import order_sheet_check
from rulebook.turn.write_orders.context import order_sheet_context
from rulebook.turn.write_orders.problems import SheetProblemCode
from rulebook.turn.write_orders.records import SheetEntries, TransferGold, TransferItem
from tests.rulebook.allies.test_declarations import of, resolve, state
from tests.rulebook.player_issues.test_transfer_of_gold import HOST, ROSTER


def _k3_rogue(s):
    s.world.kingdoms[3] = replace(s.world.kingdoms[3], rogue=True)
    return s


def test_the_order_sheet_refuses_gold_or_an_item_sent_to_a_rogue_kingdom() -> None:
    """Transfer of Gold to K3, a Rogue Kingdom: refused at the check, naming the kingdom and the rule."""
    world = _k3_rogue(state(armies=(HOST,))).world
    sheet = SheetEntries(
        gold_transfers=(TransferGold(kingdom=3, gold=500),), item_transfers=(TransferItem(3, "Runefang"),)
    )
    check = order_sheet_check(sheet, order_sheet_context(world, 1, roster=ROSTER))
    assert [p.code for p in check.error_problems] == [SheetProblemCode.ITEM_TRANSFER, SheetProblemCode.TRANSFER]
    assert all("K3 is not another player's kingdom of this campaign" in e for e in check.errors)
    assert check.costs == []


def test_a_sheet_submitted_before_the_receiver_went_rogue_sends_nothing() -> None:
    """K1 filed 500 gold and the Runefang for K3 before K3's player was marked out: at the resolution
    nothing is sent, no fee is paid, and K1 is told why (decision 604)."""
    sheet = SheetEntries(
        gold_transfers=(TransferGold(kingdom=3, gold=500),), item_transfers=(TransferItem(3, "Runefang"),)
    )
    s = _k3_rogue(state(armies=(HOST,), sheets={1: sheet}, treasury=5000))
    result = resolve(replace(s, rosters={1: ROSTER}))

    assert not of(result.events, EventCode.TRANSFER_SENT) and not of(result.events, EventCode.ITEM_SENT)
    (gold,) = of(result.events, EventCode.TRANSFER_REFUSED, kingdom=1)
    assert "K3 is a Rogue Kingdom, with no leader to receive it" in gold.text and gold.gold == 0
    (item,) = of(result.events, EventCode.ITEM_TRANSFER_REFUSED, kingdom=1)
    assert "Runefang is not sent to K3: K3 is a Rogue Kingdom" in item.text and item.gold == 0
    assert result.state.armies[10].points == HOST.points  # the Runefang stays in the Host's list
