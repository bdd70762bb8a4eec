"""Forced March (D6): two provinces in a turn, or Fatigue (one, and sharing a friendly province
it must leave next turn) or Mutiny; an army that stays sharing forages (pure Python).

Who shares a province is judged where the armies stand once the turn's moves are made (after every
roll-off that can keep a friendly army where it was): a friendly army that moves out leaves nothing
to share (decision 41)."""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import replace

from kernel.dice import Dice
from kernel.event_codes import EventCode
from kernel.events import Event
from rulebook.tables import ArmyType
from rulebook.turn.executing_orders import PHASE
from rulebook.turn.maintain_armies import characters_leave_disbanded, forage_army
from rulebook.turn.state import TurnState
from rulebook.turn.write_orders.records import ArmyOrder
from rulebook.world import ArmyState

# Forced March (D6): 1 Mutiny (holds), 2-3 Fatigue (one province), 4-6 Forced March (two provinces).
FORCED_MARCH_TABLE: dict[int, str] = {1: "mutiny", 2: "fatigue", 3: "fatigue", 4: "march", 5: "march", 6: "march"}
# Army-Specific Rules: these may reroll a failed Forced March (Mutiny) across plains.
PLAINS_REROLL = frozenset(
    {ArmyType.EMPIRE, ArmyType.BRETONNIANS, ArmyType.TOMB_KINGS, ArmyType.HIGH_ELVES, ArmyType.DARK_ELVES}
)


def forced_march(
    state: TurnState,
    dice: Dice,
    events: list[Event],
    army: ArmyState,
    order: ArmyOrder,
    start: dict[int, int],
    fatigued: set[int],
) -> tuple[int, list[int]] | None:
    """Forced March (D6) for an army ordered two provinces on: (destination, provinces passed
    through), one province only when it may not march, is fatigued (added to `fatigued`) or blocked
    by an enemy in the province it would pass through; None when it mutinies and holds (its order
    becomes Hold)."""
    first, second = order.path
    if army.no_forced_march:
        events.append(
            Event(
                PHASE,
                EventCode.FORCED_MARCH_FORBIDDEN,
                f"{army.name} may not Forced March this turn (Foraging Table): it moves one province, into "
                f"{state.provinces[first]}.",
                kingdom=army.kingdom,
                army=army.id,
            )
        )
        return first, []
    # "After a Forced March order is submitted, the player must roll on the chart below and apply the
    # results": an enemy in the way does not spare the roll (decision 30); it only stops a march.
    result = _roll(state, dice, army, order)
    if result == "mutiny":
        # Mutiny: "acts as if it received the Hold order", and "An army given Hold orders remains in
        # place and does nothing" (Hold): the support its order named does not take place either,
        # as with an army Occupied Province holds (decisions 588, 623). Its standing choices stand.
        text = f"{army.name}: Mutiny! It holds."
        state.orders[army.id] = order.held()
        if order.support is not None:
            text += f" As if given Hold, it sends no support to {state.provinces[order.support]} (Hold)."
        events.append(Event(PHASE, EventCode.FORCED_MARCH_MUTINY, text, kingdom=army.kingdom, army=army.id))
        return None
    if result == "fatigue":
        # Whether it shares a friendly army's province waits on the other moves (fatigued_sharing).
        fatigued.add(army.id)
        events.append(
            Event(
                PHASE,
                EventCode.FORCED_MARCH_FATIGUE,
                f"{army.name}: Fatigue, it moves one province only.",
                kingdom=army.kingdom,
                army=army.id,
            )
        )
        return first, []
    enemy_in_first = any(
        a.kingdom != army.kingdom and not state.allied(a.kingdom, army.kingdom) and start[a.id] == first
        for a in state.armies.values()
        if not a.disbanded
    )
    if enemy_in_first:
        # "An army cannot forced marched through an occupied enemy province": it stops there and fights.
        events.append(
            Event(
                PHASE,
                EventCode.FORCED_MARCH_BLOCKED,
                f"{army.name} cannot Forced March through {state.provinces[first]}, occupied by an enemy army: "
                "it stops there.",
                kingdom=army.kingdom,
                army=army.id,
                province=first,
            )
        )
        return first, []
    events.append(
        Event(
            PHASE,
            EventCode.FORCED_MARCH,
            f"{army.name} completes its Forced March.",
            kingdom=army.kingdom,
            army=army.id,
        )
    )
    return second, [first]


def _roll(state: TurnState, dice: Dice, army: ArmyState, order: ArmyOrder) -> str:
    """The Forced March chart's result for the army: Orcs & Goblins at -1 off plains, the plains
    armies rerolling a Mutiny across plains (Army-Specific Rules)."""
    kingdom = state.kingdoms[army.kingdom]
    off_plains = any(state.provinces[p].terrain != "plains" for p in order.path)
    modifier = -1 if kingdom.army_type is ArmyType.ORCS_AND_GOBLINS and off_plains else 0
    purpose = f"{army.name}: forced march" + (" (-1 off plains)" if modifier else "")
    roll = dice.d6(purpose=purpose, kingdoms=[army.kingdom], armies=[army.id])
    result = FORCED_MARCH_TABLE[max(1, roll + modifier)]
    if result == "mutiny" and kingdom.army_type in PLAINS_REROLL and not off_plains:
        roll = dice.d6(
            purpose=f"{army.name}: forced march reroll after Mutiny on plains",
            kingdoms=[army.kingdom],
            armies=[army.id],
        )
        result = FORCED_MARCH_TABLE[roll]
    return result


def _partner(
    state: TurnState, army: ArmyState, *, others: Collection[int] = (), last: Collection[int] = ()
) -> ArmyState | None:
    """The army of `army`'s kingdom that counts as being in its province now (not disbanded, not
    sharing it itself, not one of `others`), one of `last` only if there is no other; None when it
    stands there alone."""
    here = [
        a
        for a in state.armies.values()
        if a.kingdom == army.kingdom and a.province == army.province and a.id != army.id
        if not a.disbanded and not a.co_occupying and a.id not in others
    ]
    return min(here, key=lambda a: (a.id in last, a.id), default=None)


def fatigued_sharing(
    state: TurnState,
    events: list[Event],
    fatigued: set[int],
    moves: dict[int, tuple[int, list[int]]],
    sharing: set[int],
) -> None:
    """Forced March note: "If an army forced marched through a friendly occupied province and fails,
    it co-occupies the province with the other army. The forced marched army does not count as
    being there". Judged once the moves are made: a fatigued army whose move stood shares the
    province with an army of its kingdom standing there now; one whose friend moved out stands
    there alone and counts. `sharing`, the armies that shared a province last turn, are named its
    partner last (one whose own partner stays shares again, co_occupation_follow_up)."""
    # Fatigued armies that came in together share with the army that keeps the province, never
    # with each other (where none keeps it, Occupied Province let only one of them in).
    arrived = {army_id for army_id in fatigued if army_id in moves}
    for army_id in sorted(arrived):
        army = state.armies[army_id]
        partner = _partner(state, army, others=arrived, last=sharing)
        if partner is None:
            continue
        state.armies[army_id] = replace(army, co_occupying=True)
        events.append(
            Event(
                PHASE,
                EventCode.CO_OCCUPYING,
                f"{army.name} shares {state.provinces[army.province]} with {partner.name}: it does not count as "
                "being there and must move out next turn.",
                kingdom=army.kingdom,
                army=army.id,
                province=army.province,
            )
        )


def co_occupation_follow_up(
    state: TurnState, dice: Dice, events: list[Event], sharing: set[int], start: dict[int, int]
) -> None:
    """Forced March: an army left sharing a friendly province must move out the next turn; if it
    does not, it rolls on the Foraging Table as if it had lost its supply depot, "as the province
    cannot support 2 armies at once", and shares it still. Should no other army of its kingdom
    stand there once the moves are made (its partner moved out, or is gone), it holds the province
    alone: it counts as being there and does not forage (decision 41)."""
    foraging = [a for a in sorted(sharing) if not state.armies[a].disbanded]
    for army_id in foraging:
        army = state.armies[army_id]
        if army.province != start[army_id]:
            continue
        if _partner(state, army) is None:
            events.append(
                Event(
                    PHASE,
                    EventCode.CO_OCCUPYING_ENDED,
                    f"{army.name} no longer shares {state.provinces[army.province]}: no other army of its kingdom "
                    "stands there now, so it counts as being there (Forced March).",
                    kingdom=army.kingdom,
                    army=army.id,
                    province=army.province,
                )
            )
            continue
        army = replace(army, co_occupying=True)
        state.armies[army_id] = army
        events.append(
            Event(
                PHASE,
                EventCode.CO_OCCUPYING_STAYED,
                f"{army.name} did not move out of {state.provinces[army.province]}, which cannot support two armies: "
                "it forages as if it had lost its supply depot (Forced March).",
                kingdom=army.kingdom,
                army=army.id,
                province=army.province,
            )
        )
        forage_army(state, army, dice, events)
    characters_leave_disbanded(state, events, foraging, PHASE)  # decision 591
