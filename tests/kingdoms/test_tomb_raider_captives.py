"""Captured Tomb Raiders on the site (decisions 453, 491 and 492): the Tomb Raiders page and its API
list the captives a kingdom holds and its own models held by another, to those two kingdoms only; a
captive released at the resolution goes back to its owner's force with its release
(kingdoms.services.rival_missions.rival_missions_write -> kingdoms.services.captives). The captives
are rows made directly, as a failed mission's aftermath would leave them. The campaign:
`invited_campaign`'s four kingdoms (Kingdom 1 Empire, Kingdom 2 Orcs and Goblins, Kingdom 3 Dwarfs)."""

from __future__ import annotations

from dataclasses import replace

import pytest
from django.contrib.auth import get_user_model

from kingdoms.models import Campaign, CapturedRaider, Kingdom, TombRaiderEntry
from kingdoms.services.rival_missions import captives_load, rival_missions_write
from kingdoms.services.tomb_raiders import tomb_raider_force_save
from rulebook.ruins_and_tomb_raiders.captives import captive_record
from rulebook.ruins_and_tomb_raiders.force import RaiderEntry as E
from rulebook.ruins_and_tomb_raiders.force import Role
from rulebook.ruins_and_tomb_raiders.rival_missions import CaptiveFate
from rulebook.world import World


@pytest.fixture
def campaign(invited_campaign) -> Campaign:
    Campaign.objects.filter(pk=invited_campaign.pk).update(status=Campaign.Status.RUNNING, current_turn=4)
    invited_campaign.refresh_from_db()
    return invited_campaign


def kingdom(campaign: Campaign, number: int) -> Kingdom:
    return Kingdom.objects.get(campaign=campaign, name=f"Kingdom {number}")


def user(name: str):  # type: ignore[no-untyped-def]
    return get_user_model().objects.get(username=name)


CAPTAIN = E("Captain Ulric", 1, 20, role=Role.CAPTAIN, command="champion", unit_type="Swordsmen", leadership=7)
SWORDSMEN = E("Swordsmen", 8, 10)
HALBERDIER = E("Halberdier Kurt", 1, 15)


@pytest.fixture
def captives(campaign) -> dict[str, CapturedRaider]:
    """Kingdom 1 (Empire) lost one of its Swordsmen to Kingdom 2 on turn 2 (held) and one Halberdier to
    Kingdom 2 on turn 1 (executed on turn 3); Kingdom 1 holds one Orc of Kingdom 2's since turn 3."""
    k1, k2 = kingdom(campaign, 1), kingdom(campaign, 2)
    tomb_raider_force_save(kingdom=k1, entries=[CAPTAIN, replace(SWORDSMEN, models=7)], saved_by=user("p1"))

    def row(captor: Kingdom, owner: Kingdom, entry: E, turn: int, **fate: object) -> CapturedRaider:
        return CapturedRaider.objects.create(
            campaign=campaign,
            captor=captor,
            owner=owner,
            entry=entry.name,
            record=captive_record(entry),
            captured_turn=turn,
            **fate,
        )

    return {
        "swordsman": row(k2, k1, SWORDSMEN, 2),
        "halberdier": row(k2, k1, HALBERDIER, 1, fate=CaptiveFate.EXECUTED.value, fate_turn=3),
        "orc": row(k1, k2, E("Orc Boyz", 1, 6), 3),
    }


def test_both_kingdoms_see_the_captive_on_the_tomb_raiders_api(api_client_for, campaign, captives):
    """Decision 491: the captor lists it as held (with its id for the sheet), the owner as its own model
    held by the captor; each since the turn it was taken, with its fate."""
    k1, k2 = kingdom(campaign, 1), kingdom(campaign, 2)
    mine = api_client_for(user("p1")).get(f"/api/kingdoms/{k1.pk}/tomb-raiders/").json()["captives"]
    assert [
        (c["entry"], c["held"], c["captor"], c["owner"], c["captured_turn"], c["fate"], c["fate_turn"]) for c in mine
    ] == [
        ("Halberdier Kurt", False, "Kingdom 2", "Kingdom 1", 1, "executed", 3),
        ("Swordsmen", False, "Kingdom 2", "Kingdom 1", 2, "held", None),
        ("Orc Boyz", True, "Kingdom 1", "Kingdom 2", 3, "held", None),
    ]
    theirs = api_client_for(user("p2")).get(f"/api/kingdoms/{k2.pk}/tomb-raiders/").json()["captives"]
    assert [(c["id"], c["held"]) for c in theirs] == [
        (captives["halberdier"].pk, True),
        (captives["swordsman"].pk, True),
        (captives["orc"].pk, False),
    ]
    organizer = api_client_for(campaign.organizer).get(f"/api/kingdoms/{k1.pk}/tomb-raiders/")
    assert len(organizer.json()["captives"]) == 3


def test_both_kingdoms_see_the_captive_on_the_tomb_raiders_page_with_the_ransom_by_transfer(client, campaign, captives):
    """Decisions 453 and 491: the page's Captives section, and how a fate and a ransom are given."""
    k1, k2 = kingdom(campaign, 1), kingdom(campaign, 2)
    client.force_login(user("p2"))
    page = client.get(f"/kingdoms/{k2.pk}/tomb-raiders/").content.decode()
    swordsman = captives["swordsman"].pk
    assert f"One model of Swordsmen (captive {swordsman})" in page
    assert "executed on turn 3" in page
    assert "the owner pays it with a Transfer of Gold on its order sheet, and the captor releases the model" in page
    client.force_login(user("p1"))
    page = client.get(f"/kingdoms/{k1.pk}/tomb-raiders/").content.decode()
    assert "Kingdom 1 (yours)" in page and f"(captive {swordsman})" not in page  # the id is the captor's to use
    assert f"One model of Orc Boyz (captive {captives['orc'].pk})" in page


def test_a_third_kingdom_sees_no_captive_on_any_endpoint(client, api_client_for, campaign, captives):
    """Secrecy (decision 491), endpoint by endpoint: Kingdom 3's own page and API list none; the two
    kingdoms' pages and APIs are not found; the campaign's public pages and payloads name none."""
    k1, k2, k3 = kingdom(campaign, 1), kingdom(campaign, 2), kingdom(campaign, 3)
    secrets = ("Orc Boyz", "Halberdier Kurt")
    api = api_client_for(user("p3"))
    own = api.get(f"/api/kingdoms/{k3.pk}/tomb-raiders/")
    assert own.status_code == 200 and own.json()["captives"] == []
    for other in (k1, k2):
        assert api.get(f"/api/kingdoms/{other.pk}/tomb-raiders/").status_code == 404
    for path in ("", "map/", "kingdoms/"):
        body = api.get(f"/api/campaigns/{campaign.pk}/{path}").content.decode()
        assert not any(s in body for s in secrets), path
    client.force_login(user("p3"))
    page = client.get(f"/kingdoms/{k3.pk}/tomb-raiders/").content.decode()
    assert 'id="no-captives"' in page and not any(s in page for s in secrets)
    for other in (k1, k2):
        assert client.get(f"/kingdoms/{other.pk}/tomb-raiders/").status_code == 404
    assert not any(s in client.get(f"/campaigns/{campaign.pk}/").content.decode() for s in secrets)


def held(campaign: Campaign) -> World:
    """The world as a phase finds it, for the captives alone (the rest is not written here)."""
    empty: dict = {}
    return World(4, 4, empty, empty, empty, empty, empty, captives=captives_load(campaign))


def entries_of(k: Kingdom) -> list[tuple[str, int]]:
    return list(TombRaiderEntry.objects.filter(force__kingdom=k).values_list("name", "models_count"))


def test_a_captive_released_goes_back_to_its_owner_s_force_with_its_release(campaign, captives):
    """Decision 492: the world's writer records the fate and gives the model back through the forces'
    writer: one more in the entry of its name; an entry gone since comes back from the record. No change
    of the player's: the points added and the turn of the last change stay."""
    k1 = kingdom(campaign, 1)
    force = k1.tomb_raiders
    before_change = (force.changed_turn, force.points_added)
    TombRaiderEntry.objects.filter(force=force, name="Swordsmen").delete()  # all fell since
    before = held(campaign)
    swordsman = captives["swordsman"].pk
    after = replace(
        before,
        captives={
            **before.captives,
            swordsman: replace(before.captives[swordsman], fate=CaptiveFate.RELEASED, fate_turn=4),
        },
    )
    rival_missions_write(campaign=campaign, before=before, after=after, army_ids={})

    row = CapturedRaider.objects.get(pk=swordsman)
    assert (row.fate, row.fate_turn) == ("released", 4)
    assert entries_of(k1) == [("Captain Ulric", 1), ("Swordsmen", 1)]
    force.refresh_from_db()
    assert (force.changed_turn, force.points_added) == before_change
    assert set(captives_load(campaign)) == {captives["orc"].pk}  # held ones only

    # Released again by a later write? It is no longer held: nothing more comes back.
    rival_missions_write(campaign=campaign, before=after, after=after, army_ids={})
    assert entries_of(k1) == [("Captain Ulric", 1), ("Swordsmen", 1)]


def test_a_captive_executed_never_comes_back(campaign, captives):
    k1, k2 = kingdom(campaign, 1), kingdom(campaign, 2)
    before = held(campaign)
    orc = captives["orc"].pk
    after = replace(
        before, captives={**before.captives, orc: replace(before.captives[orc], fate=CaptiveFate.EXECUTED, fate_turn=4)}
    )
    rival_missions_write(campaign=campaign, before=before, after=after, army_ids={})
    assert CapturedRaider.objects.get(pk=orc).fate == "executed"
    assert entries_of(k2) == [] and entries_of(k1) == [("Captain Ulric", 1), ("Swordsmen", 7)]
