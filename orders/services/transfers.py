"""The beginning of a turn: the gold transferred two turns before arrives (Player Issues, Transfer
of Gold: "if it were transferred in Turn 2, it will arrive at the beginning of Turn 4")."""

from __future__ import annotations

from django.db.models import Max

from kernel.event_codes import EventCode
from kingdoms.models import Kingdom, TreasuryEntry

from ..models import Turn, TurnEvent

PHASE_ARRIVALS = "deliveries"


def gold_transfers_arrive(*, turn: Turn) -> list[TurnEvent]:
    """Each transfer sent for `turn` (its TRANSFER_SENT event says when it arrives) is paid into the
    receiver's treasury: a ledger row and an event for the receiver. Safe twice: a transfer whose
    arrival is recorded is not paid again. Call in the transaction that opens the turn."""
    sent = [
        e
        for e in TurnEvent.objects.filter(
            turn__campaign=turn.campaign, code=EventCode.TRANSFER_SENT, turn__number__lt=turn.number
        ).select_related("turn", "kingdom")
        if e.data.get("arrives") == turn.number
    ]
    arrived = {
        (e.data.get("sent_turn"), e.data.get("from_kingdom"), e.data.get("sequence"))
        for e in TurnEvent.objects.filter(turn=turn, code=EventCode.TRANSFER_ARRIVED)
    }
    receivers = {k.id: k for k in Kingdom.objects.filter(campaign=turn.campaign)}
    start = (TurnEvent.objects.filter(turn=turn).aggregate(last=Max("sequence"))["last"] or -1) + 1
    rows = []
    for e in sorted(sent, key=lambda e: (e.turn.number, e.sequence)):
        if (e.turn.number, e.kingdom_id, e.sequence) in arrived:
            continue
        receiver = receivers.get(int(e.data["to"]))
        if receiver is None or e.kingdom is None:
            continue
        gold = int(e.data["gold"])
        text = (
            f"{gold:,} gold sent by {e.kingdom.name} in turn {e.turn.number} arrives in the treasury "
            "(Transfer of Gold)."
        )
        TreasuryEntry.objects.create(
            kingdom=receiver, turn=turn.number, amount=gold, reason=TreasuryEntry.Reason.TRANSFER, note=text[:200]
        )
        rows.append(
            TurnEvent(
                turn=turn,
                sequence=start + len(rows),
                phase=PHASE_ARRIVALS,
                code=EventCode.TRANSFER_ARRIVED,
                text=text,
                kingdom=receiver,
                gold=gold,
                data={"from_kingdom": e.kingdom_id, "sent_turn": e.turn.number, "sequence": e.sequence},
            )
        )
    return TurnEvent.objects.bulk_create(rows)
