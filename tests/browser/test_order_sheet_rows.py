"""The order sheet's other parts in a real browser: a refused transfer, land deal, purchase and
capitol move each stand in the row and beside the field they are about, the field marked invalid
and described by the words (which name the thing and the rule), while the list above keeps them
all and nothing is saved (issue 18, point 4; rules decision 380). The demo campaign's turn 1:
alice leads Ostland (Empire), whose Warlord's 1st Army stands in its capitol."""

from __future__ import annotations

import pytest
from playwright.sync_api import Locator, Page, expect

from demo.campaign import DEMO_PASSWORD
from kingdoms.models import Campaign, Kingdom, Province
from orders.models import OrderSheet
from turns.models import Turn

from .conftest import login


@pytest.fixture
def ostland(demo_campaign: Campaign) -> Kingdom:
    return Kingdom.objects.get(campaign=demo_campaign, name="Ostland")


def _open_sheet(page: Page, live_server, campaign: Campaign) -> None:
    turn = Turn.objects.get(campaign=campaign, number=1)
    login(page, live_server, "alice", DEMO_PASSWORD)
    page.goto(f"{live_server.url}/turns/{turn.pk}/orders/")
    expect(page.get_by_role("heading", level=1)).to_have_text("Ostland: orders for turn 1")


def _submit(page: Page) -> None:
    page.get_by_role("button", name="Submit orders").click()
    expect(page.locator("#sheet-errors")).to_contain_text("The sheet is refused as a whole:")


def _refused_beside(control: Locator, words: str) -> None:
    """The control is marked invalid and its accessible description is the refusal, shown in its row."""
    expect(control).to_have_attribute("aria-invalid", "true")
    expect(control).to_have_accessible_description(words)
    row = control.locator("xpath=ancestor::tr[1]")
    expect(row.locator(".field-error")).to_have_text([words])


def _other_rows_clean(table: Locator, row: int) -> None:
    for i, tr in enumerate(table.locator("tr:has(td)").all()):
        if i != row:
            expect(tr.locator(".field-error")).to_have_count(0)


def test_an_item_transfer_the_kingdom_cannot_make_is_refused_in_its_row(
    page: Page, live_server, demo_campaign: Campaign, ostland: Kingdom
):
    """Transfer of Gold: an item the kingdom holds, as many of a name as it holds. The item is chosen
    from the kingdom's own (issue 37); Ostland holds one Enchanted Shield, drafted to Karak Dumn in
    the first row: the second row, sending it to Tor Anlec too, is the one refused."""
    _open_sheet(page, live_server, demo_campaign)
    page.locator("select[name='item-transfer-0-kingdom']").select_option(label="Karak Dumn")
    page.locator("select[name='item-transfer-0-item']").select_option("Enchanted Shield")
    page.get_by_role("button", name="Save draft").click()
    drafted = OrderSheet.objects.get(kingdom=ostland).entries
    page.locator("select[name='item-transfer-1-kingdom']").select_option(label="Tor Anlec")
    item = page.locator("select[name='item-transfer-1-item']")
    item.select_option("Enchanted Shield")
    _submit(page)
    words = (
        "The transfer of Enchanted Shield to Tor Anlec: the kingdom holds 1, in its armies or its armory "
        "(Transfer of Gold)."
    )
    expect(page.locator("#sheet-errors li")).to_have_text([words])
    _refused_beside(item, words)
    expect(page.locator("select[name='item-transfer-1-kingdom']")).not_to_have_attribute("aria-invalid", "true")
    expect(page.locator("#item-transfers-title + .field-problems")).to_have_count(0)
    _other_rows_clean(page.locator("#item-transfers"), 1)
    assert OrderSheet.objects.get(kingdom=ostland).entries == drafted


def test_a_second_land_deal_with_one_kingdom_is_refused_in_its_row(
    page: Page, live_server, demo_campaign: Campaign, ostland: Kingdom
):
    """Land Sales: one province per turn per player receiving the land. The first deal is drafted;
    the second row, with the same kingdom, is the one refused."""
    given = Province.objects.get(campaign=demo_campaign, number=62)
    _open_sheet(page, live_server, demo_campaign)
    page.locator("select[name='land-0-kingdom']").select_option(label="Karak Dumn")
    page.locator("select[name='land-0-province']").select_option(str(given.number))
    page.get_by_role("button", name="Save draft").click()
    expect(page.locator("ul.messages li")).to_have_text("Draft saved (not submitted).")
    drafted = OrderSheet.objects.get(kingdom=ostland).entries
    page.locator("select[name='land-1-kingdom']").select_option(label="Karak Dumn")
    _submit(page)
    words = (
        "A second land deal with Karak Dumn this turn: provinces change hands at the rate of one province per "
        "turn per player receiving the land (Land Sales)."
    )
    _refused_beside(page.locator("select[name='land-1-kingdom']"), words)
    _other_rows_clean(page.locator("#land-deals"), 1)
    assert OrderSheet.objects.get(kingdom=ostland).entries == drafted


def test_a_purchase_for_a_unit_not_on_the_list_is_refused_in_its_row(
    page: Page, live_server, demo_campaign: Campaign, ostland: Kingdom
):
    """Veteran Status is for units: a character chosen for it is refused beside the row's choice
    (the unit is chosen from the army's own list, issue 37, so a misspelt name cannot be sent)."""
    _open_sheet(page, live_server, demo_campaign)
    page.locator("select[name='purchase-1-army']").select_option(label="1st Army")
    page.locator("select[name='purchase-1-kind']").select_option("veteran")
    page.locator("select[name='purchase-1-unit']").select_option("Captain Reiner")
    _submit(page)
    words = "1st Army: Captain Reiner is a character; Veteran Status is for units (Veteran Status)."
    # The sheet's only purchase was written in the page's second row: the words stand there.
    _refused_beside(page.locator("select[name='purchase-1-unit']"), words)
    expect(page.locator("select[name='purchase-1-unit']")).to_have_value("Captain Reiner")
    _other_rows_clean(page.locator("#purchases"), 1)
    assert not OrderSheet.objects.filter(kingdom=ostland).exists()


def test_a_capitol_move_to_a_city_without_the_warlord_is_refused_beside_it(
    page: Page, live_server, demo_campaign: Campaign, ostland: Kingdom
):
    """Loss of the Capitol: the Warlord moves the capitol to the city it stands in."""
    _open_sheet(page, live_server, demo_campaign)
    city = page.locator("select[name='capitol-city']")
    city.select_option("61")
    _submit(page)
    words = (
        "Your Warlord does not stand in 61 Eldenhall: the Warlord moves the capitol to the city it is in "
        "(Loss of the Capitol)."
    )
    expect(city).to_have_attribute("aria-invalid", "true")
    expect(city).to_have_accessible_description(words)
    expect(page.locator("#capitol ~ .field-problems").first).to_have_text(words)
    assert not OrderSheet.objects.filter(kingdom=ostland).exists()
