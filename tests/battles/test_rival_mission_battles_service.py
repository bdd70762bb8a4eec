"""A Reconnaissance or Sabotage as a battle of the turn, through the site: Ostland's Tomb Raiders spy on Tor
Anlec. The skirmish is posted (no army on either side), its scenario sheet names who comes and who defends
on every copy and the mission desired on the spy's page alone; the spy files the mission's result and its
raiders' losses, Tor Anlec its own raiders' losses when they defended; Da Red Fang sees nothing of it.
Rulebook: Reconnaissance; Sabotage; Generic Opponents; Tomb Raider Scenario & Terrain. Decisions 460-465.

The mission is put in `TurnState.rival_missions` as the sending step records it (another part of issue 32
sends and pays it); the battles are built by 6. Fight Battles' `rival_mission_battles` and posted by the
turn's own services."""

from __future__ import annotations

import datetime as dt
import io

import pytest
from django.test import Client
from django.utils import timezone
from pypdf import PdfReader

from battles.models import Battle, TurnSummarySheet
from battles.services.posting import battles_build, battles_insert
from battles.services.scenarios import battle_scenarios_roll, scenario_sheet_pdf
from battles.services.summaries import battle_standing
from battles.services.summary_text import summary_sheet_text
from kingdoms.models import TombRaiderEntry
from kingdoms.selectors import tomb_raiders_for_missions
from kingdoms.services.tomb_raiders import tomb_raider_force_save
from orders.models import OrderSheet, OrderSubmission
from orders.services.resolution import turn_state_load
from outbox.models import Email
from reports.models import TurnReport
from reports.services.deliveries import report_emails_queue
from reports.services.reports import battle_scenario_reports_create, report_render
from rulebook.ruins_and_tomb_raiders.force import Command, RaiderEntry, Role, TroopCategory
from rulebook.turn.aftermath.results import Outcome, Pending
from rulebook.turn.fight_battles.rival_missions import rival_mission_battles
from rulebook.turn.pipeline import Resolution
from rulebook.turn.write_orders.records import TombRaiderMission
from tests.clients import error_details
from turns.models import Turn

FORCE = [
    RaiderEntry("Captain Kessler", 1, 20, role=Role.CAPTAIN, command=Command.CHAMPION, unit_type="Swordsmen"),
    RaiderEntry("Lieutenant Vogt", 1, 15, category=TroopCategory.SPECIAL, role=Role.LIEUTENANT),
    RaiderEntry("Swordsmen", 8, 8),
]


def _pdf_text(content: bytes) -> str:
    return " ".join(" ".join(page.extract_text() for page in PdfReader(io.BytesIO(content)).pages).split())


def _post(turn, missions: dict[int, TombRaiderMission]) -> list[Battle]:
    """6. Fight Battles' rival missions over the turn's loaded state, posted and their scenarios rolled as the
    orders phase does; the target's force loaded as turn_state_load loads it for a sheet that names it."""
    state = turn_state_load(turn)
    state.rival_missions = missions
    targets = [m.target_kingdom for m in missions.values() if m.target_kingdom is not None]
    state.raiders = {k: r.force for k, r in tomb_raiders_for_missions(kingdom_ids=targets, turn_number=1).items()}
    events: list = []
    battles = rival_mission_battles(state, events)
    built = battles_build(turn=turn, resolution=Resolution(state, events, [], battles), army_ids={})
    rolled = battle_scenarios_roll(turn=turn, battles=built)
    battles_insert(rolled)
    battle_scenario_reports_create(turn=turn, battles=[b.row for b in rolled])
    rows = [b.row for b in built]
    Turn.objects.filter(pk=turn.pk).update(
        status=Turn.Status.BATTLES, results_deadline=timezone.now() + dt.timedelta(days=3)
    )
    return [Battle.objects.get(pk=r.pk) for r in rows]


@pytest.fixture
def spies(demo_campaign, k, turn):
    """Ostland and Tor Anlec keep a Tomb Raider force each; Da Red Fang keeps none."""
    ostland, tor, fang = k["Ostland"], k["Tor Anlec"], k["Da Red Fang"]
    for kingdom in (ostland, tor):
        tomb_raider_force_save(kingdom=kingdom, entries=FORCE, saved_by=kingdom.players.first())
    return ostland, tor, fang


def _client(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_a_reconnaissance_is_posted_and_its_scenario_sheet_hides_the_desired_mission_from_the_target(spies, turn):
    ostland, tor, fang = spies
    (battle,) = _post(
        turn, {ostland.pk: TombRaiderMission("reconnaissance", target_kingdom=tor.pk, desired="treasury-info")}
    )

    assert (battle.attacker_kingdom, battle.attacker_army, battle.defender_kingdom, battle.defender_army) == (
        ostland,
        None,
        tor,
        None,
    )
    assert battle.province_id == tor.capitol_id
    assert (battle.mission, battle.skirmish, battle.assault) == ("reconnaissance", True, False)
    assert battle.mission_detail["defender"] == "raiders" and battle.old_wounds == []
    assert battle.scenario["skirmish"] is True and battle.scenario["mission"] == "reconnaissance"
    # Decision 466: the province's terrain, rolled; not the ruins' standards, not a capitol's Assault.
    assert battle.scenario["settlement"] == "none" and battle.scenario["engagement"]["forced"] is False
    assert battle.scenario["terrain_pieces"]["count_roll"] is not None
    assert battle.filing_kingdom_ids() == [ostland.pk, tor.pk]
    title = f"Reconnaissance by Ostland&#x27;s Tomb Raiders in {battle.province}"

    spy_page = _client(ostland.players.first()).get(f"/battles/{battle.pk}/").content.decode()
    assert f"<h1>{title}</h1>" in spy_page
    assert "Ostland: Tomb Raiders" in spy_page and "Tor Anlec: Tomb Raiders" in spy_page
    assert "The mission Ostland desires: Treasury Info" in spy_page

    target_page = _client(tor.players.first()).get(f"/battles/{battle.pk}/").content.decode()
    assert f"<h1>{title}</h1>" in target_page
    assert "Tor Anlec&#x27;s own Tomb Raiders defend" in target_page
    assert "Treasury Info" not in target_page and "treasury" not in target_page.lower()
    assert "What the raiders desire is Ostland&#x27;s to know: this copy does not say (decision 463)." in target_page

    organizer_page = _client(battle.turn.campaign.organizer).get(f"/battles/{battle.pk}/").content.decode()
    assert "The mission Ostland desires: Treasury Info" in organizer_page

    # The PDF (and the email, from the same context) goes to both sides: it never names the mission desired.
    pdf = _pdf_text(scenario_sheet_pdf(battle))
    assert "Reconnaissance by Ostland's Tomb Raiders in" in pdf and "Treasury" not in pdf
    # The scenario sheet's report, rendered and emailed as the turn's tasks do.
    (report,) = TurnReport.objects.filter(turn=turn, kind=TurnReport.Kind.SCENARIO, battle=battle)
    assert report_render(report_id=report.pk)
    report_emails_queue(report=TurnReport.objects.get(pk=report.pk))
    emails = list(Email.objects.filter(kind=Email.Kind.SCENARIO_SHEET, subject__contains="Reconnaissance by Ostland"))
    assert {a for e in emails for a in e.to} >= {u.email for u in (*ostland.players.all(), *tor.players.all())}
    assert not {a for e in emails for a in e.to} & {u.email for u in fang.players.all()}
    assert all("Attacker: Ostland: Tomb Raiders" in e.text and "Treasury" not in e.text for e in emails)


def test_the_spy_files_the_result_on_the_page_and_the_target_its_raiders_losses_through_the_api(
    spies, turn, api_client_for
):
    ostland, tor, fang = spies
    (battle,) = _post(turn, {ostland.pk: TombRaiderMission("sabotage", target_kingdom=tor.pk, desired="theft")})
    spy = _client(ostland.players.first())
    form = spy.get(f"/battles/{battle.pk}/sheet/").content.decode()
    assert 'name="raid_result"' in form and 'name="result"' not in form
    assert "Sabotage against Tor Anlec: Tomb Raiders: the mission's result" in form
    swordsmen = TombRaiderEntry.objects.get(force__kingdom=ostland, name="Swordsmen")
    response = spy.post(
        f"/battles/{battle.pk}/sheet/",
        {"raid_result": "draw", f"raider-killed-{swordsmen.pk}": "1", "action": "submit"},
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    sheet = TurnSummarySheet.objects.get(battle=battle, kingdom=ostland)
    assert (sheet.raid_result, sheet.result) == ("draw", "draw")
    assert sheet.raiders == [{"entry": "Swordsmen", "killed": 1, "injured": 0}]
    # The target's own raiders defended: the result waits on their losses until the deadline (decision 465).
    battle = Battle.objects.get(pk=battle.pk)
    assert isinstance(battle_standing(battle, deadline_passed=False), Pending)

    target = api_client_for(tor.players.first())
    refused = target.put(f"/api/battles/{battle.pk}/sheet/", {"raid_result": "failure"}, format="json")
    assert refused.status_code == 400
    assert any("only the kingdom that sent its Tomb Raiders reports" in d for d in error_details(refused))
    filed = target.put(
        f"/api/battles/{battle.pk}/sheet/",
        {"raiders": [{"entry": "Captain Kessler", "injured": 1}], "submit": True},
        format="json",
    )
    assert filed.status_code == 200, filed.json()
    own = TurnSummarySheet.objects.get(battle=battle, kingdom=tor)
    assert (own.result, own.raid_result) == ("", "")
    assert own.raiders == [{"entry": "Captain Kessler", "killed": 0, "injured": 1}]
    battle = Battle.objects.get(pk=battle.pk)
    standing = battle_standing(battle, deadline_passed=False)
    assert isinstance(standing, Outcome) and standing.attacker.result.value == "draw"


def test_a_guard_defends_when_the_target_keeps_no_raiders_and_the_target_files_nothing(spies, turn):
    ostland, tor, fang = spies
    (battle,) = _post(
        turn, {ostland.pk: TombRaiderMission("reconnaissance", target_kingdom=fang.pk, desired="army-orders")}
    )
    assert battle.mission_detail["defender"] == "guard" and battle.garrison_points == 150
    assert battle.filing_kingdom_ids() == [ostland.pk]
    page = _client(fang.players.first()).get(f"/battles/{battle.pk}/").content.decode()
    assert "Da Red Fang: a 150-point guard" in page
    assert "Da Red Fang&#x27;s player builds the guard that defends: a generic force of 150 points" in page
    assert "Army Orders" not in page
    assert _client(fang.players.first()).get(f"/battles/{battle.pk}/sheet/").status_code == 404


def test_a_third_kingdom_cannot_open_the_battle_its_scenario_or_its_sheets(spies, turn, api_client_for):
    ostland, tor, fang = spies
    (battle,) = _post(
        turn, {ostland.pk: TombRaiderMission("reconnaissance", target_kingdom=tor.pk, desired="treasury-info")}
    )
    third = _client(fang.players.first())
    for url in (
        f"/battles/{battle.pk}/",
        f"/battles/{battle.pk}/scenario.pdf",
        f"/battles/{battle.pk}/sheet/",
        f"/battles/{battle.pk}/sheet/{ostland.pk}/",
    ):
        assert third.get(url).status_code == 404, url
    api = api_client_for(fang.players.first())
    assert api.get(f"/api/battles/{battle.pk}/").status_code == 404
    assert api.get(f"/api/battles/{battle.pk}/sheet/").status_code == 404
    battles = api.get(f"/api/turns/{turn.pk}/battles/")
    assert battles.status_code == 200 and battle.pk not in [b["id"] for b in battles.json()]
    page = third.get(f"/turns/{turn.pk}/battles/").content.decode()
    assert "Reconnaissance" not in page and "Tomb Raiders" not in page


def test_the_turn_loads_the_target_s_force_for_a_sheet_that_names_it(spies, turn):
    """Decision 460: whether the target's own Tomb Raiders defend depends on their force, which the turn
    loads for every kingdom a submitted sheet's Reconnaissance or Sabotage names (stored as the sheet
    stores it; the sheet's own check of the mission is another part's)."""
    ostland, tor, fang = spies
    sheet = OrderSheet.objects.filter(turn=turn, kingdom=ostland).first() or OrderSheet.objects.create(
        turn=turn, kingdom=ostland
    )
    OrderSheet.objects.filter(pk=sheet.pk).update(status=OrderSheet.Status.SUBMITTED)
    missions = [{"kind": "reconnaissance", "target_kingdom": tor.pk, "desired": "treasury-info"}]
    OrderSubmission.objects.create(sheet=sheet, entries={"missions": missions}, submitted_by=ostland.players.first())

    state = turn_state_load(turn)

    assert state.raiders[tor.pk].models == 10 and state.raiders[tor.pk].models_available == 10
    assert fang.pk not in state.raiders


def test_a_skirmish_in_a_rival_s_capitol_offers_no_looting_and_refuses_a_loot_choice(spies, turn, api_client_for):
    """Looting: the victor of an army's battle in a town or city loots or sacks it. A Reconnaissance in Tor
    Anlec's capitol is a Tomb Raiders' skirmish, no such battle: the spy's sheet (page and email text) offers
    no Looting, and a loot choice through the API or the page is refused naming the rule; nothing is saved."""
    ostland, tor, fang = spies
    (battle,) = _post(
        turn, {ostland.pk: TombRaiderMission("reconnaissance", target_kingdom=tor.pk, desired="treasury-info")}
    )
    assert battle.province.settlement in ("city", "capitol", "town")  # a town or city: an army's battle could loot
    spy = _client(ostland.players.first())
    form = spy.get(f"/battles/{battle.pk}/sheet/").content.decode()
    assert 'name="raid_result"' in form
    assert "Looting" not in form and 'name="loot_choice"' not in form
    assert "Loot" not in summary_sheet_text(battle=battle, kingdom=ostland)
    message = (
        "Looting: Reconnaissance is a Tomb Raiders' skirmish, not an army's battle; only an army that wins a battle "
        "in a town or city loots or sacks it (Looting)."
    )
    refused = api_client_for(ostland.players.first()).put(
        f"/api/battles/{battle.pk}/sheet/", {"raid_result": "success", "loot_choice": "sack"}, format="json"
    )
    assert refused.status_code == 400
    assert error_details(refused) == [message]
    page = spy.post(
        f"/battles/{battle.pk}/sheet/", {"raid_result": "success", "loot_choice": "sack", "action": "submit"}
    )
    assert message in page.content.decode().replace("&#x27;", "'")
    assert not TurnSummarySheet.objects.filter(battle=battle).exists()
