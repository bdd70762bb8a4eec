"""Writing the world state back (kingdoms/services/world_write.py): the one writer, which writes
every record that differs between the world a phase loaded and its working copy: here its units,
characters and magic items, and only the fields of the armies and provinces that changed (the
phases' own tests, tests/orders and tests/battles, write them through the phases)."""

from __future__ import annotations

from dataclasses import replace

from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext

from kernel.event_codes import EventCode
from kernel.events import Event
from kingdoms.models import ArmoryItem, Army, Character, Province
from kingdoms.services.world import world_load
from kingdoms.services.world_write import ARMY_FIELDS, PROVINCE_FIELDS, world_write
from rulebook.tables import Settlement, Terrain


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
    before = world_load(campaign=demo_campaign, turn_number=1)
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
    before = world_load(campaign=demo_campaign, turn_number=1)
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
    """A world without characters nor items (as a test makes it): the writer has none of them to
    write, and leaves their rows as stored."""
    _, warlord, _, _, sword = _army_with_characters(k["Ostland"])
    before = replace(world_load(campaign=demo_campaign, turn_number=1), characters={}, items={})
    with transaction.atomic():
        world_write(turn=1, campaign=demo_campaign, before=before, after=before.working_copy(), events=[])
    assert Character.objects.get(pk=warlord.pk).alive
    assert ArmoryItem.objects.get(pk=sword.pk).bearer_id is not None


def _two_field_armies(campaign):
    return list(Army.objects.filter(kingdom__campaign=campaign, kind=Army.Kind.FIELD).order_by("id")[:2])


def _updates_of(queries, table):
    return [q["sql"] for q in queries if q["sql"].lstrip().upper().startswith(("UPDATE", "WITH")) and table in q["sql"]]


def test_only_the_fields_a_phase_changed_are_written_in_one_statement_per_table(demo_campaign):
    """The armies and provinces: the writer compares each record before and after the phase and writes
    only the fields that changed, in one statement per table. A column set behind the writer's back
    (after the phase loaded the world) stays set, in a row it writes as in one it leaves alone."""
    moved, left = _two_field_armies(demo_campaign)
    before = world_load(campaign=demo_campaign, turn_number=1)
    after = before.working_copy()
    target = next(n for n in before.provinces if n != before.armies[moved.id].province)
    after.armies[moved.id] = replace(before.armies[moved.id], province=target, co_occupying=True)
    taken, untouched = sorted(n for n in before.provinces if n != target)[:2]
    after.provinces[taken] = replace(before.provinces[taken], controller=moved.kingdom_id)
    # Behind the writer's back: columns the phase did not change, in rows it writes and rows it does not.
    Army.objects.filter(pk=moved.pk).update(size=1234, recover_streak=2)
    Army.objects.filter(pk=left.pk).update(size=999, recover_streak=5)
    Province.objects.filter(campaign=demo_campaign, number__in=[taken, untouched]).update(
        incantation=True, ruin_raids=3
    )

    with CaptureQueriesContext(connection) as queries, transaction.atomic():
        world_write(turn=1, campaign=demo_campaign, before=before, after=after, events=[])

    moved.refresh_from_db()
    left.refresh_from_db()
    assert (moved.province.number, moved.co_occupying, moved.size, moved.recover_streak) == (target, True, 1234, 2)
    assert (left.size, left.recover_streak) == (999, 5)
    rows = {p.number: p for p in Province.objects.filter(campaign=demo_campaign, number__in=[taken, untouched])}
    assert rows[taken].controller_id == moved.kingdom_id
    assert all(p.incantation and p.ruin_raids == 3 for p in rows.values())
    assert len(_updates_of(queries.captured_queries, Army._meta.db_table)) == 1
    assert len(_updates_of(queries.captured_queries, Province._meta.db_table)) == 1


def test_a_phase_that_changed_nothing_writes_no_army_nor_province(demo_campaign):
    before = world_load(campaign=demo_campaign, turn_number=1)
    with CaptureQueriesContext(connection) as queries, transaction.atomic():
        world_write(turn=1, campaign=demo_campaign, before=before, after=before.working_copy(), events=[])
    assert not [q for q in queries.captured_queries if q["sql"].lstrip().upper().startswith(("UPDATE", "WITH"))]


def test_every_field_of_an_army_and_of_a_province_is_written(demo_campaign):
    """Each of ARMY_FIELDS and PROVINCE_FIELDS, changed in one record, is written with its type
    (foreign keys, booleans, nullable integers, the terrain and settlement's text), and a second
    army and province changed in one field each keep their other fields."""
    army, other = _two_field_armies(demo_campaign)
    town = Province.objects.filter(campaign=demo_campaign, settlement="town").order_by("number").first()
    Province.objects.filter(pk=town.pk).update(fortified=True)  # so that razing it changes both
    before = world_load(campaign=demo_campaign, turn_number=1)
    after = before.working_copy()
    was = before.armies[army.id]
    numbers = sorted(before.provinces)
    target = next(n for n in numbers if n != was.province)
    after.armies[army.id] = replace(
        was,
        province=target,
        size=was.size + 250,
        supply_depot=not was.supply_depot,
        experience=was.experience + 3,
        upgraded_turn=1,
        recover_streak=was.recover_streak + 1,
        co_occupying=not was.co_occupying,
        fortified_in=target,
        disbanded=True,
        list_due=not was.list_due,
        losses_before_list=was.losses_before_list + 40,
        last_battle_turn=1,
        spare_carts=was.spare_carts + 2,
    )
    after.armies[other.id] = replace(before.armies[other.id], spare_carts=1)
    number = town.number
    second = next(n for n in numbers if n != number)
    p = before.provinces[number]
    after.provinces[number] = replace(
        p,
        controller=army.kingdom_id if p.controller != army.kingdom_id else other.kingdom_id,
        razed=True,  # and no longer fortified (province_razed_not_fortified)
        fortified=False,
        terrain=Terrain.DESERT if p.terrain != Terrain.DESERT else Terrain.PLAINS,
        settlement=Settlement.RUINS,
        incantation=not p.incantation,
        land_sale_turn=1,
        rogue=not p.rogue,
        looted_turn=1,
        ruin_sacked=not p.ruin_sacked,
        ruin_raids=p.ruin_raids + 1,
    )
    after.provinces[second] = replace(before.provinces[second], ruin_raids=2)
    # The experience ledger explains every balance the writer writes.
    gained = Event("test", EventCode.EXPERIENCE, "Three points.", kingdom=army.kingdom_id, army=army.id, experience=3)
    stored_other = Army.objects.get(pk=other.pk)
    stored_second = Province.objects.get(campaign=demo_campaign, number=second)

    with transaction.atomic():
        world_write(turn=1, campaign=demo_campaign, before=before, after=after, events=[gained])

    row = Army.objects.select_related("province", "fortified_in").get(pk=army.pk)
    new = after.armies[army.id]
    assert {
        "province": row.province.number,
        "size": row.size,
        "supply_depot": row.supply_depot,
        "experience": row.experience,
        "upgraded_turn": row.upgraded_turn,
        "recover_streak": row.recover_streak,
        "co_occupying": row.co_occupying,
        "fortified_in": row.fortified_in.number,
        "status": row.status,
        "list_due": row.list_due,
        "losses_before_list": row.losses_before_list,
        "last_battle_turn": row.last_battle_turn,
        "spare_carts": row.spare_carts,
    } == {
        "province": target,
        "size": new.size,
        "supply_depot": new.supply_depot,
        "experience": new.experience,
        "upgraded_turn": 1,
        "recover_streak": new.recover_streak,
        "co_occupying": new.co_occupying,
        "fortified_in": target,
        "status": Army.Status.DISBANDED,
        "list_due": new.list_due,
        "losses_before_list": new.losses_before_list,
        "last_battle_turn": 1,
        "spare_carts": new.spare_carts,
    }
    assert set(ARMY_FIELDS) == {
        "province", "size", "supply_depot", "experience", "upgraded_turn", "recover_streak", "co_occupying",
        "fortified_in", "status", "list_due", "losses_before_list", "last_battle_turn", "spare_carts",
    }  # fmt: skip
    kept = Army.objects.get(pk=other.pk)
    assert kept.spare_carts == 1
    assert [getattr(kept, f) for f in ARMY_FIELDS if f != "spare_carts"] == [
        getattr(stored_other, f) for f in ARMY_FIELDS if f != "spare_carts"
    ]

    row_p = Province.objects.get(campaign=demo_campaign, number=number)
    q = after.provinces[number]
    assert {f: getattr(row_p, Province._meta.get_field(f).attname) for f in PROVINCE_FIELDS} == {
        "controller": q.controller,
        "razed": True,
        "fortified": False,
        "terrain": q.terrain.value,
        "settlement": "ruins",
        "incantation": q.incantation,
        "land_sale_turn": 1,
        "rogue": q.rogue,
        "looted_turn": 1,
        "ruin_sacked": q.ruin_sacked,
        "ruin_raids": q.ruin_raids,
    }
    kept_p = Province.objects.get(pk=stored_second.pk)
    assert kept_p.ruin_raids == 2
    assert [getattr(kept_p, f) for f in PROVINCE_FIELDS if f != "ruin_raids"] == [
        getattr(stored_second, f) for f in PROVINCE_FIELDS if f != "ruin_raids"
    ]
