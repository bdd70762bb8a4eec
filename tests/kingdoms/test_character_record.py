"""A character's record on the army's page and in the army API (rulebook/archetypes/character_record.py):
rank, role, archetype, abilities, injuries with their effects, battles survived, the battles he
must still miss (Deep Wound) and his Old Battle Wounds. Rulebook: Character Injury Chart,
Character Archetypes and Advancement. Secrecy: another kingdom's army is 404."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.test import Client
from rest_framework.test import APIClient

from kingdoms.models import Army, Character
from rulebook.archetypes.character_record import character_record

WOUNDS = [
    {"code": "leg-wound", "label": "Leg Wound", "detail": "-1 M", "stats": {"M": -1}, "turn": 2},
    {
        "code": "deep-wound",
        "label": "Deep Wound",
        "detail": "misses the next 3 battles",
        "misses_battles": 3,
        "battles_missed": 1,
        "turn": 3,
    },
    {"code": "old-battle-wound", "label": "Old Battle Wound", "detail": "Old Battle Wound", "turn": 3},
    {"code": "amnesia", "label": "Amnesia", "detail": "no Archetype Abilities any more", "turn": 4},
]


def test_the_record_says_what_each_injury_does_and_what_is_left_to_miss():
    record = character_record(WOUNDS)
    assert record.injuries[0] == "Leg Wound: -1 M (turn 2)"
    assert record.stats == {"M": -1} and record.out_for == 2 and record.old_wounds == 1 and record.abilities_lost
    assert "out for his army's next 2 battles (Deep Wound)" in record.standing


def _client(name: str) -> Client:
    client = Client()
    client.force_login(get_user_model().objects.get(username=name))
    return client


def test_the_army_page_and_api_show_the_character_s_record_to_his_player_only(demo_campaign):
    valten = Character.objects.select_related("unit__army").get(unit__name="Elector Count Valten")
    Character.objects.filter(pk=valten.pk).update(injuries=WOUNDS, battles_survived=4)
    army: Army = valten.unit.army
    page = _client("alice").get(f"/armies/{army.pk}/edit/").content.decode()
    assert "Elector Count Valten" in page and "Leg Wound: -1 M (turn 2)" in page
    assert "out for his army&#x27;s next 2 battles (Deep Wound)" in page
    api = APIClient()
    api.force_authenticate(get_user_model().objects.get(username="alice"))
    units = api.get(f"/api/armies/{army.pk}/").json()["units"]
    character = next(u["character"] for u in units if u["name"] == "Elector Count Valten")
    assert character["battles_survived"] == 4 and character["rank"] == "lord" and character["role"] == "warlord"
    assert character["record"]["out_for_battles"] == 2 and character["record"]["old_battle_wounds"] == 1
    assert character["record"]["stats"] == {"M": -1}
    # Secrecy: Tor Anlec's player never sees Ostland's characters.
    assert _client("dave").get(f"/armies/{army.pk}/edit/").status_code == 404
    dave = APIClient()
    dave.force_authenticate(get_user_model().objects.get(username="dave"))
    assert dave.get(f"/api/armies/{army.pk}/").status_code == 404
