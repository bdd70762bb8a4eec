"""The Ancient Dead's orders, computed by the engine (The Ancient Dead: Movement). Pure Python.

"Each army moves into a province each turn, radiating out from the pyramid in a circular pattern.
Once all the provinces surrounding the pyramid are turned to Deserts, the armies will move into an
adjacent non-Desert province and continue to turn the non-Desert provinces around the pyramid into
Deserts." They never Forced March, and attack whoever occupies the province they enter.

The circular pattern, made a deterministic choice (rules decision 104): the provinces still to be
turned are taken ring by ring (the ring is a province's number of steps from the pyramid), and
within the nearest ring clockwise from north around the pyramid. Each army in turn (by id) takes
the first province of that order it can reach through the desert, nearest to it first, that no
other army of theirs stands in or has taken this turn, and moves one province towards it (through
the desert, whose provinces are theirs). An army standing in a province that is not yet desert
holds: the Liche Priests recite there until it is desert (rules decision 105). An army risen this
turn holds (it cannot move the turn it is created). No dice: the same state gives the same orders.
"""

from __future__ import annotations

import math

from kingdoms.rules.ancient_dead import (
    ancient_dead_armies,
    ancient_dead_kingdom,
    ancient_dead_pyramid,
    distances,
    is_desert,
    returned_to_the_tomb,
)
from kingdoms.rules.world import ArmyState, World

from .sheets import ArmyOrder, OrderKind


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
    taken = {a.province for a in armies if not is_desert(world, a.province)}
    orders: list[ArmyOrder] = []
    for army in armies:
        order, aim = _order(world, army, pyramid, ring, desert, taken)
        if aim is not None:
            taken.add(aim)
        orders.append(order)
    return tuple(orders)


def _order(
    world: World, army: ArmyState, pyramid: int, ring: dict[int, int], desert: frozenset[int], taken: set[int]
) -> tuple[ArmyOrder, int | None]:
    """The army's order, and the province it makes for (None: it holds)."""
    hold = ArmyOrder(army.id, OrderKind.HOLD)
    if army.created_turn >= world.turn > 0 or army.province not in desert:
        return hold, None  # risen this turn; or reciting where it stands
    reach = distances(world.adjacency, army.province, through=desert)
    candidates = [n for n in reach if n not in desert and n not in taken and n in ring]
    if not candidates:
        return hold, None
    target = min(
        candidates,
        key=lambda n: (ring[n], reach[n], clockwise_from_north(world, pyramid, n), n),
    )
    if world.adjacent(army.province, target):
        return ArmyOrder(army.id, OrderKind.MOVE, target=target), target
    # One province a turn towards it, through the desert: the neighbour nearest the target.
    back = distances(world.adjacency, target, through=desert | {target})
    steps = [n for n in sorted(world.adjacency.get(army.province, frozenset())) if n in desert and n in back]
    if not steps:
        return hold, None
    return ArmyOrder(army.id, OrderKind.MOVE, target=min(steps, key=lambda n: (back[n], n))), target
