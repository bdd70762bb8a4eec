"""Retiring a character (battles/services/retirement.py, the kingdom's page and the API): he counts
as dead; his items go with him unless the kingdom pays twice their points in gold to keep them in
its armory; refused whole when the treasury cannot pay; a retiring Warlord is succeeded (Warlord).
Rulebook: Character Injury Chart (retiring), Warlord. Secrecy: another kingdom's character is 404."""

from __future__ import annotations

import pytest
from django.urls import reverse

from kingdoms.models import ArmoryItem, Army, Character, Kingdom, TreasuryEntry
from tests.clients import api_as as _api
from tests.clients import error_details
from tests.clients import pages_as as _page
from tests.kingdoms.builders import army_built, campaign_built, character_built, item_built, kingdom_built, unit_built
from tests.turns.builders import turn_built
from turns.models import TurnEvent


@pytest.fixture
def ostland(db) -> Kingdom:
    """Ostland (alice) on turn 1, its 1st Army led by Elector Count Valten, the Warlord, with the
    Runefang, and Captain Reiner with the Enchanted Shield, as in the demo; Tor Anlec (dave) beside it.
    Built directly (tests/kingdoms/builders.py): the rows retiring reads, not the demo campaign."""
    campaign = campaign_built()
    turn_built(campaign)
    ostland = kingdom_built(campaign, "Ostland", player="alice", capitol=1, gold=500)
    kingdom_built(campaign, "Tor Anlec", player="dave", army_type="high-elves", capitol=4)
    army = army_built(ostland, province=1)
    valten = character_built(army, "Elector Count Valten", points=90, role="warlord", rank="lord", archetype="noble")
    reiner = character_built(army, "Captain Reiner", points=50)
    unit_built(army, "Halberdiers")
    item_built(ostland, "Runefang", 85, bearer=valten)
    item_built(ostland, "Enchanted Shield", 10, bearer=reiner, common=True)
    return ostland


def _character(name: str) -> Character:
    return Character.objects.select_related("unit").get(unit__name=name)


def test_a_player_retires_a_hero_and_keeps_his_shield_for_twice_its_points(ostland):
    """Captain Reiner retires from the kingdom's page; the Enchanted Shield (10 points) stays in the
    armory, with no bearer, for 20 gold (a treasury row); he counts as dead."""
    before = ostland.treasury_balance()
    reiner = _character("Captain Reiner")
    page = _page("alice").get(reverse("kingdom", kwargs={"kingdom_id": ostland.pk})).content.decode()
    assert f'action="/characters/{reiner.pk}/retire/"' in page
    asked = _page("alice").post(f"/characters/{reiner.pk}/retire/", {"keep_items": "on"})
    # The button only asks: a retirement cannot be taken back (issue 37).
    assert asked.status_code == 200
    question = asked.content.decode()
    assert "Retire Captain Reiner?" in question and "cannot be undone" in question
    assert "Enchanted Shield" in question and "20 gold" in question
    reiner.refresh_from_db()
    assert reiner.alive and ostland.treasury_balance() == before
    response = _page("alice").post(f"/characters/{reiner.pk}/retire/", {"keep_items": "on", "confirmed": "yes"})
    assert response.status_code == 302
    reiner.refresh_from_db()
    assert not reiner.alive and reiner.unit.models_count == 0
    shield = ArmoryItem.objects.get(kingdom=ostland, name="Enchanted Shield")
    assert shield.bearer is None and not shield.destroyed
    row = TreasuryEntry.objects.get(kingdom=ostland, reason="retirement")
    assert row.amount == -20 and ostland.treasury_balance() == before - 20
    event = TurnEvent.objects.get(code="character-retired", kingdom=ostland)
    assert event.gold == -20 and "Captain Reiner" in event.text and event.turn.number == 1


def test_a_retiring_warlord_takes_his_runefang_and_the_chosen_general_succeeds(ostland):
    """Through the API: Elector Count Valten retires without paying; the Runefang goes with him.
    Two Generals tie on experience; the player named Captain Holt, who becomes the Warlord."""
    first = Army.objects.filter(kingdom=ostland, kind="field").order_by("id").first()
    second = Army.objects.create(kingdom=ostland, name="Reserve", size=1000, province=first.province)
    armies = [first, second]
    generals = []
    for army, name in zip(armies[:2], ("Captain Brandt", "Captain Holt"), strict=True):
        Army.objects.filter(pk=army.pk).update(experience=60)
        unit = army.units.create(name=name, category="character", models_count=1, points_per_model=60)
        generals.append(Character.objects.create(unit=unit, kingdom=ostland, role="general"))
    valten = _character("Elector Count Valten")
    response = _api("alice").post(
        f"/api/characters/{valten.pk}/retire/",
        {"keep_items": False, "warlord_heir": generals[1].pk, "confirm": True},
        format="json",
    )
    assert response.status_code == 200, response.json()
    assert response.json()["items_gone"] == ["Runefang"] and response.json()["warlord"] == generals[1].pk
    assert ArmoryItem.objects.get(kingdom=ostland, name="Runefang").destroyed
    assert not TreasuryEntry.objects.filter(kingdom=ostland, reason="retirement").exists()
    assert Character.objects.get(kingdom=ostland, alive=True, role="warlord") == generals[1]
    succession = TurnEvent.objects.get(code="warlord-succession", kingdom=ostland)
    assert "retired" in succession.text and "Captain Holt" in succession.text and "promoted to Lord" in succession.text


def test_keeping_the_items_is_refused_when_the_treasury_cannot_pay(ostland):
    """Valten's Runefang (85 points) costs 170 gold to keep; with 100 in the treasury the retirement
    is refused whole: he is still the Warlord, the sword still his, no gold moved."""
    TreasuryEntry.objects.create(kingdom=ostland, turn=1, amount=100 - ostland.treasury_balance(), reason="adjustment")
    valten = _character("Elector Count Valten")
    response = _api("alice").post(
        f"/api/characters/{valten.pk}/retire/", {"keep_items": True, "confirm": True}, format="json"
    )
    assert response.status_code == 400
    assert any("costs 170 gold" in m and "holds 100" in m for m in error_details(response))
    valten.refresh_from_db()
    assert valten.alive and valten.role == "warlord"
    assert ArmoryItem.objects.get(kingdom=ostland, name="Runefang").bearer == valten.unit
    assert ostland.treasury_balance() == 100


def test_another_kingdom_s_character_cannot_be_retired_nor_seen(ostland):
    valten = _character("Elector Count Valten")
    assert _api("dave").post(f"/api/characters/{valten.pk}/retire/", {}, format="json").status_code == 404
    assert _page("dave").post(f"/characters/{valten.pk}/retire/", {}).status_code == 404
    assert _page("dave").post(f"/characters/{valten.pk}/retire/", {"confirmed": "yes"}).status_code == 404
    valten.refresh_from_db()
    assert valten.alive


def test_the_api_refuses_a_retirement_not_confirmed(ostland):
    """A retirement cannot be undone: without `confirm: true` the API refuses it and he stays."""
    valten = _character("Elector Count Valten")
    response = _api("alice").post(f"/api/characters/{valten.pk}/retire/", {"keep_items": False}, format="json")
    assert response.status_code == 400
    response = _api("alice").post(
        f"/api/characters/{valten.pk}/retire/", {"keep_items": False, "confirm": False}, format="json"
    )
    assert response.status_code == 400 and any("cannot be undone" in m for m in error_details(response))
    valten.refresh_from_db()
    assert valten.alive and valten.role == "warlord"


def test_the_warlord_s_retirement_page_names_his_heir_and_nothing_changes_until_confirmed(ostland):
    """Retiring the Warlord from the page asks first, naming who succeeds him (Warlord)."""
    valten = _character("Elector Count Valten")
    first = Army.objects.filter(kingdom=ostland, kind="field").order_by("id").first()
    unit = first.units.create(name="Captain Holt", category="character", models_count=1, points_per_model=60)
    holt = Character.objects.create(unit=unit, kingdom=ostland, role="general")
    asked = _page("alice").post(f"/characters/{valten.pk}/retire/", {"warlord_heir": str(holt.pk)})
    question = asked.content.decode()
    assert asked.status_code == 200 and "He is the Warlord: Captain Holt succeeds him on a tie" in question
    assert "Runefang" in question and "takes his magic items with him" in question
    assert f'name="warlord_heir" value="{holt.pk}"' in question
    valten.refresh_from_db()
    assert valten.alive and valten.role == "warlord"
