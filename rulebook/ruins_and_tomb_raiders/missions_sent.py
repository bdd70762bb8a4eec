"""Using Tomb Raiders at the turn's resolution: the missions the submitted sheets send, checked again
and paid, before 5. Executing Orders (pure Python). Rules decisions 408, 410, 415, 450 and 456.

"Tomb Raiders may do ONE of the following missions each turn. To send the Tomb Raiders on a mission
costs 100 gold from your Treasury." The sheet's check accepted the mission when it was submitted, days
before: the state may have changed since (the gold spent by the turn's first phases, the force changed
again, the army's order refused). So each Tomb Raid is checked again against the state as the orders
find it: one that still goes takes its gold from the treasury (a ledger row) and is recorded in
`TurnState.raids`, where the scheduling of the turn's battles finds the armies that wait on it; one that
does not go costs nothing, and the kingdom's report says why. A Reconnaissance or Sabotage is checked
again the same way (the rival still in the game, the army or character still one the spy may name, the
force ready, the gold), paid, and recorded in `TurnState.rival_missions`, where 6. Fight Battles finds
it to make its skirmish (decision 450). Nothing here is the target's: the battles tell it the raiders
come.
"""

from __future__ import annotations

from dataclasses import replace

from kernel.event_codes import EventCode
from kernel.events import Event
from kernel.ledger import LedgerReason
from rulebook.ruins_and_tomb_raiders.rival_mission_orders import (
    rival_mission_gold,
    rival_mission_problems,
    section_of,
)
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
from rulebook.turn.write_orders.missions import (
    is_rival_mission,
    mission_order,
    moves_into,
    rival_context,
    rival_mission_words,
    rival_order,
)
from rulebook.turn.write_orders.records import TombRaiderMission

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
        if is_rival_mission(sheet.missions[0]):
            _send_rival_mission(state, events, kingdom_id, sheet.missions[0])
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


def _send_rival_mission(state: TurnState, events: list[Event], kingdom_id: int, mission: TombRaiderMission) -> None:
    """A Reconnaissance or Sabotage checked again against the state as the orders find it: paid (the fee
    of 100 and the change fee it pays, ledger reason Tomb Raiders) and recorded for 6. Fight Battles, or
    not sent, with why. The event is the spy's alone: it names the target, which learns of the raiders
    from its battle (decision 456)."""
    kingdom = state.kingdoms[kingdom_id]
    order = rival_order(mission)
    added = state.raiders_points_added.get(kingdom_id, 0)
    ctx = rival_context(
        state.world,
        kingdom_id,
        force=state.raiders.get(kingdom_id),
        treasury=kingdom.treasury,
        points_added=added,
        characters=state.rival_characters,
    )
    section = section_of(mission.kind)
    words = rival_mission_words(mission, state.world, state.rival_characters)
    data = {
        "mission": mission.kind,
        "desired": mission.desired,
        "target_kingdom": mission.target_kingdom,
        "target_army": mission.target_army,
        "target_character": mission.target_character,
    }
    problems = rival_mission_problems(order, ctx)
    if problems:
        events.append(
            Event(
                PHASE,
                EventCode.RIVAL_MISSION_NOT_SENT,
                f"The Tomb Raiders do not set off on the {words}; nothing is paid: "
                f"{' '.join(p.message for p in problems)}",
                kingdom=kingdom_id,
                data=data | {"problems": [p.code.value for p in problems]},
            )
        )
        return
    gold = rival_mission_gold(order, added)
    fee = gold - MISSION_GOLD
    state.kingdoms[kingdom_id] = replace(kingdom, treasury=kingdom.treasury - gold)
    state.rival_missions[kingdom_id] = mission
    paid = f"the Tomb Raider's fee of {MISSION_GOLD:,} gold" + (f" and the change fee of {fee:,}" if fee else "")
    events.append(
        Event(
            PHASE,
            EventCode.RIVAL_MISSION_SENT,
            f"The Tomb Raiders set off on a {words} for {paid} ({section}); the skirmish is played with this "
            "turn's battles.",
            kingdom=kingdom_id,
            gold=-gold,
            ledger_reason=LedgerReason.TOMB_RAIDERS,
            data=data | {"gold": gold, "fee": fee},
        )
    )
