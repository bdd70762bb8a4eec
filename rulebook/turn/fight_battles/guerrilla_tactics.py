"""Guerrilla Tactics: the smaller of two armies at least 500 points apart rolls on the Guerrilla
Warfare (D6) table before the battle (pure Python)."""

from __future__ import annotations

from typing import NamedTuple

from kernel.dice import Dice
from kernel.event_codes import EventCode
from kernel.events import Event
from rulebook.armies.losses import lose_points
from rulebook.turn.fight_battles import PHASE
from rulebook.turn.fight_battles.ancient_dead import is_ancient_dead
from rulebook.turn.state import BattleS, TurnState


class GuerrillaResult(NamedTuple):
    code: str
    label: str
    percent: int  # of the larger army's points lost before the battle, rounded down


# Guerrilla Warfare (D6), rolled by the smaller army.
GUERRILLA_WARFARE: dict[int, GuerrillaResult] = {
    1: GuerrillaResult("blundered", "Blundered!", 0),
    2: GuerrillaResult("hit-and-run", "Hit and Run", 5),
    3: GuerrillaResult("hit-and-run", "Hit and Run", 5),
    4: GuerrillaResult("hit-and-run", "Hit and Run", 5),
    5: GuerrillaResult("hit-and-run", "Hit and Run", 5),
    6: GuerrillaResult("ambushed", "Ambushed!", 10),
}
GUERRILLA_MARGIN = 500  # the smaller army is at least this many points smaller


def guerrilla_tactics(state: TurnState, battle: BattleS, dice: Dice, events: list[Event]) -> None:
    """Guerrilla Tactics (B4): only between two armies, on their own points; a garrison (its Elite
    Defense Force or Capitol Garrison included) never rolls and is never the target. Called before
    any Support Arrival roll of the battle. "Blundered!" ("Your saboteurs barely make it back alive
    ... +1 to your roll for first turn") speaks to the player who rolls: the smaller army has +1 on
    its roll for first turn (rule case R5; the scenario rolls it)."""
    if battle.attacker_army is None or battle.defender_army is None or battle.garrison_defends:
        return
    attacker = state.armies[battle.attacker_army]
    defender = state.armies[battle.defender_army]
    if is_ancient_dead(state, attacker.kingdom) or is_ancient_dead(state, defender.kingdom):
        # An army of the Ancient Dead is always 250 points smaller than its opponent (The Ancient
        # Dead: Armies): never the 500 points apart Guerrilla Tactics wants (rules decision 102).
        return
    if abs(attacker.points - defender.points) < GUERRILLA_MARGIN:
        return
    smaller, larger = (attacker, defender) if attacker.points < defender.points else (defender, attacker)
    roll = dice.roll(
        "D6",
        purpose=f"{smaller.name}: guerrilla tactics against {larger.name}",
        kingdoms=[smaller.kingdom, larger.kingdom],
        armies=[smaller.id, larger.id],
    ).total
    result = GUERRILLA_WARFARE[roll]
    points_lost = larger.points * result.percent // 100
    # "This counts as destroyed": the models are taken off the larger army's list, once.
    loss = lose_points(larger, state.units_of(larger), points_lost, first=state.losses_first(larger))
    if points_lost:
        state.put_loss(loss)
    battle.guerrilla = {
        "army": smaller.id,
        "roll": roll,
        "result": result.code,
        "target": larger.id,
        "points_lost": points_lost,
    }
    if result.code == "blundered":
        outcome = f"no damage is done; {smaller.name} has +1 to its roll for first turn"
        battle.notes.append(f"{smaller.name} +1 to its roll for first turn (Guerrilla Tactics: Blundered!).")
    else:
        outcome = f"{larger.name} loses {points_lost:,} points ({result.percent}%), counted as destroyed"
        battle.notes.append(f"{larger.name} fights {points_lost:,} points short (Guerrilla Tactics: {result.label}).")
    where = state.provinces[battle.province]
    text = f"Guerrilla Tactics in {where}: {smaller.name} rolls {roll}, {result.label}: {outcome}."
    for army in (smaller, larger):
        # Which models the larger army lost is its own kingdom's to know.
        own = army is larger and bool(points_lost)
        events.append(
            Event(
                PHASE,
                EventCode.GUERRILLA,
                f"{text[:-1]} ({loss.outcome()})." if own else text,
                kingdom=army.kingdom,
                army=army.id,
                province=battle.province,
                data={**battle.guerrilla, "taken": loss.data()} if own else dict(battle.guerrilla),
            )
        )
