"""The Ancient Dead's own rules that belong to the world (pure Python, no Django): their Army Table,
where they stand and whether they still advance (The Ancient Dead: Setup, Armies, Return to the Tomb).

The orders they are given each turn are computed by rulebook.ancient_dead.movement; the desert's spreading
and their risings are steps of the turn's resolution (rulebook.ancient_dead.turn_steps).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Mapping

from kernel.dice import Dice
from kernel.event_codes import EventCode
from kernel.events import Event
from rulebook.tables import STARTING_ARMY_POINTS, Terrain
from rulebook.world import ArmyState, KingdomState, World

# The Ancient Dead: Armies, Army Table: "# of Players -> # of Armies (Rounded down)": one additional
# army (beyond the starting army) for every this many provinces they hold; 5 players or more: 3.
ANCIENT_DEAD_ARMY_TABLE: dict[int, int] = {2: 6, 3: 5, 4: 4, 5: 3}
ANCIENT_DEAD_STARTING_ARMIES = 1  # Setup: "The starting army begins in the capitol."
RUINS_GARRISON_POINTS = 150  # Deserts: a settlement turned desert is ruins with a 150-point garrison


def provinces_per_army(player_count: int) -> int:
    """The Army Table's row for `player_count` players: one additional army for every this many
    provinces. Fewer than two players read the two-player row; five or more the 5+ row."""
    return ANCIENT_DEAD_ARMY_TABLE[min(max(player_count, 2), 5)]


def ancient_dead_army_count(*, player_count: int, provinces_held: int) -> int:
    """The Army Table: how many (field) armies the Ancient Dead may have: their starting army, plus
    one for every `provinces_per_army` provinces they hold, rounded down (rules decision 100)."""
    return ANCIENT_DEAD_STARTING_ARMIES + provinces_held // provinces_per_army(player_count)


def ancient_dead_kingdom(world: World) -> KingdomState | None:
    return next((k for k in sorted(world.kingdoms.values(), key=lambda k: k.id) if k.ancient_dead), None)


def ancient_dead_armies(world: World, kingdom: int) -> list[ArmyState]:
    """Their field armies on the map, by id (the Capitol Garrison is a garrison, not among them)."""
    return sorted((a for a in world.armies.values() if a.kingdom == kingdom and not a.disbanded), key=lambda a: a.id)


def ancient_dead_pyramid(world: World, kingdom: KingdomState) -> int | None:
    """The pyramid, their capitol (the map's pyramid when the capitol is not recorded)."""
    if kingdom.capitol is not None:
        return kingdom.capitol
    return next((p.number for p in sorted(world.provinces.values(), key=lambda p: p.number) if p.pyramid), None)


def returned_to_the_tomb(world: World, kingdom: KingdomState) -> bool:
    """Return to the Tomb: "the Ancient Dead capitol must be destroyed and the Warlord laid to
    permanent rest". Their Warlord must remain with the Capitol's garrison, so the capitol taken by
    another kingdom (the garrison and the Warlord with it beaten) halts them (rules decision 108)."""
    pyramid = ancient_dead_pyramid(world, kingdom)
    if pyramid is None:
        return True
    return world.provinces[pyramid].controller != kingdom.id


def distances(
    adjacency: Mapping[int, frozenset[int]], start: int, through: frozenset[int] | None = None
) -> dict[int, int]:
    """Steps from `start` to every province it reaches over the map's borders. With `through`, a
    path only goes on from the provinces in it (the others are reached, not crossed)."""
    seen = {start: 0}
    queue = deque([start])
    while queue:
        here = queue.popleft()
        if through is not None and here != start and here not in through:
            continue
        for there in sorted(adjacency.get(here, frozenset())):
            if there not in seen:
                seen[there] = seen[here] + 1
                queue.append(there)
    return seen


def is_desert(world: World, number: int) -> bool:
    return world.provinces[number].terrain is Terrain.DESERT


def rising_provinces(world: World) -> list[int]:
    """Armies: "The newly created army is placed in a random Desert province that is adjacent to a
    non-Desert province" (by number; the dice pick among them)."""
    desert = {n for n, p in world.provinces.items() if p.terrain is Terrain.DESERT}
    return [n for n in sorted(desert) if any(m not in desert for m in world.adjacency.get(n, frozenset()))]


def ancient_dead_rise(world: World, dice: Dice, phase: str) -> list[Event]:
    """In the working copy `world`, the Ancient Dead's armies rise to the number their Army Table
    allows for the provinces they hold (Setup, and each turn: a destroyed army is replaced, and more
    rise as the desert grows; rules decisions 100, 106). Each rises at a starting army's points in a
    random desert province next to a non-desert one (a D<n> over those provinces by number; no roll
    when there is one), a different one for each army rising at once while there are enough. It is
    created in `world.turn` and cannot move that turn (it has no order). Nothing once they have
    returned to the tomb. Returns an event for each."""
    kingdom = ancient_dead_kingdom(world)
    if kingdom is None or returned_to_the_tomb(world, kingdom):
        return []
    held = sum(1 for p in world.provinces.values() if p.controller == kingdom.id)
    allowed = ancient_dead_army_count(player_count=world.player_count, provinces_held=held)
    missing = allowed - len(ancient_dead_armies(world, kingdom.id))
    places = rising_provinces(world)
    next_id = min([0, *world.armies, *world.garrisons]) - 1
    events: list[Event] = []
    for _ in range(max(0, missing)):
        if not places:
            break
        if len(places) == 1:
            number = places[0]
        else:
            face = dice.roll(
                f"D{len(places)}",
                purpose=f"where an army of the Ancient Dead rises (provinces {', '.join(map(str, places))})",
                kingdoms=[kingdom.id],
            ).total
            number = places[face - 1]
        province = world.provinces[number]
        name = f"Host of {province.name}" if world.turn == 0 else f"Host risen in {province.name}, turn {world.turn}"
        taken = {a.name for a in world.armies.values() if a.kingdom == kingdom.id}
        if name in taken:  # two rising in one province at once (it was the only one left)
            name = next(f"{name} ({n})" for n in range(2, len(taken) + 3) if f"{name} ({n})" not in taken)
        world.armies[next_id] = ArmyState(
            id=next_id,
            kingdom=kingdom.id,
            name=name,
            province=number,
            size=STARTING_ARMY_POINTS,
            points=STARTING_ARMY_POINTS,
            created_turn=world.turn,
            list_due=True,
        )
        events.append(
            Event(
                phase,
                EventCode.ANCIENT_DEAD_RISEN,
                f"{name} rises from the desert of {province}"
                + ("; it cannot move this turn" if world.turn else "")
                + f" (The Ancient Dead: Armies; their Army Table allows {allowed} armies).",
                kingdom=kingdom.id,
                army=next_id,
                province=number,
            )
        )
        next_id -= 1
        if len(places) > 1:
            places.remove(number)
    return events
