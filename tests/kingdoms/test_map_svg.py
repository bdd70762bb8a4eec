"""Drawing the campaign map as SVG: valid XML, every province, colours, armies, escaping, legend."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import pytest

from kingdoms.map_svg import (
    KINGDOM_PALETTE,
    MapArmyMarker,
    MapArrow,
    MapBattleMarker,
    MapKingdomView,
    MapProvinceView,
    kingdom_colour,
    render_map_svg,
)
from rulebook.setup.maps import load_default_map

SVG = "{http://www.w3.org/2000/svg}"

RED = MapKingdomView(key="red", name="Crimson Throne", colour="#d7191c")
BLUE = MapKingdomView(key="blue", name="Azure Court", colour="#2c4fd6")


def default_views(controllers: dict[int, str] | None = None) -> list[MapProvinceView]:
    controllers = controllers or {}
    return [
        MapProvinceView(
            number=p.number,
            name=p.name,
            terrain=p.terrain,
            settlement=p.settlement,
            col=p.col,
            row=p.row,
            pyramid=p.pyramid,
            capitol_site=p.capitol_site,
            controller=controllers.get(p.number),
        )
        for p in load_default_map().provinces
    ]


def two_by_two() -> list[MapProvinceView]:
    """Four provinces: a city, a forest, marshland ruins and the desert pyramid."""
    return [
        MapProvinceView(number=1, name="Highcastle", terrain="plains", settlement="city", col=0, row=0),
        MapProvinceView(number=2, name="Wolfwood", terrain="forest", settlement="none", col=1, row=0),
        MapProvinceView(number=3, name="Blackmire", terrain="marshland", settlement="ruins", col=0, row=1),
        MapProvinceView(number=4, name="The Pyramid", terrain="desert", settlement="none", col=1, row=1, pyramid=True),
    ]


def parse(svg: str) -> ET.Element:
    return ET.fromstring(svg)


def province_group(root: ET.Element, number: int) -> ET.Element:
    groups = [g for g in root.iter(f"{SVG}g") if g.get("id") == f"province-{number}"]
    assert len(groups) == 1, f"expected one group for province {number}, found {len(groups)}"
    return groups[0]


def has_class(element: ET.Element, name: str) -> bool:
    return name in (element.get("class") or "").split()


def armies_in(element: ET.Element) -> list[ET.Element]:
    return [e for e in element.iter() if has_class(e, "army")]


def all_text(element: ET.Element) -> str:
    return " ".join(t.text or "" for t in element.iter(f"{SVG}text"))


def colours_used(element: ET.Element) -> set[str]:
    return {
        value.lower()
        for e in element.iter()
        for attr in ("fill", "stroke")
        if (value := e.get(attr)) and value.startswith("#")
    }


def test_svg_is_valid_xml_with_accessible_root() -> None:
    svg = render_map_svg(provinces=default_views(), kingdoms=[RED], title="Briternia, turn 1")

    root = parse(svg)

    assert root.tag == f"{SVG}svg"
    assert root.get("role") == "img"
    assert re.fullmatch(r"0 0 \d+ \d+", root.get("viewBox") or "")
    assert root.get("width") and root.get("height")
    title = root.find(f"{SVG}title")
    assert title is not None and title.text == "Briternia, turn 1"


def test_every_province_has_its_group() -> None:
    views = default_views()

    root = parse(render_map_svg(provinces=views, kingdoms=[]))

    for view in views:
        group = province_group(root, view.number)
        assert group.get("data-province") == str(view.number)
        assert view.name in all_text(group) or view.name.split()[0] in all_text(group)


def test_provinces_are_placed_by_column_and_row() -> None:
    root = parse(render_map_svg(provinces=two_by_two(), kingdoms=[]))

    def terrain_rect(number: int) -> tuple[float, float]:
        rect = next(r for r in province_group(root, number).iter(f"{SVG}rect") if has_class(r, "terrain"))
        return float(rect.get("x") or 0), float(rect.get("y") or 0)

    (x1, y1), (x2, y2), (x3, y3) = terrain_rect(1), terrain_rect(2), terrain_rect(3)
    assert x2 > x1 and y2 == y1
    assert x3 == x1 and y3 > y1


def test_controlled_province_shows_the_controllers_colour() -> None:
    views = default_views(controllers={11: "red", 12: "blue"})

    root = parse(render_map_svg(provinces=views, kingdoms=[RED, BLUE]))

    assert RED.colour in colours_used(province_group(root, 11))
    assert BLUE.colour in colours_used(province_group(root, 12))
    assert RED.colour not in colours_used(province_group(root, 12))
    neutral = province_group(root, 13)
    assert not {RED.colour, BLUE.colour} & colours_used(neutral)


def test_army_markers_appear_only_for_the_armies_given() -> None:
    armies = [
        MapArmyMarker(province=2, label="1st Army", kingdom="red"),
        MapArmyMarker(province=2, label="Iron Host", kingdom="blue"),
        MapArmyMarker(province=3, label="2nd Army", kingdom="red"),
    ]

    root = parse(render_map_svg(provinces=two_by_two(), kingdoms=[RED, BLUE], armies=armies))

    assert len(armies_in(root)) == 3
    assert len(armies_in(province_group(root, 2))) == 2
    assert len(armies_in(province_group(root, 3))) == 1
    assert armies_in(province_group(root, 1)) == []
    assert BLUE.colour in colours_used(armies_in(province_group(root, 2))[1])


def test_no_armies_no_markers() -> None:
    root = parse(render_map_svg(provinces=two_by_two(), kingdoms=[RED]))

    assert armies_in(root) == []


def test_armies_sharing_a_province_do_not_overlap() -> None:
    armies = [MapArmyMarker(province=1, label=str(n), kingdom="red") for n in range(6)]

    root = parse(render_map_svg(provinces=two_by_two(), kingdoms=[RED], armies=armies))

    boxes = []
    for marker in armies_in(root):
        rect = marker.find(f"{SVG}rect")
        assert rect is not None
        x, y = float(rect.get("x") or 0), float(rect.get("y") or 0)
        boxes.append((x, y, x + float(rect.get("width") or 0), y + float(rect.get("height") or 0)))
    for i, a in enumerate(boxes):
        for b in boxes[i + 1 :]:
            assert a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1], (a, b)


def test_text_is_escaped() -> None:
    evil = MapKingdomView(key="evil", name="<Evil & Co>", colour="#111111")
    views = [*two_by_two()[:3], MapProvinceView(4, 'Tom & "Jerry" <b>', "desert", "none", 1, 1, controller="evil")]
    armies = [MapArmyMarker(province=4, label="<script>", kingdom="evil")]

    svg = render_map_svg(provinces=views, kingdoms=[evil], armies=armies, title="A & B")

    assert "<Evil" not in svg and "<script>" not in svg and "<b>" not in svg
    assert "&lt;Evil &amp; Co&gt;" in svg
    root = parse(svg)
    assert "<Evil & Co>" in all_text(root)
    assert 'Tom & "Jerry" <b>' in all_text(root)


def test_legend_names_each_kingdom_and_neutral() -> None:
    kingdoms = [RED, BLUE, MapKingdomView(key="dead", name="Ancient Dead", colour="#7b2cbf")]

    root = parse(render_map_svg(provinces=two_by_two(), kingdoms=kingdoms))

    legend = next(g for g in root.iter(f"{SVG}g") if has_class(g, "legend"))
    text = all_text(legend)
    for kingdom in kingdoms:
        assert kingdom.name in text
        assert kingdom.colour in colours_used(legend)
    assert "Neutral" in text
    for word in ("Plains", "Forest", "Marshland", "Mountains", "Desert", "Town", "City", "Capitol", "Ruins"):
        assert word in text


def test_razed_fortified_capitol_and_pyramid_are_drawn() -> None:
    views = [
        MapProvinceView(1, "Highcastle", "plains", "city", 0, 0, controller="red", capitol=True, fortified=True),
        MapProvinceView(2, "Wolfwood", "forest", "none", 1, 0, razed=True),
        MapProvinceView(3, "Saltmarch", "plains", "city", 0, 1, capitol_site=True),
        MapProvinceView(4, "The Pyramid", "desert", "none", 1, 1, pyramid=True),
    ]

    root = parse(render_map_svg(provinces=views, kingdoms=[RED]))

    def classes_in(number: int) -> set[str]:
        return {c for e in province_group(root, number).iter() for c in (e.get("class") or "").split()}

    assert {"capitol-star", "fortified-symbol"} <= classes_in(1)
    assert "razed" in classes_in(2) and "razed" not in classes_in(1)
    assert "capitol-site" in classes_in(3) and "capitol-site" not in classes_in(1)
    assert "pyramid-symbol" in classes_in(4)


def test_svg_has_nothing_a_pdf_renderer_cannot_draw() -> None:
    svg = render_map_svg(provinces=default_views(), kingdoms=[RED])

    assert "<script" not in svg
    assert "var(" not in svg
    assert "@import" not in svg and "@font-face" not in svg
    assert "href" not in svg
    assert svg.isascii()


def test_unknown_kingdom_or_province_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown kingdom 'green'"):
        render_map_svg(provinces=[MapProvinceView(1, "A", "plains", "none", 0, 0, controller="green")], kingdoms=[])
    with pytest.raises(ValueError, match="province 9"):
        render_map_svg(provinces=two_by_two(), kingdoms=[RED], armies=[MapArmyMarker(9, "Lost", "red")])
    with pytest.raises(ValueError, match="rrggbb"):
        render_map_svg(provinces=two_by_two(), kingdoms=[MapKingdomView("red", "Red", "red; fill: url(x)")])


def test_empty_map_still_renders() -> None:
    root = parse(render_map_svg(provinces=[], kingdoms=[RED]))

    assert "Crimson Throne" in all_text(root)


def test_palette_has_twenty_distinct_colours() -> None:
    assert len(KINGDOM_PALETTE) >= 20
    assert len({c.lower() for c in KINGDOM_PALETTE}) == len(KINGDOM_PALETTE)
    assert all(re.fullmatch(r"#[0-9a-f]{6}", c) for c in KINGDOM_PALETTE)


def test_kingdom_colour_cycles_through_the_palette() -> None:
    assert kingdom_colour(0) == KINGDOM_PALETTE[0]
    assert kingdom_colour(1) != kingdom_colour(0)
    assert kingdom_colour(len(KINGDOM_PALETTE)) == KINGDOM_PALETTE[0]
    with pytest.raises(ValueError):
        kingdom_colour(-1)


def test_the_turn_s_moves_are_arrows_and_its_battles_crossed_swords() -> None:
    """Movement and Forced March (rules decision 340): an arrow from the province left through the
    one passed to the one entered, in the army's kingdom's colour; each battle a marker on its province."""
    svg = render_map_svg(
        provinces=two_by_two(),
        kingdoms=[RED, BLUE],
        arrows=[MapArrow(path=(1, 2, 4), label="Raiders", kingdom="red")],
        battles=[MapBattleMarker(province=4, label="Battle in The Pyramid: Raiders against the Azure Court")],
    )
    root = parse(svg)
    (move,) = [g for g in root.iter(f"{SVG}g") if has_class(g, "move")]
    assert move.get("data-path") == "1-2-4" and move.get("data-kingdom") == "red"
    assert "#d7191c" in colours_used(move)
    assert move.findtext(f"{SVG}title") == "Raiders (Crimson Throne) moved 1 to 2 to 4"
    (battle,) = [g for g in root.iter(f"{SVG}g") if has_class(g, "battle")]
    assert battle.get("data-province") == "4" and "Battle in The Pyramid" in battle.findtext(f"{SVG}title")


def test_an_overlay_carries_its_arrows_and_keeps_the_map_s_size() -> None:
    """The private report lays its own moves over the public map's picture: same canvas, no battles."""
    public = parse(render_map_svg(provinces=two_by_two(), kingdoms=[RED, BLUE], battles=[MapBattleMarker(4, "x")]))
    overlay = parse(
        render_map_svg(
            provinces=two_by_two(),
            kingdoms=[RED, BLUE],
            arrows=[MapArrow(path=(3, 1), label="Boyz", kingdom="blue")],
            only_armies=True,
        )
    )
    assert overlay.get("viewBox") == public.get("viewBox")
    assert [g for g in overlay.iter(f"{SVG}g") if has_class(g, "move")]
    assert not [g for g in overlay.iter(f"{SVG}g") if has_class(g, "battle")]


def test_a_move_off_the_map_is_refused_with_the_army_named() -> None:
    with pytest.raises(ValueError, match="Raiders"):
        render_map_svg(
            provinces=two_by_two(), kingdoms=[RED], arrows=[MapArrow(path=(1, 9), label="Raiders", kingdom="red")]
        )


def test_a_raided_ruin_and_a_sacked_town_s_ruin_are_drawn_and_named() -> None:
    """Tomb Raiders, Tomb Raid (issue 31): a ruin raided successfully shows its open chest, and its
    title says so in words (how many times, never by whom: decision 442); a sacked town's ruin
    (The Ancient Dead: Deserts) says what it was. A ruin never raided shows neither; the legend
    names the chest."""
    views = [
        MapProvinceView(1, "Highcastle", "plains", "city", 0, 0),
        MapProvinceView(2, "Wolfwood", "forest", "ruins", 1, 0, ruin_raids=2),
        MapProvinceView(3, "Blackmire", "marshland", "ruins", 0, 1),
        MapProvinceView(4, "Ashmound", "desert", "ruins", 1, 1, ruin_sacked=True, ruin_raids=1),
    ]

    root = parse(render_map_svg(provinces=views, kingdoms=[RED]))

    def classes_in(number: int) -> set[str]:
        return {c for e in province_group(root, number).iter() for c in (e.get("class") or "").split()}

    def title_of(number: int) -> str:
        return province_group(root, number).find(f"{SVG}title").text or ""

    assert {"ruins-raided", "raided-symbol"} <= classes_in(2)
    assert title_of(2) == "2. Wolfwood (forest, ruins, raided 2 times) - neutral"
    assert not {"ruins-raided", "raided-symbol", "ruins-sacked"} & classes_in(3)
    assert "raided" not in title_of(3) and "sacked" not in title_of(3)
    assert {"ruins-raided", "ruins-sacked"} <= classes_in(4)
    assert "the ruins of a town sacked by the desert, raided once" in title_of(4)
    assert "ruin" not in " ".join(classes_in(1)) and "raided" not in title_of(1)
    legend = " ".join(t.text or "" for t in root.iter(f"{SVG}text"))
    assert "Ruins raided" in legend


def test_a_long_army_name_is_drawn_smaller_before_it_is_cut() -> None:
    """Issue 37: "Host of Whispering Dunes" on its flag reads whole (in a smaller font), not
    "Host of Whisper…"; a name too long even then is cut, the whole name kept in the flag's title."""
    long_name = "Host of Whispering Dunes"
    too_long = "The Eternal Legion of the Whispering Dunes and the Sunken Necropolis"
    root = parse(
        render_map_svg(
            provinces=two_by_two(),
            kingdoms=[RED],
            armies=[
                MapArmyMarker(province=1, label=long_name, kingdom="red"),
                MapArmyMarker(province=4, label=too_long, kingdom="red"),
            ],
        )
    )
    shown = {t.text: float(t.get("font-size")) for flag in armies_in(root) for t in flag.iter(f"{SVG}text")}
    assert shown[long_name] < 8
    (cut,) = [text for text in shown if text.endswith("…")]
    assert too_long.startswith(cut[:-1]) and shown[cut] == 5
    titles = [t.text for flag in armies_in(root) for t in flag.iter(f"{SVG}title")]
    assert f"{too_long} (Crimson Throne)" in titles
