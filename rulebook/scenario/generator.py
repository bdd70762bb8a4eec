"""The Scenario Generator (Appendix), all eight steps, for one battle (pure Python).

Each step's result is kept structurally (stored on the battle as JSON) and in words for the
scenario sheet. The Archetype Abilities that set terms of the scenario are applied from the
Generals' abilities; the same effect on both sides cancels (Character Archetypes and Advancement).
Rule cases SG1-SG4.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field, fields, is_dataclass, replace
from typing import Any, NamedTuple

from kernel.dice import Dice
from rulebook.scenario.assault_sides import assault_sides
from rulebook.scenario.tables import (
    ADVANCE,
    ALWAYS_ASSAULT,
    ASSAULT,
    ASSAULT_DEFENDER_CHOOSES_EDGE,
    ASSAULT_DEFENDER_EDGE,
    BRING_ME_VICTORY,
    CHOOSABLE_OBJECTIVES,
    DEPLOYMENT_MAPS,
    DO_AS_YOU_SEE_FIT,
    ENGAGEMENT_TYPE,
    GAME_LENGTH,
    KILL_THEM_ALL,
    MAJOR_EVENTS_TABLE,
    MEETING,
    MINOR_EVENT_TOTAL,
    MINOR_EVENTS_TABLE,
    OR_ELSE_MIN,
    OR_ELSE_OBJECTIVES,
    RIVER,
    RUINS_TEXT,
    SCENARIO_OBJECTIVE_TABLE,
    SECRET_CHOICES,
    SECRET_OBJECTIVES,
    SETTLEMENT_MODIFIER,
    TERRAIN_MODIFIERS,
    TERRAIN_PIECE,
    TERRAIN_PIECES_COUNT,
    TOMB_RAIDER_DEFENDER_EDGE,
    TOMB_RAIDER_OR_ELSE,
    TOMB_RAIDER_OR_ELSE_CHOSEN,
    TOMB_RAIDER_TABLE_NOTE,
)

# Archetype Abilities that set terms of the scenario. An ability may set more than one term
# (Dictate Terms: the map and the first turn), so each term is an effect of its own: the same
# effect on both sides cancels, the ability's other effects stand (Character Archetypes and
# Advancement: "the same ability (or two different Abilities with the same effect)").
NO_OR_ELSE = "no-or-else"
CHOOSE_OBJECTIVE = "choose-objective"
OBJECTIVE_ADVANCE = "objective-advance"
OBJECTIVE_KILL_THEM_ALL = "objective-kill-them-all"
CHOOSE_ARMY_SIZE = "choose-army-size"
SET_UP_TERRAIN = "set-up-terrain"
NOMINATE_NORTH = "nominate-north"
CHOOSE_DEPLOYMENT_MAP = "choose-deployment-map"
CHOOSE_DEPLOYMENT_ZONE = "choose-deployment-zone"
CHOOSE_FIRST_TURN = "choose-first-turn"
REVEAL_OBJECTIVE = "reveal-objective"
ASSAULT_ROLES_ROLL = "Scenario: who attacks in the Assault"  # both armies moved in, neither holds it
# effect -> (what it lets the side do, what cancels when both sides have it), in sheet order.
SCENARIO_EFFECTS: dict[str, tuple[str, str]] = {
    NO_OR_ELSE: ('never fights toward the "Or Else!" special rule: it is disregarded', 'the "Or Else!" rule'),
    CHOOSE_OBJECTIVE: ("may choose the scenario objective", "the choice of scenario objective"),
    OBJECTIVE_ADVANCE: ("may replace the objective with Advance", "replacing the objective with Advance"),
    OBJECTIVE_KILL_THEM_ALL: (
        "may replace the objective with Kill them all!",
        "replacing the objective with Kill them all!",
    ),
    CHOOSE_ARMY_SIZE: (
        "may choose the size of the armies for the battle, one size for both armies, not below 1,000 points "
        "nor above the smaller army's size; models left behind do not count as casualties and rejoin their "
        "armies after the battle",
        "the choice of army size",
    ),
    SET_UP_TERRAIN: ("may set up the terrain in any manner (within reason)", "setting up the terrain"),
    NOMINATE_NORTH: (
        "may nominate which table edge represents north after terrain is set up",
        "nominating north",
    ),
    CHOOSE_DEPLOYMENT_MAP: ("may choose which Deployment Map to use", "the choice of Deployment Map"),
    CHOOSE_DEPLOYMENT_ZONE: ("may choose which deployment zone to deploy in", "the choice of deployment zone"),
    CHOOSE_FIRST_TURN: ("may choose to go first", "the choice to go first"),
    REVEAL_OBJECTIVE: ("sees the opponent's secret objective revealed", "revealing the secret objectives"),
}
# ability -> its effects.
SCENARIO_ABILITIES: dict[str, tuple[str, ...]] = {
    "Noblesse Oblige": (NO_OR_ELSE,),
    "Pick Your Fights": (CHOOSE_OBJECTIVE,),
    "Chain of Command": (CHOOSE_OBJECTIVE,),
    "Raider": (OBJECTIVE_ADVANCE,),
    "Murderous": (OBJECTIVE_KILL_THEM_ALL,),
    "Even the Odds": (CHOOSE_ARMY_SIZE,),
    "Lay of the Land": (SET_UP_TERRAIN,),
    "Absolute Direction": (NOMINATE_NORTH, CHOOSE_DEPLOYMENT_ZONE),
    "Dictate Terms": (CHOOSE_DEPLOYMENT_MAP, CHOOSE_FIRST_TURN),
    "Choose Your Ground": (CHOOSE_DEPLOYMENT_MAP, CHOOSE_DEPLOYMENT_ZONE),
    "Advantage of Ground": (CHOOSE_DEPLOYMENT_ZONE,),
    "Military Intelligence": (REVEAL_OBJECTIVE,),
    "Scrying": (REVEAL_OBJECTIVE,),
}
# Both sides not fighting toward "Or Else!" agree rather than cancel.
NOT_CANCELLED: frozenset[str] = frozenset({NO_OR_ELSE})


class ActiveEffect(NamedTuple):
    side: str  # "attacker" or "defender"
    name: str  # the side's name
    abilities: tuple[str, ...]  # the General's abilities giving the effect


@dataclass(frozen=True)
class ScenarioSide:
    name: str
    kingdom: int | None = None
    army: int | None = None
    general_abilities: frozenset[str] = frozenset()
    supported: bool = False
    fortified: bool = False
    # Guerrilla Tactics, Blundered!: the saboteurs blundered against this side: +1 to its roll for
    # first turn (rule case R5).
    blunder_bonus: bool = False
    # Painting Counts: the organizer marked the army painted: +1 to its rolls for first turn and
    # for picking table sides.
    painted: bool = False


@dataclass(frozen=True)
class ScenarioSetup:
    terrain: str  # plains, forest, mountains, marshland, desert
    settlement: str  # none, town, city, capitol, ruins
    attacker: ScenarioSide
    defender: ScenarioSide
    defending: bool = True  # False: both armies moved in at the same time
    # The Tomb Raiders' skirmish (Rogue Kingdom, scouting forces; decision 231): the Scenario
    # Generator with the rules of Tomb Raider Scenario & Terrain (decision 352).
    skirmish: bool = False
    # The Tomb Raiders' mission the battle plays ("tomb-raid": a Tomb Raid on the ruins, decision 424),
    # and whether the ruin is a sacked town's (its opponent the ruin's guard, decision 409).
    mission: str = ""
    ruin_sacked: bool = False
    # Both armies moved in, an Assault's Attacker (decision 625): "attacker" or "defender", the side that holds the
    # province defends it; "none", a roll-off; "given", the sides as named (the stand-alone generator's).
    holder: str = "given"


@dataclass(frozen=True)
class RollOff:
    """A contest of dice (ties rerolled): each round's totals with modifiers, and the winner."""

    attacker_rolls: list[int]
    defender_rolls: list[int]
    attacker_modifier: int
    defender_modifier: int
    winner: str  # "attacker" or "defender"

    def as_json(self) -> dict[str, Any]:
        """The roll-off as a scenario stores it: what `dataclasses.asdict` gives (`_plain`)."""
        return _plain(self)  # type: ignore[no-any-return]


@dataclass(frozen=True)
class Scenario:
    attacker: str
    defender: str
    terrain: str
    settlement: str
    engagement: dict[str, Any]  # name, roll (None when forced), forced
    objective: dict[str, Any]  # name, roll, or_else, or_else_roll, secret, notes, may_choose
    terrain_pieces: dict[str, Any]  # count_roll, count, pieces, notes
    deployment: dict[str, Any]  # roll, map, notes
    special: dict[str, Any]  # rolls, kind (major/minor/none), name, text
    sides: dict[str, Any]  # who chooses sides: roll-off or notes
    deploy: dict[str, Any]  # who deploys first
    first_turn: dict[str, Any]  # roll-off with modifiers, notes
    game_length: dict[str, Any]  # roll, turns (0: random)
    abilities: list[str] = field(default_factory=list)  # notes on abilities applied or cancelled
    # Tomb Raider Scenario & Terrain applies (a 4 by 4 foot table; absent from scenarios stored
    # before it was kept, which were all battles of armies).
    skirmish: bool = False
    # The Tomb Raiders' mission played with it ("tomb-raid"; absent from scenarios stored before it).
    mission: str = ""
    ruin_sacked: bool = False
    # Both armies moved in and it is an Assault: who attacks and why (decision 625): roll_off (None
    # when the province's holder defends) and text; None otherwise and in scenarios stored before it.
    assault_roles: dict[str, Any] | None = None

    def as_json(self) -> dict[str, Any]:
        """The scenario as stored on its battle: what `dataclasses.asdict` gives, built four to five
        times faster (`_plain`; a turn's hundreds of battles each store one)."""
        return _plain(self)  # type: ignore[no-any-return]

    def as_json_of_new(self) -> dict[str, Any]:
        """`as_json` for a scenario `scenario_generate` has just made, to be stored and dropped: its
        parts are already plain (dicts, lists, texts and numbers built for it alone), so they are
        the stored JSON's own rather than copied (a large turn stores hundreds)."""
        return {name: getattr(self, name) for name in _SCENARIO_FIELDS}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Scenario:
        return cls(**data)


_SCENARIO_FIELDS = tuple(f.name for f in fields(Scenario))
_ATOMS = frozenset({int, str, bool, float, type(None)})


def _plain(value: Any) -> Any:
    """`value` as `dataclasses.asdict` would give it (dataclasses as dicts, the containers copied, the
    rest deep-copied), without its generic checks and a deep copy of every number and text."""
    kind = type(value)
    if kind in _ATOMS:
        return value
    if kind is dict:
        return {_plain(k): _plain(v) for k, v in value.items()}
    if kind is list:
        return [_plain(v) for v in value]
    if kind is tuple:
        return tuple(_plain(v) for v in value)
    if is_dataclass(value) and not isinstance(value, type):
        return {f.name: _plain(getattr(value, f.name)) for f in fields(value)}
    return copy.deepcopy(value)  # a named tuple or a set: as asdict leaves it


def _the_defender(setup: ScenarioSetup) -> str:
    """'Brython: Guard (the Defender)'; 'The Defender' for the stand-alone generator's side of that name."""
    name = setup.defender.name
    return "The Defender" if name == "Defender" else f"{name} (the Defender)"


def _ids(side: ScenarioSide) -> dict[str, list[int]]:
    return {
        "kingdoms": [side.kingdom] if side.kingdom is not None else [],
        "armies": [side.army] if side.army is not None else [],
    }


def _ability_effects(setup: ScenarioSetup) -> tuple[dict[str, list[ActiveEffect]], list[str]]:
    """Each effect -> the sides it applies to, after cancelling; and the notes for the sheet.

    The same effect on both sides cancels (except Noblesse Oblige, on which both sides agree);
    the abilities' other effects stand. An ability twice on one side does not stack."""
    by_effect: dict[str, dict[str, list[str]]] = {}
    for key, side in (("attacker", setup.attacker), ("defender", setup.defender)):
        for ability in sorted(side.general_abilities):
            for effect in SCENARIO_ABILITIES.get(ability, ()):
                by_effect.setdefault(effect, {}).setdefault(key, []).append(ability)
    active: dict[str, list[ActiveEffect]] = {}
    cancelled: set[str] = set()
    notes: list[str] = []
    for effect, (_, what) in SCENARIO_EFFECTS.items():
        by_side = by_effect.get(effect, {})
        if len(by_side) == 2 and effect not in NOT_CANCELLED:
            cancelled.add(effect)
            names = ", ".join(sorted({a for abilities in by_side.values() for a in abilities}))
            notes.append(f"Both Generals have {names}: the abilities cancel each other out ({what}).")
            continue
        for key, abilities in by_side.items():
            side = setup.attacker if key == "attacker" else setup.defender
            active.setdefault(effect, []).append(ActiveEffect(key, side.name, tuple(abilities)))
    for side in (setup.attacker, setup.defender):
        for ability in sorted(side.general_abilities):
            standing = [SCENARIO_EFFECTS[e][0] for e in SCENARIO_ABILITIES.get(ability, ()) if e not in cancelled]
            if standing:
                notes.append(f"{side.name} ({ability}) {' and '.join(standing)}.")
    return active, notes


def _named(effect: ActiveEffect) -> str:
    return ", ".join(effect.abilities)


def _roll_off(
    dice: Dice,
    setup: ScenarioSetup,
    purpose: str,
    *,
    attacker_dice: str = "D6",
    attacker_modifier: int = 0,
    defender_modifier: int = 0,
) -> RollOff:
    attacker_rolls: list[int] = []
    defender_rolls: list[int] = []
    attacker_ids, defender_ids = _ids(setup.attacker), _ids(setup.defender)
    while True:
        a = dice.roll(attacker_dice, purpose=f"{purpose}: {setup.attacker.name}", **attacker_ids).total
        d = dice.roll("D6", purpose=f"{purpose}: {setup.defender.name}", **defender_ids).total
        attacker_rolls.append(a)
        defender_rolls.append(d)
        if a + attacker_modifier != d + defender_modifier:
            winner = "attacker" if a + attacker_modifier > d + defender_modifier else "defender"
            return RollOff(attacker_rolls, defender_rolls, attacker_modifier, defender_modifier, winner)


def scenario_generate(setup: ScenarioSetup, dice: Dice) -> Scenario:
    """Roll every step of the Scenario Generator for a battle."""
    both = {
        "kingdoms": _ids(setup.attacker)["kingdoms"] + _ids(setup.defender)["kingdoms"],
        "armies": _ids(setup.attacker)["armies"] + _ids(setup.defender)["armies"],
    }

    # 1. Engagement type: a battle for a town, city or capitol is always an Assault (SG1).
    engagement: dict[str, Any]
    if setup.settlement in ALWAYS_ASSAULT:
        engagement = {"name": ASSAULT, "roll": None, "forced": True}
    else:
        roll = dice.d6(purpose="Scenario: engagement type", **both)
        engagement = {"name": ENGAGEMENT_TYPE[roll], "roll": roll, "forced": False}
    kind: str = engagement["name"]
    # Both armies moved in: the Assault's Attacker is settled before anything names him (decision 625).
    assault_roles: dict[str, Any] | None = None
    if kind == ASSAULT and not setup.defending and setup.holder != "given":
        off = None if setup.holder in ("attacker", "defender") else _roll_off(dice, setup, ASSAULT_ROLES_ROLL)
        swap, assault_roles = assault_sides(setup.attacker.name, setup.defender.name, setup.holder, off)
        setup = replace(setup, attacker=setup.defender, defender=setup.attacker) if swap else setup
    active, ability_notes = _ability_effects(setup)

    # 2. Objective (2D6 on the engagement type's column); Capture and Vengeance roll for "Or Else!".
    roll = dice.two_d6(purpose=f"Scenario: objective ({kind})", **both)
    name = SCENARIO_OBJECTIVE_TABLE[kind][roll]
    objective: dict[str, Any] = {
        "name": name,
        "roll": roll,
        "or_else": None,
        "or_else_roll": None,
        "secret": name in SECRET_OBJECTIVES,
        "notes": [],
    }
    if name in OR_ELSE_OBJECTIVES and setup.skirmish:
        # Tomb Raider Scenario & Terrain, 2.: no roll, it "automatically becomes" an Or Else! objective.
        objective["or_else"] = True
        objective["notes"].append(TOMB_RAIDER_OR_ELSE)
    elif name in OR_ELSE_OBJECTIVES:
        or_else_roll = dice.d6(purpose=f'Scenario: "Or Else!" ({name})', **both)
        objective["or_else_roll"] = or_else_roll
        objective["or_else"] = or_else_roll >= OR_ELSE_MIN
    if name == BRING_ME_VICTORY:
        objective["or_else"] = True
    if objective["secret"]:
        objective["notes"].append("A secret choice left to each player: note it, then reveal it.")
    if name == DO_AS_YOU_SEE_FIT and setup.skirmish:
        objective["notes"].append(TOMB_RAIDER_OR_ELSE_CHOSEN)
    # Raider and Murderous are different effects: they do not cancel, each is its player's choice.
    for effect, target in ((OBJECTIVE_ADVANCE, ADVANCE), (OBJECTIVE_KILL_THEM_ALL, KILL_THEM_ALL)):
        for e in active.get(effect, []) if name != target else []:
            objective["notes"].append(f"{e.name} may replace the objective with {target} ({_named(e)}).")
    for e in active.get(CHOOSE_OBJECTIVE, []):
        objective["notes"].append(f"{e.name} may choose the scenario objective instead ({_named(e)}).")
    for e in active.get(REVEAL_OBJECTIVE, []):
        if objective["secret"]:
            objective["notes"].append(f"The opponent must reveal his secret objective to {e.name} ({_named(e)}).")
    # The objectives a player may take instead (the secret choice, an ability's): the sheet prints each
    # one's Description of Objectives, since the rolled one's "Per chosen objective" needs them.
    may_choose = set(SECRET_CHOICES.get(name, ()))
    if active.get(CHOOSE_OBJECTIVE):
        may_choose.update(CHOOSABLE_OBJECTIVES)
    if active.get(OBJECTIVE_ADVANCE):
        may_choose.add(ADVANCE)
    if active.get(OBJECTIVE_KILL_THEM_ALL):
        may_choose.add(KILL_THEM_ALL)
    objective["may_choose"] = [n for n in CHOOSABLE_OBJECTIVES if n in may_choose and n != name]
    if objective["or_else"] and active.get(NO_OR_ELSE):
        names = " and ".join(e.name for e in active[NO_OR_ELSE])
        objective["or_else"] = False
        objective["notes"].append(f'Noblesse Oblige ({names}): the "Or Else!" special rule is disregarded.')

    # 3. Terrain: the province's modifiers first, then the pieces rolled one by one.
    terrain = _terrain(setup, dice, both)
    for e in active.get(SET_UP_TERRAIN, []):
        terrain["notes"].append(f"{e.name} may set up the terrain as he wishes ({_named(e)}).")
    for e in active.get(NOMINATE_NORTH, []):
        terrain["notes"].append(
            f"{e.name} may nominate which table edge represents north after terrain is set up ({_named(e)})."
        )

    # 4. Deployment map (D3).
    roll = dice.d3(purpose=f"Scenario: deployment map ({kind})", **both)
    deployment: dict[str, Any] = {"roll": roll, "map": DEPLOYMENT_MAPS[kind][roll], "notes": []}
    for e in active.get(CHOOSE_DEPLOYMENT_MAP, []):
        deployment["notes"].append(f"Rolled {roll}; {e.name} may choose the Deployment Map instead ({_named(e)}).")
    for e in active.get(CHOOSE_DEPLOYMENT_ZONE, []):
        deployment["notes"].append(f"{e.name} may choose which deployment zone to take ({_named(e)}).")
    # The rulebook's note under Deploy Armies, Assault, printed here once and only where it applies.
    edge_note = TOMB_RAIDER_DEFENDER_EDGE if setup.skirmish else ASSAULT_DEFENDER_EDGE
    if setup.skirmish:
        deployment["notes"].append(TOMB_RAIDER_TABLE_NOTE)
    if kind == ASSAULT and roll in ASSAULT_DEFENDER_CHOOSES_EDGE:
        deployment["notes"].append(f"In {deployment['map']} {edge_note}.")
    elif kind == ASSAULT and active.get(CHOOSE_DEPLOYMENT_MAP):
        maps = " or ".join(DEPLOYMENT_MAPS[ASSAULT][n] for n in ASSAULT_DEFENDER_CHOOSES_EDGE)
        deployment["notes"].append(f"If {maps} is chosen instead, {edge_note}.")

    # 5. Special circumstances: each player's D6.
    a = dice.d6(purpose=f"Scenario: special circumstances: {setup.attacker.name}", **_ids(setup.attacker))
    d = dice.d6(purpose=f"Scenario: special circumstances: {setup.defender.name}", **_ids(setup.defender))
    if a == d:
        event, text = MAJOR_EVENTS_TABLE[a]
        special = {"rolls": [a, d], "kind": "major", "name": event, "text": text}
    elif a + d == MINOR_EVENT_TOTAL:
        event, text = MINOR_EVENTS_TABLE[min(a, d)]
        special = {"rolls": [a, d], "kind": "minor", "name": event, "text": text}
    else:
        special = {"rolls": [a, d], "kind": "none", "name": "None", "text": "No special circumstances for the battle."}

    # Choosing sides (6. Fight Battles, Fortify).
    sides = _sides(setup, dice, defender_chooses_edge=kind == ASSAULT and roll in ASSAULT_DEFENDER_CHOOSES_EDGE)

    # 6. Deploy armies.
    if kind == ASSAULT:
        deploy: dict[str, Any] = {
            "roll_off": None,
            "first": "defender",
            "text": f"{_the_defender(setup)} deploys first.",
        }
    else:
        off = _roll_off(dice, setup, "Scenario: deployment roll-off")
        winner = setup.attacker.name if off.winner == "attacker" else setup.defender.name
        if kind == MEETING:
            # The winner does not choose the order: he chooses an entry point and moves on first.
            deploy = {
                "roll_off": off.as_json(),
                "first": off.winner,
                "text": f"{winner} scores highest, chooses an entry point and moves a unit onto the table first; "
                "then the players alternate, a unit at a time, the other player from the other entry point.",
            }
        else:
            deploy = {
                "roll_off": off.as_json(),
                "first": None,
                "text": f"{winner} wins the roll and chooses to deploy first or second.",
            }

    # 7. First turn: D6 each (2D6 for the Assault attacker), ties rerolled, with the modifiers the
    # rulebook names (cumulative, 6. Fight Battles): the unsupported army when both moved in and one
    # was supported (6. Fight Battles), the attacker of a fortified army (Fortify), the side a
    # Guerrilla Tactics roll blundered against (Blundered!); deploying first is settled at the table.
    first_notes: list[str] = []
    attacker_modifier = defender_modifier = 0
    if not setup.defending and setup.attacker.supported != setup.defender.supported:
        if setup.attacker.supported:
            defender_modifier += 1
            first_notes.append(f"{setup.defender.name} is unsupported: +1 to go first (6. Fight Battles).")
        else:
            attacker_modifier += 1
            first_notes.append(f"{setup.attacker.name} is unsupported: +1 to go first (6. Fight Battles).")
    if setup.defending and setup.defender.fortified:
        attacker_modifier += 1
        first_notes.append(f"{setup.attacker.name} attacks a fortified army: +1 to go first (Fortify).")
    # The side's own +1s to its roll for first turn, each with its rule; they add up.
    for side in (setup.attacker, setup.defender):
        bonuses = [
            (side.blunder_bonus, f"{side.name}: +1 to its roll for first turn (Guerrilla Tactics: Blundered!)."),
            (side.painted, f"{side.name} is a painted army: +1 to its roll for first turn (Painting Counts)."),
        ]
        for applies, note in bonuses:
            if not applies:
                continue
            if side is setup.attacker:
                attacker_modifier += 1
            else:
                defender_modifier += 1
            first_notes.append(note)
    if kind != ASSAULT:
        first_notes.append(
            "The player who finished deploying first adds +1 to his roll: settle it at the table, "
            "rolling as shown plus that +1."
        )
    for e in active.get(CHOOSE_FIRST_TURN, []):
        first_notes.append(f"{e.name} may choose to go first ({_named(e)}).")
    off = _roll_off(
        dice,
        setup,
        "Scenario: first turn",
        attacker_dice="2D6" if kind == ASSAULT else "D6",
        attacker_modifier=attacker_modifier,
        defender_modifier=defender_modifier,
    )
    first_turn = {
        "roll_off": off.as_json(),
        "notes": first_notes,
        "winner": setup.attacker.name if off.winner == "attacker" else setup.defender.name,
    }

    # Game length (D6 on the engagement type's row).
    roll = dice.d6(purpose=f"Scenario: game length ({kind})", **both)
    game_length = {"roll": roll, "turns": GAME_LENGTH[kind][roll]}

    return Scenario(
        attacker=setup.attacker.name,
        defender=setup.defender.name,
        terrain=setup.terrain,
        settlement=setup.settlement,
        engagement=engagement,
        objective=objective,
        terrain_pieces=terrain,
        deployment=deployment,
        special=special,
        sides=sides,
        deploy=deploy,
        first_turn=first_turn,
        game_length=game_length,
        abilities=ability_notes,
        skirmish=setup.skirmish,
        mission=setup.mission,
        ruin_sacked=setup.ruin_sacked,
        assault_roles=assault_roles,
    )


def _terrain(setup: ScenarioSetup, dice: Dice, ids: dict[str, list[int]]) -> dict[str, Any]:
    notes: list[str] = []
    if setup.settlement == "ruins":
        return {"count_roll": None, "count": 0, "pieces": [], "notes": [RUINS_TEXT]}
    count_roll = dice.d6(purpose="Scenario: number of terrain pieces", **ids)
    count = TERRAIN_PIECES_COUNT[count_roll]
    pieces: list[str] = []
    modifier = TERRAIN_MODIFIERS.get(setup.terrain, TERRAIN_MODIFIERS["plains"])
    notes.append(modifier.text)
    settlement = setup.settlement in ALWAYS_ASSAULT
    if settlement:
        notes.append(SETTLEMENT_MODIFIER.text)
        first = dice.roll(SETTLEMENT_MODIFIER.dice, purpose="Scenario: buildings of the town or city", **ids).total
        pieces += [SETTLEMENT_MODIFIER.piece or ""] * first
    if modifier.piece:
        first = dice.roll(modifier.dice, purpose=f"Scenario: {setup.terrain} pieces", **ids).total
        pieces += [modifier.piece] * first
    pieces = pieces[:count]
    river = False
    while len(pieces) < count:
        face = dice.d6(purpose="Scenario: terrain piece", **ids)
        piece = TERRAIN_PIECE[face]
        if piece == RIVER:
            if river:
                continue  # only one river: re-roll
            river = True
        pieces.append(piece)
    if modifier.extra:
        extra = dice.roll(modifier.extra_dice, purpose=f"Scenario: {modifier.extra.lower()}s", **ids).total
        pieces += [modifier.extra] * extra
    if settlement and river:
        notes.append("A bridge crosses the river.")
    return {"count_roll": count_roll, "count": count, "pieces": pieces, "notes": notes}


def _sides(setup: ScenarioSetup, dice: Dice, *, defender_chooses_edge: bool = False) -> dict[str, Any]:
    """Who chooses the table side: a fortified defender chooses; in Assault 1 and 3 the Defender
    chooses his edge (6. Deploy Armies, Assault; decision 628); otherwise a roll-off where an army
    that did not move and is attacked gets +1, and when both moved a supported army against an
    unsupported one gets +1 (6. Fight Battles)."""
    if setup.defending and setup.defender.fortified:
        return {
            "roll_off": None,
            "winner": setup.defender.name,
            "text": f"{setup.defender.name} is fortified and chooses its table side(s) after terrain is placed "
            "(Fortify).",
        }
    if defender_chooses_edge:
        # No roll: its winner would choose what the rulebook gives the Defender (the deployment step
        # prints the rulebook's sentence once, decision 64).
        return {
            "roll_off": None,
            "winner": setup.defender.name,
            "text": f"{_the_defender(setup)} chooses the table edge he defends (see 4. Deployment; "
            "6. Deploy Armies, Assault): no roll for sides.",
        }
    attacker_modifier = defender_modifier = 0
    notes = []
    if setup.defending:
        defender_modifier += 1
        notes.append(f"{setup.defender.name} did not move and is attacked: +1 to choose sides.")
    elif setup.attacker.supported != setup.defender.supported:
        if setup.attacker.supported:
            attacker_modifier += 1
            notes.append(f"{setup.attacker.name} is supported: +1 to choose sides.")
        else:
            defender_modifier += 1
            notes.append(f"{setup.defender.name} is supported: +1 to choose sides.")
    # Painting Counts: "+1 to the die roll for ... picking table sides", cumulative with the others.
    for side in (setup.attacker, setup.defender):
        if side.painted:
            if side is setup.attacker:
                attacker_modifier += 1
            else:
                defender_modifier += 1
            notes.append(f"{side.name} is a painted army: +1 to choose sides (Painting Counts).")
    off = _roll_off(
        dice, setup, "Scenario: choose sides", attacker_modifier=attacker_modifier, defender_modifier=defender_modifier
    )
    winner = setup.attacker.name if off.winner == "attacker" else setup.defender.name
    return {
        "roll_off": off.as_json(),
        "winner": winner,
        "text": " ".join([*notes, f"{winner} chooses the table side."]),
    }
