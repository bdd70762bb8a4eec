"""Transfer of Gold, the items (pure Python): "Kingdoms may transfer gold and items between each
other, but they will be subject to a 10% transportation fee and suffer a one Turn Delay ... An
item's gold cost is double its point value." Rules decision 143.

With the gold (after 1. Tally Gold and the alliances): each item a submitted sheet sends leaves its
bearer (or the armory) and its fee the sender's treasury; it arrives in the receiver's armory at the
beginning of the turn after next (orders/services/transfers.py reads the ITEM_SENT event; the
writer removes the item from the sender's list, orders/services/resolution.py).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

from kernel.event_codes import EventCode
from kernel.events import Event
from kernel.ledger import LedgerReason
from rulebook.allies.declarations import PHASE_TRANSFERS
from rulebook.turn.state import TurnState
from rulebook.turn.tables import ITEM_GOLD_PER_POINT, TRANSFER_ARRIVES_AFTER, item_transfer_fee

RULE = "Transfer of Gold"


def send_items(state: TurnState, events: list[Event]) -> None:
    for kingdom_id, sheet in sorted(state.sheets.items()):
        if kingdom_id in state.missed_orders or not sheet.item_transfers:
            continue
        roster = state.rosters.get(kingdom_id)
        sent: Counter[str] = Counter()
        for transfer in sheet.item_transfers:
            sender, receiver = state.kingdoms[kingdom_id], state.kingdoms.get(transfer.kingdom)
            if receiver is None or receiver.id == kingdom_id or receiver.ancient_dead:
                continue  # refused by the sheet check; not sent
            key = transfer.item.strip().lower()
            held = roster.held_items(transfer.item) if roster is not None else []
            sent[key] += 1
            item = held[sent[key] - 1] if len(held) >= sent[key] else None
            gone = item is not None and item.army is not None and item.army not in state.armies
            fee = item_transfer_fee(item.points) if item is not None else 0
            if receiver.rogue or item is None or gone or sender.treasury < fee:
                why = (
                    # A sheet submitted before the receiver's player was marked out (decision 604).
                    f"{receiver.name} is a Rogue Kingdom, with no leader to receive it (Rogue Kingdom)"
                    if receiver.rogue
                    else f"the treasury holds {sender.treasury:,} and the fee is {fee:,}"
                    if item is not None and not gone
                    else "the kingdom no longer holds it"
                )
                events.append(
                    Event(
                        PHASE_TRANSFERS,
                        EventCode.ITEM_TRANSFER_REFUSED,
                        f"{transfer.item.strip()} is not sent to {receiver.name}: {why} ({RULE}).",
                        kingdom=kingdom_id,
                        data={"to": receiver.id, "name": transfer.item.strip()},
                    )
                )
                continue
            arrives = state.turn + TRANSFER_ARRIVES_AFTER
            record = state.kingdoms[kingdom_id]
            state.kingdoms[kingdom_id] = replace(record, treasury=record.treasury - fee)
            if item.army is not None:
                # It leaves the army's list now: the army counts without it from this turn's battles on.
                army = state.armies[item.army]
                if not army.list_due:
                    state.armies[army.id] = replace(army, points=max(0, army.points - item.points))
            where = f"from {state.armies[item.army].name}" if item.army is not None else "from the armory"
            events.append(
                Event(
                    PHASE_TRANSFERS,
                    EventCode.ITEM_SENT,
                    f"{sender.name} sends {item.name} ({item.points} points, {item.points * ITEM_GOLD_PER_POINT:,} "
                    f"gold) {where} to {receiver.name} and pays {fee:,} in transportation fees; it arrives at the "
                    f"beginning of turn {arrives} ({RULE}).",
                    kingdom=kingdom_id,
                    army=item.army,
                    gold=-fee,
                    ledger_reason=LedgerReason.TRANSFER,
                    data={
                        "to": receiver.id,
                        "item_id": item.id,
                        "name": item.name,
                        "points": item.points,
                        "common": item.common,
                        "fee": fee,
                        "arrives": arrives,
                    },
                )
            )
