"""A turn's battles as players and the organizer live them, in a real browser: the scenario sheet
arrives by email as a PDF; players file their turn summary sheets (a refused sheet names the unit
and the rule); sheets that disagree are a conflict the organizer decides; the organizer enters a
sheet for a player and runs the aftermath; the next turn opens and the players read what happened.

The demo campaign is the setting (tests/battle_setup.py): Tor Anlec's Raiders (dave) attack
Ostland's Wardens (alice) in Hartwood, and Da Red Fang's Boyz (bob) assault Ostland's city
Eldenhall."""

from __future__ import annotations

import io
import re

import pytest
from playwright.sync_api import Page, expect
from pypdf import PdfReader

from battles.models import Battle, TurnSummarySheet
from demo.campaign import DEMO_PASSWORD
from kingdoms.models import Army, Kingdom, Province, Unit
from rulebook.turn.aftermath.casualty_recovery import RANK_AND_FILE_RECOVERY, models_recovered
from turns.models import Turn, TurnEvent

from .conftest import Outbox, html_of, login, text_of


def _pdf_text(content: bytes) -> str:
    return "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(content)).pages)


def _open_battle(page: Page, live_server, username: str, province: str) -> None:
    login(page, live_server, username, DEMO_PASSWORD)
    page.get_by_role("link", name="Demo: The Awakening of the Ancients").click()
    page.get_by_role("link", name="Battles and turn summary sheets").click()
    page.get_by_role("link", name=province).click()
    expect(page.get_by_role("heading", level=1)).to_have_text(f"Battle in {province}")


def test_scenario_sheets_arrive_as_pdf_by_email(posted: Turn, outbox: Outbox) -> None:
    """Campaign Schedule: battles are posted by email; each battle's players (supports included)
    and the organizer get its scenario sheet, and nobody gets another battle's."""
    alice = [m for m in outbox.to("alice@briternia.local") if "battle in" in m["Subject"]]
    assert sorted(m["Subject"].split("battle in ")[1] for m in alice) == ["61 Eldenhall", "62 Hartwood"]
    dave = [m for m in outbox.to("dave@briternia.local") if "battle in" in m["Subject"]]
    assert [m["Subject"].split("battle in ")[1] for m in dave] == ["62 Hartwood"]
    assert not [m for m in outbox.to("carol@briternia.local") if "battle in" in m["Subject"]]
    assert len([m for m in outbox.to("organizer@briternia.local") if "battle in" in m["Subject"]]) == 2

    attachment = next(dave[0].iter_attachments())
    assert attachment.get_content_type() == "application/pdf"
    text = _pdf_text(attachment.get_content())
    battle = Battle.objects.get(turn=posted, province__number=62)
    engagement = battle.scenario["engagement"]["name"]
    assert "Battle in 62 Hartwood" in text and engagement in text
    assert "Tor Anlec: Raiders" in text and "Wardens" in text
    # The sheet and the email name the players of each side, never their addresses (issue 18).
    assert "Tor Anlec (dave)" in text and "Ostland (alice)" in text
    players = "Players: Tor Anlec (dave) against Ostland (alice)."
    assert players in text_of(dave[0]) and players in html_of(dave[0])
    assert f"/battles/{battle.pk}/" in text_of(dave[0])


@pytest.mark.long
def test_players_file_sheets_and_the_organizer_settles_and_runs_the_aftermath(
    posted: Turn, open_page, live_server, outbox: Outbox
) -> None:
    campaign = posted.campaign
    hartwood = Battle.objects.get(turn=posted, province__number=62)
    eldenhall = Battle.objects.get(turn=posted, province__number=61)
    halberdiers = Unit.objects.get(army__name="Wardens", name="Halberdiers")

    # alice files Ostland's sheet for Hartwood; a loss larger than the unit is refused, naming it.
    alice = open_page()
    _open_battle(alice, live_server, "alice", "62 Hartwood")
    expect(alice.locator(".scenario-step").first).to_be_visible()
    alice.get_by_role("link", name="Turn summary sheet").click()
    alice.get_by_label("Battle result (your side)").select_option("minor-loss")
    alice.get_by_label("Models lost: Halberdiers (Wardens)").fill("61")
    alice.get_by_role("button", name="Submit the sheet").click()
    expect(alice.locator("#sheet-errors")).to_contain_text("Halberdiers (Wardens) has 60 models; it cannot lose 61")
    assert not TurnSummarySheet.objects.filter(battle=hartwood).exists()
    alice.get_by_label("Models lost: Halberdiers (Wardens)").fill("20")
    alice.get_by_role("button", name="Submit the sheet").click()
    expect(alice.locator("#sheets")).to_contain_text("Minor loss")

    # dave claims a major victory: the two sheets disagree.
    dave = open_page()
    _open_battle(dave, live_server, "dave", "62 Hartwood")
    expect(dave.locator("#sheets")).not_to_contain_text("Ostland")  # a player sees only his own sheet
    dave.get_by_role("link", name="Turn summary sheet").click()
    dave.get_by_label("Battle result (your side)").select_option("major-victory")
    dave.get_by_role("button", name="Submit the sheet").click()
    expect(dave.locator("#sheets")).to_contain_text("Major victory")
    # Both see that their sheets disagree (rules decision 320), and whom they fight.
    expect(dave.locator("#players-standing")).to_contain_text("Your two turn summary sheets disagree")
    expect(dave.locator("#opponents")).to_contain_text("Ostland (alice)")
    alice.reload()
    expect(alice.locator("#players-standing")).to_contain_text("the defender a minor loss")
    # dave writes to alice through the site: emailed, Reply-To dave, no address on the page.
    dave.get_by_label("Write to them").fill("Shall we replay it on Thursday?")
    dave.get_by_role("button", name="Send the message").click()
    expect(dave.locator("ul.messages")).to_contain_text("Your message is on its way to 1 player.")
    (note,) = [m for m in outbox.to("alice@briternia.local") if "writes about the battle" in m["Subject"]]
    assert note["Reply-To"] == "dave@briternia.local"
    assert "Shall we replay it on Thursday?" in text_of(note) and "Shall we replay it on Thursday?" in html_of(note)
    expect(dave.locator("#opponents")).not_to_contain_text("@")

    # The organizer sees the conflict, decides it, enters Ostland's sheet for Eldenhall from
    # bob's account of it, and runs the aftermath.
    bob = open_page()
    _open_battle(bob, live_server, "bob", "61 Eldenhall")
    bob.get_by_role("link", name="Turn summary sheet").click()
    bob.get_by_label("Battle result (your side)").select_option("minor-victory")
    bob.locator("input[name=loot_choice][value=loot]").check()
    bob.get_by_role("button", name="Submit the sheet").click()
    expect(bob.locator("#sheets")).to_contain_text("Minor victory")

    organizer = open_page()
    organizer.on("dialog", lambda dialog: dialog.accept())  # "Run the aftermath" asks first
    login(organizer, live_server, "organizer", DEMO_PASSWORD)
    organizer.goto(f"{live_server.url}/turns/{posted.pk}/battles/")
    expect(organizer.locator("#turn-battles")).to_contain_text("Conflict")
    organizer.get_by_role("button", name="Run the aftermath of turn 1").click()
    expect(organizer.locator(".messages")).to_contain_text("62 Hartwood")  # refused: the conflict
    organizer.get_by_role("link", name="62 Hartwood").click()
    organizer.locator("#ruling select[name=result]").select_option("minor-victory")
    organizer.locator("#ruling input[name=note]").fill("Both agreed on the phone: a minor victory.")
    organizer.get_by_role("button", name="Decide").click()
    # A ruling is a decision, never "Agreed"; both players see it.
    expect(organizer.locator("#standing")).to_contain_text("Decided by the organizer: Minor victory for the attacker")
    expect(organizer.locator("#standing")).not_to_contain_text("Agreed")
    for player in (alice, dave):
        player.reload()
        expect(player.locator("#players-standing")).to_contain_text(
            "Decided by the organizer: Minor victory for the attacker; the attacker wins. "
            "Note: Both agreed on the phone: a minor victory."
        )

    ostland = Kingdom.objects.get(campaign=campaign, name="Ostland")
    organizer.goto(f"{live_server.url}/battles/{eldenhall.pk}/sheet/{ostland.pk}/")
    organizer.get_by_label("Battle result (your side)").select_option("minor-loss")
    organizer.get_by_role("button", name="Submit the sheet").click()
    organizer.goto(f"{live_server.url}/turns/{posted.pk}/battles/")
    # Tasks run eagerly in the tests: the aftermath and its reports' PDFs run inside this request,
    # which on a loaded machine outlasts a click's usual wait.
    organizer.get_by_role("button", name="Run the aftermath of turn 1").click(timeout=60_000)
    expect(organizer.locator(".messages")).to_contain_text("is being resolved")

    posted.refresh_from_db()
    assert posted.status == Turn.Status.REPORTED
    assert Turn.objects.get(campaign=campaign, number=2).status == Turn.Status.ORDERS_OPEN
    # 7. Aftermath: the Raiders won and keep Hartwood; the Wardens retreated; the Boyz looted Eldenhall.
    assert Province.objects.get(campaign=campaign, number=62).controller.name == "Tor Anlec"
    assert Army.objects.get(name="Wardens").province.number != 62
    assert Province.objects.get(campaign=campaign, number=61).controller.name == "Da Red Fang"
    # A4: the Wardens lost; the models back follow their recorded 2D6 on the Rank and File table,
    # rounded down (the roll is the turn's, so the test reads it rather than assuming it).
    recovery = TurnEvent.objects.get(turn=posted, code="casualty-recovery", army__name="Wardens")
    fraction = RANK_AND_FILE_RECOVERY[recovery.data["roll"]].fraction
    assert Unit.objects.get(pk=halberdiers.pk).models_count == 40 + models_recovered(20, fraction, won=False)
    assert TurnEvent.objects.filter(turn=posted, phase="aftermath").exists()

    # alice reads what happened on turn 1, and sees turn 2 open.
    alice.goto(f"{live_server.url}/turns/{posted.pk}/results/")
    expect(alice.locator("#events")).to_contain_text("Hartwood")
    alice.goto(f"{live_server.url}/campaigns/{campaign.pk}/")
    expect(alice.locator("#turn-panel")).to_contain_text("Turn 2")
    # The turn's reports went out when the aftermath committed; alice reads the history.
    alice.get_by_role("link", name="The campaign's history: maps, bulletins and reports").click()
    turn_one = alice.locator("#turn-1")
    expect(turn_one.get_by_role("link", name="Ostland's report (PDF)")).to_be_visible()
    expect(turn_one.get_by_role("link", name="The bulletin (PDF)")).to_be_visible()
    expect(turn_one).not_to_contain_text("Tor Anlec's report")
    expect(turn_one.locator("svg")).to_be_visible()
    assert [m["Subject"] for m in outbox.to("alice@briternia.local") if "turn report" in m["Subject"]] == [
        "Demo: The Awakening of the Ancients, turn 1: Ostland's turn report"
    ]


def test_the_battle_page_draws_where_each_army_deploys(posted: Turn, open_page, live_server) -> None:
    """Issue 18 (what would delight them): the scenario's Deployment Map (4. Determine Deployment)
    is drawn under its step on the battle page, an image named after the map and both armies and
    described in words, labelled a sketch (decision 350); on a phone it shrinks to the screen."""
    hartwood = Battle.objects.get(turn=posted, province__number=62)
    name = hartwood.scenario["deployment"]["map"]
    page = open_page()
    _open_battle(page, live_server, "alice", "62 Hartwood")
    step = page.locator(".scenario-step").filter(has=page.get_by_role("heading", name=f"4. Deployment: {name}"))
    diagram = step.get_by_role("img", name=re.compile(re.escape(f"{name} (a sketch): where Tor Anlec: Raiders")))
    expect(diagram).to_be_visible()
    expect(diagram).to_have_accessible_name(re.compile(r"Ostland: Wardens deploy, on a 6 by 4 foot table"))
    expect(diagram).to_have_accessible_name(re.compile(re.escape("A sketch: the rulebook's map governs.")))
    expect(step.locator("svg.deployment-map text").filter(has_text="North edge: 72 in. (6 ft)")).to_have_count(1)
    expect(step.locator(".deployment-key")).to_contain_text("The table is 72 by 48 inches (6 by 4 feet)")
    page.set_viewport_size({"width": 390, "height": 844})
    box = diagram.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 390
