"""3. Create / Upgrade Armies: the sheets' purchases with gold: new armies, upgrades, replacement
supply depots (Supply Depot) and Elite Defense Forces (Battle for Towns, Cities, and Capitols).
Pure Python.
"""

from __future__ import annotations

from dataclasses import replace

from kernel.event_codes import EventCode
from kernel.events import Event
from kernel.ledger import LedgerReason
from rulebook.turn.state import TurnState
from rulebook.turn.tables import (
    ELITE_DEFENSE_FORCE_GOLD,
    SUPPLY_DEPOT_GOLD,
    UPGRADE_LOSES_EXPERIENCE_AT,
    creation_cost,
)
from rulebook.turn.tally_gold import add_gold
from rulebook.world import ArmyState, KingdomState

PHASE_CREATE_UPGRADE = "create-upgrade-armies"


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
    add_gold(state, kingdom.id, -cost)
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
    # "Pay the gold difference and recreate it at a higher point value": both the gold and the
    # points added are measured from what the army counts now (its list after its losses, the
    # foraging of 2. Maintain Armies included), not from the points it was raised at.
    added = new_size - army.points
    if added <= 0:
        # The sheet refused it when checked; the army's list may have been entered since.
        _unavailable(
            kingdom,
            EventCode.ARMY_UNAVAILABLE,
            f"{army.name} is not upgraded: it counts {army.points:,} points already, and an upgrade to "
            f"{new_size:,} would not raise it (3. Create / Upgrade Armies).",
            events,
            army=army.id,
        )
        return
    loses_experience = added >= UPGRADE_LOSES_EXPERIENCE_AT  # C2: too many new recruits to keep the army's experience
    text = f"{army.name} is upgraded from {army.points:,} to {new_size:,} points for {added:,} gold"
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
        data={"from": army.points, "to": new_size, "experience_lost": army.experience if loses_experience else 0},
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
        or province.looted_in(state.turn)  # Looting: no army raised there yet (decision 622)
    ):
        where = str(province) if province else f"province {number}"
        why = "it is not a town or city of yours without one"
        if province is not None and province.looted_in(state.turn):
            why = "it was looted and cannot create armies until the start of the next full turn (Looting)"
        _unavailable(
            kingdom,
            EventCode.SETTLEMENT_UNAVAILABLE,
            f"{where} cannot take an Elite Defense Force: {why}.",
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
