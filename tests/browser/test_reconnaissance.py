"""Issue 32's "Done when", as new players live it in a real browser. alice (Ostland) sends her Tomb
Raiders on a Treasury Info Reconnaissance against carol's Karak Dumn from the order sheet; the turn
resolves; the organizer, alice and carol get the skirmish's scenario sheet by email; alice files a
success on the turn summary sheet; after the aftermath alice's report (and only hers) shows Karak Dumn's
treasury and its spending of the turn, and her intelligence page lists it. A Theft moves the gold in both
ledgers; a Misdirection turns Karak Dumn's army's move of the next turn into Hold, and both kingdoms'
reports say why. Rulebook: Tomb Raiders (Using Tomb Raiders), Reconnaissance, Sabotage, Generic
Opponents, Tomb Raider Scenario & Terrain; rules decisions 450, 455, 462-464, 478.

The demo campaign's turn 1 is the setting (the cheapest campaign with players, armies and a Warlord)."""

from __future__ import annotations

import io
from email.message import EmailMessage

import pytest
from django.db.models import Sum
from playwright.sync_api import Page, expect
from pypdf import PdfReader

from battles.models import Battle
from demo.campaign import DEMO_PASSWORD
from kingdoms.models import Army, Campaign, Kingdom, TombRaiderForce, TreasuryEntry
from kingdoms.services.tomb_raiders import tomb_raider_force_save
from kingdoms.services.world import world_changed
from orders.entries import sheet_from_json
from orders.services.sheets import order_sheet_save
from rulebook.ruins_and_tomb_raiders.force import Command, RaiderEntry, Role, TroopCategory
from turns.models import Turn
from turns.services.cycle import aftermath_phase_run, orders_phase_run

from .conftest import Outbox, login, on_commit_work_left_out

ALICE, BOB, CAROL, ORGANIZER = (f"{name}@briternia.local" for name in ("alice", "bob", "carol", "organizer"))


@pytest.fixture
def campaign(outbox: Outbox, demo_campaign: Campaign) -> Campaign:
    """The demo campaign, set up after `outbox` so its emails stay in tmp_path."""
    return demo_campaign


@pytest.fixture
def ostland(campaign: Campaign) -> Kingdom:
    """Ostland, with a 150-point Tomb Raider force made before the turn (no change fee)."""
    kingdom = Kingdom.objects.get(campaign=campaign, name="Ostland")
    tomb_raider_force_save(
        kingdom=kingdom,
        entries=[
            RaiderEntry("Captain Kessler", 1, 23, role=Role.CAPTAIN, command=Command.CHAMPION),
            RaiderEntry("Lieutenant Vogt", 1, 15, category=TroopCategory.SPECIAL, role=Role.LIEUTENANT),
            RaiderEntry("Swordsmen", 14, 8),
        ],
        saved_by=kingdom.players.get(username="alice"),
    )
    TombRaiderForce.objects.filter(kingdom=kingdom).update(changed_turn=0, points_added=0)
    return kingdom


@pytest.fixture
def karak(campaign: Campaign) -> Kingdom:
    return Kingdom.objects.get(campaign=campaign, name="Karak Dumn")


def _pdf_text(content: bytes) -> str:
    return " ".join(" ".join(page.extract_text() for page in PdfReader(io.BytesIO(content)).pages).split())


def _pdf_of(message: EmailMessage) -> str:
    (attachment,) = [a for a in message.iter_attachments() if a.get_content_type() == "application/pdf"]
    return _pdf_text(attachment.get_content())


def _report(outbox: Outbox, address: str, kingdom: Kingdom, turn: int) -> str:
    (report,) = [m for m in outbox.to(address) if f"turn {turn}: {kingdom.name}'s turn report" in m["Subject"]]
    return _pdf_of(report)


def _gold(kingdom: Kingdom) -> int:
    return TreasuryEntry.objects.filter(kingdom=kingdom).aggregate(total=Sum("amount"))["total"] or 0


def _file_result(page: Page, live_server, battle: Battle, result: str) -> None:
    """The spy files the skirmish's result on its turn summary sheet, from the battle's page."""
    page.goto(f"{live_server.url}/battles/{battle.pk}/")
    page.get_by_role("link", name="Turn summary sheet").click()
    page.locator("select#raid_result").select_option(result)
    page.get_by_role("button", name="Submit the sheet").click()
    expect(page.locator("#sheets")).to_contain_text(result.capitalize())


def _send(turn: Turn, kingdom: Kingdom, username: str, entries: dict) -> None:
    user = kingdom.players.get(username=username)
    order_sheet_save(turn=turn, kingdom=kingdom, entries=sheet_from_json(entries), submitted_by=user, submit=True)


def test_a_treasury_info_reconnaissance_reaches_the_spy_s_report_alone(
    page: Page, live_server, campaign: Campaign, ostland: Kingdom, karak: Kingdom, outbox: Outbox
) -> None:
    turn = Turn.objects.get(campaign=campaign, number=1)

    # Using Tomb Raiders, Reconnaissance: alice chooses the mission, the rival and the desired mission.
    login(page, live_server, "alice", DEMO_PASSWORD)
    page.goto(f"{live_server.url}/campaigns/{campaign.pk}/")
    page.get_by_role("link", name="Your order sheet").click()
    mission = page.locator("#rival-mission")
    expect(mission).to_contain_text("Treasury Info")  # each mission's words and when it takes effect
    page.locator("select[name='mission-kind']").select_option("reconnaissance")
    page.locator("select[name='mission-target_kingdom']").select_option(str(karak.pk))
    page.locator("select[name='mission-desired']").select_option("treasury-info")
    page.get_by_role("button", name="Submit orders").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Ostland: orders received for turn 1")
    expect(page.locator("main")).to_contain_text("Reconnaissance (Treasury Info) against Karak Dumn")

    # The turn resolves: 100 gold paid, the skirmish posted in Karak Dumn's capitol against a guard.
    assert orders_phase_run(turn_id=turn.pk).resolved
    battle = Battle.objects.get(turn=turn, mission="reconnaissance")
    assert (battle.attacker_kingdom, battle.attacker_army, battle.defender_kingdom) == (ostland, None, karak)
    assert battle.province_id == karak.capitol_id and battle.mission_detail["defender"] == "guard"
    assert TreasuryEntry.objects.get(kingdom=ostland, turn=1, reason="tomb-raiders").amount == -100
    # The organizer and both players get its scenario sheet; carol's never names the desired mission.
    for address in (ALICE, CAROL, ORGANIZER):
        (scenario,) = [m for m in outbox.to(address) if "Reconnaissance by Ostland's Tomb Raiders" in m["Subject"]]
        text = _pdf_of(scenario)
        assert "Tomb Raider" in text and "150" in text
        assert "Treasury Info" not in text  # one PDF for both sides: the desired mission is the spy's (decision 463)
    assert not [m for m in outbox.to(BOB) if "Reconnaissance" in m["Subject"]]

    # alice files a success; the aftermath delivers what her raiders learned.
    _file_result(page, live_server, battle, "success")
    assert aftermath_phase_run(turn_id=turn.pk).resolved
    treasury = _gold(karak)
    spent = TreasuryEntry.objects.filter(kingdom=karak, turn=1, amount__lt=0)
    spy = _report(outbox, ALICE, ostland, 1)
    assert "Intelligence" in spy and "Treasury Info" in spy and f"{treasury:,}" in spy
    for row in spent:
        assert f"{-row.amount:,}" in spy
    target = _report(outbox, CAROL, karak, 1)
    assert "Ostland's Tomb Raiders came" in target
    assert "Treasury Info" not in target and "Intelligence" not in target
    third = _report(outbox, BOB, Kingdom.objects.get(campaign=campaign, name="Da Red Fang"), 1)
    assert "Treasury Info" not in third and "Ostland's Tomb Raiders" not in third

    # Her intelligence page, from her kingdom's page, lists it; carol's player gets 404 on it.
    page.goto(f"{live_server.url}/kingdoms/{ostland.pk}/intelligence/")
    expect(page.locator("main")).to_contain_text("Treasury Info: Karak Dumn")
    expect(page.locator("main")).to_contain_text(f"{treasury:,}")
    login(page, live_server, "carol", DEMO_PASSWORD)
    response = page.goto(f"{live_server.url}/kingdoms/{ostland.pk}/intelligence/")
    assert response is not None and response.status == 404


def test_a_theft_moves_the_gold_in_both_ledgers(
    page: Page, live_server, campaign: Campaign, ostland: Kingdom, karak: Kingdom
) -> None:
    """Sabotage, 1. Theft: 150, 200 or 250 gold out of the target's treasury into the saboteur's."""
    turn = Turn.objects.get(campaign=campaign, number=1)
    _send(turn, ostland, "alice", {"missions": [{"kind": "sabotage", "target_kingdom": karak.pk, "desired": "theft"}]})
    # The phases' scenario sheets and reports left queued, not rendered: the ledgers are what is checked.
    with on_commit_work_left_out():
        assert orders_phase_run(turn_id=turn.pk).resolved
    battle = Battle.objects.get(turn=turn, mission="sabotage")
    login(page, live_server, "alice", DEMO_PASSWORD)
    _file_result(page, live_server, battle, "success")
    with on_commit_work_left_out():
        assert aftermath_phase_run(turn_id=turn.pk).resolved

    stolen = TreasuryEntry.objects.get(kingdom=ostland, reason="theft").amount
    assert stolen in (150, 200, 250)
    assert TreasuryEntry.objects.get(kingdom=karak, reason="theft").amount == -stolen


def test_a_misdirection_turns_the_army_s_move_into_hold_and_both_reports_say_why(
    page: Page, live_server, campaign: Campaign, ostland: Kingdom, karak: Kingdom, outbox: Outbox
) -> None:
    """Sabotage, 7. Misdirection: "One army's orders are canceled and revert to Hold": earned in turn 1's
    skirmish, it turns the army's orders of turn 2 into Hold (decision 450)."""
    turn = Turn.objects.get(campaign=campaign, number=1)
    army = Army.objects.filter(kingdom=karak, status=Army.Status.ACTIVE).order_by("id").first()
    # An army a spy may name: one that fought a battle of an earlier turn (decision 455).
    Army.objects.filter(pk=army.pk).update(last_battle_turn=0)
    world_changed(campaign.pk)
    login(page, live_server, "alice", DEMO_PASSWORD)
    page.goto(f"{live_server.url}/campaigns/{campaign.pk}/")
    page.get_by_role("link", name="Your order sheet").click()
    page.locator("select[name='mission-kind']").select_option("sabotage")
    page.locator("select[name='mission-target_kingdom']").select_option(str(karak.pk))
    page.locator("select[name='mission-desired']").select_option("misdirection")
    page.locator("select[name='mission-target_army']").select_option(str(army.pk))
    page.get_by_role("button", name="Submit orders").click()
    expect(page.locator("main")).to_contain_text(f"Sabotage (Misdirection) against Karak Dumn: {army.name}")
    # Turn 1's scenario sheets and reports left queued, not rendered: turn 2's reports are the ones read.
    with on_commit_work_left_out():
        assert orders_phase_run(turn_id=turn.pk).resolved
    _file_result(page, live_server, Battle.objects.get(turn=turn, mission="sabotage"), "success")
    with on_commit_work_left_out():
        assert aftermath_phase_run(turn_id=turn.pk).resolved

    # Turn 2: carol orders the army to move; the resolution holds it, and both reports say why.
    second = Turn.objects.get(campaign=campaign, number=2)
    army.refresh_from_db()
    start = army.province
    target = start.neighbours.exclude(terrain="desert").filter(armies__isnull=True).order_by("number").first()
    _send(second, karak, "carol", {"orders": [{"army": army.pk, "kind": "move", "target": target.number}]})
    _send(second, ostland, "alice", {"orders": []})
    with on_commit_work_left_out():  # turn 2's scenario sheets, if any, are not read either
        assert orders_phase_run(turn_id=second.pk).resolved
    army.refresh_from_db()
    assert army.province_id == start.pk
    second.refresh_from_db()
    assert aftermath_phase_run(turn_id=second.pk, now=second.results_deadline).resolved
    theirs = _report(outbox, CAROL, karak, 2)
    ours = _report(outbox, ALICE, ostland, 2)
    assert "Misdirection" in theirs and army.name in theirs and "Hold" in theirs
    assert "Misdirection" in ours
