"""Loss of the Capitol: the capitol moved by the Warlord (an order, 1,000 gold), the coronation
after the capitol is lost, the countdown, and the player out after three turns (pure Python).

Rulebook: Loss of the Capitol. "A player who loses their capitol has 3 turns to get their Warlord
into another city for a coronation ceremony. If they cannot reach one of their cities or conquer one
from another nation in this time, they then are out of the game. A Warlord may move the capitol to
another city in this way, even if the current capitol still stands, but will cost 1,000 gold pieces
to do so." The player out, the kingdom becomes a Rogue Kingdom (the issue's reading of Rogue Kingdom).
"""

from __future__ import annotations

from dataclasses import replace

from kernel.event_codes import EventCode
from kernel.events import Event
from kernel.ledger import LedgerReason
from rulebook.turn.state import TurnState
from rulebook.turn.write_orders.capitol_move import CAPITOL_MOVE_GOLD, capitol_move_refusal
from rulebook.world import ProvinceState, World

PHASE = "capitol"
CORONATION_TURNS = 3  # "has 3 turns to get their Warlord into another city for a coronation ceremony"


def capitol_taken(world: World, events: list[Event], *, province: ProvinceState, taker: int, phase: str) -> None:
    """`province` (its record before it changed hands) is taken from its controller by kingdom `taker`:
    won in battle (7. Aftermath) or razed from an ally (Allies, Raze: "the backstabber takes control of
    that province"; decision 556). Was it the controller's capitol, the kingdom loses it: no capitol
    from now on, and three turns to crown its Warlord (decision 159). The Ancient Dead's pyramid taken
    is their Return to the Tomb instead; a Rogue Kingdom has no Warlord to crown."""
    loser = province.controller
    if loser is None or loser == taker or world.kingdoms[loser].capitol != province.number:
        return
    kingdom = world.kingdoms[loser]
    if kingdom.ancient_dead:
        # Return to the Tomb: the capitol destroyed and the Warlord, who must remain with its
        # garrison, laid to rest with it: they advance no more (rules decision 108).
        events.append(
            Event(
                phase,
                EventCode.RETURN_TO_THE_TOMB,
                f"The pyramid {province} has fallen to {world.kingdoms[taker].name} and the Warlord of the "
                "Ancient Dead is laid to permanent rest with its garrison: the Ancient Dead return to the tomb. "
                "Their armies rise and advance no more; the campaign goes on (Return to the Tomb).",
                kingdom=loser,
                province=province.number,
            )
        )
    elif not kingdom.rogue:
        # Loss of the Capitol: no capitol from now on, and three turns to crown its Warlord.
        world.kingdoms[loser] = replace(kingdom, capitol=None, capitol_lost_turn=world.turn)
        events.append(
            Event(
                phase,
                EventCode.CAPITOL_LOST,
                f"{kingdom.name} has lost its capitol {province}: the Warlord has {CORONATION_TURNS} turns to "
                "reach another of its cities for a coronation (Loss of the Capitol).",
                kingdom=loser,
                province=province.number,
            )
        )


def players_out(state: TurnState, events: list[Event]) -> None:
    """At the beginning of the turn: a kingdom whose capitol was lost more than three turns ago and
    whose Warlord was not crowned is out (decision 159): it becomes a Rogue Kingdom, its armies leave
    the map, its alliance ends and its sheet is not resolved. A city the Warlord's army conquered in
    the battles of the third turn still counts ("conquer one from another nation in this time"):
    he is crowned there instead (decision 390)."""
    for kingdom in sorted(state.kingdoms.values(), key=lambda k: k.id):
        lost = kingdom.capitol_lost_turn
        if lost is None or kingdom.rogue or state.turn <= lost + CORONATION_TURNS:
            continue
        if _crown(state, events, kingdom.id, why=f"the city it conquered in the battles of turn {state.turn - 1}"):
            continue
        state.kingdoms[kingdom.id] = replace(kingdom, rogue=True, capitol_lost_turn=None)
        for army in list(state.armies.values()) + list(state.garrisons.values()):
            if army.kingdom == kingdom.id:
                target = state.armies if army.id in state.armies else state.garrisons
                target[army.id] = replace(army, disbanded=True, fortified_in=None)
        for alliance in [a for a in state.world.alliances.values() if kingdom.id in a.members]:
            del state.world.alliances[alliance.id]  # ended, no gold back (decision 154)
        state.sheets.pop(kingdom.id, None)
        for army_id in [a for a, o in state.orders.items() if state.world.army(a).kingdom == kingdom.id]:
            del state.orders[army_id]
        events.append(
            Event(
                PHASE,
                EventCode.PLAYER_OUT,
                f"{kingdom.name} lost its capitol in turn {lost} and its Warlord was not crowned in a city within "
                f"{CORONATION_TURNS} turns: the player is out of the game and {kingdom.name} becomes a Rogue Kingdom "
                "(Loss of the Capitol; Rogue Kingdom).",
                kingdom=kingdom.id,
                data={"lost_turn": lost},
            )
        )


def move_capitols(state: TurnState, events: list[Event]) -> None:
    """At the beginning of the turn (after the land deals): each capitol move on a submitted sheet,
    checked again against the state (the Warlord still in the city, the gold still there)."""
    for kingdom_id, sheet in sorted(state.sheets.items()):
        if kingdom_id in state.missed_orders or not sheet.capitol_moves:
            continue
        move = sheet.capitol_moves[0]
        kingdom = state.kingdoms[kingdom_id]
        why = capitol_move_refusal(state.world, kingdom_id, move.province)
        if not why and kingdom.treasury < CAPITOL_MOVE_GOLD:
            why = f"the treasury holds {kingdom.treasury:,}, and moving the capitol costs {CAPITOL_MOVE_GOLD:,}"
        if why:
            events.append(
                Event(
                    PHASE,
                    EventCode.CAPITOL_MOVED,
                    f"The capitol does not move: {why} (Loss of the Capitol).",
                    kingdom=kingdom_id,
                    data={"moved": False, "reason": why},
                )
            )
            continue
        state.kingdoms[kingdom_id] = replace(
            kingdom, capitol=move.province, treasury=kingdom.treasury - CAPITOL_MOVE_GOLD
        )
        events.append(
            Event(
                PHASE,
                EventCode.CAPITOL_MOVED,
                f"The Warlord of {kingdom.name} moves the capitol to {state.provinces[move.province]} for "
                f"{CAPITOL_MOVE_GOLD:,} gold (Loss of the Capitol).",
                kingdom=kingdom_id,
                province=move.province,
                gold=-CAPITOL_MOVE_GOLD,
                ledger_reason=LedgerReason.CAPITOL_MOVED,
                data={"moved": True, "from": kingdom.capitol},
            )
        )


def coronations(state: TurnState, events: list[Event]) -> None:
    """After the turn's moves: a kingdom that lost its capitol crowns its Warlord in a city of its own
    the Warlord's army stands in (one it kept, or one it conquered since), which becomes the capitol,
    free (decision 159); otherwise its report counts the turns left down."""
    for kingdom in sorted(state.kingdoms.values(), key=lambda k: k.id):
        lost = kingdom.capitol_lost_turn
        if lost is None or kingdom.rogue:
            continue
        if _crown(state, events, kingdom.id):
            continue
        left = lost + CORONATION_TURNS - state.turn
        when = (
            f"{left} more turn{'s' if left != 1 else ''} to crown the Warlord in a city of yours"
            if left > 0
            else "this is the last turn: unless the Warlord's army conquers a city in its battles, the player is "
            "out when the next turn begins"
        )
        events.append(
            Event(
                PHASE,
                EventCode.CAPITOL_COUNTDOWN,
                f"{kingdom.name} has no capitol since turn {lost}: {when} (Loss of the Capitol).",
                kingdom=kingdom.id,
                data={"turns_left": left},
            )
        )


def _crown(state: TurnState, events: list[Event], kingdom_id: int, *, why: str = "") -> bool:
    """Crown the Warlord of a kingdom without a capitol in the city of its own his army stands in
    (kept, or conquered): it becomes the capitol, free. False: he stands in no city of his."""
    kingdom = state.kingdoms[kingdom_id]
    warlord = state.armies.get(kingdom.warlord_army) if kingdom.warlord_army is not None else None
    if warlord is None or warlord.disbanded:
        return False
    city = state.provinces[warlord.province]
    if city.controller != kingdom.id or city.settlement != "city":
        return False
    state.kingdoms[kingdom.id] = replace(kingdom, capitol=city.number, capitol_lost_turn=None)
    events.append(
        Event(
            PHASE,
            EventCode.CORONATION,
            f"The Warlord of {kingdom.name} is crowned in {city}{f', {why}' if why else ''}: it is the new capitol "
            "(Loss of the Capitol).",
            kingdom=kingdom.id,
            province=city.number,
            army=warlord.id,
        )
    )
    return True
