"""A kingdom's Tomb Raider force (issue 31, the warband): saved by kingdoms.services.tomb_raiders
under the pure check (rulebook.ruins_and_tomb_raiders.force), read through the selector that owns its
visibility, on the API and the page. The campaign: `invited_campaign`'s four kingdoms (p4's Kingdom 4
is High Elves), moved to turn 1 of a running campaign."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone

from briternia.errors import DomainError
from kingdoms.models import Campaign, Kingdom, TombRaiderEntry, TombRaiderForce
from kingdoms.services.tomb_raiders import tomb_raider_force_save
from rulebook.ruins_and_tomb_raiders.force import SAMPLE_HIGH_ELVES, Role, TroopCategory
from rulebook.ruins_and_tomb_raiders.force import RaiderEntry as E
from turns.models import Turn


@pytest.fixture
def campaign(invited_campaign) -> Campaign:
    Campaign.objects.filter(pk=invited_campaign.pk).update(status=Campaign.Status.RUNNING, current_turn=1)
    invited_campaign.refresh_from_db()
    return invited_campaign


@pytest.fixture
def kingdom(campaign) -> Kingdom:
    return Kingdom.objects.get(campaign=campaign, name="Kingdom 1")


def user(name: str):  # type: ignore[no-untyped-def]
    return get_user_model().objects.get(username=name)


CAPTAIN = E("Captain", 1, 20, role=Role.CAPTAIN, command="champion", unit_type="Swordsmen", leadership=7)
FORCE_150 = [CAPTAIN, E("Swordsmen", 10, 10), E("Halberdiers", 2, 15)]  # 20 + 100 + 30
FORCE_151 = [CAPTAIN, E("Swordsmen", 10, 10), E("Halberdiers", 2, 15), E("Free Company", 1, 1)]
TWO_SPECIAL = [
    CAPTAIN,
    E("Greatsword Lieutenant", 1, 14, category=TroopCategory.SPECIAL, role=Role.LIEUTENANT),
    E("Greatsword", 1, 14, category=TroopCategory.SPECIAL),
    E("Swordsmen", 5, 10),
]


def stored(kingdom: Kingdom) -> list[tuple[str, int]]:
    return list(TombRaiderEntry.objects.filter(force__kingdom=kingdom).values_list("name", "models_count"))


def test_a_150_point_force_with_its_captain_is_saved(kingdom):
    force = tomb_raider_force_save(kingdom=kingdom, entries=FORCE_150, saved_by=user("p1"))
    assert stored(kingdom) == [("Captain", 1), ("Swordsmen", 10), ("Halberdiers", 2)]
    assert sum(e.points for e in force.entries.all()) == 150
    # The whole list is added in the turn it is made: 150 points (5 gold a point to go this turn).
    assert (force.changed_turn, force.points_added) == (1, 150)


def test_a_151_point_force_is_refused_whole_naming_the_rule(kingdom):
    tomb_raider_force_save(kingdom=kingdom, entries=FORCE_150, saved_by=user("p1"))
    with pytest.raises(DomainError) as refused:
        tomb_raider_force_save(kingdom=kingdom, entries=FORCE_151, saved_by=user("p1"))
    assert any("151 points" in m and "Creating Tomb Raiders" in m for m in refused.value.messages)
    assert [p["code"] for p in refused.value.problems] == ["over-points"]
    assert len(stored(kingdom)) == 3  # nothing half-saved


def test_two_special_models_are_refused_naming_the_entry_and_the_rule(kingdom):
    with pytest.raises(DomainError) as refused:
        tomb_raider_force_save(kingdom=kingdom, entries=TWO_SPECIAL, saved_by=user("p1"))
    messages = " ".join(refused.value.messages)
    assert "Greatsword is special" in messages
    assert "more than one model from the Special or Rare selection (Maintaining / Changing Tomb Raiders)" in messages
    assert [
        (p["code"], p["entries"], p["rule"]) for p in refused.value.problems if p["code"] == "too-many-special-or-rare"
    ] == [("too-many-special-or-rare", ["Greatsword"], "Maintaining / Changing Tomb Raiders")]
    assert stored(kingdom) == []
    assert not TombRaiderForce.objects.filter(kingdom=kingdom).exists()


def test_the_rulebook_sample_high_elves_list_is_accepted(campaign):
    elves = Kingdom.objects.get(campaign=campaign, name="Kingdom 4")
    tomb_raider_force_save(kingdom=elves, entries=list(SAMPLE_HIGH_ELVES.entries), saved_by=user("p4"))
    assert len(stored(elves)) == 5


def test_points_added_count_from_the_list_as_the_turn_opened(kingdom, campaign):
    tomb_raider_force_save(kingdom=kingdom, entries=[CAPTAIN, E("Swordsmen", 5, 10)], saved_by=user("p1"))
    Campaign.objects.filter(pk=campaign.pk).update(current_turn=2)
    kingdom.refresh_from_db()
    # Turn 2: one swordsman more (10 points), then a second change the same turn adds a spearman (11).
    tomb_raider_force_save(kingdom=kingdom, entries=[CAPTAIN, E("Swordsmen", 6, 10)], saved_by=user("p1"))
    force = tomb_raider_force_save(
        kingdom=kingdom, entries=[CAPTAIN, E("Swordsmen", 6, 10), E("Spearman", 1, 11)], saved_by=user("p1")
    )
    assert (force.changed_turn, force.points_added) == (2, 21)
    # Models removed free nothing to be paid (decision 403).
    force = tomb_raider_force_save(kingdom=kingdom, entries=[CAPTAIN, E("Swordsmen", 4, 10)], saved_by=user("p1"))
    assert force.points_added == 0


def test_models_out_of_action_stay_whatever_the_player_sends(kingdom):
    tomb_raider_force_save(kingdom=kingdom, entries=FORCE_150, saved_by=user("p1"))
    TombRaiderEntry.objects.filter(name="Swordsmen").update(out_of_action=2)
    tomb_raider_force_save(kingdom=kingdom, entries=FORCE_150, saved_by=user("p1"))
    assert TombRaiderEntry.objects.get(name="Swordsmen").out_of_action == 2


def test_refused_for_the_ancient_dead_strangers_and_before_the_army_lists(campaign, kingdom):
    dead = Kingdom.objects.get(campaign=campaign, army_type="ancient-dead")
    with pytest.raises(DomainError, match="Ancient Dead keep no Tomb Raiders"):
        tomb_raider_force_save(kingdom=dead, entries=FORCE_150, saved_by=campaign.organizer)
    assert not TombRaiderForce.objects.filter(kingdom=dead).exists()
    with pytest.raises(DomainError, match="players"):
        tomb_raider_force_save(kingdom=kingdom, entries=FORCE_150, saved_by=user("p2"))
    tomb_raider_force_save(kingdom=kingdom, entries=FORCE_150, saved_by=campaign.organizer)  # the organizer may
    Campaign.objects.filter(pk=campaign.pk).update(status=Campaign.Status.HOMES)
    with pytest.raises(DomainError, match="army lists"):
        tomb_raider_force_save(kingdom=kingdom, entries=FORCE_150, saved_by=user("p1"))


def as_json(entries: list[E]) -> dict:
    return {
        "entries": [
            {
                "name": e.name,
                "models": e.models,
                "points_per_model": e.points_per_model,
                "category": str(e.category),
                "role": str(e.role),
                "command": str(e.command),
                "leadership": e.leadership,
            }
            for e in entries
        ]
    }


def test_the_api_reads_and_replaces_the_force_for_its_player(api_client_for, kingdom):
    client = api_client_for(user("p1"))
    url = f"/api/kingdoms/{kingdom.pk}/tomb-raiders/"
    empty = client.get(url)
    assert empty.status_code == 200 and empty.json()["entries"] == []
    saved = client.put(url, as_json(FORCE_150), format="json")
    assert saved.status_code == 200, saved.json()
    body = saved.json()
    assert (body["points"], body["points_limit"], body["points_added"], body["change_fee"]) == (150, 150, 150, 750)
    assert body["captain_profile"] == {"leadership": 8, "wounds": 2}  # +1 Ld, +1 W
    assert [e["name"] for e in client.get(url).json()["entries"]] == ["Captain", "Swordsmen", "Halberdiers"]
    assert api_client_for(kingdom.campaign.organizer).get(url).status_code == 200


def test_the_api_answers_400_in_the_one_shape_and_changes_nothing(api_client_for, kingdom):
    from tests.clients import error_shape_problems

    client = api_client_for(user("p1"))
    url = f"/api/kingdoms/{kingdom.pk}/tomb-raiders/"
    client.put(url, as_json(FORCE_150), format="json")
    refused = client.put(url, as_json(TWO_SPECIAL), format="json")
    assert refused.status_code == 400
    assert error_shape_problems(refused) == []
    codes = [e["code"] for e in refused.json()["errors"]]
    assert "too-many-special-or-rare" in codes and "not-core" in codes
    assert any("Greatsword" in e["detail"] for e in refused.json()["errors"])
    bad = client.put(url, {"entries": [{"name": "x" * 101, "models": 0, "points_per_model": 151}]}, format="json")
    assert bad.status_code == 400 and error_shape_problems(bad) == []
    assert stored(kingdom) == [("Captain", 1), ("Swordsmen", 10), ("Halberdiers", 2)]


def test_the_api_hides_the_force_from_other_kingdoms_strangers_and_for_the_ancient_dead(
    api_client_for, kingdom, campaign, client
):
    url = f"/api/kingdoms/{kingdom.pk}/tomb-raiders/"
    other = api_client_for(user("p2"))
    assert other.get(url).status_code == 404
    assert other.put(url, as_json(FORCE_150), format="json").status_code == 404
    assert stored(kingdom) == []
    assert client.get(url).status_code in (401, 403, 404)
    dead = Kingdom.objects.get(campaign=campaign, army_type="ancient-dead")
    organizer = api_client_for(campaign.organizer)
    assert organizer.get(f"/api/kingdoms/{dead.pk}/tomb-raiders/").status_code == 404


def posted(entries: list[E], *, extra_empty: int = 1) -> dict[str, str]:
    """What the page posts: one filled row per entry, then untouched empty rows."""
    data = {
        "entries-TOTAL_FORMS": str(len(entries) + extra_empty),
        "entries-INITIAL_FORMS": "0",
        "entries-MIN_NUM_FORMS": "0",
        "entries-MAX_NUM_FORMS": "1000",
    }
    for i, e in enumerate(entries):
        row = {
            "name": e.name,
            "models": e.models,
            "points_per_model": e.points_per_model,
            "category": str(e.category),
            "base": str(e.base),
            "kind": str(e.kind),
            "role": str(e.role),
            "command": str(e.command),
            "leadership": e.leadership,
            "wounds": e.wounds,
        }
        data.update({f"entries-{i}-{k}": str(v) for k, v in row.items()})
    for i in range(len(entries), len(entries) + extra_empty):
        data.update(
            {
                f"entries-{i}-models": "1",
                f"entries-{i}-category": "core",
                f"entries-{i}-base": "25mm",
                f"entries-{i}-kind": "foot",
                f"entries-{i}-role": "trooper",
                f"entries-{i}-command": "none",
                f"entries-{i}-leadership": "0",
                f"entries-{i}-wounds": "1",
            }
        )
    return data


def test_the_page_saves_the_force_and_shows_it_with_the_captain_s_profile(client, kingdom):
    client.force_login(user("p1"))
    assert f'href="/kingdoms/{kingdom.pk}/tomb-raiders/"' in client.get(f"/kingdoms/{kingdom.pk}/").content.decode()
    response = client.post(f"/kingdoms/{kingdom.pk}/tomb-raiders/", posted(FORCE_150))
    assert response.status_code == 302
    assert stored(kingdom) == [("Captain", 1), ("Swordsmen", 10), ("Halberdiers", 2)]
    page = client.get(f"/kingdoms/{kingdom.pk}/tomb-raiders/").content.decode()
    assert 'Total: <span id="tomb-raiders-total">150</span> of 150 points' in page
    assert "The Captain fights at Ld 8, W 2" in page
    assert 'value="Halberdiers"' in page


def test_the_page_shows_each_refusal_beside_its_entry_and_saves_nothing(client, kingdom):
    client.force_login(user("p1"))
    response = client.post(f"/kingdoms/{kingdom.pk}/tomb-raiders/", posted(TWO_SPECIAL))
    assert response.status_code == 400
    formset = response.context["formset"]
    by_name = {f.cleaned_data["name"]: f.problems for f in formset.forms if f.cleaned_data}
    assert any("more than one model from the Special or Rare selection" in p for p in by_name["Greatsword"])
    assert by_name["Swordsmen"] == []
    page = response.content.decode()
    assert 'id="entries-2-problems"' in page  # the third row, the Greatsword's
    # The 151-point list: the whole force's refusal stands above the rows.
    response = client.post(f"/kingdoms/{kingdom.pk}/tomb-raiders/", posted(FORCE_151))
    assert response.status_code == 400
    assert any("151 points" in e for e in response.context["errors"])
    assert '<span id="tomb-raiders-total">151</span> of 150 points' in response.content.decode()
    assert stored(kingdom) == []


def test_the_page_is_not_found_for_another_kingdom_s_player_and_strangers(client, kingdom):
    client.force_login(user("p2"))
    assert client.get(f"/kingdoms/{kingdom.pk}/tomb-raiders/").status_code == 404
    assert client.post(f"/kingdoms/{kingdom.pk}/tomb-raiders/", posted(FORCE_150)).status_code == 404
    assert stored(kingdom) == []


OFFICERS = [
    E("Captain Ulric", 1, 20, role=Role.CAPTAIN, command="champion", unit_type="Swordsmen", leadership=7),
    E("Huntsman Vogt", 1, 14, category=TroopCategory.SPECIAL, role=Role.LIEUTENANT),
    E("Swordsmen", 8, 10),
]


@pytest.fixture
def raiders(kingdom) -> TombRaiderForce:
    """Kingdom 1's force with its Captain and Lieutenant, one Swordsman out of action (Recovery: a 2)."""
    force = tomb_raider_force_save(kingdom=kingdom, entries=OFFICERS, saved_by=user("p1"))
    TombRaiderEntry.objects.filter(force=force, name="Swordsmen").update(out_of_action=1)
    return force


def test_the_kingdom_s_pages_and_api_show_its_officers_and_models_out_of_action(
    client, api_client_for, kingdom, raiders
):
    """Its players read the force where they look: the kingdom's page sums it up (points, Captain,
    Lieutenant, the models able to go and those out of action), the Tomb Raiders page says the same and
    where a mission is given (the turn's order sheet), and the API payload counts the models able to go."""
    client.force_login(user("p1"))
    page = client.get(f"/kingdoms/{kingdom.pk}/").content.decode()
    assert (
        "114 of 150 points; Captain: Captain Ulric; Lieutenant: Huntsman Vogt; 9 models able to go on a mission "
        "(Swordsmen 1 out of action)."
    ) in page
    raiders_page = client.get(f"/kingdoms/{kingdom.pk}/tomb-raiders/").content.decode()
    assert "Captain: Captain Ulric; Lieutenant: Huntsman Vogt." in raiders_page
    assert "9 models able to go on a mission this turn; out of action for this turn (Recovery): Swordsmen 1." in (
        raiders_page
    )
    assert "on the turn's order sheet" in raiders_page  # no turn opened in this campaign's rows yet
    turn = Turn.objects.create(
        campaign=kingdom.campaign, number=1, orders_deadline=timezone.now(), results_deadline=timezone.now(), seed="t1"
    )
    raiders_page = client.get(f"/kingdoms/{kingdom.pk}/tomb-raiders/").content.decode()
    assert f'<a href="/turns/{turn.pk}/orders/{kingdom.pk}/">the order sheet of turn 1</a>' in raiders_page
    body = api_client_for(user("p1")).get(f"/api/kingdoms/{kingdom.pk}/tomb-raiders/").json()
    assert body["models_available"] == 9
    assert [(e["name"], e["role"], e["out_of_action"]) for e in body["entries"]] == [
        ("Captain Ulric", "captain", 0),
        ("Huntsman Vogt", "lieutenant", 0),
        ("Swordsmen", "trooper", 1),
    ]


def test_no_other_kingdom_s_page_or_api_payload_shows_the_force(client, api_client_for, campaign, kingdom, raiders):
    """Secrecy (Tomb Raiders: "stealth and secrecy"; decision 441), endpoint by endpoint: another
    kingdom's player gets 404 on every private page and API of Kingdom 1, and nothing of its force on
    their own kingdom's pages and payloads nor on the campaign's public ones."""
    other = Kingdom.objects.get(campaign=campaign, name="Kingdom 2")
    secrets = ("Captain Ulric", "Huntsman Vogt")
    api = api_client_for(user("p2"))
    for path in ("", "ledger/", "armies/", "characters/", "tomb-raiders/", "co-players/"):
        assert api.get(f"/api/kingdoms/{kingdom.pk}/{path}").status_code == 404, path
    for path in ("", "ledger/", "armies/", "characters/", "tomb-raiders/"):
        response = api.get(f"/api/kingdoms/{other.pk}/{path}")
        assert response.status_code == 200, path
        assert not any(s in response.content.decode() for s in secrets), path
    for path in ("", "map/", "kingdoms/", "alliances/"):
        response = api.get(f"/api/campaigns/{campaign.pk}/{path}")
        assert response.status_code == 200, path
        assert not any(s in response.content.decode() for s in secrets), path

    client.force_login(user("p2"))
    for path in (f"/kingdoms/{kingdom.pk}/", f"/kingdoms/{kingdom.pk}/tomb-raiders/"):
        assert client.get(path).status_code == 404, path
    for path in (
        f"/kingdoms/{other.pk}/",
        f"/kingdoms/{other.pk}/tomb-raiders/",
        f"/campaigns/{campaign.pk}/",
        f"/campaigns/{campaign.pk}/map.svg",
    ):
        response = client.get(path)
        assert response.status_code == 200, path
        assert not any(s in response.content.decode() for s in secrets), path
