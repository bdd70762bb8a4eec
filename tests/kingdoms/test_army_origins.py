"""Army-Specific Rules that depend on where an army was created (rulebook/army_specific/origins.py,
through the list check and kingdoms/services/armies.py): Lizardmen, "Temple Dwellers"; Hordes of
Chaos, "Shrine Cultists"; Dwarfs and Chaos Dwarfs, "Perfectionists". Units and runic items are
recognised by name (rules decisions 66 and 387)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from briternia.errors import DomainError
from kingdoms.models import Army, ArmyMovement, Kingdom, Province
from kingdoms.services.armies import army_entries, army_list_save
from rulebook.armies.army_lists import (
    ArmyListDraft,
    CharacterEntry,
    ItemEntry,
    KingdomRoster,
    UnitEntry,
    army_list_errors,
)
from rulebook.tables import ArmyType
from tests.clients import error_details

SKINK_PRIEST = UnitEntry("Skink Priest", "character", 1, 65, character=CharacterEntry("hero", "general", "veteran"))
CHAOS_LORD = UnitEntry(
    "Exalted Champion", "character", 1, 110, character=CharacterEntry("hero", "general", "barbarian")
)
DAEMON_HERALD = UnitEntry(
    "Herald of Khorne", "character", 1, 120, character=CharacterEntry("hero", "general", "barbarian")
)
NOWHERE = "in 14 Marsh Hollow (no town or city)"


def draft(army_type, units, *, from_settlement=False) -> ArmyListDraft:
    return ArmyListDraft(
        label="2nd Army",
        army_type=army_type,
        size=2000,
        units=tuple(units),
        from_settlement=from_settlement,
        origin="in a town" if from_settlement else NOWHERE,
        entering=False,  # an edited list: the 1,000-point minimum is not what these tests are about
    )


def errors(army_type, units, *, from_settlement=False) -> list[str]:
    return army_list_errors(draft(army_type, units, from_settlement=from_settlement), KingdomRoster())


def lizard_units(*names):
    return [
        SKINK_PRIEST,
        UnitEntry("Saurus Warriors", "core", 40, 12),
        *(UnitEntry(n, "special", 20, 15) for n in names),
    ]


def test_temple_dwellers_no_temple_guard_or_sacred_spawning_outside_a_town():
    """Lizardmen, Temple Dwellers: "May not give troops sacred spawns or include temple guard if
    the army was not created in a town or city"; the message names the army, the unit, where it
    was created and the rule."""
    found = errors(ArmyType.LIZARDMEN, lizard_units("Temple Guard", "Saurus Cavalry, Spawning of Sotek"))
    assert found == [
        f"2nd Army: Temple Guard: an army not created in a town or city may not include Temple Guard or give "
        f"troops Sacred Spawnings; it was created {NOWHERE} (Temple Dwellers).",
        f"2nd Army: Saurus Cavalry, Spawning of Sotek: an army not created in a town or city may not include "
        f"Temple Guard or give troops Sacred Spawnings; it was created {NOWHERE} (Temple Dwellers).",
    ]
    assert errors(ArmyType.LIZARDMEN, lizard_units("Temple Guard"), from_settlement=True) == []
    assert errors(ArmyType.LIZARDMEN, lizard_units("Skink Skirmishers")) == []


def chaos_units(general, *names):
    return [general, UnitEntry("Chaos Warriors", "core", 40, 15), *(UnitEntry(n, "special", 10, 20) for n in names)]


def test_shrine_cultists_a_mortal_army_has_no_daemons_nor_marks_but_undivided():
    """Hordes of Chaos, Shrine Cultists: a mortal army from the wilds may not include daemons, nor
    give troops a Mark other than Undivided."""
    found = errors(
        ArmyType.HORDES_OF_CHAOS,
        chaos_units(CHAOS_LORD, "Bloodletters", "Chaos Knights, Mark of Khorne", "Marauders, Mark of Chaos Undivided"),
    )
    assert len(found) == 2
    assert "2nd Army: Bloodletters: a mortal army not from a town or city may not include daemons" in found[0]
    assert "Shrine Cultists" in found[0] and NOWHERE in found[0]
    assert (
        "Chaos Knights, Mark of Khorne: a mortal army not from a town or city may give troops only the Mark"
        in (found[1])
    )
    assert errors(ArmyType.HORDES_OF_CHAOS, chaos_units(CHAOS_LORD, "Bloodletters"), from_settlement=True) == []


def test_shrine_cultists_a_daemon_army_has_no_mortals():
    """A daemon leads a daemon army (rules decision 66): the mortal Chaos Warriors are refused; its
    daemons bear their god's name freely."""
    found = errors(ArmyType.HORDES_OF_CHAOS, chaos_units(DAEMON_HERALD, "Flesh Hounds of Khorne"))
    assert found == [
        f"2nd Army: Chaos Warriors: a daemon army not from a town or city may not include mortals; it was created "
        f"{NOWHERE} (Shrine Cultists)."
    ]


def test_other_armies_are_not_touched_by_these_rules():
    assert errors(ArmyType.EMPIRE, [UnitEntry("Temple Guard", "core", 100, 10)]) == [
        "2nd Army: an army needs exactly one General (the Warlord or a General); it has 0."
    ]


@pytest.fixture
def lizard_kingdom(demo_campaign) -> Kingdom:
    """Karak Dumn, played as Lizardmen for these tests (their own armies are not edited here)."""
    kingdom = Kingdom.objects.get(campaign=demo_campaign, name="Karak Dumn")
    Kingdom.objects.filter(pk=kingdom.pk).update(army_type=ArmyType.LIZARDMEN)
    kingdom.refresh_from_db()
    return kingdom


def _raised_in(kingdom: Kingdom, province: Province) -> Army:
    """An army raised in turn 1 in `province` (its movement, step 0 of the turn it was created)."""
    army = Army.objects.create(
        kingdom=kingdom, name="Spawn Host", province=province, size=1500, created_turn=1, list_due=True
    )
    ArmyMovement.objects.create(army=army, turn=1, step=0, province=province)
    return army


def _units():
    return [
        SKINK_PRIEST,
        UnitEntry("Saurus Warriors", "core", 50, 12),
        UnitEntry("Temple Guard", "special", 20, 15),
        UnitEntry("Skinks", "core", 30, 8),
    ]


def test_the_list_editor_refuses_temple_guard_for_an_army_raised_in_the_wilds(lizard_kingdom, demo_campaign):
    wilds = (
        Province.objects.filter(campaign=demo_campaign, settlement="none")
        .exclude(pk__in=Kingdom.objects.exclude(capitol=None).values("capitol"))
        .first()
    )
    army = _raised_in(lizard_kingdom, wilds)
    with pytest.raises(DomainError) as refused:
        army_list_save(army=army, units=_units(), items=[])
    assert refused.value.messages == [
        f"Spawn Host: Temple Guard: an army not created in a town or city may not include Temple Guard or give "
        f"troops Sacred Spawnings; it was created in {wilds.number} {wilds.name} (no town or city) (Temple Dwellers)."
    ]
    assert not army.units.exists()


def test_an_army_raised_in_a_town_may_have_its_temple_guard_even_after_moving(lizard_kingdom, demo_campaign):
    town = Province.objects.filter(campaign=demo_campaign, settlement="town").first()
    elsewhere = Province.objects.filter(campaign=demo_campaign, settlement="none").first()
    army = _raised_in(lizard_kingdom, town)
    Army.objects.filter(pk=army.pk).update(province=elsewhere)  # where it stands now does not matter
    army.refresh_from_db()
    army_list_save(army=army, units=_units(), items=[])
    assert army.units.filter(name="Temple Guard").exists()


def test_the_api_refuses_the_list_whole_naming_the_rule(lizard_kingdom, demo_campaign, api_client_for):
    wilds = (
        Province.objects.filter(campaign=demo_campaign, settlement="none")
        .exclude(pk__in=Kingdom.objects.exclude(capitol=None).values("capitol"))
        .first()
    )
    army = _raised_in(lizard_kingdom, wilds)
    body = {
        "units": [
            {
                "name": "Skink Priest",
                "category": "character",
                "models": 1,
                "points_per_model": 65,
                "rank": "hero",
                "role": "general",
                "archetype": "veteran",
            },
            {"name": "Saurus Warriors", "category": "core", "models": 50, "points_per_model": 12},
            {"name": "Temple Guard", "category": "special", "models": 20, "points_per_model": 15},
            {"name": "Skinks", "category": "core", "models": 30, "points_per_model": 8},
        ]
    }
    response = api_client_for(lizard_kingdom.players.first()).put(f"/api/armies/{army.pk}/", body, format="json")
    assert response.status_code == 400
    assert "(Temple Dwellers)" in error_details(response)[0]
    assert not army.units.exists()


THANE = UnitEntry("Thane Grimnir", "character", 1, 70, character=CharacterEntry("hero", "general", "veteran"))
MASTER_RUNE = ItemEntry("Master Rune of Valaya", 100, bearer="Thane Grimnir")


def _dwarf_units(warriors: int) -> list[UnitEntry]:
    return [THANE, UnitEntry("Dwarf Warriors", "core", warriors, 9), UnitEntry("Thunderers", "core", 20, 11)]


def test_perfectionists_runic_items_bought_with_gold_away_from_a_town_cost_20_percent_more():
    """Army-Specific Rules, Perfectionists: "Runic items cost 20% more in gold (or experience points)
    if equipped when not in a town or city": the gold of a new army raised in the wilds pays them
    120%, so its list holds 20 points less than it was raised at (decision 387)."""
    full = _dwarf_units(130)  # 70 + 1170 + 220 + 100 (the rune) = 1560
    raised = ArmyListDraft(
        "2nd Army",
        ArmyType.DWARFS,
        1560,
        tuple(full),
        (MASTER_RUNE,),
        from_settlement=False,
        origin=NOWHERE,
        fitted_in_settlement=False,
    )
    assert raised.perfectionists_surcharge == 20
    assert army_list_errors(raised, KingdomRoster()) == [
        f"2nd Army: the list totals 1560 points and its runic items cost 20 more, fitted away from a town or city "
        f"{NOWHERE} (Perfectionists); the army was raised at 1560 points."
    ]
    smaller = replace(raised, units=tuple(_dwarf_units(127)))  # 1533 points + 20 = 1553
    assert army_list_errors(smaller, KingdomRoster()) == []
    in_town = replace(raised, fitted_in_settlement=True, from_settlement=True)
    assert army_list_errors(in_town, KingdomRoster()) == []
    empire = replace(raised, army_type=ArmyType.EMPIRE)
    assert empire.perfectionists_surcharge == 0


def test_perfectionists_the_list_of_a_dwarf_army_raised_in_the_wilds_pays_for_its_runes(demo_campaign):
    """Through the list editor's service: Karak Dumn (Dwarfs) raise an army outside a town; its
    list with a Master Rune is refused whole until it leaves room for the rune smith's 20%."""
    dwarfs = Kingdom.objects.get(campaign=demo_campaign, name="Karak Dumn")
    wilds = (
        Province.objects.filter(campaign=demo_campaign, settlement="none")
        .exclude(pk__in=Kingdom.objects.exclude(capitol=None).values("capitol"))
        .first()
    )
    army = _raised_in(dwarfs, wilds)
    Army.objects.filter(pk=army.pk).update(size=1560)
    army.refresh_from_db()
    with pytest.raises(DomainError, match=r"its runic items cost 20 more.*\(Perfectionists\)"):
        army_list_save(army=army, units=_dwarf_units(130), items=[MASTER_RUNE])
    assert not army.units.exists()
    army_list_save(army=army, units=_dwarf_units(127), items=[MASTER_RUNE])
    assert army.units.count() == 3
    # An upgrade is made in a town or city: the list re-entered after it pays the rune's points only.
    Army.objects.filter(pk=army.pk).update(list_due=True, upgraded_turn=1)
    army.refresh_from_db()
    units, _ = army_entries(army)
    warriors = next(u for u in units if u.name == "Dwarf Warriors")
    army_list_save(
        army=army, units=[replace(warriors, models=130) if u is warriors else u for u in units], items=[MASTER_RUNE]
    )
    assert army.units.get(name="Dwarf Warriors").models_count == 130


def test_dogs_of_war_hired_into_an_army_raised_in_a_town_pay_no_discount():
    """3. Create / Upgrade Armies: "Dogs of War units are not subject to the 10% discount as they
    are mercenaries after all": an Empire army raised in a town for 1,350 gold (1,500 points) whose
    list hires 300 points of Dogs of War pays them 300 gold, the rest 90%: 1,080 + 300 = 1,380
    gold, more than was paid; with 270 points of other troops fewer it fits (decision 388)."""
    general = UnitEntry("Captain Brandt", "character", 1, 100, character=CharacterEntry("hero", "general", "veteran"))
    pikes = UnitEntry("Pikemen of Tilea", "core", 30, 10, dogs_of_war=True)
    units = (general, UnitEntry("Halberdiers", "core", 220, 5), pikes)  # 100 + 1100 + 300 = 1500
    raised = ArmyListDraft("2nd Army", ArmyType.EMPIRE, 1500, units, creation_discount_percent=10)
    assert army_list_errors(raised, KingdomRoster()) == [
        "2nd Army: Pikemen of Tilea: Dogs of War units are not subject to the town discount, as they are "
        "mercenaries (3. Create / Upgrade Armies); at full price for them the list costs 1,380 gold and the "
        "army was raised for 1,350."
    ]
    fewer = (general, UnitEntry("Halberdiers", "core", 166, 5), pikes)  # 1,230 points: 837 + 300 = 1,137 gold
    assert army_list_errors(replace(raised, units=fewer), KingdomRoster()) == []
    # No discount was given (raised in the wilds, or the starting army): the mercenaries cost as much as the rest.
    assert army_list_errors(replace(raised, creation_discount_percent=0), KingdomRoster()) == []
    unhired = (general, UnitEntry("Halberdiers", "core", 220, 5), replace(pikes, dogs_of_war=False))
    assert army_list_errors(replace(raised, units=unhired), KingdomRoster()) == []


def test_dogs_of_war_the_list_editor_prices_hired_units_of_an_army_raised_in_a_town(demo_campaign, api_client_for):
    """Through the API: the list of an army Ostland raised in a town refuses hired Dogs of War at the
    discounted price, whole, naming the rule; the flag is kept on the unit once the list fits."""
    ostland = Kingdom.objects.get(campaign=demo_campaign, name="Ostland")
    town = Province.objects.filter(campaign=demo_campaign, settlement="town").first()
    army = _raised_in(ostland, town)
    general = {
        "name": "Captain Brandt",
        "category": "character",
        "models": 1,
        "points_per_model": 100,
        "rank": "hero",
        "role": "general",
        "archetype": "veteran",
    }
    pikes = {"name": "Pikemen of Tilea", "category": "core", "models": 30, "points_per_model": 10, "dogs_of_war": True}
    client = api_client_for(ostland.players.first())
    body = {
        "units": [general, {"name": "Halberdiers", "category": "core", "models": 220, "points_per_model": 5}, pikes]
    }
    response = client.put(f"/api/armies/{army.pk}/", body, format="json")
    assert response.status_code == 400
    assert "Dogs of War units are not subject to the town discount" in error_details(response)[0]
    assert not army.units.exists()
    body["units"][1]["models"] = 210
    assert client.put(f"/api/armies/{army.pk}/", body, format="json").status_code == 200
    assert army.units.get(name="Pikemen of Tilea").dogs_of_war
