"""The nine Deployment Maps (Appendix: Scenario Generator, 4. Determine Deployment), as geometry.

The rulebook draws its maps as pictures, and our text copy of it has none (the sections "Pitched
Battle 1" to "Assault 3" are empty): these are plain sketches of our own for a 6 by 4 foot table,
labelled as such on the sheet, so a group with the printed maps follows those (decision 350). What
the text says is kept: a Pitched Battle has two deployment zones, a Meeting Engagement two entry
points (6. Deploy Armies: "the other entry point"), an Assault a Defender's and an Attacker's zone,
and "In Assault deployments 1 and 3, the Defender chooses which long table edge he is defending".

Measures are inches on the table: x from the west (left) edge, y from the north (top) edge. The
Tomb Raiders' 4 by 4 foot table (Tomb Raider Scenario & Terrain: "Modify the Deployment Zone(s)
dimensions to reflect the 4x4 table") is the same map with every east-west measure scaled to the
shorter table (decision 351). Pure Python.
"""

from __future__ import annotations

import math
from typing import NamedTuple

from rulebook.scenario.tables import ASSAULT, MEETING, PITCHED

Point = tuple[float, float]

# Who a zone or entry point is for. In a Pitched Battle the zones, and in a Meeting Engagement the
# entry points, are chosen at the table (6. Deploy Armies; choosing sides): "A" and "B" name them.
# In an Assault the Defender's zone and the Attacker's are fixed by the battle.
SIDE_A = "A"
SIDE_B = "B"
DEFENDER = "defender"
ATTACKER = "attacker"


class Table(NamedTuple):
    width: int  # inches, west to east (the long edges' length on a 6 by 4 table)
    depth: int  # inches, north to south

    @property
    def feet(self) -> str:
        """'6 by 4 foot', as in "a 6 by 4 foot table"."""
        return f"{self.width // 12} by {self.depth // 12} foot"

    def edge(self, side: str) -> str:
        """'the north long edge' on a 6 by 4 table; on a square table every edge is the same."""
        if self.width == self.depth:
            return f"the {side} edge"
        long = side in ("north", "south")
        return f"the {side} {'long' if long else 'short'} edge"


STANDARD_TABLE = Table(72, 48)
# Tomb Raider Scenario & Terrain: "Play Tomb Raider matches on a 4x4 table".
TOMB_RAIDER_TABLE = Table(48, 48)


class Measure(NamedTuple):
    """A dimension drawn on the map, labelled with its length in inches."""

    start: Point
    end: Point
    # Where its label goes: "right" or "left" of a north-south measure, "below" or "above" an
    # east-west one (clear of the zone's own label).
    label: str = "right"


class Zone(NamedTuple):
    side: str  # SIDE_A, SIDE_B, DEFENDER or ATTACKER
    # Where it lies, in words ("along {north}"); "{north}" etc. is the edge as the table names it (Table.edge).
    where: str
    areas: tuple[tuple[Point, ...], ...]  # polygons (clockwise from the north-west), one or more
    depth: Measure  # how deep the zone reaches from its edge, drawn and said in words
    # Where its name is written; None: the middle of each area (an L-shaped zone needs a place clear
    # of its measure).
    label_at: Point | None = None


class EntryPoint(NamedTuple):
    side: str  # SIDE_A or SIDE_B
    where: str
    at: Point  # on the table's edge


class DeploymentMap(NamedTuple):
    name: str  # as the Scenario Generator names it: "Pitched Battle 1"
    zones: tuple[Zone, ...] = ()
    entries: tuple[EntryPoint, ...] = ()
    # Assault 1 and 3: the Defender chooses the long edge; the sketch shows the north one.
    defender_chooses_edge: bool = False


def _rect(x0: float, y0: float, x1: float, y1: float) -> tuple[Point, ...]:
    return ((x0, y0), (x1, y0), (x1, y1), (x0, y1))


# Meeting Engagement: the Advance objective's "within 12" of the enemy entry point".
ENTRY_POINT_REACH = 12

DEPLOYMENT_MAP_GEOMETRY: dict[str, DeploymentMap] = {
    # Pitched Battle: two zones, the armies 24" apart.
    f"{PITCHED} 1": DeploymentMap(
        f"{PITCHED} 1",
        zones=(
            Zone(SIDE_A, "along {north}", (_rect(0, 0, 72, 12),), Measure((6, 0), (6, 12))),
            Zone(SIDE_B, "along {south}", (_rect(0, 36, 72, 48),), Measure((6, 36), (6, 48))),
        ),
    ),
    # Diagonal table quarters, each kept back from the table's centre by a 24" square.
    f"{PITCHED} 2": DeploymentMap(
        f"{PITCHED} 2",
        zones=(
            Zone(
                SIDE_A,
                "in the north-west table quarter, cut back from the centre",
                (((0, 0), (36, 0), (36, 12), (24, 12), (24, 24), (0, 24)),),
                Measure((6, 0), (6, 24)),
                label_at=(15, 18),
            ),
            Zone(
                SIDE_B,
                "in the south-east table quarter, cut back from the centre",
                (((48, 24), (72, 24), (72, 48), (36, 48), (36, 36), (48, 36)),),
                Measure((66, 24), (66, 48), "left"),
                label_at=(57, 30),
            ),
        ),
    ),
    f"{PITCHED} 3": DeploymentMap(
        f"{PITCHED} 3",
        zones=(
            Zone(SIDE_A, "along {west}", (_rect(0, 0, 24, 48),), Measure((0, 6), (24, 6), "below")),
            Zone(SIDE_B, "along {east}", (_rect(48, 0, 72, 48),), Measure((48, 6), (72, 6), "below")),
        ),
    ),
    # Meeting Engagement: two entry points on the table's edge.
    f"{MEETING} 1": DeploymentMap(
        f"{MEETING} 1",
        entries=(
            EntryPoint(SIDE_A, "the middle of {north}", (36, 0)),
            EntryPoint(SIDE_B, "the middle of {south}", (36, 48)),
        ),
    ),
    f"{MEETING} 2": DeploymentMap(
        f"{MEETING} 2",
        entries=(
            EntryPoint(SIDE_A, "the north-west corner", (0, 0)),
            EntryPoint(SIDE_B, "the south-east corner", (72, 48)),
        ),
    ),
    f"{MEETING} 3": DeploymentMap(
        f"{MEETING} 3",
        entries=(
            EntryPoint(SIDE_A, "the middle of {west}", (0, 24)),
            EntryPoint(SIDE_B, "the middle of {east}", (72, 24)),
        ),
    ),
    # Assault: the Defender deploys first in his zone, the Attacker then in his.
    f"{ASSAULT} 1": DeploymentMap(
        f"{ASSAULT} 1",
        zones=(
            Zone(DEFENDER, "along {north}", (_rect(0, 0, 72, 12),), Measure((6, 0), (6, 12))),
            Zone(ATTACKER, "along {south}", (_rect(0, 36, 72, 48),), Measure((6, 36), (6, 48))),
        ),
        defender_chooses_edge=True,
    ),
    # A defended position in the middle of the table, the Attacker on both short edges.
    f"{ASSAULT} 2": DeploymentMap(
        f"{ASSAULT} 2",
        zones=(
            Zone(DEFENDER, "in the centre of the table", (_rect(24, 12, 48, 36),), Measure((22, 12), (22, 36), "left")),
            Zone(
                ATTACKER,
                "along {west} and along {east}",
                (_rect(0, 0, 12, 48), _rect(60, 0, 72, 48)),
                Measure((0, 6), (12, 6), "below"),
            ),
        ),
    ),
    # A defended position on the middle of a long edge.
    f"{ASSAULT} 3": DeploymentMap(
        f"{ASSAULT} 3",
        zones=(
            Zone(DEFENDER, "in the middle of {north}", (_rect(18, 0, 54, 18),), Measure((18, 0), (18, 18), "left")),
            Zone(ATTACKER, "along {south}", (_rect(0, 36, 72, 48),), Measure((6, 36), (6, 48))),
        ),
        defender_chooses_edge=True,
    ),
}


def _scaled(point: Point, sx: float) -> Point:
    return (round(point[0] * sx, 2), point[1])


def deployment_map(name: str, table: Table = STANDARD_TABLE) -> DeploymentMap:
    """The map by its name, fitted to the table: every east-west measure is scaled from the 6 foot
    table's 72 inches to the table's width (Tomb Raider Scenario & Terrain; decision 351)."""
    base = DEPLOYMENT_MAP_GEOMETRY[name]
    sx = table.width / STANDARD_TABLE.width
    if sx == 1 and table.depth == STANDARD_TABLE.depth:
        return base
    zones = tuple(
        z._replace(
            areas=tuple(tuple(_scaled(p, sx) for p in area) for area in z.areas),
            depth=z.depth._replace(start=_scaled(z.depth.start, sx), end=_scaled(z.depth.end, sx)),
            label_at=_scaled(z.label_at, sx) if z.label_at else None,
        )
        for z in base.zones
    )
    entries = tuple(e._replace(at=_scaled(e.at, sx)) for e in base.entries)
    return base._replace(zones=zones, entries=entries)


def where_text(where: str, table: Table) -> str:
    """A zone's or entry point's place in words, with the table's edges named ("{north}")."""
    return where.format(**{side: table.edge(side) for side in ("north", "south", "west", "east")})


def measure_length(measure: Measure) -> float:
    (x0, y0), (x1, y1) = measure.start, measure.end
    return round(math.hypot(x1 - x0, y1 - y0), 1)


def inches(value: float) -> str:
    """16.0 -> '16', 10.67 -> '10.7'."""
    return f"{value:g}" if value == int(value) else f"{value:.1f}"


def point_in_area(point: Point, area: tuple[Point, ...]) -> bool:
    """Ray casting: whether the point lies inside the polygon (not on its edge)."""
    x, y = point
    inside = False
    for (x0, y0), (x1, y1) in zip(area, area[1:] + area[:1], strict=True):
        if (y0 > y) != (y1 > y) and x < (x1 - x0) * (y - y0) / (y1 - y0) + x0:
            inside = not inside
    return inside


def point_in_zone(point: Point, zone: Zone) -> bool:
    return any(point_in_area(point, area) for area in zone.areas)
