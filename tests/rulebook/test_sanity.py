"""The sanity check after each phase (rulebook/sanity.py; issue 17): what no rule can produce."""

from __future__ import annotations

from dataclasses import replace

from rulebook.allies.chart import AllianceState, TrustLevel
from rulebook.sanity import world_problems
from tests.world_builders import army, kingdom, province, world


def _world(*armies, treasuries=(500, 500)):
    return world(
        provinces=[province(1), province(2), province(3)],
        kingdoms=[kingdom(10, "Ostland", treasury=treasuries[0]), kingdom(20, "Red Fang", treasury=treasuries[1])],
        armies=armies,
    )


def test_a_sound_world_has_no_problem() -> None:
    assert world_problems(_world(army(1, 10, 1), army(2, 20, 2))) == []


def test_a_treasury_below_zero_is_a_problem() -> None:
    """Treasury: a kingdom never spends gold it does not have."""
    assert world_problems(_world(treasuries=(500, -1))) == ["Red Fang's treasury is -1 gold, below zero."]


def test_two_kingdoms_in_one_province_only_where_a_battle_waits() -> None:
    """Battles: two unallied armies in one province fight; after the orders phase their battle is
    posted there, after the aftermath they no longer share it."""
    sharing = _world(army(1, 10, 3), army(2, 20, 3))

    assert world_problems(sharing) == ["Armies of Ostland and Red Fang stand in 3 P3 with no battle between them."]
    assert world_problems(sharing, battle_provinces=frozenset({3})) == []


def test_allies_may_share_a_province() -> None:
    """Allies: allied armies never fight each other when they meet."""
    sharing = _world(army(1, 10, 3), army(2, 20, 3))
    alliance = AllianceState(id=1, first=10, second=20, trust=TrustLevel.TRUSTED, formed_turn=1)
    allied = replace(sharing, alliances={1: alliance})

    assert world_problems(allied) == []


def test_a_kingdom_s_own_armies_may_share_a_province() -> None:
    """Forced March: a failed march co-occupies a friendly army's province."""
    assert world_problems(_world(army(1, 10, 1), army(2, 10, 1, co_occupying=True))) == []


def test_an_army_off_the_map_is_a_problem() -> None:
    assert world_problems(_world(army(1, 10, 9, name="Lost Host"))) == [
        "Lost Host stands in province 9, which is not on the map."
    ]


def test_armies_of_an_alliance_the_aftermath_ended_may_still_share_a_province() -> None:
    """Allies, Announcement: "During the next Campaign Turn, the rules for allies cease to apply" (decision
    570): after the aftermath that ended their alliance, the two kingdoms' armies may stand together until
    the next turn's orders; any other unallied pair may not."""
    sharing = _world(army(1, 10, 3), army(2, 20, 3))

    assert world_problems(sharing, ended_after_the_battles={frozenset({10, 20})}) == []
    assert world_problems(sharing, ended_after_the_battles={frozenset({10, 30})}) == [
        "Armies of Ostland and Red Fang stand in 3 P3 with no battle between them."
    ]
