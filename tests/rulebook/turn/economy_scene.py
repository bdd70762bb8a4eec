"""The scene the tests of phases 1-3 (Tally Gold, Maintain Armies, Create / Upgrade Armies) build:
a two-kingdom turn state, built by hand; no database."""

from __future__ import annotations

from kernel.events import Event
from rulebook.tables import ArmyType
from rulebook.turn.state import TurnState
from rulebook.turn.write_orders.records import (
    ArmyOrder,
    SheetEntries,
)
from rulebook.world import ArmyState, ProvinceState
from tests import world_builders as wb

TURN = 3
K = 1  # the kingdom under test
OTHER = 2


def province(
    number: int,
    *,
    controller: int | None = K,
    settlement: str = "none",
    terrain: str = "plains",
    razed: bool = False,
) -> ProvinceState:
    return wb.province(number, terrain, settlement, razed=razed, controller=controller)


def army(
    army_id: int,
    *,
    kingdom: int = K,
    where: int = 1,
    points: int = 1500,
    size: int | None = None,
    depot: bool = False,
    experience: int = 0,
) -> ArmyState:
    return wb.army(
        army_id, kingdom, where, points, size=size, supply_depot=depot, experience=experience, created_turn=1
    )


def build(
    *,
    provinces: list[ProvinceState] | None = None,
    armies: list[ArmyState] | None = None,
    treasury: int = 0,
    army_type: ArmyType = ArmyType.HIGH_ELVES,
    other_type: ArmyType = ArmyType.DWARFS,
    orders: list[ArmyOrder] | None = None,
    sheet: SheetEntries | None = None,
) -> TurnState:
    """A two-kingdom state: kingdom K (under test) and OTHER, with nothing but what is given."""
    provinces = provinces if provinces is not None else [province(1)]
    world = wb.world(
        provinces=provinces,
        kingdoms=[
            wb.kingdom(K, "Ulthuan", army_type, treasury=treasury, capitol=1),
            wb.kingdom(OTHER, "Karaz", other_type, treasury=0),
        ],
        armies=armies or [],
        turn=TURN,
        player_count=2,
    )
    return TurnState(
        world=world,
        orders={o.army: o for o in orders or []},
        sheets={K: sheet} if sheet else {},
    )


def codes(events: list[Event]) -> list[str]:
    return [e.code for e in events]


def ledger(events: list[Event]) -> list[tuple[str, int, str]]:
    """The treasury movements the events carry: (code, gold, ledger reason)."""
    return [(e.code, e.gold, e.ledger_reason) for e in events if e.gold]
