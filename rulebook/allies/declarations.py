"""Allies: alliances declared on the order sheets, announced over during the End of Turn, and broken by
invasion, raze or withdrawal of support (pure Python).

Rulebook: Allies. "Players must declare an alliance at the beginning of a turn when they submit
their orders. Both players MUST declare their alliance or else the alliance will not be
recognized"; "To form an alliance it will cost both players 1000 gold pieces. If the alliance is
broken, the person who did not break the alliance will receive their 1000 gold pieces back and the
1000 gold pieces from their former ally for a grand total of 2000 gold pieces. If the alliance is
mutually canceled, neither party in the alliance will receive their gold back." Announcement:
"During the End of Campaign Turn, a player can announce that an alliance is broken. During the next
Campaign Turn, the rules for allies cease to apply for the two realms in question."
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

from kernel.event_codes import EventCode
from kernel.events import Event
from kernel.ledger import LedgerReason
from rulebook.allies.chart import (
    ALLIANCE_BROKEN_GOLD,
    ALLIANCE_GOLD,
    AllianceState,
    BreakKind,
    TrustLevel,
    trust_level,
)
from rulebook.turn.state import TurnState
from rulebook.turn.tables import TRANSFER_ARRIVES_AFTER, transfer_fee
from rulebook.world import OnTheWorld

PHASE = "alliances"
PHASE_TRANSFERS = "transfers"

_HOW_WORDS = {
    BreakKind.ANNOUNCEMENT: "by announcement",
    BreakKind.INVASION: "by invasion",
    BreakKind.RAZE: "by razing an allied province",
    BreakKind.WITHDRAWAL: "by withdrawing its support in battle",
}


def _add_gold(state: OnTheWorld, kingdom: int, gold: int) -> None:
    record = state.kingdoms[kingdom]
    state.kingdoms[kingdom] = replace(record, treasury=record.treasury + gold)


def settle_alliances(state: TurnState, events: list[Event]) -> None:
    """At the beginning of the turn (after 1. Tally Gold): the alliances both kingdoms declared. An
    end is announced during the End of Turn (alliance_ends_announced), never on the order sheet
    (decision 135 withdrawn, decision 385)."""
    _declarations(state, events)


def send_gold(state: TurnState, events: list[Event]) -> None:
    """Transfer of Gold: each transfer on a submitted sheet leaves the sender's treasury with its 10%
    fee (after 1. Tally Gold, before 3. Create / Upgrade Armies: decision 142); it arrives at the
    beginning of the turn after next (orders/services/transfers.py reads the event). One the
    treasury cannot pay now is not sent."""
    for kingdom_id, sheet in sorted(state.sheets.items()):
        if kingdom_id in state.missed_orders:
            continue
        for transfer in sheet.gold_transfers:
            sender, receiver = state.kingdoms[kingdom_id], state.kingdoms.get(transfer.kingdom)
            if receiver is None or transfer.gold <= 0:
                continue  # refused by the sheet check; not sent
            fee = transfer_fee(transfer.gold)
            cost = transfer.gold + fee
            arrives = state.turn + TRANSFER_ARRIVES_AFTER
            if receiver.rogue:
                # A sheet submitted before the receiver's player was marked out: a Rogue Kingdom has no
                # leader to receive it, and the sender keeps its gold and fee (decision 604).
                events.append(
                    Event(
                        PHASE_TRANSFERS,
                        EventCode.TRANSFER_REFUSED,
                        f"The transfer of {transfer.gold:,} gold to {receiver.name} is not sent: {receiver.name} is "
                        "a Rogue Kingdom, with no leader to receive it (Rogue Kingdom; Transfer of Gold).",
                        kingdom=kingdom_id,
                        data={"to": receiver.id, "gold": transfer.gold, "fee": fee},
                    )
                )
                continue
            if state.kingdoms[kingdom_id].treasury < cost:
                events.append(
                    Event(
                        PHASE_TRANSFERS,
                        EventCode.TRANSFER_REFUSED,
                        f"The transfer of {transfer.gold:,} gold to {receiver.name} is not sent: it costs {cost:,} "
                        f"with its fee and the treasury holds {state.kingdoms[kingdom_id].treasury:,} "
                        "(Transfer of Gold).",
                        kingdom=kingdom_id,
                        data={"to": receiver.id, "gold": transfer.gold, "fee": fee},
                    )
                )
                continue
            _add_gold(state, kingdom_id, -cost)
            events.append(
                Event(
                    PHASE_TRANSFERS,
                    EventCode.TRANSFER_SENT,
                    f"{sender.name} sends {transfer.gold:,} gold to {receiver.name} and pays {fee:,} in transportation "
                    f"fees ({cost:,} in all); it arrives at the beginning of turn {arrives} (Transfer of Gold).",
                    kingdom=kingdom_id,
                    gold=-cost,
                    ledger_reason=LedgerReason.TRANSFER,
                    data={"to": receiver.id, "gold": transfer.gold, "fee": fee, "arrives": arrives},
                )
            )


def alliance_ends_announced(
    state: OnTheWorld, announced: Iterable[tuple[int, int]], *, phase: str, events: list[Event]
) -> None:
    """Allies, Announcement: the ends announced during this End of Turn, as (kingdom, ally) pairs.
    Announced by one: broken by it (2,000 gold to the other); by both: cancelled (no gold back). Run
    after the turn's battles are settled, so the alliance held for all of this turn (its retreats
    included) and the next turn's world loads it ended: "During the next Campaign Turn, the rules for
    allies cease to apply" (decision 385). An announcement to a kingdom that is no longer an ally
    (the alliance was broken this turn already, by a withdrawal of support) does nothing."""
    by_alliance: dict[int, list[int]] = {}
    for kingdom, ally in sorted(set(announced)):
        alliance = state.world.alliance_between(kingdom, ally)
        if alliance is not None and kingdom not in by_alliance.setdefault(alliance.id, []):
            by_alliance[alliance.id].append(kingdom)
    for alliance_id, kingdoms in sorted(by_alliance.items()):
        alliance = state.world.alliances[alliance_id]
        if len(kingdoms) == 2:
            alliance_cancel(state, alliance, events, phase=phase)
        else:
            alliance_break(state, alliance, by=kingdoms[0], how=BreakKind.ANNOUNCEMENT, phase=phase, events=events)


def _declarations(state: TurnState, events: list[Event]) -> None:
    wants = {
        k: sheet.alliances[0].kingdom
        for k, sheet in sorted(state.sheets.items())
        if sheet.alliances and k not in state.missed_orders
    }
    done: set[int] = set()
    for kingdom_id, other_id in sorted(wants.items()):
        if kingdom_id in done:
            continue
        kingdom = state.kingdoms[kingdom_id]
        other = state.kingdoms.get(other_id)
        if other is None or wants.get(other_id) != kingdom_id:
            name = other.name if other is not None else f"Kingdom {other_id}"
            events.append(
                Event(
                    PHASE,
                    EventCode.ALLIANCE_NOT_RECOGNISED,
                    f"{kingdom.name} declared an alliance with {name}, who did not declare it this turn: the alliance "
                    "is not recognized and nothing is paid (Allies).",
                    kingdom=kingdom_id,
                    data={"ally": other_id},
                )
            )
            continue
        done |= {kingdom_id, other_id}
        trust = trust_level(kingdom.army_type, other.army_type)
        why = ""
        if trust is TrustLevel.DISALLOWED:
            why = f"the Alliance Chart marks {kingdom.army_type.label} and {other.army_type.label} X"
        elif state.world.allied(kingdom_id, other_id):
            why = "they are allied already"
        elif busy := [k.name for k in (kingdom, other) if state.world.alliance_of(k.id) is not None]:
            why = f"{' and '.join(busy)} already in an alliance; there can be only two kingdoms per alliance"
        elif short := [k.name for k in (kingdom, other) if state.kingdoms[k.id].treasury < ALLIANCE_GOLD]:
            why = f"{' and '.join(short)} cannot pay the {ALLIANCE_GOLD:,} gold"
        if why:
            for k, o in ((kingdom, other), (other, kingdom)):
                events.append(
                    Event(
                        PHASE,
                        EventCode.ALLIANCE_REFUSED,
                        f"The alliance of {k.name} with {o.name} is not formed: {why} (Allies). Nothing is paid.",
                        kingdom=k.id,
                        data={"ally": o.id, "reason": why},
                    )
                )
            continue
        first, second = sorted((kingdom_id, other_id))
        new_id = min([0, *state.world.alliances]) - 1  # negative until written
        alliance = AllianceState(id=new_id, first=first, second=second, trust=trust, formed_turn=state.turn)
        state.world.alliances[new_id] = alliance
        for k, o in ((kingdom, other), (other, kingdom)):
            _add_gold(state, k.id, -ALLIANCE_GOLD)
            events.append(
                Event(
                    PHASE,
                    EventCode.ALLIANCE_FORMED,
                    f"{k.name} and {o.name} are allies ({trust.label}): {k.name} pays {ALLIANCE_GOLD:,} gold (Allies).",
                    kingdom=k.id,
                    gold=-ALLIANCE_GOLD,
                    ledger_reason=LedgerReason.ALLIANCE,
                    data={"alliance": new_id, "ally": o.id, "trust": trust.value},
                )
            )


def alliance_cancel(state: OnTheWorld, alliance: AllianceState, events: list[Event], *, phase: str = PHASE) -> None:
    """Both allies announced its end: it is cancelled, neither gets gold back."""
    del state.world.alliances[alliance.id]
    for k in (alliance.first, alliance.second):
        o = alliance.other(k)
        events.append(
            Event(
                phase,
                EventCode.ALLIANCE_CANCELLED,
                f"The alliance of {state.kingdoms[k].name} and {state.kingdoms[o].name} is cancelled by both: "
                "neither receives its gold back (Allies).",
                kingdom=k,
                data={"alliance": alliance.id, "ally": o, "how": BreakKind.CANCELLED.value},
            )
        )


def alliance_break(
    state: OnTheWorld,
    alliance: AllianceState,
    *,
    by: int,
    how: BreakKind,
    phase: str,
    events: list[Event],
    province: int | None = None,
) -> None:
    """Kingdom `by` breaks the alliance: the rules for allies cease at once for the two kingdoms,
    and the one that did not break it receives 2,000 gold (its own 1,000 back and its former ally's).
    An event for each, the betrayed one's a ledger row. Any phase's state that holds the world may
    call it: the orders (invasion, raze) and the aftermath (withdrawal of support; the announcements of
    the End of Turn)."""
    del state.world.alliances[alliance.id]
    betrayed = alliance.other(by)
    breaker, victim = state.kingdoms[by].name, state.kingdoms[betrayed].name
    where = f" ({state.provinces[province]})" if province is not None else ""
    data = {"alliance": alliance.id, "how": how.value, "broken_by": by}
    events.append(
        Event(
            phase,
            EventCode.ALLIANCE_BROKEN,
            f"{breaker} breaks its alliance with {victim} {_HOW_WORDS[how]}{where}: its {ALLIANCE_GOLD:,} gold go to "
            f"{victim} (Allies).",
            kingdom=by,
            province=province,
            data={**data, "ally": betrayed},
        )
    )
    _add_gold(state, betrayed, ALLIANCE_BROKEN_GOLD)
    events.append(
        Event(
            phase,
            EventCode.ALLIANCE_BROKEN,
            f"{breaker} breaks its alliance with {victim} {_HOW_WORDS[how]}{where}: {victim} receives "
            f"{ALLIANCE_BROKEN_GOLD:,} gold, its own {ALLIANCE_GOLD:,} back and {breaker}'s (Allies).",
            kingdom=betrayed,
            province=province,
            gold=ALLIANCE_BROKEN_GOLD,
            ledger_reason=LedgerReason.ALLIANCE,
            data={**data, "ally": by},
        )
    )
