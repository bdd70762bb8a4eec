"""6. Fight Battles: a Reconnaissance or Sabotage against a rival kingdom as a battle of the turn (pure
Python). Rules decisions 450, 460-462.

Reconnaissance / Sabotage: "Play a Tomb Raider game for the Recon (see Tomb Raider Scenario & Terrain
section). The enemy warband represents the guard of the city, magic college, master engineer, etc. and
will be a generic force of 150pts built from the player's Army book using the generic options described
below. Alternatively, the player may use his own Tomb Raiders to defend if they are not being used for a
mission this turn." Generic Opponents: "If a rival kingdom's Tomb Raiders are not used for defending ...
the player creates a rival defense force, such as palace guards or brigands."

The mission sent and paid this turn (`TurnState.rival_missions`) is a skirmish of the spy's Tomb Raiders
(the attacker: no army) against the target kingdom (the defender: no army), in the target's capitol.
The target is told raiders come, from whom, on which kind of mission and who defends; never the desired
mission (decision 462): the spy's sheet alone names it (`BattleS.mission_detail`).
"""

from __future__ import annotations

from typing import Any

from kernel.event_codes import EventCode
from kernel.events import Event
from rulebook.ruins_and_tomb_raiders.generic_opponents import GENERIC_WARBAND_POINTS
from rulebook.ruins_and_tomb_raiders.tomb_raid import MissionKind
from rulebook.turn.fight_battles import PHASE
from rulebook.turn.state import BattleS, TurnState
from rulebook.turn.write_orders.records import TombRaiderMission

RAIDERS = "raiders"  # the target's own Tomb Raiders defend
GUARD = "guard"  # a generic 150-point guard from the target's army book defends
KIND_LABELS = {MissionKind.RECONNAISSANCE.value: "Reconnaissance", MissionKind.SABOTAGE.value: "Sabotage"}


def rival_mission_battles(state: TurnState, events: list[Event]) -> list[BattleS]:
    """A skirmish for each Reconnaissance or Sabotage sent this turn, in the order of the spying kingdoms'
    ids, with a BATTLE_SCHEDULED event for the spy and a RAIDERS_COMING event for the target. A target's
    own Tomb Raiders defend one skirmish at most, the first in that order (decision 461)."""
    battles: list[BattleS] = []
    defending: set[int] = set()  # targets whose Tomb Raiders already defend a skirmish this turn
    for spy, mission in sorted(state.rival_missions.items()):
        target = mission.target_kingdom
        if target is None or target not in state.kingdoms or spy not in state.kingdoms:
            continue  # the sending check refuses such a mission; nothing to play
        province = mission_province(state, target, mission)
        if province is None:
            events.append(
                Event(
                    PHASE,
                    EventCode.NO_BATTLE,
                    f"Your Tomb Raiders find no province of {state.kingdoms[target].name} to enter: there is no "
                    f"{KIND_LABELS.get(mission.kind, mission.kind)} to play.",
                    kingdom=spy,
                    data={"mission": mission.kind, "target_kingdom": target},
                )
            )
            continue
        defender = RAIDERS if target not in defending and raiders_defend(state, target) else GUARD
        if defender == RAIDERS:
            defending.add(target)
        battle = rival_mission_battle(state, spy, mission, province, defender)
        battles.append(battle)
        _announce(state, battle, events)
    return battles


def raiders_defend(state: TurnState, target: int) -> bool:
    """Whether the target's own Tomb Raiders defend: "if they are not being used for a mission this turn"
    (none was sent and paid: a mission the resolution refused leaves them at home, decision 460) and a
    model of theirs is able to fight (not all out of action, Recovery)."""
    if target in state.raids or target in state.rival_missions:
        return False
    force = state.raiders.get(target)
    return force is not None and force.models_available > 0


def mission_province(state: TurnState, target: int, mission: TombRaiderMission) -> int | None:
    """Where the skirmish is played: the target's capitol while it holds it, else the province of the army
    the mission names, else the lowest-numbered province the target controls (rs-design)."""
    kingdom = state.kingdoms[target]
    capitol = kingdom.capitol
    if capitol is not None and capitol in state.provinces and state.provinces[capitol].controller == target:
        return capitol
    named = state.armies.get(mission.target_army) if mission.target_army is not None else None
    if named is not None and named.kingdom == target and not named.disbanded:
        return named.province
    held = sorted(p.number for p in state.provinces.values() if p.controller == target)
    return held[0] if held else None


def rival_mission_battle(
    state: TurnState, spy: int, mission: TombRaiderMission, province: int, defender: str
) -> BattleS:
    """The skirmish: the spy's Tomb Raiders against the target's (or its 150-point guard), on Tomb Raider
    Scenario & Terrain; never an Assault, no army on either side, no support."""
    target = mission.target_kingdom
    assert target is not None
    battle = BattleS(
        province=province,
        attacker_kingdom=spy,
        attacker_army=None,
        defender_kingdom=target,
        defender_army=None,
        skirmish=True,
        assault=False,
        mission=mission.kind,
        mission_detail={
            "desired": mission.desired,
            "target_army": mission.target_army,
            "target_character": mission.target_character,
            "defender": defender,
        },
        garrison_points=GENERIC_WARBAND_POINTS if defender == GUARD else 0,
    )
    spy_name, target_name = state.kingdoms[spy].name, state.kingdoms[target].name
    kind = KIND_LABELS.get(mission.kind, mission.kind)
    battle.notes.append(
        f"{kind} by {spy_name}'s Tomb Raiders against {target_name} in {state.provinces[province]} ({kind}): "
        f"they skirmish against {defender_label(state, battle)}, on Tomb Raider Scenario & Terrain. No army "
        f"fights; {spy_name} files the mission's result (a success, a draw or a failure) and its raiders' losses."
    )
    return battle


def defender_label(state: TurnState, battle: BattleS) -> str:
    """Who defends, in words: the target's Tomb Raiders, or the guard its player builds (Generic Opponents)."""
    assert battle.defender_kingdom is not None
    target = state.kingdoms[battle.defender_kingdom].name
    if battle.mission_detail.get("defender") == RAIDERS:
        return f"the Tomb Raiders of {target}"
    return (
        f"a generic {GENERIC_WARBAND_POINTS}-point guard of {target}, built by its player from its own army book "
        "(Generic Opponents: no Lieutenant, two Core troop types at most)"
    )


def _announce(state: TurnState, battle: BattleS, events: list[Event]) -> None:
    """The spy's BATTLE_SCHEDULED (its own mission, with what it desires in `data`) and the target's
    RAIDERS_COMING: who comes, the kind of mission, who defends; never the desired mission (decision 462)."""
    spy, target = battle.attacker_kingdom, battle.defender_kingdom
    assert target is not None
    province = state.provinces[battle.province]
    kind = KIND_LABELS.get(battle.mission, battle.mission)
    who = defender_label(state, battle)
    common: dict[str, Any] = {
        "battle": battle.province,
        "mission": battle.mission,
        "skirmish": True,
        "assault": False,
        "defender": battle.mission_detail["defender"],
        "garrison_points": battle.garrison_points,
    }
    events.append(
        Event(
            PHASE,
            EventCode.BATTLE_SCHEDULED,
            f"Your Tomb Raiders' {kind} against {state.kingdoms[target].name} is played in {province}: they "
            f"skirmish against {who} ({kind}; Tomb Raider Scenario & Terrain).",
            kingdom=spy,
            province=province.number,
            data={
                **common,
                "side": "attacker",
                "opponent_kingdom": target,
                "opponent_army": None,
                "desired": battle.mission_detail["desired"],
            },
        )
    )
    own = (
        "your own Tomb Raiders defend"
        if battle.mission_detail["defender"] == RAIDERS
        else f"a {GENERIC_WARBAND_POINTS}-point guard you build from your army book defends (Generic Opponents: no "
        "Lieutenant, two Core troop types at most)"
    )
    events.append(
        Event(
            PHASE,
            EventCode.RAIDERS_COMING,
            f"The Tomb Raiders of {state.kingdoms[spy].name} come to {province} on a {kind}: {own} "
            f"({kind}; Tomb Raider Scenario & Terrain).",
            kingdom=target,
            province=province.number,
            data={**common, "side": "defender", "spy": spy},
        )
    )
