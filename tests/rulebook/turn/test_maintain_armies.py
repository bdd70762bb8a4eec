"""Turn resolution phase 2: Maintain Armies (the Foraging Table, Disaster, Rank and File Recovery).
Pure rules: no database; the state is built by hand and the dice are scripted."""

from __future__ import annotations

import dataclasses

import pytest

from kernel.dice import DiceScriptExhausted, ScriptedDice
from kernel.events import Event
from kernel.ledger import LedgerReason
from rulebook.turn.maintain_armies import FORAGING_TABLE, foraging_outcome, maintain_armies
from rulebook.turn.state import TurnState
from rulebook.turn.write_orders.records import (
    ArmyOrder,
    LossesFrom,
    SheetEntries,
)
from rulebook.world import CharacterState, ItemState, UnitState
from tests.rulebook.turn.economy_scene import OTHER, K, army, build, codes, ledger

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


def test_the_characters_of_an_army_disbanded_by_foraging_leave_with_it_and_the_warlord_is_succeeded():
    """2. Maintain Armies, Foraging Table; Army Restrictions ("If an army is reduced to 500 points or below
    it is Disbanded. All the magic items it was carrying are destroyed. This represents the small band of
    soldiers selling their unwanted items and going their separate ways"); Warlord ("If the Warlord dies, a
    General with the most experience from the player's armies is selected"). Decision 591, as decision 558
    for the aftermath: the Warlord's army (1) and the Guard (2) choose to disband on a Disaster; their
    characters leave with them and count as dead, the Warlord's Runefang is destroyed, and the Warlord is
    succeeded by the General of the Host (3), still on the map, not by the Guard's more experienced
    General, who left in the same step. The kingdom's Warlord now stands with the Host."""
    state = build(
        armies=[army(1), army(2, experience=90), army(3, experience=20)],
        orders=[ArmyOrder(1, disaster_choice="disband"), ArmyOrder(2, disaster_choice="disband")],
    )
    world = state.world
    world.kingdoms[K] = dataclasses.replace(world.kingdoms[K], warlord_army=1)
    for army_id in (1, 2, 3):
        world.units[army_id] = (
            UnitState(10 * army_id, army_id, f"Lord {army_id}", "character", 1, 150),
            UnitState(10 * army_id + 1, army_id, "Spearmen", "core", 100, 10),
        )
    world.characters[1] = CharacterState(1, K, 10, "Lord Aurelian", "warlord")
    world.characters[2] = CharacterState(2, K, 20, "Captain Brand", "general")
    world.characters[3] = CharacterState(3, K, 30, "Captain Corwin", "general")
    world.items[5] = ItemState(5, "Runefang", 50, bearer=10)
    dice = ScriptedDice(faces=[1, 1, 1, 1, 3, 4])
    events: list[Event] = []

    maintain_armies(state, dice, events)

    assert codes(events) == [
        "foraging-disaster",
        "army-disbanded",
        "foraging-disaster",
        "army-disbanded",
        "foraging-no-forced-march",
        "character-retired",
        "character-retired",
        "warlord-succession",
    ]
    assert [(e.army, e.data["character"]) for e in events if e.code == "character-retired"] == [
        (1, "Lord Aurelian"),
        (2, "Captain Brand"),
    ]
    assert "separate way" in events[5].text and events[5].phase == "maintain-armies"
    assert "Captain Corwin" in events[-1].text and events[-1].army == 3
    assert (world.characters[1].alive, world.characters[2].alive) == (False, False)
    assert (world.characters[3].alive, world.characters[3].role) == (True, "warlord")
    assert world.kingdoms[K].warlord_army == 3
    assert world.items[5].destroyed


def test_a_warlord_whose_army_foraging_disbands_with_no_general_left_leaves_the_kingdom_without_one():
    """Decision 591: no General of the kingdom stands on the map: no one succeeds the Warlord, and the
    kingdom's Warlord stands nowhere (Loss of the Capitol: none to crown)."""
    state = build(armies=[army(1)], orders=[ArmyOrder(1, disaster_choice="disband")])
    world = state.world
    world.kingdoms[K] = dataclasses.replace(world.kingdoms[K], warlord_army=1)
    world.units[1] = (UnitState(10, 1, "Lord", "character", 1, 150),)
    world.characters[1] = CharacterState(1, K, 10, "Lord Aurelian", "warlord")
    events: list[Event] = []

    maintain_armies(state, ScriptedDice(faces=[1, 1]), events)

    assert codes(events) == ["foraging-disaster", "army-disbanded", "character-retired", "no-warlord"]
    assert not world.characters[1].alive and world.kingdoms[K].warlord_army is None
