"""Scenario Generator, 1. Engagement type: the sides of an Assault both armies moved into (pure Python;
decision 625)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol


class RollOffRecord(Protocol):
    """A roll-off as the generator records it (generator.RollOff)."""

    @property
    def attacker_rolls(self) -> Sequence[int]: ...
    @property
    def defender_rolls(self) -> Sequence[int]: ...
    @property
    def winner(self) -> str: ...

    def as_json(self) -> dict[str, Any]: ...


def assault_sides(first: str, second: str, holder: str, off: RollOffRecord | None) -> tuple[bool, dict[str, Any]]:
    """Who is the Attacker of an Assault both armies moved into (decision 625): 6. Fight Battles only
    says "roll for set up and first turn as normal", and an Assault needs a Defender ("One army attacks
    the other in a defended position"). The side whose kingdom (or its ally) holds the province (`holder`:
    "attacker" for `first`, "defender" for `second`) defends it, as the town's side defends its town
    (decision 584) and the holder of a province two armies stood in defends it (decision 570); in a
    province neither holds, the roll-off `off` (a D6 each, ties rerolled) decides, its winner the
    Attacker ("An assault gives the Attacker advantages in deployment"). Returns whether the sides swap
    (`second` attacks) and the roles as the scenario stores them, with what the sheet says."""
    if off is None:
        swap = holder == "attacker"
        held_by, other = (first, second) if swap else (second, first)
        text = (
            f"Both armies moved in: {held_by} holds the province (its kingdom's or its ally's) and defends it "
            f"in the Assault; {other} is the Attacker (decision 625)."
        )
    else:
        swap = off.winner == "defender"
        winner, loser = (second, first) if swap else (first, second)
        rounds = "; tie, rerolled: ".join(
            f"{first} {a}, {second} {d}" for a, d in zip(off.attacker_rolls, off.defender_rolls, strict=True)
        )
        text = (
            f"Both armies moved in and neither holds the province: a roll-off decides who attacks in the Assault "
            f"(a D6 each, ties rerolled): {rounds}. {winner} scores highest and is the Attacker; "
            f"{loser} is the Defender (decision 625)."
        )
    attacker, defender = (second, first) if swap else (first, second)
    roll_off = off.as_json() if off is not None else None
    return swap, {"roll_off": roll_off, "attacker": attacker, "defender": defender, "text": text}
