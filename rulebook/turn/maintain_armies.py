"""2. Maintain Armies: the Foraging Table (2D6) for every army without its supply depot (pure Python)."""

from __future__ import annotations

from collections.abc import Iterable
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
from rulebook.turn.tally_gold import add_gold
from rulebook.turn.write_orders.records import ArmyOrder
from rulebook.warlord.succession import DISBANDED_HOW, characters_gone_with
from rulebook.world import ArmyState, disband_army

PHASE_MAINTAIN_ARMIES = "maintain-armies"


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


def _disband(state: TurnState, army: ArmyState, why: str, phase: str, events: list[Event]) -> None:
    """Army Restrictions: the army is disbanded, the magic items it carried destroyed with it; its
    characters leave with it once the step's foraging is done (`characters_leave_disbanded`)."""
    disband_army(state.world, army)
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
    foraging = [a.id for a in sorted(state.armies.values(), key=lambda a: a.id) if not a.disbanded]
    for army_id in foraging:
        army = state.armies[army_id]
        if army.supply_depot:
            continue  # M1: an army with its supply depot needs no foraging
        forage_army(state, army, dice, events)
    characters_leave_disbanded(state, events, foraging, PHASE_MAINTAIN_ARMIES)


def characters_leave_disbanded(state: TurnState, events: list[Event], army_ids: Iterable[int], phase: str) -> None:
    """Army Restrictions, of the armies `army_ids` that foraging disbanded ("the small band of soldiers ...
    going their separate ways"): their living characters leave with them and count as dead, as a retired
    character does; a Warlord among them is succeeded once all of them are gone, never by a General who
    leaves in the same step (decision 591, as the aftermath's decision 558). The orders phase has no turn
    summary sheet to name an heir: a tie goes to the oldest army's General (decision 78)."""
    gone = [a for a in army_ids if state.armies[a].disbanded]
    characters_gone_with(state.world, events, gone, how=DISBANDED_HOW, code=EventCode.CHARACTER_RETIRED, phase=phase)


def forage_army(state: TurnState, army: ArmyState, dice: Dice, events: list[Event]) -> None:
    """One army's roll on the Foraging Table (2D6) and its outcome."""
    order = state.orders.get(army.id, DEFAULT_ORDER_CHOICES)
    kingdom = state.kingdoms[army.kingdom]
    roll = dice.roll("2D6", purpose=f"{army.name}: Foraging Table", kingdoms=[army.kingdom], armies=[army.id]).total
    outcome = foraging_outcome(roll)
    if outcome.code == "depot":
        if order.pay_for_depot and kingdom.treasury >= FORAGING_DEPOT_GOLD:
            add_gold(state, kingdom.id, -FORAGING_DEPOT_GOLD)
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
