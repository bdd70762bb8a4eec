"""Writing what the turn did to the alliances (Allies): the ones formed, broken and cancelled, read
from the turn's events (the rules decide, this only writes)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from kernel.event_codes import EventCode
from kernel.events import Event

from ..models import Alliance, Campaign

ENDING_CODES = (EventCode.ALLIANCE_BROKEN, EventCode.ALLIANCE_CANCELLED)


def alliances_write(*, campaign: Campaign, turn: int, events: Iterable[Event]) -> dict[int, int]:
    """Create the alliances formed (negative ids in the rules) and end those broken or cancelled.
    Returns the real ids of the new ones (temporary id -> row id)."""
    events = list(events)
    made: dict[int, int] = {}
    for e in events:
        if e.code != EventCode.ALLIANCE_FORMED or e.data["alliance"] in made or e.kingdom is None:
            continue
        first, second = sorted((e.kingdom, int(e.data["ally"])))
        row = Alliance.objects.create(
            campaign=campaign, first_id=first, second_id=second, trust=e.data["trust"], formed_turn=turn
        )
        made[e.data["alliance"]] = row.id
    ended: dict[int, dict[str, Any]] = {}
    for e in events:
        if e.code in ENDING_CODES:
            ended.setdefault(made.get(e.data["alliance"], e.data["alliance"]), e.data)
    for alliance_id, data in ended.items():
        Alliance.objects.filter(pk=alliance_id, campaign=campaign, ended_turn__isnull=True).update(
            ended_turn=turn, ended_how=data["how"], broken_by_id=data.get("broken_by")
        )
    return made


def without_alliance_id(data: dict[str, Any] | None) -> dict[str, Any] | None:
    """An event's data as stored: the alliance is named by its kingdoms ("ally", the event's
    kingdom), not by the rules' id (a temporary one for an alliance formed this turn)."""
    if not data or "alliance" not in data:
        return data
    return {k: v for k, v in data.items() if k != "alliance"}
