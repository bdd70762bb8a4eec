"""Reconnaissance, Army Construction Info, at 3. Create / Upgrade Armies of a later resolution (pure
Python). Decisions 450 and 488.

"The Location and Army list (no character info) for the next army this Kingdom creates." The effect waits
until the target raises an army on its sheet (the first of its sheet's creations that is raised); the spy
then learns where it stands and its list. A new army's list is entered after the turn (it is due): at
its raising the army is the points paid for it, and that is what the spy learns, never the list written
later (decision 488).
"""

from __future__ import annotations

from kernel.event_codes import EventCode
from kernel.events import Event
from rulebook.ruins_and_tomb_raiders.mission_effects import pending, used
from rulebook.ruins_and_tomb_raiders.reconnaissance import Reconnaissance
from rulebook.turn.create_upgrade_armies import PHASE_CREATE_UPGRADE
from rulebook.turn.state import TurnState

WHY = "(Reconnaissance: Army Construction Info)"


def spy_on_construction(state: TurnState, events: list[Event]) -> None:
    """Each pending Army Construction Info whose target raised an army this turn: the spy's INTELLIGENCE
    (its alone) with the first army raised, and the effect used."""
    for effect in pending(state.world, Reconnaissance.ARMY_CONSTRUCTION_INFO):
        raised = sorted(
            (
                a
                for a in state.armies.values()
                if a.id < 0 and a.kingdom == effect.target and a.created_turn == state.turn
            ),
            key=lambda a: -a.id,  # -1 first: the order the sheets' creations were raised in
        )
        if not raised:
            continue
        army = raised[0]
        used(state.world, effect)
        events.append(
            Event(
                PHASE_CREATE_UPGRADE,
                EventCode.INTELLIGENCE,
                f"Army Construction Info of {state.kingdoms[effect.target].name}: {army.name} is raised in "
                f"{state.provinces[army.province]} at {army.points:,} points; its list is not written yet {WHY}.",
                kingdom=effect.kingdom,
                data={
                    "mission": effect.mission,
                    "effect": effect.id,
                    # The army's id at the top, where the writer puts the new army's row id in its place.
                    "target_army": army.id,
                    "info": {
                        "army_name": army.name,
                        "province": army.province,
                        "points": army.points,
                        "list_due": True,
                    },
                },
            )
        )
