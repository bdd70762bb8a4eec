"""Events: what a phase of the turn did, the single source of every report (pure Python)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .event_codes import EventCode


@dataclass(frozen=True)
class Event:
    """Something that happened, with a stable code, the words for the report, and whom it concerns.
    `gold` is a treasury movement of `kingdom` (a ledger row with reason `ledger_reason`);
    `experience` a change of `army`'s experience points (a row of its experience ledger, the
    event's code its reason)."""

    phase: str
    code: EventCode
    text: str
    kingdom: int | None = None
    army: int | None = None
    province: int | None = None
    gold: int = 0
    ledger_reason: str = ""
    experience: int = 0
    data: dict[str, Any] = field(default_factory=dict)
