"""The Tomb Raid in the turn's resolution (rulebook/turn/executing_orders/ruins.py,
fight_battles/tomb_raid.py): an army moving into ruins waits on its kingdom's raid, which is a
battle of the turn. Rulebook: Ruins; Tomb Raiders > Using Tomb Raiders > Tomb Raid; Generic
Opponents; The Ancient Dead > Deserts. Decisions 408, 409, 420-423. No database."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from kernel.event_codes import EventCode
from rulebook.tables import ArmyType
from rulebook.turn.state import TurnState
from rulebook.turn.write_orders.records import ArmyOrder, OrderKind, SheetEntries
from tests import world_builders as wb
from tests.rulebook.resolving import of, resolve

# A 3 x 3 grid (corner to corner adjacent):
#   1 2 3
#   4 5 6
#   7 8 9
# Province 5 holds ruins. Avalon (1) holds 1, 2 and 4, with the armies 11 (in 1) and 12 (in 4);
# Brython (2) holds 3 and 6, with army 21 in 3.
AVALON, BRYTHON, DEAD = 1, 2, 9
RUIN = 5
CONTROL = {1: AVALON, 2: AVALON, 4: AVALON, 3: BRYTHON, 6: BRYTHON}


def state(
    *moves: tuple[int, int],
    raids: dict[int, int] | None = None,
    ruin: dict[str, Any] | None = None,
    armies: tuple[Any, ...] = (),
) -> TurnState:
    """Each (army, target) moves; `raids`: the Tomb Raids sent and paid (kingdom -> ruin)."""
    provinces = [wb.province(n, "plains", "none", controller=CONTROL.get(n)) for n in range(1, 10)]
    provinces[RUIN - 1] = wb.province(RUIN, name="Old Sarum", **{"settlement": "ruins", **(ruin or {})})
    world = wb.world(
        provinces=provinces,
        kingdoms=[
            wb.kingdom(AVALON, "Avalon", ArmyType.EMPIRE, treasury=3000),
            wb.kingdom(BRYTHON, "Brython", ArmyType.DWARFS, treasury=3000),
            wb.kingdom(DEAD, "The Ancient Dead", ArmyType.ANCIENT_DEAD, treasury=0),
        ],
        armies=[wb.army(11, AVALON, 1), wb.army(12, AVALON, 4), wb.army(21, BRYTHON, 3), *armies],
        adjacency=wb.grid(3),
        turn=3,
    )
    orders = tuple(ArmyOrder(army, OrderKind.MOVE, target=target) for army, target in moves)
    sheets: dict[int, list[ArmyOrder]] = {}
    for order in orders:
        sheets.setdefault(world.armies[order.army].kingdom, []).append(order)
    return TurnState(
        world=world,
        orders={o.army: o for o in orders},
        sheets={k: SheetEntries(orders=tuple(v)) for k, v in sheets.items()},
        raids=raids or {},
    )


def test_ruins_with_a_raid_sent_the_army_stands_in_the_ruin_and_the_raid_is_a_battle_of_the_turn():
    """Tomb Raid: "Provided one of your armies is moving into a province containing a ruin ... Play a
    game against a generic warband, of 150 points": a skirmish (the army does not fight), its
    mission the Tomb Raid, no defender (any non-allied player or a guest plays the warband)."""
    result = resolve(state((11, RUIN), raids={AVALON: RUIN}))

    (battle,) = result.battles
    assert (battle.province, battle.attacker_army, battle.defender_kingdom, battle.defender_army) == (
        RUIN,
        11,
        None,
        None,
    )
    assert (battle.skirmish, battle.mission, battle.garrison_points, battle.assault) == (True, "tomb-raid", 150, False)
    assert any("generic 150-point warband" in n and "Generic Opponents" in n for n in battle.notes)
    assert battle.supports == [] and battle.guerrilla is None
    # The army stands in the ruin's province during the turn; the raid, not the move, takes it.
    assert result.state.armies[11].province == RUIN
    assert result.state.provinces[RUIN].controller is None
    assert of(result.events, EventCode.PROVINCE_CLAIMED) == []
    (scheduled,) = of(result.events, EventCode.BATTLE_SCHEDULED)
    assert scheduled.text == (
        "Army 11 waits on the Tomb Raid at 5 Old Sarum: it moves in if the raiders succeed (Tomb Raid)."
    )
    assert (scheduled.kingdom, scheduled.data["mission"], scheduled.data["skirmish"]) == (AVALON, "tomb-raid", True)


def test_ruins_without_a_raid_the_army_waits_outside_where_it_was():
    """Ruins: without the Tomb Raiders' skirmish the army "may not move into to the province this
    turn": it stays where it was, and its kingdom is told why (decisions 408, 420)."""
    result = resolve(state((11, RUIN)))

    assert result.battles == [] and result.contacts == []
    assert result.state.armies[11].province == 1
    assert result.state.provinces[RUIN].controller is None
    assert of(result.events, EventCode.MOVED) == []
    (waits,) = of(result.events, EventCode.RUINS_NO_RAID)
    assert waits.text == "Army 11 waits outside the ruins of 5 Old Sarum: no Tomb Raid was sent (Ruins)."
    assert (waits.kingdom, waits.army, waits.province, waits.data) == (AVALON, 11, 1, {"ruin": RUIN})


def test_ruins_a_raid_on_another_ruin_does_not_let_the_army_in():
    result = resolve(state((11, RUIN), raids={AVALON: 9}))

    assert result.battles == []
    assert result.state.armies[11].province == 1
    assert len(of(result.events, EventCode.RUINS_NO_RAID)) == 1


def test_two_armies_into_the_same_ruin_occupied_province_first_then_the_winner_waits_on_the_raid():
    """Decision 421: Occupied Province comes first ("The army with the highest result may move, the
    rest ... remain stationary"): the winner of the roll-off stands at the raid, the other holds."""
    result = resolve(state((12, RUIN), (11, RUIN), raids={AVALON: RUIN}), [2, 5])

    (battle,) = result.battles
    assert (battle.attacker_army, battle.mission) == (12, "tomb-raid")
    assert (result.state.armies[11].province, result.state.armies[12].province) == (1, RUIN)
    assert [e.army for e in of(result.events, EventCode.OCCUPIED_PROVINCE)] == [11]
    assert of(result.events, EventCode.RUINS_NO_RAID) == of(result.events, EventCode.RUINS_WAITING) == []


def test_two_armies_into_the_same_ruin_without_a_raid_the_winner_waits_outside():
    result = resolve(state((12, RUIN), (11, RUIN)), [5, 2])

    assert result.battles == []
    assert (result.state.armies[11].province, result.state.armies[12].province) == (1, 4)
    assert [e.army for e in of(result.events, EventCode.RUINS_NO_RAID)] == [11]


def test_an_army_of_the_kingdom_in_the_ruin_does_not_let_another_in_without_a_raid():
    """Decision 408: every move into ruins waits on a raid, even to join an army of the kingdom
    standing there; the mover that won Occupied Province stays where it was, sharing nothing."""
    result = resolve(state((11, RUIN), armies=(wb.army(13, AVALON, RUIN),)), [2, 5])

    assert result.battles == []
    assert (result.state.armies[11].province, result.state.armies[11].co_occupying) == (1, False)
    assert [e.army for e in of(result.events, EventCode.RUINS_NO_RAID)] == [11]


def test_armies_of_a_kingdom_still_moving_into_one_ruin_all_wait_on_its_raid():
    """Decision 421: should moves of several of the kingdom's armies into the ruin stand after the
    roll-offs, the first by id is the raid's attacker and the others stand with it, sharing its
    outcome; none claims the province. Through the phase: two forced marches fatigued into the ruin,
    where an army of the kingdom stands, roll no Occupied Province (Forced March note: they share
    it, decision 29), so both moves stand and both wait on the raid."""
    turn = state(raids={AVALON: RUIN}, armies=(wb.army(13, AVALON, RUIN),))
    orders = {
        11: ArmyOrder(11, OrderKind.FORCED_MARCH, path=(RUIN, 9)),
        12: ArmyOrder(12, OrderKind.FORCED_MARCH, path=(RUIN, 6)),
    }
    turn = replace(turn, orders=orders, sheets={AVALON: SheetEntries(orders=tuple(orders.values()))})

    result = resolve(turn, [2, 3])  # Forced March: Fatigue for both, one province only

    (raid,) = result.contacts
    assert (raid.province, raid.attacker, raid.raid, raid.waiting) == (RUIN, 11, True, (12,))
    assert (result.state.armies[11].province, result.state.armies[12].province) == (RUIN, RUIN)
    assert of(result.events, EventCode.OCCUPIED_PROVINCE) == of(result.events, EventCode.RUINS_NO_RAID) == []
    assert of(result.events, EventCode.PROVINCE_CLAIMED) == []
    (waiting,) = of(result.events, EventCode.RUINS_WAITING)
    assert (waiting.army, waiting.data) == (12, {"ruin": RUIN, "with_army": 11})
    assert "moves in if the raiders succeed" in waiting.text


def test_ruins_held_by_an_enemy_army_the_armies_fight_as_usual_and_the_raid_goes_with_the_battle():
    """Decision 422: where an enemy army stands in the ruins, the battle is the armies' and decides
    the province; a raid sent there is played beside it, for the treasure."""
    held = (wb.army(22, BRYTHON, RUIN),)
    without = resolve(state((11, RUIN), armies=held))
    (battle,) = without.battles
    assert (battle.attacker_army, battle.defender_army, battle.skirmish, battle.mission) == (11, 22, False, "")
    assert of(without.events, EventCode.RUINS_NO_RAID) == []

    with_raid = resolve(state((11, RUIN), armies=held, raids={AVALON: RUIN}))
    (battle,) = with_raid.battles
    assert (battle.attacker_army, battle.defender_army, battle.skirmish, battle.mission) == (
        11,
        22,
        False,
        "tomb-raid",
    )
    assert any("The battle decides the province as any battle; the raid, the treasure" in n for n in battle.notes)


def test_case_TR10_a_sacked_town_s_ruin_in_the_desert_the_garrison_battle_carries_the_raid():
    """The Ancient Dead: Deserts: "an army must fight the garrison force and in the same turn send a
    treasure hunting party to the ruins": one battle in the province, against the 1,000-point garrison,
    marked with the Tomb Raid against the ruin's 150-point guard (decision 409)."""
    sacked = {"terrain": "desert", "ruin_sacked": True}
    result = resolve(state((11, RUIN), ruin=sacked, raids={AVALON: RUIN}))

    (battle,) = result.battles
    assert (battle.attacker_army, battle.defender_army, battle.garrison_defends) == (11, None, True)
    assert (battle.garrison_points, battle.skirmish, battle.mission) == (1000, False, "tomb-raid")
    (note,) = [n for n in battle.notes if n.startswith("Tomb Raid:")]
    assert "the ruin's 150-point guard of the Ancient Dead" in note
    assert "moves in only if it beats the garrison (a victory or a draw) and the raiders succeed" in note


def test_a_desert_ruin_without_a_raid_the_army_waits_outside_and_fights_no_garrison():
    """Decision 420: without the treasure hunting party the army may not move in, so it does not
    attack the desert's garrison either."""
    result = resolve(state((11, RUIN), ruin={"terrain": "desert", "ruin_sacked": True}))

    assert result.battles == []
    assert result.state.armies[11].province == 1
    assert len(of(result.events, EventCode.RUINS_NO_RAID)) == 1


def test_the_ancient_dead_keep_no_tomb_raiders_and_walk_into_ruins():
    """Decision 423: the Ancient Dead send no Tomb Raiders (Tomb Raiders); their armies move into
    ruins as into any province."""
    result = resolve(state((91, RUIN), armies=(wb.army(91, DEAD, 2),)))

    assert result.state.armies[91].province == RUIN
    assert of(result.events, EventCode.RUINS_NO_RAID) == []


def test_a_rogue_kingdom_s_ruin_rolls_on_the_rogue_kingdom_table_as_its_other_provinces():
    """Decision 423: Rogue Kingdom: "If a foreign army enters the land, roll on the following table";
    its Scouting forces are already "a ruins style battle" (decision 231). So an army entering a Rogue
    Kingdom's ruins rolls as in any of its provinces, raid or not; a raid sent there goes with the
    battle the roll brings (a 4: a 1,000-point army)."""
    rolled = resolve(state((11, RUIN), ruin={"rogue": True}), [2])
    (battle,) = rolled.battles
    assert (battle.skirmish, battle.mission, battle.garrison_points) == (True, "", 150)
    assert of(rolled.events, EventCode.RUINS_NO_RAID) == []

    raided = resolve(state((11, RUIN), ruin={"rogue": True}, raids={AVALON: RUIN}), [4])
    (battle,) = raided.battles
    assert (battle.skirmish, battle.mission, battle.garrison_points) == (False, "tomb-raid", 1000)
    assert any("The battle decides the province as any battle; the raid, the treasure" in n for n in battle.notes)
