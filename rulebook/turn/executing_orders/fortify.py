"""Fortify: an army that was in no battle last turn fortifies its province (pure Python)."""

from __future__ import annotations

from dataclasses import replace

from kernel.event_codes import EventCode
from kernel.events import Event
from rulebook.turn.executing_orders import PHASE
from rulebook.turn.state import TurnState
from rulebook.turn.write_orders.records import OrderKind
from rulebook.world import ArmyState


def fortify(state: TurnState, events: list[Event]) -> None:
    """Fortify: "If an army is given the Fortify order and was not in a battle the previous turn,
    then it may spend the turn fortifying the province"; one that was acts as if given Hold (and
    keeps any fortification it already holds: only moving away or a change of control loses it).
    Being attacked this turn does not stop it: Fortify is executed before 6. Fight Battles."""
    for army in sorted(state.armies.values(), key=lambda a: a.id):
        if state.orders[army.id].kind is not OrderKind.FORTIFY:
            continue
        province = state.provinces[army.province]
        refused = _refusal(state, army)
        if refused is not None:
            events.append(refused)
            continue
        kept = province.fortified and army.fortified_in == province.number
        state.provinces[province.number] = replace(province, fortified=True)
        state.armies[army.id] = replace(army, fortified_in=province.number)
        events.append(
            Event(
                PHASE,
                EventCode.FORTIFIED,
                f"{army.name} {'keeps' if kept else 'fortifies'} {province}"
                f"{' fortified' if kept else ''}: the bonuses are its own while it stays there (Fortify).",
                kingdom=army.kingdom,
                army=army.id,
                province=province.number,
            )
        )


def fortified_army(state: TurnState, number: int) -> ArmyState | None:
    """The Fortified army of province `number` as 6. Fight Battles will find it, once this turn's
    Fortify orders are carried out: the army that holds its fortifications and stays there, or one
    that fortifies it this turn (5. Executing Orders: Fortify comes after the moves and before the
    battles; decision 581). The lower id of two, as `World.fortifier` reads them after `fortify`."""
    province = state.provinces[number]
    return next(
        (
            a
            for a in sorted(state.armies.values(), key=lambda a: a.id)
            if a.province == number and not a.disbanded
            if (province.fortified and a.fortified_in == number)
            or (state.orders[a.id].kind is OrderKind.FORTIFY and _refusal(state, a) is None)
        ),
        None,
    )


def _refusal(state: TurnState, army: ArmyState) -> Event | None:
    """Why the army given Fortify orders holds instead (its event), or None when it fortifies."""
    province = state.provinces[army.province]
    if army.last_battle_turn is not None and army.last_battle_turn == state.turn - 1:
        return Event(
            PHASE,
            EventCode.FORTIFY_AFTER_BATTLE,
            f"{army.name} was in a battle last turn (turn {army.last_battle_turn}): it cannot fortify "
            f"{province} this turn and holds (Fortify).",
            kingdom=army.kingdom,
            army=army.id,
            province=province.number,
        )
    if army.co_occupying:
        return Event(
            PHASE,
            EventCode.FORTIFY_CO_OCCUPYING,
            f"{army.name} shares {province} with a friendly army and does not count as being there: "
            "it cannot fortify it and holds (Forced March; Occupied Province).",
            kingdom=army.kingdom,
            army=army.id,
            province=province.number,
        )
    if province.razed:
        return Event(
            PHASE,
            EventCode.FORTIFY_RAZED,
            f"{province} is razed and cannot be fortified until it is recovered: {army.name} holds (Fortify).",
            kingdom=army.kingdom,
            army=army.id,
            province=province.number,
        )
    return None
