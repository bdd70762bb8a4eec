"""A turn's log numbered in one place: the sequence every writer of a turn's events takes (the phase
writers, the arrivals when a turn opens, the organizer's rulings between phases, retirements and
restores), a phase's events appended in one batch, and one event added outside the phases."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from django.db.models import Max

from kernel.events import Event
from kingdoms.services.alliances import without_alliance_id
from kingdoms.services.bulk_rows import values_insert
from rulebook.turn.state import with_real_army_ids
from turns.models import Turn, TurnEvent


def turn_event_sequence_next(turn: Turn) -> int:
    """The sequence the next event of `turn`'s log takes: 0 for the first, else one past the highest.
    Every writer numbers its batch from here (a batch of n takes this and the n-1 after it), so two
    batches of one turn never share a number (a highest sequence of 0 is an event, not "none")."""
    last = TurnEvent.objects.filter(turn=turn).aggregate(last=Max("sequence"))["last"]
    return 0 if last is None else last + 1


def turn_events_append(turn: Turn, events: Iterable[Event], army_ids: Mapping[int, int] | None = None) -> int:
    """A phase's events at the end of the turn's log, in one batch (bulk_rows.records_insert: COPY on
    PostgreSQL, a turn's thousands of events without a model instance each): after what it already
    holds (the deliveries that arrived when the turn opened, the organizer's events between the
    phases, an earlier phase's). `army_ids`: the real ids of the armies the phase raised (negative
    ids in the rules), for the events that name them; the alliances are named by their kingdoms, not
    by the rules' ids (`without_alliance_id`). Returns the number of events written."""
    ids = dict(army_ids or {})
    start = turn_event_sequence_next(turn)
    rows = [
        (
            turn.pk,
            start + i,
            e.phase,
            e.code,
            e.text,
            e.kingdom,
            ids.get(e.army, e.army) if e.army is not None else None,
            e.province,
            e.gold,
            without_alliance_id(with_real_army_ids(e.data, ids)),
        )
        for i, e in enumerate(events)
    ]
    values_insert(TurnEvent, _EVENT_FIELDS, rows)  # a tuple per event, not a dict: thousands a phase
    return len(rows)


# The fields of an event's row, in the order turn_events_append gives them.
_EVENT_FIELDS = ("turn_id", "sequence", "phase", "code", "text", "kingdom_id", "army_id", "province", "gold", "data")


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
        data=without_alliance_id(event.data),
    )
