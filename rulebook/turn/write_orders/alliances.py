"""The alliances the sheet declares (Allies, Alliance Chart); an end announced here is refused
(Announcement: during the End of Turn) (pure Python)."""

from __future__ import annotations

from rulebook.allies.chart import ALLIANCE_GOLD, TrustLevel, trust_level
from rulebook.turn.write_orders.context import SheetContext
from rulebook.turn.write_orders.problems import SheetCheck, SheetProblem, SheetProblemCode
from rulebook.turn.write_orders.records import SheetEntries


def check_alliances(entries: SheetEntries, ctx: SheetContext, check: SheetCheck) -> None:
    """Allies: an alliance is declared with another player's kingdom the Alliance Chart lets the
    kingdom ally with, one a turn, neither of the two allied already ("only a total of two kingdoms
    per alliance"), for 1,000 gold. An end of an alliance is announced during the End of Turn, not
    here: an order sheet that announces one is refused (Announcement; decision 385)."""
    world = ctx.world
    own = world.kingdoms[ctx.kingdom]
    if len(entries.alliances) > 1:
        check.error_problems.append(
            SheetProblem(
                SheetProblemCode.ALLIANCE_TWICE,
                f"The sheet declares {len(entries.alliances)} alliances; there can be only a total of two kingdoms "
                "per alliance, so a kingdom declares one (Allies).",
            )
        )
    for declared in entries.alliances:
        other = world.kingdoms.get(declared.kingdom)
        if other is None or other.id == ctx.kingdom or other.ancient_dead:
            who = other.name if other is not None else f"Kingdom {declared.kingdom}"
            check.error_problems.append(
                SheetProblem(
                    SheetProblemCode.ALLIANCE_NO_SUCH_KINGDOM,
                    f"{who} is not another player's kingdom of this campaign: an alliance is "
                    "declared with one (Allies).",
                )
            )
            continue
        trust = trust_level(own.army_type, other.army_type)
        if trust is TrustLevel.DISALLOWED:
            check.error_problems.append(
                SheetProblem(
                    SheetProblemCode.ALLIANCE_DISALLOWED,
                    f"{own.army_type.label} and {other.army_type.label} cannot ally: the Alliance Chart marks them "
                    f"X ({other.name}; Allies).",
                )
            )
            continue
        if world.allied(ctx.kingdom, other.id):
            check.error_problems.append(
                SheetProblem(
                    SheetProblemCode.ALLIANCE_FULL,
                    f"You are already allied with {other.name} (Allies).",
                )
            )
            continue
        busy = [k for k in (own, other) if world.alliance_of(k.id) is not None]
        if busy:
            check.error_problems.append(
                SheetProblem(
                    SheetProblemCode.ALLIANCE_FULL,
                    f"{' and '.join(k.name for k in busy)} {'is' if len(busy) == 1 else 'are'} already in an alliance: "
                    "there can be only a total of two kingdoms per alliance (Allies).",
                )
            )
            continue
        check.costs.append((f"Alliance with {other.name} ({trust.label})", ALLIANCE_GOLD))
    for ended in entries.alliance_ends:
        other = world.kingdoms.get(ended.kingdom)
        name = other.name if other is not None else f"Kingdom {ended.kingdom}"
        check.error_problems.append(
            SheetProblem(
                SheetProblemCode.ALLIANCE_END_AT_END_OF_TURN,
                f"The end of an alliance (with {name}) is not announced on the order sheet: it is announced during "
                "the End of Turn, on your turn summary sheet or on the turn's battles page while its battles are "
                "played, and the rules for allies cease the next turn (Allies, Announcement).",
            )
        )
