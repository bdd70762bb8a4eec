"""The sanity check run after each phase of the turn (issue 17, "Safeguards around each turn"): what
no rule of the rulebook can produce, so a phase whose result shows it is rolled back instead of
reported. Pure: it reads a world state and says what is wrong, in words for the organizer."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Collection

from rulebook.world import World


def world_problems(
    world: World,
    *,
    battle_provinces: frozenset[int] = frozenset(),
    ended_after_the_battles: Collection[frozenset[int]] = (),
) -> list[str]:
    """What is impossible in `world`: a treasury below zero (Treasury: a kingdom never spends gold it
    does not have), an army on no province of the map, and armies of two unallied kingdoms in one
    province with no battle of the turn between them (Occupied Province; Battles: two unallied
    armies in one province fight; Allies never fight each other). `battle_provinces` are the
    provinces where the turn's battles stand, waiting to be fought (after the orders phase); after
    the aftermath there are none. `ended_after_the_battles`: the pairs of kingdoms whose alliance
    the aftermath just ended (`ENDED_AFTER_THE_BATTLES`): their armies may still stand together, to
    fight in the next turn's battles if neither moves out (decision 570)."""
    problems = [
        f"{kingdom.name}'s treasury is {kingdom.treasury} gold, below zero."
        for kingdom in sorted(world.kingdoms.values(), key=lambda k: k.id)
        if kingdom.treasury < 0
    ]
    kingdoms_in: dict[int, set[int]] = defaultdict(set)
    for army in sorted(world.armies.values(), key=lambda a: a.id):
        if army.province not in world.provinces:
            problems.append(f"{army.name} stands in province {army.province}, which is not on the map.")
            continue
        kingdoms_in[army.province].add(army.kingdom)
    for number in sorted(kingdoms_in):
        sides = sorted(kingdoms_in[number])
        unallied = any(
            not world.allied(a, b) and frozenset((a, b)) not in ended_after_the_battles
            for i, a in enumerate(sides)
            for b in sides[i + 1 :]
        )
        if unallied and number not in battle_provinces:
            names = " and ".join(sorted(world.kingdoms[k].name for k in kingdoms_in[number] if k in world.kingdoms))
            problems.append(
                f"Armies of {names} stand in {number} {world.provinces[number].name} with no battle between them."
            )
    return problems
