"""The names and words an order sheet's entries give, no longer than the campaign's records keep
(pure Python): a new army's name, a unit's or a magic item's named by a purchase, and the rest. The
API and the site's form refuse a longer one as they read it; a sheet sent by email is read as it is
written, so the check refuses it too: a name the orders phase could not store would stop the turn
(decision 595)."""

from __future__ import annotations

from dataclasses import fields
from enum import Enum

from rulebook.turn.write_orders.problems import SheetCheck, SheetProblem, SheetProblemCode
from rulebook.turn.write_orders.records import ArmyOrder, CreateArmy, SheetEntries

# The longest text an entry may give: an army's, a unit's, a character's or a magic item's name is kept in
# 100 characters (kingdoms.models); a new unit's category in 16.
TEXT_MAX = 100
TEXT_MAX_OF = {("purchases", "category"): 16}


def check_text_lengths(entries: SheetEntries, check: SheetCheck) -> None:
    """An error for each text of the sheet longer than its record keeps, placed on its entry."""
    for part in fields(SheetEntries):
        for index, entry in enumerate(getattr(entries, part.name)):
            for f in fields(entry):
                value = getattr(entry, f.name)
                limit = TEXT_MAX_OF.get((part.name, f.name), TEXT_MAX)
                if not isinstance(value, str) or isinstance(value, Enum) or len(value) <= limit:
                    continue
                shown = f"{f.name.replace('_', ' ')} {value[:40]!r}..."
                words = f"{shown} has {len(value):,} characters; at most {limit} are kept"
                if isinstance(entry, CreateArmy):
                    check.error_problems.append(
                        SheetProblem(SheetProblemCode.TEXT_TOO_LONG, f"A new army's {words}.", creation=index)
                    )
                elif isinstance(entry, ArmyOrder):
                    check.error_problems.append(
                        SheetProblem(SheetProblemCode.TEXT_TOO_LONG, f"its order's {words}.", army=entry.army)
                    )
                else:
                    label = part.name.replace("_", " ").rstrip("s")
                    check.error_problems.append(
                        SheetProblem(
                            SheetProblemCode.TEXT_TOO_LONG,
                            f"The {label} (entry {index + 1}): its {words}.",
                            part=part.name,
                            entry=index,
                            entry_field=f.name,
                        )
                    )
