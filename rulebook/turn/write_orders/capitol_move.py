"""The capitol the sheet moves (Loss of the Capitol: "A Warlord may move the capitol to another
city") (pure Python).
"""

from __future__ import annotations

from rulebook.turn.write_orders.context import SheetContext
from rulebook.turn.write_orders.problems import SheetCheck, SheetProblem, SheetProblemCode
from rulebook.turn.write_orders.records import SheetEntries, entry_at
from rulebook.world import World


def check_capitol_moves(entries: SheetEntries, ctx: SheetContext, check: SheetCheck) -> None:
    """Loss of the Capitol: the capitol moves to another city of the kingdom where its Warlord stands,
    for 1,000 gold (once a turn); after the capitol was lost, the coronation is free (decision 159)."""
    for index, move in enumerate(entries.capitol_moves):
        why = capitol_move_refusal(ctx.world, ctx.kingdom, move.province)
        if why:
            check.error_problems.append(
                SheetProblem(
                    SheetProblemCode.CAPITOL,
                    f"{why} (Loss of the Capitol).",
                    **entry_at("capitol_moves", index, "province"),
                )
            )
            continue
        check.costs.append((f"Move the capitol to {ctx.world.provinces[move.province]}", CAPITOL_MOVE_GOLD))
    if len(entries.capitol_moves) > 1:
        check.error_problems.append(
            SheetProblem(
                SheetProblemCode.CAPITOL,
                "The capitol moves once a turn (Loss of the Capitol).",
                **entry_at("capitol_moves", 1, "province"),
            )
        )


CAPITOL_MOVE_GOLD = 1000  # Loss of the Capitol: "will cost 1,000 gold pieces"


def capitol_move_refusal(world: World, kingdom: int, number: int) -> str:
    """Why the kingdom's capitol cannot move to province `number` now ("" when it can): another city
    of the kingdom's, with the Warlord's army standing in it."""
    province = world.provinces.get(number)
    own = world.kingdoms[kingdom]
    if own.capitol_lost_turn is not None:
        return "Your capitol is lost: your Warlord is crowned in a city of yours it stands in, with no order or gold"
    if province is None or province.controller != kingdom or province.settlement != "city":
        return f"Province {number} is not a city of yours: the capitol moves to another of your cities"
    if own.capitol == number:
        return f"{province} is your capitol already"
    warlord = world.armies.get(own.warlord_army) if own.warlord_army is not None else None
    if warlord is None or warlord.province != number:
        return f"Your Warlord does not stand in {province}: the Warlord moves the capitol to the city it is in"
    return ""
