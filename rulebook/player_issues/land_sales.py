"""Land Sales and Civil Unrest: provinces given, sold or traded on the order sheets, and the newly
acquired province with no army of its new owner the next turn (pure Python).

Rulebook: Player Issues > Land Sales. "Provinces may be given away, bought, or traded at the rate of
one province per turn per player receiving the land ... Towns or cities may not be given away or
sold. If a newly acquired province does not have an army of the new controlling player on it by the
next turn it may go into Civil Unrest ... On a roll of a 4+ on a D6, the province becomes a Rogue
Kingdom province ... and is no longer in the player's control."

The price is gold sent to another kingdom: a Transfer of Gold ("subject to a 10% transportation fee
and suffer a one Turn Delay"). The payer pays it and its fee when the deal is settled; it arrives in
the seller's treasury at the beginning of the turn after next (orders/services/transfers.py reads
the LAND_PRICE_PAID event's `to`, `gold` and `arrives`). Decision 384.
"""

from __future__ import annotations

from dataclasses import replace

from kernel.dice import Dice
from kernel.event_codes import EventCode
from kernel.events import Event
from kernel.ledger import LedgerReason
from rulebook.turn.state import TurnState
from rulebook.turn.tables import TRANSFER_ARRIVES_AFTER, transfer_fee
from rulebook.turn.write_orders.records import LandDeal

PHASE = "land"
CIVIL_UNREST_NEEDS = 4  # Civil Unrest: "On a roll of a 4+ on a D6, the province becomes a Rogue Kingdom province"


def _add_gold(state: TurnState, kingdom: int, gold: int) -> None:
    record = state.kingdoms[kingdom]
    state.kingdoms[kingdom] = replace(record, treasury=record.treasury + gold)


def settle_land_deals(state: TurnState, events: list[Event]) -> None:
    """At the beginning of the turn (after the alliances): every land deal both kingdoms declared on
    this turn's sheets, in the order of the first kingdom's id. A province changes hands now; its price
    is a Transfer of Gold, paid with its 10% fee now and arriving the turn after next (decision 384).
    A kingdom receives at most one province a turn, so a later deal that would give it a second is
    refused, as is one whose province, or gold with its fee, is no longer there."""
    wants: dict[tuple[int, int], LandDeal] = {}
    for kingdom_id, sheet in sorted(state.sheets.items()):
        if kingdom_id in state.missed_orders or state.kingdoms[kingdom_id].rogue:
            continue
        for deal in sheet.land_deals:
            wants.setdefault((kingdom_id, deal.kingdom), deal)
    received: set[int] = set()
    for (a, b), mine in sorted(wants.items()):
        theirs = wants.get((b, a))
        if b not in state.kingdoms:
            continue  # refused by the sheet check
        if theirs is None:
            events.append(
                Event(
                    PHASE,
                    EventCode.LAND_DEAL_NOT_AGREED,
                    f"{state.kingdoms[a].name} declared a land deal with {state.kingdoms[b].name}, who did not declare "
                    "it this turn: nothing changes hands (Land Sales).",
                    kingdom=a,
                    data={"with": b},
                )
            )
            continue
        if a > b:
            continue  # settled from the other side
        why = _refusal(state, (a, mine), (b, theirs), received)
        if why:
            for k, o in ((a, b), (b, a)):
                events.append(
                    Event(
                        PHASE,
                        EventCode.LAND_DEAL_REFUSED,
                        f"The land deal of {state.kingdoms[k].name} with {state.kingdoms[o].name} is refused: {why} "
                        "(Land Sales). Nothing changes hands.",
                        kingdom=k,
                        data={"with": o, "reason": why},
                    )
                )
            continue
        _deal(state, events, (a, mine), (b, theirs), received)


def _refusal(state: TurnState, first: tuple[int, LandDeal], second: tuple[int, LandDeal], received: set[int]) -> str:
    if first[1].province is None and second[1].province is None:
        return "neither side gives a province"
    for (giver, deal), (receiver, _) in ((first, second), (second, first)):
        giver_name = state.kingdoms[giver].name
        if deal.province is not None:
            province = state.provinces.get(deal.province)
            if province is None or province.controller != giver:
                return f"{giver_name} no longer holds province {deal.province}"
            if province.settlement in ("town", "city") or state.kingdoms[giver].capitol == province.number:
                return f"{province} holds a town, city or capitol: towns or cities may not be given away or sold"
            if receiver in received:
                return (
                    f"{state.kingdoms[receiver].name} has received a province this turn already: one province per "
                    "turn per player receiving the land"
                )
        treasury = state.kingdoms[giver].treasury
        fee = transfer_fee(deal.gold)
        if deal.gold + fee > treasury:
            return (
                f"{giver_name} cannot pay the {deal.gold:,} gold and its {fee:,} transportation fee (its treasury "
                f"holds {treasury:,}; Transfer of Gold)"
            )
    return ""


def _deal(
    state: TurnState, events: list[Event], first: tuple[int, LandDeal], second: tuple[int, LandDeal], received: set[int]
) -> None:
    moved: dict[int, int | None] = {}  # giver -> the province it gives
    for (giver, deal), (receiver, _) in ((first, second), (second, first)):
        moved[giver] = deal.province
        if deal.province is not None:
            province = state.provinces[deal.province].taken_by(receiver)
            state.provinces[deal.province] = replace(province, land_sale_turn=state.turn)
            received.add(receiver)
    arrives = state.turn + TRANSFER_ARRIVES_AFTER
    for (giver, deal), (receiver, other) in ((first, second), (second, first)):
        name, other_name = state.kingdoms[giver].name, state.kingdoms[receiver].name
        parts = []
        if deal.province is not None:
            parts.append(f"gives {state.provinces[deal.province]} to {other_name}")
        if other.province is not None:
            parts.append(f"receives {state.provinces[other.province]}")
        if deal.gold:
            parts.append(f"pays {deal.gold:,} gold (+{transfer_fee(deal.gold):,} transportation fee)")
        if other.gold:
            parts.append(f"is paid {other.gold:,} gold, arriving at the beginning of turn {arrives}")
        unrest = (
            f" If no army of {name}'s stands in {state.provinces[other.province]} by the next turn, it may go into "
            "Civil Unrest."
            if other.province is not None
            else ""
        )
        events.append(
            Event(
                PHASE,
                EventCode.LAND_DEAL,
                f"Land deal with {other_name}: {name} {', '.join(parts)} (Land Sales).{unrest}",
                kingdom=giver,
                province=deal.province if deal.province is not None else other.province,
                data={"with": receiver, "given": deal.province, "received": other.province, "gold": deal.gold},
            )
        )
        if deal.gold:
            _pay_price(state, events, giver, receiver, deal, arrives)


def _pay_price(state: TurnState, events: list[Event], payer: int, seller: int, deal: LandDeal, arrives: int) -> None:
    """Transfer of Gold: "subject to a 10% transportation fee and suffer a one Turn Delay": the price
    and its fee leave the payer's treasury now; the price arrives in the seller's at the beginning of
    the turn after next (decision 384)."""
    fee = transfer_fee(deal.gold)
    _add_gold(state, payer, -(deal.gold + fee))
    names = state.kingdoms[payer].name, state.kingdoms[seller].name
    events.append(
        Event(
            PHASE,
            EventCode.LAND_PRICE_PAID,
            f"{names[0]} pays {names[1]} {deal.gold:,} gold for land, and {fee:,} in transportation fees "
            f"({deal.gold + fee:,} in all); it arrives at the beginning of turn {arrives} (Land Sales; Transfer "
            "of Gold).",
            kingdom=payer,
            province=deal.province,
            gold=-(deal.gold + fee),
            ledger_reason=LedgerReason.LAND_SALE,
            data={"to": seller, "gold": deal.gold, "fee": fee, "arrives": arrives},
        )
    )


def civil_unrest(state: TurnState, dice: Dice, events: list[Event]) -> None:
    """After the turn's moves: each province acquired by a land deal last turn that has no army of its
    new owner in it rolls a D6 (decision 157); on 4+ it becomes a Rogue Kingdom province, no longer
    in the owner's control. One whose owner's army stands there is pacified."""
    for number, province in sorted(state.provinces.items()):
        owner = province.controller
        if province.land_sale_turn != state.turn - 1 or owner is None:
            continue
        if any(a.kingdom == owner for a in state.armies_in(number)):
            events.append(
                Event(
                    PHASE,
                    EventCode.PACIFIED,
                    f"An army of {state.kingdoms[owner].name} stands in {province}, newly acquired: the locals are "
                    "subdued and pacified (Land Sales).",
                    kingdom=owner,
                    province=number,
                )
            )
            state.provinces[number] = replace(province, land_sale_turn=None)
            continue
        roll = dice.d6(purpose=f"{province}: Civil Unrest", kingdoms=[owner])
        lost = roll >= CIVIL_UNREST_NEEDS
        if lost:
            state.provinces[number] = replace(
                province, controller=None, rogue=True, fortified=False, land_sale_turn=None
            )
        else:
            state.provinces[number] = replace(province, land_sale_turn=None)
        outcome = (
            "it becomes a Rogue Kingdom province and is no longer in your control"
            if lost
            else f"the locals stay quiet ({CIVIL_UNREST_NEEDS}+ needed for unrest); it stays yours"
        )
        events.append(
            Event(
                PHASE,
                EventCode.CIVIL_UNREST,
                f"No army of {state.kingdoms[owner].name} stands in {province}, acquired last turn: Civil Unrest, "
                f"D6 {roll}: {outcome} (Land Sales).",
                kingdom=owner,
                province=number,
                data={"roll": roll, "lost": lost},
            )
        )
