"""The captive orders the sheet gives (Reconnaissance, Sabotage: "A kingdom may do anything it wishes
with a captured Tomb Raider") (pure Python). Rules decisions 453 and 490.

The rules are rulebook.ruins_and_tomb_raiders.captives's (`captive_order_problems`); this module reads
the sheet for them and places each problem on its entry of the `captive_orders` part. A fate costs no
gold: a ransom is paid by the owner's Transfer of Gold, on the owner's sheet.
"""

from __future__ import annotations

from rulebook.ruins_and_tomb_raiders.captives import captive_order_problems
from rulebook.turn.write_orders.context import SheetContext
from rulebook.turn.write_orders.problems import SheetCheck, SheetProblem, SheetProblemCode
from rulebook.turn.write_orders.records import SheetEntries, entry_at

PART = "captive_orders"


def check_captive_orders(entries: SheetEntries, ctx: SheetContext, check: SheetCheck) -> None:
    """Each captive order names a captive the kingdom holds, once."""
    for problem in captive_order_problems(entries.captive_orders, ctx.world.captives, ctx.kingdom):
        check.error_problems.append(
            SheetProblem(
                SheetProblemCode(problem.code.value), problem.message, **entry_at(PART, problem.index, "captive")
            )
        )
