"""Supply Depots captured and recaptured in a battle (7. Aftermath) (pure Python).

Rulebook: Supply Depot ("The Supply Depot is captured if the crew is killed / broken in combat ...
and the unattended cart is touched by any enemy unit. The Supply Depot is not lost if friendly forces
manage to recapture the cart ... before the game ends." "Captured carts may be added to the capturing
army's roster ... they can now afford to lose one of their carts with no penalties."); 2. Maintain
Armies (an army without a Supply Depot rolls on the Foraging Table). Decisions 395-398.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

from kernel.event_codes import EventCode
from kernel.events import Event
from rulebook.turn.aftermath.sheets import BattleA, DepotCapture, SideA
from rulebook.turn.aftermath.state import PHASE, AftermathState, possessive, put_army
from rulebook.world import ArmyState, ProvinceState

REPLACEMENT = (
    "it rolls on the Foraging Table at the start of each Maintain Armies phase until it has a Supply Depot "
    "again: a replacement costs 200 gold in a town or city, or 20 experience with a one-turn delay"
)


def depots_captured(state: AftermathState, events: list[Event], battle: BattleA, province: ProvinceState) -> None:
    """Each cart a side's sheet reports captured leaves the opponent's army (a spare cart first,
    without penalty; else its own Supply Depot, and it forages from then on) and joins the captor's
    roster as a spare cart (decision 396). A cart the opponent's sheet reports recaptured before the
    game ended is not lost (decision 397): each recapture undoes one capture of that army's carts."""
    for side, opponent in ((battle.attacker, battle.defender), (battle.defender, battle.attacker)):
        recaptured = Counter(opponent.carts_recaptured)
        for capture in side.depots_captured:
            if recaptured[capture.army]:
                recaptured[capture.army] -= 1
                _recaptured(state, events, capture.army, side, province)
                continue
            if _lose_cart(state, events, capture, province):
                _gain_cart(state, events, capture, province)
        for army_id, left in recaptured.items():
            for _ in range(left):  # recaptured, though the opponent's sheet reports no capture
                _recaptured(state, events, army_id, side, province)


def _recaptured(
    state: AftermathState, events: list[Event], army_id: int, captor: SideA, province: ProvinceState
) -> None:
    army = state.world.army(army_id)
    text = (
        f"{possessive(army.name)} Supply Depot was taken by the enemy in {province}, but friendly forces "
        "recaptured the cart before the game ended: it is not lost (Supply Depot)."
    )
    # Each kingdom's event names its own army: a report lists the armies its events name.
    told = [(army.kingdom, army_id)] + ([(captor.kingdom, captor.army)] if captor.kingdom is not None else [])
    for kingdom, own in told:
        events.append(
            Event(PHASE, EventCode.CART_RECAPTURED, text, kingdom=kingdom, army=own, province=province.number)
        )


def _lose_cart(state: AftermathState, events: list[Event], capture: DepotCapture, province: ProvinceState) -> bool:
    """The captured army loses a spare cart if it has one, else its own depot; False: it had no cart
    left (the sheet was checked against the carts it brought; another capture took the last one)."""
    army = state.world.army(capture.army)
    by = state.world.army(capture.by)
    if army.spare_carts:
        put_army(state, replace(army, spare_carts=army.spare_carts - 1))
        events.append(
            Event(
                PHASE,
                EventCode.SPARE_CART_LOST,
                f"{by.name} captures one of {possessive(army.name)} carts in {province}: a cart it had captured "
                "before, which it can afford to lose with no penalty; it keeps its Supply Depot (Supply Depot).",
                kingdom=army.kingdom,
                army=army.id,
                province=province.number,
            )
        )
        return True
    if army.supply_depot:
        put_army(state, replace(army, supply_depot=False))
        events.append(
            Event(
                PHASE,
                EventCode.DEPOT_LOST,
                f"{possessive(army.name)} Supply Depot is captured by {_named(state, by)} in {province}: {REPLACEMENT} "
                "(Supply Depot; 2. Maintain Armies).",
                kingdom=army.kingdom,
                army=army.id,
                province=province.number,
            )
        )
        return True
    return False


def _gain_cart(state: AftermathState, events: list[Event], capture: DepotCapture, province: ProvinceState) -> None:
    """Captured carts join the capturing army's roster and must be represented in each battle; its
    troops gain no bonus from them (decision 396)."""
    army = state.world.army(capture.army)
    by = state.world.army(capture.by)
    by = put_army(state, replace(by, spare_carts=by.spare_carts + 1))
    events.append(
        Event(
            PHASE,
            EventCode.DEPOT_CAPTURED,
            f"{by.name} captures {possessive(_named(state, army))} Supply Depot in {province} (150 Victory Points "
            f"where Victory Points decide the battle): the cart joins {possessive(by.name)} roster as a spare cart "
            f"({by.spare_carts} now) and must be represented in each battle; it can lose one cart with no penalty "
            "(Supply Depot).",
            kingdom=by.kingdom,
            army=by.id,
            province=province.number,
            data={"spare_carts": by.spare_carts},
        )
    )


def _named(state: AftermathState, army: ArmyState) -> str:
    return f"{state.kingdoms[army.kingdom].name}: {army.name}"
