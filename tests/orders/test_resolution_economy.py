"""Turn resolution phases 1-3: Tally Gold, Maintain Armies (Foraging Table), Create / Upgrade Armies.
Pure rules: no database; the state is built by hand and the dice are scripted."""

from __future__ import annotations

import dataclasses

import pytest

from kernel.dice import DiceScriptExhausted, ScriptedDice
from kernel.events import Event
from kernel.ledger import LedgerReason
from kingdoms.rules.tables import ArmyType
from kingdoms.rules.world import ArmyState, ProvinceState
from orders.rules.resolution.economy import (
    FORAGING_TABLE,
    IMPERIAL_TAXATION,
    TAXES,
    create_and_upgrade_armies,
    foraging_outcome,
    maintain_armies,
    tally_gold,
)
from orders.rules.resolution.state import TurnState
from orders.rules.sheets import (
    ArmyOrder,
    BuySupplyDepot,
    CreateArmy,
    ReinforceGarrison,
    SheetEntries,
    UpgradeArmy,
)
from tests import world_builders as wb

TURN = 3
K = 1  # the kingdom under test
OTHER = 2


def province(
    number: int,
    *,
    controller: int | None = K,
    settlement: str = "none",
    terrain: str = "plains",
    razed: bool = False,
) -> ProvinceState:
    return wb.province(number, terrain, settlement, razed=razed, controller=controller)


def army(
    army_id: int,
    *,
    kingdom: int = K,
    where: int = 1,
    points: int = 1500,
    size: int | None = None,
    depot: bool = False,
    experience: int = 0,
) -> ArmyState:
    return wb.army(
        army_id, kingdom, where, points, size=size, supply_depot=depot, experience=experience, created_turn=1
    )


def build(
    *,
    provinces: list[ProvinceState] | None = None,
    armies: list[ArmyState] | None = None,
    treasury: int = 0,
    army_type: ArmyType = ArmyType.HIGH_ELVES,
    other_type: ArmyType = ArmyType.DWARFS,
    orders: list[ArmyOrder] | None = None,
    sheet: SheetEntries | None = None,
) -> TurnState:
    """A two-kingdom state: kingdom K (under test) and OTHER, with nothing but what is given."""
    provinces = provinces if provinces is not None else [province(1)]
    world = wb.world(
        provinces=provinces,
        kingdoms=[
            wb.kingdom(K, "Ulthuan", army_type, treasury=treasury, capitol=1),
            wb.kingdom(OTHER, "Karaz", other_type, treasury=0),
        ],
        armies=armies or [],
        turn=TURN,
        player_count=2,
    )
    return TurnState(
        world=world,
        orders={o.army: o for o in orders or []},
        sheets={K: sheet} if sheet else {},
    )


def codes(events: list[Event]) -> list[str]:
    return [e.code for e in events]


def ledger(events: list[Event]) -> list[tuple[str, int, str]]:
    """The treasury movements the events carry: (code, gold, ledger reason)."""
    return [(e.code, e.gold, e.ledger_reason) for e in events if e.gold]


# ---------------------------------------------------------------------------------------------
# 1. Tally Gold


def test_tax_tables_are_the_rulebooks():
    assert TAXES == {"city": 300, "town": 150, "province": 30}
    assert IMPERIAL_TAXATION == {"city": 50, "town": 25, "province": 5}


def test_case_G1_a_settlement_yields_its_tax_only_and_a_razed_province_nothing():
    state = build(
        provinces=[
            province(1, settlement="city"),  # the capitol
            province(2, settlement="town"),
            province(3),
            province(4),
            province(5, razed=True),
            province(6, controller=OTHER),
        ],
        treasury=1000,
    )
    events: list[Event] = []

    tally_gold(state, events)

    assert state.kingdoms[K].treasury == 1510
    assert ledger([e for e in events if e.kingdom == K]) == [("taxes", 510, LedgerReason.TAXES)]
    assert events[0].phase == "tally-gold"
    assert events[0].text == "Taxes: 1 city (300), 1 town (150), 2 provinces (60)."
    # OTHER's single plain province gives it 30, in its own event.
    assert state.kingdoms[OTHER].treasury == 30
    assert [(e.kingdom, e.gold) for e in events] == [(K, 510), (OTHER, 30)]


def test_ruins_are_taxed_as_a_plain_province():
    state = build(provinces=[province(1, settlement="ruins"), province(2, settlement="ruins")])
    events: list[Event] = []

    tally_gold(state, events)

    assert state.kingdoms[K].treasury == 60
    assert events[0].text == "Taxes: 2 provinces (60)."


def test_case_G2_empire_collects_then_pays_imperial_taxation():
    state = build(
        provinces=[province(1, settlement="city"), province(2, settlement="town"), province(3), province(4)],
        treasury=100,
        army_type=ArmyType.EMPIRE,
    )
    events: list[Event] = []

    tally_gold(state, events)

    assert ledger(events) == [
        ("taxes", 510, LedgerReason.TAXES),
        ("imperial-taxation", -85, LedgerReason.IMPERIAL_TAXATION),
    ]
    assert state.kingdoms[K].treasury == 100 + 425
    assert "1 city (50), 1 town (25), 2 provinces (10)" in events[1].text


def test_imperial_taxation_spares_razed_and_desert_provinces():
    state = build(
        provinces=[province(1, settlement="city"), province(2, razed=True), province(3, terrain="desert")],
        army_type=ArmyType.EMPIRE,
    )
    events: list[Event] = []

    tally_gold(state, events)

    assert ledger(events) == [
        ("taxes", 300, LedgerReason.TAXES),
        ("imperial-taxation", -50, LedgerReason.IMPERIAL_TAXATION),
    ]
    assert state.kingdoms[K].treasury == 250


def test_case_G3_desert_and_razed_provinces_yield_nothing_whoever_controls_them():
    state = build(
        provinces=[
            province(1, terrain="desert"),
            province(2, settlement="ruins", terrain="desert"),
            province(3, settlement="town", razed=True),
            province(4, settlement="city", razed=True),
            province(5, terrain="desert", controller=OTHER),
        ],
        treasury=40,
        other_type=ArmyType.ANCIENT_DEAD,
    )
    events: list[Event] = []

    tally_gold(state, events)

    assert events == []  # no income, no event
    assert state.kingdoms[K].treasury == 40
    assert state.kingdoms[OTHER].treasury == 0


# ---------------------------------------------------------------------------------------------
# 2. Maintain Armies


def test_foraging_table_reads_every_result():
    assert [foraging_outcome(n).code for n in range(1, 13)] == [
        "disaster",  # a reroll at -1 of 2 gives 1: read as 2
        "disaster",
        "losses",
        "losses",
        "no-forced-march",
        "no-forced-march",
        "no-forced-march",
        "no-forced-march",
        "no-forced-march",
        "plenty",
        "plenty",
        "depot",
    ]
    assert FORAGING_TABLE[0].low == 2 and FORAGING_TABLE[-1].high == 12


def test_case_M1_an_army_with_a_supply_depot_makes_no_foraging_roll():
    state = build(armies=[army(1, depot=True)], treasury=1000)
    dice = ScriptedDice(faces=[])  # any roll would exhaust the script
    events: list[Event] = []

    maintain_armies(state, dice, events)

    assert dice.rolls == []
    assert events == []
    assert state.armies[1].no_forced_march is False


def test_case_M2_seven_no_effect_but_no_forced_march():
    state = build(armies=[army(1)], treasury=1000)
    dice = ScriptedDice(faces=[3, 4])
    events: list[Event] = []

    maintain_armies(state, dice, events)

    assert [(r.expression, r.total, r.purpose, r.armies, r.kingdoms) for r in dice.rolls] == [
        ("2D6", 7, "Army 1: Foraging Table", (1,), (K,))
    ]
    assert codes(events) == ["foraging-no-forced-march"]
    assert events[0].data["roll"] == 7
    assert events[0].phase == "maintain-armies"
    assert state.armies[1].no_forced_march is True
    assert state.armies[1].points == 1500
    assert state.kingdoms[K].treasury == 1000


def test_case_M2_four_loses_d6_x_50_points_and_no_forced_march():
    state = build(armies=[army(1, points=1500)])
    dice = ScriptedDice(faces=[1, 3, 5])
    events: list[Event] = []

    maintain_armies(state, dice, events)

    assert [(r.expression, r.total, r.purpose) for r in dice.rolls] == [
        ("2D6", 4, "Army 1: Foraging Table"),
        ("D6", 5, "Army 1: foraging losses (D6 x 50 points)"),
    ]
    assert codes(events) == ["foraging-losses"]
    assert events[0].data["points_lost"] == 250
    assert state.armies[1].points == 1250
    assert state.armies[1].size == 1500  # the size it was raised at is unchanged
    assert state.armies[1].no_forced_march is True
    assert state.armies[1].disbanded is False


def test_case_M2_twelve_pays_400_for_a_new_supply_depot():
    state = build(armies=[army(1)], treasury=500)
    dice = ScriptedDice(faces=[6, 6])
    events: list[Event] = []

    maintain_armies(state, dice, events)

    assert [r.purpose for r in dice.rolls] == ["Army 1: Foraging Table"]
    assert ledger(events) == [("foraging-depot", -400, LedgerReason.SUPPLY_DEPOT)]
    assert state.kingdoms[K].treasury == 100
    assert state.armies[1].supply_depot is True
    assert state.armies[1].no_forced_march is False


def test_case_M2_twelve_unable_to_pay_rerolls_at_minus_one():
    state = build(armies=[army(1)], treasury=399)
    dice = ScriptedDice(faces=[6, 6, 4, 4])  # 12, then 8 - 1 = 7
    events: list[Event] = []

    maintain_armies(state, dice, events)

    assert [(r.total, r.purpose) for r in dice.rolls] == [
        (12, "Army 1: Foraging Table"),
        (8, "Army 1: Foraging Table reroll at -1"),
    ]
    assert codes(events) == ["foraging-depot-unpaid", "foraging-no-forced-march"]
    assert events[1].data["roll"] == 7
    assert all(e.gold == 0 for e in events)
    assert state.kingdoms[K].treasury == 399
    assert state.armies[1].supply_depot is False
    assert state.armies[1].no_forced_march is True


def test_case_M2_twelve_not_wanted_rerolls_and_a_reroll_never_reaches_twelve():
    state = build(armies=[army(1)], treasury=5000, orders=[ArmyOrder(1, pay_for_depot=False)])
    dice = ScriptedDice(faces=[6, 6, 6, 6])  # 12, then 12 - 1 = 11
    events: list[Event] = []

    maintain_armies(state, dice, events)

    assert codes(events) == ["foraging-depot-unpaid", "foraging-plenty"]
    assert "chose not to pay" in events[0].text
    assert events[1].data["roll"] == 11
    assert state.kingdoms[K].treasury == 5000
    assert state.armies[1].supply_depot is False
    assert state.armies[1].no_forced_march is False


def test_a_reroll_of_two_at_minus_one_is_a_disaster():
    state = build(armies=[army(1, points=1600)], treasury=0)
    dice = ScriptedDice(faces=[6, 6, 1, 1])
    events: list[Event] = []

    maintain_armies(state, dice, events)

    assert codes(events) == ["foraging-depot-unpaid", "foraging-disaster"]
    assert state.armies[1].points == 800


def test_case_M3_disaster_with_casualties_halves_the_army_pending_recovery():
    state = build(armies=[army(1, points=1801)], orders=[ArmyOrder(1, disaster_choice="casualties")])
    dice = ScriptedDice(faces=[1, 1])
    events: list[Event] = []

    maintain_armies(state, dice, events)

    assert codes(events) == ["foraging-disaster"]
    assert events[0].data == {
        "roll": 2,
        "choice": "casualties",
        "remove_half_models": True,
        "points_lost": 900,
        "pending_recovery": True,
    }
    assert state.armies[1].points == 901
    assert state.armies[1].disbanded is False


def test_case_M3_disaster_with_disbanding_disbands_the_army():
    state = build(armies=[army(1)], orders=[ArmyOrder(1, disaster_choice="disband")])
    dice = ScriptedDice(faces=[1, 1])
    events: list[Event] = []

    maintain_armies(state, dice, events)

    assert codes(events) == ["foraging-disaster", "army-disbanded"]
    assert events[0].data["choice"] == "disband"
    assert state.armies[1].disbanded is True
    assert state.armies[1].points == 1500


def test_case_M3_disaster_without_an_order_takes_the_casualties():
    state = build(armies=[army(1, points=2000)])
    dice = ScriptedDice(faces=[1, 1])
    events: list[Event] = []

    maintain_armies(state, dice, events)

    assert events[0].data["choice"] == "casualties"
    assert events[0].data["pending_recovery"] is True
    assert state.armies[1].points == 1000
    assert state.armies[1].disbanded is False


@pytest.mark.parametrize(("points", "disbanded"), [(750, True), (800, True), (850, False)])
def test_an_army_left_at_500_points_or_less_by_foraging_is_disbanded(points, disbanded):
    state = build(armies=[army(1, points=points)])
    dice = ScriptedDice(faces=[1, 2, 6])  # 3: loses 6 x 50 = 300
    events: list[Event] = []

    maintain_armies(state, dice, events)

    assert state.armies[1].points == points - 300
    assert state.armies[1].disbanded is disbanded
    assert codes(events) == ["foraging-losses", "army-disbanded"] if disbanded else ["foraging-losses"]


def test_armies_forage_in_ascending_id_order_and_disbanded_ones_do_not():
    gone = dataclasses.replace(army(3), disbanded=True)
    state = build(armies=[army(7), gone, army(2, kingdom=OTHER)])
    dice = ScriptedDice(faces=[5, 5, 3, 3])
    events: list[Event] = []

    maintain_armies(state, dice, events)

    assert [(r.armies, r.total) for r in dice.rolls] == [((2,), 10), ((7,), 6)]
    assert [(e.army, e.code) for e in events] == [(2, "foraging-plenty"), (7, "foraging-no-forced-march")]
    with pytest.raises(DiceScriptExhausted):
        dice.roll("D6", purpose="nothing left")


def test_several_twelves_pay_while_the_treasury_lasts():
    state = build(armies=[army(1), army(2)], treasury=800, orders=[ArmyOrder(2)])
    dice = ScriptedDice(faces=[6, 6, 6, 6])
    events: list[Event] = []

    maintain_armies(state, dice, events)

    assert ledger(events) == [("foraging-depot", -400, LedgerReason.SUPPLY_DEPOT)] * 2
    assert state.kingdoms[K].treasury == 0


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
    assert state.armies[-2].province == 2 and state.armies[-3].province == 3


@pytest.mark.parametrize(("army_type", "cost"), [(ArmyType.BEASTS_OF_CHAOS, 1425), (ArmyType.DOGS_OF_WAR, 1500)])
def test_case_C1_wildlings_and_mercenaries_in_a_city_execution(army_type, cost):
    sheet = SheetEntries(creations=(CreateArmy("Host", 1500, 1),))
    state = build(provinces=[province(1, settlement="city")], treasury=2000, army_type=army_type, sheet=sheet)
    events: list[Event] = []

    create_and_upgrade_armies(state, events)

    assert ledger(events) == [("army-created", -cost, LedgerReason.ARMY_CREATED)]
    assert state.kingdoms[K].treasury == 2000 - cost


def test_case_C2_upgrade_by_less_than_500_keeps_experience_execution():
    sheet = SheetEntries(upgrades=(UpgradeArmy(1, 1600),))
    state = build(
        provinces=[province(1, settlement="town")],
        armies=[army(1, points=1150, size=1200, depot=True, experience=120)],
        treasury=1000,
        sheet=sheet,
    )
    events: list[Event] = []

    create_and_upgrade_armies(state, events)

    assert ledger(events) == [("army-upgraded", -400, LedgerReason.ARMY_UPGRADED)]
    assert state.kingdoms[K].treasury == 600
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
