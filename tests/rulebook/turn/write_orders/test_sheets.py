"""Order sheet rules (rulebook/turn/write_orders/: check.py and a module per part of the sheet):
3. Create / Upgrade Armies, Supply Depot, 4. Write Orders, 5. Executing Orders, Army-Specific Rules
(forced march), Army Restrictions."""

import re

import pytest

from rulebook.tables import ArmyType
from rulebook.turn.tables import creation_cost
from rulebook.turn.write_orders.check import order_sheet_check
from rulebook.turn.write_orders.context import order_sheet_context
from rulebook.turn.write_orders.problems import SheetProblemCode
from rulebook.turn.write_orders.records import (
    ArmyOrder,
    BuySupplyDepot,
    CreateArmy,
    LossesFrom,
    OrderKind,
    ReinforceGarrison,
    SheetEntries,
    UpgradeArmy,
)
from rulebook.world import ArmyState, UnitState
from tests import world_builders as wb

ME = 1
# A 4 x 4 grid of sections, numbered row by row:
#   1  2  3  4
#   5  6  7  8
#   9 10 11 12
#  13 14 15 16
TERRAIN = {3: "forest", 4: "mountains", 7: "marshland", 8: "desert", 11: "forest", 12: "forest"}
SETTLEMENT = {1: "city", 2: "town", 10: "town"}


def own_army(*, id: int, name: str, province: int, size: int, **kw) -> ArmyState:
    """One of the kingdom's field armies, its list at the size it was raised at."""
    return wb.army(id, ME, province, size, name=name, **kw)


def context(armies=(), army_type=ArmyType.EMPIRE, treasury=6000, mine=(1, 2, 5, 6), razed=(), turn=3, **kw):
    provinces = [
        wb.province(
            n,
            TERRAIN.get(n, "plains"),
            SETTLEMENT.get(n, "none"),
            razed=n in razed,
            controller=ME if n in mine else (2 if n in (15, 16) else None),
        )
        for n in range(1, 17)
    ]
    armies = armies or (own_army(id=10, name="1st Army", province=1, size=2000),)
    world = wb.world(
        provinces=provinces,
        kingdoms=[
            wb.kingdom(ME, "Mine", army_type, treasury=treasury, capitol=kw.get("capitol", 1)),
            wb.kingdom(2, "Theirs", ArmyType.DWARFS),
        ],
        armies=armies,
        adjacency=wb.grid(4),
        turn=turn,
        player_count=4,
    )
    return order_sheet_context(world, ME, army_names=frozenset(a.name for a in armies))


def check(entries, **kw):
    return order_sheet_check(entries, context(**kw))


def only_errors(result):
    return " | ".join(result.errors)


# --- 3. Create / Upgrade Armies -----------------------------------------------------------


@pytest.mark.parametrize(
    "points, army_type, settlement, gold",
    [
        (1500, ArmyType.EMPIRE, "town", 1350),
        (1500, ArmyType.EMPIRE, "none", 1500),
        (1500, ArmyType.BEASTS_OF_CHAOS, "city", 1425),
        (1500, ArmyType.OGRE_KINGDOMS, "town", 1425),
        (1500, ArmyType.DOGS_OF_WAR, "city", 1500),
        (1000, ArmyType.EMPIRE, "city", 900),
        (2000, ArmyType.EMPIRE, "city", 1800),
        (1005, ArmyType.BEASTS_OF_CHAOS, "city", 955),  # 954.75 rounds up
    ],
)
def test_case_C1_creation_cost_with_town_and_city_discounts(points, army_type, settlement, gold):
    assert creation_cost(points, army_type, settlement) == gold


def test_case_C1_the_sheet_charges_the_discounted_cost():
    ctx_armies = (own_army(id=10, name="1st Army", province=6, size=2000),)
    result = check(SheetEntries(creations=(CreateArmy("2nd Army", 1500, 2),)), armies=ctx_armies, mine=(1, 2, 5, 6, 9))
    assert result.ok, result.errors
    assert result.costs == [("Create 2nd Army (1,500 points) in 2 P2", 1350)]


def test_case_C2_upgrade_costs_the_difference():
    armies = (own_army(id=10, name="1st Army", province=2, size=1200),)
    result = check(SheetEntries(upgrades=(UpgradeArmy(10, 1600),)), armies=armies)
    assert result.ok and result.gold == 400
    armies = (own_army(id=10, name="1st Army", province=2, size=1000),)
    result = check(SheetEntries(upgrades=(UpgradeArmy(10, 1500),)), armies=armies)
    assert result.ok and result.gold == 500


@pytest.mark.parametrize(("raised", "now", "gold"), [(2000, 1300, 700), (1500, 900, 1100)])
def test_case_C2_the_sheet_charges_an_upgrade_from_the_army_s_current_points(raised, now, gold):
    """3. Create / Upgrade Armies: "pay the gold difference and recreate it at a higher point
    value". The sheet measures from what the army counts now (its list after its losses), so an
    army raised at 2,000 and now at 1,300 may go back to 2,000, for 700."""
    armies = (wb.army(10, ME, 2, now, name="1st Army", size=raised),)
    result = check(SheetEntries(upgrades=(UpgradeArmy(10, 2000),)), armies=armies)
    assert result.ok, result.errors
    assert result.costs == [(f"Upgrade 1st Army from {now:,} to 2,000 points", gold)]
    refused = check(SheetEntries(upgrades=(UpgradeArmy(10, now),)), armies=armies)
    assert f"does not raise the army above its {now:,} points" in only_errors(refused)


def test_upgrade_only_in_a_town_or_city_you_control_and_never_above_2000():
    armies = (own_army(id=10, name="1st Army", province=6, size=1200),)
    assert "upgraded in a town or city you control" in only_errors(
        check(SheetEntries(upgrades=(UpgradeArmy(10, 1600),)), armies=armies)
    )
    armies = (own_army(id=10, name="1st Army", province=2, size=1800),)
    assert "above the maximum army size of 2,000" in only_errors(
        check(SheetEntries(upgrades=(UpgradeArmy(10, 2100),)), armies=armies)
    )
    assert "1st Army: an upgrade to 1,500 points does not raise the army above its 1,800 points" in only_errors(
        check(SheetEntries(upgrades=(UpgradeArmy(10, 1500),)), armies=armies)
    )


def test_case_C3_an_army_upgraded_this_turn_may_not_move_or_support():
    armies = (own_army(id=10, name="1st Army", province=2, size=1200),)
    entries = SheetEntries(orders=(ArmyOrder(10, OrderKind.MOVE, target=3),), upgrades=(UpgradeArmy(10, 1600),))
    errors = only_errors(check(entries, armies=armies))
    assert "1st Army is upgraded in this sheet" in errors
    assert "may not move or support the turn they are created or upgraded (3. Create / Upgrade Armies)" in errors
    support = SheetEntries(orders=(ArmyOrder(10, OrderKind.SUPPORT, support=3),), upgrades=(UpgradeArmy(10, 1600),))
    assert "may not move or support" in only_errors(check(support, armies=armies))
    hold = SheetEntries(orders=(ArmyOrder(10, OrderKind.HOLD),), upgrades=(UpgradeArmy(10, 1600),))
    assert check(hold, armies=armies).ok


def test_case_C3_an_army_created_this_turn_may_not_move():
    armies = (own_army(id=10, name="2nd Army", province=5, size=1200, created_turn=3),)
    errors = only_errors(check(SheetEntries(orders=(ArmyOrder(10, OrderKind.MOVE, target=9),)), armies=armies))
    assert "2nd Army was created this turn: newly made or upgraded armies may not move" in errors


def test_case_C3_the_refusal_says_whether_the_army_was_created_or_upgraded():
    """A refusal names what is wrong: an army upgraded this turn (the turn's resolution checks the
    order again after 3. Create / Upgrade Armies) is "upgraded", not "created or upgraded"."""
    armies = (own_army(id=10, name="1st Army", province=2, size=1600, upgraded_turn=3),)
    errors = only_errors(check(SheetEntries(orders=(ArmyOrder(10, OrderKind.MOVE, target=3),)), armies=armies))
    assert errors.startswith("1st Army was upgraded this turn: newly made or upgraded armies may not move")


@pytest.mark.parametrize("points", [900, 2100])
def test_case_C4_army_of_900_or_2100_points_cannot_be_created(points):
    errors = only_errors(check(SheetEntries(creations=(CreateArmy("2nd Army", points, 5),)), mine=(1, 2, 5, 6, 9)))
    assert f"an army of {points:,} points cannot be created" in errors and "(Army Restrictions)" in errors


def test_case_C4_gold_never_takes_the_treasury_below_zero():
    # The Empire's provinces 1 (city), 2 (town), 5, 6 and 9 bring 540 in taxes, less 90 of
    # Imperial Taxation: 450 this turn, which the sheet may spend (1. Tally Gold comes first).
    entries = SheetEntries(creations=(CreateArmy("2nd Army", 2000, 5),))
    result = check(entries, treasury=1500, mine=(1, 2, 5, 6, 9))
    assert (result.treasury, result.taxes, result.available) == (1500, 450, 1950)
    assert "spends 2,000 gold but the treasury holds 1,500 and this turn's taxes bring 450: 50 gold short" in (
        only_errors(result)
    )
    assert check(entries, treasury=1550, mine=(1, 2, 5, 6, 9)).ok


def test_case_R6_a_sheet_may_spend_the_taxes_its_turn_will_collect():
    """1. Tally Gold comes before 3. Create / Upgrade Armies. A kingdom with 200 gold whose turn will
    collect 510 in taxes (its capitol 300, a town 150, two provinces 60) upgrades an army in the
    town by 500 points: accepted. The upgrade costs 500: the rulebook prices an upgrade at "the gold
    difference" ("upgrading a 1,000 army to 1,500 is 500 gold pieces", rule case C2); the case's
    "(450 gold)" reads the creation's town discount onto it, and the outcome is the same."""
    armies = (own_army(id=10, name="1st Army", province=2, size=1000),)
    entries = SheetEntries(upgrades=(UpgradeArmy(10, 1500),))

    result = check(entries, armies=armies, treasury=200, army_type=ArmyType.HIGH_ELVES)

    assert result.ok, result.errors
    assert (result.gold, result.treasury, result.taxes, result.available) == (500, 200, 510, 710)
    # Without the town's and the capitol's taxes the same sheet is short, and says of what.
    poorer = check(entries, armies=armies, treasury=200, army_type=ArmyType.HIGH_ELVES, mine=(2,))
    assert "the treasury holds 200 and this turn's taxes bring 150: 150 gold short" in only_errors(poorer)


def test_losses_are_taken_first_from_a_rank_and_file_unit_the_sheet_names():
    """Foraging Table, Guerrilla Tactics: the player chooses the models; the sheet names a unit of
    the army's list, never a character (whose fate is the Character Injury Chart's)."""
    ctx = context()
    ctx.world.units[10] = (
        UnitState(1, 10, "Count Valten", "character", 1, 150),
        UnitState(2, 10, "Swordsmen", "core", 30, 6),
    )

    assert order_sheet_check(SheetEntries(losses=(LossesFrom(10, "swordsmen"),)), ctx).ok
    character = order_sheet_check(SheetEntries(losses=(LossesFrom(10, "Count Valten"),)), ctx)
    assert character.errors == [
        "1st Army: Count Valten is a character; losses are taken from the rank and file of the army's list "
        "(Foraging Table, Guerrilla Tactics)."
    ]
    assert character.error_problems[0].code is SheetProblemCode.LOSSES_FROM
    stranger = order_sheet_check(SheetEntries(losses=(LossesFrom(10, "Knights"),)), ctx)
    assert "Knights is not a unit of its list" in only_errors(stranger)
    twice = SheetEntries(losses=(LossesFrom(10, "Swordsmen"), LossesFrom(10, "Swordsmen")))
    assert "1st Army names more than one unit to take its losses first." in order_sheet_check(twice, ctx).errors


def test_the_sheet_knows_which_lists_are_due():
    due = own_army(id=11, name="2nd Army", province=5, size=1500, list_due=True)
    ctx = context(armies=(own_army(id=10, name="1st Army", province=1, size=2000), due))
    assert [a.name for a in ctx.lists_due] == ["2nd Army"]


def test_new_armies_go_to_an_unoccupied_province_you_control_within_the_army_table():
    assert "is not yours" in only_errors(check(SheetEntries(creations=(CreateArmy("2nd", 1000, 9),))))
    assert "is occupied" in only_errors(check(SheetEntries(creations=(CreateArmy("2nd", 1000, 1),))))
    # Four players: one additional army for every four provinces. Four provinces allow two armies.
    two = SheetEntries(creations=(CreateArmy("2nd", 1000, 5), CreateArmy("3rd", 1000, 6)))
    assert "the Army Table allows 2" in only_errors(check(two))
    assert check(SheetEntries(creations=(CreateArmy("2nd", 1000, 5),))).ok
    assert "already has an army of that name" in only_errors(
        check(SheetEntries(creations=(CreateArmy("1st Army", 1000, 5),)))
    )


def test_supply_depot_200_gold_in_a_town_or_city_and_elite_defense_force_500():
    armies = (own_army(id=10, name="1st Army", province=2, size=2000, supply_depot=False),)
    result = check(SheetEntries(depots=(BuySupplyDepot(10),), garrisons=(ReinforceGarrison(1),)), armies=armies)
    assert result.ok and result.gold == 700
    armies = (own_army(id=10, name="1st Army", province=6, size=2000, supply_depot=False),)
    assert "bought in a town or city" in only_errors(check(SheetEntries(depots=(BuySupplyDepot(10),)), armies=armies))
    assert "town or city you control" in only_errors(check(SheetEntries(garrisons=(ReinforceGarrison(6),))))
    assert "already has a supply depot" in only_errors(check(SheetEntries(depots=(BuySupplyDepot(10),))))


def test_an_upgrade_recreates_the_army_at_1000_points_at_least():
    """3. Create / Upgrade Armies: an upgrade pays the gold difference "and recreate[s] it at a higher
    point value", and armies are created at 1,000 to 2,000 points; Army Restrictions: "The minimum
    army size is 1000 points". An army worn down to 600 may go back to 1,000 or more, not to 900: the
    sheet refuses it naming the army and the rule (decision 606)."""
    armies = (wb.army(10, ME, 2, 600, name="1st Army", size=1500),)
    refused = check(SheetEntries(upgrades=(UpgradeArmy(10, 900),)), armies=armies)
    assert [p.code for p in refused.error_problems] == [SheetProblemCode.ARMY_SIZE]
    assert refused.errors == [
        "1st Army: an upgrade recreates the army at 900 points, below the minimum army size of 1,000; an army is "
        "created or recreated at 1,000 to 2,000 points (Army Restrictions; 3. Create / Upgrade Armies)."
    ]
    accepted = check(SheetEntries(upgrades=(UpgradeArmy(10, 1000),)), armies=armies)
    assert accepted.ok, accepted.errors
    assert accepted.costs == [("Upgrade 1st Army from 600 to 1,000 points", 400)]


def test_supply_depot_bought_in_a_town_it_does_not_control():
    """Supply Depot: "A replacement Supply Depot can be purchased for 200 gold in a Town or City": the
    rulebook asks for a town or city, not one of the kingdom's. An army standing in a neutral town
    (or an ally's, or one it retreated into) buys its depot there; in a plain province it may not
    (decision 607)."""
    armies = (own_army(id=10, name="1st Army", province=10, size=1500, supply_depot=False),)
    result = check(SheetEntries(depots=(BuySupplyDepot(10),)), armies=armies)
    assert result.ok, result.errors
    assert result.costs == [("Supply depot for 1st Army", 200)]
    armies = (own_army(id=10, name="1st Army", province=9, size=1500, supply_depot=False),)
    assert only_errors(check(SheetEntries(depots=(BuySupplyDepot(10),)), armies=armies)) == (
        "1st Army: a replacement supply depot is bought in a town or city; the army stands in 9 P9 (Supply Depot)."
    )


# --- 4-5. Orders -----------------------------------------------------------------------------


def test_case_O2_a_move_to_a_province_not_adjacent_is_refused_naming_it():
    errors = only_errors(check(SheetEntries(orders=(ArmyOrder(10, OrderKind.MOVE, target=3),))))
    assert "1st Army: 3 P3 is not adjacent to 1 P1" in errors and "(5. Executing Orders: Move)" in errors


def test_case_O2_corner_to_corner_sections_are_adjacent():
    assert check(SheetEntries(orders=(ArmyOrder(10, OrderKind.MOVE, target=6),))).ok


def test_move_needs_a_target_on_the_map():
    assert "needs a province to move into" in only_errors(check(SheetEntries(orders=(ArmyOrder(10, OrderKind.MOVE),))))
    assert "province 99 is not on the map" in only_errors(
        check(SheetEntries(orders=(ArmyOrder(10, OrderKind.MOVE, target=99),)))
    )


def test_not_your_army_and_two_entries_for_one_army_are_refused():
    assert "Army 77 is not one of your active armies" in only_errors(check(SheetEntries(orders=(ArmyOrder(77),))))
    two = SheetEntries(orders=(ArmyOrder(10), ArmyOrder(10, OrderKind.FORTIFY)))
    assert "1st Army has 2 orders" in only_errors(check(two))


def test_fortify_not_razed_and_recover_only_razed():
    armies = (own_army(id=10, name="1st Army", province=6, size=2000),)
    errors = only_errors(check(SheetEntries(orders=(ArmyOrder(10, OrderKind.FORTIFY),)), armies=armies, razed=(6,)))
    assert "razed provinces cannot be fortified until they are recovered (Fortify)" in errors
    assert "is not razed; Recover is for razed provinces" in only_errors(
        check(SheetEntries(orders=(ArmyOrder(10, OrderKind.RECOVER),)), armies=armies)
    )
    assert check(SheetEntries(orders=(ArmyOrder(10, OrderKind.RECOVER),)), armies=armies, razed=(6,)).ok
    assert "already razed" in only_errors(
        check(SheetEntries(orders=(ArmyOrder(10, OrderKind.RAZE_HOLD),)), armies=armies, razed=(6,))
    )


def test_support_only_a_province_bordering_the_army():
    assert check(SheetEntries(orders=(ArmyOrder(10, OrderKind.SUPPORT, support=6),))).ok
    errors = only_errors(check(SheetEntries(orders=(ArmyOrder(10, OrderKind.SUPPORT, support=11),))))
    assert "does not border 1 P1" in errors and "(6. Fight Battles: Support)" in errors
    assert "only Move (a Forced March included) or Support orders may support" in only_errors(
        check(SheetEntries(orders=(ArmyOrder(10, OrderKind.FORTIFY, support=6),)))
    )


def test_a_forced_march_may_support_a_province_bordering_the_army_s_start():
    """Decision 588 (4. Write Orders: "Move and / or Support"; a Forced March is how an army "moves",
    4. Write Orders' note; decision 15). A Forced March names a battle to support as a Move does: a
    province bordering the one the army stands in when the sheet is written (9, beside 5), not one
    bordering where the march ends (14, beside 10 only). Raze and Move still supports nothing.
    Before, every Forced March with support was refused as the wrong order."""
    armies = (own_army(id=10, name="1st Army", province=5, size=2000),)

    def errors(order: ArmyOrder) -> str:
        return only_errors(check(SheetEntries(orders=(order,)), armies=armies))

    assert errors(ArmyOrder(10, OrderKind.FORCED_MARCH, path=(6, 10), support=9)) == ""
    assert errors(ArmyOrder(10, OrderKind.FORCED_MARCH, path=(6, 10), support=14)) == (
        "1st Army: 14 P14 does not border 5 P5; an army supports battles in provinces bordering its own "
        "(6. Fight Battles: Support)."
    )
    assert "only Move (a Forced March included) or Support orders" in errors(
        ArmyOrder(10, OrderKind.RAZE_MOVE, target=6, support=9)
    )


@pytest.mark.parametrize(
    "army_type, start, path, ok, message",
    [
        (ArmyType.EMPIRE, 5, (6, 10), True, ""),  # plains, plains (town)
        (ArmyType.EMPIRE, 2, (3, 7), False, "may Forced March only through plains; 3 P3 is forest"),
        (ArmyType.WOOD_ELVES, 6, (11, 12), True, ""),  # woods
        (ArmyType.DWARFS, 2, (3, 4), False, "only through mountains and plains; 3 P3 is forest"),
        (ArmyType.LIZARDMEN, 2, (7, 11), False, "11 P11 is forest"),
        (ArmyType.ORCS_AND_GOBLINS, 2, (3, 4), True, ""),  # any terrain but desert
        (ArmyType.ORCS_AND_GOBLINS, 2, (3, 8), False, "no army may Forced March through desert (8 P8)"),
        (ArmyType.EMPIRE, 1, (6, 16), False, "16 P16 is not adjacent to 6 P6"),
        (ArmyType.ANCIENT_DEAD, 1, (2, 3), False, "can never attempt a Forced March"),
    ],
)
def test_forced_march_through_the_terrain_the_army_type_may_cross(army_type, start, path, ok, message):
    armies = (own_army(id=10, name="1st Army", province=start, size=2000),)
    result = check(
        SheetEntries(orders=(ArmyOrder(10, OrderKind.FORCED_MARCH, path=path),)), armies=armies, army_type=army_type
    )
    assert result.ok is ok, result.errors
    assert message in only_errors(result)


def test_support_of_the_army_s_own_province_says_so():
    """A refusal names what is wrong: supporting the province the army stands in is not a province
    that "does not border" it."""
    errors = only_errors(check(SheetEntries(orders=(ArmyOrder(10, OrderKind.SUPPORT, support=1),))))
    assert errors == (
        "1st Army: the army stands in 1 P1 itself; an army supports battles in the provinces bordering its own "
        "(6. Fight Battles: Support)."
    )


def test_a_forced_march_back_into_its_own_province_says_so():
    """A refusal names what is wrong: a path that ends where the army stands is not "not adjacent"."""
    armies = (own_army(id=10, name="1st Army", province=5, size=2000),)
    errors = only_errors(
        check(SheetEntries(orders=(ArmyOrder(10, OrderKind.FORCED_MARCH, path=(6, 5)),)), armies=armies)
    )
    assert errors == (
        "1st Army: the path ends in 5 P5, where the army stands; a Forced March moves it two provinces (Forced March)."
    )


def test_a_supply_depot_bought_twice_says_so():
    armies = (own_army(id=10, name="1st Army", province=2, size=2000, supply_depot=False),)
    result = check(SheetEntries(depots=(BuySupplyDepot(10), BuySupplyDepot(10))), armies=armies)
    assert (
        "1st Army: a supply depot is bought twice in one sheet; an army has one supply depot at a time."
        in result.errors
    )


def test_forced_march_names_two_provinces():
    errors = only_errors(check(SheetEntries(orders=(ArmyOrder(10, OrderKind.FORCED_MARCH, path=(6,)),))))
    assert "names its two provinces" in errors


# --- Warnings ------------------------------------------------------------------------------


# --- Battle for Towns, Cities, and Capitols: the garrison or the army defends ------------------


@pytest.mark.parametrize(
    "province, order, ok",
    [
        (2, ArmyOrder(10, OrderKind.HOLD, defend_with="garrison"), True),  # its own town
        (1, ArmyOrder(10, OrderKind.FORTIFY, defend_with="garrison"), True),  # its capitol (a city)
        (5, ArmyOrder(10, OrderKind.MOVE, target=2, defend_with="garrison"), True),  # moving into its town
        (6, ArmyOrder(10, OrderKind.HOLD, defend_with="garrison"), False),  # its plain province
        (2, ArmyOrder(10, OrderKind.MOVE, target=6, defend_with="garrison"), False),  # leaves its town
        (6, ArmyOrder(10, OrderKind.HOLD, defend_with="army"), True),  # the default is always fine
    ],
)
def test_the_garrison_may_defend_only_a_town_city_or_capitol_of_yours(province, order, ok):
    """Battle for Towns, Cities, and Capitols: "you may use either the local garrison force or the
    army": the choice of the garrison is for an army that ends its order in a town, city or capitol
    of its kingdom."""
    result = check(
        SheetEntries(orders=(order,)), armies=(own_army(id=10, name="1st Army", province=province, size=2000),)
    )
    assert result.ok is ok, result.errors
    if not ok:
        (problem,) = result.error_problems
        assert (problem.code, problem.army) == (SheetProblemCode.DEFEND_WITH_NO_GARRISON, 10)
        assert "no garrison there can fight instead of the army" in problem.text


def test_who_defends_is_the_army_or_the_garrison():
    result = check(SheetEntries(orders=(ArmyOrder(10, OrderKind.HOLD, defend_with="everyone"),)))
    assert [p.code for p in result.error_problems] == [SheetProblemCode.DEFEND_WITH]
    assert ArmyOrder(10).defend_with == "army"  # silent: the army fights, the garrison supports it


def test_warnings_for_legal_but_probably_mistaken_orders():
    armies = (
        own_army(id=10, name="1st Army", province=1, size=2000),
        own_army(id=11, name="2nd Army", province=5, size=1500),
    )
    entries = SheetEntries(orders=(ArmyOrder(10, OrderKind.MOVE, target=6), ArmyOrder(11, OrderKind.MOVE, target=6)))
    result = check(entries, armies=armies)
    assert result.ok
    text = " | ".join(result.warnings)
    assert (
        "1st Army and 2nd Army would end in 6 P6: a province supports one army at a time; each rolls a D6, the "
        "highest may move in and the others hold (Occupied Province)." in text
    )
    assert "Every army leaves your capitol 1 P1" in text

    lonely = SheetEntries(orders=(ArmyOrder(10, OrderKind.SUPPORT, support=2),))
    assert "supports a battle in 2 P2, where none of your armies attacks or stands" in " ".join(check(lonely).warnings)
    assert check(SheetEntries(orders=(ArmyOrder(10, OrderKind.HOLD),))).warnings == []


def test_a_looted_town_cannot_create_or_upgrade_armies_until_the_next_full_turn():
    """Looting (A3): "A Looted town / city cannot upgrade or create armies until the beginning of
    the next full turn." The town 2 was looted; the city 1 was not."""
    import dataclasses

    ctx = context(armies=(own_army(id=10, name="1st Army", province=2, size=1200),))
    ctx.provinces[2] = dataclasses.replace(ctx.provinces[2], looted_turn=ctx.turn - 1)  # looted last turn
    create = order_sheet_check(SheetEntries(creations=(CreateArmy("2nd Army", 1000, 2),)), ctx)
    upgrade = order_sheet_check(SheetEntries(upgrades=(UpgradeArmy(10, 1600),)), ctx)
    assert "2 P2 was looted and cannot create armies" in only_errors(create)
    assert "1st Army: 2 P2 was looted and cannot upgrade armies" in only_errors(upgrade)
    ctx.provinces[2] = dataclasses.replace(ctx.provinces[2], looted_turn=None)
    assert order_sheet_check(SheetEntries(upgrades=(UpgradeArmy(10, 1600),)), ctx).ok


def test_a_looted_town_raises_no_elite_defense_force_until_the_next_full_turn():
    """Looting: "A Looted town / city cannot upgrade or create armies until the beginning of the next
    full turn ... It takes time to suppress the local populace"; the Elite Defense Force "is treated as
    an army in the field in all manners" (Battle for Towns, Cities, and Capitols): decision 622. The
    town 2, looted last turn, is refused one; the turn after next it may have one."""
    import dataclasses

    ctx = context()
    ctx.provinces[2] = dataclasses.replace(ctx.provinces[2], looted_turn=ctx.turn - 1)
    refused = order_sheet_check(SheetEntries(garrisons=(ReinforceGarrison(2),)), ctx)
    assert [p.code for p in refused.error_problems] == [SheetProblemCode.LOOTED]
    assert "2 P2 was looted and cannot raise an Elite Defense Force" in only_errors(refused)
    ctx.provinces[2] = dataclasses.replace(ctx.provinces[2], looted_turn=ctx.turn - 2)
    assert order_sheet_check(SheetEntries(garrisons=(ReinforceGarrison(2),)), ctx).ok


# --- Problems: a stable code, the army by id, words without its name --------------------------


def test_every_problem_code_is_kebab_case_and_unique():
    values = [code.value for code in SheetProblemCode]
    assert len(set(values)) == len(values)
    assert all(re.fullmatch(r"[a-z]+(-[a-z]+)*", v) for v in values), values


def test_a_problem_carries_its_code_and_army_id_and_its_text_does_not_name_the_army():
    result = check(SheetEntries(orders=(ArmyOrder(10, OrderKind.MOVE, target=3),)))
    (problem,) = result.error_problems
    assert (problem.code, problem.army, problem.armies) == (SheetProblemCode.NOT_ADJACENT, 10, (10,))
    assert "1st Army" not in problem.text and problem.text.startswith("3 P3 is not adjacent to 1 P1")
    assert problem.message(result.names) == result.errors[0] == f"1st Army: {problem.text}"


def test_a_name_that_begins_the_sentence_is_added_once_without_a_colon():
    two = check(SheetEntries(orders=(ArmyOrder(10), ArmyOrder(10, OrderKind.FORTIFY))))
    (problem,) = two.error_problems
    assert problem.code is SheetProblemCode.SEVERAL_ORDERS and problem.army == 10
    assert two.errors == ["1st Army has 2 orders; an army receives one order a turn (4. Write Orders)."]
    stranger = check(SheetEntries(orders=(ArmyOrder(77),)))
    assert [(p.code, p.army) for p in stranger.error_problems] == [(SheetProblemCode.NO_SUCH_ARMY, 77)]
    assert stranger.errors == ["Army 77 is not one of your active armies."]


def test_fortify_after_a_battle_last_turn_is_accepted_with_a_warning_that_it_acts_as_hold():
    """Fortify: "If an army was given Fortify orders and was in a battle the last turn, it acts as
    if it were given Hold orders": the order may be given (no error); the sheet warns that it will
    hold and names the turn of the battle. An army whose last battle was earlier, or that may be
    attacked this turn (the sheet cannot know), gets neither error nor warning."""
    fortify = SheetEntries(orders=(ArmyOrder(10, OrderKind.FORTIFY),))
    fought = (own_army(id=10, name="1st Army", province=6, size=2000, last_battle_turn=2),)
    result = check(fortify, armies=fought, turn=3)
    assert result.ok
    assert [(p.code, p.army) for p in result.warning_problems] == [(SheetProblemCode.FORTIFY_AFTER_BATTLE, 10)]
    assert result.warnings == [
        "1st Army was in a battle last turn (turn 2): its Fortify acts as Hold this turn (Fortify)."
    ]
    earlier = (own_army(id=10, name="1st Army", province=6, size=2000, last_battle_turn=1),)
    result = check(fortify, armies=earlier, turn=3)
    assert result.ok and result.warning_problems == []
    # An enemy army stands next door and may attack this turn: Fortify stands all the same.
    beside_an_enemy = (own_army(id=10, name="1st Army", province=11, size=2000), wb.army(20, 2, 15))
    result = check(fortify, armies=beside_an_enemy, turn=3)
    assert result.ok and result.warning_problems == []


def test_sheet_level_problems_and_new_armies_have_no_army_id():
    result = check(SheetEntries(creations=(CreateArmy("2nd Army", 2000, 5),)), treasury=1500, mine=(1, 2, 5, 6, 9))
    assert [(p.code, p.army) for p in result.error_problems] == [(SheetProblemCode.OVER_BUDGET, None)]
    result = check(SheetEntries(creations=(CreateArmy("2nd Army", 900, 5),)), mine=(1, 2, 5, 6, 9))
    assert [(p.code, p.army) for p in result.error_problems] == [(SheetProblemCode.ARMY_SIZE, None)]
    assert result.errors[0].startswith("New army '2nd Army': an army of 900 points")


def test_warnings_carry_codes_and_the_armies_they_concern():
    armies = (
        own_army(id=10, name="1st Army", province=1, size=2000),
        own_army(id=11, name="2nd Army", province=5, size=1500),
    )
    entries = SheetEntries(orders=(ArmyOrder(10, OrderKind.MOVE, target=6), ArmyOrder(11, OrderKind.MOVE, target=6)))
    result = check(entries, armies=armies)
    assert [(p.code, p.armies) for p in result.warning_problems] == [
        (SheetProblemCode.SAME_DESTINATION, (10, 11)),
        (SheetProblemCode.CAPITOL_LEFT, ()),
    ]
    assert "1st Army" not in result.warning_problems[0].text
