"""4. Write Orders, Hold: every army ends with exactly one legal order; one that has none, or one
the sheet check refuses now, holds (pure Python)."""

from __future__ import annotations

from kernel.event_codes import EventCode
from kernel.events import Event
from rulebook.turn.executing_orders import PHASE
from rulebook.turn.state import TurnState
from rulebook.turn.write_orders.check import order_sheet_check
from rulebook.turn.write_orders.context import SheetContext, order_sheet_context
from rulebook.turn.write_orders.records import ArmyOrder, OrderKind, SheetEntries


def normalise_orders(state: TurnState, events: list[Event]) -> None:
    """Every army ends with exactly one legal order: armies of kingdoms that missed their orders
    hold (O1); an order the sheet check refuses now (the state changed since it was written) holds."""
    for kingdom in state.kingdoms.values():
        if kingdom.id in state.missed_orders and not kingdom.ancient_dead:
            events.append(
                Event(
                    PHASE,
                    EventCode.MISSED_ORDERS,
                    f"{kingdom.name} sent no orders: every army holds.",
                    kingdom=kingdom.id,
                )
            )
    # The sheet check's view of each kingdom, derived once from the state as phases 1-3 left it:
    # the check refuses what the kingdom's armies can no longer do.
    contexts: dict[int, SheetContext] = {}
    for army in sorted(state.armies.values(), key=lambda a: a.id):
        order = state.orders.get(army.id)
        if order is None or army.kingdom in state.missed_orders or army.disbanded:
            # A disbanded army (2. Maintain Armies) is gone: its order is not executed, and its
            # disbanding was reported; no reason to refuse the order is given in its place.
            state.orders[army.id] = ArmyOrder(army.id, OrderKind.HOLD)
            continue
        if army.kingdom not in contexts:
            contexts[army.kingdom] = order_sheet_context(state.world, army.kingdom)
        check = order_sheet_check(SheetEntries(orders=(order,)), contexts[army.kingdom], warnings=False)
        if check.error_problems:
            state.orders[army.id] = order.held()
            problem = check.error_problems[0]
            events.append(
                Event(
                    PHASE,
                    EventCode.ORDER_ILLEGAL,
                    f"{problem.message(check.names)} It holds.",  # the message names the army once
                    kingdom=army.kingdom,
                    army=army.id,
                    data={"problem": problem.code.value},
                )
            )
