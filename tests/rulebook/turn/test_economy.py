"""Turn resolution phases 1-3: Tally Gold, Maintain Armies (Foraging Table), Create / Upgrade Armies.
Pure rules: no database; the state is built by hand and the dice are scripted."""

from __future__ import annotations

import dataclasses

import pytest

from kernel.dice import DiceScriptExhausted, ScriptedDice
from kernel.events import Event
from kernel.ledger import LedgerReason
from rulebook.tables import ArmyType
from rulebook.turn.create_upgrade_armies import create_and_upgrade_armies
from rulebook.turn.maintain_armies import FORAGING_TABLE, foraging_outcome, maintain_armies
from rulebook.turn.state import TurnState
from rulebook.turn.tally_gold import IMPERIAL_TAXATION, TAXES, tally_gold
from rulebook.turn.write_orders.records import (
    ArmyOrder,
    BuySupplyDepot,
    CreateArmy,
    LossesFrom,
    ReinforceGarrison,
    SheetEntries,
    UpgradeArmy,
)
from rulebook.world import ArmyState, ProvinceState, UnitState
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
    dice = ScriptedDice(faces=[6, 6, 1, 1, 1, 1])  # 12 unpaid; 2 - 1 reads as 2; recovery 2: none back
    events: list[Event] = []

    maintain_armies(state, dice, events)

    assert codes(events) == ["foraging-depot-unpaid", "foraging-disaster", "foraging-recovery"]
    assert state.armies[1].points == 800


def rank_and_file_list(army_id: int = 1) -> tuple[UnitState, ...]:
    """A 1,500-point list: a 300-point General, 40 Spearmen and 30 Archers (core), 10 Knights
    (special) and 2 Bolt Throwers (rare): 82 models of rank and file."""
    return (
        UnitState(101, army_id, "Prince Tyrion", "character", 1, 300),
        UnitState(102, army_id, "Spearmen", "core", 40, 10),
        UnitState(103, army_id, "Knights", "special", 10, 30),
        UnitState(104, army_id, "Archers", "core", 30, 10),
        UnitState(105, army_id, "Bolt Throwers", "rare", 2, 100),
    )


def with_list(state: TurnState, army_id: int = 1) -> TurnState:
    state.world.units[army_id] = rank_and_file_list(army_id)
    return state


def models_left(state: TurnState, army_id: int = 1) -> dict[str, int]:
    return {u.name: u.models for u in state.world.units[army_id]}


def test_case_R7_foraging_losses_are_taken_from_the_list_once():
    """Foraging Table, 3-4: "lose D6 x 50 points of troops". A 1,500-point army rolls 4 and loses
    3 x 50 = 150 points: models worth 150 come off its list (no choice on the sheet: the biggest
    core unit first), and the list is what counts: 1,350, nothing kept to subtract again."""
    state = with_list(build(armies=[army(1, points=1500)]))
    dice = ScriptedDice(faces=[1, 3, 3])  # 2D6 = 4; D6 = 3
    events: list[Event] = []

    maintain_armies(state, dice, events)

    assert codes(events) == ["foraging-losses"]
    assert events[0].data["points_lost"] == 150
    assert events[0].data["taken"] == [["Spearmen", 15, 150]]
    assert "taken from its list: 15 Spearmen (150 points); it now counts 1,350 points" in events[0].text
    assert models_left(state)["Spearmen"] == 25
    assert sum(u.points for u in state.world.units[1]) == 1350
    assert state.armies[1].points == 1350
    assert state.armies[1].losses_before_list == 0  # taken from the list: nothing left to subtract


def test_case_R7_the_players_choice_says_which_unit_loses_its_models_first():
    sheet = SheetEntries(losses=(LossesFrom(1, "Archers"),))
    state = with_list(build(armies=[army(1, points=1500)], sheet=sheet))
    dice = ScriptedDice(faces=[1, 3, 4])  # 4, then D6 = 4: 200 points
    events: list[Event] = []

    maintain_armies(state, dice, events)

    # The Archers take what they can (20 models, 200 points): the default order is not needed.
    assert models_left(state) == {
        "Prince Tyrion": 1,
        "Spearmen": 40,
        "Knights": 10,
        "Archers": 10,
        "Bolt Throwers": 2,
    }
    assert state.armies[1].points == 1300


def test_a_loss_never_takes_a_character_and_goes_on_to_the_next_unit():
    sheet = SheetEntries(losses=(LossesFrom(1, "Prince Tyrion"),))  # not rank and file: ignored
    state = with_list(build(armies=[army(1, points=1500)], sheet=sheet))
    dice = ScriptedDice(faces=[1, 2, 6, 6])  # 3; then 300 points; then the next army: none
    events: list[Event] = []
    state.world.units[1] = (
        UnitState(101, 1, "Prince Tyrion", "character", 1, 300),
        UnitState(102, 1, "Spearmen", "core", 20, 10, equipment_points=20),
        UnitState(103, 1, "Knights", "special", 10, 30),
    )

    maintain_armies(state, dice, events)

    # 20 Spearmen and their command (220), then 3 Knights (90): whole models, 310 points.
    assert events[0].data["taken"] == [["Spearmen", 20, 220], ["Knights", 3, 90]]
    assert models_left(state) == {"Prince Tyrion": 1, "Spearmen": 0, "Knights": 7}
    assert state.armies[1].points == 1500 - 310


def test_a_loss_of_an_army_whose_list_is_due_is_kept_as_points_for_the_list_to_leave_out():
    state = build(armies=[dataclasses.replace(army(1, points=1500), list_due=True)])
    dice = ScriptedDice(faces=[1, 3, 2])  # 4; D6 = 2: 100 points
    events: list[Event] = []

    maintain_armies(state, dice, events)

    assert (state.armies[1].points, state.armies[1].losses_before_list) == (1400, 100)
    assert "its list is not entered yet" in events[0].text


def test_case_R8_disaster_casualties_are_half_the_models_then_rank_and_file_recovery():
    """Foraging Table, 2: "50% casualties (by number of models, not points) ... Those casualties now
    must roll on the Rank and File Recovery table (see Casualty Recovery) to determine how many
    actually die." Half of the 82 rank-and-file models (41: the 40 Spearmen, then 1 Archer); the
    army rolls 6 on the Rank and File Recovery table (1 in 3, rounded down: no battle was won), so
    13 Spearmen come back; 27 Spearmen and 1 Archer are lost."""
    state = with_list(build(armies=[army(1, points=1500)], orders=[ArmyOrder(1, disaster_choice="casualties")]))
    dice = ScriptedDice(faces=[1, 1, 3, 3])  # Disaster; recovery 2D6 = 6
    events: list[Event] = []

    maintain_armies(state, dice, events)

    assert [(r.expression, r.total, r.purpose) for r in dice.rolls] == [
        ("2D6", 2, "Army 1: Foraging Table"),
        ("2D6", 6, "Army 1: Rank and File Recovery of its foraging casualties"),
    ]
    assert codes(events) == ["foraging-disaster", "foraging-recovery"]
    assert "41 of its 82 rank-and-file models (40 Spearmen, 1 Archers)" in events[0].text
    assert events[0].data == {"roll": 2, "choice": "casualties"}
    assert events[1].data == {"roll": 6, "points_lost": 280, "taken": [["Spearmen", 27, 270], ["Archers", 1, 10]]}
    assert "1 in 3 Recovery, rounded down" in events[1].text and "13 of the 41 models come back" in events[1].text
    assert models_left(state) == {
        "Prince Tyrion": 1,
        "Spearmen": 13,
        "Knights": 10,
        "Archers": 29,
        "Bolt Throwers": 2,
    }
    assert state.armies[1].points == 1220
    assert state.armies[1].disbanded is False


def test_disaster_casualties_that_leave_500_points_or_less_disband_the_army():
    """Army Restrictions: "If an army is reduced to 500 points or below it is Disbanded"."""
    state = build(armies=[army(1, points=900)])
    state.world.units[1] = (
        UnitState(101, 1, "Prince", "character", 1, 100),
        UnitState(102, 1, "Spearmen", "core", 80, 10),
    )
    dice = ScriptedDice(faces=[1, 1, 1, 1])  # Disaster; recovery 2: No Recovery
    events: list[Event] = []

    maintain_armies(state, dice, events)

    assert codes(events) == ["foraging-disaster", "foraging-recovery", "army-disbanded"]
    assert state.armies[1].points == 500
    assert state.armies[1].disbanded is True


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
    state = with_list(build(armies=[army(1, points=1500)]))
    dice = ScriptedDice(faces=[1, 1, 6, 6])  # Disaster; recovery 12: 2 in 3 come back
    events: list[Event] = []

    maintain_armies(state, dice, events)

    assert events[0].data["choice"] == "casualties"
    assert codes(events) == ["foraging-disaster", "foraging-recovery"]
    # 41 casualties: 40 Spearmen (26 back) and 1 Archer (0 back): 15 models, 150 points lost.
    assert state.armies[1].points == 1350
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
