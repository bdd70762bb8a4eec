"""7. Aftermath of a Reconnaissance or Sabotage skirmish (pure Python, dice scripted): the spy's result on
the charts, the raiders' losses on both sides, a model captured, and what the mission earned (the
information delivered at the aftermath's end, the Theft's gold, a pending effect).
Rulebook: Reconnaissance, Sabotage, Recovery, Maintaining / Changing Tomb Raiders. Rule cases RS1-RS3;
decisions 450-453 and 470-479.

The skirmish's Battle row is built directly as the scheduling helper posts it (a skirmish with mission
"reconnaissance"/"sabotage", no armies, `mission_detail` as sent)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from kernel.dice import ScriptedDice
from kernel.event_codes import EventCode
from rulebook.ruins_and_tomb_raiders.force import SAMPLE_HIGH_ELVES, Role, TombRaiders
from rulebook.ruins_and_tomb_raiders.intelligence import CharacterFacts, LedgerRow, SpiedSources, is_war_machine
from rulebook.ruins_and_tomb_raiders.rival_missions import EffectStatus
from rulebook.ruins_and_tomb_raiders.tomb_raid import RaidResult
from rulebook.turn.aftermath.results import BattleResult as R
from rulebook.turn.aftermath.run import resolve_aftermath
from rulebook.turn.aftermath.sheets import RaidersLost, SideA
from rulebook.turn.aftermath.state import AftermathState
from rulebook.turn.aftermath.tomb_raids import LADDER_OF_RAID
from rulebook.world import CharacterState, ItemState, UnitState, World
from tests.rulebook.turn.aftermath.test_aftermath import ADJACENCY, AVALON, BRYTHON, CARNWYL, HOST, HOST_UNITS, Scene

SPY, TARGET = AVALON, BRYTHON
IRONHOLD = 30  # Brython's army in 7
CAPTAIN = "Tomb Raider Captain (Spear Champion)"
LIEUTENANT = "Lieutenant, Shadow Warrior"
BRYTHON_RAIDERS = TombRaiders(
    SAMPLE_HIGH_ELVES.army_type, tuple(replace(e, name=f"B {e.name}") for e in SAMPLE_HIGH_ELVES.entries)
)


class MissionScene(Scene):
    """Avalon's Tomb Raiders (the rulebook's sample force, 11 models) skirmish in Brython's capitol, 5;
    Brython's Ironhold (Thane Grimm, a cannon, a Runesmith and a Wizard) stands in 7."""

    def __init__(self) -> None:
        super().__init__()
        self.kingdoms[TARGET] = replace(self.kingdoms[TARGET], capitol=5)
        self.province(5, controller=TARGET)
        self.army(IRONHOLD, TARGET, 7, [(301, "Ironbreakers", 10, 15), (302, "Cannon", 2, 100)])
        self.units[303] = UnitState(303, IRONHOLD, "Thane Grimm", "character", 1, 120)
        self.units[304] = UnitState(304, IRONHOLD, "Hedda the Wise", "character", 1, 90)
        self.characters[1] = CharacterState(
            1, TARGET, 303, "Thane Grimm", "general", injuries=({"label": "Old Battle Wound", "turn": 2},),
            abilities=("Stubborn",),
        )  # fmt: skip
        self.characters[2] = CharacterState(2, TARGET, 304, "Hedda the Wise", "hero")
        self.items[7] = ItemState(7, "Rune Axe", 25, 303)
        self.tomb_raiders: dict[int, TombRaiders] = {SPY: SAMPLE_HIGH_ELVES, TARGET: BRYTHON_RAIDERS}
        self.spied = SpiedSources(
            ledger={TARGET: (LedgerRow("taxes", 400), LedgerRow("army-upgraded", -300, "Ironhold +300"))},
            characters={
                1: CharacterFacts(rank="lord", archetype="warrior"),
                2: CharacterFacts(rank="hero", wizard=True, magic_level=2),
            },
        )

    def mission(
        self,
        kind: str,
        desired: str,
        result: RaidResult | None,
        *,
        spy_lost: tuple[RaidersLost, ...] = (),
        target_lost: tuple[RaidersLost, ...] = (),
        defender: str = "guard",
        **detail,
    ) -> None:
        self.battle(
            LADDER_OF_RAID[result] if result else R.MAJOR_LOSS,
            SideA(SPY, None, raiders=spy_lost),
            SideA(TARGET, None, raiders=target_lost),
            skirmish=True,
            mission=kind,
            raid_result=result,
            mission_detail={"desired": desired, "defender": defender, **detail},
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
        state = AftermathState(world, self.battles, self.came_from, tomb_raiders=self.tomb_raiders, spied=self.spied)
        dice = ScriptedDice(faces=faces)
        result = resolve_aftermath(state, dice)
        assert dice.unused == []
        self.rolled = [r.expression for r in dice.rolls]
        return result


def _of(result, code: EventCode, kingdom: int | None = None) -> list:
    return [e for e in result.events if e.code == code and (kingdom is None or e.kingdom == kingdom)]


def test_case_RS1_treasury_info_is_the_spys_alone_with_the_treasury_and_the_turns_spending():
    """Reconnaissance, 2. Treasury Info: "The current funds in the Treasury and the money spent and on what
    this last turn." A success: the spy's INTELLIGENCE event holds the target's treasury at the aftermath's
    end and the turn's spending (decisions 450, 471, 472); the target learns raiders came, nothing more."""
    world = MissionScene()
    world.mission("reconnaissance", "treasury-info", RaidResult.SUCCESS)
    result = world.run([])

    (intel,) = _of(result, EventCode.INTELLIGENCE)
    assert intel.kingdom == SPY
    assert intel.data["mission"] == "treasury-info" and intel.data["target"] == TARGET
    assert intel.data["info"]["treasury"] == 1000
    assert intel.data["info"]["spent"] == [{"reason": "army-upgraded", "amount": 300, "note": "Ironhold +300"}]
    assert "the treasury holds 1,000 gold; spent this turn: 300 on army-upgraded (Ironhold +300)" in intel.text
    # The target's events: that raiders came and how the skirmish went, never the treasury read.
    target_events = [e for e in result.events if e.kingdom == TARGET]
    assert [e.code for e in target_events] == [EventCode.RIVAL_MISSION_REPELLED]
    assert "Avalon's Tomb Raiders came to 5" in target_events[0].text
    assert "treasury" not in target_events[0].text.lower() and "Treasury" not in str(target_events[0].data)
    assert not [e for e in result.events if e.kingdom in (CARNWYL, None)]
    (spy_result,) = _of(result, EventCode.RIVAL_MISSION_RESULT)
    assert spy_result.kingdom == SPY and spy_result.data["earned"] == "treasury-info"


def test_treasury_info_reads_the_treasury_after_this_aftermaths_gold():
    """Decision 471: delivered at the aftermath's end, after a Theft of the same aftermath (a later skirmish
    in province order) has taken its gold: the stolen gold is in the rows and out of the treasury."""
    world = MissionScene()
    world.mission("reconnaissance", "treasury-info", RaidResult.SUCCESS)
    world.mission("sabotage", "theft", RaidResult.SUCCESS)
    result = world.run([6])  # Theft: 250

    (intel,) = _of(result, EventCode.INTELLIGENCE)
    assert intel.data["info"]["treasury"] == 750
    assert intel.data["info"]["spent"][-1]["amount"] == 250 and intel.data["info"]["spent"][-1]["reason"] == "theft"


@pytest.mark.parametrize(
    ("faces", "earned"),
    [
        ([1], None),
        ([3], None),
        ([4, 2], "army-statistics"),  # the six others in list order: 2 is Army Statistics (decision 451)
        ([5, 1], "character-bio"),
        ([6], "treasury-info"),  # Hasty withdraw: the desired after all
    ],
)
def test_case_RS2_a_draw_gives_nothing_another_mission_or_the_desired(faces, earned):
    """Reconnaissance, a draw: "1-3: No info is gained; 4-5: Some info is gained, roll on the chart above
    with a d6, skipping the desired mission; 6: Hasty withdraw ... the information desired is grabbed"."""
    world = MissionScene()
    world.mission("reconnaissance", "treasury-info", RaidResult.DRAW)
    result = world.run(faces)

    (spy_result,) = _of(result, EventCode.RIVAL_MISSION_RESULT)
    assert spy_result.data["earned"] == (earned or "")
    assert spy_result.data["draw_face"] == faces[0]
    intel = _of(result, EventCode.INTELLIGENCE)
    assert [e.data["mission"] for e in intel] == ([earned] if earned else [])
    if earned == "army-statistics":
        # Reached by the draw, it names no army: the target's army of most points (decision 475), no
        # characters in its list.
        info = intel[0].data["info"]
        assert (info["army"], info["province"]) == (IRONHOLD, 7)
        assert [u["name"] for u in info["units"]] == ["Ironbreakers", "Cannon"]
    if earned == "character-bio":
        assert intel[0].data["info"]["name"] == "Thane Grimm"  # no Warlord: the lowest id


def test_case_RS2_a_failure_with_a_1_or_2_captures_a_random_raider_after_the_losses():
    """ "If the Recon is a failure, record the effects of the game on your Tomb Raiders. In addition roll
    on the chart: 1-2: One random model is captured". Two Spearmen killed: 9 models left; a D9 of 5 counts
    along the list (Captain, Lieutenant, musician, three Spearmen): the fifth is a Spearman (decision 452).
    The captive is held by the target (decision 453), both kingdoms are told."""
    world = MissionScene()
    world.mission("reconnaissance", "treasury-info", RaidResult.FAILURE, spy_lost=(RaidersLost("Spearmen", 2),))
    result = world.run([2, 5])

    force = result.state.tomb_raiders[SPY]
    assert force.entry("Spearmen").models == 2  # 5 - 2 killed - 1 captured
    (captive,) = result.state.world.captives.values()
    assert (captive.id, captive.captor, captive.owner, captive.entry, captive.captured_turn) == (
        -1, TARGET, SPY, "Spearmen", 4,
    )  # fmt: skip
    assert captive.record["models"] == 1 and captive.record["points_per_model"] == 11
    assert {e.kingdom for e in _of(result, EventCode.RAIDER_CAPTURED)} == {SPY, TARGET}
    assert not _of(result, EventCode.INTELLIGENCE)


def test_case_RS2_a_failure_with_a_3_to_6_costs_nothing_more():
    world = MissionScene()
    world.mission("sabotage", "theft", RaidResult.FAILURE)
    result = world.run([3])

    assert result.state.tomb_raiders[SPY] == SAMPLE_HIGH_ELVES
    assert not result.state.world.captives and not _of(result, EventCode.THEFT)
    assert result.state.kingdoms[TARGET].treasury == 1000


def test_no_result_filed_reads_as_a_failure():
    """Decision 470: a skirmish with no result for the spy is no success: the failure chart is rolled."""
    world = MissionScene()
    world.mission("reconnaissance", "treasury-info", None)
    result = world.run([4])

    (spy_result,) = _of(result, EventCode.RIVAL_MISSION_RESULT)
    assert (spy_result.data["result"], spy_result.data["capture_face"]) == ("failure", 4)


def test_a_captured_captain_is_replaced_by_his_lieutenant():
    """Decision 477: a captured Captain is lost to the force as a dead one is: the Lieutenant is promoted
    (Maintaining / Changing Tomb Raiders)."""
    world = MissionScene()
    world.mission("sabotage", "misdirection", RaidResult.FAILURE)
    result = world.run([1, 1])  # captured; D11: the first model, the Captain

    force = result.state.tomb_raiders[SPY]
    assert force.entry(CAPTAIN) is None
    assert force.captain is not None and force.captain.name == LIEUTENANT and force.captain.role is Role.CAPTAIN
    assert _of(result, EventCode.TOMB_RAIDERS_PROMOTED, SPY)


def test_the_targets_own_raiders_that_defended_record_their_losses():
    """ "the player may use his own Tomb Raiders to defend": their losses are filed on the target's sheet
    and leave its list, its injured roll on the Recovery chart, as the spy's do."""
    world = MissionScene()
    world.mission(
        "reconnaissance",
        "artillery-info",
        RaidResult.SUCCESS,
        spy_lost=(RaidersLost("Spearmen", 0, 1),),
        target_lost=(RaidersLost("B Spearmen", 2),),
        defender="raiders",
    )
    result = world.run([1])  # the spy's injured Spearman: 1, dead

    assert result.state.tomb_raiders[SPY].entry("Spearmen").models == 4
    assert result.state.tomb_raiders[TARGET].entry("B Spearmen").models == 3


def test_case_RS3_theft_with_a_3_moves_200_gold_in_both_ledgers():
    """Sabotage, 1. Theft: "Steal money from your rival's treasury: 1-2: 150 gold, 3-4: 200 gold, 5-6: 250
    gold." A 3: 200 gold out of Brython's treasury, into Avalon's, a THEFT row in each ledger."""
    world = MissionScene()
    world.mission("sabotage", "theft", RaidResult.SUCCESS)
    result = world.run([3])

    assert result.state.kingdoms[TARGET].treasury == 800
    assert result.state.kingdoms[SPY].treasury == 1200
    rows = sorted((e.kingdom, e.gold, e.ledger_reason) for e in _of(result, EventCode.THEFT))
    assert rows == [(SPY, 200, "theft"), (TARGET, -200, "theft")]
    assert not result.state.world.mission_effects


def test_theft_takes_no_more_than_the_target_holds():
    """Decision 476: a treasury of 120 gives 120 of a 250 rolled."""
    world = MissionScene()
    world.kingdoms[TARGET] = replace(world.kingdoms[TARGET], treasury=120)
    world.mission("sabotage", "theft", RaidResult.SUCCESS)
    result = world.run([5])

    assert (result.state.kingdoms[TARGET].treasury, result.state.kingdoms[SPY].treasury) == (0, 1120)
    assert sorted(e.gold for e in _of(result, EventCode.THEFT)) == [-120, 120]


@pytest.mark.parametrize(
    ("kind", "mission", "expires"),
    [
        ("sabotage", "destroy-communication", 6),  # usable on the sheets of turns 5 and 6
        ("sabotage", "misdirection", None),
        ("sabotage", "poison-well", None),
        ("sabotage", "sappers", None),
        ("reconnaissance", "army-orders", None),
        ("reconnaissance", "army-construction-info", None),
    ],
)
def test_every_other_mission_earned_is_kept_pending(kind, mission, expires):
    """Decision 450: what comes later is a pending effect of the spy's against the target, with the army the
    sheet named; Destroy Communication "must be used within 2 turns after success"."""
    world = MissionScene()
    world.mission(kind, mission, RaidResult.SUCCESS, target_army=IRONHOLD)
    result = world.run([])

    (effect,) = result.state.world.mission_effects.values()
    assert (effect.id, effect.kingdom, effect.target, effect.mission, effect.earned_turn) == (
        -1, SPY, TARGET, mission, 4,
    )  # fmt: skip
    assert (effect.status, effect.expires_turn, effect.target_army) == (EffectStatus.PENDING, expires, IRONHOLD)
    (spy_result,) = _of(result, EventCode.RIVAL_MISSION_RESULT)
    assert "pending" in spy_result.text
    assert not _of(result, EventCode.INTELLIGENCE)


def test_character_bio_artillery_and_magic_college_read_the_targets_state():
    world = MissionScene()
    world.mission("reconnaissance", "character-bio", RaidResult.SUCCESS, target_character=1)
    world.mission("reconnaissance", "artillery-info", RaidResult.SUCCESS)
    world.mission("reconnaissance", "magic-college-raid", RaidResult.SUCCESS)
    result = world.run([])

    bio, artillery, mages = (e.data["info"] for e in _of(result, EventCode.INTELLIGENCE))
    assert (bio["name"], bio["archetype"], bio["items"], bio["abilities"]) == (
        "Thane Grimm", "warrior", ["Rune Axe"], ["Stubborn"],
    )  # fmt: skip
    assert bio["injuries"][0]["label"] == "Old Battle Wound" and bio["where"]["province"] == 7
    # The machines' type, number and location; never their points or upgrades.
    assert [(m["type"], m["number"], m["army"], m["province"]) for m in artillery["machines"]] == [
        ("Cannon", 2, IRONHOLD, 7)
    ]
    assert artillery["total"] == 2 and "points" not in artillery["machines"][0]
    assert mages["count"] == 1 and mages["mages"][0]["name"] == "Hedda the Wise" and mages["mages"][0]["level"] == 2


def test_war_machines_are_named_by_their_units():
    """Decision 473: the list does not mark war machines; the unit's name does."""
    marked = [
        n
        for n in ("Great Cannon", "Bolt Thrower", "Goblin Rock Lobber", "Spearmen", "Knights", "Stone Thrower")
        if is_war_machine(UnitState(1, 1, n, "rare", 1, 100))
    ]
    assert marked == ["Great Cannon", "Bolt Thrower", "Goblin Rock Lobber", "Stone Thrower"]


def test_a_character_or_army_no_longer_the_targets_is_reported_not_found():
    """Decision 475: the sheet named a character who is gone (dead, or his army with him) or an army that is
    not the target's: the spy learns it is no longer on the map, nothing of anyone else's."""
    world = MissionScene()
    world.army(40, CARNWYL, 9, [(401, "Night Goblins", 20, 3)])
    world.mission("reconnaissance", "character-bio", RaidResult.SUCCESS, target_character=99)
    world.mission("reconnaissance", "army-statistics", RaidResult.SUCCESS, target_army=40)
    result = world.run([])

    bio, army = (e.data["info"] for e in _of(result, EventCode.INTELLIGENCE))
    assert bio == {"found": False} and army == {"found": False}
    assert "no longer on the map" in _of(result, EventCode.INTELLIGENCE)[1].text


def test_the_injured_are_not_there_to_be_captured():
    """Decision 452: the random model is one of those left after the losses as filed: the Archer removed as
    injured is not among them though the Recovery (a 4) puts him back: a D10 over the other ten models."""
    world = MissionScene()
    world.mission("sabotage", "theft", RaidResult.FAILURE, spy_lost=(RaidersLost("Archers with Light Armor", 0, 1),))
    dice_faces = [4, 2, 10]  # the Archer's Recovery, the failure chart, the D10: the tenth model, an Archer
    result = world.run(dice_faces)

    (captive,) = result.state.world.captives.values()
    assert captive.entry == "Archers with Light Armor"
    assert result.state.tomb_raiders[SPY].entry("Archers with Light Armor").models == 2
    assert _of(result, EventCode.TOMB_RAIDERS_RECOVERY)  # the injured Archer rolled, and is back
    assert world.rolled[-1] == "D10"


def test_a_model_out_of_action_this_turn_stayed_home_and_is_not_there_to_be_captured():
    """Recovery, "2: Out of action for one turn": the Lieutenant missed this turn's Reconnaissance (decision
    432), so the failure chart's "One random model is captured" cannot take him: a D10 over the ten models
    that went, the second of them the musician (decision 452), not the D11 over the whole list. He is back
    for the next turn's mission."""
    world = MissionScene()
    entries = tuple(replace(e, out_of_action=1) if e.name == LIEUTENANT else e for e in SAMPLE_HIGH_ELVES.entries)
    world.tomb_raiders[SPY] = TombRaiders(SAMPLE_HIGH_ELVES.army_type, entries)
    world.mission("reconnaissance", "treasury-info", RaidResult.FAILURE)
    result = world.run([1, 2])  # the failure chart's 1 (a capture), then the D10's 2

    assert world.rolled[-1] == "D10"
    (captive,) = result.state.world.captives.values()
    assert captive.entry != LIEUTENANT
    assert captive.entry == SAMPLE_HIGH_ELVES.entries[2].name  # the Captain, then the musician
    force = result.state.tomb_raiders[SPY]
    assert force.entry(LIEUTENANT).models == 1 and force.entry(LIEUTENANT).out_of_action == 0


def test_a_spy_s_story_gives_its_experience_to_the_army_it_names() -> None:
    """Stories Are Nice: "Battle reports from a Tomb Raiders' prospective also count. Players can apply those
    bonus Experience Points to any of their armies." A Reconnaissance or Sabotage goes without an army: the
    story's 3 go to the army the spy names on its sheet, and to none when it names none (decision 444)."""
    scene = MissionScene()
    scene.army(HOST, SPY, 2, HOST_UNITS)
    scene.battle(
        LADDER_OF_RAID[RaidResult.FAILURE],
        SideA(SPY, None, story=True, story_army=HOST),
        SideA(TARGET, None),
        skirmish=True,
        mission="sabotage",
        raid_result=RaidResult.FAILURE,
        mission_detail={"desired": "theft", "defender": "guard"},
    )
    result = scene.run([4])  # the failure chart's 4: nothing more
    (story,) = _of(result, EventCode.STORY, SPY)
    assert (story.army, story.experience) == (HOST, 3)

    unnamed = MissionScene()
    unnamed.army(HOST, SPY, 2, HOST_UNITS)
    unnamed.battle(
        LADDER_OF_RAID[RaidResult.FAILURE],
        SideA(SPY, None, story=True),
        SideA(TARGET, None),
        skirmish=True,
        mission="sabotage",
        raid_result=RaidResult.FAILURE,
        mission_detail={"desired": "theft", "defender": "guard"},
    )
    assert _of(unnamed.run([4]), EventCode.STORY) == []


def test_army_statistics_of_an_army_whose_list_is_due_tells_its_points_and_awaits_its_list():
    """Reconnaissance, 3. Army Statistics: "The Location and Army list (no character info) of any one army."
    Ironhold was upgraded and its new list is not entered: the spy learns where it stands and its points at
    the aftermath's end, and an effect is kept pending, naming the army, for its list once written
    (decision 562; delivered by rulebook.turn.army_lists_spied)."""
    world = MissionScene()
    world.armies[IRONHOLD] = replace(world.armies[IRONHOLD], list_due=True, points=1500, size=1500)
    world.mission("reconnaissance", "army-statistics", RaidResult.SUCCESS, target_army=IRONHOLD)
    result = world.run([])

    (intelligence,) = _of(result, EventCode.INTELLIGENCE)
    info = intelligence.data["info"]
    assert (intelligence.kingdom, info["list_due"], info["points"], info["units"]) == (SPY, True, 1500, [])
    assert "it reaches you at the first resolution after it is written" in intelligence.text
    (kept,) = result.state.world.mission_effects.values()
    assert (kept.kingdom, kept.target, kept.mission, kept.target_army) == (SPY, TARGET, "army-statistics", IRONHOLD)
    assert (kept.status, kept.earned_turn, kept.data["list_awaited"], kept.data["since_turn"]) == (
        EffectStatus.PENDING, 4, True, 4,
    )  # fmt: skip


def test_army_statistics_of_a_written_list_is_delivered_at_once_and_nothing_is_kept():
    """Decision 479: the list entered, Army Statistics gives it at the aftermath's end, no effect kept."""
    world = MissionScene()
    world.mission("reconnaissance", "army-statistics", RaidResult.SUCCESS, target_army=IRONHOLD)
    result = world.run([])

    (intelligence,) = _of(result, EventCode.INTELLIGENCE)
    assert [u["name"] for u in intelligence.data["info"]["units"]] == ["Ironbreakers", "Cannon"]
    assert result.state.world.mission_effects == {}
