"""The battles' results as the sheets settled them, and the turn's end (pure Python): each side's
result in its kingdom's log (a missing turn summary sheet said so), and, after all the battles,
Army Restrictions over every army that fought, then the ends of alliances announced during the End
of Turn.

Rulebook: 8. End of Turn (a missing sheet: rulebook.turn.aftermath.results settles it), Army
Restrictions (500 points or less is disbanded, its characters with it), Allies (Announcement). Rule
cases A6, R2.
"""

from __future__ import annotations

from kernel.event_codes import EventCode
from kernel.events import Event
from rulebook.allies.declarations import alliance_ends_announced
from rulebook.tables import ARMY_DISBANDED_AT_OR_BELOW, ArmyKind
from rulebook.turn.aftermath.sheets import BattleA, SideA
from rulebook.turn.aftermath.state import PHASE, AftermathState, army_name, disband
from rulebook.turn.aftermath.succession import characters_go_with_their_army
from rulebook.world import ArmyState, ProvinceState


def result_events(state: AftermathState, events: list[Event], battle: BattleA, province: ProvinceState) -> None:
    """Each side's result in its kingdom's log."""
    outcome = battle.outcome
    sides = {"attacker": battle.attacker, "defender": battle.defender}
    results = {"attacker": outcome.attacker, "defender": outcome.defender}
    for side_name, side in sides.items():
        result = results[side_name]
        other = results["defender" if side_name == "attacker" else "attacker"]
        label = _side_label(state, side)
        if battle.skirmish:  # Rogue Kingdom, scouting forces (decision 231)
            kingdom = state.kingdoms[side.kingdom].name if side.kingdom is not None else "a Rogue Kingdom"
            label = f"{kingdom}'s Tomb Raiders" if side is battle.attacker else f"the scouting forces of {kingdom}"
        text = f"Battle in {province}: {result.result.label.lower()} for {label}"
        # 8. End of Turn (R2): a missing sheet is a major loss for that side only; the other
        # side's result stands as its sheet reported it, so the two need not mirror.
        if not result.filed:
            text += ", for want of a turn summary sheet by the deadline (8. End of Turn)"
        elif not other.filed:
            text += " (the opponent filed no turn summary sheet by the deadline; 8. End of Turn)"
        events.append(
            Event(
                PHASE,
                EventCode.BATTLE_RESULT,
                text + ".",
                kingdom=side.kingdom,
                army=side.army,
                province=battle.province,
                data={"result": result.result.value, "side": side_name, "filed": result.filed},
            )
        )


def _side_label(state: AftermathState, side: SideA) -> str:
    if side.kingdom is None:
        return "the neutral garrison"
    kingdom = state.kingdoms[side.kingdom].name
    return f"{kingdom}: {army_name(state, side.army)}" if side.army is not None else f"{kingdom} (garrison)"


def disband_the_small(state: AftermathState, events: list[Event], fought: set[int]) -> None:
    """Army Restrictions (A6): an army of 500 points or less is disbanded; its items destroyed, its
    characters gone with it (decision 558)."""
    gone: list[ArmyState] = []
    for army_id in sorted(fought):
        army = state.world.army(army_id)
        if army.disbanded or army.kind is ArmyKind.GARRISON:
            continue
        points = state.army_points(army_id)
        if points <= ARMY_DISBANDED_AT_OR_BELOW:
            gone.append(disband(state, army))
            events.append(
                Event(
                    PHASE,
                    EventCode.DISBANDED,
                    f"{army.name} is down to {points} points and is disbanded; the magic items "
                    "it carried are destroyed (Army Restrictions).",
                    kingdom=army.kingdom,
                    army=army_id,
                    province=army.province,
                    data={"points": points},
                )
            )
    # Once every small army is gone: a Warlord's heir is never a General who leaves in this same step.
    for army in gone:
        characters_go_with_their_army(state, events, army, disbanded=True)


def alliances_announced_over(state: AftermathState, events: list[Event]) -> None:
    """Allies, Announcement: "During the End of Campaign Turn, a player can announce that an alliance
    is broken. During the next Campaign Turn, the rules for allies cease to apply". Last of the
    turn, after every battle's aftermath (a retreat still reads the alliance): the alliance ends with
    this turn, so the next turn's world loads it ended (decision 385)."""
    alliance_ends_announced(state, state.announced_ends, phase=PHASE, events=events)
