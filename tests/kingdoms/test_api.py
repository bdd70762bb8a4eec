"""The REST API of the campaign world: what it serves, and what it keeps secret (404)."""

import pytest
from django.contrib.auth import get_user_model

from kingdoms.models import Army, Kingdom
from tests.clients import error_details, error_fields

PRIVATE_KINGDOM_URLS = [
    "/api/kingdoms/{k}/",
    "/api/kingdoms/{k}/ledger/",
    "/api/kingdoms/{k}/armies/",
    "/api/kingdoms/{k}/characters/",
    "/api/kingdoms/{k}/tomb-raiders/",
]


@pytest.fixture
def alice(demo_campaign):
    return get_user_model().objects.get(username="alice")


@pytest.fixture
def ostland(demo_campaign):
    return Kingdom.objects.get(campaign=demo_campaign, name="Ostland")


@pytest.fixture
def red_fang(demo_campaign):
    return Kingdom.objects.get(campaign=demo_campaign, name="Da Red Fang")


@pytest.mark.parametrize("url", PRIVATE_KINGDOM_URLS)
def test_another_kingdoms_private_data_answers_404(api_client_for, alice, red_fang, url):
    response = api_client_for(alice).get(url.format(k=red_fang.pk))
    assert response.status_code == 404


@pytest.mark.parametrize("url", PRIVATE_KINGDOM_URLS)
def test_own_kingdom_and_the_organizer_see_private_data(api_client_for, alice, ostland, demo_campaign, url):
    assert api_client_for(alice).get(url.format(k=ostland.pk)).status_code == 200
    assert api_client_for(demo_campaign.organizer).get(url.format(k=ostland.pk)).status_code == 200


def test_another_kingdoms_army_answers_404_for_read_and_write(api_client_for, alice, red_fang):
    army = red_fang.armies.get()
    client = api_client_for(alice)
    assert client.get(f"/api/armies/{army.pk}/").status_code == 404
    before = army.units.count()
    assert client.put(f"/api/armies/{army.pk}/", {"units": []}, format="json").status_code == 404
    assert army.units.count() == before


def test_anonymous_users_get_nothing(client, ostland):
    assert client.get(f"/api/kingdoms/{ostland.pk}/").status_code in (401, 403)
    assert client.get("/api/campaigns/").status_code in (401, 403)


def test_a_stranger_does_not_see_the_campaign(api_client_for, demo_campaign):
    stranger = get_user_model().objects.create_user("stranger", password="x-long-password")
    client = api_client_for(stranger)
    assert client.get("/api/campaigns/").json() == []
    assert client.get(f"/api/campaigns/{demo_campaign.pk}/").status_code == 404
    assert client.get(f"/api/campaigns/{demo_campaign.pk}/map/").status_code == 404


def test_own_kingdom_shows_the_treasury_from_the_ledger(api_client_for, alice, ostland):
    data = api_client_for(alice).get(f"/api/kingdoms/{ostland.pk}/").json()
    assert data["treasury"] == 6000 and data["name"] == "Ostland"
    ledger = api_client_for(alice).get(f"/api/kingdoms/{ostland.pk}/ledger/").json()
    assert [(r["reason"], r["amount"]) for r in ledger] == [("starting-gold", 6000)]


def test_public_map_and_kingdoms_reveal_no_armies_or_treasury(api_client_for, alice, demo_campaign, red_fang):
    client = api_client_for(alice)
    provinces = client.get(f"/api/campaigns/{demo_campaign.pk}/map/").json()
    assert len(provinces) == demo_campaign.provinces.count()
    capitol = next(p for p in provinces if p["number"] == red_fang.capitol.number)
    assert capitol["controller"] == red_fang.pk and capitol["settlement"] == "city"
    assert "armies" not in capitol
    assert len(capitol["neighbours"]) == 8
    kingdoms = client.get(f"/api/campaigns/{demo_campaign.pk}/kingdoms/").json()
    fang = next(k for k in kingdoms if k["name"] == "Da Red Fang")
    # Whether a kingdom is a Rogue Kingdom is public (its player is out: the bulletin says so).
    assert set(fang) == {"id", "name", "army_type", "players", "capitol", "province_count", "rogue_turn"}
    assert fang["rogue_turn"] is None
    assert fang["province_count"] == 3


def test_army_list_through_the_api(api_client_for, alice, ostland):
    army = ostland.armies.get()
    # Its list is due (as after an upgrade): it is entered freely. An entered list grows only by what
    # is paid for (XP7: tests/kingdoms/test_purchases_service.py).
    Army.objects.filter(pk=army.pk).update(list_due=True)
    client = api_client_for(alice)
    data = client.get(f"/api/armies/{army.pk}/").json()
    assert data["points"] == sum(u["points"] for u in data["units"]) + sum(i["points"] for i in data["items"])
    warlord = next(u for u in data["units"] if u["character"] and u["character"]["role"] == "warlord")
    units = [
        {
            "id": warlord["id"],
            "name": warlord["name"],
            "category": "character",
            "models": 1,
            "points_per_model": warlord["points_per_model"],
            "equipment_points": warlord["equipment_points"],
            "rank": "lord",
            "role": "warlord",
            "archetype": warlord["character"]["archetype"],
        },
        {"name": "Spearmen", "category": "core", "models": 200, "points_per_model": 6},
    ]
    response = client.put(f"/api/armies/{army.pk}/", {"units": units, "items": []}, format="json")
    assert response.status_code == 200, response.json()
    assert response.json()["points"] == warlord["points"] + 1200
    army.refresh_from_db()
    assert [u.name for u in army.units.all()] == [warlord["name"], "Spearmen"]
    # The Warlord kept his abilities: he was updated in place, not recreated.
    assert army.units.get(name=warlord["name"]).character.abilities == warlord["character"]["abilities"]


def test_bad_army_list_through_the_api_is_400_with_messages_and_changes_nothing(api_client_for, alice, ostland):
    army = ostland.armies.get()
    client = api_client_for(alice)
    before = client.get(f"/api/armies/{army.pk}/").json()
    units = [{"name": "Spearmen", "category": "core", "models": 500, "points_per_model": 5}]
    response = client.put(f"/api/armies/{army.pk}/", {"units": units}, format="json")
    assert response.status_code == 400
    errors = error_details(response)
    assert any("1st Army: the list totals 2500 points" in e for e in errors)
    # The campaign runs: the Warlord stays in his list (Warlord; decision 614).
    assert any("stays in the list as the kingdom's Warlord" in e for e in errors)
    assert client.get(f"/api/armies/{army.pk}/").json() == before


def test_malformed_army_list_is_400(api_client_for, alice, ostland):
    army = ostland.armies.get()
    response = api_client_for(alice).put(
        f"/api/armies/{army.pk}/", {"units": [{"name": "X", "category": "monsters"}]}, format="json"
    )
    assert response.status_code == 400
    assert set(error_fields(response)) == {"units"}


def test_schema_and_docs_are_served(client, alice):
    client.force_login(alice)
    schema = client.get("/api/schema/")
    assert schema.status_code == 200
    text = schema.content.decode()
    for path in ("/api/kingdoms/{kingdom_id}/armies/", "/api/armies/{army_id}/", "/api/campaigns/{campaign_id}/map/"):
        assert path in text
    docs = client.get("/api/docs/")
    assert docs.status_code == 200 and b"swagger" in docs.content.lower()


def test_organizer_can_pick_for_an_absent_player_through_the_api(api_client_for, invited_campaign):
    from kingdoms.services import campaigns as campaign_services

    campaign_services.home_selection_start(campaign=invited_campaign)
    invited_campaign.refresh_from_db()
    first = campaign_services.setup_next_kingdom(invited_campaign)
    site = invited_campaign.provinces.filter(capitol_site=True).first()
    organizer = api_client_for(invited_campaign.organizer)
    response = organizer.post(
        f"/api/campaigns/{invited_campaign.pk}/setup/home/",
        {"province": site.number, "kingdom": first.pk},
        format="json",
    )
    assert response.status_code == 200, response.json()
    assert response.json()["capitol"] == site.number
    first.refresh_from_db()
    assert first.capitol == site


def test_player_out_of_turn_pick_through_the_api_is_400(api_client_for, invited_campaign):
    from kingdoms.services import campaigns as campaign_services

    campaign_services.home_selection_start(campaign=invited_campaign)
    invited_campaign.refresh_from_db()
    first = campaign_services.setup_next_kingdom(invited_campaign)
    other = invited_campaign.kingdoms.exclude(pk=first.pk).exclude(army_type="ancient-dead").first()
    site = invited_campaign.provinces.filter(capitol_site=True).first()
    response = api_client_for(other.players.get()).post(
        f"/api/campaigns/{invited_campaign.pk}/setup/home/", {"province": site.number}, format="json"
    )
    assert response.status_code == 400
    assert f"It is {first.name}'s turn" in error_details(response)[0]
    assert not Army.objects.filter(kingdom=other).exists()


def test_supply_depot_an_army_s_captured_carts_are_on_its_api_and_its_kingdom_s_page(alice, ostland):
    """Supply Depot: "Captured carts may be added to the capturing army's roster" (decision 396): the
    army's spare carts are in the armies API and on the kingdom's page beside its depot."""
    from django.test import Client

    army = ostland.armies.filter(kind=Army.Kind.FIELD).order_by("id").first()
    Army.objects.filter(pk=army.pk).update(spare_carts=2)
    client = Client()
    client.force_login(alice)
    rows = {a["id"]: a for a in client.get(f"/api/kingdoms/{ostland.pk}/armies/").json()}
    assert (rows[army.pk]["supply_depot"], rows[army.pk]["spare_carts"]) == (True, 2)
    assert "yes (+2 captured carts)" in client.get(f"/kingdoms/{ostland.pk}/").content.decode()
