"""Warlord: who succeeds a Warlord who dies or retires (pure Python).

"If the Warlord dies, a General with the most experience from the player's armies is selected to
become the Warlord. If there is a tie for a replacement Warlord, the player may choose which
General becomes the Warlord." The General's experience is his army's. A tie the player left
unsettled goes to the General of the oldest army (the lowest id): the army the kingdom has kept
longest (docs/rules-decisions.md, 78)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace

from kernel.event_codes import EventCode
from kernel.events import Event
from rulebook.world import CharacterState, World

# Army Restrictions: "the small band of soldiers selling their unwanted items and going their separate
# ways": a disbanded army's characters leave with it and count as dead, as a retired character does
# (decisions 558, 591).
DISBANDED_HOW = (
    "leaves with the soldiers of the disbanded army, going his separate way: he counts as dead (Army Restrictions)"
)
PROMOTION_NOTE = (
    "he may be promoted to Lord level for the point difference in experience on the next order sheet "
    "(Warlord; no extra Archetype roll)"
)


@dataclass(frozen=True)
class HeirCandidate:
    character: int
    name: str
    army: int
    army_name: str
    experience: int  # his army's experience points


@dataclass(frozen=True)
class Heir:
    candidate: HeirCandidate
    how: str  # "most": the most experienced; "chosen": the player's choice on a tie; "default": a tie, no choice
    tied: tuple[str, ...] = ()  # the names of the Generals who tied


def warlord_heir(candidates: Iterable[HeirCandidate], choice: int | None) -> Heir | None:
    """The General who becomes Warlord, or None if the kingdom has no living General.
    `choice`: the character the player named in advance for a tie (ignored when there is none,
    or when he is not one of the tied Generals)."""
    pool = list(candidates)
    if not pool:
        return None
    most = max(c.experience for c in pool)
    tied = sorted((c for c in pool if c.experience == most), key=lambda c: (c.army, c.character))
    if len(tied) == 1:
        return Heir(tied[0], "most")
    names = tuple(c.name for c in tied)
    chosen = next((c for c in tied if c.character == choice), None)
    if chosen is not None:
        return Heir(chosen, "chosen", names)
    return Heir(tied[0], "default", names)


def succession_text(kingdom: str, dead: str, heir: Heir, *, retired: bool = False) -> str:
    """The event's line: who succeeds, why, and the promotion he may buy."""
    c = heir.candidate
    why = {
        "most": "the most experienced General",
        "chosen": f"chosen by the player among the Generals tied on {c.experience} experience ({', '.join(heir.tied)})",
        "default": f"the General of the oldest army among those tied on {c.experience} experience "
        f"({', '.join(heir.tied)}), the player having chosen none",
    }[heir.how]
    gone = "retired" if retired else "dead"
    return (
        f"{kingdom}'s Warlord {dead} is {gone}: {c.name} of {c.army_name}, {why}, becomes the Warlord; "
        f"{PROMOTION_NOTE}."
    )


def warlord_succeeded(
    world: World, events: list[Event], dead: CharacterState, *, choice: int | None, phase: str
) -> None:
    """Warlord, in the working copy `world`: the Warlord `dead` is gone (dead, or gone with his army); the
    General with the most experience (his army's) of the kingdom's armies still on the map becomes the
    Warlord, a tie going to `choice` (the General the player named), else to the oldest army's
    (`warlord_heir`). The kingdom's Warlord stands with his heir's army, or nowhere when no General can
    succeed him (the event says so)."""
    army_of = {u.id: army for army, units in world.units.items() for u in units}
    candidates = []
    for character in world.characters.values():
        if character.kingdom != dead.kingdom or not character.alive or character.role != "general":
            continue
        army_id = army_of.get(character.unit)
        army = None if army_id is None else world.armies.get(army_id) or world.garrisons.get(army_id)
        if army is None or army.disbanded:
            continue
        candidates.append(HeirCandidate(character.id, character.name, army.id, army.name, army.experience))
    kingdom = world.kingdoms[dead.kingdom]
    heir = warlord_heir(candidates, choice)
    world.kingdoms[kingdom.id] = replace(kingdom, warlord_army=heir.candidate.army if heir is not None else None)
    if heir is None:
        events.append(
            Event(
                phase,
                EventCode.NO_WARLORD,
                f"{kingdom.name}'s Warlord {dead.name} is dead and no General can succeed him.",
                kingdom=dead.kingdom,
            )
        )
        return
    character = world.characters[heir.candidate.character]
    world.characters[character.id] = replace(character, role="warlord")
    events.append(
        Event(
            phase,
            EventCode.WARLORD_SUCCESSION,
            succession_text(kingdom.name, dead.name, heir),
            kingdom=dead.kingdom,
            army=heir.candidate.army,
            data={"character": heir.candidate.name, "how": heir.how, "tied": list(heir.tied)},
        )
    )


def characters_gone_with(
    world: World,
    events: list[Event],
    army_ids: Iterable[int],
    *,
    how: str,
    code: EventCode,
    phase: str,
    choice: Mapping[int, int] | None = None,
) -> list[CharacterState]:
    """In the working copy `world`, the living characters of the armies `army_ids`, gone from the map
    (wiped out, disbanded, perished), go with them: each counts as dead (`alive` False), an event `code`
    for each saying `how`; then a Warlord among them is succeeded (`warlord_succeeded`, `choice`: kingdom
    id -> the General its player named for a tie), once all of them are gone: none of them can succeed
    him. Returns them, as they were, in the armies' order and by id."""
    gone: list[tuple[CharacterState, int]] = []
    for army_id in army_ids:
        units = {u.id for u in world.units.get(army_id, ())}
        gone += [
            (c, army_id) for c in sorted(world.characters.values(), key=lambda c: c.id) if c.alive and c.unit in units
        ]
    for character, army_id in gone:
        world.characters[character.id] = replace(character, alive=False)
        army = world.army(army_id)
        events.append(
            Event(
                phase,
                code,
                f"{character.name} ({army.name}) {how}.",
                kingdom=character.kingdom,
                army=army_id,
                data={"character": character.name},
            )
        )
    for character, _ in gone:
        if character.role == "warlord":
            warlord_succeeded(world, events, character, choice=(choice or {}).get(character.kingdom), phase=phase)
    return [c for c, _ in gone]
