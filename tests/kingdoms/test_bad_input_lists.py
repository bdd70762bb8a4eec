"""An army list with two entries sharing one stored unit's id (issue 19): the check passed, then the
second entry overwrote the first and the Warlord's character was deleted. It is refused whole,
through the API and the list editor's page, and the list saved is always the list checked."""

from __future__ import annotations

import pytest

from kingdoms.models import Character, Kingdom, Unit
from kingdoms.services.armies import army_entries
from tests.clients import api_as, error_details, pages_as


@pytest.fixture
def army(demo_campaign):
    return Kingdom.objects.get(campaign=demo_campaign, name="Ostland").armies.get(kind="field")


def _stored(army) -> list[tuple]:
    return list(
        Unit.objects.filter(army=army)
        .order_by("pk")
        .values_list("pk", "name", "category", "models_count", "points_per_model", "position")
    )


def _characters(army) -> list[tuple]:
    return list(Character.objects.filter(unit__army=army).order_by("pk").values_list("pk", "unit_id", "role"))


def _payload(army, *, twice: str) -> dict:
    """The army's own list, the unit `twice` given the Warlord's id."""
    units, items = army_entries(army)
    warlord = next(u.key for u in units if u.character and u.character.role == "warlord")
    rows = []
    for u in units:
        row = {
            "id": warlord if u.name == twice else u.key,
            "name": u.name,
            "category": u.category,
            "models": u.models,
            "points_per_model": u.points_per_model,
            "equipment_points": u.equipment_points,
            "veteran_level": u.veteran_level,
            "one_use": u.one_use,
        }
        if u.character:
            c = u.character
            row.update(
                rank=c.rank, role=c.role, archetype=c.archetype, monstrous_mount=c.monstrous_mount, wizard=c.wizard
            )
        rows.append(row)
    items_rows = [{"name": i.name, "points": i.points, "common": i.common, "bearer": i.bearer} for i in items]
    return {"units": rows, "items": items_rows}


def test_two_entries_with_one_unit_id_are_refused_through_the_api(army):
    before, characters = _stored(army), _characters(army)
    warlord = Unit.objects.get(army=army, character__role="warlord")
    response = api_as("alice").put(f"/api/armies/{army.pk}/", _payload(army, twice="Swordsmen"), format="json")
    assert response.status_code == 400, response.json()
    assert error_details(response) == [
        f"1st Army: {warlord.name} (unit {warlord.pk}) is listed twice; each stored unit appears once in the list."
    ]
    assert _stored(army) == before and _characters(army) == characters


def test_two_rows_with_one_unit_id_are_refused_by_the_list_editor(army):
    before, characters = _stored(army), _characters(army)
    payload = _payload(army, twice="Swordsmen")
    form = {
        "units-TOTAL_FORMS": str(len(payload["units"])),
        "units-INITIAL_FORMS": str(len(payload["units"])),
        "items-TOTAL_FORMS": str(len(payload["items"])),
        "items-INITIAL_FORMS": str(len(payload["items"])),
    }
    for i, row in enumerate(payload["units"]):
        for key, value in row.items():
            if value is None or value is False:
                continue
            form[f"units-{i}-{'key' if key == 'id' else key}"] = str(value)
    for i, row in enumerate(payload["items"]):
        for key, value in row.items():
            if value is not False:
                form[f"items-{i}-{key}"] = str(value)
    response = pages_as("alice").post(f"/armies/{army.pk}/edit/", form)
    assert response.status_code == 400
    assert "is listed twice; each stored unit appears once in the list." in response.content.decode()
    assert _stored(army) == before and _characters(army) == characters
