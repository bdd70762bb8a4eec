"""Captured Tomb Raiders: the fate their captor gives them, and a released model's way home (pure
Python). Rules decisions 453 and 490-494.

Reconnaissance, Sabotage: on a failure "1-2: One random model is captured", and "A kingdom may do
anything it wishes with a captured Tomb Raider." The captor decides on a sheet of a later turn
(decision 453): a `CaptiveOrder` releases the model or executes it. A ransom is no order of its own:
the players agree, the owner pays it with a Transfer of Gold and the captor releases the model.

The fate is settled at the resolution of the turn whose sheet gives it (`settle_captives`, after the
orders are normalised): the captive's record takes its fate and turn, and both kingdoms are told
(CAPTIVE_FATE). A released model goes back to its owner's force (`returned_to_force`), written after
the resolution with the captive (kingdoms.services.captives, decision 492); an executed one is gone.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from enum import StrEnum

from kernel.event_codes import EventCode
from kernel.events import Event
from rulebook.ruins_and_tomb_raiders.force import RaiderEntry, TombRaiders, raider_entry
from rulebook.ruins_and_tomb_raiders.rival_missions import CaptiveFate, CaptiveState
from rulebook.turn.state import TurnState
from rulebook.turn.write_orders.records import CaptiveOrder

PHASE = "tomb-raiders"
CAPTURED = "Reconnaissance, Sabotage: failure, 1-2: One random model is captured"
ANYTHING = "A kingdom may do anything it wishes with a captured Tomb Raider"
FATES = (CaptiveFate.RELEASED, CaptiveFate.EXECUTED)


class CaptiveProblemCode(StrEnum):
    """What is wrong with a sheet's captive order (the same values as the sheet's problem codes)."""

    NOT_HELD = "captive-not-held"  # not a captive this kingdom holds (or its fate is decided already)
    TWICE = "captive-twice"  # one order a captive


@dataclass(frozen=True)
class CaptiveProblem:
    code: CaptiveProblemCode
    message: str
    index: int  # the order's place among the sheet's captive orders


def captive_name(captive: CaptiveState) -> str:
    """The captive as both kingdoms name it: one model of the entry it was taken from."""
    return f"a model of {captive.entry}"


def captive_order_problems(
    orders: Iterable[CaptiveOrder], captives: dict[int, CaptiveState], kingdom: int
) -> list[CaptiveProblem]:
    """The sheet's captive orders checked: each names a captive `kingdom` holds, whose fate is not
    decided (`captives`: the world's, by id), and a captive is given one fate a sheet (decision 490)."""
    problems: list[CaptiveProblem] = []
    seen: set[int] = set()
    for index, order in enumerate(orders):
        captive = captives.get(order.captive)
        if captive is None or captive.captor != kingdom or captive.fate is not CaptiveFate.HELD:
            problems.append(
                CaptiveProblem(
                    CaptiveProblemCode.NOT_HELD,
                    f"Captive {order.captive} is not a Tomb Raider your kingdom holds: only the captor decides a "
                    f"captive's fate, once ({ANYTHING}).",
                    index,
                )
            )
            continue
        if order.captive in seen:
            problems.append(
                CaptiveProblem(
                    CaptiveProblemCode.TWICE,
                    f"Captive {order.captive} ({captive_name(captive)}) is given a fate twice: one "
                    "order a captive on a sheet.",
                    index,
                )
            )
        seen.add(order.captive)
    return problems


def settle_captives(state: TurnState, events: list[Event]) -> None:
    """Each submitted sheet's captive orders, checked again against the state (a captive released by an
    earlier order is not released twice) and settled: the captive's fate and turn, and a CAPTIVE_FATE
    event for the captor and one for the owner (both already know of the capture)."""
    for kingdom_id, sheet in sorted(state.sheets.items()):
        if kingdom_id in state.missed_orders or not sheet.captive_orders:
            continue
        refused = {p.index for p in captive_order_problems(sheet.captive_orders, state.world.captives, kingdom_id)}
        for index, order in enumerate(sheet.captive_orders):
            captive = state.world.captives.get(order.captive)
            if index in refused or captive is None or captive.fate is not CaptiveFate.HELD:
                continue  # the sheet's check refused it already; never settled twice
            fate = CaptiveFate(order.fate)
            settled = replace(captive, fate=fate, fate_turn=state.world.turn)
            state.world.captives[captive.id] = settled
            events.extend(_fate_events(state, settled))


def _fate_events(state: TurnState, captive: CaptiveState) -> list[Event]:
    captor = state.kingdoms[captive.captor].name if captive.captor in state.kingdoms else f"kingdom {captive.captor}"
    owner = state.kingdoms[captive.owner].name if captive.owner in state.kingdoms else f"kingdom {captive.owner}"
    data = {
        "captive": captive.id,
        "entry": captive.entry,
        "fate": captive.fate.value,
        "captor": captive.captor,
        "owner": captive.owner,
        "captured_turn": captive.captured_turn,
    }
    if captive.fate is CaptiveFate.RELEASED:
        to_captor = f"{owner}'s captive, {captive_name(captive)}, is released: it goes back to their Tomb Raiders."
        to_owner = f"{captor} releases {captive_name(captive)} of your Tomb Raiders: it is back in your force."
    else:
        to_captor = f"{owner}'s captive, {captive_name(captive)}, is executed."
        to_owner = f"{captor} executes {captive_name(captive)} of your Tomb Raiders, their captive."
    return [
        Event(PHASE, EventCode.CAPTIVE_FATE, to_captor, kingdom=captive.captor, data=data),
        Event(PHASE, EventCode.CAPTIVE_FATE, to_owner, kingdom=captive.owner, data=data),
    ]


def captive_record(entry: RaiderEntry) -> dict[str, object]:
    """The record a captive keeps of the entry it was taken from: one model, its kinds as text, never
    out of action (the shape `returned_to_force` reads back; the capture writes it)."""
    values: dict[str, object] = {
        "name": entry.name,
        "models": 1,
        "points_per_model": entry.points_per_model,
        "category": entry.category.value,
        "base": entry.base.value,
        "kind": entry.kind.value,
        "role": entry.role.value,
        "command": entry.command.value,
        "missile_weapon": entry.missile_weapon,
        "magic_item": entry.magic_item,
        "magic_user": entry.magic_user,
        "unit_type": entry.unit_type,
        "leadership": entry.leadership,
        "wounds": entry.wounds,
        "promoted": entry.promoted,
    }
    return values


def returned_to_force(force: TombRaiders, captive: CaptiveState) -> TombRaiders:
    """A released model back in its owner's force (decision 492): one more model in the entry of the
    name it was taken from, if the force still has one; else the entry again, from the captive's record,
    one model, at the end of the list. Either way it is ready for the next mission (not out of action),
    and it is no change of the player's (no change fee, decision 413)."""
    entries = list(force.entries)
    key = captive.entry.strip().lower()
    for position, entry in enumerate(entries):
        if entry.name.strip().lower() == key:
            entries[position] = replace(entry, models=entry.models + 1)
            return replace(force, entries=tuple(entries))
    record = {**captive.record, "name": captive.record.get("name") or captive.entry, "models": 1}
    entries.append(raider_entry(record))
    return replace(force, entries=tuple(entries))
