"""Land Sales through the site: one kingdom's side on the order sheet page, the other's through the
API, the deal written by the turn's resolution (province, ledger rows, both reports' events).
Rulebook: Player Issues > Land Sales."""

from kingdoms.models import Kingdom, Province, TreasuryEntry
from orders.models import TurnEvent
from tests.clients import api_as, error_details, pages_as
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
    rows = TreasuryEntry.objects.filter(reason="land-sale").order_by("kingdom_id")
    assert {(r.kingdom_id, r.amount) for r in rows} == {(ostland.id, 500), (karak.id, -500)}
    deals = TurnEvent.objects.filter(turn=turn, code="land-deal")
    assert {e.kingdom_id for e in deals} == {ostland.id, karak.id}
