"""Recover: an army not attacked rolls to recover its razed province (pure Python)."""

from __future__ import annotations

from dataclasses import replace

from kernel.dice import Dice
from kernel.event_codes import EventCode
from kernel.events import Event
from rulebook.turn.executing_orders import PHASE
from rulebook.turn.state import TurnState
from rulebook.turn.write_orders.records import OrderKind

RECOVER_NEEDS = 4  # Recover: 4+, +1 for each earlier consecutive turn; a natural 1 fails


def recover(state: TurnState, dice: Dice, events: list[Event], fighting: set[int]) -> None:
    """Recover: "Armies occupying Razed provinces may attempt to Recover them. If an army is given
    Recover orders and is not brought to battle by an enemy army, roll a d6" (4+, +1 for each
    earlier consecutive turn, a natural 1 fails; decision 34). An army sharing a friendly army's
    province (Forced March note; Occupied Province, decision 29) "does not count as being there":
    it occupies nothing, so it does not roll (as it does not fortify, decision 33); the army that
    keeps the province may."""
    for army in sorted(state.armies.values(), key=lambda a: a.id):
        if state.orders[army.id].kind is not OrderKind.RECOVER:
            if army.recover_streak:  # the streak broken (a thousand armies: no copy of one that has none)
                state.armies[army.id] = replace(army, recover_streak=0)
            continue
        province = state.provinces[army.province]
        if army.id in fighting:
            events.append(
                Event(
                    PHASE,
                    EventCode.RECOVER_IN_BATTLE,
                    f"{army.name} is being attacked: it cannot recover {province} this turn (Recover).",
                    kingdom=army.kingdom,
                    army=army.id,
                    province=province.number,
                )
            )
            continue
        if not province.razed:
            continue
        if army.co_occupying:
            # Not one more chance for the province: only the army that counts as being there rolls.
            state.armies[army.id] = replace(army, recover_streak=0)
            events.append(
                Event(
                    PHASE,
                    EventCode.RECOVER_CO_OCCUPYING,
                    f"{army.name} shares {province} with a friendly army and does not count as being there: "
                    "it cannot recover it and holds (Recover; Forced March; Occupied Province).",
                    kingdom=army.kingdom,
                    army=army.id,
                    province=province.number,
                )
            )
            continue
        roll = dice.d6(
            purpose=f"{army.name}: recover {province} (4+, +{army.recover_streak})",
            kingdoms=[army.kingdom],
            armies=[army.id],
        )
        if roll != 1 and roll + army.recover_streak >= RECOVER_NEEDS:
            events.append(
                Event(
                    PHASE,
                    EventCode.RECOVERED,
                    f"{army.name} rolls {roll}+{army.recover_streak}: {province} is recovered.",
                    kingdom=army.kingdom,
                    army=army.id,
                    province=province.number,
                )
            )
            state.provinces[province.number] = replace(province, razed=False)
            state.armies[army.id] = replace(army, recover_streak=0)
        else:
            state.armies[army.id] = replace(army, recover_streak=army.recover_streak + 1)
            events.append(
                Event(
                    PHASE,
                    EventCode.RECOVER_FAILED,
                    f"{army.name} rolls {roll}: {province} is not recovered yet.",
                    kingdom=army.kingdom,
                    army=army.id,
                    province=province.number,
                )
            )
