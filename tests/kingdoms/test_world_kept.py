"""The world an order sheet is checked against (kingdoms/services/world.py, world_for_kingdom): the
turn's world, with the map and the other kingdoms kept between sheets while nothing but the
kingdoms' own sheets changes them (issue 17, "Fast under the weekly rush": a submission's cost does
not grow with the campaign's size more than it must)."""

from __future__ import annotations

import threading
from dataclasses import replace
from typing import Any

import pytest
from django.db import connection, transaction
from django.db.transaction import TransactionManagementError
from django.test.utils import CaptureQueriesContext

from kingdoms.models import Army, Campaign, Kingdom, TreasuryEntry, Unit
from kingdoms.services.world import _reading, world_for_kingdom, world_kept_forget
from kingdoms.services.world import world_load as world_load_whole
from orders.services.sheets import order_sheet_save
from rulebook.turn.write_orders.problems import SheetProblemCode
from rulebook.turn.write_orders.records import ArmyOrder, OrderKind, SheetEntries
from rulebook.world import World
from tests.clients import pages_as, user_named
from turns.services.cycle import orders_phase_run


def world_load(*, campaign: Campaign, turn_number: int) -> World:
    """The turn's world as the sheet's check reads it: without the characters and magic items the
    phases read (decisions 590, 591)."""
    return replace(world_load_whole(campaign=campaign, turn_number=turn_number), characters={}, items={})


def _worlds_agree(campaign: Campaign, turn_number: int) -> None:
    loaded = world_load(campaign=campaign, turn_number=turn_number)
    for kingdom in campaign.kingdoms.all():
        assert world_for_kingdom(campaign=campaign, turn_number=turn_number, kingdom=kingdom.id) == loaded


def test_each_kingdoms_sheet_is_checked_against_the_world_the_turn_loads(demo_campaign):
    _worlds_agree(demo_campaign, 1)
    _worlds_agree(demo_campaign, 1)  # and again, from the kept copy


def test_a_kingdoms_own_gold_and_army_list_are_read_at_every_check(demo_campaign):
    ostland = Kingdom.objects.get(campaign=demo_campaign, name="Ostland")
    before = world_for_kingdom(campaign=demo_campaign, turn_number=1, kingdom=ostland.id)
    # Written the way no phase or admin edit is, bypassing world_changed: the kingdom's own gold
    # and list are read fresh whatever wrote them.
    TreasuryEntry.objects.bulk_create(
        [TreasuryEntry(kingdom=ostland, turn=1, amount=700, reason=TreasuryEntry.Reason.ADJUSTMENT)]
    )
    unit = Unit.objects.filter(army__kingdom=ostland, models_count__gt=1).first()
    Unit.objects.filter(pk=unit.pk).update(models_count=unit.models_count - 1)

    after = world_for_kingdom(campaign=demo_campaign, turn_number=1, kingdom=ostland.id)

    assert after.kingdoms[ostland.id].treasury == before.kingdoms[ostland.id].treasury + 700
    assert after.armies[unit.army_id].points == before.armies[unit.army_id].points - unit.points_per_model
    assert after == world_load(campaign=demo_campaign, turn_number=1)


def _admin_change(client: Any, url: str, **changes: Any) -> None:
    """Post the admin's change form of `url` as it stands, with `changes`."""
    form = client.get(url).context["adminform"].form
    data = {name: form[name].value() for name in form.fields}
    data.update(changes)
    data = {k: v for k, v in data.items() if v is not None}
    response = client.post(url, data)
    assert response.status_code == 302, response.content.decode()[:2000]


def test_an_organizers_edit_in_the_admin_is_seen_by_the_next_sheet(demo_campaign):
    """The organizer razes, in the admin mid-week, the province Ostland's army stands in: the army
    may no longer fortify it (Fortify: "razed provinces cannot be fortified")."""
    ostland = Kingdom.objects.get(campaign=demo_campaign, name="Ostland")
    turn = demo_campaign.turns.get(number=1)
    army = Army.objects.get(kingdom=ostland, name="1st Army")
    fortify = SheetEntries(orders=(ArmyOrder(army=army.pk, kind=OrderKind.FORTIFY),))
    alice = user_named("alice")
    assert order_sheet_save(kingdom=ostland, turn=turn, entries=fortify, submitted_by=alice, submit=False).check.ok

    _admin_change(pages_as("organizer"), f"/admin/kingdoms/province/{army.province_id}/change/", razed=True)

    check = order_sheet_save(kingdom=ostland, turn=turn, entries=fortify, submitted_by=alice, submit=False).check
    assert [p.code for p in check.error_problems] == [SheetProblemCode.FORTIFY_RAZED]


def test_every_phase_of_the_turn_makes_the_kept_worlds_be_read_again(demo_campaign):
    version = Campaign.objects.get(pk=demo_campaign.pk).world_version
    orders_phase_run(turn_id=demo_campaign.turns.get(number=1).pk)
    assert Campaign.objects.get(pk=demo_campaign.pk).world_version > version
    _worlds_agree(demo_campaign, 2)


def test_the_second_sheet_of_a_campaign_reads_no_province_of_the_map(demo_campaign):
    turn = demo_campaign.turns.get(number=1)
    ostland = Kingdom.objects.get(campaign=demo_campaign, name="Ostland")
    other = Kingdom.objects.get(campaign=demo_campaign, name="Da Red Fang")
    order_sheet_save(kingdom=ostland, turn=turn, entries=SheetEntries(), submitted_by=user_named("alice"), submit=False)
    with CaptureQueriesContext(connection) as queries:
        order_sheet_save(kingdom=other, turn=turn, entries=SheetEntries(), submitted_by=user_named("bob"), submit=False)
    sql = [q["sql"] for q in queries.captured_queries]
    assert not [s for s in sql if 'FROM "kingdoms_province"' in s]
    assert not [s for s in sql if "kingdoms_province_neighbours" in s]


def _reads_the_map(campaign: Campaign) -> bool:
    """Whether checking a sheet of `campaign` now reads its map (its world was not kept)."""
    with CaptureQueriesContext(connection) as queries:
        world_for_kingdom(campaign=campaign, turn_number=1, kingdom=0)
    return any('FROM "kingdoms_province"' in q["sql"] for q in queries.captured_queries)


def test_a_process_keeps_the_worlds_of_as_many_campaigns_as_its_setting_says(organizer, settings):
    """WORLD_KEPT_CAMPAIGNS (issue 35): the campaigns a process serves are kept; beyond them the one
    used least recently is dropped and read again when a sheet of it comes."""
    settings.WORLD_KEPT_CAMPAIGNS = 2
    first, second, third = (
        Campaign.objects.create(name=f"Kept {i}", organizer=organizer, player_count=2, status=Campaign.Status.RUNNING)
        for i in range(3)
    )
    assert _reads_the_map(first) and _reads_the_map(second)
    assert not _reads_the_map(first) and not _reads_the_map(second)  # both kept
    assert _reads_the_map(third)  # a third: the least recently used (the first) is dropped
    assert not _reads_the_map(second) and not _reads_the_map(third)
    assert _reads_the_map(first)  # and the second is dropped for it
    settings.WORLD_KEPT_CAMPAIGNS = 3
    assert _reads_the_map(second)
    assert not any(_reads_the_map(c) for c in (first, second, third))  # all three kept


def test_threads_that_miss_the_kept_world_together_read_the_map_once(transactional_db):
    """The weekly rush's first sheets reach a worker's threads at once: one reads the campaign's map
    and the others wait for it and take its copy, rather than each reading the whole map (issue 35)."""
    from demo.campaign import demo_campaign_create

    campaign = demo_campaign_create()
    world_kept_forget()  # as a worker finds it after a phase of the turn
    kingdoms = list(campaign.kingdoms.values_list("id", flat=True)) * 2
    start = threading.Barrier(len(kingdoms))
    map_reads: list[int] = []
    worlds: dict[int, Any] = {}

    def check(index: int, kingdom: int) -> None:
        try:
            with CaptureQueriesContext(connection) as queries:
                start.wait()
                worlds[index] = world_for_kingdom(campaign=campaign, turn_number=1, kingdom=kingdom)
            map_reads.append(sum('FROM "kingdoms_province"' in q["sql"] for q in queries.captured_queries))
        finally:
            connection.close()

    threads = [threading.Thread(target=check, args=item) for item in enumerate(kingdoms)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)

    assert sum(map_reads) == 1 and len(map_reads) == len(kingdoms)
    # Each thread's world is the turn's, as one read alone gives it (the kept copy shared, not changed).
    loaded = world_load(campaign=campaign, turn_number=1)
    assert len(worlds) == len(kingdoms) and all(world == loaded for world in worlds.values())


def test_a_read_of_the_world_leaves_no_reader_entry_behind_even_when_it_raises(demo_campaign):
    """The per-campaign reader lock (`_reading`) lives only while a read is under way: a read that
    raises (here the database refuses every query of a transaction marked for rollback, as after
    an error) removes it too, and the next sheet reads the world as usual."""
    world_kept_forget()
    version = Campaign.objects.get(pk=demo_campaign.pk).world_version
    ostland = Kingdom.objects.get(campaign=demo_campaign, name="Ostland")
    with transaction.atomic():
        transaction.set_rollback(True)
        with pytest.raises(TransactionManagementError):
            world_for_kingdom(campaign=demo_campaign, turn_number=1, kingdom=ostland.id, world_version=version)
    assert demo_campaign.pk not in _reading

    world = world_for_kingdom(campaign=demo_campaign, turn_number=1, kingdom=ostland.id, world_version=version)
    assert world == world_load(campaign=demo_campaign, turn_number=1)
    assert demo_campaign.pk not in _reading
