"""The army-list editor (kingdoms/views.py army_edit, army_list_check): a list written bit by bit
is kept as a draft, valid or not, and counts for nothing until it is saved and the rules accept it;
the running total and what is wrong come from the same check the save makes; the drop-downs offer
what the army type may take (Character Archetypes: the Archetype Table; Army-Specific Rules:
Perfectionists). The demo campaign: alice leads Ostland (Empire), carol Karak Dumn (Dwarfs)."""

from __future__ import annotations

import re

import pytest

from kingdoms.models import Army, DraftedArmyList, Kingdom, Unit
from kingdoms.selectors import army_points
from kingdoms.services.armies import army_list_problems
from rulebook.tables import ARCHETYPE_TABLE, ArmyType
from tests.clients import pages_as


@pytest.fixture
def army(demo_campaign) -> Army:
    return Kingdom.objects.get(campaign=demo_campaign, name="Ostland").armies.get(kind="field")


def _stored(army: Army) -> list[tuple]:
    return list(Unit.objects.filter(army=army).order_by("position").values_list("name", "models_count"))


def _rows(client, army: Army, *extra_units: dict) -> dict[str, str]:
    """What the editor posts: the army's rows as the page holds them, then `extra_units`."""
    context = client.get(f"/armies/{army.pk}/edit/").context
    units, items = context["units"], context["items"]
    data: dict[str, str] = {}
    for formset, added in ((units, extra_units), (items, ())):
        filled = formset.initial_form_count()
        data[f"{formset.prefix}-TOTAL_FORMS"] = str(filled + len(added))
        data[f"{formset.prefix}-INITIAL_FORMS"] = str(filled)
        for form in formset.forms[:filled]:
            for bound in form:
                if bound.value() not in (None, False, ""):
                    data[bound.html_name] = str(bound.value())
        for i, row in enumerate(added, start=filled):
            data.update({f"{formset.prefix}-{i}-{k}": str(v) for k, v in row.items()})
    return data


def _problems(page: str) -> list[str]:
    block = re.search(r'<ul class="errors" id="list-problems">(.*?)</ul>', page, re.S)[1]
    return [re.sub(r"\s+", " ", p).strip() for p in re.findall(r"<li>(.*?)</li>", block, re.S)]


def test_an_incomplete_list_is_kept_as_a_draft_and_counts_for_nothing(army):
    """Setup and Army Restrictions are the save's to enforce: a draft keeps whatever was written
    (a half-filled row, a total the rules refuse) and the army's list stays the one entered."""
    client = pages_as("alice")
    before = _stored(army)
    rows = _rows(client, army, {"name": "Outriders", "category": "special", "models": "5"})  # no points yet
    response = client.post(f"/armies/{army.pk}/edit/", {**rows, "action": "draft"})
    assert response.status_code == 302
    assert DraftedArmyList.objects.filter(army=army).exists()
    assert _stored(army) == before and army_list_problems(army) == []  # the entered list still counts

    page = client.get(f"/armies/{army.pk}/edit/").content.decode()
    assert 'id="list-draft"' in page and "It does not count" in page
    assert 'value="Outriders"' in page
    new_row = army.units.count()  # the added row's index: after the army's own
    assert _problems(page) == [f"Unit row {new_row + 1}: Points per model: This field is required."]

    # Filled in, but 2,000 points are already spent: the draft says so, still without saving.
    rows[f"units-{new_row}-points_per_model"] = "18"
    client.post(f"/armies/{army.pk}/edit/", {**rows, "action": "draft"})
    problems = _problems(client.get(f"/armies/{army.pk}/edit/").content.decode())
    total = army_points(army) + 90
    assert any(f"1st Army: the list totals {total} points" in p for p in problems), problems
    assert _stored(army) == before

    client.post(f"/armies/{army.pk}/edit/", {**rows, "action": "discard"})
    assert not DraftedArmyList.objects.filter(army=army).exists()
    assert 'value="Outriders"' not in client.get(f"/armies/{army.pk}/edit/").content.decode()


def test_saving_a_valid_list_ends_the_draft(army):
    client = pages_as("alice")
    rows = _rows(client, army)
    client.post(f"/armies/{army.pk}/edit/", {**rows, "action": "draft"})
    assert client.post(f"/armies/{army.pk}/edit/", {**rows, "action": "save"}).status_code == 302
    assert not DraftedArmyList.objects.filter(army=army).exists()


def test_the_check_gives_the_total_and_what_is_wrong_and_saves_nothing(army, demo_campaign):
    client = pages_as("alice")
    before = _stored(army)
    rows = _rows(client, army, {"name": "Outriders", "category": "special", "models": "5", "points_per_model": "18"})
    answer = client.post(f"/armies/{army.pk}/list/check/", rows).json()
    assert answer["total"] == army_points(army) + 90
    assert not answer["valid"]
    assert any("the list totals" in p and "(Army Restrictions)" in p for p in answer["problems"])
    assert client.post(f"/armies/{army.pk}/list/check/", _rows(client, army)).json()["valid"]
    assert _stored(army) == before and not DraftedArmyList.objects.exists()
    fang = Kingdom.objects.get(campaign=demo_campaign, name="Da Red Fang").armies.get(kind="field")
    assert client.post(f"/armies/{fang.pk}/list/check/", rows).status_code == 404


def test_the_editor_offers_what_the_army_type_may_take(army, demo_campaign):
    """The Archetype Table gives each army type its archetypes; rune smiths are the Dwarfs' and
    Chaos Dwarves' (Perfectionists). A value crafted past the page is refused by the check's words."""
    page = pages_as("alice").get(f"/armies/{army.pk}/edit/").content.decode()
    select = re.search(r'<select name="units-0-archetype"[^>]*>(.*?)</select>', page, re.S)[1]
    offered = set(re.findall(r'<option value="([^"]+)"', select))
    assert offered == {a.value for a in ARCHETYPE_TABLE[ArmyType.EMPIRE]}
    assert 'name="units-0-rune_smith"' not in page
    dwarfs = Kingdom.objects.get(campaign=demo_campaign, name="Karak Dumn").armies.get(kind="field")
    assert 'name="units-0-rune_smith"' in pages_as("carol").get(f"/armies/{dwarfs.pk}/edit/").content.decode()

    not_empire = next(
        a for a in ARCHETYPE_TABLE[ArmyType.ORCS_AND_GOBLINS] if a not in ARCHETYPE_TABLE[ArmyType.EMPIRE]
    )
    client = pages_as("alice")
    rows = _rows(client, army)
    general = next(k[: -len("-role")] for k, v in rows.items() if k.endswith("-role") and v in ("warlord", "general"))
    rows[f"{general}-archetype"] = not_empire.value
    answer = client.post(f"/armies/{army.pk}/list/check/", rows).json()
    assert any("the Archetype Table allows Empire only" in p for p in answer["problems"]), answer
