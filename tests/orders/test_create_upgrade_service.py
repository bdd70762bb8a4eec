"""Upgrading an army through the site (3. Create / Upgrade Armies): the cost the API's sheet shows
and what the turn's resolution writes. Rulebook: "pay the gold difference and recreate it at a
higher point value"; "adding 500 or more points ... will lose all its experience points and
veteran status"."""

from kingdoms.models import Army, TreasuryEntry
from tests.clients import api_as, pages_as
from turns.models import TurnEvent
from turns.services.cycle import orders_phase_run


def test_case_C2_an_army_raised_at_2000_and_now_at_1300_is_upgraded_back_to_2000_for_700(turn, ostland):
    """3. Create / Upgrade Armies: the difference is measured from what the army counts now (its
    list, 1,300 points after its losses), not from the 2,000 it was raised at: the sheet shows 700
    gold, the resolution takes 700, and 700 points added (500 or more) cost the army its experience
    and its units' veteran status (their levels, and the eligibility for the next one)."""
    occupied = set(Army.objects.filter(kingdom__campaign=turn.campaign).values_list("province", flat=True))
    town = ostland.provinces.filter(settlement__in=("town", "city")).exclude(pk__in=occupied).order_by("number")[0]
    army = Army.objects.create(kingdom=ostland, name="Old Guard", province=town, size=2000, experience=60)
    army.units.create(
        name="Swordsmen", category="core", models_count=130, points_per_model=10, veteran_level=1, veteran_eligible=True
    )
    page = pages_as("alice").get(f"/turns/{turn.pk}/orders/{ostland.pk}/").content.decode()
    assert f"in {town} · 1300 pts" in page  # what the upgrade is measured from, not the 2,000 raised
    holds = [{"army": a.id, "kind": "hold"} for a in ostland.armies.filter(kind="field", status="active")]

    answer = api_as("alice").put(
        f"/api/turns/{turn.pk}/sheet/",
        {"orders": holds, "upgrades": [{"army": army.id, "points": 2000}], "submit": True},
        format="json",
    )

    assert answer.status_code == 200, answer.json()
    assert ["Upgrade Old Guard from 1,300 to 2,000 points", 700] in answer.json()["check"]["costs"]
    assert orders_phase_run(turn_id=turn.pk).resolved
    (row,) = TreasuryEntry.objects.filter(kingdom=ostland, reason="army-upgraded")
    assert row.amount == -700
    (event,) = TurnEvent.objects.filter(turn=turn, code="army-upgraded", army=army)
    assert "upgraded from 1,300 to 2,000 points for 700 gold" in event.text
    army.refresh_from_db()
    assert (army.size, army.list_due, army.experience) == (2000, True, 0)
    # "lose all its experience points and veteran status": its level, and its eligibility for the next.
    assert list(army.units.values_list("veteran_level", "veteran_eligible")) == [(0, False)]
