"""Phases 1-3 of the Campaign Turn Sequence: Tally Gold, Maintain Armies (the Foraging Table),
Create / Upgrade Armies (with supply depots and Elite Defense Forces bought on the sheet).
Pure Python.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, replace

from kernel.dice import Dice
from kernel.event_codes import EventCode
from kernel.events import Event
from kernel.ledger import LedgerReason
from rulebook.armies.losses import (
    keep_points,
    lists_models,
    lose_points,
    models_by_number,
    rank_and_file_models,
    take_models,
)
from rulebook.tables import ARMY_DISBANDED_AT_OR_BELOW, RANK_AND_FILE_RECOVERY, models_recovered
from rulebook.turn.state import TurnState
from rulebook.turn.tables import ELITE_DEFENSE_FORCE_GOLD, SUPPLY_DEPOT_GOLD, creation_cost
from rulebook.turn.tally_gold import IMPERIAL_TAXATION, TAXES, tax_tally
from rulebook.turn.write_orders.records import ArmyOrder
from rulebook.world import ArmyState, KingdomState

__all__ = [
    "FORAGING_TABLE",
    "IMPERIAL_TAXATION",
    "TAXES",
    "create_and_upgrade_armies",
    "foraging_outcome",
    "maintain_armies",
    "tally_gold",
]

PHASE_TALLY_GOLD = "tally-gold"
PHASE_MAINTAIN_ARMIES = "maintain-armies"
PHASE_CREATE_UPGRADE = "create-upgrade-armies"

_SOURCE_PLURALS = {"city": "cities", "town": "towns", "province": "provinces"}


@dataclass(frozen=True)
class ForagingOutcome:
    low: int
    high: int
    code: str
    text: str


# 2. Maintain Armies: Foraging Table (2D6).
FORAGING_TABLE: tuple[ForagingOutcome, ...] = (
    ForagingOutcome(2, 2, "disaster", "Disaster: suitable food and water are not to be found"),
    ForagingOutcome(
        3, 4, "losses", "it meets its needs but loses D6 x 50 points of troops and may not Forced March this turn"
    ),
    ForagingOutcome(5, 9, "no-forced-march", "it finds all its needs but may not Forced March this turn"),
    ForagingOutcome(10, 11, "plenty", "the land provides! No effect this turn"),
    ForagingOutcome(12, 12, "depot", "a new Supply Depot may be acquired for 400 gold"),
)
FORAGING_DEPOT_GOLD = 400
FORAGING_LOSS_PER_PIP = 50  # 3-4: D6 x 50 points
FORAGING_REROLL_MODIFIER = -1  # 12 not paid for: reroll at -1 on the result
# The events of the rows that need nothing more than their words (the others are handled one by one).
FORAGING_EVENTS = {"no-forced-march": EventCode.FORAGING_NO_FORCED_MARCH, "plenty": EventCode.FORAGING_PLENTY}
DEFAULT_ORDER_CHOICES = ArmyOrder(army=0)  # an army without an order takes the sheet's defaults


def foraging_outcome(result: int) -> ForagingOutcome:
    """The Foraging Table row for a (possibly modified) result. A reroll at -1 can give 1, which
    the table does not list: it reads as 2, Disaster (docs/rules-decisions.md)."""
    clamped = min(max(result, FORAGING_TABLE[0].low), FORAGING_TABLE[-1].high)
    return next(row for row in FORAGING_TABLE if row.low <= clamped <= row.high)


# ---------------------------------------------------------------------------------------------
# 1. Tally Gold


def _add_gold(state: TurnState, kingdom: int, gold: int) -> None:
    record = state.kingdoms[kingdom]
    state.kingdoms[kingdom] = replace(record, treasury=record.treasury + gold)


def _describe(counts: Counter[str], table: dict[str, int]) -> str:
    parts = []
    for source in table:  # the table's order: cities, towns, provinces
        n = counts[source]
        if n:
            parts.append(f"{n} {source if n == 1 else _SOURCE_PLURALS[source]} ({n * table[source]:,})")
    return ", ".join(parts)


def tally_gold(state: TurnState, events: list[Event]) -> None:
    """Phase 1: every kingdom but a Rogue Kingdom collects taxes from the provinces it controls (G1, G3), and an
    Empire kingdom then pays Imperial Taxation on the same sources (G2). One event per movement
    of gold; a kingdom with no income gets no event."""
    for kingdom in sorted(state.kingdoms.values(), key=lambda k: k.id):
        if kingdom.rogue:
            # Rogue Kingdom: wracked by civil war, no leader collects its taxes; its treasury waits as
            # it was for a new player (New Player Option, decision 155).
            continue
        tally = tax_tally(state.world, kingdom.id)
        if tally.taxes == 0:
            continue
        _add_gold(state, kingdom.id, tally.taxes)
        events.append(
            Event(
                PHASE_TALLY_GOLD,
                EventCode.TAXES,
                f"Taxes: {_describe(tally.sources, TAXES)}.",
                kingdom=kingdom.id,
                gold=tally.taxes,
                ledger_reason=LedgerReason.TAXES,
                data={"sources": dict(tally.sources)},
            )
        )
        if tally.imperial_taxation:
            levy = tally.imperial_taxation
            _add_gold(state, kingdom.id, -levy)
            events.append(
                Event(
                    PHASE_TALLY_GOLD,
                    EventCode.IMPERIAL_TAXATION,
                    f"Imperial Taxation: {_describe(tally.sources, IMPERIAL_TAXATION)}, {levy:,} gold to the "
                    "Imperial Government.",
                    kingdom=kingdom.id,
                    gold=-levy,
                    ledger_reason=LedgerReason.IMPERIAL_TAXATION,
                    data={"sources": dict(tally.sources)},
                )
            )


# ---------------------------------------------------------------------------------------------
# 2. Maintain Armies


def _disband(state: TurnState, army: ArmyState, why: str, phase: str, events: list[Event]) -> None:
    state.armies[army.id] = replace(army, disbanded=True)
    events.append(
        Event(
            phase,
            EventCode.ARMY_DISBANDED,
            f"{army.name} is disbanded ({why}); the magic items it carried are destroyed (Army Restrictions).",
            kingdom=army.kingdom,
            army=army.id,
            province=army.province,
            data={"points": army.points},
        )
    )


def maintain_armies(state: TurnState, dice: Dice, events: list[Event]) -> None:
    """Phase 2: every active army without a supply depot rolls 2D6 on the Foraging Table (M1-M3),
    in ascending id order. The order's standing choices answer a Disaster and a 12."""
    for army in sorted(state.armies.values(), key=lambda a: a.id):
        if army.disbanded or army.supply_depot:
            continue  # M1: an army with its supply depot needs no foraging
        forage_army(state, army, dice, events)


def forage_army(state: TurnState, army: ArmyState, dice: Dice, events: list[Event]) -> None:
    """One army's roll on the Foraging Table (2D6) and its outcome."""
    order = state.orders.get(army.id, DEFAULT_ORDER_CHOICES)
    kingdom = state.kingdoms[army.kingdom]
    roll = dice.roll("2D6", purpose=f"{army.name}: Foraging Table", kingdoms=[army.kingdom], armies=[army.id]).total
    outcome = foraging_outcome(roll)
    if outcome.code == "depot":
        if order.pay_for_depot and kingdom.treasury >= FORAGING_DEPOT_GOLD:
            _add_gold(state, kingdom.id, -FORAGING_DEPOT_GOLD)
            army = replace(army, supply_depot=True)
            state.armies[army.id] = army
            events.append(
                _foraging_event(
                    army,
                    EventCode.FORAGING_DEPOT,
                    roll,
                    "a new Supply Depot is pressed into service for 400 gold",
                    gold=-FORAGING_DEPOT_GOLD,
                    ledger_reason=LedgerReason.SUPPLY_DEPOT,
                )
            )
            return
        why = "the kingdom chose not to pay" if not order.pay_for_depot else "the treasury cannot pay"
        events.append(
            _foraging_event(
                army,
                EventCode.FORAGING_DEPOT_UNPAID,
                roll,
                f"a Supply Depot for 400 gold, but {why}: it rolls again at -1",
            )
        )
        reroll = dice.roll(
            "2D6",
            purpose=f"{army.name}: Foraging Table reroll at -1",
            kingdoms=[army.kingdom],
            armies=[army.id],
        ).total
        roll = reroll + FORAGING_REROLL_MODIFIER  # at most 11: a reroll never reaches the 12 again
        outcome = foraging_outcome(roll)
    _apply_foraging(state, army, order, roll, outcome, dice, events)


def _foraging_event(
    army: ArmyState, code: EventCode, roll: int, what: str, *, gold: int = 0, ledger_reason: str = "", **data: object
) -> Event:
    return Event(
        PHASE_MAINTAIN_ARMIES,
        code,
        f"{army.name} has no supply depot and rolls {roll} on the Foraging Table: {what}.",
        kingdom=army.kingdom,
        army=army.id,
        province=army.province,
        gold=gold,
        ledger_reason=ledger_reason,
        data={"roll": roll, **data},
    )


def _apply_foraging(
    state: TurnState,
    army: ArmyState,
    order: ArmyOrder,
    roll: int,
    outcome: ForagingOutcome,
    dice: Dice,
    events: list[Event],
) -> None:
    if outcome.code == "disaster":
        if order.disaster_choice == "disband":
            events.append(_foraging_event(army, EventCode.FORAGING_DISASTER, roll, f"{outcome.text}", choice="disband"))
            _disband(state, army, "its banner chose disbanding over a foraging Disaster", PHASE_MAINTAIN_ARMIES, events)
            return
        _disaster_casualties(state, army, roll, outcome, dice, events)
        return
    if outcome.code == "losses":
        d6 = dice.roll(
            "D6", purpose=f"{army.name}: foraging losses (D6 x 50 points)", kingdoms=[army.kingdom], armies=[army.id]
        ).total
        points = d6 * FORAGING_LOSS_PER_PIP
        army = replace(army, no_forced_march=True)
        loss = lose_points(army, state.units_of(army), points, first=state.losses_first(army))
        army = state.put_loss(loss)
        events.append(
            _foraging_event(
                army,
                EventCode.FORAGING_LOSSES,
                roll,
                f"it meets its needs but loses {d6} x 50 = {points:,} points of troops ({loss.outcome()}) and may "
                "not Forced March this turn",
                d6=d6,
                points_lost=loss.points,
                taken=loss.data(),
            )
        )
        if army.points <= ARMY_DISBANDED_AT_OR_BELOW:
            _disband(state, army, f"reduced to {army.points:,} points by foraging", PHASE_MAINTAIN_ARMIES, events)
        return
    if outcome.code == "no-forced-march":
        state.armies[army.id] = replace(army, no_forced_march=True)
    events.append(_foraging_event(army, FORAGING_EVENTS[outcome.code], roll, outcome.text))


def _disaster_casualties(
    state: TurnState, army: ArmyState, roll: int, outcome: ForagingOutcome, dice: Dice, events: list[Event]
) -> None:
    """Foraging Table, 2, casualties: "50% casualties (by number of models, not points) ... Those
    casualties now must roll on the Rank and File Recovery table (see Casualty Recovery) to
    determine how many actually die." Half the rank and file (the table they roll on is the Rank
    and File's; characters are never among them), rounded down, chosen as any loss is
    (rulebook.armies.losses); one 2D6 for the army, applied unit by unit and rounded down: there was
    no victory. Then Army Restrictions: 500 points or less is disbanded."""
    units = state.units_of(army)
    first = state.losses_first(army)
    by_models = lists_models(army, units)
    if by_models:
        total = rank_and_file_models(units)
        casualties = models_by_number(units, total // 2, first)
        names = {u.id: u.name for u in units}
        counted = sum(casualties.values())
        if not counted:
            events.append(
                _foraging_event(
                    army,
                    EventCode.FORAGING_DISASTER,
                    roll,
                    f"{outcome.text}; the banner chose casualties, but its list has no rank and file to lose",
                    choice="casualties",
                )
            )
            return
        what = (
            f"{counted} of its {total} rank-and-file models ("
            + ", ".join(f"{n} {names[u]}" for u, n in casualties.items())
            + ")"
        )
    else:
        # Its list is not entered: there are no models to count, so half its points stand for them.
        casualty_points = army.points // 2
        what = f"{casualty_points:,} of its {army.points:,} points (its list is not entered yet)"
    events.append(
        _foraging_event(
            army,
            EventCode.FORAGING_DISASTER,
            roll,
            f"{outcome.text}; the banner takes 50% casualties: {what}, who roll on the Rank and File Recovery table",
            choice="casualties",
        )
    )
    recovery = dice.roll(
        "2D6",
        purpose=f"{army.name}: Rank and File Recovery of its foraging casualties",
        kingdoms=[army.kingdom],
        armies=[army.id],
    ).total
    band = RANK_AND_FILE_RECOVERY[recovery]
    if by_models:
        back = {u: models_recovered(n, band.fraction, won=False) for u, n in casualties.items()}
        loss = take_models(army, units, {u: n - back[u] for u, n in casualties.items()})
        recovered = f"{sum(back.values())} of the {counted} models come back"
        if not loss.taken:
            recovered += ", none is lost"
    else:
        back_points = models_recovered(casualty_points, band.fraction, won=False)
        loss = keep_points(army, units, casualty_points - back_points)
        recovered = f"{back_points:,} of the {casualty_points:,} points come back"
    army = state.put_loss(loss)
    events.append(
        Event(
            PHASE_MAINTAIN_ARMIES,
            EventCode.FORAGING_RECOVERY,
            f"{army.name} rolls {recovery} on the Rank and File Recovery table for its foraging casualties "
            f"({band.label}, rounded down: no battle was won): {recovered}"
            + (f"; {loss.outcome()}." if loss.points else "."),
            kingdom=army.kingdom,
            army=army.id,
            province=army.province,
            data={"roll": recovery, "points_lost": loss.points, "taken": loss.data()},
        )
    )
    if army.points <= ARMY_DISBANDED_AT_OR_BELOW:
        _disband(
            state, army, f"reduced to {army.points:,} points by a foraging Disaster", PHASE_MAINTAIN_ARMIES, events
        )


# ---------------------------------------------------------------------------------------------
# 3. Create / Upgrade Armies


def _spend(state: TurnState, kingdom: KingdomState, cost: int, what: str, event: Event, events: list[Event]) -> bool:
    """Pay `cost` and record `event`, or record that `what` can no longer be afforded. The sheet was
    checked against the treasury when submitted; foraging may have spent gold since."""
    kingdom = state.kingdoms[kingdom.id]  # its treasury as the earlier entries left it
    if kingdom.treasury - cost < 0:
        events.append(
            Event(
                PHASE_CREATE_UPGRADE,
                EventCode.NOT_AFFORDED,
                f"{what} is not bought: it costs {cost:,} gold and the treasury holds only {kingdom.treasury:,} "
                "(Treasury).",
                kingdom=kingdom.id,
                army=event.army if event.army is not None and event.army > 0 else None,
                province=event.province,
                data={"cost": cost, "treasury": kingdom.treasury, "entry": event.code},
            )
        )
        return False
    _add_gold(state, kingdom.id, -cost)
    events.append(event)
    return True


def _unavailable(
    kingdom: KingdomState,
    code: EventCode,
    text: str,
    events: list[Event],
    *,
    army: int | None = None,
    province: int | None = None,
) -> None:
    events.append(Event(PHASE_CREATE_UPGRADE, code, text, kingdom=kingdom.id, army=army, province=province))


def create_and_upgrade_armies(state: TurnState, events: list[Event]) -> None:
    """Phase 3: carry out the sheets' purchases, kingdom by kingdom (ascending id), each sheet in
    its order: creations, upgrades, supply depots, Elite Defense Forces. An entry the treasury can
    no longer pay for, or whose province or army is gone, is skipped with an event saying why."""
    next_id = min([0, *state.armies]) - 1  # new armies get -1, -2, ... until written
    for kingdom in sorted(state.kingdoms.values(), key=lambda k: k.id):
        sheet = state.sheets.get(kingdom.id)
        if sheet is None:
            continue
        for creation in sheet.creations:
            if _create(state, kingdom, creation.name.strip(), creation.points, creation.province, next_id, events):
                next_id -= 1
        for upgrade in sheet.upgrades:
            _upgrade(state, kingdom, upgrade.army, upgrade.points, events)
        for depot in sheet.depots:
            _buy_depot(state, kingdom, depot.army, events)
        for garrison in sheet.garrisons:
            _reinforce_garrison(state, kingdom, garrison.province, events)


def _create(
    state: TurnState, kingdom: KingdomState, name: str, points: int, number: int, army_id: int, events: list[Event]
) -> bool:
    province = state.provinces.get(number)
    if province is None or province.controller != kingdom.id or state.armies_in(number):
        where = str(province) if province else f"province {number}"
        why = "is no longer yours" if province is None or province.controller != kingdom.id else "is now occupied"
        _unavailable(
            kingdom,
            EventCode.SETTLEMENT_UNAVAILABLE,
            f"{name} cannot be raised: {where} {why}; new armies are placed in an unoccupied province you control "
            "(3. Create / Upgrade Armies).",
            events,
            province=number,
        )
        return False
    cost = creation_cost(points, kingdom.army_type, province.settlement)
    event = Event(
        PHASE_CREATE_UPGRADE,
        EventCode.ARMY_CREATED,
        f"{name} is raised in {province} at {points:,} points for {cost:,} gold.",
        kingdom=kingdom.id,
        army=army_id,
        province=number,
        gold=-cost,
        ledger_reason=LedgerReason.ARMY_CREATED,
        data={"points": points},
    )
    if not _spend(state, kingdom, cost, f"Raising {name} ({points:,} points) in {province}", event, events):
        return False
    state.armies[army_id] = ArmyState(
        id=army_id,
        kingdom=kingdom.id,
        name=name,
        province=number,
        points=points,  # it counts at the points paid for it until its list is entered
        size=points,
        supply_depot=True,  # new armies come with their supply depot
        created_turn=state.turn,
        list_due=True,
    )
    return True


def _active_army(
    state: TurnState, kingdom: KingdomState, army_id: int, what: str, events: list[Event]
) -> ArmyState | None:
    army = state.armies.get(army_id)
    if army is None or army.kingdom != kingdom.id or army.disbanded:
        name = army.name if army else f"Army {army_id}"
        _unavailable(
            kingdom, EventCode.ARMY_UNAVAILABLE, f"{name} is no longer an active army: no {what}.", events, army=army_id
        )
        return None
    return army


def _upgrade(state: TurnState, kingdom: KingdomState, army_id: int, new_size: int, events: list[Event]) -> None:
    army = _active_army(state, kingdom, army_id, "upgrade", events)
    if army is None:
        return
    added = new_size - army.size
    loses_experience = added >= 500  # C2: too many new recruits to keep the army's experience
    text = f"{army.name} is upgraded from {army.size:,} to {new_size:,} points for {added:,} gold"
    if loses_experience:
        text += "; adding 500 points or more, it loses all its experience points and veteran status"
    event = Event(
        PHASE_CREATE_UPGRADE,
        EventCode.ARMY_UPGRADED,
        text + ".",
        kingdom=kingdom.id,
        army=army.id,
        province=army.province,
        gold=-added,
        ledger_reason=LedgerReason.ARMY_UPGRADED,
        experience=-army.experience if loses_experience else 0,
        data={"from": army.size, "to": new_size, "experience_lost": army.experience if loses_experience else 0},
    )
    if not _spend(state, kingdom, added, f"The upgrade of {army.name} to {new_size:,} points", event, events):
        return
    state.armies[army.id] = replace(
        army,
        size=new_size,
        # "recreate it at a higher point value": it counts at the new size until its new list is entered.
        points=new_size,
        list_due=True,
        losses_before_list=0,
        upgraded_turn=state.turn,
        experience=0 if loses_experience else army.experience,
        veteran_status_lost=army.veteran_status_lost or loses_experience,
    )


def _buy_depot(state: TurnState, kingdom: KingdomState, army_id: int, events: list[Event]) -> None:
    army = _active_army(state, kingdom, army_id, "supply depot", events)
    if army is None:
        return
    if army.supply_depot:
        # A 12 on the Foraging Table already gave it one: an army keeps one depot at a time.
        _unavailable(
            kingdom,
            EventCode.SUPPLY_DEPOT_HELD,
            f"{army.name} already has a supply depot: the replacement is not bought.",
            events,
            army=army.id,
        )
        return
    event = Event(
        PHASE_CREATE_UPGRADE,
        EventCode.SUPPLY_DEPOT,
        f"{army.name} buys a replacement supply depot for {SUPPLY_DEPOT_GOLD:,} gold.",
        kingdom=kingdom.id,
        army=army.id,
        province=army.province,
        gold=-SUPPLY_DEPOT_GOLD,
        ledger_reason=LedgerReason.SUPPLY_DEPOT,
    )
    if _spend(state, kingdom, SUPPLY_DEPOT_GOLD, f"A supply depot for {army.name}", event, events):
        state.armies[army.id] = replace(army, supply_depot=True)


def _reinforce_garrison(state: TurnState, kingdom: KingdomState, number: int, events: list[Event]) -> None:
    province = state.provinces.get(number)
    if (
        province is None
        or province.controller != kingdom.id
        or province.settlement not in ("town", "city")
        or province.elite_defense
    ):
        where = str(province) if province else f"province {number}"
        _unavailable(
            kingdom,
            EventCode.SETTLEMENT_UNAVAILABLE,
            f"{where} cannot take an Elite Defense Force: it is not a town or city of yours without one.",
            events,
            province=number,
        )
        return
    event = Event(
        PHASE_CREATE_UPGRADE,
        EventCode.ELITE_DEFENSE_FORCE,
        f"The garrison of {province} is reinforced by an Elite Defense Force for {ELITE_DEFENSE_FORCE_GOLD:,} gold.",
        kingdom=kingdom.id,
        province=number,
        gold=-ELITE_DEFENSE_FORCE_GOLD,
        ledger_reason=LedgerReason.ELITE_DEFENSE_FORCE,
    )
    if _spend(state, kingdom, ELITE_DEFENSE_FORCE_GOLD, f"An Elite Defense Force for {province}", event, events):
        state.provinces[number] = replace(province, elite_defense=True)
