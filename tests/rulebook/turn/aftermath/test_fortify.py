"""Fortify in the aftermath (rulebook/turn/aftermath/run.py): "All Fortification bonuses are lost when
the Fortified army moves away and / or when the control of the province changes." A Fortified army
that loses and retreats, or is wiped out, loses them; one that wins keeps them. No database."""

from __future__ import annotations

from dataclasses import replace

from rulebook.turn.aftermath.results import BattleResult as R
from tests.rulebook.turn.aftermath.test_aftermath import AVALON, BRYTHON, GUARD, Scene, field_battle


def fortified_guard(result: R) -> Scene:
    """Brython's Guard fortified 5, its own province; Avalon's Host attacks it there."""
    world = Scene()
    field_battle(world, result)
    world.province(5, controller=BRYTHON, fortified=True)
    world.armies[GUARD] = replace(world.armies[GUARD], fortified_in=5)
    return world


def test_a_fortified_army_that_loses_and_retreats_loses_its_fortifications():
    result = fortified_guard(R.MINOR_VICTORY).run([])
    state = result.state
    assert state.armies[GUARD].province != 5 and state.armies[GUARD].fortified_in is None
    assert (state.provinces[5].controller, state.provinces[5].fortified) == (AVALON, False)
    assert [e.text for e in result.events if e.code == "fortification-lost"] == [
        "The fortifications of 5 P5 are lost: Army 20 moved away (Fortify)."
    ]
    assert state.world.fortifier(5) is None


def test_a_fortified_army_that_wins_keeps_its_fortifications():
    result = fortified_guard(R.MINOR_LOSS).run([])
    assert result.state.provinces[5].fortified and result.state.world.fortifier(5) == result.state.armies[GUARD]
    assert not any(e.code == "fortification-lost" for e in result.events)
