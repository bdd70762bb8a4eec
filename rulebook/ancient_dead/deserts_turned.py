"""Turning deserts back to plains with a Scarab Amulet (The Ancient Dead: Deserts), pure Python.

After the battles are scheduled: an army ordered to use its Scarab Amulet, standing in the desert
with no battle there this turn, rolls a D6 (+1 a magic level of its best mage, a reroll for each
Scarab Amulet beyond the first); 6 or more turns the desert to plains, its Ancient Dead garrison
gone, the province its kingdom's. Rules decisions 111-114.
"""

from __future__ import annotations

from dataclasses import replace

from kernel.dice import Dice
from kernel.event_codes import EventCode
from kernel.events import Event
from rulebook.ancient_dead.deserts import DESERT_REVERSAL_NEEDS, desert_reversal_roll
from rulebook.tables import Terrain
from rulebook.turn.state import BattleS, TurnState
from rulebook.turn.write_orders.records import OrderKind
from rulebook.world import ArmyState

PHASE = "orders"
RULE = "The Ancient Dead: Deserts"


def _said(army: ArmyState, code: EventCode, text: str, **data: object) -> Event:
    """An event of the army's kingdom, in the province it stands in."""
    return Event(PHASE, code, text, kingdom=army.kingdom, army=army.id, province=army.province, data=dict(data))


def reverse_deserts(state: TurnState, battles: list[BattleS], dice: Dice, events: list[Event]) -> None:
    """Each army whose order is the Scarab Amulet's, in the order of the armies' ids."""
    fought = {b.province for b in battles}
    for army in sorted(state.armies.values(), key=lambda a: a.id):
        order = state.orders.get(army.id)
        if order is None or order.kind is not OrderKind.SCARAB_AMULET or army.disbanded:
            continue
        number = army.province
        province = state.provinces[number]
        if province.terrain is not Terrain.DESERT:
            continue  # the sheet check held it already (ORDER_ILLEGAL); nothing to turn
        if number in fought:
            events.append(
                _said(
                    army,
                    EventCode.DESERT_REVERSAL_IN_BATTLE,
                    f"{army.name} is in a battle in {province} this turn: it cannot turn the desert to plains "
                    f"({RULE}).",
                )
            )
            continue
        level = army.magic_level or 0
        attempt = desert_reversal_roll(
            dice,
            level=level,
            amulets=army.scarab_amulets,
            purpose=f"{army.name}: turn {province} to plains with a Scarab Amulet ({DESERT_REVERSAL_NEEDS}+, +{level})",
            kingdom=army.kingdom,
            army=army.id,
        )
        for index, face in enumerate(attempt.faces):
            which = "rolls" if index == 0 else "rerolls with an additional Scarab Amulet:"
            events.append(
                _said(
                    army,
                    EventCode.DESERT_REVERSAL_ROLL,
                    f"{army.name} {which} {face} +{level} (its best mage's magic level) = {face + level} for "
                    f"{province}; it needs {DESERT_REVERSAL_NEEDS} ({RULE}).",
                    face=face,
                    bonus=level,
                    reroll=index > 0,
                )
            )
        if attempt.succeeded:
            state.provinces[number] = replace(
                province, terrain=Terrain.PLAINS, controller=army.kingdom, incantation=False
            )
            events.append(
                _said(
                    army,
                    EventCode.DESERT_REVERSED,
                    f"{army.name} turns {province} from desert back to plains with its Scarab Amulet: the Ancient "
                    f"Dead garrison is gone and the province is yours; it pays taxes again ({RULE}).",
                    faces=list(attempt.faces),
                    bonus=level,
                    from_kingdom=province.controller,
                )
            )
        else:
            events.append(
                _said(
                    army,
                    EventCode.DESERT_NOT_REVERSED,
                    f"{province} stays desert: {army.name} rolled {', '.join(map(str, attempt.faces))} "
                    f"+{level}, short of {DESERT_REVERSAL_NEEDS} ({RULE}).",
                    faces=list(attempt.faces),
                    bonus=level,
                )
            )
