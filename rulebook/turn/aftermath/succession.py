"""The Warlord's succession in the aftermath: when he dies, a General of his kingdom succeeds him
(pure Python; the choice of heir is rulebook.warlord.succession's); and the characters of an army
gone from the map (wiped out, disbanded), who go with it.

Rulebook: Warlord, 7. Aftermath (wiped out), Army Restrictions (disbanded).
"""

from __future__ import annotations

from kernel.event_codes import EventCode
from kernel.events import Event
from rulebook.turn.aftermath.state import PHASE, AftermathState
from rulebook.warlord.succession import DISBANDED_HOW, characters_gone_with, warlord_succeeded
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
    to the General the player named on a turn summary sheet, else to the oldest army's
    (rulebook.warlord.succession)."""
    warlord_succeeded(state.world, events, dead, choice=heir_choices(state).get(dead.kingdom), phase=PHASE)


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
    characters_gone_with(
        state.world,
        events,
        [army.id],
        how=DISBANDED_HOW if disbanded else "falls with his army, wiped out with nowhere to retreat (7. Aftermath)",
        code=EventCode.CHARACTER_RETIRED if disbanded else EventCode.CHARACTER_DEAD,
        phase=PHASE,
        choice=heir_choices(state),
    )
