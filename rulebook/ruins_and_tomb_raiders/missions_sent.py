"""Using Tomb Raiders at the turn's resolution: the missions the submitted sheets send, checked again
and paid, before 5. Executing Orders (pure Python). Rules decisions 408, 410 and 415.

"Tomb Raiders may do ONE of the following missions each turn. To send the Tomb Raiders on a mission
costs 100 gold from your Treasury." The sheet's check accepted the mission when it was submitted, days
before: the state may have changed since (the gold spent by the turn's first phases, the force changed
again, the army's order refused). So each Tomb Raid is checked again against the state as the orders
find it: one that still goes takes its gold from the treasury (a ledger row) and is recorded in
`TurnState.raids`, where the scheduling of the turn's battles finds the armies that wait on it; one that
does not go costs nothing, and the kingdom's report says why.
"""

from __future__ import annotations

from dataclasses import replace

from kernel.event_codes import EventCode
from kernel.events import Event
from kernel.ledger import LedgerReason
from rulebook.ruins_and_tomb_raiders.tomb_raid import (
    MISSION_GOLD,
    USING,
    RaidContext,
    armies_waiting,
    mission_gold,
    tomb_raid_problems,
)
from rulebook.turn.state import TurnState
from rulebook.turn.write_orders.context import ruins_of
from rulebook.turn.write_orders.missions import mission_order, moves_into

PHASE = "tomb-raiders"


def send_tomb_raiders(state: TurnState, events: list[Event]) -> None:
    """Each submitted sheet's Tomb Raid, after the orders are normalised (an army whose order was refused
    holds, and moves into no ruin) and before any army moves: sent and paid, or not sent, with an event
    for the kingdom either way. Only the sheet's first mission is read: the sheet's check refuses a
    second one."""
    ruins = ruins_of(state.world)
    for kingdom_id, sheet in sorted(state.sheets.items()):
        kingdom = state.kingdoms.get(kingdom_id)
        if kingdom is None or kingdom_id in state.missed_orders or not sheet.missions:
            continue
        order = mission_order(sheet.missions[0])
        if order is None:
            _not_sent(events, kingdom_id, None, ["The sheet's Tomb Raid names no ruin."], ["mission-not-ruins"])
            continue
        own = {a.id for a in state.armies.values() if a.kingdom == kingdom_id and not a.disbanded}
        moves = moves_into((o for army, o in sorted(state.orders.items()) if army in own), own)
        added = state.raiders_points_added.get(kingdom_id, 0)
        problems = tomb_raid_problems(
            order,
            RaidContext(
                force=state.raiders.get(kingdom_id),
                treasury=kingdom.treasury,
                ruins=ruins,
                moves=moves,
                points_added=added,
                ancient_dead=kingdom.ancient_dead,
            ),
        )
        if problems:
            _not_sent(
                events,
                kingdom_id,
                order.province,
                [p.message for p in problems],
                [p.code.value for p in problems],
                where=ruins[order.province].name if order.province in ruins else f"province {order.province}",
            )
            continue
        ruin = ruins[order.province]
        gold = mission_gold(order, added)
        state.kingdoms[kingdom_id] = replace(kingdom, treasury=kingdom.treasury - gold)
        state.raids[kingdom_id] = order.province
        waiting = armies_waiting(order.province, moves)
        names = " and ".join(state.armies[a].name for a in waiting)
        fee = gold - MISSION_GOLD
        paid = f"{MISSION_GOLD:,} gold" + (f" and the change fee of {fee:,}" if fee else "")
        events.append(
            Event(
                PHASE,
                EventCode.TOMB_RAID_SENT,
                f"The Tomb Raiders set off on a Tomb Raid on {ruin.name} for {paid} ({USING}). {names} "
                f"{'waits' if len(waiting) == 1 else 'wait'} on the raid: it moves into {ruin.name} only if the "
                "raid is a success (Ruins).",
                kingdom=kingdom_id,
                province=order.province,
                gold=-gold,
                ledger_reason=LedgerReason.TOMB_RAIDERS,
                data={"mission": "tomb-raid", "gold": gold, "fee": fee, "armies": list(waiting)},
            )
        )


def _not_sent(
    events: list[Event],
    kingdom: int,
    province: int | None,
    reasons: list[str],
    codes: list[str],
    *,
    where: str = "",
) -> None:
    """The mission does not go, and costs nothing: the kingdom's report says why."""
    on = f" on {where}" if where else ""
    events.append(
        Event(
            PHASE,
            EventCode.TOMB_RAID_NOT_SENT,
            f"The Tomb Raiders do not set off on the Tomb Raid{on}; nothing is paid: {' '.join(reasons)} "
            "Without a raid, an army ordered into the ruins may not move in this turn (Ruins).",
            kingdom=kingdom,
            province=province,
            data={"mission": "tomb-raid", "problems": codes},
        )
    )
