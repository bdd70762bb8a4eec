"""The army-list editor in a real browser, at a phone's width (390 px): rows added as the player
goes, the running total and what is wrong while writing (the server's check), a draft kept and
found again that counts for nothing, and the list saved once the rules accept it. Reikland (Empire)
enters its starting army: Setup, "a 2,000 point army" (1,950 to 2,000: decision 4)."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from briternia.errors import DomainError
from kingdoms.models import Army, Campaign, DraftedArmyList, Kingdom, Unit
from kingdoms.services.campaigns import campaign_setup_close
from rulebook.tables import ARCHETYPE_TABLE, ArmyType

from .conftest import PASSWORD, login


def _fill(page: Page, row: int, **fields: str) -> None:
    for field, value in fields.items():
        control = page.locator(f"[name='units-{row}-{field}']")
        if control.evaluate("el => el.tagName") == "SELECT":
            control.select_option(value)
        else:
            control.fill(value)


def _no_overflow(page: Page) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= 390


def test_a_list_written_bit_by_bit_on_a_phone(page: Page, live_server, army_lists_campaign: Campaign):
    reikland = Kingdom.objects.get(campaign=army_lists_campaign, name="Reikland")
    army = Army.objects.get(kingdom=reikland, name="1st Army")
    page.set_viewport_size({"width": 390, "height": 844})
    login(page, live_server, "anna", PASSWORD)
    page.goto(f"{live_server.url}/armies/{army.pk}/edit/")
    expect(page.get_by_role("heading", level=1)).to_have_text("1st Army: army list")
    _no_overflow(page)
    expect(page.locator("#list-total")).to_have_text("0")
    expect(page.locator("#list-problems")).to_contain_text("an army needs exactly one General")

    # The Warlord: the character's fields show for a character only, its archetypes the Empire's.
    rank = page.locator("[name='units-0-rank']")
    expect(rank).to_be_hidden()
    _fill(page, 0, name="Count Aldric", category="character", models="1", points_per_model="250")
    expect(rank).to_be_visible()
    archetypes = page.locator("[name='units-0-archetype'] option").evaluate_all("os => os.map(o => o.value)")
    assert set(archetypes) - {""} == {a.value for a in ARCHETYPE_TABLE[ArmyType.EMPIRE]}
    _fill(page, 0, rank="lord", role="warlord", archetype="barbarian")
    _fill(page, 1, name="Halberdiers", category="core", models="85", points_per_model="10")
    _fill(page, 2, name="Knights", category="special", models="10", points_per_model="85")
    # The running total follows the writing, and so does what is wrong: none of it saved.
    expect(page.locator("#list-total")).to_have_text("1950")
    expect(page.locator("#list-ok")).to_be_visible()

    # A fourth row without saving; 2,050 points are too many, and the editor says so.
    page.get_by_role("button", name="Add a unit or character").click()
    expect(page.locator(".unit-row")).to_have_count(4)
    _fill(page, 3, name="Handgunners", category="core", models="10", points_per_model="10")
    expect(page.locator("#list-total")).to_have_text("2050")
    expect(page.locator("#list-problems")).to_have_text(
        [
            "1st Army: the list totals 2050 points; the starting army is a 2,000 point army (Setup): "
            "1,950 to 2,000 points."
        ]
    )
    _no_overflow(page)

    # Kept as a draft: found again as written, and it counts for nothing (the campaign cannot start).
    page.get_by_role("button", name="Keep as a draft").click()
    expect(page.locator("ul.messages li")).to_contain_text("Draft of 1st Army's list kept")
    page.reload()
    expect(page.locator("#list-draft")).to_contain_text("It does not count")
    expect(page.locator("[name='units-3-name']")).to_have_value("Handgunners")
    expect(page.locator("#list-total")).to_have_text("2050")
    assert not Unit.objects.filter(army=army).exists()
    with pytest.raises(DomainError, match="Reikland: 1st Army: an army needs exactly one General"):
        campaign_setup_close(campaign=army_lists_campaign)

    # The extra row removed: the rules accept the list, and saving enters it and ends the draft.
    page.locator("[name='units-3-DELETE']").check()
    expect(page.locator("#list-total")).to_have_text("1950")
    expect(page.locator("#list-ok")).to_be_visible()
    page.get_by_role("button", name="Save the list").click()
    expect(page.locator("ul.messages li")).to_contain_text("The list of 1st Army is saved.")
    assert list(Unit.objects.filter(army=army).order_by("position").values_list("name", flat=True)) == [
        "Count Aldric",
        "Halberdiers",
        "Knights",
    ]
    assert not DraftedArmyList.objects.filter(army=army).exists()
