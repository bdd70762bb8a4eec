"""Writing the world state back (kingdoms/services/world_write.py): the one writer, which writes
every record that differs between the world a phase loaded and its working copy: here its units,
characters and magic items (the armies, provinces and kingdoms are written through the phases'
tests, tests/orders and tests/battles)."""

from __future__ import annotations

from dataclasses import replace

from django.db import transaction

from kingdoms.models import ArmoryItem, Army, Character
from kingdoms.services.world import world_load
from kingdoms.services.world_write import world_write


def _army_with_characters(kingdom):
    """A field army on the map with a Warlord, a General, a regiment and a magic item."""
    army = Army.objects.create(kingdom=kingdom, name="Wardens", province=kingdom.capitol, size=1000)
    Character.objects.filter(kingdom=kingdom, role=Character.Role.WARLORD).update(role=Character.Role.HERO)
    lord = army.units.create(name="Elector Count", category="character", models_count=1, points_per_model=100)
    captain = army.units.create(name="Captain", category="character", models_count=1, points_per_model=60)
    spearmen = army.units.create(name="Spearmen", category="core", models_count=40, points_per_model=10)
    warlord = Character.objects.create(unit=lord, kingdom=kingdom, role=Character.Role.WARLORD)
    general = Character.objects.create(unit=captain, kingdom=kingdom, role=Character.Role.GENERAL)
    sword = ArmoryItem.objects.create(kingdom=kingdom, name="Sword of Testing", points=25, bearer=captain)
    return army, warlord, general, spearmen, sword


def test_a_dead_warlord_and_his_successor_are_written_the_dead_first(demo_campaign, k):
    """Warlord: the Warlord dies and a General takes his role in the same phase. A kingdom has one
    living Warlord at every moment (the row constraint), so the writer writes the dead first."""
    ostland = k["Ostland"]
    _, warlord, general, _, _ = _army_with_characters(ostland)
    before = world_load(campaign=demo_campaign, turn_number=1, characters_and_items=True)
    after = before.working_copy()
    injury = {"roll": 11, "result": "Old Battle Wound"}
    after.characters[warlord.id] = replace(before.characters[warlord.id], alive=False)
    after.characters[general.id] = replace(
        before.characters[general.id], role="warlord", injuries=(injury,), battles_survived=1
    )

    with transaction.atomic():
        world_write(turn=1, campaign=demo_campaign, before=before, after=after, events=[])

    warlord.refresh_from_db()
    general.refresh_from_db()
    assert not warlord.alive and warlord.role == Character.Role.WARLORD
    assert (general.alive, general.role, general.injuries, general.battles_survived) == (
        True,
        Character.Role.WARLORD,
        [injury],
        1,
    )
    assert Character.objects.get(kingdom=ostland, role=Character.Role.WARLORD, alive=True) == general


def test_the_units_and_items_whose_records_changed_are_written(demo_campaign, k):
    """A unit's models (its losses counted in its casualties) and Veteran Status, a magic item
    dropped back to the armory; the records that did not change are left as stored."""
    army, _, general, spearmen, sword = _army_with_characters(k["Ostland"])
    before = world_load(campaign=demo_campaign, turn_number=1, characters_and_items=True)
    after = before.working_copy()
    after.units[army.id] = tuple(
        replace(u, models=31, veteran_level=1, veteran_eligible=True) if u.id == spearmen.id else u
        for u in before.units[army.id]
    )
    after.items[sword.id] = replace(before.items[sword.id], bearer=None)
    with transaction.atomic():
        world_write(turn=1, campaign=demo_campaign, before=before, after=after, events=[])

    spearmen.refresh_from_db()
    sword.refresh_from_db()
    assert (spearmen.models_count, spearmen.models_lost, spearmen.veteran_level, spearmen.veteran_eligible) == (
        31,
        9,
        1,
        True,
    )
    assert sword.bearer is None and not sword.destroyed
    assert general.unit.models_count == 1 and Character.objects.get(pk=general.pk).role == Character.Role.GENERAL


def test_a_world_loaded_without_characters_and_items_writes_none(demo_campaign, k):
    """The orders phase loads no characters nor items: the writer has none of them to write, and
    leaves their rows as stored."""
    _, warlord, _, _, sword = _army_with_characters(k["Ostland"])
    before = world_load(campaign=demo_campaign, turn_number=1)
    assert (before.characters, before.items) == ({}, {})
    with transaction.atomic():
        world_write(turn=1, campaign=demo_campaign, before=before, after=before.working_copy(), events=[])
    assert Character.objects.get(pk=warlord.pk).alive
    assert ArmoryItem.objects.get(pk=sword.pk).bearer_id is not None
