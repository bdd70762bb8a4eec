"""The aftermath (rulebook/turn/aftermath/run.py) with scripted dice: rule cases A3-A6 and the rest of
7. Aftermath: retreats, the victor keeping the province (a defender that moved in too), looting and
sacking (with the Orcs & Goblins "Savages"), casualty recovery applied to units and one-use troops,
veteran status (regiments, not characters), injuries and the Warlord's succession, Press the
Advantage, disbanding, stories and negotiations. No database."""

from __future__ import annotations

from dataclasses import replace

import pytest

from kernel.dice import ScriptedDice
from kernel.event_codes import EventCode
from rulebook.allies.chart import AllianceState
from rulebook.tables import ArmyType
from rulebook.turn.aftermath.results import BattleResult as R
from rulebook.turn.aftermath.results import Outcome, SideOutcome
from rulebook.turn.aftermath.run import resolve_aftermath
from rulebook.turn.aftermath.sheets import BattleA, Casualty, SideA
from rulebook.turn.aftermath.state import AftermathState
from rulebook.world import ArmyState, CharacterState, ItemState, ProvinceState, UnitState, World
from tests.world_builders import army, grid, kingdom, province, province_with
from tests.world_builders import garrison as _garrison

AVALON, BRYTHON, CARNWYL = 1, 2, 3
HOST, GUARD = 10, 20
HOST_UNITS = [(101, "Knights", 20, 30), (102, "Archers", 20, 30)]  # 1,200 points: it may claim

# 1 2 3
# 4 5 6     every province touches its neighbours, corners included; battles are fought in 5.
# 7 8 9
ADJACENCY = grid(3)


def outcome(attacker: R, *, experience: bool = True) -> Outcome:
    from rulebook.turn.aftermath.results import mirror

    return Outcome(
        attacker=SideOutcome(attacker, experience_allowed=experience), defender=SideOutcome(mirror(attacker))
    )


class Scene:
    def __init__(self) -> None:
        self.provinces: dict[int, ProvinceState] = {n: province(n) for n in range(1, 10)}
        self.kingdoms = {
            AVALON: kingdom(AVALON, "Avalon", ArmyType.EMPIRE, treasury=1000),
            BRYTHON: kingdom(BRYTHON, "Brython", ArmyType.DWARFS, treasury=1000),
            CARNWYL: kingdom(CARNWYL, "Carnwyl", ArmyType.ORCS_AND_GOBLINS, treasury=0),
        }
        self.armies: dict[int, ArmyState] = {}
        self.garrisons: dict[int, ArmyState] = {}
        self.came_from: dict[int, int] = {}
        self.units: dict[int, UnitState] = {}
        self.characters: dict[int, CharacterState] = {}
        self.items: dict[int, ItemState] = {}
        self.battles: list[BattleA] = []
        self.alliances: dict[int, AllianceState] = {}  # Allies: the alliances in force
        self.announced_ends: tuple[tuple[int, int], ...] = ()  # Allies, Announcement: (kingdom, ally)

    def army(
        self,
        id: int,
        kingdom: int,
        province: int,
        units: list[tuple[int, str, int, int]],
        *,
        came_from: int | None = None,
        garrison: bool = False,
        **kw,
    ) -> None:
        """units: (id, name, models, points per model); `garrison`: an Elite Defense Force."""
        points = sum(models * ppm for _, _, models, ppm in units)
        if garrison:
            self.garrisons[id] = _garrison(id, kingdom, province, points, **kw)
        else:
            self.armies[id] = army(id, kingdom, province, points, **kw)
        if came_from is not None:
            self.came_from[id] = came_from
        for unit_id, name, models, ppm in units:
            self.units[unit_id] = UnitState(unit_id, id, name, "core", models, ppm)

    def province(self, number: int, **changes) -> None:
        self.provinces[number] = province_with(self.provinces[number], **changes)

    def battle(self, result: R, attacker: SideA, defender: SideA, **kw) -> None:
        self.battles.append(
            BattleA(
                id=len(self.battles) + 1,
                province=5,
                attacker=attacker,
                defender=defender,
                outcome=kw.pop("outcome", None) or outcome(result),
                **kw,
            )
        )

    def run(self, faces: list[int], turn: int = 4):
        lists: dict[int, list[UnitState]] = {}
        for unit in self.units.values():
            lists.setdefault(unit.army, []).append(unit)
        world = World(
            turn=turn,
            player_count=3,
            provinces=self.provinces,
            adjacency=ADJACENCY,
            kingdoms=self.kingdoms,
            armies=self.armies,
            garrisons=self.garrisons,
            units={army: tuple(units) for army, units in lists.items()},
            alliances=dict(self.alliances),
            characters=dict(self.characters),
            items=dict(self.items),
        )
        state = AftermathState(world, self.battles, self.came_from, self.announced_ends)
        dice = ScriptedDice(faces=faces)
        result = resolve_aftermath(state, dice)
        assert dice.unused == []
        return result


def field_battle(world: Scene, result: R, *, host_from: int | None = 2, **sides) -> None:
    """Avalon's Host (1,200 points) moved from `host_from` into 5, held by Brython's Guard (1,200)."""
    world.army(HOST, AVALON, 5, HOST_UNITS, came_from=host_from)
    world.army(GUARD, BRYTHON, 5, [(201, "Warriors", 40, 15), (202, "Thunderers", 20, 30)])
    world.battle(
        result, SideA(AVALON, HOST, **sides.get("attacker", {})), SideA(BRYTHON, GUARD, **sides.get("defender", {}))
    )


def test_case_A5_the_loser_retreats_where_it_came_from():
    """A5: the Host lost; it came from 2, which is free: it goes back there. The winner stays."""
    world = Scene()
    field_battle(world, R.MINOR_LOSS)
    result = world.run([])
    assert result.state.armies[HOST].province == 2 and result.state.armies[GUARD].province == 5
    assert any(e.code == "retreated" and "back where it came from" in e.text for e in result.events)


def test_case_A5_a_defender_that_did_not_move_goes_home_first_then_neutral_then_foreign():
    """A5: the Guard did not move: first a home province (8 is Brython's), then neutral (lowest
    number), then another kingdom's; never into a province with an army in it."""
    world = Scene()
    field_battle(world, R.MINOR_VICTORY)
    world.province(8, controller=BRYTHON)
    world.province(9, controller=BRYTHON)
    world.army(30, BRYTHON, 8, [])  # an army in 8: the Guard goes to 9, its other home province
    result = world.run([])
    assert result.state.armies[GUARD].province == 9

    world = Scene()
    field_battle(world, R.MINOR_VICTORY)
    for n in (1, 3, 4):
        world.province(n, controller=AVALON)
    result = world.run([])
    assert result.state.armies[GUARD].province == 2  # 2 is neutral and free: neutral before foreign


def test_case_A5_where_it_came_from_is_taken_so_it_goes_home_first():
    """A5: the Host came from 2, but an army stands there now: it falls back on the order of
    preference (Avalon's own 4 before the neutral 1)."""
    world = Scene()
    field_battle(world, R.MINOR_LOSS)
    world.army(30, CARNWYL, 2, [])
    world.province(4, controller=AVALON)
    result = world.run([])
    assert result.state.armies[HOST].province == 4
    assert any(e.code == "retreated" and "to its own province 4 P4" in e.text for e in result.events)


def test_case_A5_last_of_all_into_another_kingdom_s_province_which_it_does_not_claim():
    """A5: no home and no neutral province free: the Guard retreats into Carnwyl's 7, the lowest
    free foreign one, and does not claim it (it is far too busy recovering)."""
    world = Scene()
    field_battle(world, R.MINOR_VICTORY)
    for n in (1, 2, 3, 4, 6, 7, 8, 9):
        world.province(n, controller=CARNWYL)
    for n, army_id in zip([1, 2, 3, 4, 6], range(40, 45), strict=True):
        world.army(army_id, CARNWYL, n, [])
    result = world.run([])
    assert result.state.armies[GUARD].province == 7
    assert result.state.provinces[7].controller == CARNWYL
    assert any(
        e.code == "retreated" and "foreign province" in e.text and "does not claim" in e.text for e in result.events
    )


def test_case_A5_a_town_held_by_an_elite_defense_force_has_an_army_in_it():
    """A5: "No province may be moved into if it already has an army in it"; Battle for Towns, Cities,
    and Capitols: the Elite Defense Force "is treated as an army in the field in all manners except for
    the fact it cannot leave the town" (decision 587). The Guard lost; every province around but
    Carnwyl's town of 7 holds an army, and Carnwyl's Elite Defense Force stands in 7: the Guard has
    nowhere to go and is wiped out. Before, the force was not counted and the Guard retreated into 7."""
    world = Scene()
    field_battle(world, R.MINOR_VICTORY)
    for n in (1, 2, 3, 4, 6, 7, 8, 9):
        world.province(n, controller=CARNWYL)
    world.province(7, settlement="town")
    for n, army_id in zip([1, 2, 3, 4, 6, 8, 9], range(40, 47), strict=True):
        world.army(army_id, CARNWYL, n, [])
    world.army(50, CARNWYL, 7, [(501, "Guards", 20, 25)], garrison=True)
    result = world.run([])
    assert result.state.armies[GUARD].disbanded
    assert any(e.code == "wiped-out" and e.army == GUARD for e in result.events)

    # Where it came from holds an Elite Defense Force: it falls back on the order of preference.
    world = Scene()
    field_battle(world, R.MINOR_LOSS)
    world.province(2, controller=CARNWYL, settlement="town")
    world.army(50, CARNWYL, 2, [(501, "Guards", 20, 25)], garrison=True)
    world.province(4, controller=AVALON)
    result = world.run([])
    assert result.state.armies[HOST].province == 4


def test_case_A5_with_nowhere_to_go_the_army_is_wiped_out():
    world = Scene()
    field_battle(world, R.MINOR_VICTORY)
    world.items[1] = ItemState(1, "Rune Axe", 40, bearer=201)
    for n, army_id in zip([1, 2, 3, 4, 6, 7, 8, 9], range(40, 48), strict=True):
        world.army(army_id, CARNWYL, n, [])
    result = world.run([])
    assert result.state.armies[GUARD].disbanded
    assert result.state.items[1].destroyed
    assert any(e.code == "wiped-out" for e in result.events)


def test_case_A3_sack_or_loot_a_town():
    """A3: the victor in a town chooses: sack (destroyed, +1,000) or loot (+500, changes hands,
    no armies raised there until the start of the turn after next)."""
    for choice, gold, settlement, looted in [
        ("sack", 1000, "none", None),
        ("loot", 500, "town", 4),
        ("", 500, "town", 4),
    ]:
        world = Scene()
        world.province(5, settlement="town", controller=BRYTHON)
        world.army(HOST, AVALON, 5, HOST_UNITS, came_from=2)
        world.battle(R.MINOR_VICTORY, SideA(AVALON, HOST, loot_choice=choice), SideA(BRYTHON, None))
        result = world.run([], turn=4)
        province = result.state.provinces[5]
        assert (province.controller, province.settlement, province.looted_turn) == (AVALON, settlement, looted)
        loot = [e.gold for e in result.events if e.ledger_reason == "loot"]
        assert loot == [gold], choice


def test_sacking_a_city_gives_2000_and_looting_1000():
    for choice, gold in [("sack", 2000), ("loot", 1000)]:
        world = Scene()
        world.province(5, settlement="city", controller=BRYTHON)
        world.army(HOST, AVALON, 5, HOST_UNITS, came_from=2)
        world.battle(R.MAJOR_VICTORY, SideA(AVALON, HOST, loot_choice=choice, points_faced=1000), SideA(BRYTHON, None))
        result = world.run([])
        assert [e.gold for e in result.events if e.ledger_reason == "loot"] == [gold]
        assert [e.gold for e in result.events if e.ledger_reason == "victory"] == [300]  # A2: 2 x 150


def test_orcs_and_goblins_savages_must_sack_on_1_or_2():
    for roll, settlement in [(2, "none"), (3, "town")]:
        world = Scene()
        world.province(5, settlement="town", controller=BRYTHON)
        world.army(HOST, CARNWYL, 5, HOST_UNITS, came_from=2)
        world.battle(R.MINOR_VICTORY, SideA(CARNWYL, HOST, loot_choice="loot"), SideA(BRYTHON, None))
        result = world.run([roll])
        assert result.state.provinces[5].settlement == settlement, roll


def test_the_elite_defense_force_perishes_with_its_town():
    world = Scene()
    world.province(5, settlement="town", controller=BRYTHON)
    world.army(HOST, AVALON, 5, HOST_UNITS, came_from=2)
    world.army(50, BRYTHON, 5, [(501, "Guards", 20, 25)], garrison=True)
    world.battle(R.MINOR_VICTORY, SideA(AVALON, HOST), SideA(BRYTHON, None))
    result = world.run([])
    assert result.state.garrisons[50].disbanded


def test_case_A1_experience_and_the_story_bonus_once_per_turn():
    world = Scene()
    field_battle(world, R.MASSACRE, attacker={"story": True})
    result = world.run([])
    assert result.state.armies[HOST].experience == 100 + 3
    assert result.state.armies[GUARD].experience == 50


def test_case_A7_no_experience_without_a_sheet():
    world = Scene()
    field_battle(world, R.MAJOR_LOSS)
    world.battles[0] = BattleA(
        1, 5, world.battles[0].attacker, world.battles[0].defender, outcome=outcome(R.MAJOR_LOSS, experience=False)
    )
    result = world.run([])
    assert result.state.armies[HOST].experience == 0
    assert any(e.code == "no-experience" for e in result.events)


def test_case_A4_casualty_recovery_rounds_up_for_the_winner_and_down_for_the_loser():
    """A4 applied to units: both lose 8 Knights / 8 Warriors; each army rolls 6 (1 in 3)."""
    world = Scene()
    field_battle(
        world,
        R.MINOR_VICTORY,
        attacker={"casualties": (Casualty(101, models_lost=8),)},
        defender={"casualties": (Casualty(201, models_lost=8),)},
    )
    result = world.run([3, 3, 2, 4])  # the Host rolls 3+3, the Guard 2+4
    assert result.state.units[101].models == 20 - 8 + 3
    assert result.state.units[201].models == 40 - 8 + 2


def test_command_models_and_one_use_troops_recover_on_4_plus():
    """Casualty Recovery: champions, standards and musicians "may each be recovered on a D6 roll of
    a 4+", one line for the army; one-use troops roll a D6 per model (Spending Experience, NOTE)."""
    world = Scene()
    field_battle(world, R.DRAW, attacker={"casualties": (Casualty(101, standard=True, musician=True),)})
    world.units[103] = UnitState(103, HOST, "Fanatics", "core", 3, 25, one_use=True)
    world.battles[0] = BattleA(
        1,
        5,
        SideA(AVALON, HOST, casualties=(Casualty(101, standard=True, musician=True), Casualty(103, one_use_used=True))),
        world.battles[0].defender,
        outcome=outcome(R.DRAW),
    )
    result = world.run([4, 3, 3, 2, 1])  # standard back (4), musician lost (3), the 3 fanatics 3, 2, 1
    [command] = [e for e in result.events if e.code == "command-recovery"]
    assert {r["model"]: r["recovered"] for r in command.data["rolls"]} == {"standard": True, "musician": False}
    assert command.text == (
        "Army 10's command models lost in the battle roll a D6 each, 4+ recovers (Casualty Recovery): "
        "Knights' standard 4, recovered; Knights' musician 3, lost (remove it from the list)."
    )
    assert result.state.units[103].models == 0


def test_casualty_recovery_a_command_model_that_fails_its_4_plus_leaves_the_list():
    """Casualty Recovery: a champion, standard or musician that is a casualty comes back on a 4+;
    one that fails leaves the list as lost rank and file do: its points (the list's) come off the
    unit's equipment (decision 394). One the list does not price is left to the player."""
    world = Scene()
    lost = (Casualty(101, champion=True, standard=True, musician=True),)
    field_battle(world, R.DRAW, attacker={"casualties": lost})
    world.units[101] = replace(world.units[101], equipment_points=30, champion_points=16, standard_points=14)
    result = world.run([2, 5, 1])  # champion lost (2), standard back (5), musician lost (1)
    after = result.state.units[101]
    assert (after.champion_points, after.standard_points, after.musician_points) == (0, 14, 0)
    assert after.equipment_points == 14
    [command] = [e for e in result.events if e.code == "command-recovery"]
    assert command.text == (
        "Army 10's command models lost in the battle roll a D6 each, 4+ recovers (Casualty Recovery): "
        "Knights' champion 2, lost: it leaves the list (16 points); Knights' standard 5, recovered; "
        "Knights' musician 1, lost (remove it from the list)."
    )


def test_veteran_eligibility_and_loss_are_judged_after_recovery():
    """Veteran Status: more than half kept after recovery: eligible; a veteran unit that lost
    half or more drops a level. 20 Knights lose 11, roll 8 (1 in 2), won: 6 back -> 15: eligible.
    40 veteran Warriors lose 30, roll 2: none back -> 10: drops from +2 to +1."""
    world = Scene()
    field_battle(
        world,
        R.MINOR_VICTORY,
        attacker={"casualties": (Casualty(101, models_lost=11),)},
        defender={"casualties": (Casualty(201, models_lost=30),)},
    )
    world.units[201] = replace(world.units[201], veteran_level=2)
    result = world.run([4, 4, 1, 1])
    assert result.state.units[101].models == 15 and result.state.units[101].veteran_eligible
    assert result.state.units[201].veteran_level == 1 and not result.state.units[201].veteran_eligible


def test_case_A6_an_army_at_500_points_or_less_is_disbanded_and_its_items_destroyed():
    """A6: the Guard (40 Warriors at 15 and 20 Thunderers at 30: 1,200) loses 40 + 10 models; no
    recovery (2): 10 Thunderers, 300 points, are disbanded with their Rune Axe."""
    world = Scene()
    field_battle(
        world, R.MAJOR_VICTORY, defender={"casualties": (Casualty(201, models_lost=40), Casualty(202, models_lost=10))}
    )
    world.items[1] = ItemState(1, "Rune Axe", 40, bearer=202)
    result = world.run([1, 1])
    assert result.state.armies[GUARD].disbanded and result.state.items[1].destroyed
    assert any(e.code == "disbanded" and "340 points" in e.text for e in result.events)


def _characters(world: Scene) -> None:
    world.units[109] = UnitState(109, HOST, "Lord Aurelian", "character", 1, 150)
    world.units[119] = UnitState(119, 11, "Captain Brand", "character", 1, 80)
    world.units[129] = UnitState(129, 12, "Captain Corwin", "character", 1, 80)
    world.army(11, AVALON, 1, [], experience=40)
    world.army(12, AVALON, 3, [], experience=90)
    world.characters[1] = CharacterState(1, AVALON, 109, "Lord Aurelian", "warlord")
    world.characters[2] = CharacterState(2, AVALON, 119, "Captain Brand", "general")
    world.characters[3] = CharacterState(3, AVALON, 129, "Captain Corwin", "general")
    world.items[7] = ItemState(7, "Sword of Might", 20, bearer=109)


def test_a_dead_warlord_is_succeeded_by_the_most_experienced_general():
    """Warlord: the General of the army with the most experience (Corwin, 90) becomes Warlord;
    the dead Warlord's items stay with the army."""
    world = Scene()
    field_battle(world, R.MINOR_LOSS, attacker={"characters_lost": (1,)})
    _characters(world)
    result = world.run([1, 1])  # D66 11: dead
    assert not result.state.characters[1].alive
    assert result.state.characters[3].role == "warlord" and result.state.characters[2].role == "general"
    assert result.state.items[7].bearer is None and not result.state.items[7].destroyed
    assert any(e.code == "warlord-succession" and "Captain Corwin" in e.text for e in result.events)


def test_case_A5_the_warlord_s_army_wiped_out_he_dies_with_it_and_a_general_succeeds_him():
    """7. Aftermath: "If there are no options for retreat than the army is wiped out"; Warlord: "If the
    Warlord dies, a General with the most experience ... is selected" (decision 557). The Host, with the
    Warlord Lord Aurelian, loses in 5 with every neighbour held: it is wiped out, he dies with it (his
    Sword of Might lost with the army), and Corwin (90 experience) succeeds him, not Brand (40)."""
    world = Scene()
    field_battle(world, R.MINOR_LOSS)
    _characters(world)  # Generals Brand (army 11, in 1) and Corwin (army 12, in 3)
    for n, army_id in zip([2, 4, 6, 7, 8, 9], range(40, 46), strict=True):
        world.army(army_id, CARNWYL, n, [])  # every other neighbour of 5 holds an army: nowhere to go
    result = world.run([])

    assert result.state.armies[HOST].disbanded
    aurelian = result.state.characters[1]
    assert not aurelian.alive and aurelian.battles_survived == 0
    assert result.state.characters[3].role == "warlord" and result.state.characters[2].role == "general"
    assert result.state.items[7].destroyed
    (dead,) = [e for e in result.events if e.code == EventCode.CHARACTER_DEAD]
    assert (dead.kingdom, dead.army) == (AVALON, HOST) and "Lord Aurelian" in dead.text and "wiped out" in dead.text
    (heir,) = [e for e in result.events if e.code == EventCode.WARLORD_SUCCESSION]
    assert heir.kingdom == AVALON and "Captain Corwin" in heir.text
    codes = [e.code for e in result.events]
    assert codes.index(EventCode.WIPED_OUT) < codes.index(EventCode.CHARACTER_DEAD) < codes.index(heir.code)


def test_case_A5_an_army_wiped_out_gains_no_experience():
    """Experience Points: "After each battle, player's armies earn Experience Points": the Guard, wiped
    out with nowhere to retreat, is no longer an army and earns none (decision 557); the Host does."""
    world = Scene()
    field_battle(world, R.MINOR_VICTORY)
    for n, army_id in zip([1, 2, 3, 4, 6, 7, 8, 9], range(40, 48), strict=True):
        world.army(army_id, CARNWYL, n, [])
    result = world.run([])

    assert result.state.armies[GUARD].disbanded and result.state.armies[GUARD].experience == 0
    assert [(e.army, e.experience) for e in result.events if e.experience] == [(HOST, 75)]


def test_case_A6_the_characters_of_a_disbanded_army_leave_with_it_and_the_warlord_is_succeeded():
    """Army Restrictions: "If an army is reduced to 500 points or below it is Disbanded ... the small band
    of soldiers selling their unwanted items and going their separate ways" (decision 558): the Guard
    (440 points with its Warlord Thane Borin) is disbanded; Borin leaves with it and counts as dead, as a
    retired character does, and Brython's General Dain succeeds him (Warlord)."""
    world = Scene()
    field_battle(
        world, R.MAJOR_VICTORY, defender={"casualties": (Casualty(201, models_lost=40), Casualty(202, models_lost=10))}
    )
    world.units[209] = UnitState(209, GUARD, "Thane Borin", "character", 1, 100)
    world.units[219] = UnitState(219, 21, "Captain Dain", "character", 1, 80)
    world.army(21, BRYTHON, 9, [], experience=30)
    world.characters[4] = CharacterState(4, BRYTHON, 209, "Thane Borin", "warlord")
    world.characters[5] = CharacterState(5, BRYTHON, 219, "Captain Dain", "general")
    result = world.run([1, 1])  # Casualty Recovery 2: no recovery

    assert result.state.armies[GUARD].disbanded
    assert not result.state.characters[4].alive and result.state.characters[5].role == "warlord"
    (left,) = [e for e in result.events if e.code == EventCode.CHARACTER_RETIRED]
    assert (
        (left.kingdom, left.army) == (BRYTHON, GUARD)
        and "Thane Borin" in left.text
        and "Army Restrictions" in left.text
    )
    (heir,) = [e for e in result.events if e.code == EventCode.WARLORD_SUCCESSION]
    assert heir.kingdom == BRYTHON and "Captain Dain" in heir.text


def test_a_tie_for_the_succession_goes_to_the_oldest_army():
    world = Scene()
    field_battle(world, R.MINOR_LOSS, attacker={"characters_lost": (1,)})
    _characters(world)
    world.armies[12] = replace(world.armies[12], experience=40)
    result = world.run([1, 5])
    assert result.state.characters[2].role == "warlord"


def test_robbed_and_survives_against_the_odds():
    """Character Injury Chart (D66): 46-51 Robbed, "his equipment and magic items are lost": the
    magic items are destroyed and his mundane equipment leaves the list (his unit's equipment
    points, decision 389); 66 Survives Against the Odds, 15 experience."""
    world = Scene()
    field_battle(world, R.MINOR_LOSS, attacker={"characters_lost": (1,)})
    _characters(world)
    world.units[109] = replace(world.units[109], equipment_points=12)  # heavy armour and a shield
    robbed = world.run([4, 6])  # 46: Robbed
    assert robbed.state.items[7].destroyed and robbed.state.characters[1].alive
    assert robbed.state.units[109].equipment_points == 0 and robbed.state.units[109].models == 1
    world = Scene()
    field_battle(world, R.MINOR_LOSS, attacker={"characters_lost": (1,)})
    _characters(world)
    lucky = world.run([6, 6])
    assert lucky.state.armies[HOST].experience == 50 + 15
    assert lucky.state.characters[1].injuries[0]["code"] == "survives-against-the-odds"


def test_negotiations_are_a_transfer_of_gold_with_its_fee_and_two_turns_on_the_way():
    """Money negotiations follow Transfer of Gold (decision 142): in turn 4 Avalon agrees to pay 500:
    its treasury pays 550 with the 10% fee; Brython's gold arrives at the beginning of turn 6, so
    nothing enters its treasury now."""
    world = Scene()
    field_battle(world, R.DRAW, attacker={"negotiation_gold": 500})
    result = world.run([], turn=4)
    paid = [(e.kingdom, e.gold) for e in result.events if e.ledger_reason == "transfer"]
    assert paid == [(AVALON, -550)]
    sent = next(e for e in result.events if e.code == EventCode.NEGOTIATION_PAID)
    assert sent.data == {"to": BRYTHON, "gold": 500, "fee": 50, "arrives": 6}
    told = next(e for e in result.events if e.code == EventCode.NEGOTIATION_RECEIVED)
    assert (told.kingdom, told.gold) == (BRYTHON, 0) and "beginning of turn 6" in told.text
    assert result.state.kingdoms[BRYTHON].treasury == 1000


def test_negotiations_pay_only_what_the_treasury_holds_with_the_fee():
    """1,500 agreed from a treasury of 1,000: 909 and its 91 fee are all it can send."""
    world = Scene()
    field_battle(world, R.DRAW, attacker={"negotiation_gold": 1500})
    result = world.run([])
    paid = [(e.kingdom, e.gold) for e in result.events if e.ledger_reason == "transfer"]
    assert paid == [(AVALON, -1000)]
    sent = next(e for e in result.events if e.code == EventCode.NEGOTIATION_PAID)
    assert (sent.data["gold"], sent.data["fee"]) == (909, 91)
    assert "of the 1,500 agreed" in sent.text


def test_a_draw_sends_the_attacker_back_and_leaves_the_defender():
    world = Scene()
    world.province(5, controller=BRYTHON)
    field_battle(world, R.DRAW)
    result = world.run([])
    assert result.state.armies[HOST].province == 2 and result.state.armies[GUARD].province == 5
    assert result.state.provinces[5].controller == BRYTHON
    assert result.battles[0].victor is None


def test_the_state_given_is_not_changed():
    world = Scene()
    field_battle(world, R.MINOR_VICTORY)
    world.run([])
    assert world.armies[GUARD].province == 5 and world.provinces[5].controller is None


# -- the victor keeps the province (7. Aftermath) ---------------------------------------------------


def _defender_wins_in_5(world: Scene, guard_kingdom: int = BRYTHON, *, both_moved: bool = True, **sides) -> None:
    """Avalon's Host moved into 5 from 2 and lost to the Guard, which moved in from 8 too (both
    moved) or stood there."""
    world.army(HOST, AVALON, 5, HOST_UNITS, came_from=2)
    world.army(
        GUARD,
        guard_kingdom,
        5,
        [(201, "Warriors", 40, 15), (202, "Thunderers", 20, 30)],
        came_from=8 if both_moved else None,
    )
    world.battle(
        R.MINOR_LOSS,
        SideA(AVALON, HOST, **sides.get("attacker", {})),
        SideA(guard_kingdom, GUARD, **sides.get("defender", {})),
        both_moved=both_moved,
    )


@pytest.mark.parametrize(
    "kingdom, faces, settlement, gold",
    [(BRYTHON, [], "none", 1000), (CARNWYL, [2], "none", 1000), (CARNWYL, [3], "town", 500)],
)
def test_a_defender_that_moved_in_too_and_wins_takes_the_province_and_loots_it(kingdom, faces, settlement, gold):
    """7. Aftermath: "The victor will keep the province where the battle took place." Both armies
    moved into the neutral town of 5 and the defender won: its kingdom takes the town and sacks or
    loots it by its own sheet's choice (the attacker's says loot; Looting), Orcs & Goblins rolling
    for "Savages" (2: they must sack; 3: they keep their heads and loot). The Host goes back."""
    world = Scene()
    world.province(5, settlement="town")
    choice = "sack" if kingdom == BRYTHON else "loot"
    _defender_wins_in_5(world, kingdom, attacker={"loot_choice": "loot"}, defender={"loot_choice": choice})
    result = world.run(faces)
    province = result.state.provinces[5]
    assert (province.controller, province.settlement) == (kingdom, settlement)
    looted = [(e.kingdom, e.army, e.gold) for e in result.events if e.ledger_reason == "loot"]
    assert looted == [(kingdom, GUARD, gold)]
    conquered = [e for e in result.events if e.code == "province-conquered"]
    assert [(e.kingdom, e.army) for e in conquered] == [(kingdom, GUARD)]
    assert "with Army 20" in conquered[0].text
    assert result.state.armies[HOST].province == 2 and result.state.armies[GUARD].province == 5


def test_the_elite_defense_force_perishes_when_a_defender_that_moved_in_takes_its_town():
    """Battle for Towns, Cities, and Capitols: Avalon's town of 5 is conquered by the defender that
    moved in (both moved): its Elite Defense Force perishes to the last man, and Avalon loses 5."""
    world = Scene()
    world.province(5, settlement="town", controller=AVALON)
    world.army(50, AVALON, 5, [(501, "Guards", 20, 25)], garrison=True)
    _defender_wins_in_5(world)
    result = world.run([])
    assert result.state.garrisons[50].disbanded and result.state.provinces[5].controller == BRYTHON
    assert [e.kingdom for e in result.events if e.code == "province-lost"] == [AVALON]


def _town_defended_by_its_elite_defense_force(world: Scene, result: R, **defender) -> None:
    """Avalon's Host (1,200 points) moved from 2 into Brython's town 5, defended by its garrison with its Elite
    Defense Force (army 50: Captain Eda, its General, and 20 Guards) as the defending army."""
    world.province(5, settlement="town", controller=BRYTHON, elite_defense=True)
    world.army(HOST, AVALON, 5, [(101, "Knights", 40, 30)], came_from=2)
    world.army(50, BRYTHON, 5, [(501, "Captain Eda", 1, 100), (502, "Guards", 20, 20)], garrison=True)
    world.characters[5] = CharacterState(5, BRYTHON, 501, "Captain Eda", "general")
    world.battle(result, SideA(AVALON, HOST), SideA(BRYTHON, 50, **defender))


def test_the_elite_defense_force_is_an_army_in_the_field_experience_recovery_and_injuries():
    """Battle for Towns, Cities, and Capitols: the Elite Defense Force "is treated as an army in the
    field in all manners": it holds its town, gains experience (a minor victory: 75), rolls Casualty
    Recovery for its Guards (2D6 6: 1 in 3, rounded up for the winner: 2 of 6 back) and its hero
    rolls on the Character Injury Chart (66: Survives Against the Odds, +15 experience). It stays."""
    world = Scene()
    _town_defended_by_its_elite_defense_force(
        world, R.MINOR_LOSS, casualties=(Casualty(502, models_lost=6),), characters_lost=(5,)
    )
    result = world.run([3, 3, 6, 6])
    force = result.state.garrisons[50]
    assert (force.experience, force.province, force.disbanded) == (75 + 15, 5, False)
    assert result.state.units[502].models == 14 + 2
    assert [e.army for e in result.events if e.code == "casualty-recovery"] == [50]
    assert [e.data["code"] for e in result.events if e.code == "injury"] == ["survives-against-the-odds"]
    assert result.state.armies[HOST].province == 2  # the loser retreats; the garrison never does
    assert result.state.provinces[5].controller == BRYTHON


def test_an_elite_defense_force_whose_town_is_conquered_makes_no_recovery_rolls():
    """Should the town be conquered, the Elite Defense Force "perished to the last man and no
    recovery rolls are to be made": no Casualty Recovery, no injury roll, no experience, no retreat. Its
    hero, Captain Eda, perished with it: he is dead (decision 592)."""
    world = Scene()
    _town_defended_by_its_elite_defense_force(
        world, R.MINOR_VICTORY, casualties=(Casualty(502, models_lost=6),), characters_lost=(5,)
    )
    result = world.run([])
    assert result.state.garrisons[50].disbanded and result.state.garrisons[50].experience == 0
    assert [e.code for e in result.events if e.army == 50] == [
        "battle-result",
        "elite-defense-force-perished",
        "character-dead",
    ]
    assert not result.state.characters[5].alive
    assert result.state.provinces[5].controller == AVALON


def test_the_army_that_stood_with_its_losing_garrison_retreats():
    """Battle for Towns, Cities, and Capitols: Brython chose the garrison to fight for its town and
    its Guard, standing there, supported it. The garrison lost: the Guard cannot stay beside the
    victor and retreats like a defender (A5: the lowest neutral province, 1)."""
    world = Scene()
    world.province(5, settlement="town", controller=BRYTHON)
    world.army(HOST, AVALON, 5, [(101, "Knights", 20, 30)], came_from=2)
    world.army(GUARD, BRYTHON, 5, [(201, "Warriors", 40, 15)])
    world.battle(R.MINOR_VICTORY, SideA(AVALON, HOST), SideA(BRYTHON, None, supports=(GUARD,)))
    result = world.run([])
    assert result.state.armies[GUARD].province == 1 and result.state.armies[HOST].province == 5
    assert [e.army for e in result.events if e.code == "retreated"] == [GUARD]


def test_a_draw_sends_back_the_army_that_moved_into_its_town_and_chose_its_garrison():
    """7. Aftermath and Battle for Towns, Cities, and Capitols (decisions 51, 584, 586): Avalon's Host
    and Brython's Guard both moved into Brython's town of 5, the Guard choosing the garrison to fight
    and supporting it. A draw has no victor: the town stays Brython's, and each army that moved in goes
    back where it came from, the Guard too (it moved in as the Host did); only the garrison stays.
    Before, the Guard stayed in the town because no defending army row stood for the garrison."""
    world = Scene()
    world.province(5, settlement="town", controller=BRYTHON)
    world.army(HOST, AVALON, 5, [(101, "Knights", 20, 30)], came_from=2)
    world.army(GUARD, BRYTHON, 5, [(201, "Warriors", 40, 15)], came_from=8)
    world.battle(R.DRAW, SideA(AVALON, HOST), SideA(BRYTHON, None, supports=(GUARD,)), both_moved=True)
    result = world.run([])
    assert (result.state.armies[HOST].province, result.state.armies[GUARD].province) == (2, 8)
    assert result.state.provinces[5].controller == BRYTHON
    assert [e.army for e in result.events if e.code == "retreated"] == [HOST, GUARD]


@pytest.mark.parametrize("both_moved", [True, False])
def test_a_victor_keeps_its_own_town_and_does_not_loot_it(both_moved):
    """7. Aftermath and Looting: a defender that wins in its own town keeps it as it is, whether it
    moved in or stood its ground: nothing is conquered, looted or sacked."""
    world = Scene()
    world.province(5, settlement="town", controller=BRYTHON)
    _defender_wins_in_5(world, both_moved=both_moved, defender={"loot_choice": "sack"})
    result = world.run([])
    province = result.state.provinces[5]
    assert (province.controller, province.settlement, province.looted_turn) == (BRYTHON, "town", None)
    assert not [e for e in result.events if e.code in ("province-conquered", "looted", "sacked")]


# -- Veteran Status: regiments, not characters ------------------------------------------------------


def test_characters_are_not_judged_for_veteran_status():
    """Veteran Status is for units (Spending Experience: "upgrade a regiment"); a character is a
    unit of one model, and keeping it is not keeping "more than 50% of its starting numbers"."""
    world = Scene()
    field_battle(world, R.MINOR_VICTORY)
    _characters(world)
    result = world.run([])
    [eligible] = [e for e in result.events if e.code == "veteran-eligible" and e.army == HOST]
    assert eligible.data["units"] == ["Knights", "Archers"]
    assert not result.state.units[109].veteran_eligible


# -- one-use troops (Spending Experience, NOTE) ----------------------------------------------------


@pytest.mark.parametrize(
    "faces, models, words",
    [
        ([3, 1, 2], 0, "none returns; remove them from the list"),
        ([4, 6, 5], 3, "they all return"),
        ([4, 3, 6], 2, "2 of 3 return; remove the other 1 from the list"),
    ],
)
def test_every_one_use_unit_that_fought_rolls_for_recovery_released_or_not(faces, models, words):
    """Spending Experience, NOTE: one-use troops "regardless of the status of these models at the
    game's end ... must make a Casualty Recovery roll (D6 roll of a 4+)". The Host's 3 Fanatics are
    not ticked on its sheet (not released), and still roll, a D6 for each model: each 4+ is back."""
    world = Scene()
    field_battle(world, R.MINOR_VICTORY)
    world.units[103] = UnitState(103, HOST, "Fanatics", "core", 3, 25, one_use=True)
    result = world.run(faces)
    assert result.state.units[103].models == models
    [event] = [e for e in result.events if e.code == "one-use-recovery"]
    assert "not released in the battle" in event.text and event.text.endswith(f"{words}.")
    assert (event.data["released"], event.data["rolls"], event.data["recovered"]) == (False, faces, models)


def test_one_use_troops_roll_a_d6_per_model_released_or_not():
    """Spending Experience, NOTE: "regardless of the status of these models at the game's end,
    they must make a Casualty Recovery roll (D6 roll of a 4+)": a roll for each model. The
    released Fanatics' 3 models lost are not in a Rank and File roll (no 2D6 is rolled); they roll
    4, 5 and 1: two come back, whatever became of them in the battle."""
    world = Scene()
    field_battle(world, R.MINOR_VICTORY, attacker={"casualties": (Casualty(103, models_lost=3, one_use_used=True),)})
    world.units[103] = UnitState(103, HOST, "Fanatics", "core", 3, 25, one_use=True)
    result = world.run([4, 5, 1])
    assert result.state.units[103].models == 2
    assert not [e for e in result.events if e.code == "casualty-recovery"]
    [event] = [e for e in result.events if e.code == "one-use-recovery"]
    assert event.text == (
        "Fanatics (Army 10), one-use troops released in the battle, roll a D6 for each of 3 models, 4+ returns "
        "(Spending Experience): 4, 5, 1: 2 of 3 return; remove the other 1 from the list."
    )
    assert event.data["released"] is True


def test_of_a_detachment_s_parent_only_the_one_use_units_on_the_sheet_roll():
    """Support: the detachment is treated separately (Aftermath); of its parent army only the units
    on the sheet fought. Its Fanatics on the sheet (a model lost, not ticked) roll a 3 and are
    gone; the parent's other Fanatics stayed home and do not roll."""
    world = Scene()
    world.army(30, BRYTHON, 8, [(301, "Miners", 20, 10)])
    world.units[302] = UnitState(302, 30, "Fanatics", "core", 2, 25, one_use=True)
    world.units[303] = UnitState(303, 30, "More Fanatics", "core", 2, 25, one_use=True)
    field_battle(world, R.MINOR_VICTORY, defender={"supports": (30,), "casualties": (Casualty(302, models_lost=1),)})
    result = world.run([3, 2])  # a D6 for each of its 2 models
    assert result.state.units[302].models == 0 and result.state.units[303].models == 2
    assert [e.data["unit"] for e in result.events if e.code == "one-use-recovery"] == ["Fanatics"]


# -- Press the Advantage (Rogue / Trickster) ----------------------------------------------------------


def _pressing_generals(world: Scene) -> None:
    """The Host's General is the Warlord, Lord Aurelian; the Guard's is Thane Borri. Both have
    Press the Advantage."""
    _characters(world)
    world.characters[1] = replace(world.characters[1], abilities=("Withdraw", "Press the Advantage"))
    world.units[209] = UnitState(209, GUARD, "Thane Borri", "character", 1, 90)
    world.characters[4] = CharacterState(4, BRYTHON, 209, "Thane Borri", "general", abilities=("Press the Advantage",))


@pytest.mark.parametrize(
    "played, host, guard, pressing",
    [
        (R.MASSACRE, 100 + 25, 50, [HOST]),
        (R.MAJOR_VICTORY, 75 + 25, 50, [HOST]),
        (R.MINOR_VICTORY, 75 + 25, 50, [HOST]),
        (R.DRAW, 50, 50, []),
        (R.MINOR_LOSS, 50, 75 + 25, [GUARD]),
        (R.MASSACRED, 50, 100 + 25, [GUARD]),
    ],
)
def test_press_the_advantage_earns_25_more_for_a_victory_or_massacre(played, host, guard, pressing):
    """Rogue / Trickster, Press the Advantage: "Each time the army achieves a victory or massacre
    battle, it earns an additional 25 Experience Points"; a draw or a loss earns nothing more."""
    world = Scene()
    field_battle(world, played)
    _pressing_generals(world)
    result = world.run([])
    assert (result.state.armies[HOST].experience, result.state.armies[GUARD].experience) == (host, guard)
    assert [e.army for e in result.events if e.code == "press-the-advantage"] == pressing


def test_press_the_advantage_needs_the_general_to_survive_the_battle():
    """Press the Advantage: "the character must survive the battle to earn the extra Experience
    Points". The Warlord rolls 11 on the Character Injury Chart: dead, and no bonus; nor does it
    pass to his successor, who did not lead the battle."""
    world = Scene()
    field_battle(world, R.MINOR_VICTORY, attacker={"characters_lost": (1,)})
    _pressing_generals(world)
    world.characters[3] = replace(world.characters[3], abilities=("Press the Advantage",))  # Corwin succeeds him
    result = world.run([1, 1])
    assert result.state.characters[3].role == "warlord"
    assert result.state.armies[HOST].experience == 75
    assert not [e for e in result.events if e.code == "press-the-advantage"]


def test_press_the_advantage_survives_amnesia_rolled_after_the_battle_but_not_an_earlier_one():
    """Character Injury Chart, Amnesia: the character "no longer" has his abilities. Rolled now (52)
    he still survived a battle he led with it: the bonus stands. Had earlier: he fought without it."""
    world = Scene()
    field_battle(world, R.MINOR_VICTORY, attacker={"characters_lost": (1,)})
    _pressing_generals(world)
    now = world.run([5, 2])
    assert now.state.characters[1].injuries[0]["code"] == "amnesia"
    assert now.state.armies[HOST].experience == 75 + 25

    world = Scene()
    field_battle(world, R.MINOR_VICTORY)
    _pressing_generals(world)
    world.characters[1] = replace(world.characters[1], injuries=({"code": "amnesia", "turn": 2},))
    earlier = world.run([])
    assert earlier.state.armies[HOST].experience == 75


def test_press_the_advantage_is_the_fighting_army_s_general_s_own():
    """Only the General of the army that won counts: Captain Brand has Press the Advantage, but he
    leads army 11, not the Host."""
    world = Scene()
    field_battle(world, R.MINOR_VICTORY)
    _characters(world)
    world.characters[2] = replace(world.characters[2], abilities=("Press the Advantage",))
    result = world.run([])
    assert result.state.armies[HOST].experience == 75 and result.state.armies[11].experience == 40


def test_press_the_advantage_is_not_earned_when_experience_is_denied():
    """8. End of Turn (A7): an army without a sheet gains no experience, and so none from Press the
    Advantage either (docs/rules-decisions.md)."""
    world = Scene()
    field_battle(world, R.MINOR_VICTORY)
    _pressing_generals(world)
    world.battles[0] = BattleA(
        1, 5, world.battles[0].attacker, world.battles[0].defender, outcome=outcome(R.MINOR_VICTORY, experience=False)
    )
    result = world.run([])
    assert result.state.armies[HOST].experience == 0
    assert not [e for e in result.events if e.code == "press-the-advantage"]


def test_one_use_troops_already_gone_do_not_roll_again():
    """Spending Experience, NOTE: Fanatics gone in an earlier battle (no models left) did not fight
    this one: no roll (docs/rules-decisions.md)."""
    world = Scene()
    field_battle(world, R.MINOR_VICTORY)
    world.units[103] = UnitState(103, HOST, "Fanatics", "core", 0, 25, one_use=True)
    result = world.run([])
    assert not [e for e in result.events if e.code == "one-use-recovery"]


def test_a_deep_wound_counts_off_the_battles_the_army_plays():
    """Character Injury Chart, Deep Wound: "The character must miss the next D3 battles the army
    plays". Wounded in this battle (D66 44, D3 2), he misses the next two; each battle the army
    fights afterwards counts one off, and the sheet of the next knows what is left."""
    from rulebook.turn.aftermath.injury_chart import injuries_standing

    world = Scene()
    field_battle(world, R.MINOR_LOSS, attacker={"characters_lost": (1,)})
    _characters(world)
    wounded = world.run([4, 4, 2])  # D66 44: Deep Wound; D3: 2 battles
    (injury,) = wounded.state.characters[1].injuries
    assert (injury["code"], injury["misses_battles"]) == ("deep-wound", 2)
    assert not any(e.code == "deep-wound-missed" for e in wounded.events)  # not the battle he fell in
    assert injuries_standing(wounded.state.characters[1].injuries) == [
        "must miss this battle (Deep Wound: 2 battles still to miss)"
    ]

    def next_battle(lord: CharacterState):
        """The Host's next battle, with the Lord as the last one left him."""
        world = Scene()
        field_battle(world, R.MINOR_VICTORY)
        _characters(world)
        world.characters[1] = lord
        result = world.run([])
        return result, [e.text for e in result.events if e.code == "deep-wound-missed"]

    first, missed = next_battle(wounded.state.characters[1])
    assert missed == ["Lord Aurelian (Army 10) missed the battle in 5 P5 (Deep Wound); 1 more to miss."]
    assert injuries_standing(first.state.characters[1].injuries) == [
        "must miss this battle (Deep Wound: 1 battle still to miss)"
    ]
    second, missed = next_battle(first.state.characters[1])
    assert missed == ["Lord Aurelian (Army 10) missed the battle in 5 P5 (Deep Wound); he may fight again."]
    assert injuries_standing(second.state.characters[1].injuries) == []
    assert next_battle(second.state.characters[1])[1] == []


def test_old_battle_wounds_are_rolled_before_each_battle():
    """Old Battle Wound: a D6 before each battle, on a 1 he cannot take part; two wounds, 2D6."""
    from rulebook.turn.aftermath.injury_chart import injuries_standing

    one = [{"code": "old-battle-wound"}]
    assert injuries_standing(one) == ["Old Battle Wound: roll a D6 before the battle; on a 1 he cannot take part"]
    assert injuries_standing(one * 2) == ["Old Battle Wound: roll 2D6 before the battle; on a 1 he cannot take part"]


# -- the rulebook's plain words (issue 13) ----------------------------------------------------------


def _small_host_wins_in_5(world: Scene, **attacker) -> None:
    """Avalon's 900-point Host moved from 2 into Brython's 5, held by the Guard, and won."""
    world.province(5, controller=BRYTHON)
    world.army(HOST, AVALON, 5, [(101, "Knights", 20, 30), (102, "Archers", 10, 30)], came_from=2)
    world.army(GUARD, BRYTHON, 5, [(201, "Warriors", 40, 15), (202, "Thunderers", 20, 30)])
    world.battle(R.MINOR_VICTORY, SideA(AVALON, HOST, points_faced=1200, **attacker), SideA(BRYTHON, GUARD))


def test_case_R1_an_army_under_1000_points_wins_but_cannot_claim_the_province():
    """R1 / Army Restrictions: "Armies less than 1000 points cannot claim provinces." The 900-point
    Host wins in Brython's 5: the Guard retreats (7. Aftermath), the province does not change hands,
    and the victory still earns its gold and experience."""
    world = Scene()
    _small_host_wins_in_5(world)
    result = world.run([])
    assert result.state.provinces[5].controller == BRYTHON
    assert result.state.armies[GUARD].province != 5 and result.state.armies[HOST].province == 5
    assert not [e for e in result.events if e.code in ("province-conquered", "province-lost")]
    [refused] = [e for e in result.events if e.code == "too-small-to-claim"]
    assert refused.text == (
        "Army 10 won with 900 points, fewer than 1,000: it cannot claim 5 P5, which stays with Brython "
        "(Army Restrictions)."
    )
    assert result.state.armies[HOST].experience == 75
    assert [e.gold for e in result.events if e.ledger_reason == "victory"] == [200]


def test_case_R1_a_small_victor_neither_loots_nor_sacks_the_town_it_cannot_take():
    """R1 with Looting: a looted town "becomes under the control of the conquerors", and the Orcs &
    Goblins roll "When they capture a city or town": looting and sacking follow the capture. The
    900-point Host chose to sack Brython's town and cannot: the town stands, Brython keeps it, no
    loot gold, and its Elite Defense Force (not conquered) lives."""
    world = Scene()
    _small_host_wins_in_5(world, loot_choice="sack")
    world.province(5, settlement="town")
    world.army(50, BRYTHON, 5, [(501, "Guards", 20, 25)], garrison=True)
    result = world.run([])
    province = result.state.provinces[5]
    assert (province.controller, province.settlement, province.looted_turn) == (BRYTHON, "town", None)
    assert not [e for e in result.events if e.ledger_reason == "loot"]
    assert not result.state.garrisons[50].disbanded
    assert any(
        e.code == "too-small-to-claim" and "its town is neither looted nor sacked" in e.text for e in result.events
    )


def test_case_R1_the_army_counts_as_it_fought_not_after_its_losses():
    """R1: the victor keeps the province first in 7. Aftermath, before Casualty Recovery applies the
    battle's losses: a 1,200-point Host that lost 10 Knights (none recovered: 900 points left)
    still claims Brython's 5 (docs/rules-decisions.md)."""
    world = Scene()
    world.province(5, controller=BRYTHON)
    field_battle(world, R.MINOR_VICTORY, attacker={"casualties": (Casualty(101, models_lost=10),)})
    result = world.run([1, 1])  # 2: No Recovery
    assert result.state.units[101].models == 10
    assert result.state.provinces[5].controller == AVALON


def test_case_R2_only_the_attacker_files_a_minor_victory():
    """R2 / 8. End of Turn: only the attacker files, a minor victory against the 1,500 points it
    faced. The defender's side is a major loss with no experience; the attacker's minor victory
    stands as filed: 75 experience, a minor victory's gold (3 x 100), and the province follows
    it: Avalon takes Brython's 5 and the Guard retreats. The reports say both results."""
    from rulebook.turn.aftermath.results import SideReport, battle_outcome

    world = Scene()
    world.province(5, controller=BRYTHON)
    field_battle(world, R.MINOR_VICTORY, attacker={"points_faced": 1500})
    settled = battle_outcome(SideReport(R.MINOR_VICTORY), None, defender_files=True, deadline_passed=True)
    world.battles[0] = replace(world.battles[0], outcome=settled)
    result = world.run([])
    assert (result.state.armies[HOST].experience, result.state.armies[GUARD].experience) == (75, 0)
    assert [e.gold for e in result.events if e.ledger_reason == "victory"] == [300]
    assert result.state.provinces[5].controller == AVALON and result.state.armies[GUARD].province != 5
    (battle,) = result.battles
    assert (battle.result, battle.defender_result, battle.victor) == (R.MINOR_VICTORY, R.MAJOR_LOSS, "attacker")
    lines = {e.kingdom: e.text for e in result.events if e.code == "battle-result"}
    assert lines == {
        AVALON: "Battle in 5 P5: minor victory for Avalon: Army 10 (the opponent filed no turn summary sheet by "
        "the deadline; 8. End of Turn).",
        BRYTHON: "Battle in 5 P5: major loss for Brython: Army 20, for want of a turn summary sheet by the "
        "deadline (8. End of Turn).",
    }
    [none] = [e for e in result.events if e.code == "no-experience"]
    assert none.text == "Army 20 gains no experience for the battle in 5 P5 (8. End of Turn)."


def _ancient_dead(world: Scene) -> None:
    """Carnwyl plays the Ancient Dead here: a Tomb Kings army the organizer controls."""
    world.kingdoms[CARNWYL] = replace(world.kingdoms[CARNWYL], army_type=ArmyType.ANCIENT_DEAD, name="The Ancient Dead")


def test_case_R11_an_ancient_dead_army_wins_and_gains_no_experience():
    """R11 / The Ancient Dead, Setup: "the armies do not gain experience points". The First Host wins a
    massacre with a story written for it, its General has Press the Advantage, and a character
    survives against the odds: no experience from any of it, and one line that says why."""
    world = Scene()
    _ancient_dead(world)
    world.army(HOST, CARNWYL, 5, HOST_UNITS, came_from=2)
    world.army(GUARD, BRYTHON, 5, [(201, "Warriors", 40, 15), (202, "Thunderers", 20, 30)])
    world.units[109] = UnitState(109, HOST, "Tomb Prince Ankhor", "character", 1, 100)
    world.characters[1] = CharacterState(
        1, CARNWYL, 109, "Tomb Prince Ankhor", "general", abilities=("Press the Advantage",)
    )
    world.battle(R.MASSACRE, SideA(CARNWYL, HOST, story=True, characters_lost=(1,)), SideA(BRYTHON, GUARD))
    result = world.run([6, 6])  # D66 66: Survives Against the Odds
    assert result.state.armies[HOST].experience == 0 and result.state.armies[GUARD].experience == 50
    assert not [e for e in result.events if e.code in ("experience", "story", "press-the-advantage") and e.army == HOST]
    [none] = [e for e in result.events if e.code == "no-experience"]
    assert none.text == (
        "Army 10 gains no experience for the battle in 5 P5: the armies of the Ancient Dead do not gain experience "
        "points (The Ancient Dead)."
    )
    [injury] = [e for e in result.events if e.code == "injury"]
    assert injury.text.endswith(
        "Survives Against the Odds: no experience, the armies of the Ancient Dead do not gain experience points."
    )


@pytest.mark.parametrize("army_type", [ArmyType.TOMB_KINGS, ArmyType.VAMPIRE_COUNTS, ArmyType.ANCIENT_DEAD])
def test_curse_of_the_dead_units_are_never_made_eligible_for_veteran_status(army_type):
    """Tomb Kings and Vampire Counts, "Curse of the Dead": "the undead units in the army cannot spend
    experience points on Veteran Status" (XP8); the Ancient Dead are a Tomb Kings army. Their units
    that kept every model are not told they may rise a level."""
    world = Scene()
    world.kingdoms[AVALON] = replace(world.kingdoms[AVALON], army_type=army_type)
    field_battle(world, R.MINOR_VICTORY)
    result = world.run([])
    assert not [e for e in result.events if e.code == "veteran-eligible" and e.army == HOST]
    assert not result.state.units[101].veteran_eligible
    assert [e.army for e in result.events if e.code == "veteran-eligible"] == [GUARD]


def test_case_XP8_a_living_unit_of_an_undead_army_is_made_eligible_for_veteran_status():
    """Curse of the Dead binds "the undead units in the army" only: a unit the Tomb Kings' list marks
    living (a mercenary unit) that kept more than half its models is eligible for its next level;
    the army's undead units beside it are not."""
    world = Scene()
    world.kingdoms[AVALON] = replace(world.kingdoms[AVALON], army_type=ArmyType.TOMB_KINGS)
    field_battle(world, R.MINOR_VICTORY)
    world.units[101] = replace(world.units[101], living=True)
    result = world.run([])
    assert result.state.units[101].veteran_eligible
    host = [e for e in result.events if e.code == "veteran-eligible" and e.army == HOST]
    assert len(host) == 1 and result.state.units[101].name in host[0].text


# -- words: each thing once, nothing empty (issue 13) -----------------------------------------------


def test_one_line_per_army_for_veteran_status_gained_or_lost():
    """Veteran Status: the Host's two regiments that kept more than half are one line; the Guard's
    two veteran regiments that lost half or more are one line too."""
    world = Scene()
    field_battle(
        world,
        R.MINOR_VICTORY,
        defender={"casualties": (Casualty(201, models_lost=30), Casualty(202, models_lost=15))},
    )
    world.units[201] = replace(world.units[201], veteran_level=2)
    world.units[202] = replace(world.units[202], veteran_level=1)
    result = world.run([1, 1])  # the Guard's recovery: 2, none back
    eligible = [e.text for e in result.events if e.code == "veteran-eligible"]
    assert eligible == [
        "Army 10: units that kept more than half their models may each rise one level of Veteran Status for 10 "
        "experience (Veteran Status): Knights (kept 20 of 20, to +1), Archers (kept 20 of 20, to +1)."
    ]
    lost = [e.text for e in result.events if e.code == "veteran-lost"]
    assert lost == [
        "Army 20: units that lost half or more of their models drop one level of Veteran Status (Veteran Status): "
        "Warriors (kept 10 of 40, now +1), Thunderers (kept 5 of 20, now +0)."
    ]


def test_injury_lines_are_never_empty_nor_say_a_thing_twice():
    """Character Injury Chart: Multiple Injuries says how many more rolls (not "Multiple Injuries:
    ."), each further roll has its line, and Dead is said once ("Dead.", not "Dead: dead.")."""
    world = Scene()
    field_battle(world, R.MINOR_LOSS, attacker={"characters_lost": (1,)})
    _characters(world)
    # D66 16: Multiple Injuries; D6 2 more rolls: 11 (Dead, rerolled) then 22 Leg Wound, 54 Full Recovery.
    result = world.run([1, 6, 2, 1, 1, 2, 2, 5, 4])
    texts = [e.text for e in result.events if e.code == "injury"]
    assert texts == [
        "Lord Aurelian (Army 10) rolls 16 on the Character Injury Chart: Multiple Injuries: 2 more rolls on the chart.",
        "Lord Aurelian (Army 10) rolls 22 on the Character Injury Chart: Leg Wound: -1 M.",
        "Lord Aurelian (Army 10) rolls 54 on the Character Injury Chart: Full Recovery.",
    ]
    assert not any(t.endswith(": .") or ": :" in t for t in (e.text for e in result.events))

    world = Scene()
    field_battle(world, R.MINOR_LOSS, attacker={"characters_lost": (1,)})
    _characters(world)
    dead = world.run([1, 1])
    assert [e.text for e in dead.events if e.code == "injury"] == [
        "Lord Aurelian (Army 10) rolls 11 on the Character Injury Chart: Dead."
    ]


def test_no_aftermath_line_is_empty_or_repeats_itself():
    """Every event of a busy aftermath (recovery, command models, one-use troops, injuries, veterans,
    a missing sheet) ends its sentence with words, and no two lines of a kingdom say the same."""
    from rulebook.turn.aftermath.results import SideReport, battle_outcome

    world = Scene()
    field_battle(
        world,
        R.MINOR_VICTORY,
        attacker={
            "casualties": (Casualty(101, models_lost=8, champion=True), Casualty(103, one_use_used=True)),
            "characters_lost": (1,),
        },
    )
    _characters(world)
    world.units[103] = UnitState(103, HOST, "Fanatics", "core", 2, 25, one_use=True)
    settled = battle_outcome(SideReport(R.MINOR_VICTORY), None, defender_files=True, deadline_passed=True)
    world.battles[0] = replace(world.battles[0], outcome=settled)
    result = world.run([3, 3, 5, 6, 1, 5, 4])  # 2D6 6; champion 5; fanatics 6, 1; D66 54
    texts = [e.text for e in result.events]
    assert all(t.strip() and not t.rstrip(".").endswith(":") and "()" not in t for t in texts)
    for side in (AVALON, BRYTHON):
        mine = [e.text for e in result.events if e.kingdom == side]
        assert len(mine) == len(set(mine))
    # The missing sheet is said once to Brython: on its result line, not again on its experience.
    assert sum("turn summary sheet" in e.text for e in result.events if e.kingdom == BRYTHON) == 1


@pytest.mark.parametrize("chosen, host, raiders", [(None, 75 + 3, 75), (2, 75, 75 + 3)])
def test_the_player_decides_which_army_gets_the_story_bonus(chosen, host, raiders):
    """Stories Are Nice: "If there were multiple battles played and stories written for each of them,
    the player may decide which army will receive the Experience Points." Avalon wrote stories of
    its battles in 5 and in 7: its sheet for 7 gives the bonus to the Raiders; silent, it goes to
    the first battle's army (province order), the Host. Once a turn either way."""
    world = Scene()
    field_battle(world, R.MINOR_VICTORY, attacker={"story": True})
    world.army(30, AVALON, 7, [(301, "Spearmen", 40, 10)], came_from=4)
    world.army(40, CARNWYL, 7, [(401, "Boyz", 40, 10)])
    world.battles.append(
        BattleA(
            id=2,
            province=7,
            attacker=SideA(AVALON, 30, story=True, story_bonus=chosen == 2),
            defender=SideA(CARNWYL, 40),
            outcome=outcome(R.MINOR_VICTORY),
        )
    )
    result = world.run([])
    assert (result.state.armies[HOST].experience, result.state.armies[30].experience) == (host, raiders)
    assert len([e for e in result.events if e.code == "story"]) == 1


def test_the_pyramid_taken_the_ancient_dead_return_to_the_tomb():
    """Return to the Tomb: Avalon takes the pyramid from its Capitol Garrison, with whom the Warlord
    must remain: the garrison perishes, the Ancient Dead return to the tomb (a public event for the
    bulletin), and the campaign goes on; no coronation countdown for them (decision 108)."""
    world = Scene()
    world.kingdoms[CARNWYL] = replace(
        world.kingdoms[CARNWYL], army_type=ArmyType.ANCIENT_DEAD, name="The Ancient Dead", capitol=5
    )
    world.province(5, terrain="desert", pyramid=True, controller=CARNWYL)
    world.army(HOST, AVALON, 5, HOST_UNITS, came_from=2)
    world.army(50, CARNWYL, 5, [(501, "Tomb Guard", 20, 25)], garrison=True, name="Capitol Garrison")
    world.battle(R.MINOR_VICTORY, SideA(AVALON, HOST), SideA(CARNWYL, None))
    result = world.run([])
    assert result.state.garrisons[50].disbanded and result.state.provinces[5].controller == AVALON
    codes = [e.code for e in result.events]
    assert "return-to-the-tomb" in codes and "capitol-lost" not in codes
    (tomb,) = [e for e in result.events if e.code == "return-to-the-tomb"]
    assert "the campaign goes on" in tomb.text


def test_the_capitol_taken_the_kingdom_loses_it_and_its_countdown_starts():
    """Loss of the Capitol: Avalon takes Brython's capitol city; Brython has no capitol from now on,
    and three turns from this one to crown its Warlord (the state the writer stores)."""
    world = Scene()
    world.kingdoms[BRYTHON] = replace(world.kingdoms[BRYTHON], capitol=5)
    world.province(5, settlement="city", controller=BRYTHON)
    world.army(HOST, AVALON, 5, HOST_UNITS, came_from=2)
    world.battle(R.MINOR_VICTORY, SideA(AVALON, HOST, loot_choice="sack"), SideA(BRYTHON, None))
    result = world.run([], turn=4)

    assert result.state.provinces[5].controller == AVALON
    brython = result.state.kingdoms[BRYTHON]
    assert (brython.capitol, brython.capitol_lost_turn) == (None, 4)
    assert len([e for e in result.events if e.code == "capitol-lost"]) == 1


def test_a_city_won_from_a_rogue_kingdom_gives_no_city_and_no_loot():
    """Rogue Kingdom: "taking these from a Rogue Kingdom will not give the attacking player a town or
    city or a chance to loot"; its capitol falls without a Loss of the Capitol for a kingdom already
    out (decision 383)."""
    world = Scene()
    world.kingdoms[BRYTHON] = replace(world.kingdoms[BRYTHON], rogue=True, capitol=5)
    world.province(5, settlement="city", controller=BRYTHON)
    world.army(HOST, AVALON, 5, HOST_UNITS, came_from=2)
    world.battle(R.MINOR_VICTORY, SideA(AVALON, HOST, loot_choice="sack"), SideA(BRYTHON, None))
    result = world.run([], turn=4)

    province = result.state.provinces[5]
    assert (province.controller, province.settlement, province.looted_turn) == (AVALON, "none", None)
    assert [e for e in result.events if e.ledger_reason == "loot" or e.code in ("sacked", "looted")] == []
    assert [e for e in result.events if e.code == "capitol-lost"] == []
    (conquered,) = [e for e in result.events if e.code == "province-conquered"]
    assert "no town or city and nothing to loot" in conquered.text


def _scouting_forces_skirmish(result: R) -> Scene:
    """Avalon's Host moved from 2 into Brython's 5 (Brython is a Rogue Kingdom) and rolled Scouting
    forces: its Tomb Raiders skirmished for the province. Its sheet reports losses anyway."""
    world = Scene()
    world.kingdoms[BRYTHON] = replace(world.kingdoms[BRYTHON], rogue=True)
    world.province(5, controller=BRYTHON)
    world.army(HOST, AVALON, 5, HOST_UNITS, came_from=2, experience=0)
    world.battle(
        result,
        SideA(AVALON, HOST, casualties=(Casualty(101, models_lost=8),), points_faced=150),
        SideA(BRYTHON, None),
        skirmish=True,
    )
    return world


def test_rogue_kingdom_scouting_forces_the_tomb_raiders_win_and_the_army_takes_the_province():
    """Rogue Kingdom, scouting forces: "Fight a ruins style battle for control" (decision 231). The
    army did not fight: its list loses nothing, it earns no experience and no victory gold, and no
    character rolls for injuries (no dice are rolled at all)."""
    result = _scouting_forces_skirmish(R.MAJOR_VICTORY).run([])

    assert result.state.provinces[5].controller == AVALON
    host = result.state.armies[HOST]
    assert (host.province, host.experience, host.disbanded) == (5, 0, False)
    assert result.state.units[101].models == 20
    assert result.state.kingdoms[AVALON].treasury == 1000
    codes = [e.code for e in result.events]
    assert codes.count(EventCode.BATTLE_RESULT) == 2 and EventCode.PROVINCE_CONQUERED in codes
    assert not {EventCode.VICTORY_GOLD, EventCode.EXPERIENCE, EventCode.RETREATED} & set(codes)
    results = [e.text for e in result.events if e.code == EventCode.BATTLE_RESULT]
    assert results == [
        f"Battle in {result.state.provinces[5]}: major victory for Avalon's Tomb Raiders.",
        f"Battle in {result.state.provinces[5]}: major loss for the scouting forces of Brython.",
    ]


@pytest.mark.parametrize("lost", [R.MINOR_LOSS, R.DRAW])
def test_rogue_kingdom_scouting_forces_the_tomb_raiders_lose_and_the_army_may_not_move_in(lost):
    """Ruins: "If the player loses the skirmish, their army may not move into to the province this
    turn": the army stays where it came from, whole; no retreat (decision 231)."""
    result = _scouting_forces_skirmish(lost).run([])

    assert result.state.provinces[5].controller == BRYTHON
    assert result.state.armies[HOST].province == 2
    assert result.state.units[101].models == 20
    (back,) = [e for e in result.events if e.code == EventCode.SKIRMISH_LOST]
    assert back.text == (
        "Avalon's Tomb Raiders did not win the skirmish for 5 P5: Army 10 may not move into it this turn and "
        "stays in 2 P2 (Ruins)."
    )
    codes = {e.code for e in result.events}
    assert not {EventCode.RETREATED, EventCode.WIPED_OUT, EventCode.NO_VICTOR, EventCode.EXPERIENCE} & codes


def test_an_army_kept_out_stays_beside_the_elite_defense_force_of_the_town_it_came_from():
    """Ruins: "their army may not move into to the province this turn"; decision 587: the Host came
    from Avalon's town of 2, where Avalon's Elite Defense Force stands. It never left 2, so it stays
    there beside the force: the force is an army in the town for a retreat into it, not for an army
    that never moved out."""
    world = _scouting_forces_skirmish(R.MINOR_LOSS)
    world.province(2, controller=AVALON, settlement="town")
    world.army(50, AVALON, 2, [(501, "Guards", 20, 25)], garrison=True)
    result = world.run([])

    assert result.state.armies[HOST].province == 2
    assert not {EventCode.RETREATED, EventCode.WIPED_OUT} & {e.code for e in result.events}
