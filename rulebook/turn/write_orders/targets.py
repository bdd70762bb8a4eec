"""The targets the order sheet offers: for each army, the provinces its Move, Support and Forced
March may name; for a new army, the provinces it may be raised in. Each candidate is put to the
sheet check itself (army_orders.army_order_problems, create_upgrade.creation_problems), so the page
offers what the check accepts and the rules are written once; the check stays the authority over what
is filed."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from rulebook.tables import ARMY_MIN_POINTS
from rulebook.turn.write_orders.army_orders import army_order_problems
from rulebook.turn.write_orders.context import SheetContext
from rulebook.turn.write_orders.create_upgrade import creation_problems
from rulebook.turn.write_orders.problems import SheetProblemCode
from rulebook.turn.write_orders.records import ArmyOrder, CreateArmy, OrderKind

# The problems of a new army that are about its province (its name and size are the player's to fix).
PLACEMENT_CODES = frozenset(
    {SheetProblemCode.NOT_ON_MAP, SheetProblemCode.NOT_YOURS, SheetProblemCode.LOOTED, SheetProblemCode.OCCUPIED}
)
_PROBE_NAME = "\x00probe"  # a name no army has, so only the province decides


@dataclass(frozen=True)
class ArmyTargets:
    """One army's legal targets, by province number, in map order."""

    province: int  # where the army stands
    move: tuple[int, ...] = ()
    support: tuple[int, ...] = ()
    march: dict[int, tuple[int, ...]] = field(default_factory=dict)  # first step -> the second steps from it
    # The order kinds the check accepts for the army here (with some target, for those that take one).
    kinds: tuple[OrderKind, ...] = (OrderKind.HOLD,)

    @property
    def march_firsts(self) -> tuple[int, ...]:
        return tuple(self.march)

    @property
    def march_seconds(self) -> tuple[int, ...]:
        return tuple(sorted({p for seconds in self.march.values() for p in seconds}))


@dataclass(frozen=True)
class SheetTargets:
    armies: dict[int, ArmyTargets]
    creation_provinces: tuple[int, ...]

    def as_data(self) -> dict[str, Any]:
        """The page's data (JSON): what its script narrows the drop-downs to and draws arrows from."""
        return {
            "armies": {
                str(army): {
                    "province": t.province,
                    "move": list(t.move),
                    "support": list(t.support),
                    "march": {str(first): list(seconds) for first, seconds in t.march.items()},
                }
                for army, t in self.armies.items()
            },
            "creation_provinces": list(self.creation_provinces),
        }


def _accepted(order: ArmyOrder, ctx: SheetContext, baseline: set[SheetProblemCode]) -> bool:
    """The check finds nothing wrong with the order beyond what it finds with the army holding
    (a problem of the army itself, which no target mends)."""
    return {p.code for p in army_order_problems(order, ctx)} <= baseline


def army_targets(army_id: int, ctx: SheetContext) -> ArmyTargets:
    army = ctx.armies[army_id]
    here = army.province
    baseline = {p.code for p in army_order_problems(ArmyOrder(army=army_id, kind=OrderKind.HOLD), ctx)}
    neighbours = sorted(ctx.world.adjacency.get(here, frozenset()))
    move = tuple(
        n for n in neighbours if _accepted(ArmyOrder(army=army_id, kind=OrderKind.MOVE, target=n), ctx, baseline)
    )
    support = tuple(
        n for n in neighbours if _accepted(ArmyOrder(army=army_id, kind=OrderKind.SUPPORT, support=n), ctx, baseline)
    )
    march: dict[int, tuple[int, ...]] = {}
    for first in neighbours:
        seconds = tuple(
            second
            for second in sorted(ctx.world.adjacency.get(first, frozenset()))
            if _accepted(ArmyOrder(army=army_id, kind=OrderKind.FORCED_MARCH, path=(first, second)), ctx, baseline)
        )
        if seconds:
            march[first] = seconds
    raze_move = any(
        _accepted(ArmyOrder(army=army_id, kind=OrderKind.RAZE_MOVE, target=n), ctx, baseline) for n in neighbours
    )
    with_target = {
        OrderKind.MOVE: bool(move),
        OrderKind.RAZE_MOVE: raze_move,
        OrderKind.SUPPORT: bool(support),
        OrderKind.FORCED_MARCH: bool(march),
    }
    kinds = tuple(
        kind
        for kind in OrderKind
        if kind == OrderKind.HOLD
        or with_target.get(kind, False)
        or (kind not in with_target and _accepted(ArmyOrder(army=army_id, kind=kind), ctx, baseline))
    )
    return ArmyTargets(province=here, move=move, support=support, march=march, kinds=kinds)


def creation_provinces(ctx: SheetContext) -> tuple[int, ...]:
    """The provinces a new army may be raised in now (yours, unoccupied, not looted)."""
    return tuple(
        number
        for number in sorted(ctx.provinces)
        if not {
            p.code
            for p in creation_problems(CreateArmy(name=_PROBE_NAME, points=ARMY_MIN_POINTS, province=number), ctx)
        }
        & PLACEMENT_CODES
    )


def sheet_targets(ctx: SheetContext) -> SheetTargets:
    return SheetTargets(
        armies={army_id: army_targets(army_id, ctx) for army_id in sorted(ctx.armies)},
        creation_provinces=creation_provinces(ctx),
    )
