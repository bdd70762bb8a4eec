"""The Ancient Dead in battle: an army of theirs is always 250 points smaller than the army it faces
(The Ancient Dead: Armies), and supports no one (pure Python)."""

from __future__ import annotations

from kernel.event_codes import EventCode
from kernel.events import Event
from rulebook.turn.fight_battles import PHASE
from rulebook.turn.state import BattleS, TurnState

ANCIENT_DEAD_HANDICAP = 250  # The Ancient Dead: Armies: "always 250 points less than the army they are facing"


def is_ancient_dead(state: TurnState, kingdom: int) -> bool:
    """Whether `kingdom` is the Ancient Dead's: its armies never support, nor roll Guerrilla Tactics."""
    return state.kingdoms[kingdom].ancient_dead


def _side_points(state: TurnState, battle: BattleS, side: str) -> int:
    """A side's points after all supports: its main force (the army, or the garrison with its army
    row when the garrison defends), the garrison's and fortification's support of a defending army,
    and every detachment sent to it."""
    supports = sum(s.points for s in battle.supports if s.side == side)
    army = battle.attacker_army if side == "attacker" else battle.defender_army
    if side == "attacker":
        return (state.armies[army].points if army is not None else 0) + supports
    points = state.world.army(army).points if army is not None else 0
    return points + battle.garrison_points + battle.fortified_points + supports


def ancient_dead_size(state: TurnState, battle: BattleS, events: list[Event]) -> None:
    """The Ancient Dead: Armies: an army of the Ancient Dead is always 250 points smaller than the
    army it faces, after all supports are calculated (rule case AD2); their garrisons (the Capitol
    Garrison with the Warlord, a desert's 1,000 points) keep their size."""
    if battle.attacker_army is not None and is_ancient_dead(state, battle.attacker_kingdom):
        side, ancient_army, opponent = "attacker", battle.attacker_army, "defender"
    elif (
        battle.defender_kingdom is not None
        and is_ancient_dead(state, battle.defender_kingdom)
        and battle.defender_army is not None
        and not battle.garrison_defends
    ):
        side, ancient_army, opponent = "defender", battle.defender_army, "attacker"
    else:
        return
    facing = _side_points(state, battle, opponent)
    battle.ancient_dead_points = max(0, facing - ANCIENT_DEAD_HANDICAP)
    army = state.armies[ancient_army]
    text = (
        f"{army.name} fights at {battle.ancient_dead_points:,} points in {state.provinces[battle.province]}: "
        f"250 less than the {facing:,} points it faces after supports (The Ancient Dead: Armies)."
    )
    battle.notes.append(text)
    events.append(
        Event(
            PHASE,
            EventCode.ANCIENT_DEAD_SIZE,
            text,
            kingdom=army.kingdom,
            army=army.id,
            province=battle.province,
            data={"side": side, "points": battle.ancient_dead_points, "facing": facing},
        )
    )
