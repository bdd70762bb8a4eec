"""Pages of the campaign world through Django's test client (the browser tests drive Chromium)."""

import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from kingdoms.models import Army, Campaign, Kingdom
from rulebook.setup.maps import load_default_map
from tests.conftest import PASSWORD


def upload(doc) -> SimpleUploadedFile:
    data = doc if isinstance(doc, bytes) else json.dumps(doc).encode()
    return SimpleUploadedFile("map.json", data, content_type="application/json")


def small_map() -> dict:
    """A hand-made map with explicit adjacency: a ring of four around a pyramid, plus a town."""
    provinces = [
        {
            "number": 1,
            "name": "North",
            "terrain": "plains",
            "settlement": "city",
            "capitol_site": True,
            "col": 1,
            "row": 0,
        },
        {"number": 2, "name": "West", "terrain": "forest", "col": 0, "row": 1},
        {"number": 3, "name": "Tomb", "terrain": "desert", "pyramid": True, "col": 1, "row": 1},
        {"number": 4, "name": "East", "terrain": "marshland", "settlement": "town", "col": 2, "row": 1},
        {
            "number": 5,
            "name": "South",
            "terrain": "mountains",
            "settlement": "city",
            "capitol_site": True,
            "col": 1,
            "row": 2,
        },
    ]
    adjacent = {1: [2, 3, 4], 2: [1, 3, 5], 3: [1, 2, 4, 5], 4: [1, 3, 5], 5: [2, 3, 4]}
    for p in provinces:
        p["adjacent"] = adjacent[p["number"]]
    return {"name": "Small", "adjacency": "explicit", "provinces": provinces}


@pytest.fixture
def organizer_client(client, organizer):
    client.login(username="organizer", password=PASSWORD)
    return client


def test_organizer_creates_a_campaign_from_the_default_map(organizer_client):
    response = organizer_client.post(
        "/campaigns/new/", {"name": "Autumn", "player_count": 4, "time_zone": "Europe/London"}
    )
    campaign = Campaign.objects.get(name="Autumn")
    assert response.status_code == 302 and response["Location"] == f"/campaigns/{campaign.pk}/"
    assert campaign.provinces.count() == len(load_default_map().provinces)


def test_army_restrictions_the_organizer_allows_special_characters_when_creating_the_campaign(organizer_client):
    """Army Restrictions: "NO special characters may be used, unless specified by the campaign
    organizer": off by default, the organizer's choice on the campaign form (decision 393)."""
    organizer_client.post("/campaigns/new/", {"name": "Plain", "player_count": 4, "time_zone": "UTC"})
    organizer_client.post(
        "/campaigns/new/", {"name": "Heroic", "player_count": 4, "time_zone": "UTC", "special_characters": "on"}
    )
    assert not Campaign.objects.get(name="Plain").special_characters
    assert Campaign.objects.get(name="Heroic").special_characters


def test_organizer_loads_their_own_map_from_a_json_file(organizer_client):
    response = organizer_client.post(
        "/campaigns/new/",
        {"name": "Small", "player_count": 2, "time_zone": "UTC", "map_file": upload(small_map())},
    )
    assert response.status_code == 302
    campaign = Campaign.objects.get(name="Small")
    assert campaign.map_name == "Small"
    east = campaign.provinces.get(number=4)
    assert sorted(east.neighbours.values_list("number", flat=True)) == [1, 3, 5]
    assert east.settlement == "town"


@pytest.mark.parametrize(
    "content, message",
    [
        (b"{not json", "not valid JSON"),
        (
            {
                **small_map(),
                "provinces": [{**p, "terrain": "swamp"} if p["number"] == 2 else p for p in small_map()["provinces"]],
            },
            "province 2",
        ),
        (
            {
                **small_map(),
                "provinces": [{**p, "adjacent": [1, 3]} if p["number"] == 4 else p for p in small_map()["provinces"]],
            },
            "lists 4 as adjacent but 4 does not list",
        ),
    ],
)
def test_malformed_map_file_is_refused_with_a_message_and_nothing_saved(organizer_client, content, message):
    response = organizer_client.post(
        "/campaigns/new/", {"name": "Bad", "player_count": 2, "time_zone": "UTC", "map_file": upload(content)}
    )
    assert response.status_code == 200
    assert message in response.content.decode()
    assert not Campaign.objects.exists()


def test_map_with_fewer_capitol_sites_than_players_is_refused(organizer_client):
    response = organizer_client.post(
        "/campaigns/new/", {"name": "Crowded", "player_count": 3, "time_zone": "UTC", "map_file": upload(small_map())}
    )
    assert "has 2 capitol sites; 3 players need 3" in response.content.decode()
    assert not Campaign.objects.exists()


def test_players_cannot_create_campaigns(client, make_user):
    make_user("player")
    client.login(username="player", password=PASSWORD)
    assert client.get("/campaigns/new/").status_code == 404


def test_campaign_page_shows_the_map_and_the_players_own_armies_only(client, demo_campaign):
    client.login(username="alice", password="briternia")
    page = client.get(f"/campaigns/{demo_campaign.pk}/").content.decode()
    assert "<svg" in page and 'id="province-41"' in page
    assert page.count('class="army"') == 1  # Ostland's 1st Army; nobody else's
    public = client.get(f"/campaigns/{demo_campaign.pk}/map.svg?view=public").content.decode()
    assert 'class="army"' not in public


def test_kingdom_page_shows_ledger_armies_characters_and_dice(client, demo_campaign):
    client.login(username="alice", password="briternia")
    ostland = Kingdom.objects.get(campaign=demo_campaign, name="Ostland")
    page = client.get(f"/kingdoms/{ostland.pk}/").content.decode()
    assert 'id="balance">6000<' in page
    assert "Starting gold (Setup)" in page
    assert "1st Army" in page and "Elector Count Valten" in page and "Noblesse Oblige" in page
    assert "1 of 1 army allowed by the Army Table for 3 provinces" in page
    assert "free roll on the Noble table" in page and "home selection" in page


def test_another_kingdoms_pages_are_not_found(client, demo_campaign):
    client.login(username="alice", password="briternia")
    fang = Kingdom.objects.get(campaign=demo_campaign, name="Da Red Fang")
    assert client.get(f"/kingdoms/{fang.pk}/").status_code == 404
    assert client.get(f"/armies/{fang.armies.get().pk}/edit/").status_code == 404
    assert client.post(f"/armies/{fang.armies.get().pk}/edit/", {}).status_code == 404


def test_army_list_form_saves_and_refuses_a_bad_list_whole(client, demo_campaign):
    client.login(username="alice", password="briternia")
    army = Kingdom.objects.get(campaign=demo_campaign, name="Ostland").armies.get()
    # Its list is due (as after an upgrade): it is entered freely. An entered list grows only by what
    # is paid for (XP7: tests/kingdoms/test_purchases_service.py).
    Army.objects.filter(pk=army.pk).update(list_due=True)
    form = client.get(f"/armies/{army.pk}/edit/").context
    units, items = form["units"], form["items"]

    def post_data(extra_unit=None):
        """What a browser posts: every rendered field's value (unticked boxes are left out)."""
        data = {}
        for formset in (units, items):
            data.update({bf.html_name: bf.value() for bf in formset.management_form})
            for form in formset.forms:
                for bf in form:
                    value = bf.value()
                    if value is not None and value is not False:
                        data[bf.html_name] = value
        if extra_unit:
            i = units.initial_form_count()
            data.update({f"units-{i}-{k}": v for k, v in extra_unit.items()})
        return data

    before = [(u.name, u.models_count) for u in army.units.all()]
    refused = client.post(
        f"/armies/{army.pk}/edit/",
        post_data({"name": "Knights", "category": "special", "models": 20, "points_per_model": 25}),
    )
    assert refused.status_code == 400
    assert "1st Army: the list totals" in refused.content.decode()
    assert [(u.name, u.models_count) for u in army.units.all()] == before

    saved = client.post(
        f"/armies/{army.pk}/edit/",
        post_data({"name": "Archers", "category": "core", "models": 1, "points_per_model": 5}),
    )
    assert saved.status_code == 302
    assert army.units.filter(name="Archers").exists()
