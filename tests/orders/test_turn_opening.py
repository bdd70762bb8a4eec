"""A turn's log has one numbering: what arrives when a turn opens (Transfer of Gold, its items), the
organizer's rulings between phases and the turn's own resolution (a Land Sale) all land in one
turn without two events sharing a sequence (orders/services/events.py, turn_event_sequence_next).

Before, each batch of arrivals numbered from `Max("sequence") or -1`, reading a highest sequence of 0
as "no events": the gold's arrival took 0, the item's arrival 0 again, and the aftermath that opens
the turn failed on the unique constraint, so the next turn never opened."""

from __future__ import annotations

from kernel.event_codes import EventCode
from kernel.events import Event
from kingdoms.models import ArmoryItem, Kingdom, Province
from orders.services.events import turn_event_record
from orders.services.turns import turn_open
from tests.clients import api_as
from turns.models import TurnEvent
from turns.services.cycle import orders_phase_run


def test_gold_items_a_ruling_and_a_land_sale_all_land_in_one_turn(turn, ostland, demo_campaign) -> None:
    karak = Kingdom.objects.get(campaign=demo_campaign, name="Karak Dumn")
    item = ArmoryItem.objects.filter(kingdom=ostland, common=False, bearer__isnull=False).order_by("id").first()
    sent = api_as("alice").put(
        f"/api/turns/{turn.pk}/sheet/",
        {
            "orders": [],
            "gold_transfers": [{"kingdom": karak.id, "gold": 300}],
            "item_transfers": [{"kingdom": karak.id, "item": item.name}],
            "submit": True,
        },
        format="json",
    )
    assert sent.status_code == 200, sent.json()
    assert orders_phase_run(turn_id=turn.pk).resolved

    # Transfer of Gold: "if it were transferred in Turn 2, it will arrive at the beginning of Turn 4".
    third = turn_open(campaign=demo_campaign, number=3)
    turn_event_record(third, Event(phase="ruling", code=EventCode.ARMY_PAINTED, text="Ostland's host is painted."))
    province = ostland.provinces.filter(settlement="none").exclude(pk=ostland.capitol_id).order_by("number").first()
    for user, deal in (
        ("alice", {"kingdom": karak.id, "province": province.number}),
        ("carol", {"kingdom": ostland.id, "gold": 200}),
    ):
        answer = api_as(user).put(
            f"/api/turns/{third.pk}/sheet/", {"orders": [], "land_deals": [deal], "submit": True}, format="json"
        )
        assert answer.status_code == 200, answer.json()
    assert orders_phase_run(turn_id=third.pk).resolved

    log = list(TurnEvent.objects.filter(turn=third).order_by("sequence"))
    codes = [e.code for e in log]
    assert codes[:3] == [EventCode.TRANSFER_ARRIVED, EventCode.ITEM_ARRIVED, EventCode.ARMY_PAINTED]
    assert codes.count(EventCode.LAND_DEAL) == 2
    assert [e.sequence for e in log] == list(range(len(log)))
    assert Province.objects.get(pk=province.pk).controller_id == karak.id
    assert ArmoryItem.objects.filter(kingdom=karak, name=item.name).exists()
