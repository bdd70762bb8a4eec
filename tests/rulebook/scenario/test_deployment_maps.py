"""The Deployment Maps drawn on the scenario sheet (rulebook/scenario/deployment_maps.py and
deployment_svg.py): each of the nine maps of the Scenario Generator's "4. Determine Deployment",
its zones or entry points on the table and apart, in words and as an SVG sketch. Rulebook:
Appendix, Scenario Generator, 4. Determine Deployment and 6. Deploy Armies ("In Assault deployments
1 and 3, the Defender chooses which long table edge he is defending"); Tomb Raider Scenario &
Terrain (the 4x4 table). Decisions 350-352. No database."""

from __future__ import annotations

import re
from dataclasses import replace
from xml.etree import ElementTree

import pytest

from kernel.dice import ScriptedDice
from rulebook.scenario.deployment_maps import (
    ATTACKER,
    DEFENDER,
    SIDE_A,
    SIDE_B,
    STANDARD_TABLE,
    TOMB_RAIDER_TABLE,
    Table,
    deployment_map,
    measure_length,
    point_in_area,
    point_in_zone,
)
from rulebook.scenario.deployment_svg import SKETCH_NOTE, deployment_diagram
from rulebook.scenario.generator import ScenarioSetup, ScenarioSide, scenario_generate
from rulebook.scenario.tables import ASSAULT, DEPLOYMENT_MAPS, ENGAGEMENT_TYPES, MEETING, PITCHED

MAPS = [(kind, name) for kind in ENGAGEMENT_TYPES for name in DEPLOYMENT_MAPS[kind].values()]
TABLES = [STANDARD_TABLE, TOMB_RAIDER_TABLE]
SVG = "{http://www.w3.org/2000/svg}"


def _cells(table: Table) -> list[tuple[float, float]]:
    """The centre of every square inch of the table."""
    return [(x + 0.5, y + 0.5) for x in range(table.width) for y in range(table.depth)]


def _scenario(kind: str, name: str, *, objective: str = "Conquest", skirmish: bool = False):
    """A scenario rolled with scripted dice, then set to the map under test (the map's roll is
    tested in test_scenario_rules.py; here only the drawing of each map)."""
    setup = ScenarioSetup(
        terrain="plains",
        settlement="none",
        attacker=ScenarioSide(name="Ostland: 1st Army"),
        defender=ScenarioSide(name="Reikland: <Second> & Co"),
    )
    faces = [1, 3, 4, 1, 2, 4, 5, 2, 1, 2, 2, 5, 6, 1, 3, 4, 3]
    scenario = scenario_generate(setup, ScriptedDice(faces=faces))
    return replace(
        scenario,
        engagement={**scenario.engagement, "name": kind},
        deployment={**scenario.deployment, "map": name},
        objective={**scenario.objective, "name": objective},
        skirmish=skirmish,
    )


@pytest.mark.parametrize("table", TABLES, ids=["6x4", "4x4"])
@pytest.mark.parametrize(("kind", "name"), MAPS)
def test_each_map_lies_on_the_table_its_two_sides_apart(kind, name, table):
    """Every zone and entry point is on the table; the two sides' zones share no square inch, and
    their entry points are different places on the table's edge."""
    m = deployment_map(name, table)
    assert m.name == name
    for zone in m.zones:
        for area in zone.areas:
            assert all(0 <= x <= table.width and 0 <= y <= table.depth for x, y in area), (name, zone.side)
            # The zone's name is written inside it.
            xs, ys = [x for x, _ in area], [y for _, y in area]
            label = zone.label_at or ((min(xs) + max(xs)) / 2, (min(ys) + max(ys)) / 2)
            assert point_in_area(label, area), (name, zone.side, label)
        assert measure_length(zone.depth) > 0
    if kind == MEETING:
        assert not m.zones and [e.side for e in m.entries] == [SIDE_A, SIDE_B]
        a, b = (e.at for e in m.entries)
        assert a != b
        for x, y in (a, b):
            assert x in (0, table.width) or y in (0, table.depth), f"{name}: an entry point off the table's edge"
        return
    assert not m.entries
    sides = [z.side for z in m.zones]
    assert sides == ([SIDE_A, SIDE_B] if kind == PITCHED else [DEFENDER, ATTACKER])
    first, second = m.zones
    both = [c for c in _cells(table) if point_in_zone(c, first) and point_in_zone(c, second)]
    assert both == [], f"{name}: the two zones overlap"
    assert any(point_in_zone(c, first) for c in _cells(table)) and any(point_in_zone(c, second) for c in _cells(table))


@pytest.mark.parametrize(("kind", "name"), MAPS)
def test_each_map_is_drawn_named_with_both_sides_and_said_in_words(kind, name):
    """The SVG is an image named by its <title> (the map and both armies) and described in words
    by its <desc>; it says it is a sketch; names are escaped."""
    diagram = deployment_diagram(_scenario(kind, name))
    root = ElementTree.fromstring(diagram.svg)  # well-formed, every name escaped
    assert root.get("role") == "img" and root.get("viewBox")
    title_id, desc_id = root.get("aria-labelledby").split()
    title = root.find(f"{SVG}title")
    desc = root.find(f"{SVG}desc")
    assert (title.get("id"), desc.get("id")) == (title_id, desc_id)
    assert title.text == diagram.title
    assert name in title.text and "Ostland: 1st Army" in title.text and "Reikland: <Second> & Co" in title.text
    assert desc.text == " ".join(diagram.lines)
    assert diagram.lines[-1] == SKETCH_NOTE == "A sketch: the rulebook's map governs."
    drawn = " ".join(t.text or "" for t in root.iter(f"{SVG}text"))
    assert "North edge: 72 in. (6 ft)" in drawn and "West edge: 48 in. (4 ft)" in drawn
    assert name in drawn and SKETCH_NOTE in drawn
    assert "The table is 72 by 48 inches (6 by 4 feet); north is at the top." in diagram.lines
    if kind == ASSAULT:
        assert "Defender" in drawn and "Attacker" in drawn and "Reikland: <Second> & Co" in drawn
        assert any(line.startswith("The Defender (Reikland: <Second> & Co) deploys ") for line in diagram.lines)
        assert any(line.startswith("The Attacker (Ostland: 1st Army) deploys ") for line in diagram.lines)
    elif kind == PITCHED:
        assert "Zone A" in drawn and "Zone B" in drawn and re.search(r"\d+ in\.", drawn)
    else:
        assert "Entry point A" in drawn and "Entry point B" in drawn


def test_pitched_battle_1_in_words_long_edges_12_inches_deep_and_who_chooses():
    """6. Fight Battles: the winner of the roll for sides chooses the table side, so the zones
    are A and B and the words say who chooses."""
    scenario = _scenario(PITCHED, "Pitched Battle 1")
    winner = scenario.sides["winner"]
    other = "Reikland: <Second> & Co" if winner == "Ostland: 1st Army" else "Ostland: 1st Army"
    lines = deployment_diagram(scenario).lines
    assert lines[:3] == [
        "Zone A: along the north long edge, 12 inches deep.",
        "Zone B: along the south long edge, 12 inches deep.",
        f"{winner} chooses the table side, zone A or zone B; {other} deploys in the other.",
    ]


def test_meeting_engagement_entry_points_and_the_advance_reach():
    """6. Deploy Armies, Meeting Engagement: the roll's winner chooses an entry point, the other
    player moves on from the other; with Advance, units "within 12" of the enemy entry point"
    score, drawn as dashed circles."""
    scenario = _scenario(MEETING, "Meeting Engagement 1", objective="Advance")
    winner = scenario.attacker if scenario.deploy["first"] == "attacker" else scenario.defender
    diagram = deployment_diagram(scenario)
    assert diagram.lines[:2] == [
        "Entry point A: the middle of the north long edge.",
        "Entry point B: the middle of the south long edge.",
    ]
    assert any(line.startswith(f"{winner} chooses the entry point, A or B;") for line in diagram.lines)
    assert any("within 12 inches of the enemy entry point" in line for line in diagram.lines)
    assert diagram.svg.count('stroke-dasharray="8 6"') == 2
    plain = deployment_diagram(_scenario(MEETING, "Meeting Engagement 1"))
    assert "stroke-dasharray" not in plain.svg and not any("Advance" in line for line in plain.lines)


@pytest.mark.parametrize(("name", "chooses"), [("Assault 1", True), ("Assault 2", False), ("Assault 3", True)])
def test_assault_1_and_3_the_defender_chooses_the_long_edge(name, chooses):
    """6. Deploy Armies, Assault: "In Assault deployments 1 and 3, the Defender chooses which long
    table edge he is defending": the sketch shows the north edge and says so."""
    m = deployment_map(name)
    assert m.defender_chooses_edge is chooses
    lines = deployment_diagram(_scenario(ASSAULT, name)).lines
    noted = [line for line in lines if "he chooses which long table edge he defends" in line]
    assert len(noted) == (1 if chooses else 0)
    if chooses:
        defender = next(z for z in m.zones if z.side == DEFENDER)
        assert all(y == 0 for _, y in defender.areas[0][:2]), "the Defender's zone touches the north edge"


def test_assault_2_is_a_defended_position_in_the_middle():
    lines = deployment_diagram(_scenario(ASSAULT, "Assault 2")).lines
    assert lines[:2] == [
        "The Defender (Reikland: <Second> & Co) deploys in the centre of the table, 24 inches deep.",
        "The Attacker (Ostland: 1st Army) deploys along the west short edge and along the east short edge, "
        "12 inches deep.",
    ]


def test_the_tomb_raiders_table_is_4_by_4_feet_and_the_zones_fit_it():
    """Tomb Raider Scenario & Terrain: "Play Tomb Raider matches on a 4x4 table ... Modify the
    Deployment Zone(s) dimensions to reflect the 4x4 table": the east-west measures shrink to the
    48-inch width (a short edge's 24-inch zone becomes 16), the depth from a north or south edge
    stays; on a square table no edge is the long one."""
    pb3 = deployment_map("Pitched Battle 3", TOMB_RAIDER_TABLE)
    assert [measure_length(z.depth) for z in pb3.zones] == [16, 16]
    pb1 = deployment_map("Pitched Battle 1", TOMB_RAIDER_TABLE)
    assert [measure_length(z.depth) for z in pb1.zones] == [12, 12]
    assert pb1.zones[0].areas[0] == ((0, 0), (48, 0), (48, 12), (0, 12))

    diagram = deployment_diagram(_scenario(ASSAULT, "Assault 1", skirmish=True))
    assert "on a 4 by 4 foot table" in diagram.title
    assert "North edge: 48 in. (4 ft)" in diagram.svg and "West edge: 48 in. (4 ft)" in diagram.svg
    assert "The table is 48 by 48 inches (4 by 4 feet); north is at the top." in diagram.lines
    assert "The Defender (Reikland: <Second> & Co) deploys along the north edge, 12 inches deep." in diagram.lines
    assert any("he chooses which table edge he defends" in line for line in diagram.lines)
    assert not any("long edge" in line or "long table" in line for line in diagram.lines)
    assert "deployment-map-square" in diagram.svg


LONG_ATTACKER = "Königreich Ærøskøbing des Großen Drachenthrons: Die Unbesiegbare Heilige Erste Armee von Ølstykke"
LONG_DEFENDER = "Reichsfürstentum Überwald-Südmark der Ewigen Nacht: Garrison of Eldenhall-upon-the-Marsh"


@pytest.mark.parametrize("skirmish", [False, True], ids=["6x4", "4x4"])
@pytest.mark.parametrize("name", ["Assault 1", "Assault 2", "Assault 3"])
def test_a_long_army_name_stays_inside_its_zone(name, skirmish):
    """4. Determine Deployment: the sketch writes each army's name in its zone (decision 350). A long name
    (a kingdom's and an army's, unicode) is wrapped to the zone's width, three lines at most and cut
    with an ellipsis beyond, so it never spills across the table onto the other zone; the full name is
    in the words under the drawing. Each line's width is estimated as the drawing sizes its text."""
    scenario = replace(_scenario(ASSAULT, name, skirmish=skirmish), attacker=LONG_ATTACKER, defender=LONG_DEFENDER)
    diagram = deployment_diagram(scenario)
    m = deployment_map(name, TOMB_RAIDER_TABLE if skirmish else STANDARD_TABLE)
    widest = {z.side: min(max(p[0] for p in a) - min(p[0] for p in a) for a in z.areas) * 10 for z in m.zones}
    root = ElementTree.fromstring(diagram.svg)
    for side, full in ((ATTACKER, LONG_ATTACKER), (DEFENDER, LONG_DEFENDER)):
        written = [t for t in root.iter(f"{SVG}text") if t.text and (t.text in full or t.text.rstrip("…") in full)]
        per_zone = len(next(z for z in m.zones if z.side == side).areas)
        assert 0 < len(written) <= 3 * per_zone, (side, [t.text for t in written])
        for text in written:
            width = 0.58 * float(text.get("font-size")) * len(text.text)
            assert width <= widest[side], (side, text.text, width, widest[side])
        assert any(line.startswith(f"The {side.capitalize()} ({full}) deploys") for line in diagram.lines)
