"""One event added to a turn's log outside its phases (the organizer's rulings between them)."""

from __future__ import annotations

from django.db.models import Max

from kernel.events import Event

from ..models import Turn, TurnEvent


def turn_event_record(turn: Turn, event: Event) -> TurnEvent:
    """The event at the end of the turn's log, so the turn's reports and bulletin tell it."""
    last = TurnEvent.objects.filter(turn=turn).aggregate(last=Max("sequence"))["last"] or 0
    return TurnEvent.objects.create(
        turn=turn,
        sequence=last + 1,
        phase=event.phase,
        code=event.code,
        text=event.text,
        kingdom_id=event.kingdom,
        army_id=event.army,
        province=event.province,
        gold=event.gold,
        data=event.data,
    )
