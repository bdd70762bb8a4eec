"""Using Tomb Raiders at the turn's resolution (rulebook/ruins_and_tomb_raiders/missions_sent.py): the
Tomb Raid a submitted sheet sends is checked again against the state as the orders find it, paid from
the treasury and recorded for the waiting army, or not sent and not paid. Rules decisions 408, 410 and
415. The turn is resolved whole (rulebook.turn.pipeline), with scripted dice."""

from __future__ import annotations

from dataclasses import replace

from kernel.event_codes import EventCode
from kernel.ledger import LedgerReason
from rulebook.ruins_and_tomb_raiders.force import SAMPLE_HIGH_ELVES
from rulebook.tables import ArmyType
from rulebook.turn.state import TurnState
from rulebook.turn.write_orders.records import ArmyOrder, OrderKind, SheetEntries, TombRaiderMission
from tests import world_builders as wb
from tests.rulebook.resolving import of, resolve

ELVES, DWARFS = 1, 2
# A 3 x 3 grid (corner to corner adjacent), ruins in 5 (the Old Keep). The Elves' army 11 stands in 1,
# the Dwarfs' army 21 in 9. Nobody holds a province: no taxes, the treasury is what it says.
KEEP = 5
INTO_THE_KEEP = ArmyOrder(11, OrderKind.MOVE, target=KEEP)
RAID = SheetEntries(orders=(INTO_THE_KEEP,), missions=(TombRaiderMission(province=KEEP),))


def state(*, treasury: int = 500, sheets: dict[int, SheetEntries] | None = None, **kw: object) -> TurnState:
    world = wb.world(
        provinces=[
            wb.province(n, "plains", "ruins" if n == KEEP else "none", name="Old Keep" if n == KEEP else None)
            for n in range(1, 10)
        ],
        kingdoms=[
            wb.kingdom(ELVES, "Tor Anlec", ArmyType.HIGH_ELVES, treasury=treasury),
            wb.kingdom(DWARFS, "Karak Dumn", ArmyType.DWARFS, treasury=500),
        ],
        armies=[wb.army(11, ELVES, 1, name="1st Army"), wb.army(21, DWARFS, 9, name="Thane's Host")],
        adjacency=wb.grid(3),
        turn=3,
    )
    sheets = {ELVES: RAID} if sheets is None else sheets
    base = TurnState(
        world=world,
        orders={o.army: o for s in sheets.values() for o in s.orders},
        sheets=sheets,
        raiders={ELVES: SAMPLE_HIGH_ELVES},
    )
    return replace(base, **kw)


def test_the_raid_sent_takes_100_gold_from_the_treasury_and_the_army_waits_on_it() -> None:
    """Using Tomb Raiders: "To send the Tomb Raiders on a mission costs 100 gold from your Treasury"; the
    army ordered into the ruins waits on the raid (decision 408): the turn's battles find it in `raids`."""
    result = resolve(state())

    (sent,) = of(result.events, EventCode.TOMB_RAID_SENT)
    assert (sent.kingdom, sent.province, sent.gold) == (ELVES, KEEP, -100)
    assert sent.ledger_reason == LedgerReason.TOMB_RAIDERS
    assert sent.data == {"mission": "tomb-raid", "gold": 100, "fee": 0, "armies": [11]}
    assert "The Tomb Raiders set off on a Tomb Raid on 5 Old Keep for 100 gold (Using Tomb Raiders)." in sent.text
    assert "1st Army waits on the raid" in sent.text
    assert result.state.raids == {ELVES: KEEP}
    assert result.state.kingdoms[ELVES].treasury == 400
    assert result.state.kingdoms[DWARFS].treasury == 500


def test_the_change_fee_is_paid_with_the_mission_at_resolution() -> None:
    """Maintaining / Changing Tomb Raiders (TR3): the sheet pays 5 gold a point added: 100 and 55."""
    paying = SheetEntries(orders=(INTO_THE_KEEP,), missions=(TombRaiderMission(province=KEEP, pay_change_fee=True),))
    result = resolve(state(sheets={ELVES: paying}, raiders_points_added={ELVES: 11}))

    (sent,) = of(result.events, EventCode.TOMB_RAID_SENT)
    assert (sent.gold, sent.data["fee"]) == (-155, 55)
    assert "for 100 gold and the change fee of 55" in sent.text
    assert result.state.kingdoms[ELVES].treasury == 345


def test_a_raid_the_treasury_cannot_pay_at_resolution_is_not_sent_and_costs_nothing() -> None:
    """The sheet was checked days before; the gold is taken when the turn resolves (decision 415): short
    then, the Tomb Raiders stay home, nothing is paid, and the kingdom's report says why."""
    result = resolve(state(treasury=99))

    assert of(result.events, EventCode.TOMB_RAID_SENT) == []
    (not_sent,) = of(result.events, EventCode.TOMB_RAID_NOT_SENT)
    assert (not_sent.kingdom, not_sent.gold, not_sent.province) == (ELVES, 0, KEEP)
    assert not_sent.data["problems"] == ["mission-not-enough-gold"]
    assert "do not set off on the Tomb Raid on 5 Old Keep; nothing is paid" in not_sent.text
    assert "The mission costs 100 gold; the treasury has 99 for it" in not_sent.text
    assert result.state.raids == {}
    assert result.state.kingdoms[ELVES].treasury == 99


def test_a_force_changed_after_the_sheet_goes_only_if_the_fee_was_paid() -> None:
    """Maintaining / Changing Tomb Raiders: models added after the sheet was submitted hold the force back
    unless the sheet pays the fee (decision 415: the force as it stands when the turn resolves)."""
    result = resolve(state(raiders_points_added={ELVES: 11}))

    (not_sent,) = of(result.events, EventCode.TOMB_RAID_NOT_SENT)
    assert not_sent.data["problems"] == ["mission-changed-not-paid"]
    assert result.state.raids == {}


def test_no_army_moving_in_once_its_order_is_refused_no_raid() -> None:
    """Tomb Raid: "Provided one of your armies is moving into a province containing a ruin": an order the
    turn refuses (the army holds) moves no army into the ruins, so the raid does not go."""
    far = SheetEntries(orders=(ArmyOrder(11, OrderKind.MOVE, target=9),), missions=(TombRaiderMission(province=KEEP),))
    result = resolve(state(sheets={ELVES: far}))

    (not_sent,) = of(result.events, EventCode.TOMB_RAID_NOT_SENT)
    assert not_sent.data["problems"] == ["mission-no-army-moving-in"]
    assert of(result.events, EventCode.ORDER_ILLEGAL, ELVES)  # 9 is not next to 1: the army holds


def test_a_kingdom_that_missed_its_orders_or_sends_no_mission_pays_nothing() -> None:
    missed = state(sheets={}, missed_orders=frozenset({ELVES}))
    result = resolve(missed)
    assert of(result.events, EventCode.TOMB_RAID_SENT) + of(result.events, EventCode.TOMB_RAID_NOT_SENT) == []

    moving = resolve(state(sheets={ELVES: SheetEntries(orders=(INTO_THE_KEEP,))}))
    assert of(moving.events, EventCode.TOMB_RAID_SENT) + of(moving.events, EventCode.TOMB_RAID_NOT_SENT) == []
    assert moving.state.raids == {}
