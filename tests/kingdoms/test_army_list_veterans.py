"""A list entered (a new army, an upgraded army, the starting army) against what was bought
(kingdoms/services/armies.py army_list_save): Veteran Status, 3. Create / Upgrade Armies,
Spending Experience."""

from dataclasses import replace

import pytest

from briternia.errors import DomainError
from kingdoms.models import Army
from kingdoms.services import armies as army_services
from rulebook.armies.army_lists import UnitEntry


def _upgraded(ostland, *, veteran_level: int) -> tuple[Army, UnitEntry]:
    """Ostland's 1st Army upgraded by 500 gold (its list due again), one unit of it a Veteran."""
    army = ostland.armies.filter(kind=Army.Kind.FIELD, status=Army.Status.ACTIVE).order_by("pk").first()
    unit = army.units.filter(character__isnull=True).order_by("pk").first()
    unit.veteran_level = veteran_level
    unit.save(update_fields=["veteran_level"])
    army.size = min(army.size + 500, 2000)
    army.list_due = True
    army.upgraded_turn = 1
    army.save(update_fields=["size", "list_due", "upgraded_turn"])
    entries, _ = army_services.army_entries(army)
    return army, next(e for e in entries if e.key == unit.pk)


def _refused(army: Army, replaced: UnitEntry, extra: list[UnitEntry] = ()) -> list[str]:
    entries, items = army_services.army_entries(army)
    units = [replaced if e.key == replaced.key else e for e in entries] + list(extra)
    with pytest.raises(DomainError) as refused:
        army_services.army_list_save(army=army, units=units, items=items)
    return refused.value.messages


def test_veteran_status_an_upgraded_list_cannot_type_a_level_the_unit_has_not_earned(k):
    """Veteran Status: a level is earned in battle and bought with experience; the list re-entered
    after a gold upgrade cannot raise it, nor give one to a new unit. Nothing is saved."""
    army, unit = _upgraded(k["Ostland"], veteran_level=1)
    messages = _refused(army, replace(unit, veteran_level=2))
    assert messages == [
        f"{army.name}: {unit.name} is typed at +2 Veteran but has +1: a unit earns Veteran Status in battle and "
        "buys it with experience, a level at a time (Veteran Status); a new unit has none, and an upgrade of 500 "
        "points or more wipes it (3. Create / Upgrade Armies)."
    ]
    new = UnitEntry("Free Company", "core", 10, 5, veteran_level=1)
    assert any("Free Company is typed at +1 Veteran but has +0" in m for m in _refused(army, unit, [new]))
    army.refresh_from_db()
    assert army.list_due and army.units.get(pk=unit.key).veteran_level == 1


def test_veteran_status_a_level_an_upgrade_of_500_points_wiped_is_not_retyped(k):
    """3. Create / Upgrade Armies: adding 500 points or more, the army "will lose all its experience
    points and veteran status"; the list entered after the upgrade cannot give it back."""
    army, unit = _upgraded(k["Ostland"], veteran_level=0)  # the resolution set it to +0 (orders/services/resolution.py)
    messages = _refused(army, replace(unit, veteran_level=1))
    assert any(f"{unit.name} is typed at +1 Veteran but has +0" in m and "wipes it" in m for m in messages)


def test_veteran_status_a_veteran_unit_grows_only_by_experience_recruits_not_by_a_gold_upgrade(k):
    """Veteran Status: "Veteran units may only be expanded" by recruits bought with experience; the
    re-entered list of a gold upgrade gives the unit no more models. The same unit without its
    level is no longer a Veteran unit and may take the upgrade's recruits (rules decision 386)."""
    army, unit = _upgraded(k["Ostland"], veteran_level=1)
    messages = _refused(army, replace(unit, models=unit.models + 5))
    assert messages == [
        f"{army.name}: {unit.name} is a +1 Veteran unit of {unit.models} models; it grows only by recruits bought "
        "with experience on the order sheet, not by the gold of an army's creation or upgrade "
        f"({unit.models + 5} models entered; Veteran Status, Spending Experience)."
    ]
    entries, items = army_services.army_entries(army)
    grown = replace(unit, models=unit.models + 5, veteran_level=0)
    army_services.army_list_save(army=army, units=[grown if e.key == unit.key else e for e in entries], items=items)
    assert army.units.get(pk=unit.key).models_count == unit.models + 5


def test_army_restrictions_a_special_character_is_refused_unless_the_campaign_allows_them(k, demo_campaign):
    """Army Restrictions, "NO special characters may be used, unless specified by the campaign
    organizer": the campaign's setting is off by default; a list row marked special character is
    refused whole, naming the rule; once the organizer allows them the same list is saved."""
    from kingdoms.models import Campaign

    assert not demo_campaign.special_characters
    army = k["Ostland"].armies.filter(kind=Army.Kind.FIELD).order_by("pk").first()
    entries, items = army_services.army_entries(army)
    hero = next(e for e in entries if e.character and e.character.role == "hero")
    units = [replace(e, special_character=True) if e is hero else e for e in entries]
    with pytest.raises(DomainError) as refused:
        army_services.army_list_save(army=army, units=units, items=items)
    assert refused.value.messages == [
        f"{army.name}: {hero.name} is a special character; no special characters may be used unless the campaign "
        "organizer allows them (Army Restrictions)."
    ]
    assert not army.units.filter(special_character=True).exists()
    Campaign.objects.filter(pk=demo_campaign.pk).update(special_characters=True)
    army = Army.objects.get(pk=army.pk)
    army_services.army_list_save(army=army, units=units, items=items)
    assert army.units.get(pk=hero.key).special_character
