"""Drinking a Healing Potion (battles/services/healing.py, the kingdom's page and the API).
Rulebook: Treasure from the Ruins: "6: d6 x 100 gold pieces + healing potion. A healing potion removes
all injuries a character has suffered." Decision 435: a character drinks a potion carried by a
character of his own army; it is used up. Refusals change nothing; another kingdom's player gets 404."""

from __future__ import annotations

import pytest
from django.urls import reverse

from kingdoms.models import ArmoryItem, Army, Character, Kingdom
from tests.clients import api_as as _api
from tests.clients import error_details
from tests.clients import pages_as as _page
from turns.models import TurnEvent

INJURIES = [
    {"code": "leg-wound", "label": "Leg Wound", "detail": "-1 Movement"},
    {"code": "old-battle-wound", "label": "Old Battle Wound"},
]


@pytest.fixture
def ostland(demo_campaign) -> Kingdom:
    return Kingdom.objects.get(campaign=demo_campaign, name="Ostland")


def _character(name: str) -> Character:
    return Character.objects.select_related("unit__army").get(unit__name=name)


def _potion_for(character: Character) -> ArmoryItem:
    """A Healing Potion from the ruins, carried by the character (0 points: Treasure from the Ruins)."""
    return ArmoryItem.objects.create(
        kingdom=character.kingdom, name="Healing Potion", points=0, common=True, bearer=character.unit
    )


def test_an_injured_hero_drinks_the_potion_his_general_carries_on_the_kingdom_s_page(ostland):
    """Captain Reiner, wounded twice, drinks the potion his army's Warlord carries: both injuries are
    gone, the potion is used up, and the kingdom's log says so."""
    reiner, valten = _character("Captain Reiner"), _character("Elector Count Valten")
    assert reiner.unit.army_id == valten.unit.army_id
    Character.objects.filter(pk=reiner.pk).update(injuries=INJURIES)
    potion = _potion_for(valten)
    page = _page("alice").get(reverse("kingdom", kwargs={"kingdom_id": ostland.pk})).content.decode()
    assert f'action="/characters/{reiner.pk}/healing-potion/"' in page
    assert f'action="/characters/{valten.pk}/healing-potion/"' not in page  # he has no injury

    response = _page("alice").post(f"/characters/{reiner.pk}/healing-potion/")

    assert response.status_code == 302
    reiner.refresh_from_db()
    assert reiner.injuries == []
    assert not ArmoryItem.objects.filter(pk=potion.pk).exists()
    event = TurnEvent.objects.get(code="healing-potion-used", kingdom=ostland)
    assert "Captain Reiner" in event.text and "Leg Wound" in event.text and "Treasure from the Ruins" in event.text


def test_a_potion_in_another_army_or_none_at_all_is_refused_and_nothing_changes(ostland):
    """Through the API: no potion in his army (one carried in another army does not reach him), and
    an uninjured character: 400 naming the rule; the injuries and the potion stay."""
    reiner = _character("Captain Reiner")
    Character.objects.filter(pk=reiner.pk).update(injuries=INJURIES)
    reserve = Army.objects.create(kingdom=ostland, name="Reserve", size=1000, province=reiner.unit.army.province)
    unit = reserve.units.create(name="Captain Holt", category="character", models_count=1, points_per_model=60)
    elsewhere = Character.objects.create(unit=unit, kingdom=ostland, role="general")
    potion = _potion_for(elsewhere)

    response = _api("alice").post(f"/api/characters/{reiner.pk}/healing-potion/", {}, format="json")

    assert response.status_code == 400
    assert "Healing Potion" in " ".join(error_details(response)) and "Treasure from the Ruins" in " ".join(
        error_details(response)
    )
    reiner.refresh_from_db()
    assert reiner.injuries == INJURIES
    assert ArmoryItem.objects.filter(pk=potion.pk, destroyed=False).exists()

    Character.objects.filter(pk=elsewhere.pk).update(injuries=[])
    response = _api("alice").post(f"/api/characters/{elsewhere.pk}/healing-potion/", {}, format="json")
    assert response.status_code == 400 and "no injuries" in " ".join(error_details(response))
    assert ArmoryItem.objects.filter(pk=potion.pk).exists()


def test_the_api_heals_and_another_kingdom_s_player_gets_404(ostland):
    """The API answers what was removed and who carried the potion; Karak Dumn's player cannot make
    Ostland's hero drink (404, as for any of another kingdom's characters)."""
    reiner, valten = _character("Captain Reiner"), _character("Elector Count Valten")
    Character.objects.filter(pk=reiner.pk).update(injuries=INJURIES[:1])
    _potion_for(valten)

    assert _api("bob").post(f"/api/characters/{reiner.pk}/healing-potion/", {}, format="json").status_code == 404
    reiner.refresh_from_db()
    assert reiner.injuries == INJURIES[:1]

    response = _api("alice").post(f"/api/characters/{reiner.pk}/healing-potion/", {}, format="json")
    assert response.status_code == 200
    assert response.json() == {
        "character": reiner.pk,
        "injuries_removed": ["Leg Wound"],
        "potion_bearer": "Elector Count Valten",
    }
