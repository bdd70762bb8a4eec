"""Frozen dataclass records made by the thousand: `record_made(cls, values)` is `cls(**values)`.

A frozen dataclass's __init__ sets each field through object.__setattr__ (frozen: its own
__setattr__ refuses), a fraction of a microsecond a field, and loading the largest campaign's world
makes two thousand provinces of seventeen fields, a thousand armies and a thousand units (made
this way, 5-9 ms less of the load's CPU, measured on a busy machine; issue 35). A record with no
__post_init__ and no __slots__ holds its fields in its __dict__, so the same record is made by
filling that at once.

Pure Python: no Django import.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any, TypeVar

Record = TypeVar("Record")

# cls -> (the defaults of its fields that have a plain default, the names of all its fields), or
# None: the class is made by its __init__ (it has a __post_init__, __slots__ or is no dataclass).
_PLANS: dict[type, tuple[dict[str, Any], frozenset[str]] | None] = {}


def record_made(cls: type[Record], values: Mapping[str, Any]) -> Record:
    """`cls(**values)` for a frozen dataclass `cls`: the same record (equal, hashed, shown and
    replaced alike), made without its __init__ when it can be: every field named in `values` or
    having a plain default (one from a default_factory is made by __init__, as is any name that
    is not a field, which __init__ refuses)."""
    try:
        plan = _PLANS[cls]
    except KeyError:
        plan = _PLANS[cls] = _plan(cls)
    if plan is None:
        return cls(**values)
    defaults, names = plan
    filled = values
    if values.keys() != names:  # some fields left to their defaults (a roll names them all: no copy)
        filled = {**defaults, **values}
        if filled.keys() != names:
            return cls(**values)
    record = object.__new__(cls)
    record.__dict__.update(filled)
    return record


def _plan(cls: type) -> tuple[dict[str, Any], frozenset[str]] | None:
    if not dataclasses.is_dataclass(cls) or hasattr(cls, "__post_init__") or "__slots__" in cls.__dict__:
        return None
    fields = [f for f in dataclasses.fields(cls) if f.init]
    if len(fields) != len(dataclasses.fields(cls)):
        return None  # a field __init__ does not take is set by it: made by __init__
    defaults = {f.name: f.default for f in fields if f.default is not dataclasses.MISSING}
    return defaults, frozenset(f.name for f in fields)
