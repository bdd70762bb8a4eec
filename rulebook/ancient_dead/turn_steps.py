"""The Ancient Dead's steps of the turn (pure Python): their armies rising from the desert before
the orders (The Ancient Dead: Armies), and the Liche Priests' incantations after the battles are
scheduled (Movement, Deserts).

Both are skipped once they have returned to the tomb. Their rolls come from their own dice (the
turn's "ancient-dead" stream), so the Ancient Dead never change the rolls of the players' turn.
"""

from __future__ import annotations

from dataclasses import replace

from kernel.dice import Dice
from kernel.event_codes import EventCode
from kernel.events import Event
from rulebook.ancient_dead.armies import (
    RUINS_GARRISON_POINTS,
    ancient_dead_armies,
    ancient_dead_kingdom,
    returned_to_the_tomb,
)
from rulebook.ancient_dead.armies import ancient_dead_rise as rise
from rulebook.tables import Settlement, Terrain
from rulebook.turn.state import BattleS, TurnState
from rulebook.world import KingdomState

PHASE = "ancient-dead"


def _advancing(state: TurnState) -> KingdomState | None:
    kingdom = ancient_dead_kingdom(state.world)
    if kingdom is None or returned_to_the_tomb(state.world, kingdom):
        return None
    return kingdom


def ancient_dead_rise(state: TurnState, dice: Dice, events: list[Event]) -> None:
    """Their armies rise to their Army Table's number, before the orders (rulebook.ancient_dead.armies)."""
    events += rise(state.world, dice, PHASE)


def recite_incantations(state: TurnState, battles: list[BattleS], events: list[Event]) -> None:
    """Movement: an army of the Ancient Dead that entered or stands in an unoccupied province (no
    battle there this turn, no other kingdom's army) turns it, by the end of the turn: plains and
    razed provinces to desert, other terrain to plains (desert the next turn). A town or city
    turned desert is sacked and becomes ruins with a 150-point garrison and no Scarab Amulet
    (Deserts). Every desert is theirs. Rules decisions 102, 103."""
    kingdom = _advancing(state)
    if kingdom is None:
        return
    fought = {b.province for b in battles}
    done: set[int] = set()
    reciting = {
        a.province
        for a in ancient_dead_armies(state.world, kingdom.id)
        if a.province not in fought and not any(o.kingdom != kingdom.id for o in state.armies_in(a.province))
    }
    for number, province in list(state.provinces.items()):
        if province.incantation and number not in reciting:
            # No army of theirs recites there any more: it stays plains, and the map no longer shows it.
            state.provinces[number] = replace(province, incantation=False)
    for army in ancient_dead_armies(state.world, kingdom.id):
        number = army.province
        province = state.provinces[number]
        if number in done or number in fought or province.terrain is Terrain.DESERT:
            continue
        if any(a.kingdom != kingdom.id for a in state.armies_in(number)):
            continue  # occupied: they attack the occupants, and recite only once it is theirs alone
        done.add(number)
        if province.terrain is Terrain.PLAINS or province.razed:
            ruins = province.settlement.town_or_city
            state.provinces[number] = replace(
                province,
                terrain=Terrain.DESERT,
                settlement=Settlement.RUINS if ruins else province.settlement,
                ruin_sacked=province.ruin_sacked or ruins,
                razed=False,
                fortified=False,
                controller=kingdom.id,
                incantation=False,
            )
            events.append(
                Event(
                    PHASE,
                    EventCode.DESERT_SPREAD,
                    f"The Liche Priests of {army.name} turn {province} to desert "
                    f"(it was {'razed ' if province.razed else ''}{province.terrain}): it pays no tax, and a "
                    "1,000-point garrison of the Ancient Dead holds it (The Ancient Dead: Movement, Deserts).",
                    kingdom=kingdom.id,
                    army=army.id,
                    province=number,
                    data={"from": province.terrain.value, "razed": province.razed},
                )
            )
            if ruins:
                events.append(
                    Event(
                        PHASE,
                        EventCode.DESERT_RUINS,
                        f"The {province.settlement} of {province} is swallowed by the desert: sacked, it is now "
                        f"ruins with a {RUINS_GARRISON_POINTS}-point garrison and no Scarab Amulet (Deserts).",
                        kingdom=kingdom.id,
                        province=number,
                        data={"settlement": province.settlement.value},
                    )
                )
        else:
            state.provinces[number] = replace(province, terrain=Terrain.PLAINS, controller=kingdom.id, incantation=True)
            events.append(
                Event(
                    PHASE,
                    EventCode.INCANTATION,
                    f"The Liche Priests of {army.name} turn {province} from {province.terrain} to plains; "
                    "it becomes desert next turn if they stay (The Ancient Dead: Movement).",
                    kingdom=kingdom.id,
                    army=army.id,
                    province=number,
                    data={"from": province.terrain.value},
                )
            )
