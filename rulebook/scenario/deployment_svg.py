"""The scenario's Deployment Map drawn as an SVG sketch, with the same in words (pure Python).

The drawing and its words come from one place (deployment_maps' geometry): the SVG carries a
<title> and a <desc> for a screen-reader, and the words are also printed under the drawing, so the
PDF's text carries them too. Like kingdoms/map_svg.py it uses presentation attributes only (no
scripts, CSS or external fonts), so it looks the same in a page and in a WeasyPrint PDF, and every
name is escaped. Rulebook: Appendix, Scenario Generator, 4. Determine Deployment and 6. Deploy
Armies; decisions 350-352.
"""

from __future__ import annotations

import textwrap
from dataclasses import dataclass
from xml.sax.saxutils import escape, quoteattr

from rulebook.scenario.deployment_maps import (
    ATTACKER,
    DEFENDER,
    ENTRY_POINT_REACH,
    SIDE_A,
    STANDARD_TABLE,
    TOMB_RAIDER_TABLE,
    DeploymentMap,
    EntryPoint,
    Point,
    Table,
    Zone,
    deployment_map,
    inches,
    measure_length,
    where_text,
)
from rulebook.scenario.generator import Scenario
from rulebook.scenario.tables import ADVANCE, ASSAULT, MEETING

SKETCH_NOTE = "A sketch: the rulebook's map governs."
SCALE = 10  # drawing units per inch
MARGIN_LEFT, MARGIN_TOP, MARGIN_RIGHT, MARGIN_BOTTOM = 50, 50, 30, 75
FONT = "DejaVu Sans, Arial, sans-serif"
INK = "#1a1a1a"
TABLE_FILL, TABLE_EDGE = "#e9efdf", "#444444"
# Light fills, so the dark labels on them keep their contrast.
FILLS = {SIDE_A: "#b9d4ee", DEFENDER: "#b9d4ee", "B": "#f3c5b8", ATTACKER: "#f3c5b8"}
EDGES = {SIDE_A: "#2a5d8f", DEFENDER: "#2a5d8f", "B": "#9a3b24", ATTACKER: "#9a3b24"}


@dataclass(frozen=True)
class DeploymentDiagram:
    title: str
    lines: list[str]  # the map in words: the <desc>, and the caption printed under the drawing
    svg: str


def scenario_table(*, skirmish: bool) -> Table:
    """The Tomb Raiders play on a 4 by 4 foot table (Tomb Raider Scenario & Terrain), a battle on
    the usual 6 by 4."""
    return TOMB_RAIDER_TABLE if skirmish else STANDARD_TABLE


def _zone_words(zone: Zone, table: Table, attacker: str, defender: str) -> str:
    """'The Defender (Reikland: Second Army) deploys along the north long edge, 12 inches deep.'"""
    where = f"{where_text(zone.where, table)}, {inches(measure_length(zone.depth))} inches deep"
    if zone.side in (DEFENDER, ATTACKER):
        role, name = _zone_label(zone, attacker, defender)
        who = f"The {role} ({name})" if name else f"The {role}"
        return f"{who} deploys {where}."
    return f"Zone {zone.side}: {where}."


def _zone_label(zone: Zone, attacker: str, defender: str) -> tuple[str, str]:
    """The two lines written in the zone: who, and (in an Assault) the army's name, unless the
    stand-alone generator's sides are named just "Attacker" and "Defender"."""
    if zone.side == DEFENDER:
        return "Defender", "" if defender == "Defender" else defender
    if zone.side == ATTACKER:
        return "Attacker", "" if attacker == "Attacker" else attacker
    return f"Zone {zone.side}", ""


def deployment_words(
    m: DeploymentMap, table: Table, *, attacker: str, defender: str, chooser: str | None, advance: bool
) -> list[str]:
    """The map in words, a sentence a line."""
    lines = []
    for zone in m.zones:
        lines.append(_zone_words(zone, table, attacker, defender))
    for entry in m.entries:
        lines.append(f"Entry point {entry.side}: {where_text(entry.where, table)}.")
    other = defender if chooser == attacker else attacker
    if m.entries:
        if chooser:
            lines.append(f"{chooser} chooses the entry point, A or B; {other} moves on from the other.")
        if advance:
            lines.append(
                f"Advance: units within {ENTRY_POINT_REACH} inches of the enemy entry point earn the bonus Victory "
                "Points (the dashed circles)."
            )
    elif m.zones and m.zones[0].side == SIDE_A and chooser:
        lines.append(f"{chooser} chooses the table side, zone A or zone B; {other} deploys in the other.")
    if m.defender_chooses_edge:
        edge = "long table edge" if table.width != table.depth else "table edge"
        lines.append(
            f"The Defender's zone is drawn on the north edge: he chooses which {edge} he defends, and the "
            "Attacker's zone faces it across the table."
        )
    lines.append(
        f"The table is {inches(table.width)} by {inches(table.depth)} inches ({table.width // 12} by "
        f"{table.depth // 12} feet); north is at the top."
    )
    lines.append(SKETCH_NOTE)
    return lines


MIN_FONT = 12.0


def _font_for(text: str, room: float, largest: float = 22) -> float:
    """A font size at which the text fits the room (a character is about 0.58 em wide)."""
    return round(max(MIN_FONT, min(largest, room / (0.58 * max(len(text), 1)))), 1)


MAX_NAME_LINES = 3


def _name_lines(name: str, room: float) -> list[str]:
    """A name as it is written in its zone: one line if it fits the room at the smallest font, else
    its kingdom and army on two ("Ostland:" / "1st Army"), else wrapped to the room, three lines at
    most and the last cut with an ellipsis (the words under the drawing carry the whole name), so a
    long name never spills across the table onto the other side's zone."""
    width = max(1, int(room / (0.58 * MIN_FONT)))  # characters a line holds at the smallest font
    if len(name) <= width:
        return [name]
    head, colon, tail = name.partition(": ")
    if colon and len(head) + 1 <= width and len(tail) <= width:
        return [f"{head}:", tail]
    lines = textwrap.wrap(name, width=width, break_long_words=True, break_on_hyphens=True)
    if len(lines) > MAX_NAME_LINES:
        lines = lines[:MAX_NAME_LINES]
        lines[-1] = lines[-1][: width - 1].rstrip() + "…"
    return lines


def _xy(p: Point) -> tuple[float, float]:
    return (MARGIN_LEFT + p[0] * SCALE, MARGIN_TOP + p[1] * SCALE)


def _text(x: float, y: float, text: str, size: float, *, anchor: str = "middle", extra: str = "") -> str:
    return (
        f'<text x="{x:g}" y="{y:g}" font-family={quoteattr(FONT)} font-size="{size:g}" fill="{INK}" '
        f'text-anchor="{anchor}"{extra}>{escape(text)}</text>'
    )


def _measure_svg(zone: Zone) -> list[str]:
    (x0, y0), (x1, y1) = _xy(zone.depth.start), _xy(zone.depth.end)
    label = f"{inches(measure_length(zone.depth))} in."
    parts = [f'<line x1="{x0:g}" y1="{y0:g}" x2="{x1:g}" y2="{y1:g}" stroke="{INK}" stroke-width="2"/>']
    tick = '<line x1="{:g}" y1="{:g}" x2="{:g}" y2="{:g}" stroke="' + INK + '" stroke-width="2"/>'
    if x0 == x1:  # a north-south measure: ticks across it, the label beside it
        parts += [tick.format(x0 - 6, y, x0 + 6, y) for y in (y0, y1)]
        left = zone.depth.label == "left"
        x = x0 - 9 if left else x0 + 9
        parts.append(_text(x, (y0 + y1) / 2 + 6, label, 16, anchor="end" if left else "start"))
    else:  # an east-west measure: ticks across it, the label below (or above) it
        parts += [tick.format(x, y0 - 6, x, y0 + 6) for x in (x0, x1)]
        y = y0 - 12 if zone.depth.label == "above" else y0 + 24
        parts.append(_text((x0 + x1) / 2, y, label, 16))
    return parts


def _zone_svg(zone: Zone, attacker: str, defender: str) -> list[str]:
    parts = []
    role, name = _zone_label(zone, attacker, defender)
    for area in zone.areas:
        points = " ".join(f"{x:g},{y:g}" for x, y in (_xy(p) for p in area))
        parts.append(
            f'<polygon points="{points}" fill="{FILLS[zone.side]}" stroke="{EDGES[zone.side]}" stroke-width="3"/>'
        )
    for area in zone.areas:
        xs, ys = [p[0] for p in area], [p[1] for p in area]
        cx, cy = _xy(zone.label_at or ((min(xs) + max(xs)) / 2, (min(ys) + max(ys)) / 2))
        room = (max(xs) - min(xs)) * SCALE * 0.9
        if name:
            parts.append(_text(cx, cy - 4, role, _font_for(role, room), extra=' font-weight="bold"'))
            lines = _name_lines(name, room)
            size = min(_font_for(line, room, 18) for line in lines)
            for i, line in enumerate(lines):
                parts.append(_text(cx, cy + 20 + i * (size + 3), line, size))
        else:
            parts.append(_text(cx, cy + 8, role, _font_for(role, room), extra=' font-weight="bold"'))
    return [*parts, *_measure_svg(zone)]


def _entry_svg(entry: EntryPoint, table: Table, advance: bool, clip: str) -> list[str]:
    x, y = _xy(entry.at)
    parts = []
    if advance:  # the reach, drawn on the table only
        r = ENTRY_POINT_REACH * SCALE
        parts.append(
            f'<circle cx="{x:g}" cy="{y:g}" r="{r}" fill="none" stroke="{EDGES[entry.side]}" stroke-width="2" '
            f'stroke-dasharray="8 6" clip-path="url(#{clip})"/>'
        )
    # The marker, cut to the table: a half disc on an edge, a quarter in a corner (clear of the edges' labels).
    parts.append(
        f'<circle cx="{x:g}" cy="{y:g}" r="{3 * SCALE}" fill="{EDGES[entry.side]}" stroke="{INK}" stroke-width="1" '
        f'clip-path="url(#{clip})"/>'
    )
    # The label sits inside the table, clear of the marker: beside it on a west or east edge, below
    # or above it on a north or south edge (a corner: both).
    at_x, at_y = entry.at
    anchor = "start" if at_x == 0 else "end" if at_x == table.width else "middle"
    lx = at_x + 4 if anchor == "start" else at_x - 4 if anchor == "end" else at_x
    ly = at_y + 5.5 if at_y == 0 else at_y - 4 if at_y == table.depth else at_y + 0.7
    x_text, y_text = _xy((lx, ly))
    parts.append(_text(x_text, y_text, f"Entry point {entry.side}", 20, anchor=anchor, extra=' font-weight="bold"'))
    return parts


def deployment_diagram(scenario: Scenario, *, skirmish: bool = False) -> DeploymentDiagram:
    """The scenario's Deployment Map for its battle: the zones or entry points with the armies'
    names, the table's edges and the depths in inches, as an SVG and in words."""
    table = scenario_table(skirmish=skirmish or scenario.skirmish)
    name = scenario.deployment["map"]
    m = deployment_map(name, table)
    kind = scenario.engagement["name"]
    attacker, defender = scenario.attacker, scenario.defender
    chooser: str | None = None
    if kind == MEETING and scenario.deploy.get("first") in ("attacker", "defender"):
        chooser = attacker if scenario.deploy["first"] == "attacker" else defender
    elif kind != ASSAULT:
        chooser = scenario.sides.get("winner")
    advance = scenario.objective.get("name") == ADVANCE and bool(m.entries)
    title = f"{name} (a sketch): where {attacker} and {defender} deploy, on a {table.feet} table"
    lines = deployment_words(m, table, attacker=attacker, defender=defender, chooser=chooser, advance=advance)

    width = MARGIN_LEFT + table.width * SCALE + MARGIN_RIGHT
    height = MARGIN_TOP + table.depth * SCALE + MARGIN_BOTTOM
    x0, y0 = _xy((0, 0))
    x1, y1 = _xy((table.width, table.depth))
    shape = " deployment-map-square" if table.width == table.depth else ""
    title_id, desc_id, clip = "deployment-title", "deployment-desc", "deployment-table"
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="deployment-map{shape}" role="img" '
        f'aria-labelledby="{title_id} {desc_id}" viewBox="0 0 {width:g} {height:g}" width="{width:g}" '
        f'height="{height:g}">',
        f'<title id="{title_id}">{escape(title)}</title>',
        f'<desc id="{desc_id}">{escape(" ".join(lines))}</desc>',
        f'<clipPath id="{clip}"><rect x="{x0:g}" y="{y0:g}" width="{x1 - x0:g}" height="{y1 - y0:g}"/></clipPath>',
        f'<rect x="{x0:g}" y="{y0:g}" width="{x1 - x0:g}" height="{y1 - y0:g}" fill="{TABLE_FILL}" '
        f'stroke="{TABLE_EDGE}" stroke-width="3"/>',
    ]
    for zone in m.zones:
        parts += _zone_svg(zone, attacker, defender)
    for entry in m.entries:
        parts += _entry_svg(entry, table, advance, clip)
    feet_wide, feet_deep = table.width // 12, table.depth // 12
    parts.append(_text((x0 + x1) / 2, y0 - 16, f"North edge: {inches(table.width)} in. ({feet_wide} ft)", 20))
    side_x, side_y = x0 - 16, (y0 + y1) / 2
    parts.append(
        _text(
            side_x,
            side_y,
            f"West edge: {inches(table.depth)} in. ({feet_deep} ft)",
            20,
            extra=f' transform="rotate(-90 {side_x:g} {side_y:g})"',
        )
    )
    parts.append(_text(x0, y1 + 32, name, 20, anchor="start", extra=' font-weight="bold"'))
    parts.append(_text(x0, y1 + 60, SKETCH_NOTE, 18, anchor="start", extra=' font-style="italic"'))
    parts.append("</svg>")
    return DeploymentDiagram(title=title, lines=lines, svg="".join(parts))
