"""Reconnaissance, Army Orders, at the resolution after the success (pure Python). Decisions 450 and
482-483.

"The orders given to any one army this turn. In addition, may adjust the orders to any one of your own
armies to "hold" if it is in response or relation to this information." The spy learns the army's order
of the next turn its kingdom gives orders (decision 450), once the orders are normalised and any
Misdirection applied: the order the army carries out (decision 482). Its "response" is written on its own
sheet of that turn before the information arrives: a MissionUse naming the effect and one of its own
armies, which holds if the spied army is ordered into that army's province or one adjacent to it, and
otherwise keeps its order (decision 483).
"""

from __future__ import annotations

from typing import Any

from kernel.event_codes import EventCode
from kernel.events import Event
from rulebook.ruins_and_tomb_raiders.mission_effects import due_at_the_orders
from rulebook.ruins_and_tomb_raiders.reconnaissance import Reconnaissance
from rulebook.turn.executing_orders import PHASE
from rulebook.turn.state import TurnState
from rulebook.turn.write_orders.records import ArmyOrder, OrderKind

WHY = "(Reconnaissance: Army Orders)"


def order_words(state: TurnState, order: ArmyOrder) -> str:
    """The order as the spy reads it: its kind and the provinces it names."""
    words = order.kind.label
    if order.kind is OrderKind.FORCED_MARCH and order.path:
        words += " through " + " to ".join(str(state.provinces[p]) for p in order.path)
    elif order.target is not None:
        words += f" to {state.provinces[order.target]}"
    if order.support is not None and order.kind is OrderKind.SUPPORT:
        words += f" the battle in {state.provinces[order.support]}"
    elif order.support is not None:  # a Move or Forced March that supports as well (decision 588)
        words += f", and to support the battle in {state.provinces[order.support]}"
    return words


def entered(order: ArmyOrder) -> tuple[int, ...]:
    """The provinces the order moves the army into (each step of a Forced March)."""
    if order.kind is OrderKind.FORCED_MARCH:
        return tuple(order.path)
    return (order.destination,) if order.destination is not None else ()


def spy_on_orders(state: TurnState, events: list[Event]) -> None:
    """Each pending Army Orders: the spy's INTELLIGENCE with the army's order (the spy's alone), then the
    response its sheet asked for. A target that gave no orders waits (as Misdirection, decision 480); a
    spied army no longer on the map spends the effect, and the spy is told."""
    for effect, army in due_at_the_orders(state.world, Reconnaissance.ARMY_ORDERS, state.missed_orders):
        target = state.kingdoms[effect.target].name
        if army is None:
            events.append(
                Event(
                    PHASE,
                    EventCode.INTELLIGENCE,
                    f"Army Orders of {target}: the army your spies watched is no longer on the map {WHY}.",
                    kingdom=effect.kingdom,
                    data={"mission": effect.mission, "effect": effect.id, "info": {"gone": True}},
                )
            )
            continue
        order = state.orders.get(army.id) or ArmyOrder(army.id)
        info: dict[str, Any] = {
            "army_name": army.name,
            "province": army.province,
            "order": order.kind.value,
            "to": order.destination,
            "path": list(order.path),
            "supports": order.support,
        }
        events.append(
            Event(
                PHASE,
                EventCode.INTELLIGENCE,
                f"Army Orders of {target}: {army.name} in {state.provinces[army.province]} is ordered to "
                f"{order_words(state, order)} {WHY}.",
                kingdom=effect.kingdom,
                data={"mission": effect.mission, "effect": effect.id, "target_army": army.id, "info": info},
            )
        )
        _response(state, effect.kingdom, effect.id, army.name, entered(order), events)


def _response(state: TurnState, spy: int, effect: int, spied: str, into: tuple[int, ...], events: list[Event]) -> None:
    """The spy's own army named for the effect holds when the spied army is ordered into its province
    or one adjacent to it (decision 483)."""
    sheet = state.sheets.get(spy)
    use = next((u for u in sheet.mission_uses if u.effect == effect), None) if sheet is not None else None
    own = state.armies.get(use.army) if use is not None and use.army is not None else None
    if own is None or own.kingdom != spy or own.disbanded:
        return
    near = [p for p in into if p == own.province or state.adjacent(p, own.province)]
    order = state.orders.get(own.id)
    if near and order is not None and order.kind is not OrderKind.HOLD:
        state.orders[own.id] = order.held()
    here = state.provinces[own.province]
    text = (
        f"{own.name} holds in response: {spied} is ordered into {state.provinces[near[0]]}, at or beside {here} {WHY}."
        if near
        else f"{own.name} keeps its orders: {spied} is not ordered into {here} or beside it {WHY}."
    )
    events.append(
        Event(
            PHASE,
            EventCode.ARMY_ORDERS_RESPONSE,
            text,
            kingdom=spy,
            army=own.id,
            province=own.province,
            data={"effect": effect, "held": bool(near)},
        )
    )
