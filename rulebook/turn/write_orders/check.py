"""The check of a whole order sheet (4. Write Orders; Appendix: Order Sheet): each part of the
sheet checked by its own module, in the sheet's order, then the gold it spends against the treasury
and this turn's taxes, then the warnings (pure Python).
"""

from __future__ import annotations

from rulebook.experience.purchases import check_purchases
from rulebook.turn.write_orders.alliances import check_alliances
from rulebook.turn.write_orders.army_orders import check_losses, check_orders, check_warnings
from rulebook.turn.write_orders.capitol_move import check_capitol_moves
from rulebook.turn.write_orders.captives import check_captive_orders
from rulebook.turn.write_orders.context import SheetContext
from rulebook.turn.write_orders.create_upgrade import check_creations, check_upgrades
from rulebook.turn.write_orders.garrisons import check_garrisons
from rulebook.turn.write_orders.land_sales import check_land_deals
from rulebook.turn.write_orders.mission_uses import check_mission_uses
from rulebook.turn.write_orders.missions import check_missions
from rulebook.turn.write_orders.problems import SheetCheck, SheetProblem, SheetProblemCode
from rulebook.turn.write_orders.records import SheetEntries
from rulebook.turn.write_orders.supply_depot import check_depots
from rulebook.turn.write_orders.text_lengths import check_text_lengths
from rulebook.turn.write_orders.transfers import check_transfers


def order_sheet_check(entries: SheetEntries, ctx: SheetContext, *, warnings: bool = True) -> SheetCheck:
    """Check a whole sheet: errors refuse it, warnings point at orders that are legal but
    probably mistaken, costs list the gold it spends. `warnings=False`: the errors and costs only
    (the resolution checks each army's order again and reads only the errors)."""
    check = SheetCheck(
        # The Elite Defense Forces spend experience too (decision 620): named and counted beside the armies.
        names={a.id: a.name for a in (*ctx.armies.values(), *ctx.elite_defense_forces.values())},
        treasury=ctx.treasury,
        taxes=ctx.taxes,
        experience={a.id: a.experience for a in (*ctx.armies.values(), *ctx.elite_defense_forces.values())},
    )
    upgraded = {u.army for u in entries.upgrades}
    check_orders(entries, ctx, upgraded, check)
    check_losses(entries, ctx, check)
    check_creations(entries, ctx, check)
    check_upgrades(entries, ctx, check)
    check_depots(entries, ctx, check)
    check_garrisons(entries, ctx, check)
    check_purchases(entries, ctx, check)
    check_alliances(entries, ctx, check)
    check_transfers(entries, ctx, check)
    check_land_deals(entries, ctx, check)
    check_capitol_moves(entries, ctx, check)
    check_missions(entries, ctx, check)  # last of the spending: the mission takes what the rest leaves
    check_captive_orders(entries, ctx, check)  # a captive's fate costs nothing
    check_mission_uses(entries, ctx, check)  # Reconnaissance and Sabotage: effects earned, used (no gold)
    check_text_lengths(entries, check)  # a sheet by email: names no longer than the records keep
    if check.gold > check.available:
        check.error_problems.append(
            SheetProblem(
                SheetProblemCode.OVER_BUDGET,
                f"The sheet spends {check.gold:,} gold but the treasury holds {check.treasury:,} and this turn's "
                f"taxes bring {check.taxes:,}: {check.gold - check.available:,} gold short (Treasury; 1. Tally Gold "
                "comes before 3. Create / Upgrade Armies).",
            )
        )
    if warnings:
        check_warnings(entries, ctx, check)
    # One message per problem: parts of the sheet that name the same army (or rule) the same way
    # are told it once (the same problem of two different entries differs by its `entry`).
    check.error_problems = list(dict.fromkeys(check.error_problems))
    check.warning_problems = list(dict.fromkeys(check.warning_problems))
    return check
