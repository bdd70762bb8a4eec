"""Don't Pass in the Night: enemy armies ordered into each other's provinces roll off (pure Python)."""

from __future__ import annotations

from collections import defaultdict

from kernel.dice import Dice
from kernel.event_codes import EventCode
from kernel.events import Event
from rulebook.turn.executing_orders.move import Moves, cancel
from rulebook.turn.state import TurnState


def dont_pass_in_the_night(
    state: TurnState, dice: Dice, events: list[Event], moves: Moves, start: dict[int, int]
) -> None:
    """Enemy armies ordered into each other's provinces: both roll (ties again); the higher moves,
    the lower stays and the battle is in its province (O4)."""
    by_route: dict[tuple[int, int], list[int]] = defaultdict(list)
    for army_id, (target, _) in moves.items():
        by_route[(start[army_id], target)].append(army_id)
    for a_id in sorted(moves):
        if a_id not in moves:
            continue
        a = state.armies[a_id]
        for b_id in sorted(by_route.get((moves[a_id][0], start[a_id]), [])):
            b = state.armies[b_id]
            if b_id <= a_id or b.kingdom == a.kingdom or b_id not in moves or a_id not in moves:
                continue
            if state.allied(a.kingdom, b.kingdom):  # Allies: they pass each other as friends
                continue
            while True:
                ra = dice.d6(purpose=f"{a.name}: don't pass in the night", kingdoms=[a.kingdom], armies=[a.id])
                rb = dice.d6(purpose=f"{b.name}: don't pass in the night", kingdoms=[b.kingdom], armies=[b.id])
                if ra != rb:
                    break
            loser = b if ra > rb else a
            winner = a if loser is b else b
            cancel(
                state,
                events,
                moves,
                loser.id,
                EventCode.PASSED_IN_THE_NIGHT,
                f"Don't pass in the night: {winner.name} ({max(ra, rb)}) beats {loser.name} "
                f"({min(ra, rb)}); {loser.name} stays in {state.provinces[start[loser.id]]}.",
            )
