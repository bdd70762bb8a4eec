"""The Warlord's succession in the aftermath: when he dies, a General of his kingdom succeeds him
(pure Python; the choice of heir is rulebook.warlord.succession's); and the characters of an army
gone from the map (wiped out, disbanded), who go with it.

Rulebook: Warlord, 7. Aftermath (wiped out), Army Restrictions (disbanded).
"""

from __future__ import annotations

from dataclasses import replace

from kernel.event_codes import EventCode
from kernel.events import Event
from rulebook.turn.aftermath.state import PHASE, AftermathState, put_character
from rulebook.warlord.succession import HeirCandidate, succession_text, warlord_heir
from rulebook.world import ArmyState, CharacterState


def heir_choices(state: AftermathState) -> dict[int, int]:
    """Warlord: the General each kingdom's player named for a tie, on any of its sheets of the
    turn (the first, in province order)."""
    chosen: dict[int, int] = {}
    for battle in sorted(state.battles, key=lambda b: (b.province, b.id)):
        for side in (battle.attacker, battle.defender):
            if side.kingdom is not None and side.warlord_heir is not None:
                chosen.setdefault(side.kingdom, side.warlord_heir)
    return chosen


def succession(state: AftermathState, events: list[Event], dead: CharacterState) -> None:
    """Warlord: the General with the most experience (his army's) becomes Warlord; a tie goes
    to the General the player named, else to the oldest army's (rulebook.warlord.succession)."""
    candidates = []
    for character in state.characters.values():
        if character.kingdom != dead.kingdom or not character.alive or character.role != "general":
            continue
        army_id = state.units[character.unit].army
        army = state.armies.get(army_id) or state.garrisons.get(army_id)
        if army is None or army.disbanded:
            continue
        candidates.append(HeirCandidate(character.id, character.name, army.id, army.name, army.experience))
    kingdom = state.kingdoms[dead.kingdom].name
    heir = warlord_heir(candidates, heir_choices(state).get(dead.kingdom))
    if heir is None:
        events.append(
            Event(
                PHASE,
                EventCode.NO_WARLORD,
                f"{kingdom}'s Warlord {dead.name} is dead and no General can succeed him.",
                kingdom=dead.kingdom,
            )
        )
        return
    put_character(state, replace(state.characters[heir.candidate.character], role="warlord"))
    events.append(
        Event(
            PHASE,
            EventCode.WARLORD_SUCCESSION,
            succession_text(kingdom, dead.name, heir),
            kingdom=dead.kingdom,
            army=heir.candidate.army,
            data={"character": heir.candidate.name, "how": heir.how, "tied": list(heir.tied)},
        )
    )


def characters_go_with_their_army(
    state: AftermathState, events: list[Event], army: ArmyState, *, disbanded: bool
) -> None:
    """The living characters of `army`, which is gone from the map, go with it. Wiped out (7. Aftermath:
    "If there are no options for retreat than the army is wiped out"), they die with it (decision 557);
    disbanded at 500 points or less (Army Restrictions: "the small band of soldiers ... going their
    separate ways"), they leave with its soldiers and count as dead, as a retired character does
    (decision 558). Their magic items were destroyed with the army's. A Warlord among them is
    succeeded as when he dies of his injuries (Warlord), once all of them are gone: none of them
    can succeed him."""
    gone = [
        c
        for c in sorted(state.characters.values(), key=lambda c: c.id)
        if c.alive and c.unit in state.units and state.units[c.unit].army == army.id
    ]
    for character in gone:
        put_character(state, replace(character, alive=False))
        how = (
            "leaves with the soldiers of the disbanded army, going his separate way: he counts as dead "
            "(Army Restrictions)"
            if disbanded
            else "falls with his army, wiped out with nowhere to retreat (7. Aftermath)"
        )
        events.append(
            Event(
                PHASE,
                EventCode.CHARACTER_RETIRED if disbanded else EventCode.CHARACTER_DEAD,
                f"{character.name} ({army.name}) {how}.",
                kingdom=character.kingdom,
                army=army.id,
                data={"character": character.name},
            )
        )
    for character in gone:
        if character.role == "warlord":
            succession(state, events, character)
