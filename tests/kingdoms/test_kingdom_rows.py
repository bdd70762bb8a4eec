"""A kingdom's own rows read in one statement (kingdoms/services/kingdom_rows.py, issue 35) are the
rows the ORM's queries read one by one: the order sheet's check must see the same armies, lists,
magic items, gold and deliveries, on either database (booleans, JSON fields and nulls included)."""

from __future__ import annotations

import pytest
from django.db.models import Sum

from briternia.one_statement import RowSet
from kingdoms.models import ArmoryItem, Army, Character, Delivery, Kingdom, TreasuryEntry, Unit
from kingdoms.services.kingdom_rows import DELIVERY_FIELDS, kingdom_rows_read
from kingdoms.services.world import army_rows, list_rows


def _sorted(rows: list[tuple]) -> list[tuple]:
    return sorted(rows, key=repr)


def test_a_kingdoms_rows_in_one_statement_are_what_the_orm_reads(demo_campaign):
    ostland = Kingdom.objects.get(campaign=demo_campaign, name="Ostland")
    army = Army.objects.filter(kingdom=ostland, kind="field").first()
    unit = Unit.objects.filter(army=army).order_by("position").last()
    # Something of every kind the check reads: an item borne, one in the armory, one destroyed; a
    # delivery on the way and one received; a character with abilities; a disbanded army's list;
    # gold spent; a unit that is one-use and not living.
    ArmoryItem.objects.create(kingdom=ostland, name="Sword of Might", points=25, bearer=unit)
    ArmoryItem.objects.create(kingdom=ostland, name="Talisman of Protection", points=15, common=True)
    ArmoryItem.objects.create(kingdom=ostland, name="Lost Banner", points=50, destroyed=True)
    for status in (Delivery.Status.ON_THE_WAY, Delivery.Status.ARRIVED):
        Delivery.objects.create(
            army=army, kind="item", what="Sword of Striking", points=30, name="Sword of Striking", cost=30,
            ordered_turn=1, arrives_turn=2, status=status,
        )  # fmt: skip
    Character.objects.filter(kingdom=ostland).update(abilities=["Inspiring Presence", "Hatred"])
    Unit.objects.filter(pk=unit.pk).update(one_use=True, living=False, position=0)
    disbanded = Army.objects.create(kingdom=ostland, name="Old Levy", size=500, status=Army.Status.DISBANDED)
    Unit.objects.create(army=disbanded, name="Spearmen", category="core", models_count=20, points_per_model=5)
    TreasuryEntry.objects.create(kingdom=ostland, turn=1, amount=-120, reason="purchase")

    for kingdom in Kingdom.objects.filter(campaign=demo_campaign):
        rows = kingdom_rows_read(kingdom.id, "province__number")
        armies = army_rows(Army.objects.filter(kingdom=kingdom), "province__number")
        assert rows.armies == armies
        active = [a["id"] for a in armies if a["status"] == Army.Status.ACTIVE]
        assert rows.active == active
        lists = list_rows(active, kingdom=kingdom.id)
        assert rows.lists.units == lists.units  # in list order
        assert _sorted(rows.lists.characters) == _sorted(lists.characters)
        assert _sorted(rows.lists.items or []) == _sorted(lists.items or [])
        gold = TreasuryEntry.objects.filter(kingdom=kingdom).aggregate(s=Sum("amount"))["s"]
        assert rows.treasury == (gold or 0)  # no ledger (the Ancient Dead): none
        on_the_way = Delivery.objects.filter(army_id__in=active, status=Delivery.Status.ON_THE_WAY)
        assert _sorted(rows.deliveries) == _sorted(list(on_the_way.values_list(*DELIVERY_FIELDS)))
    ostland_rows = kingdom_rows_read(ostland.id)
    assert any(c[10] == ["Inspiring Presence", "Hatred"] for c in ostland_rows.lists.characters)  # JSON, not text
    assert {type(u[7]) for u in ostland_rows.lists.units} == {bool}  # one_use: a boolean, on SQLite too
    names = {item[2] for item in ostland_rows.lists.items or [] if not item[-1]}
    assert {"Sword of Might", "Talisman of Protection"} <= names and "Lost Banner" not in names
    # An armory item destroyed with its army is read as such: the kingdom never gets another (Armory).
    assert {item[2] for item in ostland_rows.lists.items or [] if item[-1]} == {"Lost Banner"}
    assert len(ostland_rows.deliveries) == 1


def test_a_row_set_refuses_a_column_json_would_change(db):
    """A date would come back as text from the JSON column: such a read takes a query of its own."""
    with pytest.raises(TypeError, match="does not travel as JSON"):
        RowSet(TreasuryEntry.objects.values_list("id", "created_at"))
