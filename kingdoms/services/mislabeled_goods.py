"""Sabotage, Mislabeled goods: the item found in the field and delayed goes on its way as a delivery
(rulebook.turn.aftermath.mislabeled_goods; decision 489). Written with the aftermath's world, from the
target's SABOTAGE_APPLIED event that carries it; orders.services.deliveries puts it on the army's list (or
in the armory) at the beginning of the turn it arrives."""

from __future__ import annotations

from collections.abc import Iterable

from kernel.event_codes import EventCode
from kernel.events import Event
from rulebook.turn.aftermath.mislabeled_goods import FOUND_ITEM

from ..models import Delivery


def delayed_items_write(*, turn: int, events: Iterable[Event]) -> None:
    """A delivery for each item a Mislabeled goods delayed this phase."""
    Delivery.objects.bulk_create(
        Delivery(
            army_id=int(delivery["army"]),
            kind=FOUND_ITEM,
            what=f"{delivery['name']} (found in the field, mislabeled)",
            unit=str(delivery.get("unit") or ""),
            name=str(delivery["name"]),
            points=int(delivery.get("points") or 0),
            common=bool(delivery.get("common")),
            cost=0,
            ordered_turn=turn,
            arrives_turn=int(delivery["arrives"]),
        )
        for e in events
        if e.code == EventCode.SABOTAGE_APPLIED and (delivery := e.data.get("delivery"))
    )
