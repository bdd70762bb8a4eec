"""Fortify and Defended Obstacles: the fortified defender's extra core troops, and its roll on the
Defended Obstacles Table (D6) for pieces of defenses (pure Python)."""

from __future__ import annotations

from kernel.dice import Dice
from kernel.event_codes import EventCode
from kernel.events import Event
from rulebook.turn.fight_battles import PHASE
from rulebook.turn.state import BattleS, TurnState

FORTIFIED_POINTS = 200  # Fortify: extra core troops for an army attacked in a fortified province

# Defended Obstacles Table (D6): pieces of defenses (6" wall or hedge).
DEFENDED_OBSTACLES_TABLE: dict[int, int] = {1: 1, 2: 1, 3: 2, 4: 2, 5: 3, 6: 3}


def defended_obstacles(state: TurnState, battle: BattleS, dice: Dice, events: list[Event]) -> None:
    """Fortify / Defended Obstacles: a fortified defender rolls for pieces of defenses (the army
    that fortified, also when its garrison fights)."""
    fortified = battle.army_with_garrison if battle.garrison_defends else battle.defender_army
    if not battle.fortified_points or fortified is None:
        return
    defender = state.armies[fortified]
    province = state.provinces[battle.province]
    roll = dice.roll(
        "D6",
        purpose=f"{defender.name}: defended obstacles in {province}",
        kingdoms=[defender.kingdom],
        armies=[defender.id],
    ).total
    battle.defended_obstacles = DEFENDED_OBSTACLES_TABLE[roll]
    events.append(
        Event(
            PHASE,
            EventCode.DEFENDED_OBSTACLES,
            f"{defender.name} defends fortified {province}: +{FORTIFIED_POINTS} points of core troops; "
            f"Defended Obstacles {roll}: {battle.defended_obstacles} piece(s) of defenses.",
            kingdom=defender.kingdom,
            army=defender.id,
            province=battle.province,
            data={
                "battle": battle.province,
                "fortified_points": FORTIFIED_POINTS,
                "roll": roll,
                "pieces": battle.defended_obstacles,
            },
        )
    )
