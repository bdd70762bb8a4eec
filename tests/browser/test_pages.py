"""The site's frame as a player meets it in a real browser (issue 18, point 8): tab titles
without raw HTML, a plain "not found" page (never Django's debug page), "Reports" in the top bar
leading to the reports, the site's icon, and a way back from the API documentation. The demo
campaign is the setting: alice leads Ostland."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from demo.campaign import DEMO_PASSWORD
from kingdoms.models import Army, Campaign, Kingdom

from .conftest import Outbox, login


@pytest.fixture
def campaign(outbox: Outbox, demo_campaign: Campaign) -> Campaign:
    return demo_campaign


def test_kingdom_and_army_pages_have_plain_tab_titles(page: Page, live_server, campaign: Campaign) -> None:
    ostland = Kingdom.objects.get(campaign=campaign, name="Ostland")
    army = Army.objects.filter(kingdom=ostland).order_by("pk").first()
    login(page, live_server, "alice", DEMO_PASSWORD)
    page.goto(f"{live_server.url}/kingdoms/{ostland.pk}/")
    expect(page).to_have_title("Ostland · Briternia")
    # The kingdom's dice are on the page, once (they once sat inside the title).
    expect(page.locator("table#dice")).to_have_count(1)
    page.goto(f"{live_server.url}/armies/{army.pk}/")
    expect(page).to_have_title(f"{army.name} · Briternia")


def test_a_missing_or_hidden_page_is_a_plain_not_found_page(page: Page, live_server, campaign: Campaign) -> None:
    """DEBUG is off: no URL list, no settings; another kingdom's page is "not found" too (secrecy)."""
    login(page, live_server, "alice", DEMO_PASSWORD)
    for path in ["/no-such-page/", f"/kingdoms/{Kingdom.objects.get(campaign=campaign, name='Da Red Fang').pk}/"]:
        response = page.goto(f"{live_server.url}{path}")
        assert response is not None and response.status == 404
        expect(page).to_have_title("Not found · Briternia")
        expect(page.locator("#not-found")).to_be_visible()
        assert "URLconf" not in page.content() and "Da Red Fang" not in page.content()
        expect(page.locator("header .who")).to_be_visible()  # the site's frame, logged in
    page.get_by_role("link", name="Back to your campaigns").click()
    expect(page.get_by_role("link", name=campaign.name)).to_be_visible()


def test_reports_in_the_top_bar_lead_to_the_reports(page: Page, live_server, campaign: Campaign) -> None:
    login(page, live_server, "alice", DEMO_PASSWORD)
    page.locator("header nav").get_by_role("link", name="Reports", exact=True).click()
    expect(page.get_by_role("heading", level=1)).to_have_text(f"{campaign.name}: turn by turn")


def test_the_site_has_an_icon(page: Page, live_server, campaign: Campaign) -> None:
    page.goto(live_server.url)
    href = page.locator("link[rel=icon]").get_attribute("href")
    assert href
    icon = page.request.get(f"{live_server.url}{href}")
    assert icon.status == 200 and icon.headers["content-type"].startswith("image/svg+xml")
    assert b"<svg" in icon.body()


def test_the_api_docs_have_a_way_back(page: Page, live_server, campaign: Campaign) -> None:
    login(page, live_server, "alice", DEMO_PASSWORD)
    page.locator("header nav").get_by_role("link", name="API", exact=True).click()
    expect(page.locator("#swagger-ui")).to_be_attached()
    page.get_by_role("link", name="Back to Briternia").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Briternia: The Awakening of the Ancients")


@pytest.mark.parametrize("width", [1280, 390])
def test_retire_asks_first_and_no_keeps_him(page: Page, live_server, campaign: Campaign, width: int) -> None:
    """Issue 37, confirm or undo: one click on Retire beside a character no longer retires him. The
    question page says what is lost (Character Injury Chart: he counts as dead, his items go with him
    unless paid for), passes axe-core and fits the screen; "No, keep him" leaves him with his army,
    and "Yes" retires him."""
    from kingdoms.models import Character

    from .test_accessibility import AXE_JS, _violations

    ostland = Kingdom.objects.get(campaign=campaign, name="Ostland")
    reiner = Character.objects.get(kingdom=ostland, unit__name="Captain Reiner")
    page.set_viewport_size({"width": width, "height": 900})
    login(page, live_server, "alice", DEMO_PASSWORD)
    page.goto(f"{live_server.url}/kingdoms/{ostland.pk}/")
    row = page.locator("#characters tr", has_text="Captain Reiner")
    row.get_by_role("button", name="Retire").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Retire Captain Reiner?")
    expect(page.locator("#retire-consequences")).to_contain_text("cannot be undone")
    assert not _violations(page, AXE_JS.read_text())
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    reiner.refresh_from_db()
    assert reiner.alive
    page.get_by_role("link", name="No, keep him").click()
    expect(page).to_have_title("Ostland · Briternia")
    reiner.refresh_from_db()
    assert reiner.alive
    page.locator("#characters tr", has_text="Captain Reiner").get_by_role("button", name="Retire").click()
    page.get_by_role("button", name="Yes, retire Captain Reiner").click()
    expect(page.locator(".messages").first).to_contain_text("Captain Reiner retires")
    reiner.refresh_from_db()
    assert not reiner.alive
