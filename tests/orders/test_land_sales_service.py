"""Land Sales through the site: one kingdom's side on the order sheet page, the other's through the
API, the deal written by the turn's resolution (province, ledger rows, both reports' events).
Rulebook: Player Issues > Land Sales."""

from kingdoms.models import Kingdom, Province, TreasuryEntry
from orders.models import OrderSubmission
from orders.services.transfers import gold_transfers_arrive
from orders.services.turns import turn_open
from tests.clients import api_as, error_details, pages_as
from turns.models import TurnEvent
from turns.services.cycle import orders_phase_run


def test_case_AL6_a_province_sold_through_the_page_and_the_api_changes_hands(turn, ostland, demo_campaign):
    karak = Kingdom.objects.get(campaign=demo_campaign, name="Karak Dumn")
    province = ostland.provinces.filter(settlement="none").exclude(pk=ostland.capitol_id).order_by("number").first()
    page = pages_as("alice")
    sheet_url = f"/turns/{turn.pk}/orders/{ostland.pk}/"
    form_page = page.get(sheet_url).content.decode()
    assert (
        'name="land-0-province"' in form_page
        and f'value="{ostland.capitol.number}"' not in form_page.split("land-0-province")[1].split("</select>")[0]
    )
    holds = {f"army-{a.id}-kind": "hold" for a in ostland.armies.filter(kind="field")}
    response = page.post(
        sheet_url,
        {**holds, "land-0-kingdom": str(karak.id), "land-0-province": str(province.number), "action": "submit"},
    )
    assert response.status_code == 302
    assert f"Land deal with Karak Dumn: give {province}" in page.get(response["Location"]).content.decode()
    answer = api_as("carol").put(
        f"/api/turns/{turn.pk}/sheet/",
        {"orders": [], "land_deals": [{"kingdom": ostland.id, "gold": 500}], "submit": True},
        format="json",
    )
    assert answer.status_code == 200, answer.json()
    # A town is refused whole, naming the rule, and saves nothing.
    town = karak.provinces.exclude(settlement="none").first()
    refused = api_as("carol").put(
        f"/api/turns/{turn.pk}/sheet/",
        {"orders": [], "land_deals": [{"kingdom": ostland.id, "province": town.number}], "submit": True},
        format="json",
    )
    assert refused.status_code == 400
    assert "towns or cities may not be given away or sold" in error_details(refused)[0]

    assert orders_phase_run(turn_id=turn.pk).resolved

    province = Province.objects.get(pk=province.pk)
    assert (province.controller_id, province.land_sale_turn) == (karak.id, 1)
    # The price is a Transfer of Gold: 500 and the 50 fee leave Karak Dumn now; nothing arrives yet.
    rows = TreasuryEntry.objects.filter(reason="land-sale")
    assert {(r.kingdom_id, r.amount, r.turn) for r in rows} == {(karak.id, -550, 1)}
    deals = TurnEvent.objects.filter(turn=turn, code="land-deal")
    assert {e.kingdom_id for e in deals} == {ostland.id, karak.id}
    (paid,) = TurnEvent.objects.filter(turn=turn, code="land-price-paid")
    assert (paid.kingdom_id, paid.gold, paid.data["arrives"]) == (karak.id, -550, 3)


def test_case_AL6_a_land_price_arrives_in_the_seller_s_treasury_two_turns_later(turn, ostland, demo_campaign):
    """Land Sales, Transfer of Gold: "it will cost 1,100 gold. And if it were transferred in Turn 2,
    it will arrive at the beginning of Turn 4". Karak Dumn buys a province of Ostland for 500 in turn
    1 through the API: its sheet counts 550; turn 2 opens with nothing for Ostland; turn 3 opens with
    the 500 in Ostland's treasury, once (decision 384)."""
    karak = Kingdom.objects.get(campaign=demo_campaign, name="Karak Dumn")
    province = ostland.provinces.filter(settlement="none").exclude(pk=ostland.capitol_id).order_by("number").first()
    for user, deal in (
        ("alice", {"kingdom": karak.id, "province": province.number}),
        ("carol", {"kingdom": ostland.id, "gold": 500}),
    ):
        answer = api_as(user).put(
            f"/api/turns/{turn.pk}/sheet/", {"orders": [], "land_deals": [deal], "submit": True}, format="json"
        )
        assert answer.status_code == 200, answer.json()
    assert answer.json()["check"]["costs"] == [
        ["Land deal with Ostland: 500 gold (+50 transportation fee; arrives at the beginning of turn 3)", 550]
    ]
    receipt = OrderSubmission.objects.filter(sheet__kingdom=karak).latest("id").receipt
    assert "Land deal with Ostland: receive, pay 500 gold (10% fee on top)" in receipt["kingdom"]
    assert orders_phase_run(turn_id=turn.pk).resolved
    before = sum(TreasuryEntry.objects.filter(kingdom=ostland).values_list("amount", flat=True))

    turn_open(campaign=demo_campaign, number=2)
    ostland_gold = sum(TreasuryEntry.objects.filter(kingdom=ostland).values_list("amount", flat=True))
    assert ostland_gold == before
    third = turn_open(campaign=demo_campaign, number=3)
    gold_transfers_arrive(turn=third)  # safe twice

    (arrived,) = TreasuryEntry.objects.filter(kingdom=ostland, reason="land-sale")
    assert (arrived.amount, arrived.turn) == (500, 3)
    (event,) = TurnEvent.objects.filter(code="transfer-arrived")
    assert (event.kingdom_id, event.turn_id, event.gold) == (ostland.id, third.id, 500)
    assert "500 gold paid for land by Karak Dumn in turn 1 arrives in the treasury" in event.text
