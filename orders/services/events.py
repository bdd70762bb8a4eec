"""A turn's log numbered in one place: the sequence every writer of a turn's events takes (the phase
writers, the arrivals when a turn opens, the organizer's rulings between phases, retirements and
restores), and one event added outside the phases."""

from __future__ import annotations

from django.db.models import Max

from kernel.events import Event

from ..models import Turn, TurnEvent


def turn_event_sequence_next(turn: Turn) -> int:
    """The sequence the next event of `turn`'s log takes: 0 for the first, else one past the highest.
    Every writer numbers its batch from here (a batch of n takes this and the n-1 after it), so two
    batches of one turn never share a number (a highest sequence of 0 is an event, not "none")."""
    last = TurnEvent.objects.filter(turn=turn).aggregate(last=Max("sequence"))["last"]
    return 0 if last is None else last + 1


def turn_event_record(turn: Turn, event: Event) -> TurnEvent:
    """The event at the end of the turn's log, so the turn's reports and bulletin tell it."""
    return TurnEvent.objects.create(
        turn=turn,
        sequence=turn_event_sequence_next(turn),
        phase=event.phase,
        code=event.code,
        text=event.text,
        kingdom_id=event.kingdom,
        army_id=event.army,
        province=event.province,
        gold=event.gold,
        data=event.data,
    )
