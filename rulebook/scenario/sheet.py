"""The scenario sheet in words: each step of the Scenario Generator as the players read it, with the
rulebook's text for what was rolled (Appendix: Scenario Generator). Pure Python."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rulebook.ruins_and_tomb_raiders.generic_opponents import (
    GENERIC_MAX_CORE_TROOP_TYPES,
    GENERIC_WARBAND_POINTS,
    raid_opponent,
)
from rulebook.ruins_and_tomb_raiders.tomb_raid import MissionKind
from rulebook.scenario.generator import Scenario
from rulebook.scenario.tables import (
    ASSAULT,
    DEPLOY_ARMIES,
    DESCRIPTION_OF_OBJECTIVES,
    ENGAGEMENT_TEXT,
    FIRST_TURN_TEXT,
    OR_ELSE_MIN,
    RANDOM,
    RANDOM_GAME_LENGTH,
    RUINS_PIECES,
    SECRET_CHOICES,
    SUPPLY_DEPOT_RULES,
    SUPPLY_DEPOT_SECTION,
    TOMB_RAID_AMULET,
    TOMB_RAID_ARMY_ENTERS,
    TOMB_RAID_ARMY_OUT,
    TOMB_RAID_NO_AMULET,
    TOMB_RAID_NOTHING_FOUND,
    TOMB_RAID_PLAYED_BY,
    TOMB_RAID_RECOVERY,
    TOMB_RAID_SECTION,
    TOMB_RAID_SKIRMISH,
    TOMB_RAID_TREASURE,
    TOMB_RAID_WITH_BATTLE,
    TOMB_RAIDER_GAME_LENGTH,
    TOMB_RAIDER_RULES,
    TOMB_RAIDER_SECTION,
)


@dataclass(frozen=True)
class RivalMissionSheet:
    """What a Reconnaissance or Sabotage's section says beyond the rolled scenario: the kind ("reconnaissance",
    "sabotage"), the kingdoms by name, the target's army book, who defends ("raiders" or "guard") and the
    mission desired in words, "" on every copy but the spy's (decision 463)."""

    kind: str
    spy: str
    target: str
    target_book: str
    defender: str
    desired: str = ""


@dataclass(frozen=True)
class ScenarioSection:
    title: str
    paragraphs: list[str]
    diagram: bool = False  # the sheet draws the Deployment Map with this step


def _roll_off_text(off: dict[str, Any], attacker: str, defender: str) -> str:
    rounds = []
    for a, d in zip(off["attacker_rolls"], off["defender_rolls"], strict=True):
        am = f"{a}{off['attacker_modifier']:+d}" if off["attacker_modifier"] else f"{a}"
        dm = f"{d}{off['defender_modifier']:+d}" if off["defender_modifier"] else f"{d}"
        rounds.append(f"{attacker} {am}, {defender} {dm}")
    text = "; tie, rerolled: ".join(rounds)
    return f"{text}." if len(rounds) == 1 else f"{text}."


def tomb_raid_lines(s: Scenario) -> list[str]:
    """Tomb Raid: what the raid is, its opponent (Generic Opponents, or the sacked town's guard:
    decision 409), who plays it, and what a success, a draw or a failure does (decisions 407, 408).
    With a battle of the army (the desert's garrison, an enemy army) the raid is a match of its own
    and the battle's notes say what the army's entry needs."""
    treasure = TOMB_RAID_TREASURE + (TOMB_RAID_NO_AMULET if s.ruin_sacked else TOMB_RAID_AMULET)
    return [
        TOMB_RAID_SKIRMISH if s.skirmish else TOMB_RAID_WITH_BATTLE,
        *raid_opponent(sacked=s.ruin_sacked),
        TOMB_RAID_PLAYED_BY,
        f"{treasure} {TOMB_RAID_ARMY_ENTERS}" if s.skirmish else treasure,
        TOMB_RAID_ARMY_OUT if s.skirmish else TOMB_RAID_NOTHING_FOUND,
        TOMB_RAID_RECOVERY,
    ]


RIVAL_MISSION_LABELS = {MissionKind.RECONNAISSANCE.value: "Reconnaissance", MissionKind.SABOTAGE.value: "Sabotage"}


def rival_mission_lines(r: RivalMissionSheet) -> list[str]:
    """Reconnaissance / Sabotage: "Play a Tomb Raider game for the Recon (see Tomb Raider Scenario & Terrain
    section). The enemy warband represents the guard of the city, magic college, master engineer, etc. and
    will be a generic force of 150pts built from the player's Army book ... Alternatively, the player may
    use his own Tomb Raiders to defend if they are not being used for a mission this turn." Who plays
    whom, the table, who files what; the desired mission only on the spy's copy (decision 463)."""
    kind = RIVAL_MISSION_LABELS.get(r.kind, r.kind)
    if r.defender == "raiders":
        defends = (
            f"{r.target}'s own Tomb Raiders defend: they are not on a mission this turn ({kind}). Their Captain "
            f"counts as the Army General. {r.target}'s player may field a generic {GENERIC_WARBAND_POINTS}-point "
            'guard instead ("Alternatively, the player may use his own Tomb Raiders to defend"; decision 460): '
            "then its sheet reports no losses of its Tomb Raiders."
        )
    else:
        defends = (
            f"{r.target}'s player builds the guard that defends: a generic force of {GENERIC_WARBAND_POINTS} points "
            f"from {r.target}'s army book ({r.target_book}), chosen as Tomb Raiders are, but no Lieutenant is "
            f"selected and all models come from {GENERIC_MAX_CORE_TROOP_TYPES} Core troop types at most (Generic "
            "Opponents). It stands for the guard of the city, magic college, master engineer, etc.; its Captain "
            "counts as the Army General."
        )
    desired = (
        f"The mission {r.spy} desires: {r.desired}"
        if r.desired
        else f"What the raiders desire is {r.spy}'s to know: this copy does not say (decision 463)."
    )
    own = (
        f"; {r.target} files its own Tomb Raiders' losses" if r.defender == "raiders" else f"; {r.target} files nothing"
    )
    return [
        # Not a battle for the town (decision 466): no forced Assault, but the Scenario Generator's D6 may
        # still roll one (Tomb Raider Scenario & Terrain: "Use the Scenario Generator").
        f"{kind} by {r.spy}'s Tomb Raiders against {r.target}: a Tomb Raider match of the two forces; no army "
        "fights on either side, and it is not a battle for a town: its engagement type is rolled (1. Determine "
        "Engagement Type).",
        defends,
        "Tomb Raider Scenario & Terrain: a 4x4 table with a generous amount of terrain, more dwellings for Recon & "
        'Sabotage games; an objective that rolls for "Or Else!" is an "Or Else!" objective; the Tomb Raider '
        "Captain counts as the Army General for the objectives; the game lasts until one side withdraws or the "
        "Game Length ends.",
        desired,
        f"{r.spy} files the mission's result on its turn summary sheet, a success, a draw or a failure (a draw and a "
        f"failure each roll a D6 on the mission's charts), and its Tomb Raiders' losses{own}.",
        TOMB_RAID_RECOVERY,
    ]


def scenario_lines(scenario: Scenario, rival: RivalMissionSheet | None = None) -> list[ScenarioSection]:
    """The scenario in words, step by step, for the sheet (page, PDF and email). `rival`: a Reconnaissance
    or Sabotage's own words (the battle's, not the rolled scenario's)."""
    s = scenario
    sections = []
    if s.skirmish:
        sections.append(ScenarioSection(TOMB_RAIDER_SECTION, list(TOMB_RAIDER_RULES)))
    if s.mission == MissionKind.TOMB_RAID:
        sections.append(ScenarioSection(TOMB_RAID_SECTION, tomb_raid_lines(s)))
    if rival is not None and s.mission in RIVAL_MISSION_LABELS:
        sections.append(ScenarioSection(RIVAL_MISSION_LABELS[s.mission], rival_mission_lines(rival)))
    engagement = s.engagement
    how = (
        "always an Assault in a battle for a town, city or capitol"
        if engagement["forced"]
        else f"rolled {engagement['roll']}"
    )
    sections.append(
        ScenarioSection(
            f"1. Engagement type: {engagement['name']}",
            [
                f"{engagement['name']} ({how}). {ENGAGEMENT_TEXT[engagement['name']]}",
                # Both armies moved in: why this side is the Assault's Attacker (decision 625).
                *([s.assault_roles["text"]] if s.assault_roles else []),
            ],
        )
    )
    objective = s.objective
    description = DESCRIPTION_OF_OBJECTIVES[objective["name"]]
    title = objective["name"] + (' — "Or Else!"' if objective["or_else"] else "")
    paragraphs = [
        f"Rolled {objective['roll']} on the {engagement['name']} column.",
        description.victory,
        f"Special rules: {description.special}",
    ]
    if objective["or_else_roll"] is not None:
        paragraphs.append(
            f'"Or Else!" roll: {objective["or_else_roll"]} '
            f"({'4+: it is an Or Else! objective' if objective['or_else_roll'] >= OR_ELSE_MIN else 'no Or Else!'})."
        )
    paragraphs += objective["notes"]
    # A scenario stored before "may_choose" was kept has its secret choice still.
    choices = objective.get("may_choose", list(SECRET_CHOICES.get(objective["name"], ())))
    if choices:
        paragraphs.append("The objectives a player may choose (Description of Objectives):")
        for name in choices:
            chosen = DESCRIPTION_OF_OBJECTIVES[name]
            paragraphs.append(f"{name}: {chosen.victory} Special rules: {chosen.special}")
    sections.append(ScenarioSection(f"2. Objective: {title}", paragraphs))
    terrain = s.terrain_pieces
    paragraphs = list(terrain["notes"])
    if terrain["count_roll"] is not None:
        paragraphs.insert(0, f"Rolled {terrain['count_roll']}: {terrain['count']} pieces of terrain.")
        paragraphs.append(f"Pieces: {', '.join(terrain['pieces'])}.")
    else:  # Ruins: nothing is rolled; the Raid Scenario Standards say what to set up
        paragraphs.append(f"Pieces: none rolled; {RUINS_PIECES}.")
    sections.append(
        ScenarioSection(
            f"3. Terrain: {s.terrain}" + (f", {s.settlement}" if s.settlement != "none" else ""), paragraphs
        )
    )
    deployment = s.deployment
    sections.append(
        ScenarioSection(
            f"4. Deployment: {deployment['map']}",
            [f"Rolled {deployment['roll']} (D3): deployment map {deployment['map']}.", *deployment["notes"]],
            diagram=True,
        )
    )
    special = s.special
    rolls = f"The players rolled {special['rolls'][0]} and {special['rolls'][1]}"
    if special["kind"] == "none":
        paragraphs = [f"{rolls}: no double and no 7, so no special circumstances."]
    else:
        table = "Major Events Table (a double)" if special["kind"] == "major" else "Minor Events Table (a total of 7)"
        paragraphs = [f"{rolls}: {table}.", f"{special['name']}. {special['text']}"]
    sections.append(ScenarioSection(f"5. Special circumstances: {special['name']}", paragraphs))
    sides = s.sides
    paragraphs = [sides["text"]]
    if sides["roll_off"]:
        paragraphs.insert(
            0, "Choosing sides (a D6 each, ties rerolled): " + _roll_off_text(sides["roll_off"], s.attacker, s.defender)
        )
    paragraphs.append(s.deploy["text"])
    if s.deploy["roll_off"]:
        paragraphs.append("Deployment roll-off: " + _roll_off_text(s.deploy["roll_off"], s.attacker, s.defender))
    paragraphs.append(DEPLOY_ARMIES[engagement["name"]])
    sections.append(ScenarioSection("6. Deploy armies", paragraphs))
    first = s.first_turn
    dice_text = "2D6 for the Attacker in an Assault" if engagement["name"] == ASSAULT else "a D6 each"
    length = s.game_length
    turns = "Random" if length["turns"] == RANDOM else f"{length['turns']} turns"
    paragraphs = [
        f"First turn ({dice_text}, ties rerolled): " + _roll_off_text(first["roll_off"], s.attacker, s.defender),
        f"{first['winner']} scores highest. {FIRST_TURN_TEXT}",
        *first["notes"],
        f"Game length: rolled {length['roll']}: {turns}.",
    ]
    if length["turns"] == RANDOM:
        paragraphs.append(RANDOM_GAME_LENGTH)
    if s.skirmish:
        paragraphs.append(TOMB_RAIDER_GAME_LENGTH)
    sections.append(ScenarioSection(f"7. First turn and game length: {turns}", paragraphs))
    if s.abilities:
        sections.append(ScenarioSection("Archetype Abilities", list(s.abilities)))
    if not s.skirmish:  # the Tomb Raiders bring no cart (decision 398)
        sections.append(ScenarioSection(SUPPLY_DEPOT_SECTION, list(SUPPLY_DEPOT_RULES)))
    sections.append(ScenarioSection("8. Begin the Battle!", [f"{s.attacker} against {s.defender}."]))
    return sections
