"""Reconnaissance, Army Construction Info and Army Statistics: the army's list, once its player wrote it
(pure Python). Decisions 488, 562-564, 590.

"5. Army Construction Info: The Location and Army list (no character info) for the next army this Kingdom
creates." "3. Army Statistics: The Location and Army list (no character info) of any one army." A new (or
upgraded) army's list is written by its player after the turn that raised it (its list is due, by the next
orders deadline: decision 26a). When such an effect acts while the list is due, the spy learns the army's
location and points then, and the effect stays pending for the list
(`mission_effects.awaiting_list`). At the beginning of each later resolution, the lists as their players
left them, before any phase of the turn changes an army (foraging, an upgrade), each awaited list that is
written is delivered: the spy's INTELLIGENCE, its alone, with the army's units as the list gives them, the
magic items its regiments bear, and no character info (decision 590); the effect is used. An army gone from
the map before its list was written spends the effect, and the spy is told. A list still due waits for the
next resolution.
"""

from __future__ import annotations

from typing import Any

from kernel.event_codes import EventCode
from kernel.events import Event
from rulebook.ruins_and_tomb_raiders.intelligence import army_statistics
from rulebook.ruins_and_tomb_raiders.mission_effects import lists_awaited, used
from rulebook.ruins_and_tomb_raiders.reconnaissance import RECONNAISSANCE_MISSIONS
from rulebook.ruins_and_tomb_raiders.rival_missions import MissionEffectState
from rulebook.world import ArmyState, World

# The Tomb Raiders' heading in the report: the delivery comes before the turn's own phases.
PHASE = "tomb-raiders"
LABELS: dict[str, str] = {m.mission: m.label for m in RECONNAISSANCE_MISSIONS}


def _army(world: World, effect: MissionEffectState) -> ArmyState | None:
    """The army the effect waits for, still the target's and on the map (None: gone)."""
    if effect.target_army is None:
        return None
    army = world.armies.get(effect.target_army) or world.garrisons.get(effect.target_army)
    if army is None or army.disbanded or army.kingdom != effect.target:
        return None
    return army


def _bearing(unit: dict[str, Any]) -> str:
    """The magic items a regiment of a spied list bears, as its line says them (decision 590)."""
    return f" (bearing {', '.join(i['name'] for i in unit['items'])})" if unit["items"] else ""


def spied_lists_delivered(world: World, events: list[Event]) -> None:
    """Each effect awaiting an army's list (set on an earlier turn): the list delivered and the effect
    used when it is written; the army gone, the spy told and the effect used; the list still due, kept."""
    for effect in lists_awaited(world):
        army = _army(world, effect)
        if army is not None and army.list_due:
            continue  # not written yet: the next resolution looks again
        used(world, effect)
        label = LABELS[effect.mission]
        target_name = world.kingdoms[effect.target].name
        why = f"(Reconnaissance: {label})"
        data: dict[str, Any] = {
            "mission": effect.mission,
            "label": label,
            "target": effect.target,
            "target_name": target_name,
            "turn": world.turn,
            "effect": effect.id,
            "list_written": army is not None,
        }
        if army is None:
            events.append(
                Event(
                    PHASE,
                    EventCode.INTELLIGENCE,
                    f"{label} of {target_name}: the army your spies watched left the map before its list was "
                    f"written; there is no list to deliver {why}.",
                    kingdom=effect.kingdom,
                    data={**data, "info": {"found": False}},
                )
            )
            continue
        info = army_statistics(world, army.id)
        units = ", ".join(f"{u['models']} {u['name']}{_bearing(u)}" for u in info["units"])
        events.append(
            Event(
                PHASE,
                EventCode.INTELLIGENCE,
                f"{label} of {target_name}: the list of {army.name} ({world.provinces[army.province]}) is "
                f"written: {units or 'no units'} ({info['points']:,} points, characters left out) {why}.",
                kingdom=effect.kingdom,
                data={**data, "target_army": army.id, "info": info},
            )
        )
