"""Privacy and roles (issue 19): a player is shown by a display name, never by an email address; an
organizer sees and manages their own campaigns, in the site and in the admin; a site administrator
is not the organizer of every campaign (they see every campaign in the admin)."""

from __future__ import annotations

import html

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from rest_framework.test import APIClient

from briternia.errors import DomainError
from kingdoms.models import Campaign, Kingdom
from kingdoms.people import display_name
from kingdoms.services import campaigns as campaign_services
from kingdoms.services.invitations import invitation_link
from rulebook.setup.maps import load_default_map
from tests.conftest import PASSWORD


@pytest.fixture
def invited(new_campaign, django_capture_on_commit_callbacks):
    """Two players invited by address only: they log in with it."""
    invitations = (("ann.smith@example.org", "Ostmark", "empire"), ("bo@example.org", "Zhufbar", "dwarfs"))
    for email, name, army_type in invitations:
        with django_capture_on_commit_callbacks(execute=True):
            campaign_services.player_invite(campaign=new_campaign, email=email, kingdom_name=name, army_type=army_type)
    User = get_user_model()
    return {u.email: u for u in User.objects.filter(email__endswith="@example.org", username__contains="@")}


def _as(user) -> tuple[Client, APIClient]:
    page, api = Client(), APIClient()
    page.force_login(user)
    api.force_authenticate(user)
    return page, api


def test_an_invited_player_is_shown_by_a_name_never_by_an_address(new_campaign, invited):
    ann, bo = invited["ann.smith@example.org"], invited["bo@example.org"]
    assert ann.username == "ann.smith@example.org"  # she logs in with it
    page, api = _as(bo)
    players = {k["name"]: k["players"] for k in api.get(f"/api/campaigns/{new_campaign.pk}/kingdoms/").json()}
    assert players["Ostmark"] == ["Player of Ostmark"] and players["Zhufbar"] == ["Player of Zhufbar"]
    campaign_page = page.get(f"/campaigns/{new_campaign.pk}/").content.decode()
    assert "Player of Ostmark" in campaign_page
    for text in (campaign_page, str(api.get(f"/api/campaigns/{new_campaign.pk}/").json())):
        assert "ann.smith" not in text and "@example.org" not in text


def test_the_invitation_s_set_password_page_asks_for_the_display_name(new_campaign, invited):
    ann = invited["ann.smith@example.org"]
    link = invitation_link(ann).split("://", 1)[1].split("/", 1)[1]
    client = Client()
    form_page = client.get(f"/{link}", follow=True)
    assert 'name="display_name"' in form_page.content.decode()
    url = form_page.redirect_chain[-1][0] if form_page.redirect_chain else f"/{link}"
    refused = client.post(url, {"display_name": "ann@home", "new_password1": PASSWORD, "new_password2": PASSWORD})
    assert refused.status_code == 200 and "A display name has no &#x27;@&#x27;" in refused.content.decode()
    done = client.post(url, {"display_name": "Ann the Bold", "new_password1": PASSWORD, "new_password2": PASSWORD})
    assert done.status_code == 302
    ann.refresh_from_db()
    assert ann.first_name == "Ann the Bold" and ann.check_password(PASSWORD)
    _, api = _as(invited["bo@example.org"])
    kingdoms = api.get(f"/api/campaigns/{new_campaign.pk}/kingdoms/").json()
    assert {k["name"]: k["players"] for k in kingdoms}["Ostmark"] == ["Ann the Bold"]


def test_a_player_chooses_a_display_name_without_an_address(new_campaign, invited):
    bo = invited["bo@example.org"]
    page, _ = _as(bo)
    refused = page.post("/account/name/", {"display_name": "bo@example.org"})
    assert refused.status_code == 400 and "choose a name, not an address" in refused.content.decode()
    bo.refresh_from_db()
    assert bo.first_name == "Player of Zhufbar"
    assert page.post("/account/name/", {"display_name": "Bo"}).status_code == 302
    bo.refresh_from_db()
    assert bo.first_name == "Bo"


@pytest.fixture
def two_organizers(db):
    """Two staff organizers (not site administrators), a campaign each, and a site administrator."""
    User = get_user_model()
    users = {
        name: User.objects.create_user(username=name, email=f"{name}@example.org", password=PASSWORD, is_staff=True)
        for name in ("olga", "otto")
    }
    users["root"] = User.objects.create_superuser(username="root", email="root@example.org", password=PASSWORD)
    campaigns = {
        name: campaign_services.campaign_create(
            name=f"{name.title()}'s War",
            organizer=users[name],
            player_count=2,
            time_zone="Europe/London",
            map_spec=load_default_map(),
        )
        for name in ("olga", "otto")
    }
    for name, campaign in campaigns.items():
        campaign_services.player_invite(
            campaign=campaign, email=f"{name}-player@example.org", kingdom_name=f"{name} land", army_type="empire"
        )
    return users, campaigns


def test_each_organizer_sees_and_manages_only_their_own_campaigns_in_the_admin(two_organizers):
    users, campaigns = two_organizers
    olga = Client()
    olga.force_login(users["olga"])
    assert olga.get("/admin/").status_code == 200
    listing = olga.get("/admin/kingdoms/campaign/")
    assert listing.status_code == 200
    text = listing.content.decode()
    assert "Olga&#x27;s War" in text and "Otto" not in text
    own, other = campaigns["olga"], campaigns["otto"]
    assert olga.get(f"/admin/kingdoms/campaign/{own.pk}/change/").status_code == 200
    assert olga.get(f"/admin/kingdoms/campaign/{other.pk}/change/").status_code == 302  # "doesn't exist"
    kingdoms = olga.get("/admin/kingdoms/kingdom/").content.decode()
    assert "olga land" in kingdoms and "otto land" not in kingdoms
    other_kingdom = Kingdom.objects.get(campaign=other, name="otto land")
    assert olga.post(f"/admin/kingdoms/kingdom/{other_kingdom.pk}/delete/", {"post": "yes"}).status_code == 302
    assert Kingdom.objects.filter(pk=other_kingdom.pk).exists()
    # The choices of a form are hers too: no other campaign's name, no other player's address.
    province = olga.get(f"/admin/kingdoms/province/{own.provinces.first().pk}/change/").content.decode()
    assert "Otto" not in province
    own_kingdom = Kingdom.objects.get(campaign=own, name="olga land")
    kingdom_form = olga.get(f"/admin/kingdoms/kingdom/{own_kingdom.pk}/change/")
    assert "otto-player@example.org" not in kingdom_form.content.decode()
    # Nor the site's accounts.
    assert olga.get("/admin/auth/user/").status_code == 403
    root = Client()
    root.force_login(users["root"])
    everything = root.get("/admin/kingdoms/campaign/").content.decode()
    assert "Olga&#x27;s War" in everything and "Otto&#x27;s War" in everything


def test_a_site_administrator_is_not_the_organizer_of_every_campaign(two_organizers):
    users, campaigns = two_organizers
    _, root = _as(users["root"])
    assert root.get("/api/campaigns/").json() == []
    assert root.get(f"/api/campaigns/{campaigns['olga'].pk}/").status_code == 404
    kingdom = Kingdom.objects.get(campaign=campaigns["olga"], name="olga land")
    assert root.get(f"/api/kingdoms/{kingdom.pk}/").status_code == 404
    _, otto = _as(users["otto"])
    assert [c["name"] for c in otto.get("/api/campaigns/").json()] == ["Otto's War"]
    assert otto.get(f"/api/kingdoms/{kingdom.pk}/").status_code == 404
    assert Campaign.objects.count() == 2


def test_a_player_cannot_take_the_display_name_another_account_shows(demo_campaign, k):
    """A player is shown to the others by a display name (issue 19): Ostland's player (alice) cannot
    take Da Red Fang's player's name (bob, his login: he chose none) nor the organizer's, in any case or
    spacing; the page says so and nothing is saved. Her own name, another way written, is hers."""
    alice = get_user_model().objects.get(username="alice")
    shown = alice.first_name
    page, api = _as(alice)
    bob = k["Da Red Fang"].players.get()
    taken = display_name(bob)
    for name in (taken, f"  {taken.upper()} ", " ".join(taken), "organizer", "Organizer"):
        refused = page.post("/account/name/", {"display_name": name})
        assert refused.status_code == 400, name
        text = html.unescape(refused.content.decode())
        assert f"Another account is already shown as {name.strip()}" in text, name
        alice.refresh_from_db()
        assert alice.first_name == shown
    players = {row["name"]: row["players"] for row in api.get(f"/api/campaigns/{demo_campaign.pk}/kingdoms/").json()}
    assert players["Ostland"] != players["Da Red Fang"]
    assert page.post("/account/name/", {"display_name": display_name(alice).upper()}).status_code == 302
    assert page.post("/account/name/", {"display_name": "Alice the Bold"}).status_code == 302
    alice.refresh_from_db()
    assert alice.first_name == "Alice the Bold"


def test_the_organizer_cannot_invite_a_new_player_under_a_name_another_account_shows(new_campaign, invited):
    """The invitation's display name is what the others see of the new player until they choose:
    not a name another account already shows (here the first invited player's)."""
    with pytest.raises(DomainError) as refused:
        campaign_services.player_invite(
            campaign=new_campaign,
            email="cy@example.org",
            kingdom_name="Averland",
            army_type="empire",
            display_name="player of OSTMARK",
        )
    assert "Another account is already shown as player of OSTMARK" in refused.value.messages[0]
    assert not Kingdom.objects.filter(name="Averland").exists()


def test_an_invited_player_s_derived_name_is_no_other_account_s(new_campaign, invited):
    """Two campaigns may each have an Ostmark: the second player invited to one, with no name given, is
    shown as "Player of Ostmark 2", never as the first one is."""
    other = campaign_services.campaign_create(
        name="Second War",
        organizer=new_campaign.organizer,
        player_count=4,
        time_zone="Europe/London",
        map_spec=load_default_map(),
    )
    campaign_services.player_invite(campaign=other, email="cy@example.org", kingdom_name="Ostmark", army_type="empire")
    names = {u.email: u.first_name for u in get_user_model().objects.filter(email__endswith="@example.org")}
    assert names["ann.smith@example.org"] == "Player of Ostmark"
    assert names["cy@example.org"] == "Player of Ostmark 2"
