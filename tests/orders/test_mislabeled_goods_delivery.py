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


def test_an_item_bought_that_the_kingdom_came_to_hold_meanwhile_is_lost_and_the_turn_opens(ostland, turn):
    """Armory: one of each (decision 600). A Staff of Sorcery bought two turns ago arrives while the kingdom
    holds one (a transfer or a raid's find came first): the delivery is lost with an event, and the turn's
    opening does not fail on the armory's one-of-each constraint."""
    army = ostland.armies.get(kind="field")
    ArmoryItem.objects.create(kingdom=ostland, name="Staff of Sorcery", points=0)
    Delivery.objects.create(
        army=army,
        kind="item",
        what="Staff of Sorcery (25 points)",
        unit="Captain Reiner",
        name="Staff of sorcery",
        points=25,
        cost=25,
        ordered_turn=turn.number - 2 if turn.number > 2 else 0,
        arrives_turn=turn.number,
    )

    (lost,) = deliveries_arrive(turn=turn)

    assert Delivery.objects.get(army=army).status == Delivery.Status.LOST
    assert ArmoryItem.objects.filter(kingdom=ostland, name__iexact="Staff of Sorcery").count() == 1
    assert lost.code == EventCode.DELIVERY_LOST
    assert "holds one already" in lost.text and "decision 600" in lost.text
