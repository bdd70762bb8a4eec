"""The order sheet page (orders/views.py, templates/orders/order_sheet.html): the map beside the
sheet, the legal targets sent to the page as data and offered in its drop-downs, and every error
beside the field that mends it. The demo campaign's turn 1: alice leads Ostland (Empire), whose
1st Army stands in its capitol."""

from __future__ import annotations

import html
import json
import re

import pytest
from django.contrib.auth import get_user_model

from kingdoms.models import Army, Kingdom
from orders.models import OrderSubmission
from orders.services.sheets import order_sheet_context_load
from rulebook.turn.write_orders.targets import sheet_targets


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


def _control(page: str, name: str) -> str:
    """The opening tag of the control named `name`."""
    return re.search(rf'<(?:select|input)[^>]*name="{re.escape(name)}"[^>]*>', page)[0]


def _described(page: str, name: str) -> str:
    """The words the control `name` is described by (aria-describedby), its being marked invalid checked."""
    control = _control(page, name)
    assert 'aria-invalid="true"' in control, control
    error_id = re.search(r'aria-describedby="([^"]*)"', control)[1].split()[-1]
    return re.search(rf'<div class="field-problems" id="{re.escape(error_id)}">(.*?)</div>', page, re.S)[1]


def test_the_sheet_s_other_parts_refuse_beside_their_rows(alice_client, turn, ostland, army, demo_campaign):
    """Each refusal of the sheet's other parts stands beside the row and field it is about, the field
    marked invalid and described by the words (which name the thing and the rule), and the rest of
    the part's rows left alone: Transfer of Gold (an item the kingdom does not hold, in the second
    row), Land Sales (a second deal with the same kingdom), Loss of the Capitol (the Warlord is not
    in that city), Spending Experience (recruits for a unit not on the list). Nothing is saved."""
    dumn = Kingdom.objects.get(campaign=demo_campaign, name="Karak Dumn")
    anlec = Kingdom.objects.get(campaign=demo_campaign, name="Tor Anlec")
    city = ostland.provinces.filter(settlement="city").exclude(pk=ostland.capitol_id).order_by("number").first()
    given = ostland.provinces.filter(settlement="none").exclude(pk=ostland.capitol_id).order_by("number").first()
    first_rows = {
        f"army-{army.pk}-kind": "hold",
        "item-transfer-0-kingdom": dumn.pk,
        "item-transfer-0-item": "Enchanted Shield",
        "land-0-kingdom": dumn.pk,
        "land-0-province": given.number,
    }
    # A draft with one row of each: the sheet comes back with a second, empty row below.
    assert alice_client.post(_url(turn, ostland), {**first_rows, "action": "draft"}).status_code == 302
    drafted = ostland.order_sheets.get().entries
    response = alice_client.post(
        _url(turn, ostland),
        {
            **first_rows,
            "item-transfer-1-kingdom": anlec.pk,
            "item-transfer-1-item": "Crown of Nowhere",
            "land-1-kingdom": dumn.pk,
            "capitol-city": city.number,
            "purchase-0-army": army.pk,
            "purchase-0-kind": "recruits",
            "purchase-0-unit": "Nobody",
            "purchase-0-models": 5,
            "action": "submit",
        },
    )
    assert response.status_code == 400
    page = response.content.decode()
    assert "Crown of Nowhere to Tor Anlec: the kingdom holds no magic item of that name" in _described(
        page, "item-transfer-1-item"
    )
    assert "(Transfer of Gold)" in _described(page, "item-transfer-1-item")
    assert "aria-invalid" not in _control(page, "item-transfer-0-item")
    assert "A second land deal with Karak Dumn this turn" in _described(page, "land-1-kingdom")
    assert "(Land Sales)" in _described(page, "land-1-kingdom")
    assert "aria-invalid" not in _control(page, "land-0-kingdom")
    assert f"Your Warlord does not stand in {city}" in _described(page, "capitol-city")
    assert "(Loss of the Capitol)" in _described(page, "capitol-city")
    assert "1st Army: Nobody is not a unit of its list (Spending Experience)." in _described(page, "purchase-0-unit")
    assert "aria-invalid" not in _control(page, "purchase-0-army")
    # Under the parts' headings only their rows speak: nothing stands under the headings themselves.
    for heading, table in [
        ('<h3 id="item-transfers-title">', '<table id="item-transfers"'),
        ('<h2 id="land-sales">', '<table id="land-deals"'),
        ("<h2>Spending experience</h2>", '<table id="purchases"'),
    ]:
        assert "field-error" not in page.split(heading)[1].split(table)[0]
    # The whole list stays above the sheet.
    above = page.split('id="sheet-errors"')[1].split("</div>")[0]
    assert "Nobody is not a unit of its list" in above and "A second land deal" in above
    assert ostland.order_sheets.get().entries == drafted  # the draft as it was: nothing saved


def test_a_field_s_own_refusal_stands_beside_it_naming_the_rule(alice_client, turn, ostland, army, demo_campaign):
    """Transfer of Gold: a positive amount; Land Sales: the gold paid is 0 or more. A field's own
    refusal (a request past the page's minimum) stands beside it, naming the rule, and nothing is
    saved."""
    anlec = Kingdom.objects.get(campaign=demo_campaign, name="Tor Anlec")
    response = alice_client.post(
        _url(turn, ostland),
        {
            f"army-{army.pk}-kind": "hold",
            "transfer-0-kingdom": anlec.pk,
            "transfer-0-gold": 0,
            "land-0-kingdom": anlec.pk,
            "land-0-gold": -5,
            "action": "submit",
        },
    )
    assert response.status_code == 400
    page = response.content.decode()
    assert "Transfer a positive amount of gold (Transfer of Gold)." in _described(page, "transfer-0-gold")
    assert "Pay 0 gold or more (Land Sales)." in _described(page, "land-0-gold")
    assert "aria-invalid" not in _control(page, "transfer-0-kingdom")
    assert not ostland.order_sheets.exists()


def test_a_drafted_problem_stands_beside_its_row_when_the_sheet_is_opened_again(alice_client, turn, ostland, army):
    """A draft is kept with its errors; opened again, the check's words stand in the drafted row
    (Loss of the Capitol)."""
    city = ostland.provinces.filter(settlement="city").exclude(pk=ostland.capitol_id).order_by("number").first()
    drafted = {f"army-{army.pk}-kind": "hold", "capitol-city": city.number, "action": "draft"}
    alice_client.post(_url(turn, ostland), drafted)
    page = alice_client.get(_url(turn, ostland)).content.decode()
    assert f"Your Warlord does not stand in {city}" in _described(page, "capitol-city")


def test_a_row_added_below_a_drafted_one_is_kept(alice_client, turn, ostland, army, demo_campaign):
    """The page draws one empty row below the drafted ones (Transfer of Gold); what the player writes
    in it is saved with them, never dropped because the sheet posted holds more rows than before."""
    anlec = Kingdom.objects.get(campaign=demo_campaign, name="Tor Anlec")
    dumn = Kingdom.objects.get(campaign=demo_campaign, name="Karak Dumn")
    first = {f"army-{army.pk}-kind": "hold", "transfer-0-kingdom": anlec.pk, "transfer-0-gold": 100}
    alice_client.post(_url(turn, ostland), {**first, "action": "draft"})
    assert 'name="transfer-1-gold"' in alice_client.get(_url(turn, ostland)).content.decode()
    second = {"transfer-1-kingdom": dumn.pk, "transfer-1-gold": 50}
    assert alice_client.post(_url(turn, ostland), {**first, **second, "action": "draft"}).status_code == 302
    transfers = ostland.order_sheets.get().entries["gold_transfers"]
    assert [(t["kingdom"], t["gold"]) for t in transfers] == [(anlec.pk, 100), (dumn.pk, 50)]


def test_a_purchase_s_unit_is_chosen_from_the_kingdom_s_own_lists(alice_client, turn, ostland, army, demo_campaign):
    """Issue 37, choose don't type (Spending Experience: a purchase is for a unit or character of the
    army's list): each row's "For" is a list grouped by army, Ostland's units and characters only; a
    filed name no longer on any list stays offered, marked, so the refusal can be mended."""
    page = alice_client.get(_url(turn, ostland)).content.decode()
    control = re.search(r'<select[^>]*name="purchase-0-unit".*?</select>', page, re.S)[0]
    groups = re.findall(r'<optgroup label="([^"]*)"', control)
    assert groups == [a.name for a in ostland.armies.filter(kind="field", status="active").order_by("id")]
    assert '<option value="Swordsmen">Swordsmen</option>' in control
    assert '<option value="Captain Reiner">Captain Reiner (character)</option>' in control
    others = Kingdom.objects.filter(campaign=demo_campaign).exclude(pk=ostland.pk)
    foreign = {
        u.name
        for k in others
        for a in k.armies.all()
        for u in a.units.all()
        if not ostland.armies.filter(units__name=u.name).exists()
    }
    assert foreign and not any(f'value="{name}"' in control for name in foreign)
    alice_client.post(
        _url(turn, ostland),
        {
            f"army-{army.pk}-kind": "hold",
            "purchase-0-army": army.pk,
            "purchase-0-kind": "recruits",
            "purchase-0-unit": "Nobody",
            "action": "draft",
        },
    )
    page = alice_client.get(_url(turn, ostland)).content.decode()
    control = re.search(r'<select[^>]*name="purchase-0-unit".*?</select>', page, re.S)[0]
    assert '<option value="Nobody" selected>Nobody (as filed: not on the army&#x27;s list)</option>' in control


def test_the_order_list_offers_only_what_the_army_may_do_here(alice_client, turn, ostland, army):
    """Issue 37: no Recover for an army in a province that is not razed (Recover), no Scarab Amulet
    for a kingdom that is not the Ancient Dead (The Ancient Dead: Deserts); Hold, Move, Support are."""
    page = alice_client.get(_url(turn, ostland)).content.decode()
    kinds = _options(page, f"army-{army.pk}-kind")
    assert {"hold", "move", "support"} <= set(kinds)
    assert "recover" not in kinds and "scarab-amulet" not in kinds


def test_an_order_the_list_did_not_offer_is_refused_in_the_rule_s_words(alice_client, turn, ostland, army):
    """A crafted Recover (never offered: the province is not razed) gets the check's words, not a
    form's "select a valid choice", and nothing is saved."""
    response = alice_client.post(_url(turn, ostland), {f"army-{army.pk}-kind": "recover", "action": "submit"})
    assert response.status_code == 400
    assert "is not razed; Recover is for razed provinces (Recover)." in response.content.decode()
    assert not ostland.order_sheets.exists()


def _errors_heading(page: str) -> str:
    return re.search(r'id="sheet-errors"[^>]*><p>(.*?)</p>', page, re.S)[1]


def test_a_saved_draft_with_problems_says_it_would_be_refused_and_a_refused_submission_says_it_was(
    alice_client, turn, ostland, army
):
    """4. Write Orders: a draft is kept with its problems, so the page that says "Draft saved" does not
    go on to call it refused; it says the draft would be refused if submitted. Submitting the same sheet
    refuses it as a whole, and nothing is submitted (Loss of the Capitol: the Warlord is not in the city)."""
    city = ostland.provinces.filter(settlement="city").exclude(pk=ostland.capitol_id).order_by("number").first()
    rows = {f"army-{army.pk}-kind": "hold", "capitol-city": city.number}
    saved = alice_client.post(_url(turn, ostland), {**rows, "action": "draft"}, follow=True)
    page = html.unescape(saved.content.decode())
    assert "Draft saved (not submitted)." in page
    assert _errors_heading(page) == "This draft has problems: it would be refused as a whole if you submitted it."
    assert "refused as a whole:" not in page

    refused = alice_client.post(_url(turn, ostland), {**rows, "action": "submit"})
    assert refused.status_code == 400
    assert _errors_heading(refused.content.decode()) == "The sheet is refused as a whole:"
    assert not OrderSubmission.objects.filter(sheet__kingdom=ostland).exists()


def test_a_forced_march_that_also_supports_a_battle_is_saved_and_shown_again(alice_client, turn, ostland, army):
    """Decision 588 (4. Write Orders: "Move and / or Support"; a Forced March is how an army moves).
    The sheet's Forced March with "and support a battle" ticked is submitted with its support, and
    opened again the box is ticked and the battle chosen. Before, the check refused it ("only Move or
    Support orders may support a battle") and nothing was saved."""
    targets = sheet_targets(order_sheet_context_load(kingdom=ostland, turn=turn)).armies[army.pk]
    first, seconds = next(iter(targets.march.items()))
    battle = targets.support[0]
    prefix = f"army-{army.pk}"
    response = alice_client.post(
        _url(turn, ostland),
        {
            f"{prefix}-kind": "forced-march",
            f"{prefix}-path_1": first,
            f"{prefix}-path_2": seconds[0],
            f"{prefix}-support": battle,
            "action": "submit",
        },
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    submitted = OrderSubmission.objects.get(sheet__kingdom=ostland)
    (order,) = [o for o in submitted.entries["orders"] if o["army"] == army.pk]
    assert (order["kind"], order["path"], order["support"]) == ("forced-march", [first, seconds[0]], battle)
    row = _row(alice_client.get(_url(turn, ostland)).content.decode(), army)
    assert re.search(r'<input type="checkbox" class="also-support" checked>', row)
    assert re.search(rf'<option value="{battle}" selected>', row.split('class="t-support"')[1])
