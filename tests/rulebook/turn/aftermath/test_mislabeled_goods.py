"""Sabotage, Mislabeled goods, in the aftermath of a Tomb Raid (rulebook/turn/aftermath/
mislabeled_goods.py): "Next magic item acquired in the field is delayed an additional d2 turns."
Decisions 450 and 489. No database: the effect is a pending MissionEffect put in the world directly."""

from __future__ import annotations

from kernel.dice import ScriptedDice
from kernel.event_codes import EventCode
from rulebook.ruins_and_tomb_raiders.rival_missions import EffectStatus, MissionEffectState
from rulebook.ruins_and_tomb_raiders.sabotage import Sabotage
from rulebook.ruins_and_tomb_raiders.tomb_raid import RaidResult
from rulebook.turn.aftermath.run import resolve_aftermath
from rulebook.turn.aftermath.state import AftermathState
from rulebook.world import World
from tests.rulebook.turn.aftermath.test_aftermath import ADJACENCY, AVALON, BRYTHON, HOST
from tests.rulebook.turn.aftermath.test_tomb_raids import GENERAL_UNIT, RaidScene

TURN = 4


def run(world: RaidScene, faces: list[int], effects: dict[int, MissionEffectState]):
    lists: dict[int, list] = {}
    for unit in world.units.values():
        lists.setdefault(unit.army, []).append(unit)
    state = AftermathState(
        World(
            turn=TURN,
            player_count=3,
            provinces=world.provinces,
            adjacency=ADJACENCY,
            kingdoms=world.kingdoms,
            armies=world.armies,
            garrisons=world.garrisons,
            units={army: tuple(units) for army, units in lists.items()},
            characters=dict(world.characters),
            items=dict(world.items),
            mission_effects=effects,
        ),
        world.battles,
        world.came_from,
        tomb_raiders=world.tomb_raiders,
        held_items=world.held_items,
    )
    dice = ScriptedDice(faces=faces)
    result = resolve_aftermath(state, dice)
    assert dice.unused == []
    return result


def goods(earned: int = TURN - 1) -> dict[int, MissionEffectState]:
    return {
        7: MissionEffectState(
            id=7, kingdom=BRYTHON, target=AVALON, mission=Sabotage.MISLABELED_GOODS, earned_turn=earned
        )
    }


def test_the_next_item_found_is_on_its_way_d2_turns_later_for_its_bearer():
    """Avalon's raid finds a Staff of Sorcery (a 2 on Treasure from the Ruins); Brython's Mislabeled
    goods delays it: the D2 rolls 2, and instead of Sir Hugh's now it arrives at the beginning of turn
    4 + 1 + 2 = 7, for him (decision 489). Brython is told the delay, not the item."""
    world = RaidScene(raids=1)
    world.raid(RaidResult.SUCCESS)
    result = run(world, [2, 2], goods())

    assert [i for i in result.state.items.values() if i.id < 0] == []
    theirs, ours = [e for e in result.events if e.code == EventCode.SABOTAGE_APPLIED]
    assert theirs.kingdom == AVALON
    assert theirs.text == (
        "Staff of Sorcery, found in the field, was mislabeled: it is delayed 2 turn(s) and arrives at the "
        "beginning of turn 7 (Sabotage: Mislabeled goods)."
    )
    assert theirs.data["delivery"] == {
        "army": HOST,
        "unit": "Sir Hugh",
        "name": "Staff of Sorcery",
        "points": 0,
        "common": False,
        "arrives": 7,
    }
    assert ours.kingdom == BRYTHON and "Staff" not in ours.text and "delayed 2 turn(s)" in ours.text
    assert result.state.world.mission_effects[7].status is EffectStatus.USED


def test_only_the_next_item_is_delayed():
    """The first raid of a ruin finds its treasure and the Scarab Amulet: the first found (the Healing
    Potion) is delayed, the amulet goes to the General now."""
    world = RaidScene()
    world.raid(RaidResult.SUCCESS)
    result = run(world, [6, 3, 1], goods())

    assert [(i.name, i.bearer) for i in result.state.items.values() if i.id < 0] == [("Scarab Amulet", GENERAL_UNIT)]
    assert [e.data["delivery"]["name"] for e in result.events if "delivery" in e.data] == ["Healing Potion"]


def test_an_effect_earned_this_turn_waits():
    world = RaidScene(raids=1)
    world.raid(RaidResult.SUCCESS)
    result = run(world, [2], goods(earned=TURN))

    assert [i.name for i in result.state.items.values() if i.id < 0] == ["Staff of Sorcery"]
    assert result.state.world.mission_effects[7].status is EffectStatus.PENDING
