"""Transfer of Gold, the items, through the site: the order sheet (API and page), the turn, and the
beginning of the turn after next (orders/services/transfers.py). Rules decision 143."""

from __future__ import annotations

import pytest

from kingdoms.models import ArmoryItem, Kingdom, TreasuryEntry
from orders.models import OrderSheet
from orders.services.transfers import items_arrive
from reports.services.reports import kingdom_report_context
from rulebook.turn.tables import item_transfer_fee
from tests.clients import api_as, error_details, pages_as
from turns.models import Turn, TurnEvent
from turns.services.cycle import orders_phase_run

pytestmark = pytest.mark.django_db


@pytest.fixture
def karak(demo_campaign) -> Kingdom:
    return Kingdom.objects.get(campaign=demo_campaign, name="Karak Dumn")


def _carried(kingdom: Kingdom) -> ArmoryItem:
    """The first armory item (not common) one of the kingdom's armies carries on its list."""
    return ArmoryItem.objects.filter(kingdom=kingdom, common=False, bearer__isnull=False).order_by("id").first()


def _open(turn: Turn, number: int) -> Turn:
    return Turn.objects.create(
        campaign=turn.campaign,
        number=number,
        orders_deadline=turn.orders_deadline,
        results_deadline=turn.results_deadline,
        seed=f"t{number}",
    )


def test_an_item_sent_through_the_api_leaves_now_and_arrives_two_turns_later(turn, ostland, karak) -> None:
    """Ostland sends its army's magic item to Karak Dumn in turn 1: 10% of double its points leave
    the treasury and the item leaves its bearer's list with the orders; it is in Karak Dumn's armory
    when turn 3 opens (not turn 2), once, each step in the kingdoms' reports."""
    item = _carried(ostland)
    fee = item_transfer_fee(item.points)
    client = api_as("alice")
    response = client.put(
        f"/api/turns/{turn.pk}/sheet/",
        {"orders": [], "item_transfers": [{"kingdom": karak.id, "item": item.name}], "submit": True},
        format="json",
    )
    assert response.status_code == 200, response.json()
    assert any(
        words.startswith(f"Transfer {item.name}") and gold == fee for words, gold in response.json()["check"]["costs"]
    )
    assert orders_phase_run(turn_id=turn.pk).resolved

    assert not ArmoryItem.objects.filter(pk=item.pk).exists()
    assert TreasuryEntry.objects.get(kingdom=ostland, reason="transfer").amount == -fee
    lines = [e.text for _, rows in kingdom_report_context(turn=turn, kingdom=ostland)["phases"] for e in rows]
    assert any(f"sends {item.name} ({item.points} points" in line and "turn 3" in line for line in lines)

    second, third = _open(turn, 2), _open(turn, 3)
    items_arrive(turn=second)
    assert not ArmoryItem.objects.filter(kingdom=karak, name=item.name).exists()
    items_arrive(turn=third)
    items_arrive(turn=third)  # safe twice
    (arrived,) = ArmoryItem.objects.filter(kingdom=karak, name=item.name)
    assert (arrived.points, arrived.bearer, arrived.common) == (item.points, None, False)
    (event,) = TurnEvent.objects.filter(turn=third, code="item-arrived")
    assert event.kingdom == karak and f"{item.name} sent by Ostland in turn 1 arrives in the armory" in event.text


def test_the_api_refuses_an_item_the_kingdom_does_not_hold_and_saves_nothing(turn, ostland, karak) -> None:
    response = api_as("alice").put(
        f"/api/turns/{turn.pk}/sheet/",
        {"orders": [], "item_transfers": [{"kingdom": karak.id, "item": "Crown of Nagash"}], "submit": True},
        format="json",
    )
    assert response.status_code == 400
    assert (
        "The transfer of Crown of Nagash to Karak Dumn: the kingdom holds no magic item of that name, in its "
        "armies or its armory (Transfer of Gold)." in error_details(response)
    )
    assert not OrderSheet.objects.filter(kingdom=ostland).exists()


def test_the_sheet_page_takes_an_item_transfer_with_its_fee(turn, ostland, karak) -> None:
    """The order sheet's form: a kingdom and an item's name; the receipt lists the fee."""
    item = _carried(ostland)
    client = pages_as("alice")
    url = f"/turns/{turn.pk}/orders/{ostland.pk}/"
    page = client.get(url).content.decode()
    assert 'name="item-transfer-0-item"' in page and "Transfer of magic items" in page
    form = {f"army-{a.id}-kind": "hold" for a in ostland.armies.filter(kind="field")}
    form.update({"item-transfer-0-kingdom": karak.id, "item-transfer-0-item": item.name, "action": "submit"})
    response = client.post(url, form)
    assert response.status_code == 302, response.content.decode()[:2000]
    receipt = client.get(response["Location"]).content.decode()
    assert f"Transfer the magic item {item.name} to Karak Dumn (10% of double its points on top)" in receipt
    assert f'<td class="num">{item_transfer_fee(item.points)}</td>' in receipt  # the gold the sheet spends


def _runefang_sent_arrives(turn: Turn, ostland: Kingdom, karak: Kingdom) -> Turn:
    """Ostland's Runefang sent to Karak Dumn in turn 1 (its ITEM_SENT event as the orders phase writes
    it, the item gone with the orders) arrives at the beginning of turn 3; returns turn 3."""
    TurnEvent.objects.create(
        turn=turn,
        sequence=900,
        phase="transfers",
        code="item-sent",
        text="Ostland sends Runefang to Karak Dumn.",
        kingdom=ostland,
        data={"to": karak.id, "item_id": 0, "name": "Runefang", "points": 85, "common": False, "fee": 17, "arrives": 3},
    )
    ArmoryItem.objects.filter(kingdom=ostland, name="Runefang").delete()  # it left with the orders
    third = _open(turn, 3)
    items_arrive(turn=third)
    return third


def test_an_armory_item_the_receiver_holds_already_goes_back_to_the_sender(turn, ostland, karak) -> None:
    """Armory: one of each item that is not common. Karak Dumn holds a Runefang when Ostland's
    (sent in turn 1, its ITEM_SENT event as the orders phase writes it) arrives in turn 3: it goes
    back to Ostland's armory, and Karak Dumn is told why (decision 143)."""
    ArmoryItem.objects.create(kingdom=karak, name="Runefang", points=85)
    third = _runefang_sent_arrives(turn, ostland, karak)
    assert ArmoryItem.objects.filter(kingdom=karak, name="Runefang").count() == 1
    (back,) = ArmoryItem.objects.filter(kingdom=ostland, name="Runefang")
    assert back.bearer is None
    (event,) = TurnEvent.objects.filter(turn=third, code="item-arrived")
    assert "holds one already" in event.text and "goes back to the sender's armory" in event.text


def test_an_armory_item_the_receiver_lost_with_an_army_goes_back_to_the_sender(turn, ostland, karak) -> None:
    """Armory: "If the army containing that item is destroyed, your kingdom does not get another one".
    Karak Dumn's Runefang was destroyed with its army: Ostland's arrives and goes back to Ostland, and
    the database's one-of-each constraint is never met with a second row (decision 143)."""
    ArmoryItem.objects.create(kingdom=karak, name="Runefang", points=85, destroyed=True)
    third = _runefang_sent_arrives(turn, ostland, karak)
    assert list(ArmoryItem.objects.filter(kingdom=karak, name="Runefang").values_list("destroyed", flat=True)) == [True]
    assert ArmoryItem.objects.filter(kingdom=ostland, name="Runefang", destroyed=False).count() == 1
    (event,) = TurnEvent.objects.filter(turn=third, code="item-arrived")
    assert "or lost one with an army" in event.text and "goes back to the sender's armory" in event.text
