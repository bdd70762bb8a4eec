"""6. Fight Battles: one battle for each contact the orders made, with its defender, and the
set-up modifiers for the players at the table; the battle's garrison, Guerrilla Tactics, supports,
Defended Obstacles and the Ancient Dead's size are their sections' modules (pure Python)."""

from __future__ import annotations

from typing import Any

from kernel.dice import Dice
from kernel.event_codes import EventCode
from kernel.events import Event
from rulebook.player_issues.rogue_kingdom import (
    SCOUTING_FORCES_POINTS,
    TOMB_RAIDERS_POINTS,
    RogueForce,
    rogue_kingdom_roll,
)
from rulebook.turn.fight_battles import PHASE
from rulebook.turn.fight_battles.ancient_dead import ancient_dead_size, is_ancient_dead
from rulebook.turn.fight_battles.defended_obstacles import FORTIFIED_POINTS, defended_obstacles
from rulebook.turn.fight_battles.guerrilla_tactics import guerrilla_tactics
from rulebook.turn.fight_battles.rival_missions import rival_mission_battles
from rulebook.turn.fight_battles.support import SUPPORT_MAX, supporters_by_province, supports, supports_without_battle
from rulebook.turn.fight_battles.tomb_raid import raid_with_battle, tomb_raid_battle
from rulebook.turn.fight_battles.towns_cities_capitols import (
    Garrison,
    garrison_as_defender,
    garrison_chosen,
    province_garrison,
    settlement_battle,
)
from rulebook.turn.state import BattleS, Contact, TurnState
from rulebook.world import ArmyState


def build_battles(state: TurnState, contacts: list[Contact], dice: Dice, events: list[Event]) -> list[BattleS]:
    """Phase 6: one battle for each contact, in the order given, with its defender (the army, or the
    garrison when it defends alone or its kingdom chose it), garrison support, fortification,
    Guerrilla Tactics and supports. Rolls, per battle: Guerrilla Tactics, then Support Arrival for
    each detachment (the army standing with a garrison that defends first), then Defended Obstacles.
    Guerrilla losses are taken off the larger army's list (its points are the list's). Appends an
    event for every battle (one per kingdom involved), every support given or refused, and every
    roll."""
    # Armies in any battle may neither send support nor have it go out from them (B3).
    # An army beside its ally's side in the battle's province is in that battle (decisions 550, 551).
    fighting = (
        {c.attacker for c in contacts}
        | {c.defender for c in contacts if c.defender is not None}
        | {a for c in contacts for a in c.beside}
    )
    supporting: set[int] = set()
    supporters = supporters_by_province(state)
    battles: list[BattleS] = []
    raided: set[tuple[int, int]] = set()  # (kingdom, ruin): the Tomb Raid goes with one battle
    for contact in contacts:
        battle = _schedule(state, contact, events, raided)
        if battle is None:
            continue
        battles.append(battle)
        if battle.skirmish:
            continue  # the Tomb Raiders' skirmish: no army fights it, so none supports it (decision 231)
        guerrilla_tactics(state, battle, dice, events)
        supports(state, battle, fighting, supporting, supporters.get(battle.province, []), dice, events)
        defended_obstacles(state, battle, dice, events)
        ancient_dead_size(state, battle, events)
        _setup_notes(state, battle, contact)
    supports_without_battle(state, [b for b in battles if not b.skirmish], fighting, events)
    # Reconnaissance and Sabotage: the missions against a rival, skirmishes of no army (after the armies'
    # battles, so a support finds its battle among those alone).
    battles.extend(rival_mission_battles(state, events))
    return battles


def _schedule(state: TurnState, contact: Contact, events: list[Event], raided: set[tuple[int, int]]) -> BattleS | None:
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
        assault=settlement_battle(state, province.number),
        beside=contact.beside,
    )
    if contact.raid:
        defender_label = tomb_raid_battle(state, battle, contact.waiting)
    elif contact.rogue_roll is not None:
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
        # Its ally's town: the garrison fights beside the army defending it as beside its own kingdom's
        # (decision 580); only its own kingdom's army may send the garrison to the table instead.
        allied = (
            garrison is not None
            and not garrison.desert
            and garrison.kingdom is not None
            and state.allied(garrison.kingdom, defender.kingdom)
        )
        if garrison is not None and own and garrison_chosen(state, defender, garrison):
            garrison_as_defender(battle, garrison)
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
            if garrison is not None and (own or allied):
                # The garrison supports the army in its own province, within the 500-point cap. Its
                # local troops alone fill the cap: an Elite Defense Force fights when the garrison does.
                battle.garrison_defenses = garrison.defenses
                battle.garrison_points = min(garrison.points, SUPPORT_MAX - battle.fortified_points)
                whose = f" ({state.kingdoms[defender.kingdom].name}, its ally)" if allied else ""
                battle.notes.append(
                    f"{_capitalized(garrison.label)} ({garrison.points:,} points) supports "
                    f"{defender.name}{whose} with {battle.garrison_points:,} points (500-point support cap) and "
                    f"{garrison.defenses} piece(s) of defenses."
                )
                if allied:
                    _garrison_beside_ally(state, battle, garrison, defender, attacker, events)
    elif garrison is not None and garrison.kingdom != attacker.kingdom:
        if garrison.desert and is_ancient_dead(state, attacker.kingdom):
            _no_battle(
                events,
                attacker,
                province.number,
                f"{attacker.name} is of the Ancient Dead: {garrison.label} does not fight it.",
            )
            return None
        garrison_as_defender(battle, garrison)
        defender_label = garrison.label
    else:
        _no_battle(events, attacker, province.number, f"{attacker.name} finds no one to fight in {province}.")
        return None

    for army_id in contact.beside:
        standing = state.armies[army_id]
        who = f"{standing.name} ({state.kingdoms[standing.kingdom].name})"
        if battle.skirmish:
            # Scouting forces: the Tomb Raiders skirmish and no army fights (decision 231).
            battle.notes.append(
                f"{who} entered {province} with its ally: the skirmish decides for both; if it is lost, neither "
                "may move into the province this turn (Allies; Rogue Kingdom)."
            )
            continue
        battle.notes.append(
            f"{who} stands in {province} with its ally: it fights beside it with a detachment from where it "
            "stands, and leaves the province if its side must (Allies)."
        )
    raid_with_battle(state, battle, raided)
    assault = " It is an Assault." if battle.assault else ""
    text = f"{attacker.name} attacks {defender_label} in {province}.{assault}"
    if contact.raid:
        text = f"{attacker.name} waits on the Tomb Raid at {province}: it moves in if the raiders succeed (Tomb Raid)."
    events.append(
        Event(
            PHASE,
            EventCode.BATTLE_SCHEDULED,
            text,
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


def _garrison_beside_ally(
    state: TurnState,
    battle: BattleS,
    garrison: Garrison,
    defender: ArmyState,
    attacker: ArmyState,
    events: list[Event],
) -> None:
    """The town's garrison fights beside its kingdom's ally's army defending it (decision 580): the
    battle is the ally's, so the town's kingdom is told here that its garrison fights (the rules
    reveal an army in its province to it, decision 139), and a Poison Well against it finds its
    garrison force in this battle (`garrison_kingdom`)."""
    assert garrison.kingdom is not None
    battle.garrison_kingdom = garrison.kingdom
    province = state.provinces[battle.province]
    ally = state.kingdoms[defender.kingdom].name
    events.append(
        Event(
            PHASE,
            EventCode.GARRISON_BESIDE_ALLY,
            f"{_capitalized(garrison.label)} fights beside your ally {ally}'s army {defender.name} with "
            f"{battle.garrison_points:,} points of its {garrison.points:,} and its defenses: {attacker.name} "
            f"({state.kingdoms[attacker.kingdom].name}) attacks it there (Allies; Battle for Towns, Cities, and "
            "Capitols).",
            kingdom=garrison.kingdom,
            province=province.number,
            data={"ally": defender.kingdom, "battle": province.number, "points": battle.garrison_points},
        )
    )


def _rogue_forces(state: TurnState, battle: BattleS, roll: int) -> str:
    """Rogue Kingdom: the forces the army rolled defend the province, for the Rogue Kingdom (its side
    is played by "any non-allied player or by a non-campaign player"). They stand instead of any
    garrison; a battle for its town or city is an Assault like any other ("The Engagement Type is
    always Assault"), but the scouting forces' skirmish is a ruins style battle, never an Assault
    (decision 383). Returns their label."""
    row = rogue_kingdom_roll(roll)
    controller = state.provinces[battle.province].controller
    # A province lost to Civil Unrest is a Rogue Kingdom province of no kingdom: its forces fight for none.
    rogue = f"the Rogue Kingdom {state.kingdoms[controller].name}" if controller is not None else "a Rogue Kingdom"
    battle.defender_kingdom = controller
    battle.garrison_defends = True
    battle.garrison_points = row.points
    if row.force is RogueForce.SCOUTING:
        # Decision 231: the army does not fight; its kingdom's Tomb Raiders skirmish for control, on
        # the ruins' terms (the scenario's settlement is "ruins"): not the Assault of a town's battle.
        battle.skirmish = True
        battle.assault = False
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
        "skirmish": battle.skirmish,
        "mission": battle.mission,
    }


def _no_battle(events: list[Event], attacker: ArmyState, province: int, text: str) -> None:
    events.append(
        Event(PHASE, EventCode.NO_BATTLE, text, kingdom=attacker.kingdom, army=attacker.id, province=province)
    )


def _setup_notes(state: TurnState, battle: BattleS, contact: Contact) -> None:
    """The set-up modifiers of 6. Fight Battles and Fortify, for the players at the table."""
    fortified = battle.army_with_garrison if battle.garrison_defends else battle.defender_army
    if fortified is None:
        return
    defender = state.armies[fortified]
    assert battle.attacker_army is not None  # a contact's battle: an army attacks
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
    if battle.garrison_points:
        # Support: "up to a maximum of 500 points of support (including ... Garrisons)": the garrison
        # supporting the army that defends its town supports it, as the scenario sheet counts it.
        supported.add("defender")
    if len(supported) == 1:
        (side,) = supported
        backed, alone = (attacker, defender) if side == "attacker" else (defender, attacker)
        battle.notes.append(
            f"Both armies moved in: {backed.name} is supported (+1 to choose sides), {alone.name} is not "
            "(+1 to go first)."
        )
