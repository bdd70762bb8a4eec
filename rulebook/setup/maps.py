"""Campaign maps: parsing, validating and serialising the province map (pure Python, no Django).

Rulebook, Setup: the map is divided into provinces of plains, marshland, forest and mountains,
some with towns, cities or ruins, and players choose their home from predetermined capitol
sites. The Ancient Dead: their kingdom begins in the desert at the centre of the map, around
the pyramid. Move: corner-to-corner map sections are adjacent.

A map is a JSON document::

    {"name": "Briternia", "adjacency": "grid" | "explicit",
     "provinces": [{"number": 1, "name": "...", "terrain": "plains", "settlement": "none",
                    "capitol_site": false, "pyramid": false, "col": 0, "row": 0,
                    "adjacent": [2, 5]}]}

"settlement", "capitol_site" and "pyramid" may be left out (defaults: "none", false, false);
"adjacent" is required with "explicit" adjacency and refused with "grid", where adjacency
follows from col/row.
"""

from __future__ import annotations

import json
from collections import Counter, defaultdict, deque
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cached_property, lru_cache
from pathlib import Path
from typing import Any, TypeGuard

from rulebook.tables import Settlement, Terrain

TERRAINS: tuple[str, ...] = tuple(t.value for t in Terrain)
SETTLEMENTS: tuple[str, ...] = tuple(s.value for s in Settlement)
ADJACENCY_MODES: tuple[str, ...] = ("grid", "explicit")

DESERT = "desert"
CITY = "city"

MAX_PROVINCES = 400
# A bound on positions keeps a drawn map a sane size; 400 provinces fit in any layout below it.
MAX_COORDINATE = 399
MIN_CAPITOL_SITES = 2

DEFAULT_MAP_PATH = Path(__file__).resolve().parent / "briternia-map.json"

_MAP_FIELDS = ("name", "adjacency", "provinces")
_PROVINCE_FIELDS = (
    "number",
    "name",
    "terrain",
    "settlement",
    "capitol_site",
    "pyramid",
    "col",
    "row",
    "adjacent",
)
# Messages list at most this many province numbers, so one broken map gives a readable report.
_MAX_LISTED = 20


class MapError(ValueError):
    """A campaign map that cannot be used; `messages` lists every problem found, each naming
    the province number (or list position) and field at fault."""

    def __init__(self, messages: Iterable[str]) -> None:
        self.messages: list[str] = list(messages)
        super().__init__("; ".join(self.messages))


@dataclass(frozen=True)
class ProvinceSpec:
    """One province as drawn on the campaign map at the start of the campaign."""

    number: int
    name: str
    terrain: str
    settlement: str
    capitol_site: bool
    pyramid: bool
    col: int
    row: int


@dataclass(frozen=True)
class MapSpec:
    """A validated campaign map: provinces sorted by number, adjacency as (a, b) pairs, a < b."""

    name: str
    provinces: tuple[ProvinceSpec, ...]
    adjacency: frozenset[tuple[int, int]]

    @cached_property
    def _by_number(self) -> dict[int, ProvinceSpec]:
        return {province.number: province for province in self.provinces}

    @cached_property
    def _neighbour_index(self) -> dict[int, frozenset[int]]:
        index: dict[int, set[int]] = {province.number: set() for province in self.provinces}
        for a, b in self.adjacency:
            index.setdefault(a, set()).add(b)
            index.setdefault(b, set()).add(a)
        return {number: frozenset(neighbours) for number, neighbours in index.items()}

    def province(self, number: int) -> ProvinceSpec:
        """The province with this number; KeyError when the map has none."""
        try:
            return self._by_number[number]
        except KeyError:
            raise KeyError(f"There is no province {number} on the map {self.name!r}.") from None

    def neighbours(self, number: int) -> frozenset[int]:
        """Numbers of the provinces adjacent to `number`; KeyError when the map has no such province."""
        self.province(number)
        return self._neighbour_index.get(number, frozenset())


def grid_adjacency(provinces: Iterable[ProvinceSpec]) -> frozenset[tuple[int, int]]:
    """Adjacency of square map sections laid out by col/row: two provinces are adjacent when
    they touch along a side or at a corner (|dcol| <= 1 and |drow| <= 1; rulebook, Move:
    "even corner-to-corner map sections are considered adjacent"). Pairs are (a, b), a < b."""
    at = {(province.col, province.row): province.number for province in provinces}
    pairs: set[tuple[int, int]] = set()
    for (col, row), number in at.items():
        # Half of the 8-neighbourhood is enough: the other half finds each pair from its far end.
        for dcol, drow in ((1, -1), (1, 0), (1, 1), (0, 1)):
            other = at.get((col + dcol, row + drow))
            if other is not None and other != number:
                pairs.add((min(number, other), max(number, other)))
    return frozenset(pairs)


def map_from_json(data: str | bytes | dict[str, Any]) -> MapSpec:
    """Parse and validate a campaign map given as JSON text or an already decoded object.

    Returns the map when it is usable; otherwise raises MapError listing every problem found.
    Checks that need the whole map (pyramid count, capitol-site count, adjacency, connectivity)
    run once every province reads correctly, so they never report consequences of a typo.
    """
    document = _decode(data)
    errors: list[str] = []

    for key in sorted(set(document) - set(_MAP_FIELDS)):
        errors.append(f"map: unknown field {key!r} (allowed: {', '.join(_MAP_FIELDS)})")

    name = document.get("name")
    if not isinstance(name, str) or not name.strip():
        errors.append("map: 'name' is missing or not a non-empty string")

    mode = document.get("adjacency")
    if mode not in ADJACENCY_MODES:
        errors.append(f'map: \'adjacency\' must be "grid" or "explicit", not {mode!r}')
        mode = None

    raw_provinces = document.get("provinces")
    if not isinstance(raw_provinces, list) or not raw_provinces:
        errors.append("map: 'provinces' is missing or not a non-empty list")
        raise MapError(errors)
    if len(raw_provinces) > MAX_PROVINCES:
        # Stop here: validating a huge upload province by province would only bury this message.
        errors.append(f"map: {len(raw_provinces)} provinces; at most {MAX_PROVINCES} are allowed")
        raise MapError(errors)

    drafts = [_read_province(index, raw, mode, errors) for index, raw in enumerate(raw_provinces)]
    every_province_read = all(draft.spec is not None for draft in drafts)

    _check_unique_numbers(drafts, errors)
    _check_unique_names(drafts, errors)
    _check_unique_positions(drafts, errors)

    if not every_province_read:
        raise MapError(errors)

    provinces = tuple(sorted((draft.spec for draft in drafts if draft.spec), key=lambda p: p.number))
    _check_pyramid(provinces, errors)
    _check_capitol_sites(provinces, errors)

    numbers_unique = len({p.number for p in provinces}) == len(provinces)
    if mode == "grid":
        adjacency: frozenset[tuple[int, int]] | None = grid_adjacency(provinces)
    elif mode == "explicit" and numbers_unique:
        adjacency = _explicit_adjacency(drafts, errors)
    else:
        adjacency = None

    if adjacency is not None and numbers_unique:
        _check_connected(provinces, adjacency, errors)

    if errors or adjacency is None or not isinstance(name, str):
        raise MapError(errors)
    return MapSpec(name=name, provinces=provinces, adjacency=adjacency)


def map_to_json(spec: MapSpec) -> dict[str, Any]:
    """The map as a JSON-ready dict that map_from_json reads back to an equal MapSpec.

    Uses "grid" adjacency when the map's adjacency is exactly what its col/row positions give,
    and otherwise "explicit" with each province's sorted "adjacent" list.
    """
    grid = spec.adjacency == grid_adjacency(spec.provinces)
    provinces: list[dict[str, Any]] = []
    for province in sorted(spec.provinces, key=lambda p: p.number):
        entry: dict[str, Any] = {
            "number": province.number,
            "name": province.name,
            "terrain": province.terrain,
            "settlement": province.settlement,
            "capitol_site": province.capitol_site,
            "pyramid": province.pyramid,
            "col": province.col,
            "row": province.row,
        }
        if not grid:
            entry["adjacent"] = sorted(spec.neighbours(province.number))
        provinces.append(entry)
    return {"name": spec.name, "adjacency": "grid" if grid else "explicit", "provinces": provinces}


@lru_cache(maxsize=1)
def load_default_map() -> MapSpec:
    """The Briternia map shipped with the project (rulebook/setup/briternia-map.json), validated.

    Cached: MapSpec is immutable, and the file only changes with a deploy.
    """
    return map_from_json(DEFAULT_MAP_PATH.read_bytes())


# --- reading -------------------------------------------------------------------------------


@dataclass
class _Draft:
    """What could be read of one province; `spec` is set only when every field was valid."""

    index: int
    label: str
    number: int | None = None
    name: str | None = None
    position: tuple[int, int] | None = None
    adjacent: list[int] | None = None
    spec: ProvinceSpec | None = None


def _decode(data: str | bytes | dict[str, Any]) -> dict[str, Any]:
    if isinstance(data, (str, bytes, bytearray)):
        try:
            document = json.loads(data)
        except (json.JSONDecodeError, UnicodeDecodeError) as exc:
            raise MapError([f"map: not valid JSON ({exc})"]) from None
    else:
        document = data
    if not isinstance(document, dict):
        raise MapError([f"map: must be a JSON object, not {_json_type(document)}"])
    return document


def _read_province(index: int, raw: Any, mode: str | None, errors: list[str]) -> _Draft:
    draft = _Draft(index=index, label=f"provinces[{index}]")
    if not isinstance(raw, dict):
        errors.append(f"provinces[{index}]: must be an object, not {_json_type(raw)}")
        return draft

    first_error = len(errors)
    number = raw.get("number")
    if _is_int(number) and number >= 1:
        draft.number = number
        draft.label = f"province {number}"
    else:
        errors.append(f"provinces[{index}]: 'number' is missing or not a whole number of at least 1")
    label = draft.label

    for key in sorted(set(raw) - set(_PROVINCE_FIELDS)):
        errors.append(f"{label}: unknown field {key!r} (allowed: {', '.join(_PROVINCE_FIELDS)})")

    name = raw.get("name")
    if isinstance(name, str) and name.strip():
        draft.name = name
    else:
        errors.append(f"{label}: 'name' is missing or not a non-empty string")

    terrain = _read_choice(raw, "terrain", TERRAINS, label, errors, default=None)
    settlement = _read_choice(raw, "settlement", SETTLEMENTS, label, errors, default="none")
    capitol_site = _read_bool(raw, "capitol_site", label, errors)
    pyramid = _read_bool(raw, "pyramid", label, errors)

    coordinates = [_read_coordinate(raw, axis, label, errors) for axis in ("col", "row")]
    col, row = coordinates
    if col is not None and row is not None:
        draft.position = (col, row)

    if mode == "explicit":
        draft.adjacent = _read_adjacent(raw, label, errors)
    elif mode == "grid" and "adjacent" in raw:
        errors.append(f"{label}: 'adjacent' is only allowed when the map's adjacency is \"explicit\"")

    # Rules about a single province, checked whenever the fields they need were readable.
    if pyramid and terrain is not None and terrain != DESERT:
        errors.append(f"{label}: the pyramid must be in a desert province, not {terrain}")
    if capitol_site and settlement is not None and settlement != CITY:
        errors.append(f'{label}: a capitol site must be a city (settlement "city"), not {settlement!r}')
    if capitol_site and terrain == DESERT:
        errors.append(f"{label}: a capitol site cannot be in the desert")

    if len(errors) == first_error:
        assert draft.number is not None and draft.name is not None and draft.position is not None
        assert terrain is not None and settlement is not None
        assert capitol_site is not None and pyramid is not None
        draft.spec = ProvinceSpec(
            number=draft.number,
            name=draft.name,
            terrain=terrain,
            settlement=settlement,
            capitol_site=capitol_site,
            pyramid=pyramid,
            col=draft.position[0],
            row=draft.position[1],
        )
    return draft


def _read_choice(
    raw: dict[str, Any],
    field: str,
    allowed: tuple[str, ...],
    label: str,
    errors: list[str],
    *,
    default: str | None,
) -> str | None:
    if field not in raw and default is not None:
        return default
    value = raw.get(field)
    if field not in raw:
        errors.append(f"{label}: '{field}' is missing (allowed: {', '.join(allowed)})")
        return None
    if value not in allowed:
        errors.append(f"{label}: unknown {field} {value!r} (allowed: {', '.join(allowed)})")
        return None
    return str(value)


def _read_bool(raw: dict[str, Any], field: str, label: str, errors: list[str]) -> bool | None:
    value = raw.get(field, False)
    if not isinstance(value, bool):
        errors.append(f"{label}: '{field}' must be true or false, not {value!r}")
        return None
    return value


def _read_coordinate(raw: dict[str, Any], field: str, label: str, errors: list[str]) -> int | None:
    value = raw.get(field)
    if not _is_int(value) or not 0 <= value <= MAX_COORDINATE:
        errors.append(f"{label}: '{field}' is missing or not a whole number from 0 to {MAX_COORDINATE}")
        return None
    return value


def _read_adjacent(raw: dict[str, Any], label: str, errors: list[str]) -> list[int] | None:
    value = raw.get("adjacent")
    if not isinstance(value, list) or not all(_is_int(item) for item in value):
        errors.append(f"{label}: 'adjacent' is missing or not a list of province numbers")
        return None
    return list(value)


# --- whole-map checks ----------------------------------------------------------------------


def _check_unique_numbers(drafts: list[_Draft], errors: list[str]) -> None:
    counts = Counter(draft.number for draft in drafts if draft.number is not None)
    for number, count in sorted(counts.items()):
        if count > 1:
            errors.append(f"province {number}: the number {number} is used by {count} provinces")


def _check_unique_names(drafts: list[_Draft], errors: list[str]) -> None:
    # Players name provinces in orders and reports, so two provinces may not share a name.
    holders: dict[str, list[_Draft]] = defaultdict(list)
    for draft in drafts:
        if draft.name is not None:
            holders[draft.name.strip().casefold()].append(draft)
    for same in holders.values():
        if len(same) > 1:
            errors.append(f"{_and([d.label for d in same])} share the name {same[0].name!r}")


def _check_unique_positions(drafts: list[_Draft], errors: list[str]) -> None:
    holders: dict[tuple[int, int], list[str]] = defaultdict(list)
    for draft in drafts:
        if draft.position is not None:
            holders[draft.position].append(draft.label)
    for (col, row), labels in sorted(holders.items()):
        if len(labels) > 1:
            errors.append(f"{_and(labels)} share the position col {col}, row {row}")


def _check_pyramid(provinces: tuple[ProvinceSpec, ...], errors: list[str]) -> None:
    pyramids = [p.number for p in provinces if p.pyramid]
    if not pyramids:
        errors.append(
            'map: no pyramid; exactly one desert province must have "pyramid": true (The Ancient Dead begin there)'
        )
    elif len(pyramids) > 1:
        errors.append(f"map: {len(pyramids)} pyramids (provinces {_numbers(pyramids)}); exactly one is allowed")


def _check_capitol_sites(provinces: tuple[ProvinceSpec, ...], errors: list[str]) -> None:
    sites = [p.number for p in provinces if p.capitol_site]
    if len(sites) < MIN_CAPITOL_SITES:
        errors.append(
            f"map: {len(sites)} capitol site{'' if len(sites) == 1 else 's'}; at least "
            f"{MIN_CAPITOL_SITES} are needed (Setup: players choose their home from them)"
        )


def _explicit_adjacency(drafts: list[_Draft], errors: list[str]) -> frozenset[tuple[int, int]] | None:
    listed: dict[int, list[int]] = {}
    for draft in drafts:
        assert draft.number is not None
        listed[draft.number] = draft.adjacent or []
    first_error = len(errors)
    pairs: set[tuple[int, int]] = set()
    for number in sorted(listed):
        for other, count in Counter(listed[number]).items():
            if other == number:
                errors.append(f"province {number} lists itself as adjacent")
            elif other not in listed:
                errors.append(f"province {number} lists {other} as adjacent but there is no province {other}")
            elif number not in listed[other]:
                errors.append(f"province {number} lists {other} as adjacent but {other} does not list {number}")
            else:
                pairs.add((min(number, other), max(number, other)))
            if count > 1:
                errors.append(f"province {number} lists {other} as adjacent more than once")
    return frozenset(pairs) if len(errors) == first_error else None


def _check_connected(
    provinces: tuple[ProvinceSpec, ...], adjacency: frozenset[tuple[int, int]], errors: list[str]
) -> None:
    neighbours: dict[int, set[int]] = {p.number: set() for p in provinces}
    for a, b in adjacency:
        neighbours[a].add(b)
        neighbours[b].add(a)
    start = provinces[0].number
    reached = {start}
    queue = deque([start])
    while queue:
        for other in neighbours[queue.popleft()]:
            if other not in reached:
                reached.add(other)
                queue.append(other)
    unreached = sorted(set(neighbours) - reached)
    if unreached:
        errors.append(f"map: not connected; provinces {_numbers(unreached)} cannot be reached from province {start}")


# --- small helpers -------------------------------------------------------------------------


def _is_int(value: object) -> TypeGuard[int]:
    # JSON true/false decode to bool, a subclass of int; they are not province numbers.
    return isinstance(value, int) and not isinstance(value, bool)


def _json_type(value: Any) -> str:
    if isinstance(value, list):
        return "a list"
    if isinstance(value, str):
        return "a string"
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true/false"
    if isinstance(value, (int, float)):
        return "a number"
    return type(value).__name__


def _numbers(numbers: list[int]) -> str:
    shown = ", ".join(str(n) for n in numbers[:_MAX_LISTED])
    return shown if len(numbers) <= _MAX_LISTED else f"{shown} and {len(numbers) - _MAX_LISTED} more"


def _and(labels: list[str]) -> str:
    return ", ".join(labels[:-1]) + " and " + labels[-1]
