"""Building the world state (rulebook.world) by hand for the pure rule tests: the sheet check,
the turn's resolution and the aftermath all read the same records."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace
from typing import Any

from rulebook.tables import ArmyKind, ArmyType, Settlement, Terrain
from rulebook.world import ArmyState, KingdomState, ProvinceState, World


def grid(cols: int, rows: int | None = None) -> dict[int, frozenset[int]]:
    """Adjacency of a grid of sections numbered row by row from 1, corner to corner included (Move)."""
    rows = cols if rows is None else rows
    pos = {n: ((n - 1) % cols, (n - 1) // cols) for n in range(1, cols * rows + 1)}
    return {
        a: frozenset(b for b in pos if b != a and abs(pos[a][0] - pos[b][0]) <= 1 and abs(pos[a][1] - pos[b][1]) <= 1)
        for a in pos
    }


def edges(pairs: Iterable[tuple[int, int]], provinces: Iterable[int]) -> dict[int, frozenset[int]]:
    """Adjacency from a list of borders (each pair once)."""
    near: dict[int, set[int]] = {n: set() for n in provinces}
    for a, b in pairs:
        near[a].add(b)
        near[b].add(a)
    return {n: frozenset(around) for n, around in near.items()}


def province(
    number: int, terrain: str = "plains", settlement: str = "none", *, name: str | None = None, **changes: Any
) -> ProvinceState:
    """A province named "P<number>" unless told; terrain and settlement as the map writes them."""
    return ProvinceState(
        number=number,
        name=f"P{number}" if name is None else name,
        terrain=Terrain(terrain),
        settlement=Settlement(settlement),
        **changes,
    )


def province_with(record: ProvinceState, **changes: Any) -> ProvinceState:
    """The province with `changes`; terrain and settlement may be given as the map writes them."""
    if "terrain" in changes:
        changes["terrain"] = Terrain(changes["terrain"])
    if "settlement" in changes:
        changes["settlement"] = Settlement(changes["settlement"])
    return replace(record, **changes)


def kingdom(id: int, name: str, army_type: ArmyType = ArmyType.EMPIRE, **changes: Any) -> KingdomState:
    return KingdomState(id=id, name=name, army_type=army_type, **changes)


def army(
    id: int,
    kingdom: int,
    province: int,
    points: int = 1500,
    *,
    name: str | None = None,
    size: int | None = None,
    **changes: Any,
) -> ArmyState:
    """A field army named "Army <id>" unless told, raised at its points unless told."""
    return ArmyState(
        id=id,
        kingdom=kingdom,
        name=f"Army {id}" if name is None else name,
        province=province,
        size=points if size is None else size,
        points=points,
        **changes,
    )


def garrison(
    id: int, kingdom: int, province: int, points: int = 500, *, name: str | None = None, **changes: Any
) -> ArmyState:
    """An Elite Defense Force (or, named so, the Ancient Dead's Capitol Garrison)."""
    name = f"Elite Defense Force {id}" if name is None else name
    return army(id, kingdom, province, points, kind=ArmyKind.GARRISON, name=name, **changes)


def world(
    *,
    provinces: Iterable[ProvinceState],
    kingdoms: Iterable[KingdomState],
    armies: Iterable[ArmyState] = (),
    garrisons: Iterable[ArmyState] = (),
    adjacency: dict[int, frozenset[int]] | None = None,
    turn: int = 1,
    player_count: int = 2,
) -> World:
    return World(
        turn=turn,
        player_count=player_count,
        provinces={p.number: p for p in provinces},
        adjacency=adjacency or {},
        kingdoms={k.id: k for k in kingdoms},
        armies={a.id: a for a in armies},
        garrisons={g.id: g for g in garrisons},
    )
