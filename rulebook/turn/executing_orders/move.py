"""Move: the moves the orders intend (a Forced March rolled for), the cancelling of a move that a
roll-off stops (Don't Pass in the Night, Occupied Province, Multiple Moves into Battle), and the
moves made (pure Python)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from kernel.dice import Dice
from kernel.event_codes import EventCode
from kernel.events import Event
from rulebook.turn.executing_orders import PHASE
from rulebook.turn.executing_orders.forced_march import forced_march
from rulebook.turn.state import TurnState
from rulebook.turn.write_orders.records import OrderKind
from rulebook.world import ArmyState

Moves = dict[int, tuple[int, list[int]]]  # army -> (destination, provinces passed through)


def intended_moves(state: TurnState, dice: Dice, events: list[Event], start: dict[int, int]) -> tuple[Moves, set[int]]:
    """army -> (destination, provinces passed through) for every army that will try to move, and
    the armies a Forced March left fatigued (one province only: they may share a friendly army's)."""
    moves: Moves = {}
    fatigued: set[int] = set()
    for army in sorted(state.armies.values(), key=lambda a: a.id):
        order = state.orders[army.id]
        if order.kind in (OrderKind.MOVE, OrderKind.RAZE_MOVE) and order.target is not None:
            moves[army.id] = (order.target, [])
        elif order.kind is OrderKind.FORCED_MARCH and len(order.path) == 2:
            result = forced_march(state, dice, events, army, order, start, fatigued)
            if result is not None:
                moves[army.id] = result
    return moves, fatigued


def make_moves(state: TurnState, events: list[Event], moves: Moves, start: dict[int, int]) -> None:
    """Every move the roll-offs left stands: the army is in its destination."""
    for army_id, (province, passed) in sorted(moves.items()):
        army = replace(state.armies[army_id], province=province)
        state.armies[army_id] = army
        events.append(
            Event(
                PHASE,
                EventCode.MOVED,
                f"{army.name} moves {'through ' + ', '.join(map(_name(state), passed)) + ' to ' if passed else 'into '}"
                f"{state.provinces[province]}.",
                kingdom=army.kingdom,
                army=army.id,
                province=province,
                data={"from": start[army_id], "path": [*passed, province]},
            )
        )


def _name(state: TurnState):  # type: ignore[no-untyped-def]
    return lambda number: str(state.provinces[number])


def cancel(
    state: TurnState,
    events: list[Event],
    moves: Moves,
    army_id: int,
    code: EventCode,
    text: str,
    *,
    holds: bool = False,
) -> None:
    """The army's move is cancelled (`code`, `text` say why): it stays where it started. `holds`:
    the rule that cancels it has it "act as if [it] had been given the Hold orders" (Occupied
    Province; Multiple Moves into Battle), and "An army given Hold orders remains in place and does
    nothing" (Hold): the support its Move and / or Support order named does not take place either
    (decision 623). Its standing choices (the Foraging Table's, who defends its town) still stand."""
    moves.pop(army_id, None)
    order = state.orders[army_id]
    if holds:
        state.orders[army_id] = order.held()
        if order.support is not None:
            text += f" As if given Hold, it sends no support to {state.provinces[order.support]} (Hold)."
    army = state.armies[army_id]
    events.append(Event(PHASE, code, text, kingdom=army.kingdom, army=army_id, province=army.province))


class Roll(tuple[int, ...]):
    """An army's roll in a roll-off: its D6, then each reroll it made when tied. Rolls compare as
    (first roll, first reroll, ...), so a reroll breaks a tie among the tied alone and never lifts an
    army over one whose first roll was higher. Shown "5, then 2"."""

    def __str__(self) -> str:
        return ", then ".join(map(str, self))


def _tie_for_the_highest(rolls: dict[int, Roll]) -> Roll | None:
    top = max(rolls.values())
    return top if sum(1 for r in rolls.values() if r == top) > 1 else None


def roll_off(
    dice: Dice,
    armies: list[ArmyState],
    purpose: str,
    contested: Callable[[dict[int, Roll]], Roll | None] = _tie_for_the_highest,
) -> dict[int, Roll]:
    """A D6 each; the armies tied where it matters roll again, only the tied ones, until no tie
    that matters is left (Occupied Province, O5: "The army with the highest result may move"; a tie
    among the highest matters unless told otherwise: `contested` returns the tied roll to break, or
    None). The reroll ranks the tied among themselves only: an army that rolled 4 does not move in
    because the two that rolled 5 tied and then rolled 1 and 2 (decision 624)."""
    rolls = {
        a.id: Roll((dice.d6(purpose=f"{a.name}: {purpose}", kingdoms=[a.kingdom], armies=[a.id]),)) for a in armies
    }
    while (tied := contested(rolls)) is not None:
        for a in armies:
            if rolls[a.id] == tied:
                again = dice.d6(purpose=f"{a.name}: {purpose} (tie)", kingdoms=[a.kingdom], armies=[a.id])
                rolls[a.id] = Roll((*rolls[a.id], again))
    return rolls
