"""The replacement supply depots the sheet buys with gold (Supply Depot) (pure Python); those
bought with experience are purchases (rulebook.experience.purchases).
"""

from __future__ import annotations

from rulebook.turn.tables import SUPPLY_DEPOT_GOLD
from rulebook.turn.write_orders.context import SheetContext, where
from rulebook.turn.write_orders.create_upgrade import in_own_settlement
from rulebook.turn.write_orders.problems import (
    SheetCheck,
    SheetProblem,
    SheetProblemCode,
    armies_named_twice,
    each_army,
)
from rulebook.turn.write_orders.records import SheetEntries


def check_depots(entries: SheetEntries, ctx: SheetContext, check: SheetCheck) -> None:
    for army_id in armies_named_twice(entries.depots, ctx):
        check.error_problems.append(
            SheetProblem(
                SheetProblemCode.DEPOT_TWICE,
                "a supply depot is bought twice in one sheet; an army has one supply depot at a time.",
                army_id,
            )
        )
    for _depot, army in each_army(entries.depots, ctx, check):
        if army.supply_depot:
            check.error_problems.append(
                SheetProblem(SheetProblemCode.DEPOT_HELD, "already has a supply depot.", army.id, subject=True)
            )
        elif in_own_settlement(army, ctx) is None:
            check.error_problems.append(
                SheetProblem(
                    SheetProblemCode.DEPOT_NOT_IN_SETTLEMENT,
                    "a replacement supply depot is bought in a town or city; the army stands in "
                    f"{where(ctx, army.province)} (Supply Depot).",
                    army.id,
                )
            )
        else:
            check.costs.append((f"Supply depot for {army.name}", SUPPLY_DEPOT_GOLD))
