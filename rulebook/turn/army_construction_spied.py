"""Reconnaissance, Army Construction Info, at 3. Create / Upgrade Armies of a later resolution (pure
Python). Decisions 450 and 488.

"The Location and Army list (no character info) for the next army this Kingdom creates." The effect waits
until the target raises an army on its sheet (the first of its sheet's creations that is raised); the spy
then learns where it stands and the points paid for it. A new army's list is entered after the turn (it is
due): the effect stays pending for that army's list, which reaches the spy at the first resolution of a
later turn that finds it written (`rulebook.turn.army_lists_spied`; decision 488).
"""

from __future__ import annotations

from kernel.event_codes import EventCode
from kernel.events import Event
from rulebook.ruins_and_tomb_raiders.mission_effects import awaiting_list, is_awaiting_list, pending
from rulebook.ruins_and_tomb_raiders.reconnaissance import Reconnaissance
from rulebook.turn.create_upgrade_armies import PHASE_CREATE_UPGRADE
from rulebook.turn.state import TurnState

WHY = "(Reconnaissance: Army Construction Info)"


def spy_on_construction(state: TurnState, events: list[Event]) -> None:
    """Each pending Army Construction Info whose target raised an army this turn: the spy's INTELLIGENCE
    (its alone) with the first army raised, its location and points; the effect then waits for that
    army's list (decision 488)."""
    for effect in pending(state.world, Reconnaissance.ARMY_CONSTRUCTION_INFO):
        if is_awaiting_list(effect):
            continue  # its army is raised already: its list is delivered by army_lists_spied
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
        # The effect is not spent: the list the rulebook promises is written after the turn.
        awaiting_list(state.world, effect, army.id)
        target_name = state.kingdoms[effect.target].name
        events.append(
            Event(
                PHASE_CREATE_UPGRADE,
                EventCode.INTELLIGENCE,
                f"Army Construction Info of {target_name}: {army.name} is raised in "
                f"{state.provinces[army.province]} at {army.points:,} points; its list is not written yet: it "
                f"reaches you at the first resolution after {target_name} writes it {WHY}.",
                kingdom=effect.kingdom,
                data={
                    "mission": effect.mission,
                    "label": "Army Construction Info",
                    "target": effect.target,
                    "target_name": target_name,
                    "turn": state.turn,
                    "effect": effect.id,
                    # The army's id at the top, where the writer puts the new army's row id in its place.
                    "target_army": army.id,
                    "info": {
                        "found": True,
                        "army_name": army.name,
                        "province": army.province,
                        "province_name": state.provinces[army.province].name,
                        "points": army.points,
                        "list_due": True,
                    },
                },
            )
        )
