"""Campaign maps: grid adjacency, the default Briternia map, and every validation message."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from rulebook.setup.maps import (
    MAX_PROVINCES,
    SETTLEMENTS,
    TERRAINS,
    MapError,
    MapSpec,
    ProvinceSpec,
    grid_adjacency,
    load_default_map,
    map_from_json,
    map_to_json,
)


def small_grid_map() -> dict[str, Any]:
    """A valid 3x3 grid: desert pyramid in the middle, capitol cities in two opposite corners.

    Numbers run 1..9 row by row, so province n sits at col (n-1) % 3, row (n-1) // 3.
    """
    provinces: list[dict[str, Any]] = []
    for number in range(1, 10):
        province: dict[str, Any] = {
            "number": number,
            "name": f"Province {number}",
            "terrain": "plains",
            "col": (number - 1) % 3,
            "row": (number - 1) // 3,
        }
        provinces.append(province)
    provinces[4].update(terrain="desert", pyramid=True)
    provinces[0].update(settlement="city", capitol_site=True)
    provinces[8].update(settlement="city", capitol_site=True)
    return {"name": "Test map", "adjacency": "grid", "provinces": provinces}


def explicit_line_map() -> dict[str, Any]:
    """A valid explicit map: four provinces in a line, 1-2-3-4, the pyramid at 2."""
    data = small_grid_map()
    data["adjacency"] = "explicit"
    data["provinces"] = data["provinces"][:4]
    data["provinces"][1].update(terrain="desert", pyramid=True)
    data["provinces"][3].update(settlement="city", capitol_site=True)
    links = {1: [2], 2: [1, 3], 3: [2, 4], 4: [3]}
    for province in data["provinces"]:
        province["adjacent"] = links[province["number"]]
    return data


def errors_of(data: Any) -> list[str]:
    with pytest.raises(MapError) as caught:
        map_from_json(data)
    return caught.value.messages


def province_entry(data: dict[str, Any], number: int) -> dict[str, Any]:
    return next(p for p in data["provinces"] if p["number"] == number)


# --- adjacency -----------------------------------------------------------------------------


def test_corner_to_corner_sections_are_adjacent_on_a_grid() -> None:
    spec = map_from_json(small_grid_map())

    assert spec.neighbours(1) == {2, 4, 5}  # 5 touches 1 only at a corner
    assert spec.neighbours(3) == {2, 5, 6}
    assert spec.neighbours(5) == {1, 2, 3, 4, 6, 7, 8, 9}
    assert 9 not in spec.neighbours(1)
    assert 3 not in spec.neighbours(1)


def test_grid_adjacency_gives_each_pair_once_smaller_number_first() -> None:
    provinces = map_from_json(small_grid_map()).provinces

    pairs = grid_adjacency(provinces)

    assert (1, 5) in pairs and (5, 1) not in pairs
    assert all(a < b for a, b in pairs)
    # 3x3 grid: 12 side-to-side pairs plus 8 corner-to-corner pairs.
    assert len(pairs) == 20


def test_grid_adjacency_leaves_gaps_unconnected() -> None:
    provinces = [
        ProvinceSpec(1, "West", "plains", "none", False, False, col=0, row=0),
        ProvinceSpec(2, "Far east", "plains", "none", False, False, col=2, row=0),
    ]

    assert grid_adjacency(provinces) == frozenset()


def test_explicit_adjacency_is_taken_as_listed() -> None:
    spec = map_from_json(explicit_line_map())

    assert spec.adjacency == {(1, 2), (2, 3), (3, 4)}
    assert spec.neighbours(2) == {1, 3}


def test_unknown_province_is_a_key_error() -> None:
    spec = map_from_json(small_grid_map())

    with pytest.raises(KeyError):
        spec.province(99)
    with pytest.raises(KeyError):
        spec.neighbours(99)


# --- the default map -----------------------------------------------------------------------


def pickable_neighbours(spec: MapSpec, number: int) -> set[int]:
    """Neighbours a kingdom may take at setup: not desert, not the pyramid, not a capitol site."""
    return {
        other
        for other in spec.neighbours(number)
        if spec.province(other).terrain != "desert"
        and not spec.province(other).pyramid
        and not spec.province(other).capitol_site
    }


def test_default_map_is_large_enough_and_numbered_from_one() -> None:
    spec = load_default_map()

    assert len(spec.provinces) >= 48
    assert [p.number for p in spec.provinces] == list(range(1, len(spec.provinces) + 1))
    assert len({p.name for p in spec.provinces}) == len(spec.provinces)


def test_default_map_has_every_terrain_and_settlement() -> None:
    spec = load_default_map()

    assert {p.terrain for p in spec.provinces} == set(TERRAINS)
    assert {p.settlement for p in spec.provinces} == set(SETTLEMENTS)
    assert any(p.settlement == "ruins" and p.terrain == "desert" for p in spec.provinces)
    assert any(p.settlement == "ruins" and p.terrain != "desert" for p in spec.provinces)


def test_default_map_has_the_pyramid_in_a_central_desert() -> None:
    spec = load_default_map()
    (pyramid,) = [p for p in spec.provinces if p.pyramid]
    cols = [p.col for p in spec.provinces]
    rows = [p.row for p in spec.provinces]

    assert pyramid.terrain == "desert"
    assert (pyramid.col, pyramid.row) == ((min(cols) + max(cols)) // 2, (min(rows) + max(rows)) // 2)
    assert all(spec.province(n).terrain == "desert" for n in spec.neighbours(pyramid.number))


def test_default_map_has_eight_capitol_sites_ringing_the_desert() -> None:
    spec = load_default_map()
    (pyramid,) = [p for p in spec.provinces if p.pyramid]
    sites = [p for p in spec.provinces if p.capitol_site]

    assert len(sites) >= 8
    assert all(site.settlement == "city" and site.terrain != "desert" for site in sites)
    # Around the desert: sites lie north, south, west and east of the pyramid.
    assert any(site.row < pyramid.row for site in sites)
    assert any(site.row > pyramid.row for site in sites)
    assert any(site.col < pyramid.col for site in sites)
    assert any(site.col > pyramid.col for site in sites)


def test_default_map_capitol_sites_are_not_adjacent_to_each_other() -> None:
    spec = load_default_map()
    sites = {p.number for p in spec.provinces if p.capitol_site}

    for site in sites:
        assert not spec.neighbours(site) & sites, f"capitol site {site} borders another"


def test_default_map_every_capitol_site_has_provinces_to_pick() -> None:
    # Setup: each kingdom picks two provinces adjacent to its home.
    spec = load_default_map()

    for site in (p for p in spec.provinces if p.capitol_site):
        assert len(pickable_neighbours(spec, site.number)) >= 2, site


def test_default_map_has_towns_and_cities_besides_the_capitol_sites() -> None:
    spec = load_default_map()

    assert sum(p.settlement == "town" for p in spec.provinces) >= 5
    assert any(p.settlement == "city" and not p.capitol_site for p in spec.provinces)


def test_default_map_file_round_trips() -> None:
    spec = load_default_map()

    assert map_from_json(map_to_json(spec)) == spec
    assert map_to_json(spec)["adjacency"] == "grid"


# --- round trip and input forms ------------------------------------------------------------


def test_round_trip_of_a_grid_map() -> None:
    spec = map_from_json(small_grid_map())

    assert map_from_json(map_to_json(spec)) == spec
    assert map_from_json(json.dumps(map_to_json(spec))) == spec


def test_round_trip_of_an_explicit_map_keeps_its_adjacency() -> None:
    spec = map_from_json(explicit_line_map())

    data = map_to_json(spec)

    assert data["adjacency"] == "explicit"
    assert province_entry(data, 2)["adjacent"] == [1, 3]
    assert map_from_json(data) == spec


def test_text_bytes_and_dict_give_the_same_map() -> None:
    data = small_grid_map()
    text = json.dumps(data)

    assert map_from_json(text) == map_from_json(text.encode()) == map_from_json(data)


def test_defaults_apply_to_left_out_fields() -> None:
    spec = map_from_json(small_grid_map())

    assert spec.province(2) == ProvinceSpec(2, "Province 2", "plains", "none", False, False, col=1, row=0)


def test_provinces_come_out_sorted_by_number() -> None:
    data = small_grid_map()
    data["provinces"].reverse()

    assert [p.number for p in map_from_json(data).provinces] == list(range(1, 10))


# --- validation messages -------------------------------------------------------------------


def test_map_error_is_a_value_error_with_messages() -> None:
    with pytest.raises(ValueError, match="not valid JSON"):
        map_from_json("{")


def test_malformed_json_is_reported() -> None:
    messages = errors_of('{"name": "Broken", ')

    assert len(messages) == 1
    assert messages[0].startswith("map: not valid JSON")
    assert "not valid JSON" in errors_of(b"\xff\xfe\x00garbage")[0]


def test_json_that_is_not_an_object_is_reported() -> None:
    assert errors_of("[1, 2, 3]") == ["map: must be a JSON object, not a list"]


def test_asymmetric_explicit_adjacency_is_reported() -> None:
    data = explicit_line_map()
    province_entry(data, 4)["adjacent"] = [3, 1]

    assert "province 4 lists 1 as adjacent but 1 does not list 4" in errors_of(data)


def test_explicit_adjacency_to_a_missing_province_or_itself_is_reported() -> None:
    data = explicit_line_map()
    province_entry(data, 1)["adjacent"] = [2, 1, 7]

    messages = errors_of(data)

    assert "province 1 lists itself as adjacent" in messages
    assert "province 1 lists 7 as adjacent but there is no province 7" in messages


def test_explicit_map_needs_adjacent_lists() -> None:
    data = explicit_line_map()
    del province_entry(data, 3)["adjacent"]

    assert "province 3: 'adjacent' is missing or not a list of province numbers" in errors_of(data)


def test_grid_map_refuses_adjacent_lists() -> None:
    data = small_grid_map()
    province_entry(data, 2)["adjacent"] = [1]

    assert any("province 2: 'adjacent' is only allowed" in m for m in errors_of(data))


def test_unknown_terrain_is_reported_with_the_allowed_values() -> None:
    data = small_grid_map()
    province_entry(data, 3)["terrain"] = "lava"

    assert errors_of(data) == [
        "province 3: unknown terrain 'lava' (allowed: plains, forest, marshland, mountains, desert)"
    ]


def test_unknown_settlement_is_reported_with_the_allowed_values() -> None:
    data = small_grid_map()
    province_entry(data, 3)["settlement"] = "village"

    assert errors_of(data) == ["province 3: unknown settlement 'village' (allowed: none, town, city, ruins)"]


def test_duplicate_numbers_are_reported() -> None:
    data = small_grid_map()
    province_entry(data, 3)["number"] = 2

    assert "province 2: the number 2 is used by 2 provinces" in errors_of(data)


def test_duplicate_positions_are_reported() -> None:
    data = small_grid_map()
    province_entry(data, 3).update(col=1, row=0)

    assert "province 2 and province 3 share the position col 1, row 0" in errors_of(data)


def test_duplicate_names_are_reported() -> None:
    data = small_grid_map()
    province_entry(data, 3)["name"] = "Province 2"

    assert "province 2 and province 3 share the name 'Province 2'" in errors_of(data)


def test_missing_and_wrongly_typed_fields_name_the_province() -> None:
    data = small_grid_map()
    del province_entry(data, 2)["name"]
    province_entry(data, 3)["col"] = "left"
    province_entry(data, 4)["pyramid"] = "yes"
    data["provinces"].append({"name": "Nameless"})

    messages = errors_of(data)

    assert "province 2: 'name' is missing or not a non-empty string" in messages
    assert "province 3: 'col' is missing or not a whole number from 0 to 399" in messages
    assert "province 4: 'pyramid' must be true or false, not 'yes'" in messages
    assert "provinces[9]: 'number' is missing or not a whole number of at least 1" in messages


def test_booleans_are_not_province_numbers() -> None:
    data = small_grid_map()
    province_entry(data, 2)["number"] = True

    assert "provinces[1]: 'number' is missing or not a whole number of at least 1" in errors_of(data)


def test_misspelt_fields_are_reported_not_ignored() -> None:
    data = small_grid_map()
    province_entry(data, 2)["capital_site"] = True

    assert any(m.startswith("province 2: unknown field 'capital_site'") for m in errors_of(data))


def test_bad_top_level_fields_are_reported() -> None:
    messages = errors_of({"name": "", "adjacency": "hex", "provinces": []})

    assert "map: 'name' is missing or not a non-empty string" in messages
    assert "map: 'adjacency' must be \"grid\" or \"explicit\", not 'hex'" in messages
    assert "map: 'provinces' is missing or not a non-empty list" in messages


def test_no_pyramid_is_reported() -> None:
    data = small_grid_map()
    province_entry(data, 5)["pyramid"] = False

    assert len(errors_of(data)) == 1
    assert errors_of(data)[0].startswith("map: no pyramid")


def test_two_pyramids_are_reported() -> None:
    data = small_grid_map()
    province_entry(data, 2).update(terrain="desert", pyramid=True)

    assert errors_of(data) == ["map: 2 pyramids (provinces 2, 5); exactly one is allowed"]


def test_pyramid_outside_the_desert_is_reported() -> None:
    data = small_grid_map()
    province_entry(data, 5)["terrain"] = "forest"

    assert errors_of(data) == ["province 5: the pyramid must be in a desert province, not forest"]


def test_capitol_site_must_be_a_city_outside_the_desert() -> None:
    data = small_grid_map()
    province_entry(data, 1)["settlement"] = "town"
    province_entry(data, 9)["terrain"] = "desert"

    messages = errors_of(data)

    assert "province 1: a capitol site must be a city (settlement \"city\"), not 'town'" in messages
    assert "province 9: a capitol site cannot be in the desert" in messages


def test_fewer_than_two_capitol_sites_is_reported() -> None:
    data = small_grid_map()
    province_entry(data, 9)["capitol_site"] = False

    assert len(errors_of(data)) == 1
    assert errors_of(data)[0].startswith("map: 1 capitol site; at least 2 are needed")


def test_disconnected_grid_map_is_reported() -> None:
    data = small_grid_map()
    province_entry(data, 9).update(col=5, row=5)

    assert errors_of(data) == ["map: not connected; provinces 9 cannot be reached from province 1"]


def test_disconnected_explicit_map_is_reported() -> None:
    data = explicit_line_map()
    province_entry(data, 2)["adjacent"] = [1]
    province_entry(data, 3)["adjacent"] = [4]

    assert errors_of(data) == ["map: not connected; provinces 3, 4 cannot be reached from province 1"]


def test_too_many_provinces_are_refused_before_anything_else() -> None:
    data = small_grid_map()
    extra = copy.deepcopy(data["provinces"][1])
    data["provinces"] = data["provinces"] + [extra] * (MAX_PROVINCES - 8)

    messages = errors_of(data)

    assert messages == [f"map: {MAX_PROVINCES + 1} provinces; at most {MAX_PROVINCES} are allowed"]


def test_every_problem_is_reported_at_once() -> None:
    data = small_grid_map()
    province_entry(data, 3)["terrain"] = "lava"
    province_entry(data, 4)["settlement"] = "village"
    province_entry(data, 6)["number"] = 7

    messages = errors_of(data)

    assert len(messages) == 3
    assert any("province 3: unknown terrain" in m for m in messages)
    assert any("province 4: unknown settlement" in m for m in messages)
    assert any("the number 7 is used by 2 provinces" in m for m in messages)


def test_error_text_joins_all_messages() -> None:
    data = small_grid_map()
    province_entry(data, 3)["terrain"] = "lava"
    province_entry(data, 4)["terrain"] = "sea"

    with pytest.raises(MapError) as caught:
        map_from_json(data)

    assert "lava" in str(caught.value) and "sea" in str(caught.value)
