"""Sabotage, Mislabeled goods, written and delivered (kingdoms/services/mislabeled_goods.py, orders/
services/deliveries.py): the item found in the field and delayed goes on its way as a delivery and
arrives on its army's list at the beginning of its turn. Decision 489."""

from __future__ import annotations

from kernel.event_codes import EventCode
from kernel.events import Event
from kingdoms.models import ArmoryItem, Delivery
from kingdoms.services.mislabeled_goods import delayed_items_write
from orders.services.deliveries import deliveries_arrive


def test_the_delayed_item_arrives_for_its_bearer_at_the_beginning_of_its_turn(ostland, turn):
    army = ostland.armies.get(kind="field")
    event = Event(
        "aftermath",
        EventCode.SABOTAGE_APPLIED,
        "Staff of Sorcery, found in the field, was mislabeled ...",
        kingdom=ostland.id,
        army=army.id,
        data={
            "delivery": {
                "army": army.id,
                "unit": "Captain Reiner",
                "name": "Staff of Sorcery",
                "points": 0,
                "common": False,
                "arrives": turn.number,
            }
        },
    )
    delayed_items_write(turn=turn.number, events=[event, Event("aftermath", EventCode.SABOTAGE_APPLIED, "no item")])

    delivery = Delivery.objects.get(army=army)
    assert (delivery.kind, delivery.name, delivery.cost, delivery.arrives_turn) == (
        "found-item",
        "Staff of Sorcery",
        0,
        turn.number,
    )
    (arrived,) = deliveries_arrive(turn=turn)

    item = ArmoryItem.objects.get(kingdom=ostland, name="Staff of Sorcery")
    assert (item.points, item.bearer.name) == (0, "Captain Reiner")
    assert arrived.text == (
        f"{army.name}: Staff of Sorcery (found in the field, mislabeled), found in turn {turn.number}, arrives and "
        "is on its list (Sabotage: Mislabeled goods)."
    )
