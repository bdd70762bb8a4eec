"""Drawing the campaign map as a standalone SVG string (pure Python, no Django).

The SVG uses only presentation attributes (no scripts, CSS variables or external fonts), so
it looks the same inline in an HTML page and in a WeasyPrint PDF. Every piece of text is
escaped with xml.sax.saxutils, so province and kingdom names are safe to embed.
"""

from __future__ import annotations

import math
import re
from collections import defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from xml.sax.saxutils import escape, quoteattr

from rulebook.setup.maps import SETTLEMENTS, TERRAINS


@dataclass(frozen=True)
class MapProvinceView:
    """One province as it stands now, ready to draw."""

    number: int
    name: str
    terrain: str
    settlement: str
    col: int
    row: int
    pyramid: bool = False
    razed: bool = False
    fortified: bool = False
    controller: str | None = None  # a MapKingdomView.key, None for neutral
    capitol: bool = False  # this province is a kingdom's capitol
    capitol_site: bool = False  # a predetermined capitol site (drawn subtly, useful during setup)
    incantation: bool = False  # the Ancient Dead's incantations: plains now, desert next turn if they stay
    # Ruins (Tomb Raiders, Tomb Raid): how many times they were raided successfully (public: decision 442),
    # and whether they are a town or city the desert sacked (The Ancient Dead: Deserts).
    ruin_raids: int = 0
    ruin_sacked: bool = False

    @property
    def ruins_raided(self) -> bool:
        return self.settlement == "ruins" and self.ruin_raids > 0

    @property
    def ruins_sacked(self) -> bool:
        return self.settlement == "ruins" and self.ruin_sacked


@dataclass(frozen=True)
class MapKingdomView:
    """A kingdom as the map shows it: `key` ties provinces and armies to it, colour is '#rrggbb'."""

    key: str
    name: str
    colour: str


@dataclass(frozen=True)
class MapArmyMarker:
    """An army standing in a province, drawn as a small labelled flag in its kingdom's colour."""

    province: int
    label: str
    kingdom: str  # a MapKingdomView.key


@dataclass(frozen=True)
class MapArrow:
    """An army's move this turn: `path` runs from the province it left through every province it
    passed (a Forced March) to the one it entered, drawn as an arrow in its kingdom's colour."""

    path: tuple[int, ...]
    label: str
    kingdom: str  # a MapKingdomView.key


@dataclass(frozen=True)
class MapBattleMarker:
    """A battle of the turn in a province, drawn as crossed swords; `label` names it (its tooltip)."""

    province: int
    label: str


# Saturated colours that stand out against every terrain fill; the first eight (one per
# capitol site on the default map) are the most distinct from each other.
KINGDOM_PALETTE: tuple[str, ...] = (
    "#d7191c",  # crimson
    "#2c4fd6",  # royal blue
    "#ff8c00",  # orange
    "#7b2cbf",  # purple
    "#e7298a",  # magenta
    "#ffd700",  # gold
    "#00a6d6",  # cerulean
    "#111111",  # black
    "#8b0000",  # dark red
    "#1b1b6b",  # navy
    "#a0522d",  # sienna
    "#ff69b4",  # pink
    "#ffffff",  # white
    "#b8860b",  # dark goldenrod
    "#00ced1",  # turquoise
    "#6a5acd",  # slate blue
    "#ff4500",  # orange red
    "#4b0082",  # indigo
    "#f08080",  # light coral
    "#8a2be2",  # blue violet
    "#c71585",  # medium violet red
    "#5c3317",  # chocolate
)

TERRAIN_COLOURS: dict[str, str] = {
    "plains": "#cfe6a6",
    "forest": "#3f7d3a",
    "marshland": "#5fa89c",
    "mountains": "#a19d96",
    "desert": "#ecd79b",
}
# Dark forest needs light lettering; every other fill reads best with dark lettering.
TERRAIN_TEXT_COLOURS: dict[str, str] = {
    "plains": "#1e1e1e",
    "forest": "#ffffff",
    "marshland": "#10201e",
    "mountains": "#1e1e1e",
    "desert": "#3a2c0a",
}
SETTLEMENT_LABELS: dict[str, str] = {
    "none": "No settlement",
    "town": "Town",
    "city": "City",
    "ruins": "Ruins",
}
assert set(TERRAIN_COLOURS) == set(TERRAINS) == set(TERRAIN_TEXT_COLOURS)
assert set(SETTLEMENT_LABELS) == set(SETTLEMENTS)

CELL = 104  # side of one province square, in SVG user units (CSS px when not scaled)
MARGIN = 16
TITLE_HEIGHT = 34
MIN_WIDTH = 720  # so the legend has room even beside a small map
FONT_FAMILY = "'DejaVu Sans', Verdana, Arial, Helvetica, sans-serif"
NEUTRAL_LABEL = "Neutral (no kingdom)"

_COLOUR_RE = re.compile(r"^#[0-9a-fA-F]{6}$")
_NAME_FONT = 9.5
_SYMBOL_SCALE = 1.15
# Hatching must contrast with the terrain beneath it: light on dark forest, dark elsewhere.
_HATCH_COLOURS = {"forest": "#f3e6c8"}
_CONTROL_BORDER = 6


def kingdom_colour(index: int) -> str:
    """The palette colour for the index-th kingdom (0-based), cycling after the last colour."""
    if index < 0:
        raise ValueError(f"A kingdom index cannot be negative, got {index}.")
    return KINGDOM_PALETTE[index % len(KINGDOM_PALETTE)]


def render_map_svg(
    *,
    provinces: Iterable[MapProvinceView],
    kingdoms: Iterable[MapKingdomView],
    armies: Iterable[MapArmyMarker] = (),
    title: str = "",
    only_armies: bool = False,
    arrows: Iterable[MapArrow] = (),
    battles: Iterable[MapBattleMarker] = (),
) -> str:
    """The map as an SVG document string: one square per province at (col, row), filled by
    terrain and bordered in its controller's colour, with settlements, pyramid, razing,
    fortification and army flags, and a legend below naming every kingdom's colour.

    `arrows`: the turn's moves, drawn over the provinces; `battles`: the turn's battles, crossed
    swords on their provinces. Which of them a reader may see is the caller's choice (rules
    decision 340).

    `only_armies`: the army flags and the arrows alone on a transparent canvas of the same size, to
    lay over a picture of the map without them (the PDF reports draw the costly map once per turn);
    battle markers belong to that picture.

    Raises ValueError when the views disagree (an unknown terrain, settlement, kingdom or
    province; two provinces on one number or square; a colour that is not '#rrggbb').
    """
    province_list = list(provinces)
    kingdom_list = list(kingdoms)
    army_list = list(armies)
    kingdom_by_key = _check_kingdoms(kingdom_list)
    _check_provinces(province_list, kingdom_by_key)
    armies_by_province = _group_armies(army_list, province_list, kingdom_by_key)
    arrow_list, battle_list = list(arrows), list(battles)
    _check_turn_marks(arrow_list, battle_list, province_list, kingdom_by_key)

    min_col = min((p.col for p in province_list), default=0)
    min_row = min((p.row for p in province_list), default=0)
    cols = max((p.col for p in province_list), default=0) - min_col + 1 if province_list else 0
    rows = max((p.row for p in province_list), default=0) - min_row + 1 if province_list else 0
    map_width = cols * CELL
    width = max(map_width, MIN_WIDTH) + 2 * MARGIN
    map_top = MARGIN + (TITLE_HEIGHT if title else 0)
    map_left = MARGIN + (width - 2 * MARGIN - map_width) // 2
    legend_top = map_top + rows * CELL + 22
    legend_parts, legend_height = _legend(kingdom_list, left=MARGIN, top=legend_top, width=width - 2 * MARGIN)
    height = legend_top + legend_height + MARGIN

    heading = title or "Campaign map"

    def centre(number: int) -> tuple[float, float]:
        province = by_number[number]
        return map_left + (province.col - min_col + 0.5) * CELL, map_top + (province.row - min_row + 0.5) * CELL

    by_number = {p.number: p for p in province_list}
    arrow_parts = _arrows(arrow_list, centre, kingdom_by_key)
    if only_armies:
        overlay = [
            f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" '
            f'width="{width}" height="{height}" font-family={quoteattr(FONT_FAMILY)}>',
            # The tagged PDF's words for the overlay (briternia/pdf.py): the map under it has its own.
            f"<title>{escape(heading)}: the armies and their moves</title>",
        ]
        for province in sorted(province_list, key=lambda p: p.number):
            if armies_by_province[province.number]:
                x = map_left + (province.col - min_col) * CELL
                y = map_top + (province.row - min_row) * CELL
                overlay.extend(_army_flags(armies_by_province[province.number], x, y, kingdom_by_key))
        overlay.extend(arrow_parts)
        overlay.append("</svg>")
        return "\n".join(overlay).encode("ascii", "xmlcharrefreplace").decode("ascii")
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" '
        f'width="{width}" height="{height}" role="img" aria-labelledby="map-title" '
        f"font-family={quoteattr(FONT_FAMILY)}>",
        f'<title id="map-title">{escape(heading)}</title>',
        f'<rect class="background" x="0" y="0" width="{width}" height="{height}" fill="#fbf8f0"/>',
    ]
    if title:
        parts.append(
            f'<text class="map-heading" x="{width / 2:g}" y="{MARGIN + 22}" text-anchor="middle" '
            f'font-size="20" font-weight="bold" fill="#2b2418">{escape(title)}</text>'
        )
    parts.append('<g class="provinces">')
    for province in sorted(province_list, key=lambda p: p.number):
        x = map_left + (province.col - min_col) * CELL
        y = map_top + (province.row - min_row) * CELL
        controller = kingdom_by_key[province.controller] if province.controller else None
        parts.extend(_province(province, x, y, controller, armies_by_province[province.number], kingdom_by_key))
    parts.append("</g>")
    parts.extend(arrow_parts)
    parts.extend(_battle_markers(battle_list, centre))
    if province_list:
        parts.append(
            f'<rect class="map-frame" x="{map_left}" y="{map_top}" width="{map_width}" '
            f'height="{rows * CELL}" fill="none" stroke="#2b2418" stroke-width="2"/>'
        )
    parts.extend(legend_parts)
    parts.append("</svg>")
    # Non-ASCII text as character references, so the drawing survives a page or file saved
    # in any encoding.
    return "\n".join(parts).encode("ascii", "xmlcharrefreplace").decode("ascii")


# --- validation ----------------------------------------------------------------------------


def _check_kingdoms(kingdoms: list[MapKingdomView]) -> dict[str, MapKingdomView]:
    by_key: dict[str, MapKingdomView] = {}
    for kingdom in kingdoms:
        if kingdom.key in by_key:
            raise ValueError(f"Two kingdoms share the key {kingdom.key!r}.")
        if not _COLOUR_RE.match(kingdom.colour):
            raise ValueError(f"Kingdom {kingdom.key!r} has colour {kingdom.colour!r}; expected '#rrggbb'.")
        by_key[kingdom.key] = kingdom
    return by_key


def _check_provinces(provinces: list[MapProvinceView], kingdoms: dict[str, MapKingdomView]) -> None:
    numbers: set[int] = set()
    positions: set[tuple[int, int]] = set()
    for province in provinces:
        label = f"Province {province.number}"
        if province.number in numbers:
            raise ValueError(f"{label} appears twice.")
        if (province.col, province.row) in positions:
            raise ValueError(f"{label} is on the same square as another province.")
        if province.terrain not in TERRAIN_COLOURS:
            raise ValueError(f"{label} has unknown terrain {province.terrain!r}.")
        if province.settlement not in SETTLEMENT_LABELS:
            raise ValueError(f"{label} has unknown settlement {province.settlement!r}.")
        if province.controller is not None and province.controller not in kingdoms:
            raise ValueError(f"{label} is controlled by unknown kingdom {province.controller!r}.")
        numbers.add(province.number)
        positions.add((province.col, province.row))


def _group_armies(
    armies: list[MapArmyMarker], provinces: list[MapProvinceView], kingdoms: dict[str, MapKingdomView]
) -> dict[int, list[MapArmyMarker]]:
    numbers = {p.number for p in provinces}
    grouped: dict[int, list[MapArmyMarker]] = defaultdict(list)
    for army in armies:
        if army.province not in numbers:
            raise ValueError(f"Army {army.label!r} stands in province {army.province}, which is not on the map.")
        if army.kingdom not in kingdoms:
            raise ValueError(f"Army {army.label!r} belongs to unknown kingdom {army.kingdom!r}.")
        grouped[army.province].append(army)
    return grouped


def _check_turn_marks(
    arrows: list[MapArrow],
    battles: list[MapBattleMarker],
    provinces: list[MapProvinceView],
    kingdoms: dict[str, MapKingdomView],
) -> None:
    numbers = {p.number for p in provinces}
    for arrow in arrows:
        if len(arrow.path) < 2 or any(n not in numbers for n in arrow.path):
            raise ValueError(f"The move of {arrow.label!r} runs {list(arrow.path)}, not between provinces on the map.")
        if arrow.kingdom not in kingdoms:
            raise ValueError(f"The move of {arrow.label!r} belongs to unknown kingdom {arrow.kingdom!r}.")
    for battle in battles:
        if battle.province not in numbers:
            raise ValueError(f"Battle {battle.label!r} is in province {battle.province}, which is not on the map.")


# --- the turn's moves and battles ----------------------------------------------------------

# Where a province's middle is drawn: province number -> (x, y).
_Centre = Callable[[int], tuple[float, float]]


def _arrows(arrows: list[MapArrow], centre: _Centre, kingdoms: dict[str, MapKingdomView]) -> list[str]:
    """Each move as a line from the middle of the province left through each province passed to
    the one entered, ending in a computed arrowhead (no <marker>: PDF renderers support it unevenly).
    A dark casing under the kingdom's colour keeps it readable on every terrain."""
    if not arrows:
        return []
    parts = ['<g class="moves">']
    for arrow in arrows:
        kingdom = kingdoms[arrow.kingdom]
        points = [centre(n) for n in arrow.path]
        # Stop short of the destination's middle, so the head points at the province, not past it.
        (x1, y1), (x2, y2) = points[-2], points[-1]
        length = math.hypot(x2 - x1, y2 - y1) or 1.0
        ux, uy = (x2 - x1) / length, (y2 - y1) / length
        tip = (x2 - ux * 14, y2 - uy * 14)
        base = (tip[0] - ux * 13, tip[1] - uy * 13)
        shaft = " ".join(f"{x:g},{y:g}" for x, y in [*points[:-1], base])
        head = " ".join(
            f"{x:.1f},{y:.1f}"
            for x, y in (tip, (base[0] - uy * 8, base[1] + ux * 8), (base[0] + uy * 8, base[1] - ux * 8))
        )
        names = " to ".join(str(n) for n in arrow.path)
        parts.append(
            f'<g class="move" data-kingdom={quoteattr(kingdom.key)} data-path="{"-".join(map(str, arrow.path))}">'
            f"<title>{escape(f'{arrow.label} ({kingdom.name}) moved {names}')}</title>"
            f'<polyline points="{shaft}" fill="none" stroke="#2b2418" stroke-width="7" stroke-linejoin="round" '
            'stroke-linecap="round" stroke-opacity="0.7"/>'
            f'<polyline points="{shaft}" fill="none" stroke="{kingdom.colour}" stroke-width="4" '
            'stroke-linejoin="round" stroke-linecap="round"/>'
            f'<polygon points="{head}" fill="{kingdom.colour}" stroke="#2b2418" stroke-width="1.2"/>'
            "</g>"
        )
    parts.append("</g>")
    return parts


def _battle_markers(battles: list[MapBattleMarker], centre: _Centre) -> list[str]:
    """Crossed swords at the right of each battle's province, above the settlement symbol."""
    if not battles:
        return []
    parts = ['<g class="battles">']
    for battle in battles:
        x, y = centre(battle.province)
        parts.append(
            f'<g class="battle" data-province="{battle.province}"><title>{escape(battle.label)}</title>'
            f"{_at(x + CELL / 2 - 17, y - 8, _crossed_swords())}</g>"
        )
    parts.append("</g>")
    return parts


# --- one province --------------------------------------------------------------------------


def _province(
    province: MapProvinceView,
    x: int,
    y: int,
    controller: MapKingdomView | None,
    armies: list[MapArmyMarker],
    kingdoms: dict[str, MapKingdomView],
) -> list[str]:
    text_colour = TERRAIN_TEXT_COLOURS[province.terrain]
    classes = ["province", f"terrain-{province.terrain}", f"settlement-{province.settlement}"]
    classes += [flag for flag in ("razed", "fortified", "capitol", "incantation") if getattr(province, flag)]
    classes += [flag.replace("_", "-") for flag in ("ruins_raided", "ruins_sacked") if getattr(province, flag)]
    if controller is None:
        classes.append("neutral")
    parts = [
        f'<g id="province-{province.number}" data-province="{province.number}" class="{" ".join(classes)}"'
        + (f" data-controller={quoteattr(controller.key)}" if controller else "")
        + ">",
        f"<title>{escape(_tooltip(province, controller))}</title>",
        f'<rect class="terrain" x="{x}" y="{y}" width="{CELL}" height="{CELL}" '
        f'fill="{TERRAIN_COLOURS[province.terrain]}" stroke="#4a4232" stroke-width="1"/>',
    ]
    if province.razed:
        parts.append(_hatching(x + 1, y + 1, CELL - 2, colour=_HATCH_COLOURS.get(province.terrain, "#5b2c0f")))
    if controller is not None:
        inset = _CONTROL_BORDER / 2 + 1
        parts.append(
            f'<rect class="control" x="{x + inset:g}" y="{y + inset:g}" width="{CELL - 2 * inset:g}" '
            f'height="{CELL - 2 * inset:g}" fill="none" stroke="{controller.colour}" '
            f'stroke-width="{_CONTROL_BORDER}"/>'
        )
    parts.append(
        f'<text class="number" x="{x + 9}" y="{y + 20}" font-size="13" font-weight="bold" '
        f'fill="{text_colour}">{province.number}</text>'
    )
    if province.fortified:
        parts.append(_at(x + CELL - 30, y + 9, _fortification()))
    if province.incantation:
        # The sand creeping in: a dashed border in the desert's colour.
        parts.append(
            f'<rect class="incantation-mark" x="{x + 4}" y="{y + 4}" width="{CELL - 8}" height="{CELL - 8}" '
            f'fill="none" stroke="{TERRAIN_COLOURS["desert"]}" stroke-width="4" stroke-dasharray="6 4"/>'
        )

    # Settlement and pyramid share the middle of the square; side by side when both are there.
    centre_x, centre_y = x + CELL / 2, y + 61
    symbols: list[str] = []
    if province.settlement != "none" or province.capitol:
        symbols.append(_settlement_symbol(province.settlement, capitol=province.capitol))
    if province.pyramid:
        symbols.append(_pyramid())
    if province.ruins_raided:
        # A raided ruin: the open chest beside its symbol (its title says it in words).
        parts.append(_at(x + 22, y + 64, _raided_chest()))
    spread = 30
    for index, symbol in enumerate(symbols):
        offset = (index - (len(symbols) - 1) / 2) * spread
        parts.append(_at(centre_x + offset, centre_y, symbol, _SYMBOL_SCALE))
    if province.capitol_site and not province.capitol:
        parts.append(_at(centre_x, centre_y, _capitol_site_ring(24)))

    parts.extend(_army_flags(armies, x, y, kingdoms))
    parts.extend(_name_lines(province.name, x, y, text_colour))
    parts.append("</g>")
    return parts


def _tooltip(province: MapProvinceView, controller: MapKingdomView | None) -> str:
    details = [province.terrain]
    if province.settlement != "none":
        details.append(province.settlement)
    details += [word for word, flag in (("capitol", province.capitol), ("pyramid", province.pyramid)) if flag]
    details += [word for word, flag in (("razed", province.razed), ("fortified", province.fortified)) if flag]
    if province.ruins_sacked:
        details.append("the ruins of a town sacked by the desert")
    if province.ruins_raided:
        times = "once" if province.ruin_raids == 1 else f"{province.ruin_raids} times"
        details.append(f"raided {times}")
    if province.incantation:
        details.append("the Ancient Dead's incantations: desert next turn")
    if province.capitol_site and not province.capitol:
        details.append("capitol site")
    holder = controller.name if controller else "neutral"
    return f"{province.number}. {province.name} ({', '.join(details)}) - {holder}"


def _name_lines(name: str, x: int, y: int, colour: str) -> list[str]:
    lines = _wrap(name, max_chars=int((CELL - 10) / (_NAME_FONT * 0.58)), max_lines=2)
    bottom = y + CELL - 8
    parts = []
    for index, line in enumerate(lines):
        line_y = bottom - (len(lines) - 1 - index) * (_NAME_FONT + 2)
        parts.append(
            f'<text class="name" x="{x + CELL / 2:g}" y="{line_y:g}" text-anchor="middle" '
            f'font-size="{_NAME_FONT}" fill="{colour}">{escape(line)}</text>'
        )
    return parts


def _wrap(text: str, *, max_chars: int, max_lines: int) -> list[str]:
    """Split text into at most max_lines lines of at most max_chars, ending in '…' when cut."""
    lines: list[str] = []
    current = ""
    for word in text.split():
        candidate = f"{current} {word}" if current else word
        if len(candidate) <= max_chars or not current:
            current = candidate
        else:
            lines.append(current)
            current = word
    if current:
        lines.append(current)
    cut = len(lines) > max_lines
    lines = lines[:max_lines]
    shortened = []
    for index, line in enumerate(lines):
        if len(line) > max_chars or (cut and index == len(lines) - 1):
            line = line[: max_chars - 1].rstrip() + "…"
        shortened.append(line)
    return shortened


def _army_flags(armies: list[MapArmyMarker], x: int, y: int, kingdoms: dict[str, MapKingdomView]) -> list[str]:
    # Flags sit in fixed slots, up to two (three when crowded) a row below the province number,
    # so any number of armies in one province never overlap each other.
    if not armies:
        return []
    per_row = 1 if len(armies) == 1 else 2 if len(armies) <= 4 else 3
    slot_width = (CELL - 12) / per_row
    flag_height = 13
    parts = []
    for index, army in enumerate(armies):
        kingdom = kingdoms[army.kingdom]
        slot_x = x + 6 + (index % per_row) * slot_width
        slot_y = y + 25 + (index // per_row) * (flag_height + 3)
        parts.append(_flag(army.label, kingdom, slot_x, slot_y, width=slot_width - 3, height=flag_height, cls="army"))
    return parts


FLAG_FONT = 8  # an army's flag's label, in the map's units
FLAG_FONT_MIN = 5  # the smallest a long name is drawn before it is cut


def _flag(label: str, kingdom: MapKingdomView, x: float, y: float, *, width: float, height: float, cls: str) -> str:
    """A flag: a short pole and a pennant in the kingdom's colour carrying the label."""
    text_colour = _readable_on(kingdom.colour)
    pennant_x = x + 3
    pennant_width = width - 3
    # A long name is drawn smaller until it fits (down to FLAG_FONT_MIN), and only cut beyond that:
    # "Host of Whispering Dunes" is read whole, not "Host of Whisper…" (issue 37).
    fits = (pennant_width - 4) / (FLAG_FONT * 0.62)
    font = FLAG_FONT if len(label) <= fits else max(FLAG_FONT_MIN, FLAG_FONT * fits / len(label))
    max_chars = max(1, int((pennant_width - 4) / (font * 0.62)))
    shown = label if len(label) <= max_chars else label[: max_chars - 1] + "…"
    return (
        f'<g class="{cls}" data-kingdom={quoteattr(kingdom.key)}>'
        f"<title>{escape(f'{label} ({kingdom.name})')}</title>"
        f'<line x1="{x + 1:g}" y1="{y - 1:g}" x2="{x + 1:g}" y2="{y + height + 3:g}" '
        f'stroke="#2b2418" stroke-width="1.5"/>'
        f'<rect x="{pennant_x:g}" y="{y:g}" width="{pennant_width:g}" height="{height}" rx="2" '
        f'fill="{kingdom.colour}" stroke="#2b2418" stroke-width="0.8"/>'
        f'<text x="{pennant_x + pennant_width / 2:g}" y="{y + height - 3.5:g}" text-anchor="middle" '
        f'font-size="{font:.3g}" font-weight="bold" fill="{text_colour}">{escape(shown)}</text>'
        "</g>"
    )


def _hatching(x: float, y: float, size: float, *, colour: str = "#5b2c0f") -> str:
    """Diagonal lines across a square, computed rather than drawn with <pattern>, which PDF
    renderers support unevenly."""
    step = 9
    lines = []
    for k in range(step, int(2 * size), step):
        x1, y1 = x + max(0, k - size), y + min(k, size)
        x2, y2 = x + min(k, size), y + max(0, k - size)
        lines.append(f'<line x1="{x1:g}" y1="{y1:g}" x2="{x2:g}" y2="{y2:g}"/>')
    return f'<g class="razed" stroke="{colour}" stroke-width="1.6" stroke-opacity="0.6">{"".join(lines)}</g>'


# --- symbols, each drawn around (0, 0) -----------------------------------------------------


def _at(x: float, y: float, body: str, scale: float = 1.0) -> str:
    transform = f"translate({x:g} {y:g})" + (f" scale({scale:g})" if scale != 1.0 else "")
    return f'<g transform="{transform}">{body}</g>'


def _settlement_symbol(settlement: str, *, capitol: bool = False) -> str:
    body = {"town": _town, "city": _city, "ruins": _ruins}.get(settlement, lambda: "")()
    if capitol:
        # The star sits at the city's shoulder, not above it, to stay clear of army flags;
        # without a settlement symbol it takes the middle.
        body += _at(19, -10, _star()) if body else _star()
        return f'<g class="capitol-symbol">{body}</g>'
    return body


def _town() -> str:
    return (
        '<g class="town-symbol" stroke="#2b2418" stroke-width="1">'
        '<rect x="-7" y="-2" width="14" height="11" fill="#f7f0e0"/>'
        '<polygon points="-10,-2 0,-11 10,-2" fill="#b03a2e"/>'
        '<rect x="-2" y="3" width="4" height="6" fill="#6b4a2b"/>'
        "</g>"
    )


def _city() -> str:
    return (
        '<g class="city-symbol" stroke="#2b2418" stroke-width="1" fill="#eeeae0">'
        '<path d="M-15,11 V-6 H-13 V-9 H-10 V-6 H-7 V-9 H-4 V-6 H-2 V11 Z"/>'
        '<path d="M2,11 V-6 H4 V-9 H7 V-6 H10 V-9 H13 V-6 H15 V11 Z"/>'
        '<path d="M-6,11 V-12 H-4 V-15 H-1 V-12 H1 V-15 H4 V-12 H6 V11 Z"/>'
        '<rect x="-2" y="4" width="4" height="7" fill="#6b4a2b"/>'
        "</g>"
    )


def _ruins() -> str:
    return (
        '<g class="ruins-symbol" stroke="#4a4232" stroke-width="1" fill="#d9d2c1">'
        '<path d="M-12,9 V-3 L-10,-5 L-8,-3 V9 Z"/>'
        '<path d="M-3,9 V-11 L-1,-9 L1,-12 V9 Z"/>'
        '<path d="M6,9 V1 L8,3 L10,0 V9 Z"/>'
        '<rect x="-14" y="9" width="28" height="3"/>'
        '<rect x="4" y="-8" width="9" height="3" transform="rotate(20 8 -6)"/>'
        "</g>"
    )


def _raided_chest() -> str:
    """An open treasure chest: the ruins were raided (Tomb Raid)."""
    return (
        '<g class="raided-symbol" stroke="#3b2a12" stroke-width="1">'
        '<rect x="-8" y="-2" width="16" height="9" fill="#8a5a2b"/>'
        '<path d="M-8,-2 L-6,-9 H8 L8,-2 Z" fill="#b07a3c"/>'
        '<rect x="-1.5" y="0" width="3" height="3" fill="#e0b43c"/>'
        "</g>"
    )


def _pyramid() -> str:
    return (
        '<g class="pyramid-symbol" stroke="#5e4a12" stroke-width="1">'
        '<polygon points="-17,11 0,-15 17,11" fill="#d4ae48"/>'
        '<polygon points="0,-15 17,11 5,11" fill="#a98628"/>'
        "</g>"
    )


def _star(outer: float = 8, inner: float = 3.6) -> str:
    points = []
    for index in range(10):
        radius = outer if index % 2 == 0 else inner
        angle = math.pi / 5 * index - math.pi / 2
        points.append(f"{radius * math.cos(angle):.2f},{radius * math.sin(angle):.2f}")
    return (
        f'<polygon class="capitol-star" points="{" ".join(points)}" fill="#ffd700" stroke="#7a5c00" stroke-width="1"/>'
    )


def _capitol_site_ring(radius: float) -> str:
    return (
        f'<circle class="capitol-site" r="{radius:g}" fill="none" stroke="#7a5c00" '
        'stroke-width="1.2" stroke-dasharray="3 3" stroke-opacity="0.8"/>'
    )


def _crossed_swords() -> str:
    blade = '<line x1="-7" y1="-7" x2="7" y2="7"/><line x1="7" y1="-7" x2="-7" y2="7"/>'
    guards = '<line x1="-7" y1="1" x2="-1" y2="7"/><line x1="7" y1="1" x2="1" y2="7"/>'
    return (
        '<g class="battle-symbol"><circle r="12" fill="#b3001b" stroke="#fbf8f0" stroke-width="1.5"/>'
        f'<g stroke="#ffffff" stroke-width="2.2" stroke-linecap="round">{blade}{guards}</g></g>'
    )


def _fortification() -> str:
    return (
        '<path class="fortified-symbol" d="M0,12 V3 H3 V0 H6 V3 H9 V0 H12 V3 H15 V0 H18 V3 H21 V12 Z" '
        'fill="#5a5650" stroke="#f5f1e6" stroke-width="1"/>'
    )


# --- legend --------------------------------------------------------------------------------


def _legend(kingdoms: list[MapKingdomView], *, left: int, top: int, width: int) -> tuple[list[str], int]:
    """The legend's elements below the map, and the height they take."""
    swatch = 20
    row_height = 26
    parts = ['<g class="legend">']
    y = top

    def section(heading: str, entries: list[tuple[str, str]], item_width: int) -> None:
        # entries: (drawing of a swatch-sized sample at 0,0, label)
        nonlocal y
        parts.append(
            f'<text class="legend-heading" x="{left}" y="{y + 12}" font-size="13" font-weight="bold" '
            f'fill="#2b2418">{escape(heading)}</text>'
        )
        y += 20
        per_row = max(1, width // item_width)
        for index, (sample, label) in enumerate(entries):
            item_x = left + (index % per_row) * item_width
            item_y = y + (index // per_row) * row_height
            shown = _wrap(label, max_chars=int((item_width - swatch - 14) / 6.4), max_lines=1)
            parts.append(
                f'<g class="legend-item">{_at(item_x, item_y, sample)}'
                f'<text x="{item_x + swatch + 8}" y="{item_y + 14}" font-size="11.5" fill="#2b2418">'
                f"{escape(shown[0] if shown else '')}</text></g>"
            )
        y += math.ceil(len(entries) / per_row) * row_height + 8

    def square(fill: str, body: str = "", border: str | None = None) -> str:
        frame = f'<rect width="{swatch}" height="{swatch}" fill="{fill}" stroke="#4a4232" stroke-width="1"/>'
        ring = (
            f'<rect x="2.5" y="2.5" width="{swatch - 5}" height="{swatch - 5}" fill="none" '
            f'stroke="{border}" stroke-width="4"/>'
            if border
            else ""
        )
        return frame + ring + body

    def symbol(drawing: str, scale: float = 0.62) -> str:
        return _at(swatch / 2, swatch / 2, drawing, scale)

    terrain_entries = [(square(TERRAIN_COLOURS[t]), t.capitalize()) for t in TERRAINS]
    example = MapKingdomView(key="", name="", colour="#8a8a8a")
    symbol_entries = [
        (symbol(_town()), "Town"),
        (symbol(_city()), "City"),
        (_at(8, 11, _settlement_symbol("city", capitol=True), 0.5), "Capitol"),
        (symbol(_capitol_site_ring(9), 1.0), "Capitol site"),
        (symbol(_ruins()), "Ruins"),
        (symbol(_raided_chest(), 0.9), "Ruins raided"),
        (symbol(_pyramid(), 0.55), "Pyramid"),
        (square("#f2efe6", _hatching(1, 1, swatch - 2)), "Razed"),
        (_at(0, 4, _fortification(), 0.95), "Fortified"),
        (_flag("1", example, 0, 3, width=swatch, height=13, cls="legend-army"), "Army"),
        # Every map's legend names them, so a map and its overlay of moves keep the same size.
        (
            '<polyline points="1,10 12,10" stroke="#8a8a8a" stroke-width="4"/>'
            '<polygon points="19,10 11,4 11,16" fill="#8a8a8a" stroke="#2b2418" stroke-width="1"/>',
            "Move this turn",
        ),
        (symbol(_crossed_swords(), 0.8), "Battle this turn"),
    ]
    kingdom_entries = [(square("#f2efe6", border=k.colour), k.name) for k in kingdoms]
    kingdom_entries.append((square("#f2efe6"), NEUTRAL_LABEL))

    section("Terrain", terrain_entries, 140)
    section("Symbols", symbol_entries, 140)
    section("Kingdoms", kingdom_entries, 230)
    parts.append("</g>")
    return parts, y - top


def _readable_on(colour: str) -> str:
    """Black or white, whichever reads better on `colour` (WCAG relative luminance)."""
    channels = [int(colour[i : i + 2], 16) / 255 for i in (1, 3, 5)]
    linear = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    luminance = 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]
    return "#111111" if luminance > 0.3 else "#ffffff"
