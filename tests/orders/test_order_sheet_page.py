"""The order sheet page (orders/views.py, templates/orders/order_sheet.html): the map beside the
sheet, the legal targets sent to the page as data and offered in its drop-downs, and every error
beside the field that mends it. The demo campaign's turn 1: alice leads Ostland (Empire), whose
1st Army stands in its capitol."""

from __future__ import annotations

import json
import re

import pytest
from django.contrib.auth import get_user_model

from kingdoms.models import Army, Kingdom
from orders.rules.targets import sheet_targets
from orders.services.sheets import order_sheet_context_load


@pytest.fixture
def alice_client(client, demo_campaign):
    client.force_login(get_user_model().objects.get(username="alice"))
    return client


@pytest.fixture
def army(ostland: Kingdom) -> Army:
    return Army.objects.get(kingdom=ostland, name="1st Army")


def _url(turn, kingdom) -> str:
    return f"/turns/{turn.pk}/orders/{kingdom.pk}/"


def _data(page: str) -> dict:
    return json.loads(re.search(r'<script id="sheet-targets" type="application/json">(.*?)</script>', page, re.S)[1])


def _options(page: str, name: str) -> list[str]:
    select = re.search(rf'<select name="{re.escape(name)}"[^>]*>(.*?)</select>', page, re.S)[1]
    return re.findall(r'<option value="([^"]*)"', select)


def _row(page: str, army: Army) -> str:
    return page.split(f'data-army-id="{army.pk}"')[1].split("</tr>")[0]


def test_the_page_offers_only_the_targets_the_check_accepts(alice_client, turn, ostland, army):
    """5. Executing Orders: Move (adjacent); Forced March: the Empire marches through plains only,
    never through desert (Deserts); 3. Create / Upgrade Armies: a new army in an unoccupied province
    of the kingdom's."""
    page = alice_client.get(_url(turn, ostland)).content.decode()
    targets = sheet_targets(order_sheet_context_load(kingdom=ostland, turn=turn))
    mine = targets.armies[army.pk]
    assert _data(page) == json.loads(json.dumps(targets.as_data()))
    assert _data(page)["armies"][str(army.pk)]["province"] == army.province.number

    prefix = f"army-{army.pk}"
    assert _options(page, f"{prefix}-target") == ["", *map(str, mine.move)]
    assert _options(page, f"{prefix}-path_1") == ["", *map(str, mine.march_firsts)]
    terrain = {p.number: p.terrain for p in turn.campaign.provinces.all()}
    assert mine.march_firsts and all(terrain[n] == "plains" for n in mine.march_firsts)
    # Some neighbour is no plains (on the demo map), so the drop-down is narrower than the adjacency.
    neighbours = sorted(p.number for p in army.province.neighbours.all())
    assert set(mine.march_firsts) < set(neighbours)
    # A new army: not the capitol, where 1st Army stands.
    assert army.province.number not in targets.creation_provinces
    assert _options(page, "create-0-province") == ["", *map(str, targets.creation_provinces)]
    # The map beside the sheet, with the army on it.
    assert 'id="sheet-map"' in page and f'id="province-{army.province.number}"' in page


def test_each_refusal_stands_beside_its_field(alice_client, turn, ostland, army):
    """A Forced March through terrain the Empire may not march through (Army-Specific Rules) is
    refused beside the Forced March's fields, naming the army and the rule; a new army in an
    occupied province (3. Create / Upgrade Armies) beside that row's province. Nothing is saved."""
    here = army.province
    forest = next(p for p in here.neighbours.order_by("number") if p.terrain not in ("plains", "desert"))
    second = next(p for p in forest.neighbours.order_by("number") if p != here)
    prefix = f"army-{army.pk}"
    response = alice_client.post(
        _url(turn, ostland),
        {
            f"{prefix}-kind": "forced-march",
            f"{prefix}-path_1": forest.number,
            f"{prefix}-path_2": second.number,
            "create-0-name": "Reserve",
            "create-0-points": 1000,
            "create-0-province": here.number,
            "action": "submit",
        },
    )
    assert response.status_code == 400
    page = response.content.decode()
    row = _row(page, army)
    march_error = row.split('class="t-fm"')[1].split("</td>")[0]
    assert f"1st Army: Empire may Forced March only through plains; {forest}" in march_error
    assert "(Army-Specific Rules)" in march_error
    assert "field-error" not in row.split('class="t-move"')[1].split('class="t-support"')[0]
    creation = page.split('class="creation-row"')[1].split("</tr>")[0]
    province_cell = creation.split("<td>")[3]
    assert f"New army &#x27;Reserve&#x27;: {here} is occupied" in province_cell
    assert "field-error" not in creation.split("<td>")[1]
    # The drafted choices come back, the illegal first step still shown so it can be mended.
    assert str(forest.number) in _options(page, f"{prefix}-path_1")
    assert not ostland.order_sheets.exists()


def test_a_problem_of_the_sheet_s_other_parts_stands_beside_that_part(alice_client, turn, ostland, army, demo_campaign):
    """Treasury: a sheet spending more than the treasury and the turn's taxes is refused, and the
    words stand under the sheet's gold as well as in the list above."""
    fang = Kingdom.objects.get(campaign=demo_campaign, name="Da Red Fang")
    response = alice_client.post(
        _url(turn, ostland),
        {f"army-{army.pk}-kind": "hold", "transfer-0-kingdom": fang.pk, "transfer-0-gold": 10**9, "action": "submit"},
    )
    assert response.status_code == 400
    page = response.content.decode()
    gold = page.split("<h2>Gold</h2>")[1].split('<table id="gold"')[0]
    assert "field-error" in gold and "gold short (Treasury" in gold
    assert "gold short" not in page.split("<h2>Gold</h2>")[0].split('id="order-sheet"')[1]
