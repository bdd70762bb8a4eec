"""The gold and the magic items the sheet sends to other kingdoms (Transfer of Gold) (pure Python)."""

from __future__ import annotations

from collections import Counter

from rulebook.turn.tables import TRANSFER_ARRIVES_AFTER, item_transfer_fee, transfer_fee
from rulebook.turn.write_orders.context import SheetContext
from rulebook.turn.write_orders.problems import SheetCheck, SheetProblem, SheetProblemCode
from rulebook.turn.write_orders.records import SheetEntries, entry_at
from rulebook.world import KingdomState


def _receiver(ctx: SheetContext, kingdom: int) -> KingdomState | None:
    """Transfer of Gold: the other player's kingdom of the campaign a transfer goes to (None: not one).
    A Rogue Kingdom has no player to receive it (decision 604), as it takes no land (Land Sales)."""
    other = ctx.world.kingdoms.get(kingdom)
    return None if other is None or other.id == ctx.kingdom or other.ancient_dead or other.rogue else other


def _kingdom_words(ctx: SheetContext, kingdom: int) -> str:
    """The kingdom a transfer names, by its name (its own, the Ancient Dead), or its number if none."""
    named = ctx.world.kingdoms.get(kingdom)
    return named.name if named is not None else f"Kingdom {kingdom}"


def check_transfers(entries: SheetEntries, ctx: SheetContext, check: SheetCheck) -> None:
    """Transfer of Gold: to another player's kingdom of the campaign, a positive amount, the 10%
    fee paid on top by the sender (counted in what the sheet spends)."""
    _check_item_transfers(entries, ctx, check)
    for index, transfer in enumerate(entries.gold_transfers):
        other = _receiver(ctx, transfer.kingdom)
        if other is None:
            check.error_problems.append(
                SheetProblem(
                    SheetProblemCode.TRANSFER,
                    f"{_kingdom_words(ctx, transfer.kingdom)} is not another player's kingdom of this campaign: "
                    "gold is transferred to one (Transfer of Gold).",
                    **entry_at("gold_transfers", index, "kingdom"),
                )
            )
            continue
        if transfer.gold <= 0:
            check.error_problems.append(
                SheetProblem(
                    SheetProblemCode.TRANSFER,
                    f"A transfer to {other.name} of {transfer.gold:,} gold: transfer a positive amount "
                    "(Transfer of Gold).",
                    **entry_at("gold_transfers", index, "gold"),
                )
            )
            continue
        fee = transfer_fee(transfer.gold)
        check.costs.append(
            (
                f"Transfer {transfer.gold:,} gold to {other.name} (+{fee:,} transportation fee; arrives at the "
                f"beginning of turn {ctx.turn + TRANSFER_ARRIVES_AFTER})",
                transfer.gold + fee,
            )
        )


def _check_item_transfers(entries: SheetEntries, ctx: SheetContext, check: SheetCheck) -> None:
    """Transfer of Gold: "Kingdoms may transfer gold and items between each other ... An item's gold
    cost is double its point value": an item the kingdom holds (as many of a name as it holds), to
    another player's kingdom; the sender pays 10% of the item's gold cost (counted in what the sheet
    spends). Decision 143."""
    sent: Counter[str] = Counter()
    for index, transfer in enumerate(entries.item_transfers):
        other = _receiver(ctx, transfer.kingdom)
        name = transfer.item.strip()
        if other is None:
            check.error_problems.append(
                SheetProblem(
                    SheetProblemCode.ITEM_TRANSFER,
                    f"{_kingdom_words(ctx, transfer.kingdom)} is not another player's kingdom of this campaign: "
                    f"{name or 'an item'} is transferred to one (Transfer of Gold).",
                    **entry_at("item_transfers", index, "kingdom"),
                )
            )
            continue
        held = ctx.roster.held_items(name)
        sent[name.lower()] += 1
        if len(held) < sent[name.lower()]:
            have = f"holds {len(held)}" if held else "holds no magic item of that name"
            check.error_problems.append(
                SheetProblem(
                    SheetProblemCode.ITEM_TRANSFER,
                    f"The transfer of {name or 'an item'} to {other.name}: the kingdom {have}, in its armies or its "
                    "armory (Transfer of Gold).",
                    **entry_at("item_transfers", index, "item"),
                )
            )
            continue
        item = held[sent[name.lower()] - 1]
        fee = item_transfer_fee(item.points)
        check.costs.append(
            (
                f"Transfer {item.name} ({item.points} points, {item.points * 2:,} gold) to {other.name} (+{fee:,} "
                f"transportation fee; arrives at the beginning of turn {ctx.turn + TRANSFER_ARRIVES_AFTER})",
                fee,
            )
        )
