"""Records made by the thousand (kernel/records.py): `record_made(cls, values)` is `cls(**values)`."""

import dataclasses
from dataclasses import dataclass, field, replace

import pytest

from kernel.records import record_made
from rulebook.tables import Terrain
from rulebook.world import ProvinceState


@dataclass(frozen=True)
class Plain:
    number: int
    name: str = "x"
    tags: tuple[str, ...] = ()


@dataclass(frozen=True)
class WithFactory:
    number: int
    seen: list[int] = field(default_factory=list)


def test_a_record_made_is_the_record_its_init_makes():
    made = record_made(ProvinceState, {"number": 7, "name": "Caer", "terrain": Terrain.FOREST, "controller": 3})
    built = ProvinceState(number=7, name="Caer", terrain=Terrain.FOREST, controller=3)
    assert made == built and hash(made) == hash(built) and repr(made) == repr(built)
    assert type(made) is ProvinceState and vars(made) == vars(built)
    assert replace(made, razed=True) == replace(built, razed=True)
    with pytest.raises(dataclasses.FrozenInstanceError):
        made.razed = True  # type: ignore[misc]


def test_defaults_are_filled_and_a_default_factory_or_a_wrong_name_goes_through_init():
    assert vars(record_made(Plain, {"number": 1})) == {"number": 1, "name": "x", "tags": ()}
    made = record_made(WithFactory, {"number": 1})
    assert (
        made == WithFactory(number=1)
        and made.seen == []
        and made.seen is not record_made(WithFactory, {"number": 1}).seen
    )
    with pytest.raises(TypeError):
        record_made(Plain, {"number": 1, "nmae": "typo"})
    with pytest.raises(TypeError):
        record_made(Plain, {"name": "no number"})
