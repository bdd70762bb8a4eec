"""Spending experience as a player does it, in a real browser (issue 14): alice buys recruits
for her 1st Army on the order sheet, sees them on the way on the army's page, and finds them on
the list the turn they arrive, the experience spent in the army's ledger. Rulebook: Spending
Experience ("troops purchased in Turn 2 will arrive at the beginning of Turn 4")."""

from __future__ import annotations

import datetime as dt

import pytest
from playwright.sync_api import Page, expect

from demo.campaign import DEMO_PASSWORD
from kingdoms.models import Army, Campaign, Kingdom, Unit
from kingdoms.services.experience import experience_adjust
from turns.models import Turn
from turns.services.cycle import aftermath_phase_run, orders_phase_run

from .conftest import Outbox, login, on_commit_work_left_out


@pytest.fixture
def campaign(outbox: Outbox, demo_campaign: Campaign) -> Campaign:
    return demo_campaign


def _next_turn(turn: Turn) -> Turn:
    """Resolve `turn` (no battles: nobody moves) through the turn cycle; the next turn opens. Its
    reports stay queued, not rendered (this module reads the army's page, no report)."""
    with on_commit_work_left_out():
        assert orders_phase_run(turn_id=turn.pk).resolved
    with on_commit_work_left_out():
        outcome = aftermath_phase_run(turn_id=turn.pk, now=turn.results_deadline + dt.timedelta(minutes=1))
    assert outcome.resolved
    return outcome.next_turn


def test_a_player_buys_recruits_on_the_order_sheet_and_finds_them_on_the_list_when_they_arrive(
    page: Page, live_server, campaign: Campaign
):
    ostland = Kingdom.objects.get(campaign=campaign, name="Ostland")
    army = Army.objects.get(kingdom=ostland, name="1st Army")
    # The 1st Army lost 10 Swordsmen in a battle and earned 30 experience (set up as the organizer
    # would correct it, through the ledger).
    Unit.objects.filter(army=army, name="Swordsmen").update(models_count=10, models_lost=10)
    experience_adjust(army=army, turn=1, amount=30, reason="A battle before the test")

    login(page, live_server, "alice", DEMO_PASSWORD)
    page.get_by_role("link", name=campaign.name).click()
    page.get_by_role("link", name="Your order sheet").click()
    page.locator("select[name='purchase-0-army']").select_option(label="1st Army")
    page.locator("select[name='purchase-0-kind']").select_option("recruits")
    # Issue 37, choose don't type: the 1st Army's own units and characters, and only its.
    unit = page.locator("select[name='purchase-0-unit']")
    expect(unit.locator("optgroup:not([hidden])")).to_have_count(1)
    expect(unit.locator("optgroup:not([hidden])")).to_have_attribute("label", "1st Army")
    unit.select_option("Swordsmen")
    page.locator("input[name='purchase-0-models']").fill("10")
    page.get_by_role("button", name="Submit orders").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Ostland: orders received for turn 1")
    expect(page.locator("main")).to_contain_text("1st Army spends experience on 10 recruits for Swordsmen")

    # Turn 1 resolves: the experience is spent, the recruits are on the way (bought in turn 1,
    # they arrive at the beginning of turn 3).
    turn2 = _next_turn(Turn.objects.get(campaign=campaign, number=1))
    page.goto(f"{live_server.url}/armies/{army.pk}/")
    expect(page.locator("#on-the-way")).to_contain_text("10 Swordsmen")
    expect(page.locator("#on-the-way")).to_contain_text("turn 3")
    expect(page.locator("#experience-summary")).to_have_text("Earned 30 · spent 6 · balance 24.")
    swordsmen = page.locator("#units tr", has_text="Swordsmen").first
    expect(swordsmen.locator("td").nth(2)).to_have_text("10")

    # Turn 2 resolves and turn 3 opens: they are on the list, nothing is on the way.
    _next_turn(turn2)
    page.reload()
    expect(swordsmen.locator("td").nth(2)).to_have_text("20")
    expect(page.locator("#on-the-way")).to_contain_text("Nothing on the way")
    expect(page.locator("#experience-ledger")).to_contain_text("-6")
