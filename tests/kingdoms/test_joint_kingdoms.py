"""Joint kingdoms through the site, on the demo campaign (turn 1 open for orders): the organizer
adds a co-player to Ostland (page and API), who is invited by email and then sees and files for
Ostland like Alice, its player; a co-player declares independence with the provinces, city and army
Ostland gives, as a new kingdom (page and API), told in both kingdoms' reports and the bulletin.
Bad input is refused whole and changes nothing. Rulebook: Player Issues, "Player joins
mid-campaign / joint kingdoms"; decisions 224-228."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from kingdoms.models import ArmoryItem, Army, Campaign, Character, Kingdom, Province
from orders.models import OrderSheet
from outbox.models import Email
from reports.services.reports import bulletin_context, kingdom_report_context
from tests.battle_setup import army_with_list
from tests.clients import api_as, error_details, pages_as
from turns.models import TurnEvent

ERIN = "erin@example.org"


def _lines(context) -> list[str]:
    return [e.text for _, rows in context["phases"] for e in rows]


@pytest.fixture
def erin(k):
    """Erin joins Ostland through the organizer's page (she logs in with her address)."""
    response = pages_as("organizer").post(f"/kingdoms/{k['Ostland'].pk}/co-players/", {"email": ERIN})
    assert response.status_code == 302
    return get_user_model().objects.get(email=ERIN)


def test_the_organizer_adds_a_co_player_who_sees_and_files_for_the_kingdom(turn, k, erin):
    ostland = k["Ostland"]
    assert set(ostland.players.values_list("username", flat=True)) == {"alice", ERIN}
    (invitation,) = Email.objects.filter(kind=Email.Kind.INVITATION, to=[ERIN])
    assert "You will share the kingdom of Ostland (Empire) with its players: a joint kingdom." in invitation.text
    assert "/accounts/reset/" in invitation.text
    # Erin sees Ostland's private pages and files its order sheet, as Alice would.
    assert api_as(ERIN).get(f"/api/kingdoms/{ostland.pk}/").json()["treasury"] == ostland.treasury_balance()
    assert "Elector Count Valten" in pages_as(ERIN).get(f"/kingdoms/{ostland.pk}/").content.decode()
    holds = [{"army": a.pk, "kind": "hold"} for a in ostland.armies.filter(kind="field")]
    filed = api_as(ERIN).put(f"/api/turns/{turn.pk}/sheet/", {"orders": holds, "submit": True}, format="json")
    assert filed.status_code == 200, filed.json()
    assert OrderSheet.objects.get(turn=turn, kingdom=ostland).status == OrderSheet.Status.SUBMITTED
    # Secrecy: another kingdom's stays hidden from her; the kingdom's page lists its players.
    assert api_as(ERIN).get(f"/api/kingdoms/{k['Karak Dumn'].pk}/").status_code == 404
    public = api_as("bob").get(f"/api/campaigns/{ostland.campaign_id}/kingdoms/").json()
    (row,) = [r for r in public if r["name"] == "Ostland"]
    assert len(row["players"]) == 2 and ERIN not in row["players"]  # names, never the address


def test_a_co_player_is_refused_whole_when_they_play_another_kingdom_or_for_the_ancient_dead(k):
    refused = api_as("organizer").post(
        f"/api/kingdoms/{k['Ostland'].pk}/co-players/", {"email": "carol@briternia.local"}, format="json"
    )
    assert refused.status_code == 400
    assert error_details(refused) == [
        "carol@briternia.local already plays Karak Dumn in this campaign: a person plays one kingdom of it."
    ]
    ancient = api_as("organizer").post(
        f"/api/kingdoms/{k['The Ancient Dead'].pk}/co-players/", {"email": "x@example.org"}, format="json"
    )
    assert ancient.status_code == 400 and "they take no co-player" in error_details(ancient)[0]
    assert not get_user_model().objects.filter(email="x@example.org").exists()
    added = api_as("organizer").post(f"/api/kingdoms/{k['Ostland'].pk}/co-players/", {"email": ERIN}, format="json")
    assert added.status_code == 201 and len(added.json()["players"]) == 2


@pytest.fixture
def wardens(demo_campaign, k):
    """Ostland's Wardens in Hartwood (62), led by Captain Aldric, a General bearing an item."""
    ostland = k["Ostland"]
    army = army_with_list(
        ostland, "Wardens", Province.objects.get(campaign=demo_campaign, number=62), [("Halberdiers", 60, 6)]
    )
    captain = army.units.create(name="Captain Aldric", category="character", models_count=1, points_per_model=55)
    Character.objects.create(unit=captain, kingdom=ostland, rank="hero", role="general")
    ArmoryItem.objects.create(kingdom=ostland, name="Sword of Hartwood", points=25, bearer=captain)
    return army


def test_a_co_player_declares_independence_with_a_city_a_province_and_an_army(turn, k, erin, wardens):
    """Ostland gives Eldenhall (61, a city) and Hartwood (62) with the Wardens to Erin, who declares
    Eldenmark independent: Eldenhall is its capitol, Captain Aldric its Warlord; Erin plays
    Eldenmark and no longer Ostland; both reports and the bulletin tell it."""
    ostland = k["Ostland"]
    page = pages_as("organizer").get(f"/kingdoms/{ostland.pk}/independence/").content.decode()
    assert 'value="61"' in page and 'value="71"' not in page  # the capitol is not offered
    assert f'value="{wardens.pk}"' in page and "1st Army" not in page  # nor the Warlord's army
    response = pages_as("organizer").post(
        f"/kingdoms/{ostland.pk}/independence/",
        {"co_player": str(erin.pk), "name": "Eldenmark", "provinces": ["61", "62"], "armies": [str(wardens.pk)]},
    )
    assert response.status_code == 302
    new = Kingdom.objects.get(campaign=ostland.campaign, name="Eldenmark")
    assert response["Location"] == f"/kingdoms/{new.pk}/"
    assert (new.army_type, new.capitol.number, new.treasury_balance()) == ("empire", 61, 0)
    assert list(new.players.all()) == [erin] and list(ostland.players.values_list("username", flat=True)) == ["alice"]
    assert sorted(new.provinces.values_list("number", flat=True)) == [61, 62]
    assert sorted(ostland.provinces.values_list("number", flat=True)) == [71]
    wardens.refresh_from_db()
    assert wardens.kingdom == new
    aldric = Character.objects.get(unit__name="Captain Aldric")
    assert (aldric.kingdom, aldric.role) == (new, "warlord")
    assert ArmoryItem.objects.get(name="Sword of Hartwood").kingdom == new
    assert Campaign.objects.get(pk=ostland.campaign_id).player_count == 5
    # Erin now plays Eldenmark: Ostland's pages are closed to her, Eldenmark's open.
    assert api_as(ERIN).get(f"/api/kingdoms/{ostland.pk}/").status_code == 404
    assert api_as(ERIN).get(f"/api/kingdoms/{new.pk}/").status_code == 200
    assert api_as("alice").get(f"/api/kingdoms/{new.pk}/").status_code == 404
    # The open turn's log: a line in each kingdom's report, and the bulletin.
    told = "Eldenmark declares independence from Ostland with 61 Eldenhall, 62 Hartwood and Wardens; its capitol is "
    assert any(line.startswith(told) for line in _lines(kingdom_report_context(turn=turn, kingdom=new)))
    assert (
        "Ostland gives 61 Eldenhall, 62 Hartwood and Wardens to Eldenmark, which declares its independence "
        "(Joint kingdoms)." in _lines(kingdom_report_context(turn=turn, kingdom=ostland))
    )
    assert "Eldenmark declares independence from Ostland (Joint kingdoms)." in bulletin_context(turn=turn)["changes"]
    assert not any("Ostland gives" in line for line in bulletin_context(turn=turn)["changes"])


def test_independence_is_refused_whole_with_the_reasons(turn, k, erin, wardens):
    ostland = k["Ostland"]
    first = ostland.armies.get(name="1st Army")
    url = f"/api/kingdoms/{ostland.pk}/independence/"
    refused = api_as("organizer").post(
        url, {"co_player": erin.pk, "name": "Karak Dumn", "provinces": [62, 71], "armies": [first.pk]}, format="json"
    )
    assert refused.status_code == 400
    assert error_details(refused) == ["There is already a kingdom called Karak Dumn in this campaign."]
    refused = api_as("organizer").post(
        url, {"co_player": erin.pk, "name": "Eldenmark", "provinces": [61, 71], "armies": [first.pk]}, format="json"
    )
    assert refused.status_code == 400
    assert error_details(refused) == [
        "71 Tidewater is Ostland's capitol: the parent kingdom keeps it (Joint kingdoms; decision 226).",
        "1st Army carries Ostland's Warlord, who stays with the parent kingdom (Warlord; decision 227).",
    ]
    alice = get_user_model().objects.get(username="alice")
    lonely = api_as("organizer").post(
        f"/api/kingdoms/{k['Karak Dumn'].pk}/independence/",
        {"co_player": alice.pk, "name": "Eldenmark", "provinces": [8]},
        format="json",
    )
    assert lonely.status_code == 400 and "is not a co-player of Karak Dumn" in error_details(lonely)[0]
    # Once Ostland's orders are in, the gift waits for the next turn (decision 225).
    holds = [{"army": a.pk, "kind": "hold"} for a in ostland.armies.filter(kind="field")]
    assert (
        api_as("alice")
        .put(f"/api/turns/{turn.pk}/sheet/", {"orders": holds, "submit": True}, format="json")
        .status_code
        == 200
    )
    late = api_as("organizer").post(
        url, {"co_player": erin.pk, "name": "Eldenmark", "provinces": [61, 62], "armies": [wardens.pk]}, format="json"
    )
    assert late.status_code == 400 and "orders for turn 1 are in" in error_details(late)[0]
    # Nothing changed.
    assert not Kingdom.objects.filter(name="Eldenmark").exists()
    assert sorted(ostland.provinces.values_list("number", flat=True)) == [61, 62, 71]
    assert Army.objects.get(pk=wardens.pk).kingdom == ostland
    assert not TurnEvent.objects.filter(code__in=["kingdom-independent", "independence-given"]).exists()


def _erin_files_ostlands_sheet(turn, ostland, erin):  # type: ignore[no-untyped-def]
    """Erin, Ostland's co-player, opens a session and an API token and files Ostland's sheet (every
    army holds) through the API: (her API client, her pages client, the orders filed)."""
    from rest_framework.authtoken.models import Token
    from rest_framework.test import APIClient

    holds = [{"army": a.pk, "kind": "hold"} for a in ostland.armies.filter(kind="field")]
    erin_api = APIClient()
    erin_api.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.get_or_create(user=erin)[0].key}")
    filed = erin_api.put(f"/api/turns/{turn.pk}/sheet/", {"orders": holds, "submit": True}, format="json")
    assert filed.status_code == 200
    erin_pages = pages_as(ERIN)
    assert erin_pages.get(f"/kingdoms/{ostland.pk}/").status_code == 200
    return erin_api, erin_pages, holds


def test_the_organizer_removes_a_co_player_who_loses_the_kingdom_at_once(turn, k, erin):
    """Joint kingdoms, decision 229: the organizer removes Erin from Ostland on its page (the button
    asks first). Her session and her API token, both opened before, are refused Ostland's pages,
    API and order sheet from that request on; she is told by email; what she filed stands."""
    ostland = k["Ostland"]
    erin_api, erin_pages, holds = _erin_files_ostlands_sheet(turn, ostland, erin)

    page = pages_as("organizer").get(f"/kingdoms/{ostland.pk}/").content.decode()
    assert f'action="/kingdoms/{ostland.pk}/co-players/{erin.pk}/remove/" data-confirm="Remove ' in page
    response = pages_as("organizer").post(f"/kingdoms/{ostland.pk}/co-players/{erin.pk}/remove/", follow=True)
    assert "no longer plays Ostland; they are told by email." in response.content.decode()

    assert list(ostland.players.values_list("username", flat=True)) == ["alice"]
    assert erin_pages.get(f"/kingdoms/{ostland.pk}/").status_code == 404
    assert erin_pages.get(f"/turns/{turn.pk}/orders/{ostland.pk}/").status_code == 404
    assert erin_api.get(f"/api/kingdoms/{ostland.pk}/").status_code == 404
    assert erin_api.get(f"/api/kingdoms/{ostland.pk}/ledger/").status_code == 404
    refiled = erin_api.put(f"/api/turns/{turn.pk}/sheet/", {"orders": holds, "submit": True}, format="json")
    assert refiled.status_code == 404  # she plays no kingdom of the campaign now
    assert OrderSheet.objects.get(turn=turn, kingdom=ostland).status == OrderSheet.Status.SUBMITTED
    (told,) = Email.objects.filter(kind=Email.Kind.CO_PLAYER_REMOVED)
    assert told.to == [ERIN] and "removed you from the players of Ostland" in told.text
    # Alice plays on as before.
    assert pages_as("alice").get(f"/kingdoms/{ostland.pk}/").status_code == 200


def test_a_kingdoms_last_player_or_a_stranger_is_not_removed(k, erin):
    """Decision 229: a kingdom keeps one player (the leader page marks the last one out); only the
    organizer removes; nothing changes on a refusal."""
    ostland = k["Ostland"]
    bob = get_user_model().objects.get(username="bob")
    url = f"/kingdoms/{ostland.pk}/co-players/{bob.pk}/remove/"
    refused = pages_as("organizer").post(url, follow=True).content.decode()
    assert "That person is not a player of Ostland: there is nobody to remove." in refused
    assert pages_as("alice").post(f"/kingdoms/{ostland.pk}/co-players/{erin.pk}/remove/").status_code == 404
    assert pages_as("organizer").post(f"/kingdoms/{ostland.pk}/co-players/{erin.pk}/remove/").status_code == 302
    alice = get_user_model().objects.get(username="alice")
    last = pages_as("organizer").post(f"/kingdoms/{ostland.pk}/co-players/{alice.pk}/remove/", follow=True)
    assert "is Ostland&#x27;s only player: a kingdom keeps one." in last.content.decode()
    assert list(ostland.players.values_list("username", flat=True)) == ["alice"]
    assert Email.objects.filter(kind=Email.Kind.CO_PLAYER_REMOVED).count() == 1
    assert 'id="co-players"' not in pages_as("organizer").get(f"/kingdoms/{ostland.pk}/").content.decode()


def test_the_organizer_removes_a_co_player_through_the_api_whose_token_is_refused_at_once(turn, k, erin):
    """Joint kingdoms, decision 229, through the API: the organizer lists Ostland's players with their
    ids and removes Erin (DELETE); her API token and her session, opened before, are refused
    Ostland from the next request on; she is told by email; what she filed stands."""
    ostland = k["Ostland"]
    erin_api, erin_pages, holds = _erin_files_ostlands_sheet(turn, ostland, erin)

    listed = api_as("organizer").get(f"/api/kingdoms/{ostland.pk}/co-players/").json()
    alice = get_user_model().objects.get(username="alice")
    assert [p["id"] for p in listed] == [alice.pk, erin.pk]
    removed = api_as("organizer").delete(f"/api/kingdoms/{ostland.pk}/co-players/{erin.pk}/")
    assert removed.status_code == 200
    assert removed.json()["players"] == [p["name"] for p in listed if p["id"] == alice.pk]

    assert list(ostland.players.values_list("username", flat=True)) == ["alice"]
    assert erin_api.get(f"/api/kingdoms/{ostland.pk}/").status_code == 404
    assert erin_api.get(f"/api/kingdoms/{ostland.pk}/armies/").status_code == 404
    refiled = erin_api.put(f"/api/turns/{turn.pk}/sheet/", {"orders": holds, "submit": True}, format="json")
    assert refiled.status_code == 404
    assert erin_pages.get(f"/kingdoms/{ostland.pk}/").status_code == 404
    assert OrderSheet.objects.get(turn=turn, kingdom=ostland).status == OrderSheet.Status.SUBMITTED
    (told,) = Email.objects.filter(kind=Email.Kind.CO_PLAYER_REMOVED)
    assert told.to == [ERIN] and "removed you from the players of Ostland" in told.text
    assert "removed you from the players of <strong>Ostland</strong>" in told.html
    assert api_as("alice").get(f"/api/kingdoms/{ostland.pk}/").status_code == 200


def test_a_player_may_not_remove_a_co_player_through_the_api_nor_the_last_one_be_removed(k, erin):
    """Decision 229: only the organizer removes (a player of the kingdom, even the one removed, is
    answered 404, as for a kingdom they may not see the players of); a kingdom keeps one player and
    a stranger is nobody to remove (400, the one error shape, naming the rule); nothing changes."""
    ostland = k["Ostland"]
    alice = get_user_model().objects.get(username="alice")
    url = f"/api/kingdoms/{ostland.pk}/co-players/{erin.pk}/"
    for who in ("alice", ERIN, "bob"):
        assert api_as(who).delete(url).status_code == 404
        assert api_as(who).get(f"/api/kingdoms/{ostland.pk}/co-players/").status_code == 404
    bob = get_user_model().objects.get(username="bob")
    stranger = api_as("organizer").delete(f"/api/kingdoms/{ostland.pk}/co-players/{bob.pk}/")
    assert stranger.status_code == 400
    assert error_details(stranger) == ["That person is not a player of Ostland: there is nobody to remove."]
    assert list(ostland.players.order_by("id").values_list("username", flat=True)) == ["alice", ERIN]
    assert api_as("organizer").delete(url).status_code == 200
    last = api_as("organizer").delete(f"/api/kingdoms/{ostland.pk}/co-players/{alice.pk}/")
    assert last.status_code == 400
    (detail,) = error_details(last)
    assert "is Ostland's only player: a kingdom keeps one." in detail and "(Rogue Kingdom)" in detail
    assert list(ostland.players.values_list("username", flat=True)) == ["alice"]
    assert Email.objects.filter(kind=Email.Kind.CO_PLAYER_REMOVED).count() == 1


def test_the_independence_page_names_what_is_missing_or_no_longer_offered(turn, k, erin, wardens):
    """Joint kingdoms, decision 230: the page's form says what is wrong with the input in sentences
    (no co-player chosen, no name, a province or army the page did not offer) and changes nothing."""
    ostland = k["Ostland"]
    url = f"/kingdoms/{ostland.pk}/independence/"
    refused = pages_as("organizer").post(url, {"co_player": "", "name": " ", "provinces": ["61"]})
    assert refused.status_code == 400
    page = refused.content.decode()
    assert "Choose the co-player of Ostland who declares independence." in page
    assert "Name the new kingdom (at most 100 characters)." in page
    assert 'value="61" id="id_provinces_0" checked' in page  # what was ticked stays ticked
    stale = pages_as("organizer").post(
        url, {"co_player": str(erin.pk), "name": "Eldenmark", "provinces": ["71", "62"], "armies": ["999999"]}
    )
    assert stale.status_code == 400
    page = stale.content.decode()
    assert "Province 71 is not one Ostland can give now (its capitol stays): reload the page." in page
    assert "Army 999999 is not one Ostland can give now (the Warlord&#x27;s stays): reload the page." in page
    assert not Kingdom.objects.filter(name="Eldenmark").exists()
    assert list(ostland.players.values_list("email", flat=True)).count(ERIN) == 1


# Bad input (issue 33): one address, no line break; each province and army given once.
@pytest.mark.parametrize("email", ["a@x.org\r\nBcc: evil@x.org", "a@x.org,b@y.org", "a@x.org\nb@y.org", "a b@x.org"])
def test_a_co_player_s_address_is_one_address_on_the_api_and_the_page(k, email):
    ostland = k["Ostland"]
    players, users, emails = set(ostland.players.all()), get_user_model().objects.count(), Email.objects.count()
    refused = api_as("organizer").post(f"/api/kingdoms/{ostland.pk}/co-players/", {"email": email}, format="json")
    assert refused.status_code == 400
    assert error_details(refused)
    page = pages_as("organizer").post(f"/kingdoms/{ostland.pk}/co-players/", {"email": email})
    assert page.status_code in (302, 400)
    assert set(ostland.players.all()) == players
    assert get_user_model().objects.count() == users and Email.objects.count() == emails


def test_a_province_or_an_army_given_twice_is_refused_whole(turn, k, erin, wardens):
    ostland = k["Ostland"]
    provinces = sorted(ostland.provinces.values_list("number", flat=True))
    url = f"/api/kingdoms/{ostland.pk}/independence/"
    body = {"co_player": erin.pk, "name": "Eldenmark", "provinces": [61, 61], "armies": [wardens.pk, wardens.pk]}
    refused = api_as("organizer").post(url, body, format="json")
    assert refused.status_code == 400
    assert error_details(refused) == [
        "Province 61 is given twice: name each once.",
        f"Army {wardens.pk} is given twice: name each once.",
    ]
    assert not Kingdom.objects.filter(name="Eldenmark").exists()
    assert sorted(ostland.provinces.values_list("number", flat=True)) == provinces
