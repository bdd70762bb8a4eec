"""5. Executing Orders: the orders carried out in the rulebook's order (pure Python).

Raze, then the moves (Move, Forced March, Don't Pass in the Night, then Occupied Province, Multiple
Moves into Battle and the moves into Ruins with no Tomb Raid, settled together; a move into Ruins
waits on the Tomb Raid), the contacts and claims they make, then Fortify and Recover; Hold does nothing.
"""

from __future__ import annotations

from dataclasses import replace

from kernel.dice import Dice
from kernel.events import Event
from rulebook.allies.chart import BreakKind
from rulebook.allies.declarations import alliance_break
from rulebook.turn.executing_orders import PHASE
from rulebook.turn.executing_orders.contacts import contacts_and_claims
from rulebook.turn.executing_orders.dont_pass_in_the_night import dont_pass_in_the_night
from rulebook.turn.executing_orders.forced_march import co_occupation_follow_up, fatigued_sharing
from rulebook.turn.executing_orders.fortify import fortify
from rulebook.turn.executing_orders.move import Moves, intended_moves, make_moves
from rulebook.turn.executing_orders.multiple_moves_into_battle import multiple_moves_into_battle
from rulebook.turn.executing_orders.occupied_province import occupied_province
from rulebook.turn.executing_orders.raze import raze
from rulebook.turn.executing_orders.recover import recover
from rulebook.turn.executing_orders.ruins import ruins_entries, ruins_without_raid
from rulebook.turn.state import Contact, TurnState
from rulebook.world import lose_fortifications


def execute_orders(state: TurnState, dice: Dice, events: list[Event]) -> list[Contact]:
    """Phase 5: raze, then moves and supports, then fortify, recover, hold. Returns the contacts
    (where enemies meet) for the battles phase; claims provinces that change hands without a fight."""
    start = {a.id: a.province for a in state.armies.values()}
    sharing = {a.id for a in state.armies.values() if a.co_occupying}  # from a failed forced march last turn
    for army_id in sharing:
        # Its moves this turn follow the usual rules; if it stays, the follow-up marks it again.
        state.armies[army_id] = replace(state.armies[army_id], co_occupying=False)
    _invasions(state, events)
    raze(state, dice, events)
    destinations, fatigued = intended_moves(state, dice, events, start)
    dont_pass_in_the_night(state, dice, events, destinations, start)
    _roll_offs(state, dice, events, destinations, start, fatigued)
    # Ruins: a move into ruins waits on the kingdom's Tomb Raid (decision 408); the roll-offs have
    # cancelled those without one, the raids' armies stand in the ruins.
    ruins = ruins_entries(state, events, destinations, start)
    make_moves(state, events, destinations, start)
    # Who shares a province is judged where the armies stand now, every roll-off done: a friendly
    # army that moved out leaves nothing to share (decision 41). The fatigued first, so an army
    # that shared last turn and whose partner left holds the province beside them.
    fatigued_sharing(state, events, fatigued, destinations, sharing)
    co_occupation_follow_up(state, dice, events, sharing, start)
    # Moves, forced marches and disbandings are done: a Fortified army that left loses its bonuses.
    events += lose_fortifications(state.world, PHASE)
    # The armies standing in a ruin on their raid neither claim it nor roll for it: the raid decides.
    moved = set(destinations) - ruins.standing
    contacts = ruins.raids + contacts_and_claims(state, dice, events, start, moved)
    fighting = (
        {c.attacker for c in contacts}
        | {c.defender for c in contacts if c.defender is not None}
        | {a for c in contacts for a in c.beside}  # beside its ally in the battle (decisions 550, 551)
    )
    # Fortify comes before 6. Fight Battles: an army attacked this turn fortifies all the same (R12).
    fortify(state, events)
    recover(state, dice, events, fighting)
    return contacts


def _roll_offs(
    state: TurnState, dice: Dice, events: list[Event], moves: Moves, start: dict[int, int], fatigued: set[int]
) -> None:
    """Occupied Province, Multiple Moves into Battle, and the moves into ruins with no raid, until
    none holds another army (decision 577). An army held by any of them "remain[s] stationary" where
    it started, which the earlier ones judged with it leaving: a friendly army that moved in there
    without a roll must roll Occupied Province against it, a third kingdom that moved in there must
    roll Multiple Moves into Battle. Each repeats until it holds no one and rolls in a fixed order,
    so a round that holds no one more leaves them all settled. Don't Pass in the Night comes first
    and once, outside the loop (decision 583): it is judged on the orders ("both receive orders to
    Move into the enemy's province"), and in the loop it could never roll again: the roll-offs only
    cancel moves, so two enemies still swapping provinces after them were swapping before them,
    and it left no such pair."""
    while True:
        occupied_province(state, dice, events, moves, start, fatigued)
        held = multiple_moves_into_battle(state, dice, events, moves, start)
        held = ruins_without_raid(state, events, moves, start) or held
        if not held:
            return


def _invasions(state: TurnState, events: list[Event]) -> None:
    """Allies, Invasion: "An army can end an alliance by taking control of one or more allied
    provinces. The backstabber must note this in their orders": an army whose order takes control of
    the ally's province it moves into breaks the alliance before the moves (decision 137), so it
    moves in as an enemy (it claims the province, or fights for it). Without the note it takes nothing."""
    for army in sorted(state.armies.values(), key=lambda a: a.id):
        order = state.orders[army.id]
        target = order.destination
        if not order.take_control or target is None or target not in state.provinces:
            continue
        alliance = state.world.alliance_between(army.kingdom, state.provinces[target].controller)
        if alliance is not None:
            alliance_break(
                state, alliance, by=army.kingdom, how=BreakKind.INVASION, phase=PHASE, events=events, province=target
            )
