"""The kingdom's Tomb Raiders in its private turn report: the force as the turn left it (its entries,
points, Captain, Lieutenant, models out of action) and its mission on the sheet that resolved, with
what came of the raid. Only the kingdom's own: Tomb Raiders are its warband "for their most dangerous
missions requiring stealth and secrecy" (Tomb Raiders), never in another kingdom's report nor in the
bulletin (rules decision 441)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from battles.models import Battle
from kingdoms.models import Kingdom
from kingdoms.selectors import tomb_raiders_view
from rulebook.ruins_and_tomb_raiders.force import Role
from rulebook.ruins_and_tomb_raiders.tomb_raid import MISSION_GOLD, MissionKind, RaidResult
from rulebook.turn.aftermath.results import BattleResult
from rulebook.turn.aftermath.rival_missions import RIVAL_MISSIONS
from rulebook.turn.aftermath.tomb_raids import RAID_RESULT_LABELS, raid_result_of
from rulebook.turn.write_orders.records import TombRaiderMission

ROLE_WORDS = {Role.CAPTAIN: "Captain", Role.LIEUTENANT: "Lieutenant", Role.TROOPER: ""}


def tomb_raider_rows(kingdom: Kingdom) -> dict[str, Any] | None:
    """The force as the report lists it (and keeps it, in the report's snapshot): None for the
    Ancient Dead, who keep no Tomb Raiders; an empty list when the kingdom has not entered one."""
    if kingdom.is_ancient_dead:
        return None
    view = tomb_raiders_view(kingdom)
    force = view.force
    return {
        "entries": [
            {
                "name": e.name,
                "models": e.models,
                "points": e.points,
                "role": ROLE_WORDS[e.role],
                "out_of_action": e.out_of_action,
            }
            for e in force.entries
        ],
        "points": force.points,
        "points_limit": view.points_limit,
        "models_available": force.models_available,
        "captain": force.captain.name if force.captain else "",
        # The Captain as he fights: +1 W, +1 Ld to at most 10 (Creating Tomb Raiders).
        "captain_profile": (
            f"Ld {view.captain_profile.leadership}, W {view.captain_profile.wounds}" if view.captain_profile else ""
        ),
        "lieutenant": force.lieutenant.name if force.lieutenant else "",
        "problems": [p.message for p in view.problems],
    }


def _raid_result(battle: Battle, kingdom: Kingdom) -> str:
    """The raid's result in words, from the raiders' side ("" before the aftermath settles it)."""
    if not battle.result:
        return "the skirmish is played with the turn's battles; its result comes on the turn summary sheet."
    ours = BattleResult(battle.result if battle.attacker_kingdom_id == kingdom.id else battle.defender_result)
    # A victory of any size is a success; a draw is not (decision 407); a loss is a failure (Tomb Raid).
    if ours.is_victory:
        return f"{ours.label}: a success, the ruin is raided (Tomb Raid)."
    if ours is BattleResult.DRAW:
        return "Draw: not a success; the army may not move into the province this turn (Tomb Raid)."
    return f"{ours.label}: a failure; the army may not move into the province this turn (Tomb Raid)."


def _rival_result(battle: Battle) -> str:
    """A Reconnaissance or Sabotage's skirmish from the spy's side: its result, and where the report
    tells what it earned: the turn's events (What happened, above this section) and, for a
    Reconnaissance that succeeded, what was learned (Intelligence, below it)."""
    if not battle.result:
        return "the skirmish is played with the turn's battles; its result comes on the turn summary sheet."
    raid = raid_result_of(BattleResult(battle.result))
    learned = (
        "; what your Tomb Raiders learned is under Intelligence below"
        if raid is RaidResult.SUCCESS and battle.mission == MissionKind.RECONNAISSANCE
        else ""
    )
    return f"{RAID_RESULT_LABELS[raid]}: what it earned is under What happened above{learned}."


def mission_lines(
    missions: Iterable[TombRaiderMission],
    *,
    provinces: Mapping[int, str],
    raids: Iterable[Battle],
    kingdom: Kingdom,
) -> list[dict[str, str]]:
    """The sheet's missions, each with what came of it: the raid's skirmish of the turn in its
    province (Battle.mission), or none (the mission was refused or no army moved in: the turn's
    events say why). `provinces`: the ruins' names by number."""
    played = {b.province.number: b for b in raids if b.mission == MissionKind.TOMB_RAID}
    # Reconnaissance, Sabotage: the skirmish against the target kingdom (decision 470 reads its result).
    rivals = {(b.mission, b.defender_kingdom_id): b for b in raids if b.mission in RIVAL_MISSIONS}
    lines = []
    for mission in missions:
        where = provinces.get(mission.province or 0, f"province {mission.province}")
        fee = " and the change fee, 5 gold a point added this turn" if mission.pay_change_fee else ""
        if mission.kind == MissionKind.TOMB_RAID:
            order = f"Tomb Raid on the ruins of {where} ({MISSION_GOLD} gold{fee})"
        else:
            order = f"{mission.kind} ({MISSION_GOLD} gold{fee})"
        rival = rivals.get((mission.kind, mission.target_kingdom))
        if rival is not None:
            lines.append({"mission": order, "outcome": _rival_result(rival)})
            continue
        battle = played.get(mission.province or 0)
        outcome = _raid_result(battle, kingdom) if battle else "No raid was played: the turn's events say why."
        lines.append({"mission": order, "outcome": outcome})
    return lines


def raid_succeeded(battle: Battle) -> bool:
    """The raiders (the attacker) won the skirmish: a success; a draw is not (decision 407)."""
    # A Reconnaissance or Sabotage is no raid of a ruin: its skirmish is the two kingdoms' secret (decision 478).
    return battle.mission == MissionKind.TOMB_RAID and bool(battle.result) and BattleResult(battle.result).is_victory


def ruins_raided_lines(battles: Iterable[Battle]) -> list[str]:
    """The bulletin's words for the turn's raids (decision 442): a ruin raided successfully, as the map
    shows it; never the kingdom, its army or what was found, and nothing of a raid that failed."""
    return [
        f"The ruins of {b.province} were raided (Tomb Raid)."
        for b in sorted(battles, key=lambda b: (b.province.number, b.id))
        if raid_succeeded(b)
    ]
