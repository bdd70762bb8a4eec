"""The garrisons of the sheet (Battle for Towns, Cities, and Capitols): where a garrison fights for
the kingdom, and the Elite Defense Force the sheet buys for one (pure Python).
"""

from __future__ import annotations

from collections import Counter

from rulebook.tables import ArmyType
from rulebook.turn.tables import ELITE_DEFENSE_FORCE_GOLD
from rulebook.turn.write_orders.context import SheetContext, where
from rulebook.turn.write_orders.problems import SheetCheck, SheetProblem, SheetProblemCode
from rulebook.turn.write_orders.records import SheetEntries
from rulebook.world import World


def garrisoned_by(world: World, number: int, kingdom: int) -> bool:
    """Battle for Towns, Cities, and Capitols: province `number` has a garrison that fights for
    `kingdom`: a town or city it controls, or its capitol (the Ancient Dead's is the pyramid)."""
    province = world.provinces.get(number)
    if province is None or province.controller != kingdom:
        return False
    return province.settlement.town_or_city or world.kingdoms[kingdom].capitol == number


def check_garrisons(entries: SheetEntries, ctx: SheetContext, check: SheetCheck) -> None:
    for number, count in Counter(g.province for g in entries.garrisons).items():
        if count > 1:
            check.error_problems.append(
                SheetProblem(SheetProblemCode.GARRISON_TWICE, f"{where(ctx, number)} is reinforced twice in one sheet.")
            )
    for garrison in entries.garrisons:
        province = ctx.province(garrison.province)
        if province is None:
            check.error_problems.append(
                SheetProblem(SheetProblemCode.NOT_ON_MAP, f"Province {garrison.province} is not on the map.")
            )
            continue
        if ctx.army_type is ArmyType.ANCIENT_DEAD:
            check.error_problems.append(
                SheetProblem(
                    SheetProblemCode.GARRISON_ANCIENT_DEAD,
                    "The Ancient Dead's garrisons cannot take an Elite Defense Force (The Ancient Dead).",
                )
            )
        elif province.controller != ctx.kingdom or province.settlement not in ("town", "city"):
            check.error_problems.append(
                SheetProblem(
                    SheetProblemCode.GARRISON_NOT_OWN_SETTLEMENT,
                    f"{province}: an Elite Defense Force reinforces the garrison of a town or city you control "
                    "(Battle for Towns, Cities, and Capitols).",
                )
            )
        elif province.looted_in(ctx.turn):
            # Looting: "A Looted town / city cannot upgrade or create armies until the beginning of the next
            # full turn"; the Elite Defense Force is "treated as an army in the field" (decision 622).
            check.error_problems.append(
                SheetProblem(
                    SheetProblemCode.LOOTED,
                    f"{province} was looted and cannot raise an Elite Defense Force, an army of its people, until "
                    "the start of the next full turn (Looting; Battle for Towns, Cities, and Capitols).",
                )
            )
        elif province.elite_defense:
            check.error_problems.append(
                SheetProblem(
                    SheetProblemCode.GARRISON_REINFORCED,
                    f"{province}: its garrison already has an Elite Defense Force.",
                )
            )
        else:
            check.costs.append((f"Elite Defense Force for {province}", ELITE_DEFENSE_FORCE_GOLD))
