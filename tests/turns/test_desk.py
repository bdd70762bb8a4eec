"""The game master's desk (issue 37): one organizer page per campaign with every army where it stands
(the god view, never a player's: rulebook, Fog of War; rules decision 340 keeps a player's map to
their own armies) and what is outstanding, each with its action; the same list read-only in the API.
Anyone but the organizer: not found."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from rest_framework.test import APIClient

from battles.models import Battle
from kingdoms.models import Army, Campaign
from orders.models import CampaignSchedule, OrderSheet
from outbox.models import Email
from tests.battle_setup import sheet_filed
from tests.clients import api_as, pages_as
from tests.smtp import email_failed_create
from turns.models import Turn

pytestmark = pytest.mark.django_db


def _flags(page: str) -> list[str]:
    """The army flags a page's map draws, as "<army> (<kingdom>)"."""
    return re.findall(r'<g class="army" data-kingdom="\d+"><title>([^<]*)</title>', page)


def _kinds(campaign: Campaign) -> list[str]:
    response = api_as("organizer").get(f"/api/campaigns/{campaign.pk}/desk/")
    assert response.status_code == 200
    return [item["kind"] for item in response.json()["outstanding"]]


def test_only_the_organizer_has_a_desk(demo_campaign) -> None:
    url = f"/campaigns/{demo_campaign.pk}/desk/"
    assert pages_as("organizer").get(url).status_code == 200
    for player in ("alice", "bob", "carol", "dave"):
        assert pages_as(player).get(url).status_code == 404
    anonymous = Client().get(url)
    assert anonymous.status_code == 302 and anonymous["Location"].startswith("/accounts/login/")

    api = f"/api/campaigns/{demo_campaign.pk}/desk/"
    assert api_as("organizer").get(api).status_code == 200
    for player in ("alice", "dave"):
        assert api_as(player).get(api).status_code == 404
    assert APIClient().get(api).status_code == 401
    assert api_as("organizer").post(api).status_code == 405  # read-only

    # Linked from the campaign page and the organizer's navigation; a player has neither.
    organizer_page = pages_as("organizer").get(f"/campaigns/{demo_campaign.pk}/").content.decode()
    assert organizer_page.count(f'href="/campaigns/{demo_campaign.pk}/desk/"') == 2
    assert "/desk/" not in pages_as("alice").get(f"/campaigns/{demo_campaign.pk}/").content.decode()


def test_the_desk_shows_every_army_where_it_stands_and_a_player_s_map_only_their_own(demo_campaign) -> None:
    armies = Army.objects.filter(kingdom__campaign=demo_campaign, status=Army.Status.ACTIVE, province__isnull=False)
    every = sorted(f"{a.name} ({a.kingdom.name})" for a in armies.select_related("kingdom"))
    assert len({a.kingdom_id for a in armies}) == 5  # four players' kingdoms and the Ancient Dead

    desk = pages_as("organizer").get(f"/campaigns/{demo_campaign.pk}/desk/").content.decode()
    assert sorted(_flags(desk)) == every
    for army in armies.select_related("kingdom", "province"):
        assert f"<tr><td>{army.kingdom.name}</td><td>{army.name}</td><td>{army.province}</td></tr>" in desk

    ostland = sorted(f"{a.name} (Ostland)" for a in armies.filter(kingdom__name="Ostland"))
    alice = pages_as("alice").get(f"/campaigns/{demo_campaign.pk}/").content.decode()
    assert sorted(_flags(alice)) == ostland


def test_the_desk_lists_the_orders_not_in_a_held_or_paused_turn_and_failed_emails_with_resend(
    demo_campaign, turn, django_capture_on_commit_callbacks
) -> None:
    organizer = pages_as("organizer")
    url = f"/campaigns/{demo_campaign.pk}/desk/"
    ostland = demo_campaign.kingdoms.get(name="Ostland")
    OrderSheet.objects.create(turn=turn, kingdom=ostland, status=OrderSheet.Status.SUBMITTED)

    page = organizer.get(url).content.decode()
    for name in ("Da Red Fang", "Karak Dumn", "Tor Anlec"):
        assert f"{name}&#x27;s orders for turn 1 are not in." in page
    assert "Ostland&#x27;s orders" not in page
    assert f'href="/turns/{turn.pk}/sheets/"' in page
    assert _kinds(demo_campaign) == ["orders-missing"] * 3

    Turn.objects.filter(pk=turn.pk).update(held_at=turn.orders_deadline)
    CampaignSchedule.objects.filter(campaign=demo_campaign).update(paused=True)
    failed = email_failed_create(demo_campaign)
    assert _kinds(demo_campaign) == ["turn-held", "campaign-paused", *["orders-missing"] * 3, "email-failed"]
    page = organizer.get(url).content.decode()
    assert "Turn 1 is held since" in page and "The campaign is paused" in page
    assert "550 mailbox unavailable" in page and f'action="/emails/{failed.pk}/resend/"' in page

    # Resend, from the desk, back to the desk; the email is no longer outstanding.
    with django_capture_on_commit_callbacks(execute=False):
        response = organizer.post(f"/emails/{failed.pk}/resend/", {"next": url})
    assert response.status_code == 302 and response["Location"] == url
    failed.refresh_from_db()
    assert failed.status == Email.Status.QUEUED
    assert "email-failed" not in _kinds(demo_campaign)


def test_the_desk_lists_disagreements_to_rule_on_and_sheets_missing(battles_posted_turn) -> None:
    turn = battles_posted_turn
    battles = {b.province.number: b for b in Battle.objects.filter(turn=turn).select_related("province")}
    hartwood = battles[62]
    sheet_filed(hartwood, hartwood.attacker_kingdom, result="minor-victory")
    sheet_filed(hartwood, hartwood.defender_kingdom, result="major-victory")

    response = api_as("organizer").get(f"/api/campaigns/{turn.campaign_id}/desk/")
    items = response.json()["outstanding"]
    ruling = [i for i in items if i["kind"] == "ruling-needed"]
    assert [i["details"]["battle"] for i in ruling] == [hartwood.pk]
    page_of_the_battle = {"label": f"The battle in {hartwood.province}", "url": f"/battles/{hartwood.pk}/"}
    assert ruling[0]["actions"] == [{**page_of_the_battle, "method": "get", "confirm": ""}]
    assert "the attacker reports a minor victory, the defender a major victory" in ruling[0]["text"]
    waiting = {i["details"]["battle"] for i in items if i["kind"] == "summary-missing"}
    assert waiting == {b.pk for n, b in battles.items() if n != 62}

    page = pages_as("organizer").get(f"/campaigns/{turn.campaign_id}/desk/").content.decode()
    assert "the turn summary sheets disagree" in page and "Rule on it." in page
    assert f'href="/battles/{hartwood.pk}/"' in page


def test_the_desk_lists_the_army_lists_due_at_setup(demo_campaign) -> None:
    Campaign.objects.filter(pk=demo_campaign.pk).update(status=Campaign.Status.ARMY_LISTS)
    army = Army.objects.filter(kingdom__campaign=demo_campaign, kingdom__name="Tor Anlec").first()

    def due() -> dict[int, dict]:
        response = api_as("organizer").get(f"/api/campaigns/{demo_campaign.pk}/desk/")
        return {i["details"]["army"]: i for i in response.json()["outstanding"] if i["kind"] == "army-list-due"}

    assert army.pk not in due()
    army.units.all().delete()
    item = due()[army.pk]
    assert item["text"].startswith(f"Tor Anlec: the army list of {army.name} is due (")
    assert item["actions"][0]["url"] == f"/armies/{army.pk}/edit/"


def test_the_desk_is_in_the_api_schema(client) -> None:
    schema = client.get("/api/schema/?format=json").json()
    operation = schema["paths"]["/api/campaigns/{campaign_id}/desk/"]
    assert set(operation) == {"get", "parameters"} or set(operation) == {"get"}
    assert "CampaignDesk" in str(operation["get"]["responses"]["200"])
