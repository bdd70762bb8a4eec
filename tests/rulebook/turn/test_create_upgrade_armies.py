"""Turn resolution phase 3: Create / Upgrade Armies (creations, upgrades, depots and garrisons bought).
Pure rules: no database; the state is built by hand and the dice are scripted."""

from __future__ import annotations

from dataclasses import replace

import pytest

from kernel.dice import ScriptedDice
from kernel.events import Event
from kernel.ledger import LedgerReason
from rulebook.tables import ArmyType
from rulebook.turn.create_upgrade_armies import create_and_upgrade_armies
from rulebook.turn.maintain_armies import maintain_armies
from rulebook.turn.tally_gold import tally_gold
from rulebook.turn.write_orders.records import (
    ArmyOrder,
    BuySupplyDepot,
    CreateArmy,
    ReinforceGarrison,
    SheetEntries,
    UpgradeArmy,
)
from tests.rulebook.turn.economy_scene import OTHER, TURN, K, army, build, codes, ledger, province

# ---------------------------------------------------------------------------------------------
# 3. Create / Upgrade Armies


def test_case_C1_creation_costs_execution():
    provinces = [province(1, settlement="town"), province(2), province(3, settlement="city")]
    sheet = SheetEntries(
        creations=(CreateArmy("Town Guard", 1500, 1), CreateArmy("Levy", 1500, 2), CreateArmy("Host", 1500, 3))
    )
    state = build(provinces=provinces, treasury=5000, sheet=sheet)
    events: list[Event] = []

    create_and_upgrade_armies(state, events)

    assert ledger(events) == [
        ("army-created", -1350, LedgerReason.ARMY_CREATED),
        ("army-created", -1500, LedgerReason.ARMY_CREATED),
        ("army-created", -1350, LedgerReason.ARMY_CREATED),
    ]
    assert state.kingdoms[K].treasury == 5000 - 4200
    assert [e.army for e in events] == [-1, -2, -3]
    new = state.armies[-1]
    assert (new.name, new.kingdom, new.province, new.points, new.size) == ("Town Guard", K, 1, 1500, 1500)
    assert new.created_turn == TURN
    assert new.supply_depot is True
    assert new.list_due is True  # it counts at the points paid until its list is entered
    assert state.armies[-2].province == 2 and state.armies[-3].province == 3


@pytest.mark.parametrize(("army_type", "cost"), [(ArmyType.BEASTS_OF_CHAOS, 1425), (ArmyType.DOGS_OF_WAR, 1500)])
def test_case_C1_wildlings_and_mercenaries_in_a_city_execution(army_type, cost):
    sheet = SheetEntries(creations=(CreateArmy("Host", 1500, 1),))
    state = build(provinces=[province(1, settlement="city")], treasury=2000, army_type=army_type, sheet=sheet)
    events: list[Event] = []

    create_and_upgrade_armies(state, events)

    assert ledger(events) == [("army-created", -cost, LedgerReason.ARMY_CREATED)]
    assert state.kingdoms[K].treasury == 2000 - cost


def test_case_C2_upgrade_by_less_than_500_of_its_current_points_keeps_experience_execution():
    """3. Create / Upgrade Armies: "pay the gold difference and recreate it at a higher point value".
    Raised at 1,200 and now at 1,150 after losses, the army goes to 1,600 for the 450 it gains, and
    450 is less than 500: it keeps its experience."""
    sheet = SheetEntries(upgrades=(UpgradeArmy(1, 1600),))
    state = build(
        provinces=[province(1, settlement="town")],
        armies=[army(1, points=1150, size=1200, depot=True, experience=120)],
        treasury=1000,
        sheet=sheet,
    )
    events: list[Event] = []

    create_and_upgrade_armies(state, events)

    assert ledger(events) == [("army-upgraded", -450, LedgerReason.ARMY_UPGRADED)]
    assert state.kingdoms[K].treasury == 550
    upgraded = state.armies[1]
    assert (upgraded.size, upgraded.points, upgraded.upgraded_turn) == (1600, 1600, TURN)
    assert upgraded.experience == 120
    assert upgraded.veteran_status_lost is False


def test_case_C2_upgrade_by_500_or_more_loses_experience_execution():
    sheet = SheetEntries(upgrades=(UpgradeArmy(1, 1500),))
    state = build(
        provinces=[province(1, settlement="town")],
        armies=[army(1, points=1000, depot=True, experience=175)],
        treasury=1000,
        sheet=sheet,
    )
    events: list[Event] = []

    create_and_upgrade_armies(state, events)

    assert ledger(events) == [("army-upgraded", -500, LedgerReason.ARMY_UPGRADED)]
    assert events[0].data["experience_lost"] == 175
    assert state.kingdoms[K].treasury == 500
    assert state.armies[1].size == 1500
    assert state.armies[1].experience == 0
    assert state.armies[1].veteran_status_lost is True


@pytest.mark.parametrize(
    ("raised", "now", "gold"),
    [
        (2000, 1300, 700),  # back to the size it was raised at: 700 added, 700 >= 500
        (1500, 900, 1100),  # 1,100 points added, not the 500 between its raised size and 2,000
    ],
)
def test_case_C2_an_upgrade_is_measured_from_the_army_s_current_points(raised, now, gold):
    """3. Create / Upgrade Armies: "pay the gold difference and recreate it at a higher point value";
    "adding 500 or more points ... will lose all its experience points and veteran status". The
    difference is from what the army counts now, after its losses, not from the points it was
    raised at: both the gold and the points added."""
    sheet = SheetEntries(upgrades=(UpgradeArmy(1, 2000),))
    state = build(
        provinces=[province(1, settlement="town")],
        armies=[army(1, points=now, size=raised, depot=True, experience=90)],
        treasury=2000,
        sheet=sheet,
    )
    events: list[Event] = []

    create_and_upgrade_armies(state, events)

    assert ledger(events) == [("army-upgraded", -gold, LedgerReason.ARMY_UPGRADED)]
    assert events[0].data == {"from": now, "to": 2000, "experience_lost": 90}
    assert f"upgraded from {now:,} to 2,000 points for {gold:,} gold" in events[0].text
    assert state.kingdoms[K].treasury == 2000 - gold
    upgraded = state.armies[1]
    assert (upgraded.size, upgraded.points, upgraded.list_due) == (2000, 2000, True)
    assert upgraded.experience == 0
    assert upgraded.veteran_status_lost is True


def test_an_upgrade_that_would_not_raise_the_army_s_current_points_is_not_made():
    """3. Create / Upgrade Armies: an upgrade recreates the army "at a higher point value". One
    that reaches the resolution (its list entered since the sheet was checked) and would not raise
    what the army counts now is skipped, with the rule named, and costs nothing."""
    sheet = SheetEntries(upgrades=(UpgradeArmy(1, 1500),))
    state = build(
        provinces=[province(1, settlement="town")],
        armies=[army(1, points=1500, size=1500, depot=True, experience=40)],
        treasury=1000,
        sheet=sheet,
    )
    events: list[Event] = []

    create_and_upgrade_armies(state, events)

    assert codes(events) == ["army-unavailable"]
    assert "counts 1,500 points already" in events[0].text
    assert state.kingdoms[K].treasury == 1000
    assert state.armies[1].experience == 40 and state.armies[1].upgraded_turn is None


def test_case_R6_the_upgrade_is_paid_from_the_taxes_collected_first():
    """1. Tally Gold comes before 3. Create / Upgrade Armies: 200 in the treasury, 510 collected,
    then the upgrade (500) is bought."""
    provinces = [province(1, settlement="city"), province(2, settlement="town"), province(3), province(4)]
    sheet = SheetEntries(upgrades=(UpgradeArmy(1, 1500),))
    state = build(provinces=provinces, armies=[army(1, where=2, points=1000, depot=True)], treasury=200, sheet=sheet)
    events: list[Event] = []

    tally_gold(state, events)
    create_and_upgrade_armies(state, events)

    assert ledger(events) == [
        ("taxes", 510, LedgerReason.TAXES),
        ("army-upgraded", -500, LedgerReason.ARMY_UPGRADED),
    ]
    assert state.kingdoms[K].treasury == 210
    assert (state.armies[1].size, state.armies[1].points, state.armies[1].list_due) == (1500, 1500, True)


def test_supply_depot_and_elite_defense_force_are_bought():
    sheet = SheetEntries(depots=(BuySupplyDepot(1),), garrisons=(ReinforceGarrison(1),))
    state = build(provinces=[province(1, settlement="city")], armies=[army(1)], treasury=700, sheet=sheet)
    events: list[Event] = []

    create_and_upgrade_armies(state, events)

    assert ledger(events) == [
        ("supply-depot", -200, LedgerReason.SUPPLY_DEPOT),
        ("elite-defense-force", -500, LedgerReason.ELITE_DEFENSE_FORCE),
    ]
    assert state.kingdoms[K].treasury == 0
    assert state.armies[1].supply_depot is True
    assert state.provinces[1].elite_defense is True


def test_a_looted_town_takes_no_elite_defense_force_when_the_turn_resolves():
    """Looting (decision 622): a sheet checked before its town was looted (or one the check let
    through) does not raise an Elite Defense Force there until the start of the next full turn."""
    sheet = SheetEntries(garrisons=(ReinforceGarrison(1),))
    looted = replace(province(1, settlement="town"), looted_turn=TURN - 1)
    state = build(provinces=[looted], treasury=700, sheet=sheet)
    events: list[Event] = []

    create_and_upgrade_armies(state, events)

    assert codes(events) == ["settlement-unavailable"] and "it was looted" in events[0].text
    assert state.kingdoms[K].treasury == 700 and state.provinces[1].elite_defense is False


def test_entries_no_longer_affordable_after_foraging_are_skipped_in_sheet_order():
    # The sheet spent exactly the treasury when submitted (1,500 + 400 + 200 + 500 = 2,600);
    # then a 12 on the Foraging Table paid 400 for a depot.
    sheet = SheetEntries(
        creations=(CreateArmy("Levy", 1500, 2),),
        upgrades=(UpgradeArmy(1, 1600),),
        depots=(BuySupplyDepot(3),),
        garrisons=(ReinforceGarrison(1),),
    )
    state = build(
        provinces=[province(1, settlement="town"), province(2), province(4, settlement="town"), province(5)],
        armies=[army(1, size=1200, points=1200, depot=True), army(3, where=4), army(5, where=5)],
        treasury=2600,
        sheet=sheet,
    )
    dice = ScriptedDice(faces=[3, 3, 6, 6])  # army 3: 6; army 5: 12, pays 400
    events: list[Event] = []

    maintain_armies(state, dice, events)
    create_and_upgrade_armies(state, events)

    # 2,600 - 400 = 2,200: the creation (1,500) and the upgrade (400) fit, the depot (200) fits
    # with 100 to spare, and the Elite Defense Force (500) no longer does.
    assert codes(events) == [
        "foraging-no-forced-march",
        "foraging-depot",
        "army-created",
        "army-upgraded",
        "supply-depot",
        "not-afforded",
    ]
    skipped = events[-1]
    assert skipped.gold == 0 and skipped.ledger_reason == ""
    assert skipped.data == {"cost": 500, "treasury": 100, "entry": "elite-defense-force"}
    assert skipped.province == 1
    assert state.kingdoms[K].treasury == 100
    assert state.provinces[1].elite_defense is False
    assert sum(e.gold for e in events) == 100 - 2600


def test_an_entry_that_would_take_the_treasury_below_zero_is_skipped_and_later_ones_still_bought():
    sheet = SheetEntries(creations=(CreateArmy("Levy", 1500, 2),), depots=(BuySupplyDepot(1),))
    state = build(provinces=[province(1, settlement="town"), province(2)], armies=[army(1)], treasury=1000, sheet=sheet)
    events: list[Event] = []

    create_and_upgrade_armies(state, events)

    assert codes(events) == ["not-afforded", "supply-depot"]
    assert events[0].data["cost"] == 1500 and events[0].army is None
    assert -1 not in state.armies
    assert state.kingdoms[K].treasury == 800


def test_a_creation_in_a_province_lost_or_occupied_is_skipped():
    sheet = SheetEntries(
        creations=(CreateArmy("Lost", 1000, 2), CreateArmy("Crowded", 1000, 3), CreateArmy("Raised", 1000, 4))
    )
    state = build(
        provinces=[province(1), province(2, controller=OTHER), province(3), province(4)],
        armies=[army(9, kingdom=OTHER, where=3, depot=True)],
        treasury=3000,
        sheet=sheet,
    )
    events: list[Event] = []

    create_and_upgrade_armies(state, events)

    assert codes(events) == ["settlement-unavailable", "settlement-unavailable", "army-created"]
    assert "no longer yours" in events[0].text and "occupied" in events[1].text
    assert events[2].army == -1  # skipped creations use no id
    assert state.kingdoms[K].treasury == 2000


def test_a_depot_already_gained_by_foraging_or_for_a_disbanded_army_is_not_bought():
    sheet = SheetEntries(depots=(BuySupplyDepot(1), BuySupplyDepot(2)), upgrades=(UpgradeArmy(2, 2000),))
    state = build(
        provinces=[province(1, settlement="town"), province(2, settlement="town")],
        armies=[army(1), army(2, where=2, points=800)],
        treasury=1000,
        orders=[ArmyOrder(2, disaster_choice="disband")],
        sheet=sheet,
    )
    dice = ScriptedDice(faces=[6, 6, 1, 1])  # army 1: 12, pays; army 2: Disaster, disbands
    events: list[Event] = []

    maintain_armies(state, dice, events)
    create_and_upgrade_armies(state, events)

    assert codes(events) == [
        "foraging-depot",
        "foraging-disaster",
        "army-disbanded",
        "army-unavailable",  # the upgrade of the disbanded army
        "supply-depot-held",
        "army-unavailable",
    ]
    assert state.kingdoms[K].treasury == 600
