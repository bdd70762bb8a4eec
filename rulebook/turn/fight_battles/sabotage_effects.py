"""Sabotage's battle effects at the target's next battle that matches, in 6. Fight Battles of a later turn
(pure Python). Decisions 450 and 484-486.

- Poison Well: "Next battle involving a garrison force, the kingdom loses 25% of his forces before the
  battle begins. This does not count toward victory points."
- Assassinate Spiritual Leader: "The next battle fought, this Kingdom has -1 to all leadership."
- Sappers: "Next battle using barricades, d3 of these barricades (chosen by the saboteur) are destroyed."

Each is applied once the turn's battles are scheduled (garrisons, fortification, supports and Defended
Obstacles known), to the first battle of the turn's order that matches, and printed in its notes (the
scenario sheet's "Notes"). The notes never name the saboteur: the battle's opponent reads them too. The
saboteur and the target are each told by an event of their own (SABOTAGE_APPLIED).
"""

from __future__ import annotations

from collections.abc import Callable

from kernel.dice import Dice
from kernel.event_codes import EventCode
from kernel.events import Event
from rulebook.ruins_and_tomb_raiders.mission_effects import pending, used
from rulebook.ruins_and_tomb_raiders.rival_missions import MissionEffectState
from rulebook.ruins_and_tomb_raiders.sabotage import (
    ASSASSINATION_LEADERSHIP,
    POISON_WELL_SHARE,
    Sabotage,
    sappers_roll,
)
from rulebook.turn.fight_battles import PHASE
from rulebook.turn.state import BattleS, TurnState


def _fought_by(battle: BattleS, kingdom: int) -> bool:
    """A battle the kingdom fights as a side. A Tomb Raiders' skirmish is not the kingdom's battle: its
    armies do not fight it (decision 484)."""
    return not battle.skirmish and kingdom in (battle.attacker_kingdom, battle.defender_kingdom)


def _garrison_owner(battle: BattleS) -> int | None:
    """The kingdom whose garrison force fights: the defender's, or its town's beside its ally's army
    (decision 580)."""
    return battle.defender_kingdom if battle.garrison_kingdom is None else battle.garrison_kingdom


def _with_garrison(battle: BattleS, kingdom: int) -> bool:
    """A garrison force of the kingdom fights: the defender's garrison, alone or supporting its army,
    or its town's garrison supporting its ally's army there (decision 580)."""
    return not battle.skirmish and _garrison_owner(battle) == kingdom and battle.garrison_points > 0


def _barricades(battle: BattleS, kingdom: int) -> tuple[int, int]:
    """The kingdom's barricades in the battle: the pieces of Defended Obstacles (its fortified army
    defending) and of its town's garrison's defenses (its own town, or beside its ally's army, decision
    580). A Tomb Raiders' skirmish has none of the kingdom's (decision 484)."""
    if battle.skirmish:
        return 0, 0
    obstacles = (battle.defended_obstacles or 0) if battle.defender_kingdom == kingdom else 0
    defenses = battle.garrison_defenses if _garrison_owner(battle) == kingdom else 0
    return obstacles, defenses


def _with_barricades(battle: BattleS, kingdom: int) -> bool:
    """The kingdom defends behind barricades of its own: Defended Obstacles' or its garrison's."""
    return sum(_barricades(battle, kingdom)) > 0


def sabotage_battles(state: TurnState, battles: list[BattleS], dice: Dice, events: list[Event]) -> None:
    """Each pending Poison Well, Assassinate Spiritual Leader and Sappers, at its target's first battle of
    the turn that matches; one effect of a mission to a battle (a second waits for the next, decision
    486). An effect with no such battle this turn waits."""
    effects: list[tuple[str, Callable[[BattleS, int], bool], Callable[..., None]]] = [
        (Sabotage.POISON_WELL, _with_garrison, _poison_well),
        (Sabotage.ASSASSINATE_SPIRITUAL_LEADER, _fought_by, _assassination),
        (Sabotage.SAPPERS, _with_barricades, _sappers),
    ]
    for mission, matches, apply in effects:
        taken: set[tuple[int, int]] = set()  # (battle index, target): one effect of the mission each
        for effect in pending(state.world, mission):
            found = next(
                (i for i, b in enumerate(battles) if (i, effect.target) not in taken and matches(b, effect.target)),
                None,
            )
            if found is None:
                continue
            taken.add((found, effect.target))
            used(state.world, effect)
            apply(state, battles[found], effect, dice, events)


def _told(
    state: TurnState,
    battle: BattleS,
    effect: MissionEffectState,
    ours: str,
    theirs: str,
    events: list[Event],
    **data: object,
) -> None:
    """The saboteur's event and the target's: `ours` and `theirs` say "{where}" for the battle's province."""
    where = str(state.provinces[battle.province])
    common = {"effect": effect.id, "mission": effect.mission, "battle": battle.province, **data}
    for kingdom, text in ((effect.kingdom, ours), (effect.target, theirs)):
        events.append(
            Event(
                PHASE,
                EventCode.SABOTAGE_APPLIED,
                text.replace("{where}", where),
                kingdom=kingdom,
                province=battle.province,
                data=common,
            )
        )


def _poison_well(
    state: TurnState, battle: BattleS, effect: MissionEffectState, dice: Dice, events: list[Event]
) -> None:
    """The garrison force loses 25% of its points before the battle (rounded down, decision 485); they
    are no casualties of the battle's and count for no victory points."""
    lost = int(battle.garrison_points * POISON_WELL_SHARE)
    before = battle.garrison_points
    battle.garrison_points -= lost
    target = state.kingdoms[effect.target].name
    battle.notes.append(
        f"Poison Well (Sabotage): {target}'s garrison force loses {lost:,} of its {before:,} points before the "
        "battle begins; they do not count toward victory points."
    )
    _told(
        state,
        battle,
        effect,
        f"Your Poison Well strikes: {target}'s garrison force loses {lost:,} points before its battle in "
        "{where} (Sabotage: Poison Well).",
        f"A poisoned well: your garrison force loses {lost:,} of its {before:,} points before its battle in "
        "{where} (Sabotage: Poison Well).",
        events,
        points_lost=lost,
    )


def _assassination(
    state: TurnState, battle: BattleS, effect: MissionEffectState, dice: Dice, events: list[Event]
) -> None:
    target = state.kingdoms[effect.target].name
    battle.notes.append(
        f"Assassinate Spiritual Leader (Sabotage): {target} has {ASSASSINATION_LEADERSHIP} to all leadership in "
        "this battle."
    )
    _told(
        state,
        battle,
        effect,
        f"Your assassins strike: {target} has {ASSASSINATION_LEADERSHIP} to all leadership in its battle in "
        "{where} (Sabotage: Assassinate Spiritual Leader).",
        f"Your spiritual leader is assassinated: {ASSASSINATION_LEADERSHIP} to all leadership in your battle in "
        "{where} (Sabotage: Assassinate Spiritual Leader).",
        events,
        leadership=ASSASSINATION_LEADERSHIP,
    )


def _sappers(state: TurnState, battle: BattleS, effect: MissionEffectState, dice: Dice, events: list[Event]) -> None:
    """D3 pieces of the target's barricades are destroyed (rolled now, when the barricades are known,
    unless the effect carries its roll), never more than it has: off the Defended Obstacles' pieces first,
    then the garrison's; never its ally's (decision 580). The saboteur chooses which on the table; when
    it is not a side of the battle, the target's opponent chooses for it (decision 486)."""
    roll = effect.data.get("sappers") or sappers_roll(dice, saboteur=effect.kingdom, target=effect.target)
    obstacles, defenses = _barricades(battle, effect.target)  # the target's own, never its ally's (decision 580)
    pieces = obstacles + defenses
    destroyed = min(int(roll), pieces)
    from_obstacles = min(destroyed, obstacles)
    if from_obstacles:
        battle.defended_obstacles = (battle.defended_obstacles or 0) - from_obstacles
    battle.garrison_defenses -= destroyed - from_obstacles
    target = state.kingdoms[effect.target].name
    chooser = (
        "the saboteur chooses which"
        if effect.kingdom in (battle.attacker_kingdom, battle.defender_kingdom)
        else "the attacker chooses which, for the saboteur"
    )
    battle.notes.append(
        f"Sappers (Sabotage): D3 = {roll}: {destroyed} of {target}'s {pieces} barricade piece(s) are destroyed "
        f"before the battle; {chooser}."
    )
    _told(
        state,
        battle,
        effect,
        f"Your sappers destroy {destroyed} of {target}'s {pieces} barricade piece(s) in {{where}} (D3 = {roll}); "
        f"{chooser} (Sabotage: Sappers).",
        f"Sappers destroy {destroyed} of your {pieces} barricade piece(s) before your battle in {{where}} "
        "(Sabotage: Sappers).",
        events,
        roll=roll,
        destroyed=destroyed,
    )
