"""A past turn's pages as a player reads them after it is reported (issue 18, point 1): the order
sheet shows what was filed then, read-only, and says the turn is closed (no countdown, no Submit);
the receipt no longer invites changes; the turn summary sheet shows what was filed, not today's
model counts. The demo's turn 1 played through (demo/turn.py) is the setting: alice leads Ostland,
whose Wardens lost Hartwood."""

from __future__ import annotations

import pytest
from django.test import Client
from playwright.sync_api import Page, expect

from battles.models import Battle, TurnSummarySheet
from demo.campaign import DEMO_PASSWORD
from kingdoms.models import Kingdom
from orders.models import OrderSheet
from tests.clients import user_named
from tests.shared_rows import Layers
from turns.models import Turn

from .conftest import REPORTED, Outbox, login


@pytest.fixture
def reported(outbox: Outbox, transactional_db, shared_layers: Layers) -> Turn:
    """The demo's turn 1 played through (built once per run, committed: tests/shared_rows.py); its
    emails, when this fixture builds it, go to the outbox under tmp_path (no test here reads them)."""
    turn = shared_layers.take(REPORTED)
    assert turn.status == Turn.Status.REPORTED
    return turn


def test_a_reported_turns_order_sheet_and_receipt_are_closed(page: Page, live_server, reported: Turn) -> None:
    ostland = Kingdom.objects.get(campaign=reported.campaign, name="Ostland")
    receipt = OrderSheet.objects.get(turn=reported, kingdom=ostland).submissions.get().receipt
    login(page, live_server, "alice", DEMO_PASSWORD)
    page.goto(f"{live_server.url}/turns/{reported.pk}/orders/")
    expect(page.locator("#turn-closed")).to_contain_text("Turn 1 is closed: its orders were resolved on")
    # What was filed then, as the receipt wrote it when it was accepted.
    for line in receipt["orders"]:
        expect(page.locator("#filed-orders")).to_contain_text(line)
    expect(page.get_by_role("button")).to_have_count(1)  # the top bar's Log out: no Submit, no Save
    expect(page.locator("form#order-sheet")).to_have_count(0)
    expect(page.locator("body")).not_to_contain_text("time left")
    expect(page.locator("[data-deadline]")).to_have_count(0)  # no countdown

    page.get_by_role("link", name="receipt").click()
    expect(page.locator("#receipt-time")).to_contain_text("These are the orders that were submitted and resolved.")
    expect(page.locator("body")).not_to_contain_text("You may change and submit again")
    expect(page.get_by_role("link", name="Change the orders")).to_have_count(0)


def test_a_reported_turns_summary_sheet_shows_what_was_filed(page: Page, live_server, reported: Turn) -> None:
    hartwood = Battle.objects.get(turn=reported, province__number=62)
    ostland = Kingdom.objects.get(campaign=reported.campaign, name="Ostland")
    login(page, live_server, "alice", DEMO_PASSWORD)
    page.goto(f"{live_server.url}/battles/{hartwood.pk}/sheet/")
    expect(page.locator("#turn-closed")).to_contain_text("Turn 1 is closed")
    expect(page.locator("#filed")).to_contain_text("Minor loss")
    rows = page.locator("#filed-casualties tr")
    # The losses as filed (demo/turn.py), not the Halberdiers' count after Casualty Recovery.
    expect(rows.filter(has_text="Halberdiers (Wardens)")).to_contain_text("24")
    expect(rows.filter(has_text="Halberdiers (Wardens)")).to_contain_text("standard")
    expect(rows.filter(has_text="Knights (Wardens)")).to_contain_text("5")
    expect(page.locator("main input, main select, main textarea")).to_have_count(0)
    expect(page.get_by_role("button", name="Submit the sheet")).to_have_count(0)
    assert TurnSummarySheet.objects.filter(battle=hartwood, kingdom=ostland).exists()


def test_a_sheet_posted_to_a_closed_turn_is_refused_and_changes_nothing(reported: Turn) -> None:
    ostland = Kingdom.objects.get(campaign=reported.campaign, name="Ostland")
    sheet = OrderSheet.objects.get(turn=reported, kingdom=ostland)
    client = Client()
    client.force_login(user_named("alice"))
    response = client.post(f"/turns/{reported.pk}/orders/{ostland.pk}/", {"action": "submit"})
    assert response.status_code == 400
    assert "turn 1 are closed" in response.content.decode() or "after the deadline" in response.content.decode()
    assert OrderSheet.objects.get(pk=sheet.pk).entries == sheet.entries
    assert sheet.submissions.count() == 1

    hartwood = Battle.objects.get(turn=reported, province__number=62)
    before = TurnSummarySheet.objects.get(battle=hartwood, kingdom=ostland)
    response = client.post(f"/battles/{hartwood.pk}/sheet/", {"result": "major-victory"})
    assert response.status_code == 400
    assert "Turn 1 is reported: sheets can no longer change." in response.content.decode()
    assert TurnSummarySheet.objects.get(pk=before.pk).result == before.result == "minor-loss"
