"""Resolving a turn's state in the rule tests: scripted dice, every one of them used; the events of a code."""

from __future__ import annotations

from collections.abc import Iterable

from kernel.dice import ScriptedDice
from kernel.events import Event
from rulebook.turn.pipeline import Resolution, resolve_orders
from rulebook.turn.state import TurnState


def resolve(state: TurnState, faces: Iterable[int] = ()) -> Resolution:
    dice = ScriptedDice(faces=list(faces))
    result = resolve_orders(state, dice)
    assert dice.unused == [], "every scripted die is used"
    return result


def of(events: list[Event], code: str, kingdom: int | None = None) -> list[Event]:
    """The events of `code` (for `kingdom` when given), in order."""
    return [e for e in events if e.code == code and (kingdom is None or e.kingdom == kingdom)]
