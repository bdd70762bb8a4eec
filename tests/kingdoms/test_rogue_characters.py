"""A Rogue Kingdom's armies leave the map with their characters (Player Issues > Rogue Kingdom, New Player
Option: the lands "return as they were ... (but not the armies)"; decision 594). A kingdom has one living
Warlord (kingdoms.models.Character's constraint): the old Warlord left living in a disbanded army made
the new player's list, naming its own Warlord, fail on that constraint (a server error, the list never
entered)."""

from __future__ import annotations

from kingdoms.models import Character, Kingdom
from kingdoms.services.armies import army_list_save
from kingdoms.services.rogue import rogue_rows_write
from rulebook.armies.army_lists import CharacterEntry, UnitEntry
from tests.kingdoms.builders import army_built, campaign_built, character_built, kingdom_built, unit_built
from tests.turns.builders import turn_built


def test_a_rogue_kingdom_given_to_a_new_player_takes_a_new_warlord_on_its_first_list(db) -> None:
    """Eastmark's player is out: its Old Host leaves the map, its Warlord with it; a new player takes it and
    raises a New Host whose list names a new Warlord: the list is entered, and he is the one living Warlord."""
    campaign = campaign_built(name="Rogue", provinces=8)
    kingdom = kingdom_built(campaign, "Eastmark", player="east", capitol=1, gold=5000)
    kingdom_built(campaign, "Westreach", player="west")
    turn_built(campaign)
    old = army_built(kingdom, name="Old Host", province=1)
    unit_built(old, "Halberdiers", models_count=40)
    old_king = character_built(old, "Old King", role="warlord", rank="lord", points=150)

    rogue_rows_write(kingdom=kingdom, turn_number=1)
    old_king.refresh_from_db()
    assert not old_king.alive  # gone with his army

    Kingdom.objects.filter(pk=kingdom.pk).update(rogue_turn=None)  # New Player Option (the organizer's)
    new = army_built(kingdom, name="New Host", province=2, size=1000, list_due=True)
    army_list_save(
        army=new,
        units=[
            UnitEntry("New King", "character", 1, 150, character=CharacterEntry("lord", "warlord", "noble")),
            UnitEntry("Halberdiers", "core", 40, 5),
            UnitEntry("Spearmen", "core", 40, 5),
            UnitEntry("Archers", "core", 20, 8),
            UnitEntry("Crossbowmen", "core", 10, 9),
            UnitEntry("Swordsmen", "core", 40, 5),
        ],
        items=[],
    )

    (warlord,) = Character.objects.filter(kingdom=kingdom, role="warlord", alive=True)
    assert (warlord.unit.name, warlord.unit.army_id) == ("New King", new.pk)
