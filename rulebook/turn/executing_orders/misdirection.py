"""Sabotage, Misdirection, at the resolution after the success (pure Python). Rule case RS4; decisions
450 and 480-481.

"One army's orders are canceled and revert to "Hold"": the army the saboteur named holds on the next
orders its kingdom gives (decision 450), once the orders are normalised and before anything else reads
them (the Tomb Raiders' missions, the moves). Both kingdoms are told why; the saboteur learns nothing
of the order cancelled (that is Reconnaissance's Army Orders).
"""

from __future__ import annotations

from kernel.event_codes import EventCode
from kernel.events import Event
from rulebook.ruins_and_tomb_raiders.mission_effects import due_at_the_orders
from rulebook.ruins_and_tomb_raiders.sabotage import Sabotage
from rulebook.turn.executing_orders import PHASE
from rulebook.turn.state import TurnState
from rulebook.turn.write_orders.records import OrderKind

WHY = "(Sabotage: Misdirection)"


def misdirect_armies(state: TurnState, events: list[Event]) -> None:
    """Each pending Misdirection: the target army's order reverts to Hold (its standing choices kept,
    as any order held). A target that gave no orders this turn holds anyway: the effect waits for the
    next orders it gives (decision 480). An army no longer on the map (destroyed, disbanded) cannot be
    misdirected: the effect is spent all the same, and the saboteur is told (decision 481)."""
    for effect, army in due_at_the_orders(state.world, Sabotage.MISDIRECTION, state.missed_orders):
        target = state.kingdoms[effect.target].name
        if army is None:
            events.append(
                Event(
                    PHASE,
                    EventCode.MISDIRECTION,
                    f"Your Misdirection against {target} is spent: the army it named is no longer on the map {WHY}.",
                    kingdom=effect.kingdom,
                    data={"effect": effect.id, "target_army": effect.target_army, "gone": True},
                )
            )
            continue
        order = state.orders.get(army.id)
        was = order.kind.value if order is not None else OrderKind.HOLD.value
        if order is not None:
            state.orders[army.id] = order.held()
        events.append(
            Event(
                PHASE,
                EventCode.MISDIRECTION,
                f"{army.name}'s orders are cancelled by a saboteur and revert to Hold {WHY}.",
                kingdom=army.kingdom,
                army=army.id,
                province=army.province,
                data={"effect": effect.id, "order": was},
            )
        )
        events.append(
            Event(
                PHASE,
                EventCode.MISDIRECTION,
                f"Your saboteurs cancel the orders of {target}'s {army.name}: it holds this turn {WHY}.",
                kingdom=effect.kingdom,
                data={"effect": effect.id, "target_army": army.id, "target": effect.target},
            )
        )
