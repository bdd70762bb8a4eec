"""Raze: an army razes the province it stands in (taking it when it is an ally's, Allies: Raze, as a
conquest takes it: its Elite Defense Force perishes, a capitol is lost); Raze / Move then rolls to
move on (pure Python)."""

from __future__ import annotations

from dataclasses import replace

from kernel.dice import Dice
from kernel.event_codes import EventCode
from kernel.events import Event
from rulebook.allies.chart import BreakKind
from rulebook.allies.declarations import alliance_break
from rulebook.loss_of_the_capitol import capitol_taken
from rulebook.turn.executing_orders import PHASE
from rulebook.turn.fight_battles.towns_cities_capitols import elite_defense_perishes
from rulebook.turn.state import TurnState
from rulebook.turn.write_orders.records import OrderKind

RAZE_MOVE_NEEDS = 3  # Raze: after razing, a D6 of 3+ lets the army move


def raze(state: TurnState, dice: Dice, events: list[Event]) -> None:
    for army in sorted(state.armies.values(), key=lambda a: a.id):
        order = state.orders[army.id]
        if order.kind not in (OrderKind.RAZE_HOLD, OrderKind.RAZE_MOVE):
            continue
        owner = state.provinces[army.province].controller
        alliance = state.world.alliance_between(army.kingdom, owner)
        if alliance is not None:
            # Allies, Raze: "By Razing the province this way, the backstabber takes control of that province."
            alliance_break(
                state, alliance, by=army.kingdom, how=BreakKind.RAZE, phase=PHASE, events=events, province=army.province
            )
            # Taking the province by razing it is taking it as a conquest does (decision 556): its Elite
            # Defense Force perishes, and a capitol taken is lost (Loss of the Capitol). Nothing is
            # looted: Looting follows a battle won, and there was none.
            was = state.provinces[army.province]
            elite_defense_perishes(state.world, events, province=was.number, taker=army.kingdom, phase=PHASE)
            taken = state.provinces[army.province].taken_by(army.kingdom)
            state.provinces[taken.number] = taken
            events.append(
                Event(
                    PHASE,
                    EventCode.PROVINCE_CLAIMED,
                    f"{army.name} takes {taken} by razing it (Allies, Raze).",
                    kingdom=army.kingdom,
                    army=army.id,
                    province=taken.number,
                    data={"from_kingdom": owner},
                )
            )
            events.append(
                Event(
                    PHASE,
                    EventCode.PROVINCE_LOST,
                    f"{taken} is taken by {state.kingdoms[army.kingdom].name}.",
                    kingdom=owner,
                    province=taken.number,
                )
            )
            capitol_taken(state.world, events, province=was, taker=army.kingdom, phase=PHASE)
        # Fortification bonuses are lost with the land ("Razed provinces cannot be Fortified").
        was_fortified = state.provinces[army.province].fortified
        province = replace(state.provinces[army.province], razed=True, fortified=False)
        state.provinces[province.number] = province
        for fortifier in [a for a in state.armies.values() if a.fortified_in == province.number]:
            state.armies[fortifier.id] = replace(fortifier, fortified_in=None)  # said here, not again
        events.append(
            Event(
                PHASE,
                EventCode.RAZED,
                f"{army.name} razes {province}" + ("; its fortifications are lost." if was_fortified else "."),
                kingdom=army.kingdom,
                army=army.id,
                province=province.number,
            )
        )
        if order.kind is OrderKind.RAZE_MOVE:
            roll = dice.d6(purpose=f"{army.name}: raze then move (3+ moves)", kingdoms=[army.kingdom], armies=[army.id])
            if roll < RAZE_MOVE_NEEDS:
                state.orders[army.id] = order.held()
                events.append(
                    Event(
                        PHASE,
                        EventCode.RAZE_TOO_LONG,
                        f"{army.name} rolls {roll}: razing took too long, it stays.",
                        kingdom=army.kingdom,
                        army=army.id,
                        province=province.number,
                    )
                )
