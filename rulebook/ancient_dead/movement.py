"""The Ancient Dead's orders, computed by the engine (The Ancient Dead: Movement). Pure Python.

"Each army moves into a province each turn, radiating out from the pyramid in a circular pattern.
Once all the provinces surrounding the pyramid are turned to Deserts, the armies will move into an
adjacent non-Desert province and continue to turn the non-Desert provinces around the pyramid into
Deserts." They never Forced March, and attack whoever occupies the province they enter.

The circular pattern, made a deterministic choice (rules decision 104): the provinces still to be
turned are taken ring by ring (the ring is a province's number of steps from the pyramid). Every
pair of an army and a province it can reach through the desert is ordered by the province's ring,
then the army's steps to it, then clockwise from north around the pyramid, then number and army
id; going down that order each army takes the first province no other army of theirs stands in
or has taken, and moves one province towards it (through the desert, whose provinces are theirs).
An army standing in a province that is not yet desert holds: the Liche Priests recite there until
it is desert (rules decision 105). An army risen this turn holds (it cannot move the turn it is
created). No dice: the same state gives the same orders.
"""

from __future__ import annotations

import math

from rulebook.ancient_dead.armies import (
    ancient_dead_armies,
    ancient_dead_kingdom,
    ancient_dead_pyramid,
    distances,
    is_desert,
    returned_to_the_tomb,
)
from rulebook.turn.write_orders.records import ArmyOrder, OrderKind
from rulebook.world import ArmyState, World


def clockwise_from_north(world: World, pyramid: int, number: int) -> float:
    """The angle of province `number` around the pyramid, clockwise from north (rows grow
    southwards), in [0, 2 pi); provinces without coordinates all read 0 (their number decides)."""
    centre, province = world.provinces[pyramid], world.provinces[number]
    dx, dy = province.col - centre.col, province.row - centre.row
    if dx == 0 and dy == 0:
        return 0.0
    return math.atan2(dx, -dy) % (2 * math.pi)


def ancient_dead_orders(world: World) -> tuple[ArmyOrder, ...]:
    """The Ancient Dead's orders for `world.turn`, one per field army (rules decision 104); none once
    they have returned to the tomb, or when the campaign has no Ancient Dead."""
    kingdom = ancient_dead_kingdom(world)
    if kingdom is None or returned_to_the_tomb(world, kingdom):
        return ()
    pyramid = ancient_dead_pyramid(world, kingdom)
    assert pyramid is not None
    ring = distances(world.adjacency, pyramid)
    desert = frozenset(n for n in world.provinces if is_desert(world, n))
    armies = ancient_dead_armies(world, kingdom.id)
    # An army risen this turn cannot move; one standing in land not yet desert recites there.
    movers = [a for a in armies if not (a.created_turn >= world.turn > 0) and a.province in desert]
    reach = {a.id: distances(world.adjacency, a.province, through=desert) for a in movers}
    taken = {a.province for a in armies if a.province not in desert}
    # Every (province, army) pair in the circular order: the nearest ring, the fewest steps, then
    # clockwise from north; each province goes to one army, each army makes for one province.
    pairs = sorted(
        (ring[n], steps, clockwise_from_north(world, pyramid, n), n, army)
        for army, around in reach.items()
        for n, steps in around.items()
        if n not in desert and n in ring
    )
    aims: dict[int, int] = {}
    for _ring, _steps, _angle, number, army in pairs:
        if army not in aims and number not in taken:
            aims[army] = number
            taken.add(number)
    return tuple(_order(world, a, aims.get(a.id), desert) for a in armies)


def _order(world: World, army: ArmyState, aim: int | None, desert: frozenset[int]) -> ArmyOrder:
    """One province a turn towards `aim` through the desert (holds without one)."""
    if aim is None:
        return ArmyOrder(army.id, OrderKind.HOLD)
    if world.adjacent(army.province, aim):
        return ArmyOrder(army.id, OrderKind.MOVE, target=aim)
    back = distances(world.adjacency, aim, through=desert | {aim})
    steps = [n for n in sorted(world.adjacency.get(army.province, frozenset())) if n in desert and n in back]
    if not steps:
        return ArmyOrder(army.id, OrderKind.HOLD)
    return ArmyOrder(army.id, OrderKind.MOVE, target=min(steps, key=lambda n: (back[n], n)))
