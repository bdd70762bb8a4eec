"""Rogue Kingdom in the turn's resolution (rulebook/turn/executing_orders/contacts.py,
fight_battles/scheduling.py), with scripted dice: a foreign army entering a Rogue Kingdom's province
rolls on the Rogue Kingdom (D6) table. Rulebook: Player Issues > Rogue Kingdom."""

import pytest

from kernel.event_codes import EventCode
from rulebook.tables import ArmyType, Settlement
from rulebook.turn.state import TurnState
from rulebook.turn.write_orders.records import ArmyOrder, OrderKind, SheetEntries
from tests import world_builders as wb
from tests.rulebook.resolving import of, resolve

# A 3 x 3 grid (corner to corner adjacent):
#   1 2 3
#   4 5 6
#   7 8 9
# Avalon (1) holds 1 and 4; the Rogue Kingdom Brython (2) holds 2, the town in 5 and the city in 6.
AVALON, BRYTHON = 1, 2
CONTROL = {1: AVALON, 4: AVALON, 2: BRYTHON, 5: BRYTHON, 6: BRYTHON}
SETTLEMENTS = {5: "town", 6: "city"}


def state(*moves: tuple[int, int]) -> TurnState:
    """Avalon's armies 11 and 12 (1,500 points) stand in 1 and 4; each (army, target) moves."""
    world = wb.world(
        provinces=[
            wb.province(n, "plains", SETTLEMENTS.get(n, "none"), controller=CONTROL.get(n)) for n in range(1, 10)
        ],
        kingdoms=[
            wb.kingdom(AVALON, "Avalon", ArmyType.EMPIRE, treasury=3000),
            wb.kingdom(BRYTHON, "Brython", ArmyType.DWARFS, treasury=4000, capitol=6, rogue=True),
        ],
        armies=[wb.army(11, AVALON, 1), wb.army(12, AVALON, 4)],
        adjacency=wb.grid(3),
        turn=3,
    )
    orders = tuple(ArmyOrder(army, OrderKind.MOVE, target=target) for army, target in moves)
    return TurnState(world=world, orders={o.army: o for o in orders}, sheets={AVALON: SheetEntries(orders=orders)})


def test_rogue_kingdom_table_empty_the_province_is_the_army_s():
    result = resolve(state((11, 2)), [1])

    (roll,) = of(result.events, EventCode.ROGUE_KINGDOM_ROLL)
    assert (roll.kingdom, roll.data["roll"], roll.data["force"]) == (AVALON, 1, "empty")
    assert "Rogue Kingdom Brython" in roll.text and "Empty" in roll.text
    assert result.state.provinces[2].controller == AVALON
    assert result.battles == []
    assert [e.kingdom for e in of(result.events, EventCode.PROVINCE_LOST)] == [BRYTHON]


def test_a_town_taken_from_a_rogue_kingdom_is_no_town_for_its_taker():
    """Rogue Kingdom: "taking these from a Rogue Kingdom will not give the attacking player a town or
    city or a chance to loot" (decision 383)."""
    result = resolve(state((12, 5)), [1])

    taken = result.state.provinces[5]
    assert (taken.controller, taken.settlement) == (AVALON, Settlement.NONE)
    (claim,) = of(result.events, EventCode.PROVINCE_CLAIMED)
    assert "town is abandoned" in claim.text
    assert of(result.events, EventCode.LOOTED) == []


@pytest.mark.parametrize(
    ("face", "points", "label"), [(4, 1000, "Small Army"), (5, 1500, "Medium Army"), (6, 2000, "Large Army")]
)
def test_rogue_kingdom_table_an_army_defends_the_rogue_kingdom_s_town_in_an_assault(face, points, label):
    result = resolve(state((12, 5)), [face])

    (battle,) = result.battles
    assert (battle.province, battle.attacker_army, battle.defender_kingdom, battle.defender_army) == (
        5,
        12,
        BRYTHON,
        None,
    )
    assert (battle.garrison_defends, battle.garrison_points, battle.garrison_defenses) == (True, points, 0)
    # The rolled army stands instead of the town's garrison; the battle for the town is an Assault
    # (Battle for Towns, Cities, and Capitols; decision 383).
    assert battle.assault is True
    assert any(label in n and "non-allied player or a guest" in n for n in battle.notes)
    assert result.state.provinces[5].controller == BRYTHON  # held until the battle is won
    scheduled = of(result.events, EventCode.BATTLE_SCHEDULED)
    assert [e.kingdom for e in scheduled] == [AVALON, BRYTHON]
    assert f"({points:,} points)" in scheduled[0].text
    assert all(e.text.endswith("It is an Assault.") and e.data["assault"] for e in scheduled)


@pytest.mark.parametrize(("move", "face"), [((12, 5), 4), ((12, 5), 6), ((11, 2), 5)])
def test_battle_for_towns_cities_and_capitols_a_rogue_kingdom_s_town_is_always_an_assault(move, face):
    """Battle for Towns, Cities, and Capitols: "The Engagement Type is always Assault in a battle for
    a town, city, or capitol", a Rogue Kingdom's too (Rogue Kingdom: "These battles may be fought by
    any non-allied player"): the forces the table rolls defend Brython's town in an Assault; a plain
    province of the Rogue Kingdom is no Assault (decision 383)."""
    result = resolve(state(move), [face])

    (battle,) = result.battles
    assert battle.assault is (move[1] == 5)
    assert all(e.data["assault"] is battle.assault for e in of(result.events, EventCode.BATTLE_SCHEDULED))


def test_rogue_kingdom_scouting_forces_in_a_town_skirmish_on_the_ruins_terms_not_as_an_assault():
    """Rogue Kingdom: scouting forces are "a ruins style battle for control": the Tomb Raiders'
    skirmish (decision 231), on the ruins' terms, not the Assault of an army's battle for the town
    (decision 383)."""
    result = resolve(state((12, 5)), [3])

    (battle,) = result.battles
    assert (battle.skirmish, battle.assault) == (True, False)


@pytest.mark.parametrize("face", [2, 3])
def test_rogue_kingdom_table_scouting_forces_a_ruins_style_battle(face):
    """Scouting forces: "Fight a ruins style battle for control (see Ruins and Tomb Raiders)": the
    kingdom's Tomb Raiders skirmish against a 150-point warband; the army does not fight, and no
    detachment supports it (decision 231)."""
    s = state((11, 2))
    s.world.armies[12] = wb.army(12, AVALON, 4)
    support = ArmyOrder(12, OrderKind.SUPPORT, support=2)
    s.orders[12] = support
    s.sheets[AVALON] = SheetEntries(orders=(s.orders[11], support))
    result = resolve(s, [face])

    (battle,) = result.battles
    assert (battle.defender_kingdom, battle.defender_army, battle.skirmish) == (BRYTHON, None, True)
    assert (battle.garrison_points, battle.supports, battle.assault) == (150, [], False)
    (note,) = battle.notes
    assert "a ruins style battle for control" in note and "Avalon's Tomb Raiders (150 points)" in note
    assert "generic warband of 150 points" in note and "The army does not fight" in note
    assert result.state.provinces[2].controller == BRYTHON  # until the Tomb Raiders win
    (attacks, defends) = of(result.events, EventCode.BATTLE_SCHEDULED)
    assert "attacks the scouting forces of the Rogue Kingdom Brython (a Tomb Raiders' skirmish)" in attacks.text
    assert [e.army for e in of(result.events, EventCode.SUPPORT_NO_BATTLE)] == [12]


def test_no_roll_for_a_province_of_a_kingdom_that_is_not_rogue():
    s = state((11, 2))
    s.world.kingdoms[BRYTHON] = wb.kingdom(BRYTHON, "Brython", ArmyType.DWARFS, treasury=4000)
    result = resolve(s, [])

    assert of(result.events, EventCode.ROGUE_KINGDOM_ROLL) == []
    assert result.state.provinces[2].controller == AVALON


def test_a_rogue_kingdom_collects_no_taxes_its_treasury_waits_for_a_new_player():
    """Decision 155: no leader collects the Rogue Kingdom's taxes; its treasury stays as it was."""
    result = resolve(state(), [])

    assert result.state.kingdoms[BRYTHON].treasury == 4000
    assert [e.kingdom for e in of(result.events, EventCode.TAXES)] == [AVALON]


def test_two_kingdoms_entering_the_same_rogue_province_fight_each_other_without_a_roll():
    """Decision 153: the two foreign armies meet first; no Rogue Kingdom roll that turn."""
    s = state((11, 2))
    s.world.kingdoms[3] = wb.kingdom(3, "Carnwyl", ArmyType.ORCS_AND_GOBLINS)
    s.world.armies[13] = wb.army(13, 3, 3)
    order = ArmyOrder(13, OrderKind.MOVE, target=2)
    s.orders[13] = order
    s.sheets[3] = SheetEntries(orders=(order,))
    result = resolve(s, [])

    assert of(result.events, EventCode.ROGUE_KINGDOM_ROLL) == []
    (battle,) = result.battles
    assert {battle.attacker_kingdom, battle.defender_kingdom} == {AVALON, 3}
    assert result.state.provinces[2].controller == BRYTHON


def test_two_kingdoms_entering_a_rogue_kingdom_s_town_fight_each_other_without_a_roll():
    """Decision 153 where a town stands (decision 372 leaves it so): a Rogue Kingdom's town is
    defended by what the Rogue Kingdom table gives an army entering alone, not by a garrison, so it
    is no third side in Multiple Moves into Battle: the two foreign armies move in and meet first."""
    s = state((12, 5))
    s.world.kingdoms[3] = wb.kingdom(3, "Carnwyl", ArmyType.ORCS_AND_GOBLINS)
    s.world.armies[13] = wb.army(13, 3, 9)
    order = ArmyOrder(13, OrderKind.MOVE, target=5)
    s.orders[13] = order
    s.sheets[3] = SheetEntries(orders=(order,))
    result = resolve(s, [])

    assert of(result.events, EventCode.MULTIPLE_MOVES) == of(result.events, EventCode.ROGUE_KINGDOM_ROLL) == []
    assert (result.state.armies[12].province, result.state.armies[13].province) == (5, 5)
    (battle,) = result.battles
    assert {battle.attacker_kingdom, battle.defender_kingdom} == {AVALON, 3} and not battle.garrison_defends
    assert result.state.provinces[5].controller == BRYTHON
