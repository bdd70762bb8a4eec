"""The Tomb Raiders' mission the sheet sends (Using Tomb Raiders; Tomb Raid) (pure Python). Rule case
TR4; rules decisions 408, 410 and 414.

"Tomb Raiders may do ONE of the following missions each turn. To send the Tomb Raiders on a mission
costs 100 gold from your Treasury." Tomb Raid: "Provided one of your armies is moving into a province
containing a ruin, the Tomb Raiders can set off". The rules are
rulebook.ruins_and_tomb_raiders.tomb_raid's (`tomb_raid_problems`); this module reads the sheet for
them: where the kingdom's armies are ordered to move, and the gold the rest of the sheet leaves.
"""

from __future__ import annotations

from collections.abc import Container, Iterable

from rulebook.ruins_and_tomb_raiders.tomb_raid import (
    MISSION_GOLD,
    TOMB_RAID,
    MissionProblemCode,
    RaidContext,
    TombRaidOrder,
    mission_gold,
    tomb_raid_problems,
)
from rulebook.tables import ArmyType
from rulebook.turn.write_orders.context import SheetContext
from rulebook.turn.write_orders.problems import SheetCheck, SheetProblem, SheetProblemCode
from rulebook.turn.write_orders.records import MOVING_ORDERS, ArmyOrder, SheetEntries, TombRaiderMission, entry_at

PART = "missions"
# The entry's field that mends each problem (the page's mission row: the ruin, the fee's checkbox).
MISSION_FIELDS: dict[MissionProblemCode, str] = {MissionProblemCode.CHANGED_NOT_PAID: "pay_change_fee"}


def moves_into(orders: Iterable[ArmyOrder], armies: Container[int]) -> dict[int, int]:
    """Army id -> the province its order moves it into, for the kingdom's armies (`armies`: their ids)
    ordered to Move, Raze and Move, or Forced March. A forced march moves into the province it ends in:
    "The army can only claim / occupy the province they end up in" (decision 414)."""
    moves: dict[int, int] = {}
    for order in orders:
        destination = order.destination
        if order.kind in MOVING_ORDERS and order.army in armies and destination is not None:
            moves[order.army] = destination
    return moves


def mission_order(mission: TombRaiderMission) -> TombRaidOrder | None:
    """The Tomb Raid the entry orders (None: it names no ruin)."""
    if mission.province is None:
        return None
    return TombRaidOrder(mission.province, pay_change_fee=mission.pay_change_fee)


def check_missions(entries: SheetEntries, ctx: SheetContext, check: SheetCheck) -> None:
    """Each mission on the sheet, checked by Using Tomb Raiders and Tomb Raid; one that goes adds its
    gold (100, and the change fee it pays) to the sheet's. Run after every other part that spends gold:
    the mission is refused when the gold the rest of the sheet leaves cannot pay it (decision 410)."""
    moves = moves_into(entries.orders, ctx.armies)
    for index, mission in enumerate(entries.missions):
        order = mission_order(mission)
        if order is None:
            check.error_problems.append(
                SheetProblem(
                    SheetProblemCode.MISSION_NOT_RUINS,
                    f"Name the ruin the Tomb Raiders raid: a Tomb Raid is made on a province with ruins ({TOMB_RAID}).",
                    **entry_at(PART, index, "province"),
                )
            )
            continue
        raid = RaidContext(
            force=ctx.raiders,
            treasury=check.available - check.gold,  # what the sheet's other spending leaves
            ruins=ctx.ruins,
            moves=moves,
            missions=len(entries.missions),
            points_added=ctx.raiders_points_added,
            ancient_dead=ctx.army_type is ArmyType.ANCIENT_DEAD,
        )
        problems = tomb_raid_problems(order, raid)
        # One mission a turn is said once, at the second mission.
        problems = [p for p in problems if p.code is not MissionProblemCode.ONE_MISSION or index == 1]
        for problem in problems:
            check.error_problems.append(
                SheetProblem(
                    SheetProblemCode(problem.code.value),
                    problem.message,
                    **entry_at(PART, index, MISSION_FIELDS.get(problem.code, "province")),
                )
            )
        if not problems:
            ruin = ctx.ruins[order.province]
            gold = mission_gold(order, ctx.raiders_points_added)
            fee = f", with the change fee of {gold - MISSION_GOLD:,}" if gold > MISSION_GOLD else ""
            check.costs.append((f"Tomb Raid on {ruin.name} (Using Tomb Raiders{fee})", gold))
