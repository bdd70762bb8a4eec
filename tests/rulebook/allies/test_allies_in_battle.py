"""Allies in one battle (rulebook/turn/executing_orders/contacts.py, fight_battles/support.py,
aftermath/retreats.py), with scripted dice and no database: an army that comes into its ally's
province as an enemy attacks it fights beside its ally (decision 550), two allies that attack one
enemy fight one battle against it (decision 551), and no outcome of the aftermath leaves enemies
side by side with no battle. Rulebook: Allies ("Armies may defend their allies' provinces by
fighting battles therein. Control of the province does not change hands if the ally maintains
control"; "Armies may support adjacent ally armies in battle with 300 points of core troops");
6. Fight Battles (Support: "up to a maximum of 500 points of support (including Allies ...)";
Multiple Moves into Battle); 7. Aftermath."""

from __future__ import annotations

import pytest

from rulebook.allies.chart import AllianceState, TrustLevel
from rulebook.sanity import world_problems
from rulebook.tables import ArmyType
from rulebook.turn.aftermath.results import BattleResult as R
from rulebook.turn.aftermath.sheets import SideA
from rulebook.turn.state import Contact
from rulebook.turn.write_orders.records import ArmyOrder, OrderKind, SheetEntries
from tests import world_builders as wb
from tests.rulebook.allies.test_aftermath_allies import AVALON_CARNWYL, BRYTHON_CARNWYL, SQUIRES, scene
from tests.rulebook.allies.test_declarations import ALLIANCE, of, resolve, state
from tests.rulebook.player_issues.test_rogue_kingdom_resolution import state as rogue_state
from tests.rulebook.turn.aftermath.test_aftermath import AVALON, BRYTHON, CARNWYL, GUARD, HOST, HOST_UNITS, Scene
from tests.rulebook.turn.test_executing_orders import army, run
from tests.rulebook.turn.test_executing_orders import state as executing_state

GUARD_UNITS = [(201, "Warriors", 40, 15), (202, "Thunderers", 20, 30)]
SQUIRES_UNITS = [(301, "Men-at-arms", 40, 30)]


def moves(*orders: tuple[int, int, int]) -> dict[int, SheetEntries]:
    """(kingdom, army, target): each kingdom's sheet with its armies' moves."""
    sheets: dict[int, list[ArmyOrder]] = {}
    for kingdom, army_id, target in orders:
        sheets.setdefault(kingdom, []).append(ArmyOrder(army_id, OrderKind.MOVE, target=target))
    return {k: SheetEntries(orders=tuple(o)) for k, o in sheets.items()}


# Orders and battles (the grid and kingdoms of test_declarations: K1 and K2 allied; K2 holds 7 and
# the town in 11; K3 holds 13 and 14).


def test_an_ally_moving_into_its_ally_s_province_as_an_enemy_attacks_it_fights_beside_its_ally():
    """Decision 550 (Allies: "Armies may defend their allies' provinces by fighting battles therein"):
    K2's army stands in its 7; K3's army (from 12) and K2's ally K1's army (from 6) both move in. One
    battle, K3 against K2's army, with K1's army beside it: an allied detachment of 300 points of
    core troops from where it stands (no order, no border), rolled on Alliance Support Arrival."""
    s = state(
        armies=[wb.army(1, 1, 6), wb.army(2, 2, 7), wb.army(3, 3, 12)],
        sheets=moves((1, 1, 7), (3, 3, 7)),
        alliances=[ALLIANCE],
    )
    result = resolve(s, faces=[5])  # K1's Alliance Support Arrival

    assert result.contacts == [Contact(province=7, attacker=3, defender=2, beside=(1,))]
    (battle,) = result.battles
    assert (battle.attacker_army, battle.defender_army, battle.beside) == (3, 2, (1,))
    assert [(s.army, s.side, s.points, s.arrival) for s in battle.supports] == [(1, "defender", 300, 5)]
    assert any(n.startswith("Army 1 (K1) stands in 7 P7 with its ally") for n in battle.notes)
    (sent,) = of(result.events, "support", kingdom=1)
    assert "supports its ally K2 with 300 points of core troops to the defender in 7 P7" in sent.text
    assert of(result.events, "support-refused") == []


def test_the_army_of_the_province_s_own_kingdom_defends_it_and_its_ally_s_stands_beside():
    """Decision 550: K1's army already stands in its ally K2's 7 beside K2's own army (lower id
    first): K3 moving in attacks K2's army, whose province it is; K1's fights beside it."""
    s = state(
        armies=[wb.army(1, 1, 7), wb.army(2, 2, 7), wb.army(3, 3, 12)],
        sheets=moves((3, 3, 7)),
        alliances=[ALLIANCE],
    )
    result = resolve(s, faces=[2])  # K1's Alliance Support Arrival: 2, Unexpected Delay

    assert result.contacts == [Contact(province=7, attacker=3, defender=2, beside=(1,))]
    assert [(s.army, s.side, s.points) for s in result.battles[0].supports] == [(1, "defender", 300)]


def test_the_ally_that_fortified_its_ally_s_province_defends_it():
    """Decision 550 (Fortify: "It is possible for an army to Fortify a province controlled by an
    ally"; its bonuses are its own, decision 37): K1's army fortified its ally K2's 7 and stands there
    with K2's army; K3 moving in attacks the Fortified army, K2's stands beside it."""
    s = executing_state(
        [army(2, 2, 7), army(3, 3, 12), army(4, 1, 7, fortified_in=7)],
        orders=[ArmyOrder(3, OrderKind.MOVE, target=7)],
        control={7: 2, 12: 3},
        fortified=(7,),
    )
    s.world.alliances[1] = AllianceState(id=1, first=1, second=2, trust=TrustLevel.TRUSTED, formed_turn=1)
    contacts, _, _ = run(s)
    assert contacts == [Contact(province=7, attacker=3, defender=4, beside=(2,))]


def test_the_ally_that_fortifies_its_ally_s_province_this_turn_defends_it_fortified():
    """Decision 581 (5. Executing Orders: "Move / Support", then "Fortify", before 6. Fight Battles;
    Fortify: "Armies that are attacked in a fortified province may add 200 points"): K1's army 1,
    in its ally K2's 7 beside K2's army 2, fortifies this turn as K3's army 3 moves in. The battle
    finds 7 fortified by army 1: the Fortified army defends it with its 200 points (decision 550),
    K2's army beside it (300 points of the 500-point cap left)."""
    s = state(
        armies=[wb.army(1, 1, 7), wb.army(2, 2, 7), wb.army(3, 3, 12)],
        sheets={
            1: SheetEntries(orders=(ArmyOrder(1, OrderKind.FORTIFY),)),
            3: SheetEntries(orders=(ArmyOrder(3, OrderKind.MOVE, target=7),)),
        },
        alliances=[ALLIANCE],
    )
    result = resolve(s, faces=[4, 3])  # K2's Alliance Support Arrival, Defended Obstacles

    assert result.contacts == [Contact(province=7, attacker=3, defender=1, beside=(2,))]
    (battle,) = result.battles
    assert (battle.defender_army, battle.fortified_points, battle.defended_obstacles) == (1, 200, 2)
    assert [(s.army, s.side, s.points) for s in battle.supports] == [(2, "defender", 300)]
    assert result.state.world.fortifier(7).id == 1


def test_an_ally_s_army_alone_in_its_ally_s_town_fights_with_the_town_s_garrison_beside_it():
    """Decision 580 (Allies: "Armies may defend their allies' provinces by fighting battles therein";
    Battle for Towns, Cities, and Capitols: "If a town, city or capital is under attack, you may ...
    use either the local garrison force or the army ... Garrisons ... can Support an army in the
    current province"): K1's army 1 stands alone in its ally K2's town 11 and K3's army 3 attacks
    it. The town's garrison fights beside it as it would beside K2's own army: its 750 points within
    the 500-point cap, its piece of defenses, an Assault. K2 is told its garrison fights."""
    s = state(
        armies=[wb.army(1, 1, 11), wb.army(3, 3, 15)],
        sheets=moves((3, 3, 11)),
        alliances=[ALLIANCE],
    )
    result = resolve(s)

    assert result.contacts == [Contact(province=11, attacker=3, defender=1)]
    (battle,) = result.battles
    assert (battle.defender_kingdom, battle.defender_army, battle.garrison_defends) == (1, 1, False)
    assert (battle.garrison_points, battle.garrison_defenses, battle.assault) == (500, 1, True)
    assert any(
        n.startswith("The town garrison of 11 P11 (750 points) supports Army 1 (K1, its ally) with 500 points")
        for n in battle.notes
    )
    (told,) = of(result.events, "garrison-beside-ally", kingdom=2)
    assert told.text == (
        "The town garrison of 11 P11 fights beside your ally K1's army Army 1 with 500 points of its 750 and its "
        "defenses: Army 3 (K3) attacks it there (Allies; Battle for Towns, Cities, and Capitols)."
    )
    assert (told.province, told.data) == (11, {"ally": 1, "battle": 11, "points": 500})


@pytest.mark.parametrize("kingdom", [2, 1], ids=["its-own-army", "its-ally-s-army"])
def test_an_army_of_the_town_s_side_moving_in_as_an_enemy_does_defends_it_with_the_garrison(kingdom):
    """Decision 584 (Battle for Towns, Cities, and Capitols: "If a town, city or capital is under
    attack, you may either defend with the local garrison force, or if there is an army in the
    province, you may use either the local garrison force or the army"): K2's town 11 has no army
    in it; an army of K2's side (K2's own, or its ally K1's), the lower id, and K3's army 3 both march
    in. The town is attacked whichever id is lower: the army of its side defends it, the garrison
    beside it (500 of its 750 points, its defenses), and K3's army attacks."""
    s = state(
        armies=[wb.army(1, kingdom, 7), wb.army(3, 3, 15)],
        sheets=moves((kingdom, 1, 11), (3, 3, 11)),
        alliances=[ALLIANCE],
    )
    result = resolve(s)

    assert result.contacts == [Contact(province=11, attacker=3, defender=1, both_moved=True)]
    (battle,) = result.battles
    assert (battle.attacker_army, battle.defender_army, battle.assault) == (3, 1, True)
    assert (battle.garrison_points, battle.garrison_defenses) == (500, 1)


def test_two_allies_attacking_one_enemy_army_fight_one_battle_against_it():
    """Decision 551: K1's army (from 10) and its ally K2's (from 15) both move into K3's 14, where
    K3's army stands. It fights one battle, not two: K1's army (the lower id) attacks, K2's stands
    beside it with an allied detachment of 300 points."""
    s = state(
        armies=[wb.army(1, 1, 10), wb.army(2, 2, 15), wb.army(3, 3, 14)],
        sheets=moves((1, 1, 14), (2, 2, 14)),
        alliances=[ALLIANCE],
    )
    result = resolve(s, faces=[4])  # K2's Alliance Support Arrival

    assert result.contacts == [Contact(province=14, attacker=1, defender=3, beside=(2,))]
    (battle,) = result.battles
    assert [(s.army, s.side, s.points, s.arrival) for s in battle.supports] == [(2, "attacker", 300, 4)]


def test_two_allies_moving_into_an_enemy_town_fight_its_garrison_once():
    """Decision 551: K1's army (from 6) and its ally K4's (from 12) both move into K2's town 11,
    with no army in it. Its garrison fights one battle: K1's army assaults it, K4's stands beside."""
    empire_elves = AllianceState(id=8, first=1, second=4, trust=TrustLevel.TRUSTED, formed_turn=1)
    s = state(
        armies=[wb.army(1, 1, 6), wb.army(4, 4, 12)],
        sheets=moves((1, 1, 11), (4, 4, 11)),
        alliances=[empire_elves],
    )
    result = resolve(s, faces=[6])  # K4's Alliance Support Arrival

    assert result.contacts == [Contact(province=11, attacker=1, beside=(4,))]
    (battle,) = result.battles
    assert battle.garrison_defends and battle.assault
    assert [(s.army, s.side, s.points) for s in battle.supports] == [(4, "attacker", 300)]


# The aftermath (the 3 x 3 grid of test_aftermath; battles in 5).


def ally_beside_the_defender(result: R) -> Scene:
    """Decision 550: Avalon's Host moved from 2 into Brython's 5 against the Guard; Carnwyl's
    Squires, Brython's ally, moved in from 6 and fought beside the Guard (its detachment)."""
    world = scene(BRYTHON_CARNWYL)
    world.province(5, controller=BRYTHON)
    world.army(HOST, AVALON, 5, HOST_UNITS, came_from=2)
    world.army(GUARD, BRYTHON, 5, GUARD_UNITS)
    world.army(SQUIRES, CARNWYL, 5, SQUIRES_UNITS, came_from=6)
    world.battle(result, SideA(AVALON, HOST), SideA(BRYTHON, GUARD, supports=(SQUIRES,)))
    return world


@pytest.mark.parametrize(
    ("result", "where", "holder"),
    [
        # The attacker wins: it takes 5; the Guard retreats (to 1, neutral), its ally's Squires with it (to 6).
        (R.MINOR_VICTORY, {HOST: 5, GUARD: 1, SQUIRES: 6}, AVALON),
        # No victor, or the defender wins: the Host goes back to 2; the Squires stay with their ally.
        (R.DRAW, {HOST: 2, GUARD: 5, SQUIRES: 5}, BRYTHON),
        (R.MINOR_LOSS, {HOST: 2, GUARD: 5, SQUIRES: 5}, BRYTHON),
    ],
)
def test_the_ally_beside_the_defender_shares_its_fate_and_no_enemies_are_left_together(result, where, holder):
    """Decision 550 (7. Aftermath: "The loser must retreat"; Allies): the ally's army that fought
    beside the defender was on its side: it retreats when its side loses (it may not stay beside the
    victor) and stays in its ally's province otherwise. No outcome leaves enemies side by side."""
    after = ally_beside_the_defender(result).run(faces=[])
    world = after.state.world
    assert {a: world.armies[a].province for a in where} == where
    assert world.provinces[5].controller == holder
    assert world_problems(world) == []


@pytest.mark.parametrize(
    ("result", "where", "holder"),
    [
        # The attacker wins: Avalon takes 5; its ally's Squires stay there with it.
        (R.MAJOR_VICTORY, {HOST: 5, SQUIRES: 5, GUARD: 1}, AVALON),
        # No victor, or the defender wins: both allies go back where they came from.
        (R.DRAW, {HOST: 2, SQUIRES: 6, GUARD: 5}, BRYTHON),
        (R.MAJOR_LOSS, {HOST: 2, SQUIRES: 6, GUARD: 5}, BRYTHON),
    ],
)
def test_the_ally_beside_the_attacker_shares_its_fate_and_no_enemies_are_left_together(result, where, holder):
    """Decision 551: Avalon's Host (from 2) and its ally Carnwyl's Squires (from 6) attacked the
    Guard in Brython's 5 in one battle, the Squires beside the Host: they stay with it when it
    wins and go back with it otherwise."""
    world = scene(AVALON_CARNWYL)
    world.province(5, controller=BRYTHON)
    world.army(HOST, AVALON, 5, HOST_UNITS, came_from=2)
    world.army(SQUIRES, CARNWYL, 5, SQUIRES_UNITS, came_from=6)
    world.army(GUARD, BRYTHON, 5, GUARD_UNITS)
    world.battle(result, SideA(AVALON, HOST, supports=(SQUIRES,)), SideA(BRYTHON, GUARD))
    after = world.run(faces=[]).state.world
    assert {a: after.armies[a].province for a in where} == where
    assert after.provinces[5].controller == holder
    assert world_problems(after) == []


def test_a_draw_where_both_moved_in_sends_the_ally_beside_back_too():
    """Decision 550 (decision 51: a draw has no victor, an army that moved in goes back): Avalon's
    Host (from 2) and Carnwyl's Squires (from 6) met in neutral 5; Brython's Guard, Carnwyl's ally,
    moved in too (from 8), beside the Squires. Nobody holds 5: all three go back."""
    world = scene(BRYTHON_CARNWYL)
    world.army(HOST, AVALON, 5, HOST_UNITS, came_from=2)
    world.army(SQUIRES, CARNWYL, 5, SQUIRES_UNITS, came_from=6)
    world.army(GUARD, BRYTHON, 5, GUARD_UNITS, came_from=8)
    world.battle(R.DRAW, SideA(AVALON, HOST), SideA(CARNWYL, SQUIRES, supports=(GUARD,)), both_moved=True)
    after = world.run(faces=[]).state.world
    assert {a: after.armies[a].province for a in (HOST, SQUIRES, GUARD)} == {HOST: 2, SQUIRES: 6, GUARD: 8}
    assert after.provinces[5].controller is None


def test_an_ally_that_wins_in_its_ally_s_province_keeps_it_for_its_ally():
    """Decision 550 (Allies: "Control of the province does not change hands if the ally maintains
    control of the province"): Carnwyl's Squires and Avalon's Host both moved into Brython's 5;
    Brython is Carnwyl's ally. The Squires win: 5 stays Brython's, it is not conquered from an ally."""
    world = scene(BRYTHON_CARNWYL)
    world.province(5, controller=BRYTHON)
    world.army(HOST, AVALON, 5, HOST_UNITS, came_from=2)
    world.army(SQUIRES, CARNWYL, 5, SQUIRES_UNITS, came_from=6)
    world.battle(R.MINOR_LOSS, SideA(AVALON, HOST), SideA(CARNWYL, SQUIRES), both_moved=True)
    after = world.run(faces=[])
    assert after.state.world.provinces[5].controller == BRYTHON
    assert after.state.world.armies[SQUIRES].province == 5 and after.state.world.armies[HOST].province == 2
    assert not [e for e in after.events if e.code in ("province-conquered", "province-lost")]
    assert kept_for_ally(after.events) == KEPT_FOR_BRYTHON


# Decision 582: the victor's kingdom and its ally are told, each in its own event; the enemy is not.
KEPT_FOR_BRYTHON = [
    (
        CARNWYL,
        SQUIRES,
        {"ally": BRYTHON},
        "Army 30 wins the battle in 5 P5, a province of its ally Brython: it keeps it for Brython, and control does "
        "not change hands (Allies).",
    ),
    (
        BRYTHON,
        None,
        {"ally": CARNWYL},
        "Your ally Carnwyl's army Army 30 wins the battle in your province 5 P5: it keeps it for you, and control "
        "does not change hands (Allies).",
    ),
]


def kept_for_ally(events):
    return [(e.kingdom, e.army, e.data, e.text) for e in events if e.code == "province-kept-for-ally"]


def test_an_ally_that_stood_its_ground_in_its_ally_s_province_is_told_it_kept_it_for_its_ally():
    """Decision 582 (Allies: "Armies may defend their allies' provinces by fighting battles therein.
    Control of the province does not change hands if the ally maintains control"): Carnwyl's Squires
    stand in their ally Brython's 5 and beat Avalon's Host, which moved in. Nothing changes hands;
    both allies' reports say the Squires kept it for Brython."""
    world = scene(BRYTHON_CARNWYL)
    world.province(5, controller=BRYTHON)
    world.army(HOST, AVALON, 5, HOST_UNITS, came_from=2)
    world.army(SQUIRES, CARNWYL, 5, SQUIRES_UNITS)
    world.battle(R.MINOR_LOSS, SideA(AVALON, HOST), SideA(CARNWYL, SQUIRES))
    after = world.run(faces=[])
    assert after.state.world.provinces[5].controller == BRYTHON and after.state.world.armies[SQUIRES].province == 5
    assert kept_for_ally(after.events) == KEPT_FOR_BRYTHON


def test_an_ally_too_small_to_claim_keeps_its_ally_s_province_without_a_word_of_claiming():
    """Decision 582: an army of fewer than 1,000 points that moved into its ally's province and won
    claims nothing there whatever its size (Army Restrictions do not come into it): it is told it kept
    the province for its ally, not that it was too small to claim it."""
    world = scene(BRYTHON_CARNWYL)
    world.province(5, controller=BRYTHON)
    world.army(HOST, AVALON, 5, HOST_UNITS, came_from=2)
    world.army(SQUIRES, CARNWYL, 5, [(301, "Men-at-arms", 25, 30)], came_from=6)
    world.battle(R.MINOR_LOSS, SideA(AVALON, HOST), SideA(CARNWYL, SQUIRES), both_moved=True)
    after = world.run(faces=[])
    assert after.state.world.provinces[5].controller == BRYTHON
    assert [e for e in after.events if e.code == "too-small-to-claim"] == []
    assert kept_for_ally(after.events) == KEPT_FOR_BRYTHON


def rogue_land_entered_by_allies(faces: list[int]):
    """Decision 551 in a Rogue Kingdom (the 3 x 3 grid of test_rogue_kingdom_resolution: Brython, a
    Rogue Kingdom, holds 2): Avalon's army 11 (from 1) and its ally Carnwyl's army 13 (from 3) both
    enter Brython's 2."""
    s = rogue_state((11, 2))
    s.world.kingdoms[CARNWYL] = wb.kingdom(CARNWYL, "Carnwyl", ArmyType.BRETONNIANS)
    s.world.alliances[9] = AVALON_CARNWYL
    s.world.armies[13] = wb.army(13, CARNWYL, 3)
    order = ArmyOrder(13, OrderKind.MOVE, target=2)
    s.orders[13] = order
    s.sheets[CARNWYL] = SheetEntries(orders=(order,))
    return resolve(s, faces)


def test_two_allies_entering_a_rogue_kingdom_s_land_roll_once_and_fight_one_battle():
    """Decision 551 (Rogue Kingdom: "If a foreign army enters the land, roll on the following
    table"): the land is rolled for once, by the lower id; the forces it gives fight one battle, the
    ally's army beside the one that rolled. An Empty land is claimed by the first: its ally passes."""
    result = rogue_land_entered_by_allies([5, 4])  # Medium Army (1,500 points); Carnwyl's arrival 4

    assert [e.army for e in of(result.events, "rogue-kingdom-roll")] == [11]
    assert result.contacts == [Contact(province=2, attacker=11, rogue_roll=5, beside=(13,))]
    (battle,) = result.battles
    assert [(s.army, s.side, s.points) for s in battle.supports] == [(13, "attacker", 300)]

    empty = rogue_land_entered_by_allies([1])
    assert empty.contacts == [] and empty.state.provinces[2].controller == AVALON
    assert [e.army for e in of(empty.events, "ally-passage") if e.army is not None] == [13]


def test_allies_whose_tomb_raiders_lose_the_scouting_skirmish_both_stay_out():
    """Decision 551 (Rogue Kingdom, scouting forces; Ruins: "If the player loses the skirmish, their
    army may not move into to the province this turn"): Avalon's Host and its ally's Squires entered
    Brython's 5 together; Avalon's Tomb Raiders lost the skirmish: both go back where they came from."""
    world = scene(AVALON_CARNWYL)
    world.province(5, controller=BRYTHON)
    world.army(HOST, AVALON, 5, HOST_UNITS, came_from=2)
    world.army(SQUIRES, CARNWYL, 5, SQUIRES_UNITS, came_from=6)
    world.battle(R.MINOR_LOSS, SideA(AVALON, HOST), SideA(BRYTHON, None), skirmish=True)
    after = world.run(faces=[]).state.world
    assert (after.armies[HOST].province, after.armies[SQUIRES].province) == (2, 6)
    assert after.provinces[5].controller == BRYTHON
