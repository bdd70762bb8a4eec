"""Spending experience on the order sheet (pure rules): the sheet's check of purchases
(rulebook/experience/purchases.py), their costs (rulebook/experience/spending.py) and the turn's spending
(rulebook/turn/spending.py). Rulebook: Spending Experience, Veteran Status, Character
Archetypes and Advancement, Warlord, Armory, Army Restrictions, Supply Depot, Army-Specific Rules."""

from __future__ import annotations

from dataclasses import replace

import pytest

from kernel.dice import ScriptedDice
from kernel.event_codes import EventCode
from rulebook.armies.army_lists import ItemEntry, UnitEntry
from rulebook.experience.spending import (
    CharacterRecord,
    SpendingRoster,
    UnitRecord,
    advancement_cost,
    delivered_item_kept,
    item_cost,
    list_additions,
    recruits_cost,
    useless_abilities,
)
from rulebook.tables import ArmyType
from rulebook.turn.pipeline import resolve_orders
from rulebook.turn.state import TurnState
from rulebook.turn.write_orders.check import order_sheet_check
from rulebook.turn.write_orders.context import order_sheet_context
from rulebook.turn.write_orders.problems import SheetProblemCode
from rulebook.turn.write_orders.records import Purchase, SheetEntries, UpgradeArmy
from tests import world_builders as wb

ME = 1
ARMY = 10
OTHER_ARMY = 11

SPEARMEN = UnitRecord(ARMY, "Spearmen", "core", models=10, points_per_model=6)
KNIGHTS = UnitRecord(ARMY, "Knights", "special", models=8, points_per_model=23, veteran_eligible=True)
GENERAL = CharacterRecord(
    ARMY,
    "Baron Ulrich",
    role="general",
    rank="hero",
    points=70,
    archetype="noble",
    abilities=("Noblesse Oblige",),
    battles_survived=3,
)
WARLORD = CharacterRecord(
    OTHER_ARMY,
    "Prince Hakim",
    role="warlord",
    rank="hero",
    points=90,
    archetype="noble",
    abilities=("Noblesse Oblige",),
)


def roster(**changes) -> SpendingRoster:
    base = {"units": (SPEARMEN, KNIGHTS), "characters": (GENERAL, WARLORD)}
    return SpendingRoster(**{**base, **changes})


def world(
    *, army_type=ArmyType.EMPIRE, experience=60, points=1500, other_points=1200, turn=2, settlement="none", **army_kw
):
    return wb.world(
        provinces=[wb.province(1, "plains", settlement, controller=ME), wb.province(2, controller=ME)],
        kingdoms=[wb.kingdom(ME, "Mine", army_type, treasury=0)],
        armies=[
            wb.army(ARMY, ME, 1, points, name="1st Army", experience=experience, **army_kw),
            wb.army(OTHER_ARMY, ME, 2, other_points, name="2nd Army", experience=100),
        ],
        adjacency=wb.grid(2, 1),
        turn=turn,
    )


def check(*purchases: Purchase, the_roster: SpendingRoster | None = None, **world_kw):
    ctx = order_sheet_context(world(**world_kw), ME, roster=the_roster or roster())
    return order_sheet_check(SheetEntries(purchases=purchases), ctx)


def resolve(*purchases: Purchase, faces=(), the_roster: SpendingRoster | None = None, **world_kw):
    state = TurnState(
        world=world(**world_kw),
        sheets={ME: SheetEntries(purchases=purchases)},
        rosters={ME: the_roster or roster()},
    )
    return resolve_orders(state, ScriptedDice(faces=list(faces)))


def spending(resolution):
    codes = {
        EventCode.PURCHASE_ORDERED,
        EventCode.VETERAN_STATUS,
        EventCode.ARCHETYPE_ROLL,
        EventCode.PROMOTION,
        EventCode.POTENTIAL,
        EventCode.PURCHASE_REFUSED,
    }
    return [e for e in resolution.events if e.code in codes]


# --- XP1: recruits ------------------------------------------------------------------------


def test_case_XP1_ten_spearmen_cost_six_experience_and_arrive_at_the_start_of_the_turn_after_next():
    """XP1 (Spending Experience: 1 experience = 10 points of recruits, a one Turn Delay): an army with
    60 experience replaces 10 lost Spearmen (60 points) in turn 2: 6 experience, arriving in turn 4."""
    recruits = Purchase(ARMY, "recruits", unit="Spearmen", models=10)
    result = check(recruits)
    assert result.ok, result.errors
    assert result.experience_costs[ARMY] == [("10 Spearmen (60 points), arriving at the start of turn 4", 6)]

    resolution = resolve(recruits)
    [event] = spending(resolution)
    assert event.code == EventCode.PURCHASE_ORDERED and event.experience == -6
    assert event.data["arrives_turn"] == 4 and event.data["points_per_model"] == 6
    assert resolution.state.armies[ARMY].experience == 54
    assert "arrives at the start of turn 4" in event.text


def test_recruits_round_up_to_the_next_ten_points_and_a_new_unit_is_priced_by_its_models():
    """Spending Experience: a part of 10 points costs a whole experience point."""
    assert recruits_cost(61) == 7 and recruits_cost(60) == 6 and recruits_cost(0) == 0
    new_unit = Purchase(ARMY, "recruits", name="Handgunners", category="core", models=10, points=8)
    result = check(new_unit)
    assert result.ok and result.experience_spent(ARMY) == 8


def test_recruits_never_take_an_army_past_2000_points_counting_what_is_on_the_way():
    """Spending Experience: "as long as you follow the Army Restrictions of maximum army size of
    2000 points"; troops already on the way count."""
    recruits = Purchase(ARMY, "recruits", unit="Spearmen", models=10)
    assert check(recruits, points=1940).ok
    refused = check(recruits, points=1900, the_roster=roster(on_the_way_points={ARMY: 50}))
    assert [p.code for p in refused.error_problems] == [SheetProblemCode.ARMY_SIZE]
    assert "1st Army: counts 1,900 points with 50 points on the way" in refused.errors[0]


def upgrade_check(upgrade: UpgradeArmy, *purchases: Purchase, the_roster: SpendingRoster | None = None, **world_kw):
    """The sheet's check of an upgrade and purchases for the 1st Army, standing in a town, with the gold."""
    the_world = world(settlement="town", **world_kw)
    the_world.kingdoms[ME] = replace(the_world.kingdoms[ME], treasury=2000)
    ctx = order_sheet_context(the_world, ME, roster=the_roster or roster())
    return order_sheet_check(SheetEntries(upgrades=(upgrade,), purchases=purchases), ctx)


def sizes(result) -> list[str]:
    return [p.message(result.names) for p in result.error_problems if p.code is SheetProblemCode.ARMY_SIZE]


def test_an_upgrade_and_what_is_on_the_way_never_take_an_army_past_2000_points():
    """Army Restrictions: "the maximum army size is 2000 points"; Spending Experience: purchases only
    "as long as you follow the Army Restrictions of maximum army size of 2000 points". An upgrade
    recreates the army at its new size (3. Create / Upgrade Armies), and what it bought with
    experience arrives on top of that list: an army of 1,500 with 300 points of recruits on the way
    may be upgraded to 1,700, not to 2,000; and recruits bought beside an upgrade count from the
    upgraded size, not from the points it counts before it (decision 608)."""
    on_the_way = roster(on_the_way_points={ARMY: 300})
    assert sizes(upgrade_check(UpgradeArmy(ARMY, 2000), the_roster=on_the_way)) == [
        "1st Army: an upgrade to 2,000 points with 300 points on the way would take it past the maximum army size "
        "of 2,000 points once they arrive (Army Restrictions)."
    ]
    assert sizes(upgrade_check(UpgradeArmy(ARMY, 1700), the_roster=on_the_way)) == []

    recruits = Purchase(ARMY, "recruits", unit="Spearmen", models=10)  # 60 points
    assert sizes(upgrade_check(UpgradeArmy(ARMY, 1960), recruits)) == [
        "1st Army: is upgraded to 1,960 points on this sheet; buying 60 more would take it past the maximum army "
        "size of 2,000 points (Army Restrictions)."
    ]
    assert sizes(upgrade_check(UpgradeArmy(ARMY, 1940), recruits)) == []


def test_an_army_upgraded_by_500_points_or_more_has_no_experience_left_to_spend_on_the_sheet():
    """3. Create / Upgrade Armies: "An upgraded army in this way that is adding 500 or more points ...
    will lose all its experience points and veteran status", and the experience is spent after the
    gold in that phase (decision 73: such a purchase is not made when the turn resolves). The sheet
    refuses the purchases of an army it upgrades by 500 points or more, naming the army and the rule,
    rather than accepting what the turn will not make; an upgrade by 499 keeps them (decision 609)."""
    veteran = Purchase(ARMY, "veteran", unit="Knights")
    refused = upgrade_check(UpgradeArmy(ARMY, 1500), veteran, points=1000)
    assert [p.code for p in refused.error_problems] == [SheetProblemCode.PURCHASE]
    assert refused.errors == [
        "1st Army is upgraded from 1,000 to 1,500 points on this sheet: adding 500 points or more, it loses all its "
        "experience points and veteran status (3. Create / Upgrade Armies), before its purchases with experience "
        "are made (Spending Experience, after the gold); buy them on an earlier sheet, or upgrade by less."
    ]
    assert refused.error_problems[0].part == "purchases" and refused.error_problems[0].entry == 0
    assert upgrade_check(UpgradeArmy(ARMY, 1499), veteran, points=1000).ok

    # The turn does as the sheet says: the upgrade's gold first, and the purchase finds no experience.
    the_world = world(settlement="town", points=1000)
    the_world.kingdoms[ME] = replace(the_world.kingdoms[ME], treasury=1000)
    state = TurnState(
        world=the_world,
        sheets={ME: SheetEntries(upgrades=(UpgradeArmy(ARMY, 1500),), purchases=(veteran,))},
        rosters={ME: roster()},
    )
    [event] = spending(resolve_orders(state, ScriptedDice(faces=[])))
    assert event.code == EventCode.PURCHASE_REFUSED


def test_an_army_cannot_spend_more_experience_than_it_has():
    result = check(Purchase(ARMY, "recruits", unit="Spearmen", models=10), experience=5)
    assert result.errors == ["1st Army spends 6 experience on its purchases but has 5 (Spending Experience)."]


def test_a_disbanded_or_unknown_army_cannot_spend():
    result = check(Purchase(99, "supply-depot"))
    assert [p.code for p in result.error_problems] == [SheetProblemCode.NO_SUCH_ARMY]


# --- XP2: magic items and the Armory ------------------------------------------------------


def test_case_XP2_a_25_point_item_costs_25_and_one_already_in_the_kingdom_cannot_be_bought():
    """XP2 (Spending Experience, Armory): a 25-point magic item for an existing character costs 25
    experience and arrives with the one Turn Delay; an item already in another army of the kingdom
    (or its armory, or on the way) cannot be bought."""
    sword = Purchase(ARMY, "item", unit="Baron Ulrich", name="Sword of Might", points=25)
    result = check(sword)
    assert result.ok and result.experience_spent(ARMY) == 25
    [event] = spending(resolve(sword))
    assert event.experience == -25 and event.data["arrives_turn"] == 4

    refused = check(sword, the_roster=roster(items=frozenset({"sword of might"})))
    assert refused.errors == [
        "1st Army: the kingdom already has Sword of Might (in an army, its armory or on the way), or lost it with "
        'an army ("your kingdom does not get another one"); it has only one of each magic item that is not common '
        "(Armory)."
    ]
    # A common item may be had many times.
    assert check(
        Purchase(ARMY, "item", unit="Baron Ulrich", name="Sword of Might", points=25, common=True),
        the_roster=roster(items=frozenset({"sword of might"})),
    ).ok


def test_a_delivered_item_the_kingdom_came_to_hold_meanwhile_is_lost_a_common_one_never():
    """Armory ("your kingdom has only one of that item"), decision 600: bought in turn 2, a Staff of
    Sorcery arrives at the beginning of turn 4; a rival's transfer or a raid's find gave the kingdom one
    in turn 3, so the delivery is not its (the database holds one of each); a common item always is."""
    held = frozenset({"staff of sorcery"})
    assert not delivered_item_kept(" Staff of SORCERY", common=False, held=held)
    assert delivered_item_kept("War Banner", common=False, held=held)
    assert delivered_item_kept("Staff of Sorcery", common=True, held=held)


def test_perfectionists_pay_20_percent_more_for_runic_items_away_from_a_town_or_city():
    """Army-Specific Rules, Perfectionists (Dwarfs, Chaos Dwarves)."""
    assert item_cost(25, runic=True, army_type=ArmyType.DWARFS, in_town_or_city=False) == 30
    assert item_cost(25, runic=True, army_type=ArmyType.DWARFS, in_town_or_city=True) == 25
    assert item_cost(25, runic=True, army_type=ArmyType.EMPIRE, in_town_or_city=False) == 25
    rune = Purchase(ARMY, "item", unit="Baron Ulrich", name="Rune of Cleaving", points=25, runic=True)
    assert check(rune, army_type=ArmyType.DWARFS).experience_spent(ARMY) == 30
    assert check(rune, army_type=ArmyType.DWARFS, settlement="town").experience_spent(ARMY) == 25


def test_perfectionists_an_item_that_names_its_rune_is_runic_though_the_sheet_does_not_say_so():
    """Army-Specific Rules, Perfectionists: "Runic items cost 20% more"; a rune in the item's name
    makes it runic, ticked or not (decision 387), as on an army list bought with gold."""
    unticked = Purchase(ARMY, "item", unit="Baron Ulrich", name="Master Rune of Valaya", points=25)
    assert check(unticked, army_type=ArmyType.DWARFS).experience_spent(ARMY) == 30


def test_an_item_is_carried_by_a_character():
    result = check(Purchase(ARMY, "item", unit="Spearmen", name="Banner of Might", points=25))
    assert "is not a living character of the army" in result.errors[0]


# --- XP3: Veteran Status ------------------------------------------------------------------


def test_case_XP3_an_eligible_unit_becomes_plus_1_veteran_for_10_and_not_twice_without_a_battle():
    """XP3 (Veteran Status): a unit that kept more than 50% of its models after recovery becomes +1
    Veteran for 10 experience; a second level in the same turn without another battle is refused
    (in the same sheet, or once the first has used its eligibility). The level lost by a unit
    that lost 50% or more is the aftermath's:
    tests/rulebook/turn/aftermath/test_aftermath.py::test_veteran_eligibility_and_loss_are_judged_after_recovery."""
    veteran = Purchase(ARMY, "veteran", unit="Knights")
    result = check(veteran)
    assert result.ok and result.experience_costs[ARMY] == [("Knights to +1 Veteran", 10)]
    resolution = resolve(veteran)
    [event] = spending(resolution)
    assert event.code == EventCode.VETERAN_STATUS and event.experience == -10
    assert event.data["level"] == 1 and resolution.state.armies[ARMY].experience == 50

    twice = check(veteran, veteran)
    assert any("raised 2 Veteran levels in one sheet" in e for e in twice.errors)
    used = roster(units=(SPEARMEN, UnitRecord(ARMY, "Knights", "special", 8, 23, veteran_level=1)))
    refused = check(veteran, the_roster=used)
    assert refused.errors == [
        "1st Army: Knights is not eligible for +2 Veteran: a unit goes up one level for each battle it survives "
        "with more than 50% of its models (Veteran Status)."
    ]


def test_case_XP3_two_veteran_levels_for_one_unit_name_it_as_its_list_does():
    """XP3 (Veteran Status): the sheet names the unit in any case ("knights", "KNIGHTS "); refused for
    a second level, the message names it as the army's list does, once."""
    twice = check(Purchase(ARMY, "veteran", unit="knights"), Purchase(ARMY, "veteran", unit="KNIGHTS "))
    assert [e for e in twice.errors if "Veteran levels" in e] == [
        "1st Army: Knights is raised 2 Veteran levels in one sheet; a unit goes up one level per battle "
        "(Veteran Status)."
    ]


def test_no_unit_goes_past_plus_3_veteran():
    top = UnitRecord(ARMY, "Knights", "special", 8, 23, veteran_level=3, veteran_eligible=True)
    assert (
        "already +3 Veteran"
        in check(Purchase(ARMY, "veteran", unit="Knights"), the_roster=roster(units=(top,))).errors[0]
    )


# --- XP4: the Archetype roll ----------------------------------------------------------------


def test_case_XP4_a_general_who_survived_three_battles_rolls_for_25_and_never_past_six_abilities():
    """XP4 (Character Archetypes and Advancement, Vain and Overconfident, Curse of the Dead): 25
    experience (High Elves 35, Tomb Kings and Vampire Counts 40); with six abilities he may not roll."""
    roll = Purchase(ARMY, "advancement", unit="Baron Ulrich")
    assert check(roll).experience_spent(ARMY) == 25
    assert advancement_cost(ArmyType.HIGH_ELVES) == 35
    assert advancement_cost(ArmyType.TOMB_KINGS) == advancement_cost(ArmyType.VAMPIRE_COUNTS) == 40

    resolution = resolve(roll, faces=[2])  # Noble table, 2: Despise Cowardice
    [event] = spending(resolution)
    assert event.code == EventCode.ARCHETYPE_ROLL and event.experience == -25
    assert event.data["ability"] == "Despise Cowardice" and event.data["faces"] == [2]

    six = CharacterRecord(
        ARMY,
        "Baron Ulrich",
        "general",
        "hero",
        70,
        archetype="noble",
        abilities=("Noblesse Oblige", "Duelist", "Despise Cowardice", "Choose Your Ground", "Challenger", "Bravado"),
        battles_survived=9,
    )
    refused = check(roll, the_roster=roster(characters=(six,)))
    assert "a character may never have more than six" in refused.errors[0]


def test_a_general_rolls_again_only_three_battles_after_his_last_ability():
    """Character Archetypes and Advancement: "he must survive three more battles before he is
    eligible for another roll"."""
    recent = CharacterRecord(
        ARMY, "Baron Ulrich", "general", "hero", 70, archetype="noble", battles_survived=5, battles_at_last_ability=3
    )
    result = check(Purchase(ARMY, "advancement", unit="Baron Ulrich"), the_roster=roster(characters=(recent,)))
    assert "has survived 2 battle(s) since his last ability" in result.errors[0]


def test_an_ability_he_holds_is_rolled_again_and_a_6_leaves_the_choice_to_the_player():
    """Decision 71 (docs/rules-decisions.md): a result he already holds is rolled again; a 6 (Choose)
    leaves the choice pending for the player."""
    holder = CharacterRecord(
        ARMY,
        "Baron Ulrich",
        "general",
        "hero",
        70,
        archetype="noble",
        abilities=("Noblesse Oblige", "Duelist"),
        battles_survived=3,
    )
    [event] = spending(
        resolve(
            Purchase(ARMY, "advancement", unit="Baron Ulrich"), faces=[1, 5], the_roster=roster(characters=(holder,))
        )
    )
    assert event.data["faces"] == [1, 5] and event.data["ability"] == "Challenger"
    [choice] = spending(resolve(Purchase(ARMY, "advancement", unit="Baron Ulrich"), faces=[6]))
    assert choice.data["choose"] and not choice.data["ability"]


def test_the_warlord_is_promoted_to_lord_level_for_the_point_difference():
    """Warlord (XP6's cost): promoting the Warlord to Lord level costs the point difference
    (a Tomb Prince of 90 to a Tomb King of 160: 70); a Lord is not promoted."""
    promotion = Purchase(OTHER_ARMY, "promotion", unit="Prince Hakim", points=160)
    result = check(promotion, army_type=ArmyType.TOMB_KINGS)
    assert result.ok and result.experience_spent(OTHER_ARMY) == 70
    [event] = spending(resolve(promotion, army_type=ArmyType.TOMB_KINGS))
    assert event.code == EventCode.PROMOTION and event.experience == -70
    # His model costs the Lord's points at once: the army may not pass 2,000 points by it.
    too_big = check(promotion, army_type=ArmyType.TOMB_KINGS, other_points=1950)
    assert [p.code for p in too_big.error_problems] == [SheetProblemCode.ARMY_SIZE]
    general = check(Purchase(ARMY, "promotion", unit="Baron Ulrich", points=160))
    assert "only the Warlord is promoted" in general.errors[0]


MAGICIAN = CharacterRecord(
    ARMY,
    "Magister Holst",
    role="general",
    rank="hero",
    points=100,
    archetype="magician",
    abilities=("Calmer of the Winds", "Potential"),
    wizard=True,
    magic_level=2,
)


def test_the_magician_s_potential_is_bought_on_the_sheet_for_75_once_per_campaign():
    """Character Archetypes and Advancement, Magician, 3 Potential: "If the controlling player spends
    an additional 75 Experience Points, the character gains one magic level ... This ability may be
    used once per magician per campaign." Bought with the army's experience at once (decision 391)."""
    potential = Purchase(ARMY, "potential", unit="Magister Holst")
    magician = roster(characters=(MAGICIAN, WARLORD))
    result = check(potential, the_roster=magician, experience=80)
    assert result.ok, result.errors
    assert result.experience_spent(ARMY) == 75
    resolution = resolve(potential, the_roster=magician, experience=80)
    [event] = spending(resolution)
    assert event.code == EventCode.POTENTIAL and event.experience == -75
    assert event.data == {**event.data, "unit": "Magister Holst", "level": 3}
    assert "he is now a level 3 Wizard" in event.text and resolution.state.armies[ARMY].experience == 5

    used = roster(characters=(replace(MAGICIAN, potential_used=True), WARLORD))
    assert "once per magician per campaign" in check(potential, the_roster=used, experience=80).errors[0]
    without = roster(characters=(replace(MAGICIAN, abilities=("Calmer of the Winds",)), WARLORD))
    assert "does not have the Magician's Potential" in check(potential, the_roster=without, experience=80).errors[0]
    assert "does not have the Magician's Potential" in check(Purchase(ARMY, "potential", unit="Baron Ulrich")).errors[0]
    short = check(potential, the_roster=magician, experience=60)
    assert not short.ok


def test_an_archetype_ability_that_cannot_work_for_the_character_is_rolled_again():
    """Character Archetypes and Advancement: "Characters that are Immune to Psychology or would
    otherwise be unaffected by such Abilities (i.e. undead characters ...) may reroll the skill in
    question" (decision 392). A Vampire Counts Barbarian rolls 1, Bravado (a Panic test he never
    takes): rolled again, 2, Lay of the Land. An Empire Veteran marked Immune to Psychology rolls 2,
    Fearless: rolled again, 5. His Starting Ability stays whatever it is."""
    roll = Purchase(ARMY, "advancement", unit="Baron Ulrich")
    barbarian = replace(GENERAL, archetype="barbarian", abilities=("Furious Charge",))
    undead = resolve(roll, faces=[1, 2], army_type=ArmyType.VAMPIRE_COUNTS, the_roster=roster(characters=(barbarian,)))
    [event] = spending(undead)
    assert (event.data["faces"], event.data["ability"]) == ([1, 2], "Lay of the Land")
    assert "cannot use is rolled again" in event.text
    # A living character of an undead army (his unit marked living) keeps what he rolls.
    living = roster(characters=(replace(barbarian, living=True),))
    [kept] = spending(resolve(roll, faces=[1], army_type=ArmyType.VAMPIRE_COUNTS, the_roster=living))
    assert kept.data["ability"] == "Bravado"

    veteran = replace(GENERAL, archetype="veteran", abilities=("Iron Nerves",), immune_to_psychology=True)
    [immune] = spending(resolve(roll, faces=[2, 5], the_roster=roster(characters=(veteran,))))
    assert (immune.data["faces"], immune.data["ability"]) == ([2, 5], "Grizzled Fighters")
    [plain] = spending(
        resolve(roll, faces=[2], the_roster=roster(characters=(replace(veteran, immune_to_psychology=False),)))
    )
    assert plain.data["ability"] == "Fearless"
    assert useless_abilities(army_type=ArmyType.EMPIRE, immune_to_psychology=True, living=False) == frozenset(
        {"Bravado", "Fearless", "Unflinching"}
    )
    assert "Iron Nerves" not in useless_abilities(
        army_type=ArmyType.TOMB_KINGS, immune_to_psychology=True, living=False
    )


# --- Supply Depot ---------------------------------------------------------------------------


def test_a_supply_depot_costs_20_and_only_an_army_without_one_buys_it():
    """Supply Depot: "It can also be purchased for 20 experience points but will suffer a one Turn Delay"."""
    depot = Purchase(ARMY, "supply-depot")
    assert check(depot, supply_depot=False).experience_spent(ARMY) == 20
    assert "already has a supply depot" in check(depot, supply_depot=True).errors[0]
    on_the_way = check(depot, supply_depot=False, the_roster=roster(depots_on_the_way=frozenset({ARMY})))
    assert "on the way" in on_the_way.errors[0]


# --- XP8: Curse of the Dead -----------------------------------------------------------------


@pytest.mark.parametrize("army_type", [ArmyType.TOMB_KINGS, ArmyType.VAMPIRE_COUNTS, ArmyType.ANCIENT_DEAD])
def test_case_XP8_the_undead_units_of_tomb_kings_and_vampire_counts_cannot_become_veterans(army_type):
    """XP8 (Curse of the Dead): "the undead units in the army cannot spend experience points on
    Veteran Status"; the Ancient Dead are a Tomb Kings army. A unit is undead unless its list
    marks it living."""
    result = check(Purchase(ARMY, "veteran", unit="Knights"), army_type=army_type)
    assert not result.ok and "(Curse of the Dead)" in result.errors[0]
    [event] = spending(resolve(Purchase(ARMY, "veteran", unit="Knights"), army_type=army_type))
    assert event.code == EventCode.PURCHASE_REFUSED and event.experience == 0


@pytest.mark.parametrize("army_type", [ArmyType.TOMB_KINGS, ArmyType.VAMPIRE_COUNTS])
def test_case_XP8_a_living_unit_of_an_undead_army_can_become_a_veteran(army_type):
    """XP8: a living unit of the same army (a mercenary unit, say) is not under the Curse: it buys
    its next level for 10 like any other eligible unit."""
    living = replace(KNIGHTS, living=True)
    the_roster = roster(units=(SPEARMEN, living))
    result = check(Purchase(ARMY, "veteran", unit="Knights"), army_type=army_type, the_roster=the_roster)
    assert result.ok and result.experience_spent(ARMY) == 10
    [event] = spending(resolve(Purchase(ARMY, "veteran", unit="Knights"), army_type=army_type, the_roster=the_roster))
    assert event.code == EventCode.VETERAN_STATUS and event.experience == -10


# --- the turn refuses what is no longer possible ----------------------------------------------


def test_a_purchase_the_army_can_no_longer_afford_is_not_made():
    """Spending at 3. Create / Upgrade Armies: the experience as the phase finds it."""
    resolution = resolve(Purchase(ARMY, "veteran", unit="Knights"), experience=5)
    [event] = spending(resolution)
    assert event.code == EventCode.PURCHASE_REFUSED and "has 5" in event.text
    assert resolution.state.armies[ARMY].experience == 5


# --- XP7: the list editor cannot add for free -------------------------------------------------


def _units(spearmen: int = 20, veteran: int = 0, equipment: int = 0) -> list[UnitEntry]:
    return [
        UnitEntry("Spearmen", "core", spearmen, 6, equipment_points=equipment, veteran_level=veteran, key=1),
        UnitEntry("Baron Ulrich", "character", 1, 70, key=2),
    ]


def test_case_XP7_a_list_edit_that_adds_models_or_items_without_paying_is_refused():
    """XP7 (Spending Experience): an edit that adds models, items, equipment or Veteran levels says
    what it costs and how to buy it; removing, and moving an item between characters, add nothing."""
    before = _units(spearmen=10)
    axe = ItemEntry("Rune Axe", 25, bearer="Baron Ulrich")
    added = list_additions(before, [], _units(spearmen=20), [axe], label="1st Army", arrives_turn=4)
    assert added == [
        "1st Army: 10 Spearmen (60 points) are bought with experience on the order sheet: 6 experience, arriving "
        "at the start of turn 4 (Spending Experience).",
        "1st Army: Rune Axe (25 points) is a magic item bought with experience on the order sheet: 25 experience, "
        "arriving at the start of turn 4 (Spending Experience).",
    ]
    veteran = list_additions(before, [], _units(spearmen=10, veteran=1), [], label="1st Army", arrives_turn=4)
    assert "Veteran Status is bought with experience on the order sheet" in veteran[0]
    new_unit = list_additions(
        before, [], [*before, UnitEntry("Archers", "core", 10, 8)], [], label="1st Army", arrives_turn=4
    )
    assert "10 Archers (80 points) are bought" in new_unit[0]
    # Removing models, renaming, reordering and moving an item add nothing.
    moved = ItemEntry("Rune Axe", 25, bearer="Spearmen")
    assert (
        list_additions(before, [axe], list(reversed(_units(spearmen=8))), [moved], label="1st Army", arrives_turn=4)
        == []
    )


# --- Elite Defense Force (decision 620) ------------------------------------------------------

EDF = 20
EDF_GUARDS = UnitRecord(EDF, "Town Guard", "core", models=20, points_per_model=5, veteran_eligible=True)
EDF_HERO = CharacterRecord(
    EDF, "Captain Odo", role="general", rank="hero", points=50, archetype="noble",
    abilities=("Noblesse Oblige",), battles_survived=3,
)  # fmt: skip


def _with_edf(*, experience: int = 40):
    base = world(settlement="town")
    edf = wb.garrison(EDF, ME, 1, name="Elite Defense Force of Riverton", experience=experience)
    return replace(base, garrisons={EDF: edf})


def _edf_roster() -> SpendingRoster:
    return roster(units=(SPEARMEN, KNIGHTS, EDF_GUARDS), characters=(GENERAL, WARLORD, EDF_HERO))


def test_an_elite_defense_force_spends_its_experience_on_veteran_status_and_its_general_s_roll():
    """Battle for Towns, Cities, and Capitols: the Elite Defense Force "is treated as an army in the
    field in all manners except for the fact it cannot leave the town / city"; its hero "is able to
    select a Character Archetype". It earns experience (decision 36b) and spends it as an army does
    (Spending Experience: Veteran Status, "a roll on the appropriate Archetype Advancement Table for the
    General of the army"): decision 620. The sheet took it for no army of the kingdom's."""
    veteran = Purchase(EDF, "veteran", unit="Town Guard")
    advancement = Purchase(EDF, "advancement", unit="Captain Odo")
    ctx = order_sheet_context(_with_edf(), ME, roster=_edf_roster())
    result = order_sheet_check(SheetEntries(purchases=(veteran, advancement)), ctx)
    assert result.ok, result.errors
    assert result.experience_costs[EDF] == [
        ("Town Guard to +1 Veteran", 10),
        ("a roll on Captain Odo's Archetype Advancement Table", 25),
    ]
    [row] = [r for r in result.experience_rows() if r["army"] == EDF]
    assert (row["name"], row["experience"], row["left"]) == ("Elite Defense Force of Riverton", 40, 5)

    state = TurnState(
        world=_with_edf(), sheets={ME: SheetEntries(purchases=(veteran, advancement))}, rosters={ME: _edf_roster()}
    )
    resolution = resolve_orders(state, ScriptedDice(faces=[1]))  # Noble table, 1: Duelist
    events = spending(resolution)
    assert [(e.code, e.army, e.experience) for e in events] == [
        (EventCode.VETERAN_STATUS, EDF, -10),
        (EventCode.ARCHETYPE_ROLL, EDF, -25),
    ]
    assert events[1].data["ability"] == "Duelist"
    assert resolution.state.garrisons[EDF].experience == 5


def test_an_elite_defense_force_buys_nothing_that_changes_its_composition():
    """Battle for Towns, Cities, and Capitols: "The composition of the Elite Defense Force cannot change":
    no recruits, equipment or magic items; it never leaves its town and needs no supply depot (620)."""
    ctx = order_sheet_context(_with_edf(), ME, roster=_edf_roster())
    for purchase in (
        Purchase(EDF, "recruits", unit="Town Guard", models=2),
        Purchase(EDF, "equipment", unit="Town Guard", points=10),
        Purchase(EDF, "item", unit="Captain Odo", name="Sword of Might", points=25),
        Purchase(EDF, "supply-depot"),
    ):
        result = order_sheet_check(SheetEntries(purchases=(purchase,)), ctx)
        assert result.errors == [
            "Elite Defense Force of Riverton: the composition of an Elite Defense Force cannot change: it spends "
            "its experience on Veteran Status, its General's Archetype roll or his Potential (Battle for Towns, "
            "Cities, and Capitols)."
        ], purchase.kind


def test_a_general_with_amnesia_buys_no_archetype_roll_nor_potential():
    """Character Injury Chart, Amnesia: "The character will still fight for the army, but no longer can
    take advantage of any Archetype Abilities including Starting Abilities" (decision 621). A roll on his
    Advancement Table (Character Archetypes and Advancement) or his Magician's Potential would buy an
    ability he can never use: the sheet refuses it, naming the rule, and the turn does not spend the
    experience. The sheet sold him the roll and the ability was never of use."""
    roll = Purchase(ARMY, "advancement", unit="Baron Ulrich")
    forgetful = roster(characters=(replace(GENERAL, amnesia=True), WARLORD))
    assert check(roll, the_roster=forgetful).errors == [
        "1st Army: Baron Ulrich suffers from Amnesia and no longer can take advantage of any Archetype Abilities: "
        "a roll on his Advancement Table would buy nothing he can use (Character Injury Chart)."
    ]
    resolution = resolve(roll, faces=[2], the_roster=forgetful)
    [refused] = spending(resolution)
    assert refused.code == EventCode.PURCHASE_REFUSED and resolution.state.armies[ARMY].experience == 60

    potential = Purchase(ARMY, "potential", unit="Magister Holst")
    magician = roster(characters=(replace(MAGICIAN, amnesia=True), WARLORD))
    assert "Magister Holst suffers from Amnesia" in check(potential, the_roster=magician, experience=80).errors[0]
