"""Phase 6, Fight Battles: scheduling. Who fights whom where, with the garrisons, fortification,
Guerrilla Tactics and supports each battle gets, ready to be fought on the table. Pure Python.

Rulebook: 6. Fight Battles (Support, Support Arrival, Guerrilla Tactics, Battle for Towns, Cities,
and Capitols), Fortify, Defended Obstacles, The Ancient Dead: Setup, Deserts. Rule cases B2, B3, B4,
R4, R5, R10 (B1 and B5 are settled by the orders phase, which makes the contacts read here).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, NamedTuple

from kernel.dice import Dice
from kernel.event_codes import EventCode
from kernel.events import Event
from rulebook.allies.chart import ALLIANCE_SUPPORT_POINTS, support_arrival
from rulebook.armies.losses import lose_points
from rulebook.player_issues.rogue_kingdom import (
    SCOUTING_FORCES_POINTS,
    TOMB_RAIDERS_POINTS,
    RogueForce,
    rogue_kingdom_roll,
)
from rulebook.turn.state import BattleS, Contact, SupportS, TurnState
from rulebook.turn.write_orders.records import DEFEND_WITH_GARRISON, OrderKind
from rulebook.world import ArmyState

PHASE = "battles"


class GarrisonSize(NamedTuple):
    points: int
    defenses: int  # pieces of defenses (a 6" wall or hedge each)


# Battle for Towns, Cities, and Capitols: the local garrison force.
GARRISONS: dict[str, GarrisonSize] = {
    "town": GarrisonSize(points=750, defenses=1),
    "city": GarrisonSize(points=1000, defenses=2),
    "capitol": GarrisonSize(points=2000, defenses=3),
}
ELITE_DEFENSE_FORCE_POINTS = 500  # reinforces a town or city garrison
DESERT_GARRISON_POINTS = 1000  # The Ancient Dead: Deserts; it cannot leave or support

SUPPORT_DETACHMENT_MAX = 200  # Support: one detachment of core troops
SUPPORT_MAX = 500  # Support: all support of one side, allies, fortification and garrisons included
FORTIFIED_POINTS = 200  # Fortify: extra core troops for an army attacked in a fortified province

# Defended Obstacles Table (D6): pieces of defenses (6" wall or hedge).
DEFENDED_OBSTACLES_TABLE: dict[int, int] = {1: 1, 2: 1, 3: 2, 4: 2, 5: 3, 6: 3}

SUPPORT_DELAYED = "Unexpected Delay"  # rolls for arrival as reserves from turn 2
SUPPORT_ON_TIME = "On Time"
# Support Arrival (D6).
SUPPORT_ARRIVAL: dict[int, str] = {
    1: SUPPORT_DELAYED,
    2: SUPPORT_DELAYED,
    3: SUPPORT_ON_TIME,
    4: SUPPORT_ON_TIME,
    5: SUPPORT_ON_TIME,
    6: SUPPORT_ON_TIME,
}


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

# Reasons a support does not take place (Event "support-refused", data["reason"]).
REFUSED_ALREADY_SUPPORTING = "already-supporting"
REFUSED_IN_BATTLE = "supporter-in-battle"
REFUSED_CO_OCCUPYING = "co-occupying"
REFUSED_DISBANDED = "disbanded"
REFUSED_ANCIENT_DEAD = "ancient-dead"
REFUSED_NO_SIDE = "no-side"
REFUSED_NOT_ADJACENT = "not-adjacent"
REFUSED_CAP = "support-cap"
REFUSED_NO_TROOPS = "no-troops"

_SETTLEMENTS = ("town", "city")


@dataclass(frozen=True)
class Garrison:
    """A province's garrison: who it fights for, its points and its defenses. `points` are the local
    garrison force's (troops without a list); `army` is the army row that fights with it, with its
    own list: the Elite Defense Force (its hero the General), or the Ancient Dead's Capitol Garrison,
    whose list holds the Warlord and all its points."""

    kingdom: int | None
    points: int
    defenses: int
    label: str  # for the reports: "the capitol garrison of 3 Avalon"
    desert: bool = False  # the Ancient Dead's: it never supports an army
    army: int | None = None
    ancient_dead_capitol: bool = False  # The Ancient Dead: Setup: it always defends the pyramid


def _garrison_army(state: TurnState, number: int, kingdom: int) -> ArmyState | None:
    """The kingdom's army row that garrisons province `number` (Elite Defense Force, Capitol Garrison)."""
    rows = [g for g in state.garrisons.values() if g.province == number and g.kingdom == kingdom and not g.disbanded]
    return min(rows, key=lambda g: g.id, default=None)


def province_garrison(state: TurnState, number: int) -> Garrison | None:
    """The garrison of province `number`: a controlled town's or city's (a capitol's when it is its
    controller's capitol), with its Elite Defense Force; the Ancient Dead's capitol's, which is their
    Capitol Garrison army; else a desert's Ancient Dead garrison; else None."""
    province = state.provinces[number]
    controller = province.controller
    owner = state.kingdoms.get(controller) if controller is not None else None
    capitol = owner is not None and owner.capitol == number
    if owner is not None and capitol and owner.ancient_dead:
        # The Ancient Dead: Setup: "The kingdom's Warlord must remain with the Capitol's garrison ...
        # The Warlord's point cost is included in the garrison force": the garrison is the army.
        size = GARRISONS["capitol"]
        label = f"the capitol garrison of {province}"
        row = _garrison_army(state, number, owner.id)
        if row is None:  # no list to fight with: the garrison's 2,000 points
            return Garrison(owner.id, size.points, size.defenses, label, ancient_dead_capitol=True)
        label = f"the {row.name} (with the Warlord)"
        return Garrison(owner.id, 0, size.defenses, label, army=row.id, ancient_dead_capitol=True)
    if province.settlement in _SETTLEMENTS and controller is not None:
        kind = "capitol" if capitol else province.settlement
        size = GARRISONS[kind]
        label = f"the {kind} garrison of {province}"
        elite = _garrison_army(state, number, controller)
        if elite is not None:
            return Garrison(
                controller, size.points, size.defenses, f"{label} with its Elite Defense Force", army=elite.id
            )
        if province.elite_defense:
            # Bought this turn (3. Create / Upgrade Armies): its list is not entered yet, so it fights
            # as the 500 points paid for it, within the garrison.
            points = size.points + ELITE_DEFENSE_FORCE_POINTS
            return Garrison(controller, points, size.defenses, f"{label} with its Elite Defense Force")
        return Garrison(controller, size.points, size.defenses, label)
    if province.terrain == "desert":
        return Garrison(controller, DESERT_GARRISON_POINTS, 0, f"the Ancient Dead garrison of {province}", desert=True)
    return None


def _settlement_battle(state: TurnState, number: int) -> bool:
    """The Engagement Type is always Assault in a battle for a town, city, or capitol (the pyramid is
    the Ancient Dead's capitol)."""
    province = state.provinces[number]
    owner = state.kingdoms.get(province.controller) if province.controller is not None else None
    return province.settlement in _SETTLEMENTS or (owner is not None and owner.capitol == number)


def build_battles(state: TurnState, contacts: list[Contact], dice: Dice, events: list[Event]) -> list[BattleS]:
    """Phase 6: one battle for each contact, in the order given, with its defender (the army, or the
    garrison when it defends alone or its kingdom chose it), garrison support, fortification,
    Guerrilla Tactics and supports. Rolls, per battle: Guerrilla Tactics, then Support Arrival for
    each detachment (the army standing with a garrison that defends first), then Defended Obstacles.
    Guerrilla losses are taken off the larger army's list (its points are the list's). Appends an
    event for every battle (one per kingdom involved), every support given or refused, and every
    roll."""
    # Armies in any battle may neither send support nor have it go out from them (B3).
    fighting = {c.attacker for c in contacts} | {c.defender for c in contacts if c.defender is not None}
    supporting: set[int] = set()
    supporters = _supporters_by_province(state)
    battles: list[BattleS] = []
    for contact in contacts:
        battle = _schedule(state, contact, events)
        if battle is None:
            continue
        battles.append(battle)
        if battle.skirmish:
            continue  # the Tomb Raiders' skirmish: no army fights it, so none supports it (decision 231)
        _guerrilla(state, battle, dice, events)
        _supports(state, battle, fighting, supporting, supporters.get(battle.province, []), dice, events)
        _defended_obstacles(state, battle, dice, events)
        _ancient_dead_size(state, battle, events)
        _setup_notes(state, battle, contact)
    _supports_without_battle(state, [b for b in battles if not b.skirmish], fighting, events)
    return battles


def _garrison_chosen(state: TurnState, army: ArmyState, garrison: Garrison) -> bool:
    """Battle for Towns, Cities, and Capitols: "you may use either the local garrison force or the
    army". The army's order says which (the army when silent); the Ancient Dead's pyramid is always
    defended by its Capitol Garrison, with whom the Warlord must remain (The Ancient Dead: Setup)."""
    if garrison.ancient_dead_capitol:
        return True
    order = state.orders.get(army.id)
    return order is not None and order.defend_with == DEFEND_WITH_GARRISON


def _garrison_defends(battle: BattleS, garrison: Garrison) -> None:
    """The garrison is the defending side's main force: its local troops and its army row."""
    battle.garrison_defends = True
    battle.defender_kingdom = garrison.kingdom
    battle.defender_army = garrison.army
    battle.garrison_points = garrison.points
    battle.garrison_defenses = garrison.defenses


def _schedule(state: TurnState, contact: Contact, events: list[Event]) -> BattleS | None:
    province = state.provinces[contact.province]
    attacker = state.armies[contact.attacker]
    garrison = province_garrison(state, province.number)
    battle = BattleS(
        province=province.number,
        attacker_kingdom=attacker.kingdom,
        attacker_army=attacker.id,
        defender_kingdom=None,
        defender_army=None,
        # The Engagement Type is always Assault in a battle for a town, city or capitol, whoever defends it.
        assault=_settlement_battle(state, province.number),
    )
    if contact.rogue_roll is not None:
        defender_label = _rogue_forces(state, battle, contact.rogue_roll)
    elif contact.defender is not None:
        defender = state.armies[contact.defender]
        battle.defender_kingdom = defender.kingdom
        fortifier = state.world.fortifier(province.number)
        if fortifier is not None and fortifier.id == defender.id and not contact.both_moved:
            # Fortify: the bonuses are the Fortified army's own, defending the province it fortified,
            # whichever force fights (the garrison chosen keeps them for its side, decision 36a).
            battle.fortified_points = FORTIFIED_POINTS
        own = garrison is not None and not garrison.desert and garrison.kingdom == defender.kingdom
        if garrison is not None and own and _garrison_chosen(state, defender, garrison):
            _garrison_defends(battle, garrison)
            battle.army_with_garrison = defender.id
            defender_label = garrison.label
            battle.notes.append(
                f"{_capitalized(garrison.label)} defends {province}"
                + (f" ({garrison.points:,} points)" if garrison.points else "")
                + f"; {defender.name} stands there and supports it (Battle for Towns, Cities, and Capitols)."
            )
        else:
            battle.defender_army = defender.id
            defender_label = defender.name
            if garrison is not None and own:
                # The garrison supports the army in its own province, within the 500-point cap. Its
                # local troops alone fill the cap: an Elite Defense Force fights when the garrison does.
                battle.garrison_defenses = garrison.defenses
                battle.garrison_points = min(garrison.points, SUPPORT_MAX - battle.fortified_points)
                battle.notes.append(
                    f"{_capitalized(garrison.label)} ({garrison.points:,} points) supports "
                    f"{defender.name} with {battle.garrison_points:,} points (500-point support cap) and "
                    f"{garrison.defenses} piece(s) of defenses."
                )
    elif garrison is not None and garrison.kingdom != attacker.kingdom:
        if garrison.desert and _is_ancient_dead(state, attacker.kingdom):
            _no_battle(
                events,
                attacker,
                province.number,
                f"{attacker.name} is of the Ancient Dead: {garrison.label} does not fight it.",
            )
            return None
        _garrison_defends(battle, garrison)
        defender_label = garrison.label
    else:
        _no_battle(events, attacker, province.number, f"{attacker.name} finds no one to fight in {province}.")
        return None

    assault = " It is an Assault." if battle.assault else ""
    events.append(
        Event(
            PHASE,
            EventCode.BATTLE_SCHEDULED,
            f"{attacker.name} attacks {defender_label} in {province}.{assault}",
            kingdom=attacker.kingdom,
            army=attacker.id,
            province=province.number,
            data=_scheduled_data(battle, "attacker", battle.defender_kingdom, battle.defender_army),
        )
    )
    if battle.defender_kingdom is not None:
        events.append(
            Event(
                PHASE,
                EventCode.BATTLE_SCHEDULED,
                f"{_capitalized(defender_label)} is attacked by {attacker.name} "
                f"({state.kingdoms[attacker.kingdom].name}) in {province}.{assault}",
                kingdom=battle.defender_kingdom,
                army=battle.defender_army if battle.defender_army is not None else battle.army_with_garrison,
                province=province.number,
                data=_scheduled_data(battle, "defender", attacker.kingdom, attacker.id),
            )
        )
    return battle


def _rogue_forces(state: TurnState, battle: BattleS, roll: int) -> str:
    """Rogue Kingdom: the forces the army rolled defend the province, for the Rogue Kingdom (its side
    is played by "any non-allied player or by a non-campaign player"). They stand instead of any
    garrison, and no battle there is an Assault: the civil war has emptied its towns and cities
    (decision 151). Returns their label."""
    row = rogue_kingdom_roll(roll)
    controller = state.provinces[battle.province].controller
    # A province lost to Civil Unrest is a Rogue Kingdom province of no kingdom: its forces fight for none.
    rogue = f"the Rogue Kingdom {state.kingdoms[controller].name}" if controller is not None else "a Rogue Kingdom"
    battle.defender_kingdom = controller
    battle.garrison_defends = True
    battle.garrison_points = row.points
    battle.assault = False
    if row.force is RogueForce.SCOUTING:
        # Decision 231: the army does not fight; its kingdom's Tomb Raiders skirmish for control.
        battle.skirmish = True
        battle.garrison_points = SCOUTING_FORCES_POINTS
        battle.notes.append(
            f"Scouting forces of {rogue}: a ruins style battle for control (Rogue Kingdom; Ruins). "
            f"{state.kingdoms[battle.attacker_kingdom].name}'s Tomb Raiders ({TOMB_RAIDERS_POINTS} points) skirmish "
            f"against a generic warband of {SCOUTING_FORCES_POINTS} points, as in a Tomb Raid (Tomb Raider Scenario & "
            "Terrain); any non-allied player or a guest plays the warband. The army does not fight: it takes the "
            "province if the Tomb Raiders win, and may not move into it this turn if they do not."
        )
        return f"the scouting forces of {rogue} (a Tomb Raiders' skirmish)"
    battle.notes.append(
        f"{row.label} of {rogue}: a {row.points:,}-point army (Rogue Kingdom). Any "
        "non-allied player or a guest plays it."
    )
    return f"the {row.label} of {rogue} ({row.points:,} points)"


def _capitalized(text: str) -> str:
    return f"{text[0].upper()}{text[1:]}"


def _scheduled_data(
    battle: BattleS, side: str, opponent_kingdom: int | None, opponent_army: int | None
) -> dict[str, Any]:
    return {
        "battle": battle.province,
        "side": side,
        "opponent_kingdom": opponent_kingdom,
        "opponent_army": opponent_army,
        "assault": battle.assault,
        "garrison_points": battle.garrison_points,
        "garrison_defenses": battle.garrison_defenses,
        "garrison_defends": battle.garrison_defends,
        "fortified_points": battle.fortified_points,
    }


def _no_battle(events: list[Event], attacker: ArmyState, province: int, text: str) -> None:
    events.append(
        Event(PHASE, EventCode.NO_BATTLE, text, kingdom=attacker.kingdom, army=attacker.id, province=province)
    )


def _is_ancient_dead(state: TurnState, kingdom: int) -> bool:
    return state.kingdoms[kingdom].ancient_dead


ANCIENT_DEAD_HANDICAP = 250  # The Ancient Dead: Armies: "always 250 points less than the army they are facing"


def _side_points(state: TurnState, battle: BattleS, side: str) -> int:
    """A side's points after all supports: its main force (the army, or the garrison with its army
    row when the garrison defends), the garrison's and fortification's support of a defending army,
    and every detachment sent to it."""
    supports = sum(s.points for s in battle.supports if s.side == side)
    if side == "attacker":
        return state.armies[battle.attacker_army].points + supports
    army = battle.defender_army
    points = state.world.army(army).points if army is not None else 0
    return points + battle.garrison_points + battle.fortified_points + supports


def _ancient_dead_size(state: TurnState, battle: BattleS, events: list[Event]) -> None:
    """The Ancient Dead: Armies: an army of the Ancient Dead is always 250 points smaller than the
    army it faces, after all supports are calculated (rule case AD2); their garrisons (the Capitol
    Garrison with the Warlord, a desert's 1,000 points) keep their size."""
    if _is_ancient_dead(state, battle.attacker_kingdom):
        side, ancient_army, opponent = "attacker", battle.attacker_army, "defender"
    elif (
        battle.defender_kingdom is not None
        and _is_ancient_dead(state, battle.defender_kingdom)
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


def _guerrilla(state: TurnState, battle: BattleS, dice: Dice, events: list[Event]) -> None:
    """Guerrilla Tactics (B4): only between two armies, on their own points; a garrison (its Elite
    Defense Force or Capitol Garrison included) never rolls and is never the target. Called before
    any Support Arrival roll of the battle. "Blundered!" ("Your saboteurs barely make it back alive
    ... +1 to your roll for first turn") speaks to the player who rolls: the smaller army has +1 on
    its roll for first turn (rule case R5; the scenario rolls it)."""
    if battle.defender_army is None or battle.garrison_defends:
        return
    attacker = state.armies[battle.attacker_army]
    defender = state.armies[battle.defender_army]
    if _is_ancient_dead(state, attacker.kingdom) or _is_ancient_dead(state, defender.kingdom):
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


def _supports(
    state: TurnState,
    battle: BattleS,
    fighting: set[int],
    supporting: set[int],
    supporters: list[ArmyState],
    dice: Dice,
    events: list[Event],
) -> None:
    """Support (B3): detachments of at most 200 points, at most 500 points a side with fortification
    and garrison, one battle per supporting army, none from an army in a battle. Support Arrival is
    rolled for each detachment that takes place. The army standing where its garrison defends
    supports it first (Battle for Towns, Cities, and Capitols), from where it stands."""
    province = state.provinces[battle.province]
    total = {
        "attacker": 0,
        # A garrison defending is the main force, not support; supporting an army it counts.
        "defender": battle.fortified_points + (0 if battle.garrison_defends else battle.garrison_points),
    }
    candidates = [(army, False) for army in supporters]
    if battle.army_with_garrison is not None:
        candidates.insert(0, (state.armies[battle.army_with_garrison], True))
    for supporter, with_garrison in candidates:
        army = state.armies[supporter.id]  # as the battles before this one left it
        side = _side(state, battle, army)
        allied = side is not None and army.kingdom not in (battle.attacker_kingdom, battle.defender_kingdom)
        if with_garrison:
            reason, why = _refusal_beside_garrison(state, army)
        else:
            reason, why = _refusal(state, army, battle, side, fighting, supporting)
        points = 0
        if reason is None and side is not None:
            # Allies: "support adjacent ally armies in battle with 300 points of core troops".
            detachment = ALLIANCE_SUPPORT_POINTS if allied else SUPPORT_DETACHMENT_MAX
            points = min(detachment, army.points, SUPPORT_MAX - total[side])
            # Each refusal gives its own reason, never another's.
            if army.points <= 0:
                reason, why = REFUSED_NO_TROOPS, "it has no troops left to send"
            elif points <= 0:
                reason, why = REFUSED_CAP, f"the {side} already has {SUPPORT_MAX} points of support"
        if reason is not None or side is None:
            events.append(
                Event(
                    PHASE,
                    EventCode.SUPPORT_REFUSED,
                    f"{army.name} does not support the battle in {province}: {why}.",
                    kingdom=army.kingdom,
                    army=army.id,
                    province=battle.province,
                    data={"battle": battle.province, "reason": reason, "side": side},
                )
            )
            continue
        supporting.add(army.id)
        total[side] += points
        if allied:
            _allied_detachment(state, battle, army, side, points, dice, events)
        else:
            _detachment(state, battle, army, side, points, dice, events)


def _allied_detachment(
    state: TurnState, battle: BattleS, army: ArmyState, side: str, points: int, dice: Dice, events: list[Event]
) -> None:
    """An ally's detachment (Allies, AL3): at most 300 points of core troops, its arrival rolled on
    the Alliance Support Arrival table (-1 for Distrusted Allies). Its own kingdom and the ally it
    supports are told (the rules reveal a supporting army to its ally, decision 139)."""
    province = state.provinces[battle.province]
    ally = battle.attacker_kingdom if side == "attacker" else battle.defender_kingdom
    alliance = state.world.alliance_between(army.kingdom, ally)
    assert alliance is not None and ally is not None
    distrusted = alliance.trust.value == "D"
    roll = dice.roll(
        "D6",
        purpose=f"{army.name}: alliance support arrival in {province}" + (" (-1 Distrusted)" if distrusted else ""),
        kingdoms=[army.kingdom, ally],
        armies=[army.id],
    ).total
    modified, row = support_arrival(roll, alliance.trust)
    label = SUPPORT_DELAYED if row.code == "unexpected-delay" else SUPPORT_ON_TIME
    battle.supports.append(
        SupportS(army=army.id, kingdom=army.kingdom, side=side, points=points, arrival=max(modified, 1))
    )
    if label == SUPPORT_DELAYED:
        battle.notes.append(
            f"{army.name}'s allied detachment is delayed: it arrives as reserves, 4+ on turn 2, 3+ on turn 3, "
            "2+ on turns 4-6, from any friendly board edge, and may not charge that turn (Alliance Support Arrival)."
        )
    rolled = f"{roll}-1={modified}" if distrusted else f"{roll}"
    words = f"{points:,} points of core troops to the {side} in {province}; Alliance Support Arrival {rolled}: {label}"
    data = {
        "battle": battle.province,
        "side": side,
        "points": points,
        "arrival": max(modified, 1),
        "roll": roll,
        "result": label,
        "ally": ally,
        "trust": alliance.trust.value,
    }
    events.append(
        Event(
            PHASE,
            EventCode.SUPPORT,
            f"{army.name} supports its ally {state.kingdoms[ally].name} with {words} (Allies).",
            kingdom=army.kingdom,
            army=army.id,
            province=battle.province,
            data=data,
        )
    )
    events.append(
        Event(
            PHASE,
            EventCode.ALLY_SUPPORT,
            f"Your ally {state.kingdoms[army.kingdom].name}'s army {army.name} sends {words} (Allies).",
            kingdom=ally,
            province=battle.province,
            data={**data, "ally": army.kingdom},
        )
    )


def _refusal_beside_garrison(state: TurnState, army: ArmyState) -> tuple[str | None, str]:
    """The army standing where its garrison defends fights beside it as a support detachment; it
    needs no order and borders nothing. The Ancient Dead's armies support no one."""
    if army.disbanded:
        return REFUSED_DISBANDED, "it was disbanded"
    if _is_ancient_dead(state, army.kingdom):
        return REFUSED_ANCIENT_DEAD, "the armies of the Ancient Dead cannot support each other"
    return None, ""


def _detachment(
    state: TurnState, battle: BattleS, army: ArmyState, side: str, points: int, dice: Dice, events: list[Event]
) -> None:
    """A detachment joins the battle: its Support Arrival roll, its record and its event."""
    province = state.provinces[battle.province]
    arrival = dice.roll(
        "D6",
        purpose=f"{army.name}: support arrival in {province}",
        kingdoms=[army.kingdom],
        armies=[army.id],
    ).total
    label = SUPPORT_ARRIVAL[arrival]
    battle.supports.append(SupportS(army=army.id, kingdom=army.kingdom, side=side, points=points, arrival=arrival))
    if label == SUPPORT_DELAYED:
        battle.notes.append(
            f"{army.name}'s detachment is delayed: it arrives as reserves, 4+ on turn 2, 3+ on turn 3, "
            "2+ on turns 4-6, from a friendly board edge, and may not charge that turn (Support Arrival)."
        )
    cut = (
        f", cut to {points:,} by the {SUPPORT_MAX}-point cap"
        if points < min(SUPPORT_DETACHMENT_MAX, army.points)
        else ""
    )
    events.append(
        Event(
            PHASE,
            EventCode.SUPPORT,
            f"{army.name} sends a detachment of {points:,} points{cut} to the {side} in {province}; "
            f"Support Arrival {arrival}: {label}.",
            kingdom=army.kingdom,
            army=army.id,
            province=battle.province,
            data={"battle": battle.province, "side": side, "points": points, "arrival": arrival, "result": label},
        )
    )


def _side(state: TurnState, battle: BattleS, army: ArmyState) -> str | None:
    """The side an army's support joins: its own kingdom's, else its ally's (Allies: "Armies may
    support adjacent ally armies in battle")."""
    if army.kingdom == battle.attacker_kingdom:
        return "attacker"
    if army.kingdom == battle.defender_kingdom:
        return "defender"
    if state.allied(army.kingdom, battle.attacker_kingdom):
        return "attacker"
    if state.allied(army.kingdom, battle.defender_kingdom):
        return "defender"
    return None


def _supporters_by_province(state: TurnState) -> dict[int, list[ArmyState]]:
    """Armies ordered to support a battle (Support, or Move with support), by the province
    supported and then by id, so the 500-point cap falls the same way every time. Built once
    per phase: scanning every army for every battle grew with armies x battles."""
    index: dict[int, list[ArmyState]] = {}
    for army_id in sorted(state.armies):
        order = state.orders.get(army_id)
        if order is not None and order.support is not None and order.kind in (OrderKind.SUPPORT, OrderKind.MOVE):
            index.setdefault(order.support, []).append(state.armies[army_id])
    return index


def _refusal(
    state: TurnState,
    army: ArmyState,
    battle: BattleS,
    side: str | None,
    fighting: set[int],
    supporting: set[int],
) -> tuple[str | None, str]:
    """Why `army` cannot support `battle` (a reason code and the words), or (None, "")."""
    if army.id in supporting:
        return REFUSED_ALREADY_SUPPORTING, "it already supports another battle; each army supports one"
    if army.id in fighting:
        return REFUSED_IN_BATTLE, "it is in a battle itself, and armies in battles may not send support"
    if army.disbanded:
        return REFUSED_DISBANDED, "it was disbanded"
    if army.co_occupying:
        return REFUSED_CO_OCCUPYING, "it shares a friendly army's province and does not count as being there"
    if _is_ancient_dead(state, army.kingdom):
        return REFUSED_ANCIENT_DEAD, "the armies of the Ancient Dead cannot support each other"
    if side is None:
        return REFUSED_NO_SIDE, "none of its kingdom's forces fights there"
    # The start province is not in the state. A supporter that stayed put must border the battle
    # now; one that moved (it stands in its Move's target) was checked against its start province
    # when the orders were normalised, so its support is accepted from wherever it ended.
    order = state.orders[army.id]
    moved = order.kind is OrderKind.MOVE and order.target == army.province
    if not moved and not state.adjacent(army.province, battle.province):
        return REFUSED_NOT_ADJACENT, f"{state.provinces[army.province]} does not border it"
    return None, ""


def _defended_obstacles(state: TurnState, battle: BattleS, dice: Dice, events: list[Event]) -> None:
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


def _setup_notes(state: TurnState, battle: BattleS, contact: Contact) -> None:
    """The set-up modifiers of 6. Fight Battles and Fortify, for the players at the table."""
    fortified = battle.army_with_garrison if battle.garrison_defends else battle.defender_army
    if fortified is None:
        return
    defender = state.armies[fortified]
    attacker = state.armies[battle.attacker_army]
    if battle.fortified_points:
        battle.notes.append(
            f"{defender.name} is fortified: +{FORTIFIED_POINTS} points of core troops; it may remove one piece of "
            f"terrain, places {battle.defended_obstacles} piece(s) of defenses and chooses table side(s) after "
            f"terrain; {attacker.name} has +1 to go first (Fortify)."
        )
    if battle.garrison_defends:
        return  # the garrison did not move; the scenario sheet says who chooses sides
    if not contact.both_moved:
        battle.notes.append(f"{defender.name} did not move and is the defender: +1 to choose sides.")
        return
    supported = {s.side for s in battle.supports}
    if len(supported) == 1:
        (side,) = supported
        backed, alone = (attacker, defender) if side == "attacker" else (defender, attacker)
        battle.notes.append(
            f"Both armies moved in: {backed.name} is supported (+1 to choose sides), {alone.name} is not "
            "(+1 to go first)."
        )


def _supports_without_battle(state: TurnState, battles: list[BattleS], fighting: set[int], events: list[Event]) -> None:
    """A support order names a province where no battle is fought: tell the player it did nothing."""
    fought = {b.province for b in battles}
    for army in sorted(state.armies.values(), key=lambda a: a.id):
        order = state.orders.get(army.id)
        if order is None or order.support is None or order.kind not in (OrderKind.SUPPORT, OrderKind.MOVE):
            continue
        if order.support in fought or army.disbanded or army.id in fighting:
            continue
        events.append(
            Event(
                PHASE,
                EventCode.SUPPORT_NO_BATTLE,
                f"{army.name}'s support goes unused: no battle is fought in {state.provinces[order.support]}.",
                kingdom=army.kingdom,
                army=army.id,
                province=order.support,
                data={"battle": order.support},
            )
        )
