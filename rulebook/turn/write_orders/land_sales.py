"""The provinces the sheet gives, sells or trades (Land Sales) (pure Python)."""

from __future__ import annotations

from rulebook.turn.tables import TRANSFER_ARRIVES_AFTER, transfer_fee
from rulebook.turn.write_orders.context import SheetContext
from rulebook.turn.write_orders.problems import SheetCheck, SheetProblem, SheetProblemCode
from rulebook.turn.write_orders.records import SheetEntries, entry_at


def check_land_deals(entries: SheetEntries, ctx: SheetContext, check: SheetCheck) -> None:
    """Land Sales: "Provinces may be given away, bought, or traded at the rate of one province per turn
    per player receiving the land ... Towns or cities may not be given away or sold": one deal per
    other kingdom a turn, the province given one's own and neither a town, a city nor the capitol;
    the gold paid is counted in what the sheet spends, with its Transfer of Gold fee."""
    world = ctx.world
    seen: set[int] = set()
    given: set[int] = set()
    for index, deal in enumerate(entries.land_deals):
        other = world.kingdoms.get(deal.kingdom)
        if other is None or other.id == ctx.kingdom or other.ancient_dead or other.rogue:
            who = other.name if other is not None else f"Kingdom {deal.kingdom}"
            check.error_problems.append(
                SheetProblem(
                    SheetProblemCode.LAND_SALE,
                    f"{who} is not another player's kingdom of this campaign: land is given, sold "
                    "or traded to one (Land Sales).",
                    **entry_at("land_deals", index, "kingdom"),
                )
            )
            continue
        if other.id in seen:
            check.error_problems.append(
                SheetProblem(
                    SheetProblemCode.LAND_SALE_TWICE,
                    f"A second land deal with {other.name} this turn: provinces change hands at the rate of one "
                    "province per turn per player receiving the land (Land Sales).",
                    **entry_at("land_deals", index, "kingdom"),
                )
            )
            continue
        seen.add(other.id)
        if deal.gold < 0:
            check.error_problems.append(
                SheetProblem(
                    SheetProblemCode.LAND_SALE,
                    f"The land deal with {other.name} pays {deal.gold:,} gold: pay 0 or more (Land Sales).",
                    **entry_at("land_deals", index, "gold"),
                )
            )
        if deal.province is not None:
            province = world.provinces.get(deal.province)
            why = ""
            if province is None or province.controller != ctx.kingdom:
                why = f"province {deal.province} is not yours to give"
            elif province.settlement in ("town", "city") or world.kingdoms[ctx.kingdom].capitol == province.number:
                held = province.settlement if province.settlement in ("town", "city") else "capitol"
                why = f"{province} holds a {held}: towns or cities may not be given away or sold"
            elif province.number in given:
                why = f"{province} is given twice"
            if why:
                check.error_problems.append(
                    SheetProblem(
                        SheetProblemCode.LAND_SALE,
                        f"The land deal with {other.name}: {why} (Land Sales).",
                        **entry_at("land_deals", index, "province"),
                    )
                )
                continue
            given.add(deal.province)
        if deal.gold > 0:
            # The price is a Transfer of Gold: its 10% fee is paid on top, and the gold arrives in the
            # other kingdom's treasury the turn after next (decision 384).
            fee = transfer_fee(deal.gold)
            check.costs.append(
                (
                    f"Land deal with {other.name}: {deal.gold:,} gold (+{fee:,} transportation fee; arrives at the "
                    f"beginning of turn {ctx.turn + TRANSFER_ARRIVES_AFTER})",
                    deal.gold + fee,
                )
            )
