"""A kingdom's own rows as its order sheet's check reads them, in one statement (issue 35): its
armies, the lists of the active ones (units, living characters, magic items), its gold and what its
armies have bought and not received yet. These are what a kingdom changes itself during the week,
so every check reads them fresh (the rest of the world is kept: `world.world_for_kingdom`); read
one query each they were six of a submission's queries and a third of its CPU."""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.db import connection
from django.db.models import Sum

from briternia.one_statement import RowSet, RowSetsCompiled, row_sets_compiled, row_sets_read

from ..models import ArmoryItem, Army, Character, Delivery, TreasuryEntry, Unit
from .world import _ARMY_FIELDS, _CHARACTER_FIELDS, _UNIT_FIELDS, ITEM_FIELDS, ListRows, items_read

# What the spending roster reads of a delivery on the way (kingdoms.services.spending).
DELIVERY_FIELDS = ("army_id", "points", "kind", "common", "name")


@dataclass(frozen=True)
class KingdomRows:
    """A kingdom's own rows (`kingdom_row_sets`)."""

    armies: list[dict[str, Any]]  # as `world.army_rows` reads them, with its `extra` fields
    lists: ListRows  # the active armies' lists, with the magic items (`world.list_rows` with `kingdom`)
    treasury: int  # the sum of its ledger
    deliveries: list[tuple[Any, ...]]  # its active armies' deliveries on the way, as DELIVERY_FIELDS

    @property
    def active(self) -> list[int]:
        """The ids of its active armies."""
        return [a["id"] for a in self.armies if a["status"] == Army.Status.ACTIVE]


def kingdom_row_sets(kingdom: int, *army_extra: str) -> list[RowSet]:
    """The row sets of `kingdom`'s own rows (`KingdomRows`); `army_extra`: more of its armies'
    fields (`province__number`). Compiled once by `kingdom_rows_compiled`."""
    active = Army.objects.filter(kingdom_id=kingdom, status=Army.Status.ACTIVE).order_by().values("id")
    return [
        # In `army_rows`' order (kingdom, id) and `list_rows`' (the units in list order); the others
        # are read in no order, as `list_rows` reads them.
        RowSet(
            Army.objects.filter(kingdom_id=kingdom).order_by().values_list(*_ARMY_FIELDS, "status", *army_extra),
            order=(_ARMY_FIELDS.index("id"),),
        ),
        RowSet(
            Unit.objects.filter(army_id__in=active).order_by().values_list(*_UNIT_FIELDS, "position"),
            order=(_UNIT_FIELDS.index("army_id"), len(_UNIT_FIELDS), _UNIT_FIELDS.index("id")),
            keys_only=1,
        ),
        RowSet(
            Character.objects.filter(unit__army_id__in=active, alive=True).order_by().values_list(*_CHARACTER_FIELDS)
        ),
        RowSet(ArmoryItem.objects.filter(items_read(kingdom, active)).order_by().values_list(*ITEM_FIELDS)),
        RowSet(
            TreasuryEntry.objects.filter(kingdom_id=kingdom)
            .order_by()
            .values("kingdom_id")
            .annotate(total=Sum("amount"))
            .values_list("total")
        ),
        RowSet(
            Delivery.objects.filter(army_id__in=active, status=Delivery.Status.ON_THE_WAY)
            .order_by()
            .values_list(*DELIVERY_FIELDS)
        ),
    ]


def kingdom_rows_compiled(*army_extra: str) -> RowSetsCompiled:
    """`kingdom_row_sets` compiled for any kingdom (once per process and database), to be read in
    one statement with whatever else the caller's statement reads (briternia.one_statement)."""
    return _compiled(connection.vendor, army_extra)


@functools.cache
def _compiled(vendor: str, army_extra: tuple[str, ...]) -> RowSetsCompiled:
    return row_sets_compiled(lambda kingdom: kingdom_row_sets(kingdom, *army_extra))


def kingdom_rows_decode(compiled: RowSetsCompiled, values: Sequence[Any], *army_extra: str) -> KingdomRows:
    """`KingdomRows` from the columns of `kingdom_rows_compiled(*army_extra)` as read."""
    return _kingdom_rows(compiled.decode(values), army_extra)


def kingdom_rows_read(kingdom: int, *army_extra: str) -> KingdomRows:
    """`kingdom`'s own rows, in one statement (`kingdom_row_sets`)."""
    return _kingdom_rows(row_sets_read(kingdom_rows_compiled(*army_extra), kingdom), army_extra)


def _kingdom_rows(decoded: Sequence[list[tuple[Any, ...]]], army_extra: Sequence[str]) -> KingdomRows:
    armies, units, characters, items, treasury, deliveries = decoded
    names = (*_ARMY_FIELDS, "status", *army_extra)
    return KingdomRows(
        armies=[dict(zip(names, row, strict=True)) for row in armies],
        lists=ListRows(units=units, characters=characters, items=items),
        treasury=treasury[0][0] if treasury else 0,
        deliveries=deliveries,
    )
