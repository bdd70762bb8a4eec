"""Money negotiations after a battle (7. Aftermath), paid as a Transfer of Gold (pure Python).

Rulebook: Transfer of Gold (rules decision 142).
"""

from __future__ import annotations

from kernel.event_codes import EventCode
from kernel.events import Event
from kernel.ledger import LedgerReason
from rulebook.turn.aftermath.sheets import BattleA
from rulebook.turn.aftermath.state import PHASE, AftermathState, add_gold
from rulebook.turn.tables import TRANSFER_ARRIVES_AFTER, transfer_affordable, transfer_fee
from rulebook.world import ProvinceState


def negotiations(state: AftermathState, events: list[Event], battle: BattleA, province: ProvinceState) -> None:
    """Money negotiations follow Transfer of Gold (rules decision 142): the payer's treasury pays
    the gold and its 10% transportation fee now (at most what it holds); the gold arrives in the
    payee's treasury at the beginning of the turn after next (orders/services/transfers.py reads
    the NEGOTIATION_PAID event's `to`, `gold` and `arrives`)."""
    for payer, payee in ((battle.attacker, battle.defender), (battle.defender, battle.attacker)):
        if not payer.negotiation_gold or payer.kingdom is None or payee.kingdom is None:
            continue
        treasury = state.kingdoms[payer.kingdom].treasury
        amount = transfer_affordable(payer.negotiation_gold, treasury)
        fee = transfer_fee(amount)
        arrives = state.turn + TRANSFER_ARRIVES_AFTER
        names = state.kingdoms[payer.kingdom].name, state.kingdoms[payee.kingdom].name
        short = (
            f" (of the {payer.negotiation_gold:,} agreed, all its treasury could send with the fee)"
            if amount < payer.negotiation_gold
            else ""
        )
        if amount:
            add_gold(state, payer.kingdom, -(amount + fee))
            events.append(
                Event(
                    PHASE,
                    EventCode.NEGOTIATION_PAID,
                    f"{names[0]} pays {names[1]} {amount:,} gold after the battle in {province}{short}, and "
                    f"{fee:,} in transportation fees ({amount + fee:,} in all); it arrives at the beginning of "
                    f"turn {arrives} (Transfer of Gold).",
                    kingdom=payer.kingdom,
                    province=province.number,
                    gold=-(amount + fee),
                    ledger_reason=LedgerReason.TRANSFER,
                    data={"to": payee.kingdom, "gold": amount, "fee": fee, "arrives": arrives},
                )
            )
            events.append(
                Event(
                    PHASE,
                    EventCode.NEGOTIATION_RECEIVED,
                    f"{names[0]} pays {names[1]} {amount:,} gold after the battle in {province}: it arrives in "
                    f"the treasury at the beginning of turn {arrives} (Transfer of Gold).",
                    kingdom=payee.kingdom,
                    province=province.number,
                    data={"from_kingdom": payer.kingdom, "gold": amount, "arrives": arrives},
                )
            )
