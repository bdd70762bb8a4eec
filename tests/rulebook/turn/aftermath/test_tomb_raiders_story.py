"""Stories Are Nice for the Tomb Raiders (issue 31): "Battle reports from a Tomb Raiders' prospective
also count. Players can apply those bonus Experience Points to any of their armies." The skirmish's
army earns nothing of its own (decision 231); its story earns the turn's 3, to the army the player
names, any of the kingdom's, else the skirmish's army (decision 444). Once a turn, as every story."""

from __future__ import annotations

from dataclasses import replace

import pytest

from kernel.event_codes import EventCode
from rulebook.turn.aftermath.results import BattleResult as R
from rulebook.turn.aftermath.sheets import BattleA, SideA
from tests.rulebook.turn.aftermath.test_aftermath import AVALON, BRYTHON, CARNWYL, HOST, HOST_UNITS, Scene, outcome

RESERVE = 30  # another of Avalon's armies, far from the ruin


def _raid(*, story: bool = True, story_army: int | None = None, result: R = R.MINOR_VICTORY) -> Scene:
    """Avalon's Host waits on its Tomb Raiders' skirmish in 5 (from 2); Avalon's Reserve stands in 8."""
    world = Scene()
    world.kingdoms[BRYTHON] = replace(world.kingdoms[BRYTHON], rogue=True)
    world.province(5, controller=BRYTHON)
    world.army(HOST, AVALON, 5, HOST_UNITS, came_from=2, experience=0)
    world.army(RESERVE, AVALON, 8, [(301, "Spearmen", 40, 10)], experience=10)
    world.battle(result, SideA(AVALON, HOST, story=story, story_army=story_army), SideA(BRYTHON, None), skirmish=True)
    return world


def _story_events(result):  # type: ignore[no-untyped-def]
    return [e for e in result.events if e.code == EventCode.STORY]


@pytest.mark.parametrize("result", [R.MINOR_VICTORY, R.MINOR_LOSS])
def test_a_tomb_raiders_story_gives_3_to_the_army_the_player_names(result):
    """Won or lost, the story counts: the 3 go to the Reserve, named on the sheet, not the Host."""
    done = _raid(story_army=RESERVE, result=result).run([])
    assert (done.state.armies[RESERVE].experience, done.state.armies[HOST].experience) == (13, 0)
    (event,) = _story_events(done)
    assert event.army == RESERVE and "story of the Tomb Raiders' skirmish in 5 P5 (Stories Are Nice)" in event.text


def test_without_a_name_the_skirmish_s_army_takes_it_and_without_a_story_nobody():
    done = _raid().run([])
    assert done.state.armies[HOST].experience == 3 and len(_story_events(done)) == 1
    silent = _raid(story=False).run([])
    assert silent.state.armies[HOST].experience == 0 and _story_events(silent) == []


def test_once_a_turn_a_battle_s_story_chosen_instead_leaves_the_raid_s_without():
    """The player wrote of a battle in 7 too and gives the bonus there: the raid's story earns nothing."""
    world = _raid(story_army=RESERVE)
    world.army(40, AVALON, 7, [(401, "Swordsmen", 40, 10)], came_from=4, experience=0)
    world.army(50, CARNWYL, 7, [(501, "Boyz", 40, 10)])
    world.battles.append(
        BattleA(
            id=2,
            province=7,
            attacker=SideA(AVALON, 40, story=True, story_bonus=True),
            defender=SideA(CARNWYL, 50),
            outcome=outcome(R.MINOR_VICTORY),
        )
    )
    done = world.run([])
    (event,) = _story_events(done)
    assert event.army == 40
    assert done.state.armies[RESERVE].experience == 10


def test_a_skirmish_s_army_wiped_out_takes_no_story_bonus():
    """Experience Points, 7. Aftermath (decision 557): the Host loses its skirmish and may not move in;
    every province around 5 is held (the Reserve in 8), so it is wiped out: no army is left to take the
    story's 3, and none is credited to it."""
    world = _raid(result=R.MINOR_LOSS)
    for n, army_id in zip([1, 2, 3, 4, 6, 7, 9], range(60, 67), strict=True):
        world.army(army_id, CARNWYL, n, [])
    done = world.run([])
    assert done.state.armies[HOST].disbanded and done.state.armies[HOST].experience == 0
    assert _story_events(done) == [] and done.state.armies[RESERVE].experience == 10
