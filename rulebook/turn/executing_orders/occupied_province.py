"""Occupied Province: friendly armies moving into or staying in the same province roll off; the
winner of a roll against an army staying there shares the province (pure Python)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Collection
from dataclasses import replace

from kernel.dice import Dice
from kernel.event_codes import EventCode
from kernel.events import Event
from rulebook.turn.executing_orders import PHASE
from rulebook.turn.executing_orders.move import Moves, cancel, roll_off
from rulebook.turn.state import TurnState
from rulebook.world import ArmyState


def occupied_province(
    state: TurnState,
    dice: Dice,
    events: list[Event],
    moves: Moves,
    start: dict[int, int],
    fatigued: Collection[int] = (),
) -> None:
    """Occupied Province: "Whenever there are two or more friendly armies attempt to move into or
    occupy the same province, roll a d6 for each army. The army with the highest result may move,
    the rest ... remain stationary and act as if they had been given the Hold orders." A friendly
    army staying in the province occupies it and rolls too; ties among the highest roll again (O5).
    A mover that beats an army staying there moves in beside it and shares the province as a failed
    forced march does ("the province cannot support 2 armies at once"): it does not count as being
    there and must move out next turn (decision 29). A `fatigued` forced march into a province a
    friendly army stays in rolls for nothing: it co-occupies it (Forced March note; settled once the
    moves are made, `fatigued_sharing`); into one no friendly army keeps, it rolls as any mover.
    Cancelled moves leave armies staying where they started, which can bring them into another
    roll, so this repeats until nothing changes."""
    changed = True
    while changed:
        changed = False
        # Who stays where, as this pass begins; a move cancelled below makes another pass.
        stays: dict[tuple[int, int], list[ArmyState]] = defaultdict(list)
        for a in sorted(state.armies.values(), key=lambda a: a.id):
            if a.id not in moves and not a.disbanded:
                stays[(a.kingdom, start[a.id])].append(a)
        by_target: dict[tuple[int, int], list[int]] = defaultdict(list)
        for army_id, (target, _) in sorted(moves.items()):
            kingdom = state.armies[army_id].kingdom
            if state.armies[army_id].co_occupying:
                continue  # a mover that already won its roll against the army staying there shares the province
            if army_id in fatigued and stays.get((kingdom, target)):
                continue  # the Forced March note, not a roll: it shares the province with the army that stays
            by_target[(kingdom, target)].append(army_id)
        for (kingdom, target), army_ids in sorted(by_target.items()):
            staying = stays.get((kingdom, target), [])
            if not staying and len(army_ids) == 1:
                continue
            movers = [state.armies[i] for i in army_ids]
            rolls = roll_off(dice, [*staying, *movers], "occupied province")
            best = state.armies[max(rolls, key=lambda i: rolls[i])]
            where = state.provinces[target]
            for mover in movers:
                if mover.id != best.id:
                    cancel(
                        state,
                        events,
                        moves,
                        mover.id,
                        EventCode.OCCUPIED_PROVINCE,
                        f"Occupied Province: {best.name} ({rolls[best.id]}) "
                        f"{'moves into' if best.id in moves else 'stays in'} {where}; {mover.name} "
                        f"({rolls[mover.id]}) does not move in and holds.",
                        holds=True,
                    )
            if best.id in moves and staying:
                state.armies[best.id] = replace(best, co_occupying=True)
                beaten = ", ".join(f"{a.name} ({rolls[a.id]})" for a in staying)
                events.append(
                    Event(
                        PHASE,
                        EventCode.OCCUPIED_PROVINCE,
                        f"Occupied Province: {best.name} ({rolls[best.id]}) beats {beaten} and moves into {where}, "
                        f"which {staying[0].name} keeps: {best.name} shares it, does not count as being there "
                        "(it cannot be attacked or lend support) and must move out next turn (Occupied Province; "
                        "Forced March).",
                        kingdom=best.kingdom,
                        army=best.id,
                        province=target,
                    )
                )
            changed = True
