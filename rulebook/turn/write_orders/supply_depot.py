"""The replacement supply depots the sheet buys with gold (Supply Depot) (pure Python); those
bought with experience are purchases (rulebook.experience.purchases).
"""

from __future__ import annotations

from rulebook.turn.tables import SUPPLY_DEPOT_GOLD
from rulebook.turn.write_orders.context import SheetContext, where
from rulebook.turn.write_orders.problems import (
    SheetCheck,
    SheetProblem,
    SheetProblemCode,
    armies_named_twice,
    each_army,
)
from rulebook.turn.write_orders.records import SheetEntries
from rulebook.world import ArmyState


def _in_a_town_or_city(army: ArmyState, ctx: SheetContext) -> bool:
    """Supply Depot: "A replacement Supply Depot can be purchased for 200 gold in a Town or City": any
    town or city the army stands in, whoever controls it (its own, an ally's it stands in, a neutral
    one, or one it retreated into), as the Perfectionists' "town or city" is read (decisions 70, 607).
    Unlike an upgrade (decision 14), buying supplies recreates no army there."""
    province = ctx.province(army.province)
    return province is not None and province.settlement.town_or_city


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
        elif not _in_a_town_or_city(army, ctx):
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
