"""The beginning of a turn: the gold transferred two turns before arrives (Player Issues, Transfer
of Gold: "if it were transferred in Turn 2, it will arrive at the beginning of Turn 4"), from an
order sheet, as money negotiations on a turn summary sheet, or as a land sale's price (rules
decisions 141, 142, 384)."""

from __future__ import annotations

from kernel.event_codes import EventCode
from kingdoms.models import ArmoryItem, Kingdom, TreasuryEntry
from turns.models import Turn, TurnEvent

from .events import turn_event_sequence_next

PHASE_ARRIVALS = "deliveries"


def _due(turn: Turn, sent_codes: list[EventCode], arrived_code: EventCode) -> tuple[list[TurnEvent], int]:
    """The events of earlier turns that send something arriving at the beginning of `turn` (their
    data's `arrives`) and not arrived yet (an `arrived_code` event of `turn` names each arrival by the
    sending event's turn, kingdom and sequence), in the order they were sent; and the sequence the
    turn's next event takes."""
    sent = [
        e
        for e in TurnEvent.objects.filter(
            turn__campaign=turn.campaign, code__in=sent_codes, turn__number__lt=turn.number
        ).select_related("turn", "kingdom")
        if e.data.get("arrives") == turn.number
    ]
    arrived = {
        (e.data.get("sent_turn"), e.data.get("from_kingdom"), e.data.get("sequence"))
        for e in TurnEvent.objects.filter(turn=turn, code=arrived_code)
    }
    start = turn_event_sequence_next(turn)
    due = [e for e in sent if (e.turn.number, e.kingdom_id, e.sequence) not in arrived]
    return sorted(due, key=lambda e: (e.turn.number, e.sequence)), start


def _arrival(
    turn: Turn,
    sent: TurnEvent,
    code: EventCode,
    *,
    sequence: int,
    to: Kingdom,
    text: str,
    gold: int = 0,
    **data: object,
) -> TurnEvent:
    """The receiver's event of what `sent` sent, arriving at the beginning of `turn` (not saved yet).
    Its data names the sending event by turn, kingdom and sequence: how `_due` knows it arrived."""
    return TurnEvent(
        turn=turn,
        sequence=sequence,
        phase=PHASE_ARRIVALS,
        code=code,
        text=text,
        kingdom=to,
        gold=gold,
        data={"from_kingdom": sent.kingdom_id, "sent_turn": sent.turn.number, "sequence": sent.sequence, **data},
    )


# The events that send gold arriving the turn after next: how the arrival says it was sent, and the
# reason of the receiver's ledger row.
_HOW_SENT: dict[EventCode, tuple[str, str]] = {
    EventCode.TRANSFER_SENT: ("sent", TreasuryEntry.Reason.TRANSFER),
    EventCode.NEGOTIATION_PAID: ("paid in money negotiations after a battle", TreasuryEntry.Reason.TRANSFER),
    EventCode.LAND_PRICE_PAID: ("paid for land", TreasuryEntry.Reason.LAND_SALE),
}


def gold_transfers_arrive(*, turn: Turn) -> list[TurnEvent]:
    """Each transfer sent for `turn` (its TRANSFER_SENT, NEGOTIATION_PAID or LAND_PRICE_PAID event says when it
    arrives) is paid into the receiver's treasury: a ledger row and an event for the receiver. Safe
    twice: a transfer whose arrival is recorded is not paid again. Call in the transaction that opens
    the turn."""
    due, start = _due(turn, list(_HOW_SENT), EventCode.TRANSFER_ARRIVED)
    receivers = {k.id: k for k in Kingdom.objects.filter(campaign=turn.campaign)}
    rows = []
    for e in due:
        receiver = receivers.get(int(e.data["to"]))
        if receiver is None or e.kingdom is None:
            continue
        gold = int(e.data["gold"])
        how, reason = _HOW_SENT[EventCode(e.code)]
        text = (
            f"{gold:,} gold {how} by {e.kingdom.name} in turn {e.turn.number} arrives in the treasury "
            "(Transfer of Gold)."
        )
        TreasuryEntry.objects.create(kingdom=receiver, turn=turn.number, amount=gold, reason=reason, note=text[:200])
        rows.append(
            _arrival(turn, e, EventCode.TRANSFER_ARRIVED, sequence=start + len(rows), to=receiver, text=text, gold=gold)
        )
    return TurnEvent.objects.bulk_create(rows)


def items_arrive(*, turn: Turn) -> list[TurnEvent]:
    """Each item sent for `turn` (its ITEM_SENT event) is put in the receiver's armory (no bearer: the
    player gives it to a character on the list): an event for the receiver, once. A kingdom holds one
    of each armory item that is not common (Armory): one that already holds it sends it back to the
    sender's armory, or, holding one too, it is lost (rules decision 143). Call in the transaction
    that opens the turn."""
    due, start = _due(turn, [EventCode.ITEM_SENT], EventCode.ITEM_ARRIVED)
    kingdoms = {k.id: k for k in Kingdom.objects.filter(campaign=turn.campaign)}
    rows = []
    for e in due:
        receiver = kingdoms.get(int(e.data["to"]))
        if receiver is None or e.kingdom is None:
            continue
        name, common = str(e.data["name"]), bool(e.data.get("common"))
        text = f"{name} sent by {e.kingdom.name} in turn {e.turn.number} arrives in the armory (Transfer of Gold)."
        keeper: Kingdom | None = receiver
        for candidate in (receiver, e.kingdom):
            keeper = candidate
            if (
                common
                # One it lost counts too: "your kingdom does not get another one" (Armory).
                or not ArmoryItem.objects.filter(kingdom=candidate, name__iexact=name, common=False).exists()
            ):
                break
            keeper = None
        if keeper is not None:
            ArmoryItem.objects.create(kingdom=keeper, name=name, points=int(e.data["points"]), common=common)
        if keeper is not receiver:
            text = (
                f"{name} sent by {e.kingdom.name} in turn {e.turn.number} arrives, but the kingdom holds one already "
                "(or lost one with an army) and has only one of each armory item (Armory): "
                + ("it goes back to the sender's armory." if keeper is not None else "it is lost.")
            )
        rows.append(
            _arrival(turn, e, EventCode.ITEM_ARRIVED, sequence=start + len(rows), to=receiver, text=text, name=name)
        )
    return TurnEvent.objects.bulk_create(rows)
