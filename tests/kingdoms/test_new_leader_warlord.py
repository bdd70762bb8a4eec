"""New Player Option: a Rogue Kingdom given to a new player returns "as they were with towns, cities, and
treasury restored (but not the armies)", and so without a Warlord. The new leader creates one as at Setup
("Players create a Warlord (a Lord level character)... they are allowed a free roll on their chosen
Archetype table"; Warlord) in the first army the kingdom raises (decision 603). A kingdom that went Rogue
before decision 594 kept its characters living in its disbanded armies: they leave the map at the
hand-over, or its new Warlord would be a second living Warlord (kingdoms.models.Character's constraint)."""

from __future__ import annotations

import importlib

import pytest
from django.apps import apps

from briternia.errors import DomainError
from kernel.event_codes import EventCode
from kingdoms.models import Army, Character, Kingdom
from kingdoms.services.armies import army_entries, army_list_problems, army_list_save
from orders.services.rogue import rogue_kingdom_give
from rulebook.armies.army_lists import CharacterEntry, UnitEntry
from tests.kingdoms.builders import army_built, campaign_built, character_built, kingdom_built, unit_built
from tests.turns.builders import turn_built
from turns.models import DiceRoll, TurnEvent


def _troops() -> list[UnitEntry]:
    return [
        UnitEntry("Halberdiers", "core", 40, 5),
        UnitEntry("Spearmen", "core", 40, 5),
        UnitEntry("Archers", "core", 20, 8),
        UnitEntry("Crossbowmen", "core", 10, 9),
        UnitEntry("Swordsmen", "core", 40, 5),
    ]


def _went_rogue_before_decision_594(kingdom: Kingdom, turn_number: int = 1) -> Character:
    """Eastmark went Rogue as the site did before decision 594: its army disbanded, its Warlord (who had
    his free roll at Setup) left living in it."""
    old = army_built(kingdom, name="Old Host", province=1, status=Army.Status.DISBANDED)
    unit_built(old, "Halberdiers", models_count=40)
    old_king = character_built(
        old, "Old King", role="warlord", rank="lord", points=150, archetype="noble", abilities=["Inspiring", "Wise"]
    )
    DiceRoll.objects.create(
        campaign=kingdom.campaign,
        turn=0,
        stream=f"warlord-free-roll:{kingdom.pk}",
        sequence=0,
        expression="1d6",
        faces=[2],
        total=2,
        purpose="free roll on the Noble table",
    )
    Kingdom.objects.filter(pk=kingdom.pk).update(rogue_turn=turn_number)
    kingdom.players.clear()
    kingdom.refresh_from_db()
    return old_king


@pytest.fixture
def eastmark(db) -> Kingdom:
    campaign = campaign_built(name="New leader", provinces=8)
    kingdom = kingdom_built(campaign, "Eastmark", capitol=1, gold=5000)
    kingdom_built(campaign, "Westreach", player="west")
    turn_built(campaign)
    return kingdom


def test_the_new_leader_creates_a_lord_warlord_in_the_first_army_the_kingdom_raises(eastmark) -> None:
    """New Player Option, Warlord, Setup (decision 603): Eastmark, Rogue since before decision 594, is
    given to Erin. Its old King leaves the map; her first army's list is refused, naming the army and the
    rule, until it includes a Warlord of Lord level; then he is the kingdom's one living Warlord, with his
    free roll on his Archetype table, and her second army needs none."""
    old_king = _went_rogue_before_decision_594(eastmark)

    rogue_kingdom_give(kingdom=eastmark, email="erin@example.com")

    old_king.refresh_from_db()
    assert not old_king.alive  # gone with his army (decision 594)
    eastmark.refresh_from_db()
    assert eastmark.warlord_to_create
    (event,) = TurnEvent.objects.filter(code=EventCode.NEW_PLAYER)
    assert "creates a Warlord (a Lord level character) in the first army" in event.text

    first = army_built(eastmark, name="Erin's Host", province=1, size=1000, created_turn=1, list_due=True)
    second = army_built(eastmark, name="Erin's Guard", province=2, size=1000, created_turn=1, list_due=True)
    captain = [UnitEntry("Captain", "character", 1, 150, character=CharacterEntry("hero", "general", "noble"))]
    with pytest.raises(DomainError) as refused:
        army_list_save(army=first, units=captain + _troops(), items=[])
    assert "Erin's Host: the kingdom's new leader creates its Warlord (a Lord level character) in the first army" in (
        str(refused.value)
    )
    assert "(New Player Option, Warlord, Setup)" in str(refused.value)
    hero_warlord = [UnitEntry("Erin", "character", 1, 150, character=CharacterEntry("hero", "warlord", "noble"))]
    with pytest.raises(DomainError) as refused:
        army_list_save(army=first, units=hero_warlord + _troops(), items=[])
    assert "Erin's Host: Erin is the Warlord, a Lord level character (Warlord)." in str(refused.value)
    assert not first.units.exists()  # nothing half-saved

    lord = [UnitEntry("Erin", "character", 1, 150, character=CharacterEntry("lord", "warlord", "noble"))]
    army_list_save(army=first, units=lord + _troops(), items=[])

    (warlord,) = Character.objects.filter(kingdom=eastmark, role="warlord", alive=True)
    assert (warlord.unit.name, warlord.unit.army_id) == ("Erin", first.pk)
    # Setup's free roll: a second roll on the kingdom's stream, an ability beyond the starting one.
    rolls = DiceRoll.objects.filter(campaign=eastmark.campaign, stream=f"warlord-free-roll:{eastmark.pk}")
    assert rolls.count() >= 2
    assert len(warlord.abilities) == 2 or warlord.ability_choice_pending
    eastmark.refresh_from_db()
    assert not eastmark.warlord_to_create
    # The second army is led by a General; the Warlord is created once.
    army_list_save(army=second, units=captain + _troops(), items=[])
    assert army_list_problems(second) == []
    units, items = army_entries(first)  # his list saved again
    army_list_save(army=first, units=units, items=items)
    assert DiceRoll.objects.filter(stream=f"warlord-free-roll:{eastmark.pk}").count() == rolls.count()  # no roll again


def test_a_kingdom_given_with_a_living_warlord_needs_no_new_one(eastmark) -> None:
    """A Rogue Kingdom whose Warlord still stands in an active army (none does since decision 152, but the
    organizer's data may) is given without a Warlord to create: its first army is led by any General."""
    Kingdom.objects.filter(pk=eastmark.pk).update(rogue_turn=1)
    eastmark.refresh_from_db()
    host = army_built(eastmark, name="Kept Host", province=1)
    character_built(host, "Old King", role="warlord", rank="lord", points=150, archetype="noble")

    rogue_kingdom_give(kingdom=eastmark, email="erin@example.com")

    eastmark.refresh_from_db()
    assert not eastmark.warlord_to_create
    assert Character.objects.filter(kingdom=eastmark, alive=True).count() == 1


def test_the_migration_makes_the_characters_of_kingdoms_that_went_rogue_before_leave(eastmark) -> None:
    """Decision 594 for the data: a kingdom Rogue before it keeps no living character in its disbanded
    armies; another kingdom's characters, and a Rogue Kingdom's in an active army, are untouched."""
    old_king = _went_rogue_before_decision_594(eastmark)
    westreach = Kingdom.objects.get(name="Westreach")
    west_host = army_built(westreach, name="West Host", province=5)
    west_king = character_built(west_host, "West King", role="warlord", rank="lord", points=150)
    migration = importlib.import_module("kingdoms.migrations.0034_new_leader_warlord")

    migration.rogue_characters_leave(apps, None)
    migration.rogue_characters_leave(apps, None)  # idempotent

    old_king.refresh_from_db()
    west_king.refresh_from_db()
    assert (old_king.alive, west_king.alive) == (False, True)


def test_a_successor_who_came_before_the_new_warlord_s_list_takes_no_free_roll(eastmark) -> None:
    """Warlord: a General who succeeds "does not get an extra roll on their chosen Archetype table". Erin's
    first army fell before its list was entered and the General of her Guard succeeded as Warlord: no list
    must create another (decision 603), and saving his list rolls nothing."""
    _went_rogue_before_decision_594(eastmark)
    rogue_kingdom_give(kingdom=eastmark, email="erin@example.com")
    army_built(eastmark, name="Fallen Host", province=1, size=1000, created_turn=1, status=Army.Status.DISBANDED)
    guard = army_built(eastmark, name="Erin's Guard", province=2, size=1000, created_turn=1)
    heir = character_built(
        guard, "Heir", role="warlord", rank="hero", points=150, archetype="noble", abilities=["Inspiring"]
    )
    for unit in _troops():
        unit_built(guard, unit.name, models_count=unit.models, points_per_model=unit.points_per_model)
    rolls = DiceRoll.objects.filter(stream=f"warlord-free-roll:{eastmark.pk}").count()

    assert army_list_problems(guard) == []
    units, items = army_entries(guard)
    army_list_save(army=guard, units=units, items=items)

    heir.refresh_from_db()
    assert heir.abilities == ["Inspiring"] and not heir.ability_choice_pending
    assert DiceRoll.objects.filter(stream=f"warlord-free-roll:{eastmark.pk}").count() == rolls
    eastmark.refresh_from_db()
    assert not eastmark.warlord_to_create
