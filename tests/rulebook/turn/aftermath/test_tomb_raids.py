"""7. Aftermath of a Tomb Raid and of every Tomb Raiders' skirmish (pure Python, dice scripted): the
raid's result settles the waiting army's entry, the treasure and the Scarab Amulet; the raiders'
killed models leave the list, the injured roll on Recovery, a dead Captain is replaced.
Rulebook: Ruins, Treasure from the Ruins, Tomb Raid, Maintaining / Changing Tomb Raiders, Recovery,
The Ancient Dead: Deserts. Rule cases TR5, TR7, TR8, TR10; decisions 405-409 and 430-434."""

from __future__ import annotations

from dataclasses import replace

import pytest

from kernel.dice import ScriptedDice
from kernel.event_codes import EventCode
from rulebook.ruins_and_tomb_raiders.force import SAMPLE_HIGH_ELVES, Role, TombRaiders
from rulebook.ruins_and_tomb_raiders.tomb_raid import RaidResult
from rulebook.tables import ArmyType
from rulebook.turn.aftermath.results import BattleResult as R
from rulebook.turn.aftermath.results import Outcome, SideOutcome
from rulebook.turn.aftermath.run import resolve_aftermath
from rulebook.turn.aftermath.sheets import BattleA, RaidersLost, SideA
from rulebook.turn.aftermath.state import AftermathState
from rulebook.turn.aftermath.tomb_raids import LADDER_OF_RAID, raid_result_of, raiders_recover
from rulebook.world import CharacterState, UnitState, World
from tests.rulebook.turn.aftermath.test_aftermath import ADJACENCY, AVALON, BRYTHON, HOST, HOST_UNITS, Scene
from tests.world_builders import kingdom

DEAD = 4  # the Ancient Dead
GENERAL_UNIT = 109
CAPTAIN = "Tomb Raider Captain (Spear Champion)"
LIEUTENANT = "Lieutenant, Shadow Warrior"


class RaidScene(Scene):
    """Avalon's Host (1,200 points, its General Sir Hugh) moved from 2 into the ruins of 5, neutral;
    Avalon's Tomb Raiders are the rulebook's sample force."""

    def __init__(self, *, raids: int = 0, sacked: bool = False) -> None:
        super().__init__()
        self.kingdoms[DEAD] = kingdom(DEAD, "The Ancient Dead", ArmyType.ANCIENT_DEAD)
        self.province(5, settlement="ruins", terrain="desert" if sacked else "plains", ruin_raids=raids)
        self.provinces[5] = replace(self.provinces[5], ruin_sacked=sacked, controller=DEAD if sacked else None)
        self.army(HOST, AVALON, 5, HOST_UNITS, came_from=2)
        self.units[GENERAL_UNIT] = UnitState(GENERAL_UNIT, HOST, "Sir Hugh", "character", 1, 100)
        self.characters[1] = CharacterState(1, AVALON, GENERAL_UNIT, "Sir Hugh", "general")
        self.tomb_raiders: dict[int, TombRaiders] = {AVALON: SAMPLE_HIGH_ELVES}
        self.held_items: dict[int, frozenset[str]] = {}

    def raid(self, raid: RaidResult | None, *raiders: RaidersLost) -> None:
        """A plain ruin's raid: a skirmish whose result on the ladder is the raid's (decision 430)."""
        result = LADDER_OF_RAID[raid] if raid is not None else R.MAJOR_LOSS
        self.battle(
            result,
            SideA(AVALON, HOST, raiders=raiders),
            SideA(None, None),
            skirmish=True,
            mission="tomb-raid",
            raid_result=raid,
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
            characters=dict(self.characters),
            items=dict(self.items),
        )
        state = AftermathState(
            world, self.battles, self.came_from, tomb_raiders=self.tomb_raiders, held_items=self.held_items
        )
        dice = ScriptedDice(faces=faces)
        result = resolve_aftermath(state, dice)
        assert dice.unused == []
        return result


def _items(result) -> list[tuple[str, int, int | None, int | None, bool]]:
    return sorted((i.name, i.points, i.bearer, i.kingdom, i.common) for i in result.state.items.values() if i.id < 0)


def test_case_TR5_a_successful_raid_lets_the_army_in_with_treasure_and_the_amulet():
    """Tomb Raid: "If the raid is a success ... roll on Treasure from the Ruins chart ... your kingdom
    acquires a scarab amulet if it is the first time the Ruins was successfully tomb-raided. The army is
    now safely able to move into the province." A 6: D6 x 100 gold (a 3: 300) and a healing potion."""
    world = RaidScene()
    world.raid(RaidResult.SUCCESS)
    result = world.run([6, 3])

    assert result.state.armies[HOST].province == 5
    assert result.state.provinces[5].controller == AVALON
    assert result.state.provinces[5].ruin_raids == 1
    assert result.state.kingdoms[AVALON].treasury == 1000 + 300
    # The items go to the army's General, at no points, the kingdom's (decisions 406, 431).
    assert _items(result) == [
        ("Healing Potion", 0, GENERAL_UNIT, AVALON, True),
        ("Scarab Amulet", 0, GENERAL_UNIT, AVALON, True),
    ]
    (found,) = [e for e in result.events if e.code == EventCode.TOMB_RAID_SUCCESS]
    assert (found.kingdom, found.gold, found.ledger_reason) == (AVALON, 300, "ruins")
    assert found.data["items"] == ["Healing Potion"] and found.data["amulet"] is True
    assert "300 gold and Healing Potion (removes all injuries a character has suffered)" in found.text
    (amulet,) = [e for e in result.events if e.code == EventCode.SCARAB_AMULET_FOUND]
    assert "Sir Hugh (Army 10)" in amulet.text
    assert EventCode.PROVINCE_CONQUERED in {e.code for e in result.events}


def test_case_TR5_the_second_successful_raid_finds_treasure_but_no_amulet():
    world = RaidScene(raids=1)
    world.raid(RaidResult.SUCCESS)
    result = world.run([2])  # Staff of Sorcery

    assert _items(result) == [("Staff of Sorcery", 0, GENERAL_UNIT, AVALON, False)]
    assert result.state.provinces[5].ruin_raids == 2
    assert EventCode.SCARAB_AMULET_FOUND not in {e.code for e in result.events}
    assert result.state.kingdoms[AVALON].treasury == 1000


def test_the_common_items_roll_a_second_d6():
    world = RaidScene(raids=3)
    world.raid(RaidResult.SUCCESS)
    result = world.run([4, 6])  # 4-5: the common items; a 6: the Amulet of Protection

    assert _items(result) == [("Amulet of Protection", 0, GENERAL_UNIT, AVALON, True)]


@pytest.mark.parametrize("raid", [RaidResult.FAILURE, RaidResult.DRAW, None])
def test_case_TR5_a_failed_or_drawn_raid_keeps_the_army_out_and_finds_nothing(raid):
    """ "If the raid was a failure ... The army may not move into to the province this turn"; a draw is
    no success (decision 407); a raid with no result (no sheet) neither. No die is rolled."""
    world = RaidScene()
    world.raid(raid)
    result = world.run([])

    assert result.state.armies[HOST].province == 2
    assert result.state.provinces[5].controller is None and result.state.provinces[5].ruin_raids == 0
    assert _items(result) == [] and result.state.kingdoms[AVALON].treasury == 1000
    (failed,) = [e for e in result.events if e.code == EventCode.TOMB_RAID_FAILED]
    assert failed.kingdom == AVALON and "may not move into the province this turn" in failed.text
    (back,) = [e for e in result.events if e.code == EventCode.SKIRMISH_LOST]
    assert back.text.startswith("Avalon's Tomb Raid on the ruins of 5 P5 ")
    assert back.text.endswith("Army 10 may not move into it this turn and stays in 2 P2 (Tomb Raid).")


def test_the_raid_result_on_the_ladder_and_back():
    """Decision 430: a plain ruin's raid is a skirmish whose result on the ladder is the raid's."""
    for raid in RaidResult:
        assert raid_result_of(LADDER_OF_RAID[raid]) is raid
    assert raid_result_of(R.MASSACRE) is RaidResult.SUCCESS
    assert raid_result_of(R.MAJOR_LOSS) is RaidResult.FAILURE


def _sacked_ruin(result: R, raid: RaidResult) -> RaidScene:
    """A town of 5 sacked by the desert: the Host fought the ruin's Ancient Dead garrison and sent its
    raiders against the ruin's guard in the same battle (decision 409)."""
    world = RaidScene(sacked=True)
    world.battle(
        result,
        SideA(AVALON, HOST, points_faced=150),
        SideA(DEAD, None),
        mission="tomb-raid",
        raid_result=raid,
    )
    return world


def test_case_TR10_a_sacked_town_s_ruin_gives_treasure_but_no_amulet():
    """The Ancient Dead: Deserts: the ruins of a sacked town "will not contain a Scarab Amulet"; the
    army beat the garrison and the raid succeeded: the treasure, and the army takes the province."""
    result = _sacked_ruin(R.MINOR_VICTORY, RaidResult.SUCCESS).run([3])  # War Banner

    assert _items(result) == [("War Banner", 0, GENERAL_UNIT, AVALON, False)]
    assert EventCode.SCARAB_AMULET_FOUND not in {e.code for e in result.events}
    assert result.state.provinces[5].ruin_raids == 1
    assert (result.state.armies[HOST].province, result.state.provinces[5].controller) == (5, AVALON)


def test_a_sacked_ruin_s_raid_finds_nothing_when_the_garrison_won():
    """Decision 409: the raid counts only when the army beat the garrison (won or drew)."""
    result = _sacked_ruin(R.MINOR_LOSS, RaidResult.SUCCESS).run([])

    assert _items(result) == [] and result.state.provinces[5].ruin_raids == 0
    (failed,) = [e for e in result.events if e.code == EventCode.TOMB_RAID_FAILED]
    assert "did not beat the Ancient Dead garrison" in failed.text
    assert result.state.provinces[5].controller == DEAD and result.state.armies[HOST].province == 2


def test_a_sacked_ruin_won_but_raided_in_vain_keeps_the_army_out():
    """Decision 430: the army beat the garrison, but its raid failed: it may not move in this turn
    (Ruins), so it takes nothing and goes back."""
    result = _sacked_ruin(R.MAJOR_VICTORY, RaidResult.FAILURE).run([])

    assert result.state.provinces[5].controller == DEAD and result.state.armies[HOST].province == 2
    assert EventCode.PROVINCE_CONQUERED not in {e.code for e in result.events}
    (back,) = [e for e in result.events if e.code == EventCode.SKIRMISH_LOST]
    assert back.text.endswith("stays in 2 P2 (Tomb Raid).")


def test_a_sacked_ruin_drawn_with_the_garrison_gives_the_treasure_but_no_entry():
    """Decision 430: a draw beats the garrison for the raid (decision 409), but no victor takes the
    province: the army goes back with the treasure."""
    result = _sacked_ruin(R.DRAW, RaidResult.SUCCESS).run([1])  # Power Stones

    assert _items(result) == [("Power Stones", 0, GENERAL_UNIT, AVALON, False)]
    assert result.state.armies[HOST].province == 2 and result.state.provinces[5].controller == DEAD


def test_an_armory_item_the_kingdom_holds_already_is_lost():
    """Armory: "your kingdom has only one of that item"; found again in the ruins, it is lost
    (decision 431)."""
    world = RaidScene(raids=2)
    world.held_items = {AVALON: frozenset({"staff of sorcery"})}
    world.raid(RaidResult.SUCCESS)
    result = world.run([2])

    assert _items(result) == []
    (lost,) = [e for e in result.events if e.code == EventCode.RUINS_ITEM_LOST]
    assert lost.text.startswith("Staff of Sorcery found in the ruins of 5 P5 is lost: Avalon holds one already")


def test_an_army_without_a_character_leaves_the_items_in_the_armory():
    world = RaidScene(raids=1)
    del world.units[GENERAL_UNIT], world.characters[1]
    world.raid(RaidResult.SUCCESS)
    result = world.run([3])

    assert _items(result) == [("War Banner", 0, None, AVALON, False)]


def test_case_TR7_the_injured_raiders_roll_on_recovery_and_the_killed_leave_the_list():
    """Recovery: a D6 per model removed as injured (1 dead, 2 out of action for one turn, 3-6 back);
    killed models leave the list (Maintaining / Changing Tomb Raiders)."""
    world = RaidScene()
    world.raid(
        RaidResult.FAILURE,
        RaidersLost("Spearmen", killed=1, injured=3),
        RaidersLost("Archers with Light Armor", injured=1),
    )
    result = world.run([1, 2, 5, 4])

    force = result.state.tomb_raiders[AVALON]
    spearmen, archers = force.entry("Spearmen"), force.entry("Archers with Light Armor")
    assert spearmen is not None and (spearmen.models, spearmen.out_of_action) == (5 - 1 - 1, 1)
    assert archers is not None and (archers.models, archers.out_of_action) == (3, 0)
    (killed,) = [e for e in result.events if e.code == EventCode.TOMB_RAIDERS_KILLED]
    assert killed.data == {"killed": {"Spearmen": 1}}
    (recovery,) = [e for e in result.events if e.code == EventCode.TOMB_RAIDERS_RECOVERY]
    assert recovery.text.endswith(
        "Spearmen: 1, dead: removed from the list; Spearmen: 2, out of action for one turn; Spearmen: 5, full "
        "recovery; Archers with Light Armor: 4, full recovery (Recovery)."
    )
    # The army did not fight the skirmish: its list is whole.
    assert result.state.units[101].models == 20


def _with_a_spearman_lieutenant(force: TombRaiders) -> TombRaiders:
    """The sample force with a Core Lieutenant ("Alternately you may select a Core model as a
    Lieutenant"), one of the Spearmen, in place of the Shadow Warrior."""
    spearman = replace(
        next(e for e in force.entries if e.name == "Spearmen"),
        name="Lieutenant, Spearman",
        models=1,
        role=Role.LIEUTENANT,
        unit_type="Spearmen",
    )
    return replace(force, entries=tuple(spearman if e.name == LIEUTENANT else e for e in force.entries))


def test_case_TR8_the_captain_killed_the_lieutenant_becomes_captain_paid_from_the_points():
    """Maintaining / Changing Tomb Raiders: "If a Captain is permanently killed, the Lieutenant will
    become the new Captain ... you must use the points available to pay the cost of upgrading it to a
    Champion": a Spearman Lieutenant's upgrade is what the dead Spear Champion paid over a Spearman,
    23 - 11 = 12 points (decision 433)."""
    world = RaidScene()
    world.tomb_raiders[AVALON] = _with_a_spearman_lieutenant(SAMPLE_HIGH_ELVES)
    points = world.tomb_raiders[AVALON].points
    world.raid(RaidResult.SUCCESS, RaidersLost(CAPTAIN, killed=1))
    result = world.run([2])

    force = result.state.tomb_raiders[AVALON]
    assert force.entry(CAPTAIN) is None
    captain = force.captain
    assert captain is not None and captain.name == "Lieutenant, Spearman"
    assert (captain.role, captain.promoted, captain.points_per_model) == (Role.CAPTAIN, True, 11 + 12)
    assert force.lieutenant is None and force.points == points - 23 + 12
    (promoted,) = [e for e in result.events if e.code == EventCode.TOMB_RAIDERS_PROMOTED]
    assert "the Lieutenant, Lieutenant, Spearman, is the new Captain" in promoted.text
    assert "its champion upgrade, 12 points, paid from the points available" in promoted.text


def test_a_new_captain_of_another_unit_type_is_not_charged_the_dead_captains_upgrade():
    """Maintaining / Changing Tomb Raiders: "the cost of upgrading it to a Champion" is the new
    Captain's. The sample's Lieutenant is a Shadow Warrior: what a Spear Champion costs over a
    Spearman says nothing of his upgrade, so none is charged and the player is asked to enter it
    (decision 433)."""
    world = RaidScene()
    world.raid(RaidResult.SUCCESS, RaidersLost(CAPTAIN, killed=1))
    result = world.run([2])

    captain = result.state.tomb_raiders[AVALON].captain
    assert captain is not None and captain.name == LIEUTENANT
    assert (captain.role, captain.promoted, captain.points_per_model) == (Role.CAPTAIN, True, 15)
    (promoted,) = [e for e in result.events if e.code == EventCode.TOMB_RAIDERS_PROMOTED]
    assert "enter his champion upgrade's points on the Tomb Raiders page" in promoted.text
    assert promoted.data["upgrade"] == 0


def test_a_captain_dead_on_recovery_without_a_lieutenant_leaves_the_force_to_name_one():
    world = RaidScene()
    world.tomb_raiders[AVALON] = replace(
        SAMPLE_HIGH_ELVES, entries=tuple(e for e in SAMPLE_HIGH_ELVES.entries if e.role is not Role.LIEUTENANT)
    )
    world.raid(RaidResult.FAILURE, RaidersLost(CAPTAIN, injured=1))
    result = world.run([1])

    assert result.state.tomb_raiders[AVALON].captain is None
    (event,) = [e for e in result.events if e.code == EventCode.TOMB_RAIDERS_NO_CAPTAIN]
    assert "name the model who becomes Captain" in event.text


def test_the_scouting_forces_skirmish_costs_the_raiders_their_losses_too():
    """Recovery "after every skirmish": the Rogue Kingdom's scouting forces are a Tomb Raiders'
    skirmish (decision 231)."""
    world = RaidScene()
    world.kingdoms[BRYTHON] = replace(world.kingdoms[BRYTHON], rogue=True)
    world.province(5, controller=BRYTHON, settlement="none")
    world.battle(
        R.MAJOR_VICTORY,
        SideA(AVALON, HOST, raiders=(RaidersLost("Spearmen", injured=1),)),
        SideA(BRYTHON, None),
        skirmish=True,
    )
    result = world.run([1])

    spearmen = result.state.tomb_raiders[AVALON].entry("Spearmen")
    assert spearmen is not None and spearmen.models == 4
    assert result.state.provinces[5].controller == AVALON


def test_models_out_of_action_are_back_at_the_next_aftermath():
    """Recovery: "out of action for one turn": set by this turn's aftermath, they miss the next turn's
    mission and are back at that turn's aftermath (decision 432)."""
    world = RaidScene()
    force = SAMPLE_HIGH_ELVES
    world.tomb_raiders[AVALON] = replace(
        force, entries=tuple(replace(e, out_of_action=2) if e.name == "Spearmen" else e for e in force.entries)
    )
    result = world.run([])

    assert all(e.out_of_action == 0 for e in result.state.tomb_raiders[AVALON].entries)
    (back,) = [e for e in result.events if e.code == EventCode.TOMB_RAIDERS_BACK_IN_ACTION]
    assert back.kingdom == AVALON and "2 models out of action this turn" in back.text


def test_a_successful_raid_by_an_army_too_small_to_claim_keeps_the_treasure_but_not_the_province():
    """Army Restrictions: "Armies less than 1000 points cannot claim provinces": the raid's treasure
    is found, the army goes back (the scouting forces' skirmish reads the same way)."""
    world = RaidScene(raids=1)
    world.armies[HOST] = replace(world.armies[HOST], points=900)
    world.raid(RaidResult.SUCCESS)
    result = world.run([3])

    assert _items(result) == [("War Banner", 0, GENERAL_UNIT, AVALON, False)]
    assert result.state.armies[HOST].province == 2 and result.state.provinces[5].controller is None
    assert EventCode.TOO_SMALL_TO_CLAIM in {e.code for e in result.events}
    (back,) = [e for e in result.events if e.code == EventCode.SKIRMISH_LOST]
    assert back.text == (
        "Avalon's Tomb Raid on the ruins of 5 P5 succeeded: Army 10 may not move into it this turn and stays in "
        "2 P2 (Army Restrictions)."
    )


def test_the_target_s_own_tomb_raiders_recover_from_a_reconnaissance_they_defended():
    """Recovery "after every skirmish": the target of a Reconnaissance whose own Tomb Raiders defended files
    their losses; the killed leave its list and the injured roll, after the spy's (decision 464)."""
    world = RaidScene()
    world.tomb_raiders[BRYTHON] = SAMPLE_HIGH_ELVES
    battle = BattleA(
        id=1,
        province=5,
        attacker=SideA(AVALON, None, raiders=(RaidersLost("Spearmen", injured=1),)),
        defender=SideA(BRYTHON, None, raiders=(RaidersLost("Spearmen", killed=2, injured=1),)),
        outcome=Outcome(attacker=SideOutcome(R.DRAW), defender=SideOutcome(R.DRAW)),
        skirmish=True,
        mission="reconnaissance",
        mission_detail={"desired": "treasury-info", "defender": "raiders"},
    )
    world_state = World(
        turn=4,
        player_count=3,
        provinces=world.provinces,
        adjacency=ADJACENCY,
        kingdoms=world.kingdoms,
        armies=world.armies,
        garrisons=world.garrisons,
    )
    state = AftermathState(world_state, [], {}, tomb_raiders=dict(world.tomb_raiders))
    events: list = []
    dice = ScriptedDice(faces=[3, 1])  # Avalon's injured Spearman recovers; Brython's dies
    raiders_recover(state, dice, events, battle)
    raiders_recover(state, dice, events, battle, battle.defender)

    assert dice.unused == []
    assert state.tomb_raiders[AVALON].entry("Spearmen").models == 5
    assert state.tomb_raiders[BRYTHON].entry("Spearmen").models == 2
    killed = [e for e in events if e.code == EventCode.TOMB_RAIDERS_KILLED]
    assert [(e.kingdom, e.data["killed"]) for e in killed] == [(BRYTHON, {"Spearmen": 2})]
