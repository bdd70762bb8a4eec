"""Sabotage, Mislabeled goods: the target's next magic item acquired in the field arrives later (pure
Python). Decisions 450 and 489.

"Next magic item acquired in the field is delayed an additional d2 turns." A magic item acquired in the
field is one found by a Tomb Raid (Treasure from the Ruins, the Scarab Amulet of a ruin's first raid);
found in turn N's aftermath it is the kingdom's at once, for the battles of turn N+1. Delayed, it goes
the way of the items that arrive later (a delivery, kingdoms.Delivery, kind `FOUND_ITEM`): to the army
that raided, for the bearer it would have gone to, at the beginning of turn N+1+D2; lost if the army is
disbanded before it arrives, as any delivery (decision 489). The aftermath's writer makes the delivery
from the target's SABOTAGE_APPLIED event (its data's `delivery`). The saboteur is told the delay, never
the item.
"""

from __future__ import annotations

from kernel.dice import Dice
from kernel.event_codes import EventCode
from kernel.events import Event
from rulebook.ruins_and_tomb_raiders.mission_effects import pending, used
from rulebook.ruins_and_tomb_raiders.sabotage import Sabotage, mislabeled_goods_roll
from rulebook.turn.aftermath.state import PHASE, AftermathState

FOUND_ITEM = "found-item"  # the delivery's kind: an item acquired in the field, delayed
WHY = "(Sabotage: Mislabeled goods)"


def goods_delayed(
    state: AftermathState,
    dice: Dice,
    events: list[Event],
    *,
    kingdom: int,
    army: int | None,
    bearer: int | None,
    name: str,
    points: int,
    common: bool,
) -> bool:
    """Whether the item found by `kingdom`'s raiding `army` (for the unit `bearer`, or the armory) is
    delayed by a pending Mislabeled goods against it: if so the effect is used, and the item is on its
    way instead of the kingdom's now. An item found with no army to carry it (none raided) is not
    delayed: it has no way to travel (the effect waits)."""
    effect = next((e for e in pending(state.world, Sabotage.MISLABELED_GOODS) if e.target == kingdom), None)
    if effect is None or army is None:
        return False
    delay = int(effect.data.get("d2") or mislabeled_goods_roll(dice, saboteur=effect.kingdom, target=kingdom))
    arrives = state.world.turn + 1 + delay
    used(state.world, effect)
    unit = next((u.name for u in state.units_of(army) if u.id == bearer), "") if bearer is not None else ""
    target = state.kingdoms[kingdom].name
    events.append(
        Event(
            PHASE,
            EventCode.SABOTAGE_APPLIED,
            f"{name}, found in the field, was mislabeled: it is delayed {delay} turn(s) and arrives at the beginning "
            f"of turn {arrives} {WHY}.",
            kingdom=kingdom,
            army=army,
            data={
                "effect": effect.id,
                "mission": effect.mission,
                "d2": delay,
                "delivery": {
                    "army": army,
                    "unit": unit,
                    "name": name,
                    "points": points,
                    "common": common,
                    "arrives": arrives,
                },
            },
        )
    )
    events.append(
        Event(
            PHASE,
            EventCode.SABOTAGE_APPLIED,
            f"Your Mislabeled goods strike: the next magic item {target} found in the field is delayed {delay} "
            f"turn(s) {WHY}.",
            kingdom=effect.kingdom,
            data={"effect": effect.id, "mission": effect.mission, "d2": delay},
        )
    )
    return True
