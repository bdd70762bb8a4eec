"""Each battle's scenario when the turn's battles are posted (battles/services/scenarios.py):
rolled on its own seeded stream, stored, recorded, emailed as a PDF to that battle's players and
the organizer, and shown only to them. Also the stand-alone generator (page and command).
Rulebook: Appendix, Scenario Generator; Campaign Schedule ("Battles ... will be posted ... via email")."""

from __future__ import annotations

import io

import pypdfium2
import pytest
from django.core import mail
from django.core.management import call_command
from django.test import Client
from django.utils.html import escape
from pypdf import PdfReader

from battles.models import Battle, BattleSupport
from battles.services.scenarios import general_abilities, scenario_setup, scenario_sheet_pdf, scenario_stream
from kernel.dice import SeededDice
from kingdoms.models import Alliance, Kingdom
from reports.models import ReportEmail, TurnReport
from reports.tasks import report_render_task, turn_reports_start
from rulebook.scenario.deployment_svg import deployment_diagram
from rulebook.scenario.generator import Scenario, scenario_generate
from turns.models import DiceRoll


def _pdf_text(content: bytes) -> str:
    return "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(content)).pages)


def _client(username: str) -> Client:
    from django.contrib.auth import get_user_model

    client = Client()
    client.force_login(get_user_model().objects.get(username=username))
    return client


def test_posting_the_battles_rolls_and_records_each_scenario(turn, battles_posted):
    """SG1 through the services: the battle for the city of Eldenhall is an Assault with no
    engagement roll; the field battle's engagement type was rolled, and every roll is stored."""
    eldenhall = Battle.objects.get(turn=turn, province__number=61)
    hartwood = Battle.objects.get(turn=turn, province__number=62)
    assert eldenhall.scenario["engagement"]["name"] == "Assault"
    rolls = DiceRoll.objects.filter(campaign=turn.campaign, turn=1, stream=scenario_stream(hartwood))
    assert any("engagement" in r.purpose.lower() for r in rolls)
    assert not any(
        "engagement" in r.purpose.lower()
        for r in DiceRoll.objects.filter(campaign=turn.campaign, turn=1, stream=scenario_stream(eldenhall))
    )
    # Deterministic: the same seed and battle give the same scenario.
    again = scenario_generate(
        scenario_setup(hartwood, general_abilities([hartwood.attacker_army_id, hartwood.defender_army_id])),
        SeededDice(seed=turn.seed, stream=scenario_stream(hartwood)),
    )
    assert again.as_json() == hartwood.scenario
    assert Scenario.from_json(hartwood.scenario).as_json() == hartwood.scenario


def test_case_R5_the_scenario_gives_the_blunder_s_plus_1_to_the_smaller_army_that_rolled(turn, battles_posted):
    """Guerrilla Tactics, Blundered!: the scenario's first-turn roll adds +1 for the army whose
    saboteurs rolled (the guerrilla record's "army"), never for the army they raided ("target")."""
    hartwood = Battle.objects.get(turn=turn, province__number=62)
    hartwood.guerrilla = {
        "army": hartwood.defender_army_id,
        "roll": 1,
        "result": "blundered",
        "target": hartwood.attacker_army_id,
        "points_lost": 0,
    }
    setup = scenario_setup(hartwood, {})
    assert (setup.attacker.blunder_bonus, setup.defender.blunder_bonus) == (False, True)


def test_the_supported_defender_is_known_to_the_scenario(turn, battles_posted):
    """6. Fight Battles: the 1st Army's detachment supports the Wardens in Hartwood."""
    hartwood = Battle.objects.get(turn=turn, province__number=62)
    setup = scenario_setup(hartwood, {})
    assert setup.defender.supported and not setup.attacker.supported
    assert setup.defending and setup.terrain == "forest"


def test_an_assault_both_armies_moved_into_is_defended_by_the_side_that_holds_the_province(turn, battles_posted):
    """6. Fight Battles: both armies moved into Hartwood. Who attacks if the engagement is an Assault
    is the province's, not the armies' ids (decision 625): the side whose kingdom holds it, or its
    ally, defends; a province neither holds leaves it to a roll-off on the sheet."""
    hartwood = Battle.objects.get(turn=turn, province__number=62)
    hartwood.both_moved = True
    hartwood.province.controller_id = hartwood.attacker_kingdom_id
    assert scenario_setup(hartwood, {}).holder == "attacker"
    hartwood.province.controller_id = hartwood.defender_kingdom_id
    assert scenario_setup(hartwood, {}).holder == "defender"
    hartwood.province.controller_id = None
    assert scenario_setup(hartwood, {}).holder == "none"
    third = Kingdom.objects.filter(campaign=turn.campaign).exclude(
        id__in=(hartwood.attacker_kingdom_id, hartwood.defender_kingdom_id)
    )[0]
    hartwood.province.controller_id = third.id
    assert scenario_setup(hartwood, {}).holder == "none"
    first, second = sorted((third.id, hartwood.attacker_kingdom_id))
    Alliance.objects.create(campaign=turn.campaign, first_id=first, second_id=second, trust="T", formed_turn=0)
    assert scenario_setup(hartwood, {}).holder == "attacker"
    hartwood.both_moved = False  # the army that stood there defends: the sides stand as they are
    assert scenario_setup(hartwood, {}).holder == "given"


def test_each_battle_s_players_and_the_organizer_get_its_scenario_sheet_as_a_pdf(turn, battles_posted):
    """One email per reader, the PDF attached, delivered as every report is (a stored row each)."""
    sent: dict[str, list[str]] = {}
    for m in mail.outbox:
        if "battle in" in m.subject:
            sent.setdefault(m.subject, []).extend(m.to)
    assert {subject: sorted(to) for subject, to in sent.items()} == {
        "Demo: The Awakening of the Ancients, turn 1: battle in 61 Eldenhall": [
            "alice@briternia.local",
            "bob@briternia.local",
            "organizer@briternia.local",
        ],
        "Demo: The Awakening of the Ancients, turn 1: battle in 62 Hartwood": [
            "alice@briternia.local",
            "dave@briternia.local",
            "organizer@briternia.local",
        ],
    }
    hartwood = next(m for m in mail.outbox if m.subject.endswith("62 Hartwood") and m.to == ["dave@briternia.local"])
    (name, content, mimetype) = hartwood.attachments[0]
    assert (name, mimetype) == ("scenario-turn1-62.pdf", "application/pdf")
    text = _pdf_text(content)
    battle = Battle.objects.get(turn=turn, province__number=62)
    assert "Battle in 62 Hartwood" in text
    assert battle.scenario["engagement"]["name"] in text
    assert "Tor Anlec" in text and "Wardens" in text and "1st Army" in text  # the support detachment
    assert "Demo: The Awakening of the Ancients · Turn 1 · Scenario sheet" in text  # the running header
    report = TurnReport.objects.get(battle=battle, kind=TurnReport.Kind.SCENARIO)
    assert report.status == TurnReport.Status.READY and bytes(report.pdf) == content
    assert sorted(report.emails.values_list("status", flat=True)) == [ReportEmail.Status.SENT] * 3
    assert battle.scenario_sent_at is not None


def test_the_scenario_email_says_the_deployment_map_in_words_in_both_parts(turn, battles_posted):
    """The email's text and HTML parts carry the Deployment Map in words (decision 350); the drawing
    itself is in the attached PDF, since mail readers drop inline SVG."""
    battle = Battle.objects.get(turn=turn, province__number=62)
    diagram = deployment_diagram(Scenario.from_json(battle.scenario))
    email = next(m for m in mail.outbox if m.subject.endswith("62 Hartwood") and m.to == ["dave@briternia.local"])
    (html, _mimetype) = email.alternatives[0]
    assert f"Deployment Map: {diagram.title}" in email.body
    assert f"Deployment Map: {escape(diagram.title)}" in html
    for line in diagram.lines:
        assert f"  {line}\n" in email.body
        assert f"<li>{escape(line)}</li>" in html
    assert "<svg" not in html


def test_sending_again_sends_nothing_twice(turn, battles_posted):
    before = len(mail.outbox)
    assert turn_reports_start.delay(turn_id=turn.pk).get() == 0
    for report in TurnReport.objects.filter(turn=turn, kind=TurnReport.Kind.SCENARIO):
        assert report_render_task.delay(report_id=report.pk).get() == 0  # a redelivered task
    assert len(mail.outbox) == before


def test_a_scenario_sheet_is_downloaded_only_by_the_battle_s_kingdoms_and_the_organizer(turn, battles_posted):
    """Secrecy: the sheet names both sides' armies; carol (Karak Dumn) fights neither battle."""
    hartwood = TurnReport.objects.get(battle__province__number=62, battle__turn=turn)
    for username, status in [("carol", 404), ("bob", 404), ("dave", 200), ("alice", 200), ("organizer", 200)]:
        assert _client(username).get(f"/reports/{hartwood.pk}/").status_code == status, username
    assert (
        f"/reports/{hartwood.pk}/"
        not in _client("carol").get(f"/campaigns/{turn.campaign_id}/history/").content.decode()
    )
    assert f"/reports/{hartwood.pk}/" in _client("dave").get(f"/campaigns/{turn.campaign_id}/history/").content.decode()


def test_a_battle_is_seen_only_by_its_kingdoms_and_the_organizer(turn, battles_posted):
    """Secrecy: carol (Karak Dumn) fights no battle; dave (Tor Anlec) only in Hartwood."""
    hartwood = Battle.objects.get(turn=turn, province__number=62)
    eldenhall = Battle.objects.get(turn=turn, province__number=61)
    for username, battle, status in [
        ("carol", hartwood, 404),
        ("dave", eldenhall, 404),
        ("dave", hartwood, 200),
        ("alice", eldenhall, 200),
        ("organizer", eldenhall, 200),
    ]:
        client = _client(username)
        assert client.get(f"/battles/{battle.pk}/").status_code == status, (username, battle)
        assert client.get(f"/battles/{battle.pk}/scenario.pdf").status_code == status, (username, battle)
        assert client.get(f"/api/battles/{battle.pk}/").status_code == status, (username, battle)
    assert _client("carol").get(f"/api/turns/{turn.pk}/battles/").json() == []
    assert [b["province"] for b in _client("dave").get(f"/api/turns/{turn.pk}/battles/").json()] == [62]


def test_the_scenario_pdf_page_serves_the_sheet(turn, battles_posted):
    hartwood = Battle.objects.get(turn=turn, province__number=62)
    response = _client("dave").get(f"/battles/{hartwood.pk}/scenario.pdf")
    assert response["Content-Type"] == "application/pdf"
    assert "Battle in 62 Hartwood" in _pdf_text(response.content)


def test_the_scenario_pdf_draws_the_deployment_map_with_its_labels(turn, battles_posted):
    """Issue 18 (what would delight them): 4. Determine Deployment's map, drawn under its step as a
    sketch of our own (decision 350), its labels and its words read back from the PDF's text."""
    for battle in Battle.objects.filter(turn=turn):
        scenario = Scenario.from_json(battle.scenario)
        diagram = deployment_diagram(scenario)
        text = " ".join(_pdf_text(_client("alice").get(f"/battles/{battle.pk}/scenario.pdf").content).split())
        assert f"4. Deployment: {scenario.deployment['map']}" in text
        assert "North edge: 72 in. (6 ft)" in text and "West edge: 48 in. (4 ft)" in text
        assert "A sketch: the rulebook's map governs." in text
        for line in diagram.lines:  # the words under the drawing
            assert line in text, line
        engagement = scenario.engagement["name"]
        labels = {"Assault": ["Defender", "Attacker"], "Pitched Battle": ["Zone A", "Zone B"]}.get(
            engagement, ["Entry point A", "Entry point B"]
        )
        assert all(label in text for label in labels), (battle.province, labels)
        if engagement == "Assault":
            assert f"The Defender ({scenario.defender}) deploys" in text


def test_the_sheet_names_a_wounded_general_who_must_miss_the_battle(turn, battles_posted):
    """Character Injury Chart: a Deep Wound from an earlier battle (one battle still to miss) and
    an Old Battle Wound are printed with the forces, for the players to apply at the table."""
    from kingdoms.models import Character

    hartwood = Battle.objects.get(turn=turn, province__number=62)
    unit = hartwood.defender_army.units.create(
        name="Captain Ulric", category="character", models_count=1, points_per_model=90, position=9
    )
    general = Character.objects.create(
        unit=unit,
        kingdom=hartwood.defender_kingdom,
        rank="hero",
        role="general",
        injuries=[{"code": "deep-wound", "misses_battles": 2, "battles_missed": 1}, {"code": "old-battle-wound"}],
    )
    response = _client("alice").get(f"/battles/{hartwood.pk}/scenario.pdf")
    text = " ".join(_pdf_text(response.content).split())
    assert f"{general.unit.name}: must miss this battle (Deep Wound: 1 battle still to miss)" in text
    assert "Old Battle Wound: roll a D6 before the battle; on a 1 he cannot take part" in text


@pytest.mark.django_db
def test_the_stand_alone_generator_page_rolls_a_scenario_for_any_province():
    client = Client()
    response = client.get("/scenario/", {"terrain": "forest", "settlement": "town", "seed": "abc"})
    assert response.status_code == 200
    assert "Assault" in response.content.decode()  # SG1: a town is always an Assault
    # The Deployment Map is drawn under its step, named for the Attacker and the Defender.
    assert 'role="img" aria-labelledby="deployment-title deployment-desc"' in response.content.decode()
    assert "(a sketch): where Attacker and Defender deploy, on a 6 by 4 foot table" in response.content.decode()
    same = client.get("/scenario/", {"terrain": "forest", "settlement": "town", "seed": "abc"})
    assert same.content.decode().count("scenario-step") == response.content.decode().count("scenario-step")
    # A Tomb Raider match: Tomb Raider Scenario & Terrain, the map on a 4 by 4 foot table (decision 352).
    raid = client.get("/scenario/", {"terrain": "forest", "settlement": "ruins", "seed": "abc", "tomb_raiders": "on"})
    assert "<h3>Tomb Raider Scenario &amp; Terrain</h3>" in raid.content.decode()
    assert "deploy, on a 4 by 4 foot table" in raid.content.decode()
    assert "<h3>Tomb Raider Scenario" not in response.content.decode()
    refused = client.get("/scenario/", {"terrain": "lava", "settlement": "none"})
    assert refused.status_code == 400
    assert "Terrain: choose one of plains, forest" in refused.content.decode()


@pytest.mark.django_db
def test_the_scenario_command_prints_and_writes_a_pdf(tmp_path, capsys):
    pdf = tmp_path / "scenario.pdf"
    call_command("scenario", terrain="mountains", settlement="city", seed="s1", pdf=str(pdf))
    out = capsys.readouterr().out
    assert "Assault" in out and "seed s1" in out
    assert "The Defender deploys in the centre of the table, 24 inches deep." in out
    text = " ".join(_pdf_text(pdf.read_bytes()).split())
    assert "Assault" in text and "A sketch: the rulebook's map governs." in text
    assert "North edge: 72 in. (6 ft)" in text and "The Defender deploys" in text


def _pdf_pages(content: bytes) -> list[tuple[str, float, pypdfium2.PdfTextPage]]:
    """Each page's text as PDFium reads it (it keeps unicode names whole), its width, its text page."""
    document = pypdfium2.PdfDocument(content)
    return [(page.get_textpage().get_text_range(), page.get_width(), page.get_textpage()) for page in document]


def test_a_sheet_with_long_unicode_names_supports_and_a_garrison_is_printed_whole(turn, battles_posted):
    """The scenario sheet of the battle for the city of Eldenhall (its 1,000-point garrison, 2 defenses),
    with a support detachment on each side and long unicode kingdom and army names: the PDF renders, every
    step of the Scenario Generator (1. to 8.) is in it, the names are printed whole, and the forces table
    gives the two sides' columns the page's width rather than its empty corner cell (the Attacker's column
    starts in the left half of the page)."""
    eldenhall = Battle.objects.get(turn=turn, province__number=61)
    attacker, defender = eldenhall.attacker_kingdom, eldenhall.defender_kingdom
    attacker.name = "Königreich Ærøskøbing des Großen Drachenthrons und der Ewigen Nacht"
    defender.name = "Reichsfürstentum Überwald-Südmark, Ŝtrasse der Fünf Flüsse"
    attacker.save(update_fields=["name"])
    defender.save(update_fields=["name"])
    army = eldenhall.attacker_army
    army.name = "Die Unbesiegbare Heilige Erste Armee der Verschwörung von Ølstykke-Stenløse"
    army.save(update_fields=["name"])
    helpers = {k: next(a for a in k.armies.all() if a.pk != army.pk) for k in (attacker, defender)}
    for kingdom, side, arrival in ((attacker, "attacker", 1), (defender, "defender", 4)):
        BattleSupport.objects.create(
            battle=eldenhall, army=helpers[kingdom], kingdom=kingdom, side=side, points=200, arrival=arrival
        )
    eldenhall.scenario = scenario_generate(
        scenario_setup(eldenhall, {}), SeededDice(seed=turn.seed, stream=scenario_stream(eldenhall))
    ).as_json()
    eldenhall.save(update_fields=["scenario"])

    pages = _pdf_pages(scenario_sheet_pdf(eldenhall))
    text = " ".join(" ".join(page for page, _, _ in pages).split())
    assert len(pages) <= 4
    for step in ("1. Engagement type: Assault", "2. Objective:", "3. Terrain:", "4. Deployment:", "5. Special"):
        assert step in text
    for step in ("6. Deploy armies", "7. First turn and game length:", "8. Begin the Battle!"):
        assert step in text
    assert f"{attacker.name}: {army.name} against {defender.name}: Garrison of Eldenhall." in text
    assert "1000 points of core troops, 2 defenses" in text
    assert f"{helpers[attacker].name}: 200 points, Unexpected Delay" in text
    assert f"{helpers[defender].name}: 200 points, On Time" in text
    _, width, first_page = pages[0]
    header = first_page.search("Attacker").get_next()
    assert header is not None
    left = first_page.get_charbox(header[0])[0]
    assert left < width / 2, (left, width)
