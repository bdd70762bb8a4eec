"""The organizer restores a turn from the site and resolves it again (issue 17's done-when), in a
real browser: from the turn's battles page to its snapshots, "Restore to before the orders phase"
with a confirmation (a POST with its CSRF token), the turn open again and held, then Resolve.
Players never see the snapshots."""

from __future__ import annotations

from playwright.sync_api import expect

from battles.models import Battle
from demo.campaign import DEMO_PASSWORD
from kingdoms.models import Campaign
from tests.battle_setup import file_battle_orders
from transfer.models import RestoreRecord, Snapshot
from turns.models import Turn
from turns.services.cycle import orders_phase_run

from .conftest import Outbox, login, text_of


def test_the_organizer_restores_a_turn_and_resolves_it_again(
    demo_campaign: Campaign, open_page, live_server, outbox: Outbox
) -> None:
    turn = demo_campaign.turns.get(number=1)
    file_battle_orders(demo_campaign, turn)
    assert orders_phase_run(turn_id=turn.pk).resolved
    battles = sorted(Battle.objects.filter(turn=turn).values_list("province__number", flat=True))
    assert battles

    # A player finds no snapshot page, nor its link.
    alice = open_page()
    login(alice, live_server, "alice", DEMO_PASSWORD)
    alice.goto(f"{live_server.url}/turns/{turn.pk}/battles/")
    expect(alice.locator("#snapshots-link")).to_have_count(0)
    response = alice.goto(f"{live_server.url}/turns/{turn.pk}/snapshots/")
    assert response is not None and response.status == 404

    page = open_page()
    login(page, live_server, "organizer", DEMO_PASSWORD)
    page.goto(f"{live_server.url}/turns/{turn.pk}/battles/")
    page.locator("#snapshots-link").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Turn 1: snapshots")
    expect(page.locator("#restores")).to_contain_text("No turn of this campaign has been restored.")
    page.get_by_role("link", name="Restore to before the orders phase").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Restore turn 1 to before the orders phase?")
    page.locator("#confirm-restore").click()

    # Back on the order sheets: open again, held for the organizer, the battles gone.
    expect(page.get_by_role("heading", level=1)).to_have_text("Turn 1: order sheets")
    expect(page.get_by_text("Turn 1 is restored to its state before the orders phase")).to_be_visible()
    expect(page.locator("#held")).to_contain_text("you restored it")
    turn.refresh_from_db()
    assert turn.status == Turn.Status.ORDERS_OPEN and turn.held_at is not None
    assert not Battle.objects.filter(turn=turn).exists()
    record = RestoreRecord.objects.get()
    assert record.restored_by is not None and record.restored_by.username == "organizer"
    told = [m for m in outbox.to("alice@briternia.local") if "restored" in m["Subject"]]
    assert len(told) == 1 and "will be resolved again" in text_of(told[0])

    page.on("dialog", lambda dialog: dialog.accept())  # "Resolve" asks first
    page.locator("#resolve-turn").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Turn 1: Battles")
    turn.refresh_from_db()
    assert turn.status == Turn.Status.BATTLES and turn.held_at is None
    assert sorted(Battle.objects.filter(turn=turn).values_list("province__number", flat=True)) == battles

    # The restore is on the snapshots page, and in the campaign's history for the players too.
    page.goto(f"{live_server.url}/turns/{turn.pk}/snapshots/")
    expect(page.locator("#restores")).to_contain_text("the orders phase")
    assert Snapshot.objects.filter(campaign=demo_campaign, turn_number=1).count() == 2
    alice.goto(f"{live_server.url}/campaigns/{demo_campaign.pk}/history/")
    expect(alice.locator(".restored")).to_contain_text("Turn 1 was restored by")
