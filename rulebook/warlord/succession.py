"""Warlord: who succeeds a Warlord who dies or retires (pure Python).

"If the Warlord dies, a General with the most experience from the player's armies is selected to
become the Warlord. If there is a tie for a replacement Warlord, the player may choose which
General becomes the Warlord." The General's experience is his army's. A tie the player left
unsettled goes to the General of the oldest army (the lowest id): the army the kingdom has kept
longest (docs/rules-decisions.md, 78)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

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
