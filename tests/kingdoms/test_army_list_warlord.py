"""The Warlord in the army list editor once the campaign runs (kingdoms/services/armies.py
army_list_save): Warlord ("Once the Warlord is created, they will not change through the course of the
campaign, unless they die") and Setup (the starting army "must include the Warlord"). Decision 614."""

from dataclasses import replace

import pytest

from briternia.errors import DomainError
from kingdoms.models import Army, Campaign, Character, Unit
from kingdoms.services import armies as army_services
from rulebook.armies.army_lists import ItemEntry, UnitEntry


def _starting_army(ostland) -> Army:
    army = ostland.armies.get(kind=Army.Kind.FIELD, created_turn=0)
    assert ostland.campaign.status == Campaign.Status.RUNNING
    return army


def _led_by_reiner(units: list[UnitEntry], *, leave_out: str) -> list[UnitEntry]:
    """The list without `leave_out`, Captain Reiner its General (a Noble, as a General selects an Archetype)."""
    return [
        replace(u, character=replace(u.character, role="general", archetype="noble"))
        if u.name == "Captain Reiner" and u.character
        else u
        for u in units
        if u.name != leave_out
    ]


def _without_items_of(items: list[ItemEntry], bearer: str) -> list[ItemEntry]:
    return [i for i in items if i.bearer != bearer]


def test_the_starting_army_whose_warlord_died_takes_a_new_general(ostland, turn):
    """Setup's "a 2,000 point army that must include the Warlord" is the starting army's at setup. Once
    the campaign runs and the Warlord dies (his unit left with no model, Character Injury Chart), the
    player removes him from the list and makes the hero the army's General: the list is saved. It was
    refused for ever ("the starting army must include the Warlord"), and the army had no General."""
    army = _starting_army(ostland)
    warlord = Character.objects.get(unit__army=army, role=Character.Role.WARLORD)
    Character.objects.filter(pk=warlord.pk).update(alive=False)
    Unit.objects.filter(pk=warlord.unit_id).update(models_count=0)
    units, items = army_services.army_entries(army)

    army_services.army_list_save(
        army=army,
        units=_led_by_reiner(units, leave_out=warlord.unit.name),
        items=_without_items_of(items, warlord.unit.name),
    )

    reiner = Character.objects.get(unit__army=army, unit__name="Captain Reiner")
    assert (reiner.role, reiner.archetype) == (Character.Role.GENERAL, "noble")
    assert not Character.objects.filter(pk=warlord.pk).exists()  # his unit, of no model, left the list


@pytest.mark.parametrize("how", ["left out", "made a General"])
def test_the_living_warlord_is_never_removed_nor_demoted_by_a_list_edit(ostland, turn, how):
    """Warlord: "Once the Warlord is created, they will not change through the course of the campaign,
    unless they die". The Warlord of an army that is not the starting army (as a successor's is) is
    neither left out of its list nor made a mere General by an edit: refused whole, naming the army,
    the Warlord and the rule; he leaves by death or retirement. Both were saved, and the kingdom was
    left without a Warlord (or another General could be typed its Warlord)."""
    army = _starting_army(ostland)
    Army.objects.filter(pk=army.pk).update(created_turn=1)  # not the starting army: Setup's rule is not his
    army.refresh_from_db()
    warlord = Character.objects.get(unit__army=army, role=Character.Role.WARLORD)
    units, items = army_services.army_entries(army)
    if how == "left out":
        edited = _led_by_reiner(units, leave_out=warlord.unit.name)
        items = _without_items_of(items, warlord.unit.name)
    else:
        edited = [
            replace(u, character=replace(u.character, role="general", rank="hero")) if u.key == warlord.unit_id else u
            for u in units
        ]

    with pytest.raises(DomainError) as refused:
        army_services.army_list_save(army=army, units=edited, items=items)

    assert refused.value.messages == [
        f"1st Army: {warlord.unit.name} stays in the list as the kingdom's Warlord: once created, the Warlord does "
        "not change through the course of the campaign unless he dies (Warlord); a character leaves the list by "
        "retiring (Character Injury Chart)."
    ]
    warlord.refresh_from_db()
    assert (warlord.role, warlord.alive, warlord.unit.army_id) == (Character.Role.WARLORD, True, army.pk)
