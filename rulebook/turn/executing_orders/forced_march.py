"""Forced March (D6): two provinces in a turn, or Fatigue (one, and sharing a friendly province
it must leave next turn) or Mutiny; an army that stays sharing forages (pure Python)."""

from __future__ import annotations

from dataclasses import replace

from kernel.dice import Dice
from kernel.event_codes import EventCode
from kernel.events import Event
from rulebook.tables import ArmyType
from rulebook.turn.executing_orders import PHASE
from rulebook.turn.maintain_armies import forage_army
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
    state: TurnState, dice: Dice, events: list[Event], army: ArmyState, order: ArmyOrder, start: dict[int, int]
) -> tuple[int, list[int]] | None:
    """Forced March (D6) for an army ordered two provinces on: (destination, provinces passed
    through), one province only when it may not march, is blocked or fatigued; None when it
    mutinies and holds."""
    first, second = order.path
    kingdom = state.kingdoms[army.kingdom]
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
    enemy_in_first = any(
        a.kingdom != army.kingdom and not state.allied(a.kingdom, army.kingdom) and start[a.id] == first
        for a in state.armies.values()
        if not a.disbanded
    )
    if enemy_in_first:
        # An army cannot forced march through an occupied enemy province: it stops there and fights.
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
    if result == "mutiny":
        events.append(
            Event(
                PHASE,
                EventCode.FORCED_MARCH_MUTINY,
                f"{army.name}: Mutiny! It holds.",
                kingdom=army.kingdom,
                army=army.id,
            )
        )
        return None
    if result == "fatigue":
        friendly = [
            a for a in state.armies.values() if a.kingdom == army.kingdom and start[a.id] == first and a.id != army.id
        ]
        events.append(
            Event(
                PHASE,
                EventCode.FORCED_MARCH_FATIGUE,
                f"{army.name}: Fatigue, it moves one province only.",
                kingdom=army.kingdom,
                army=army.id,
            )
        )
        if friendly:
            state.armies[army.id] = replace(army, co_occupying=True)
            events.append(
                Event(
                    PHASE,
                    EventCode.CO_OCCUPYING,
                    f"{army.name} shares {state.provinces[first]} with {friendly[0].name}: it does not count as "
                    "being there and must move out next turn.",
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


def co_occupation_follow_up(
    state: TurnState, dice: Dice, events: list[Event], sharing: set[int], start: dict[int, int]
) -> None:
    """Forced March: an army left sharing a friendly province must move out the next turn; if it
    does not, it rolls on the Foraging Table as if it had lost its supply depot."""
    for army_id in sorted(sharing):
        army = state.armies[army_id]
        if army.disbanded:
            continue
        if army.province != start[army_id]:
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
