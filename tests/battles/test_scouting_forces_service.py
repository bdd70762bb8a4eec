"""Rogue Kingdom, scouting forces, through the site (decision 231): Ostland's 1st Army enters a
province of Tor Anlec, a Rogue Kingdom, and rolls Scouting forces; the battle is posted as the Tomb
Raiders' skirmish (ruins terrain, no Old Battle Wounds, a 150-point warband), its sheets are filed
(Ostland's by alice, the warband's by the organizer), and the aftermath leaves the army whole.
Rulebook: Player Issues > Rogue Kingdom; Ruins; Tomb Raider Scenario & Terrain.

The turn's dice are seeded: SEED is a seed under which the Rogue Kingdom roll is a 2 (the test
checks it, so a change to the dice streams fails here, saying so, rather than testing another row)."""

from __future__ import annotations

import io

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from pypdf import PdfReader

from battles.models import Battle, TurnSummarySheet
from battles.services.summaries import summary_sheet_save
from briternia.errors import DomainError
from kernel.event_codes import EventCode
from kingdoms.models import Army, Character, Kingdom, Province, Unit
from orders.services.rogue import kingdom_rogue_declare
from orders.services.sheets import order_sheet_save
from rulebook.scenario.tables import RUINS_TEXT
from rulebook.turn.write_orders.records import ArmyOrder, OrderKind, SheetEntries
from turns.models import TurnEvent
from turns.services.cycle import aftermath_phase_run, orders_phase_run

SEED = "scouting-5"


def _pdf_text(content: bytes) -> str:
    return "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(content)).pages)


@pytest.fixture
def skirmish(demo_campaign, django_capture_on_commit_callbacks):
    k = {x.name: x for x in Kingdom.objects.filter(campaign=demo_campaign)}
    ostland, tor = k["Ostland"], k["Tor Anlec"]
    turn = demo_campaign.turns.get(number=1)
    kingdom_rogue_declare(kingdom=tor, why="moved abroad")
    target = next(
        p
        for p in Province.objects.filter(campaign=demo_campaign, controller=tor).order_by("number")
        if p.neighbours.filter(controller__isnull=True, armies__isnull=True).exists()
    )
    start = target.neighbours.filter(controller__isnull=True, armies__isnull=True).order_by("number").first()
    army = Army.objects.get(kingdom=ostland, name="1st Army")
    army.province = start
    army.save(update_fields=["province"])
    turn.seed = SEED
    turn.save(update_fields=["seed"])
    saved = order_sheet_save(
        turn=turn,
        kingdom=ostland,
        entries=SheetEntries(orders=(ArmyOrder(army.pk, OrderKind.MOVE, target=target.number),)),
        submitted_by=ostland.players.first(),
        submit=True,
    )
    assert saved.check.errors == []
    with django_capture_on_commit_callbacks(execute=True):
        assert orders_phase_run(turn_id=turn.pk).resolved
    (roll,) = TurnEvent.objects.filter(turn=turn, code=EventCode.ROGUE_KINGDOM_ROLL)
    assert roll.data["roll"] == 2, f"SEED no longer rolls Scouting forces: {roll.text}"
    return turn, ostland, tor, army, start, target


def test_scouting_forces_are_posted_as_a_tomb_raiders_skirmish_and_the_army_stays_whole(
    skirmish, django_capture_on_commit_callbacks
):
    turn, ostland, tor, army, start, target = skirmish
    battle = Battle.objects.get(turn=turn)
    assert (battle.province, battle.skirmish, battle.garrison_points) == (target, True, 150)
    assert (battle.defender_kingdom, battle.defender_army, battle.old_wounds) == (tor, None, [])
    assert battle.scenario["settlement"] == "ruins" and RUINS_TEXT in battle.scenario["terrain_pieces"]["notes"]
    assert any("Tomb Raiders (150 points)" in note for note in battle.notes)

    models = dict(Unit.objects.filter(army=army).values_list("id", "models_count"))
    swordsmen = Unit.objects.get(army=army, name="Swordsmen")
    # The army takes no losses in the skirmish: a sheet reporting some is refused, naming the rule.
    with pytest.raises(DomainError) as refused:
        summary_sheet_save(
            battle=battle,
            kingdom=ostland,
            data={"result": "minor-loss", "casualties": [{"unit": swordsmen.pk, "models_lost": 5}]},
            entered_by=ostland.players.first(),
        )
    assert refused.value.messages == [
        "Casualties: Ostland's army did not fight the Tomb Raiders' skirmish and takes no losses (Ruins; decision 231)."
    ]
    assert not TurnSummarySheet.objects.filter(battle=battle).exists()
    summary_sheet_save(
        battle=battle, kingdom=ostland, data={"result": "minor-loss"}, entered_by=ostland.players.first()
    )
    organizer = get_user_model().objects.get(username="organizer")
    summary_sheet_save(
        battle=battle, kingdom=tor, data={"result": "minor-victory"}, entered_by=organizer, by_organizer=True
    )
    experience = Army.objects.get(pk=army.pk).experience
    # Its reports queued, not rendered (about 7 s): the rows the aftermath wrote are what is checked.
    with django_capture_on_commit_callbacks(execute=False):
        aftermath_phase_run(turn_id=turn.pk)

    army.refresh_from_db()
    target.refresh_from_db()
    assert (army.province, army.status, army.experience) == (start, Army.Status.ACTIVE, experience)
    assert target.controller == tor
    assert dict(Unit.objects.filter(army=army).values_list("id", "models_count")) == models
    (lost,) = TurnEvent.objects.filter(turn=turn, code=EventCode.SKIRMISH_LOST)
    assert lost.kingdom == ostland and "may not move into it this turn" in lost.text


def test_the_skirmish_s_scenario_sheet_follows_tomb_raider_scenario_and_terrain(skirmish):
    """Tomb Raider Scenario & Terrain on the sheet (decisions 351, 352): the scenario is the
    skirmish's, its rules printed, the Deployment Map drawn on a 4 by 4 foot table; the army's
    General's abilities set no terms of it (he does not fight: decision 231)."""
    turn, ostland, tor, army, start, target = skirmish
    battle = Battle.objects.get(turn=turn)
    assert battle.scenario["skirmish"] is True and battle.scenario["abilities"] == []
    client = Client()
    client.force_login(get_user_model().objects.get(username="alice"))
    page = client.get(f"/battles/{battle.pk}/").content.decode()
    assert "Tomb Raider Scenario &amp; Terrain" in page
    assert 'class="deployment-map deployment-map-square"' in page
    text = " ".join(_pdf_text(client.get(f"/battles/{battle.pk}/scenario.pdf").content).split())
    assert "Tomb Raider Scenario & Terrain" in text
    assert "3. The Tomb Raider Captain counts as the Army General for scenario objective purposes." in text
    assert "North edge: 48 in. (4 ft)" in text and "The table is 48 by 48 inches (4 by 4 feet)" in text


def test_the_skirmish_s_turn_summary_sheet_asks_for_no_losses(skirmish):
    """The aftermath ignores the army's losses in a skirmish (decision 231), so its sheet has no
    casualty boxes and no characters to mark, and says why."""
    turn, ostland, tor, army, start, target = skirmish
    battle = Battle.objects.get(turn=turn)
    client = Client()
    client.force_login(get_user_model().objects.get(username="alice"))
    page = client.get(f"/battles/{battle.pk}/sheet/").content.decode()
    assert 'id="skirmish-no-losses"' in page and "takes no losses" in page
    assert 'id="casualties"' not in page and 'name="lost-' not in page and 'name="character-' not in page
    assert "If your Warlord dies" not in page
    general = Character.objects.filter(unit__army=army).order_by("id").first()
    with pytest.raises(DomainError) as refused:
        summary_sheet_save(
            battle=battle,
            kingdom=ostland,
            data={"result": "minor-loss", "characters_lost": [general.pk], "injury_rerolls": {str(general.pk): "dead"}},
            entered_by=ostland.players.first(),
        )
    assert refused.value.messages == [
        "Characters: no character of Ostland's army takes part in the Tomb Raiders' skirmish (decision 231).",
        "Injury rerolls: no character of Ostland's army takes part in the Tomb Raiders' skirmish (decision 231).",
    ]
    response = client.post(f"/battles/{battle.pk}/sheet/", {"result": "minor-victory", "action": "submit"})
    assert response.status_code == 302
    sheet = TurnSummarySheet.objects.get(battle=battle, kingdom=ostland)
    assert (sheet.result, sheet.casualties, sheet.characters_lost) == ("minor-victory", [], [])
