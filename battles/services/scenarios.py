"""Each scheduled battle's scenario (Appendix: Scenario Generator), rolled when the turn's battles
are posted, stored on the battle, and sent to its players as a PDF scenario sheet."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Collection, Mapping, Sequence
from typing import Any

from django.utils.safestring import mark_safe

from briternia.pdf import pdf_render
from kernel.dice import SeededDice
from kingdoms.models import Alliance, Army, Character, Kingdom
from kingdoms.selectors import army_counted_points
from kingdoms.services.dice import dice_rolls_save_many
from rulebook.archetypes.character_record import abilities_kept, deep_wound_to_miss, old_wounds
from rulebook.scenario.deployment_svg import deployment_diagram
from rulebook.scenario.generator import Scenario, ScenarioSetup, ScenarioSide, scenario_generate
from rulebook.scenario.sheet import scenario_lines
from rulebook.turn.aftermath.injury_chart import OLD_WOUND_ACTS_UP, injuries_standing, old_wound_roll
from rulebook.turn.fight_battles.guerrilla_tactics import GUERRILLA_WARFARE

from ..models import Battle
from .opponents import side_players
from .posting import BattleToPost
from .rival_missions import (
    battle_title,
    is_rival_mission,
    is_tomb_raid,
    rival_mission_sheet,
    rival_side_name,
    tomb_raid_side_name,
)

GENERAL_ROLES = (Character.Role.WARLORD, Character.Role.GENERAL)
BLUNDERED = GUERRILLA_WARFARE[1].code  # Guerrilla Warfare (D6), 1: Blundered!


def scenario_stream(battle: Battle) -> str:
    """Each battle rolls on its own stream of the turn's seed, so one battle's scenario does not
    depend on how many other battles the turn has."""
    if battle.attacker_army_id is None:  # a Reconnaissance or Sabotage: no army; one mission a kingdom a turn
        return f"rival-scenario:{battle.province.number}:{battle.attacker_kingdom_id}"
    return f"scenario:{battle.province.number}:{battle.attacker_army_id}"


def general_abilities(army_ids: list[int]) -> dict[int, frozenset[str]]:
    """The Archetype Abilities of each army's General (the Warlord leads the army he is in).
    Amnesia takes a character's abilities away (Character Injury Chart)."""
    return generals_abilities(living_characters(army_ids))


def generals_abilities(characters: Mapping[int, list[Character]]) -> dict[int, frozenset[str]]:
    """`general_abilities` from each army's living characters (`living_characters`)."""
    abilities: dict[int, frozenset[str]] = defaultdict(frozenset)
    generals = sorted(
        (c for army in characters.values() for c in army if c.role in GENERAL_ROLES), key=lambda c: (c.role, c.id)
    )
    for character in generals:  # "general" sorts before "warlord": the Warlord wins
        abilities[character.unit.army_id] = abilities_kept(character.abilities, character.injuries)
    return abilities


def _tomb_raiders_label(battle: Battle, army: Any) -> str:
    """The raiding side of a Tomb Raid: 'Ostland: Tomb Raiders (1st Army does not fight: it waits on
    the raid)' (Using Tomb Raiders, Tomb Raid)."""
    waits = f" ({army.name} does not fight: it waits on the raid)" if army is not None else ""
    return f"{tomb_raid_side_name(battle, 'attacker')}{waits}"


def _side_name(kingdom: Kingdom | None, army: Any, fallback: str) -> str:
    if army is not None:
        return f"{army.kingdom.name}: {army.name}"
    if kingdom is not None:
        return f"{kingdom.name}: {fallback}"
    return fallback


def scenario_setup(
    battle: Battle,
    abilities: dict[int, frozenset[str]],
    supported_sides: frozenset[str] | None = None,
    alliances: Collection[frozenset[int]] | None = None,
) -> ScenarioSetup:
    """What the Scenario Generator needs to know about a battle (`supported_sides`: the sides its
    supports join, read from its stored supports when not given; `alliances`: the pairs of kingdoms
    allied, read when not given)."""
    province = battle.province
    settlement = province.settlement
    if battle.defender_kingdom is not None and battle.defender_kingdom.capitol_id == province.id:
        settlement = "capitol"
    if battle.skirmish:
        # Rogue Kingdom, scouting forces: "a ruins style battle" (Tomb Raider Scenario & Terrain; decision 231);
        # a Tomb Raid is played on the ruins themselves.
        settlement = "ruins"
        if is_rival_mission(battle):
            # A Reconnaissance or Sabotage is played where the target is, "more dwellings" than ruins: the
            # province's terrain rolled as for any battle, no town's buildings and never the forced Assault
            # of a battle for a town (decision 466).
            settlement = "none"
        # The army's General does not fight the skirmish (no character of the army takes part): the Tomb
        # Raider Captain is the General for the objectives (Tomb Raider Scenario & Terrain, 3.), and the
        # General's Archetype Abilities set no terms of it (decision 352).
        abilities = {}
    sides = supported_sides if supported_sides is not None else {s.side for s in battle.supports.all()}
    garrison = f"Garrison of {province.name}"
    # A garrison supports the defending field army; with an Elite Defense Force (or the Ancient
    # Dead's Capitol Garrison) as the defending army, it is the main force.
    garrison_supports = battle.defender_army is not None and battle.defender_army.kind == Army.Kind.FIELD
    # Guerrilla Tactics, Blundered!: +1 for first turn to the smaller army, whose saboteurs rolled (R5).
    blundered = (battle.guerrilla or {}).get("result") == BLUNDERED
    blunder_target = (battle.guerrilla or {}).get("army") if blundered else None
    rival = is_rival_mission(battle)
    raid = is_tomb_raid(battle)  # the Tomb Raiders against the warband of the ruins: no army fights
    attacker = ScenarioSide(
        name=rival_side_name(battle, "attacker")
        if rival
        else tomb_raid_side_name(battle, "attacker")
        if raid
        else _side_name(battle.attacker_kingdom, battle.attacker_army, garrison),
        kingdom=battle.attacker_kingdom_id,
        army=battle.attacker_army_id,
        general_abilities=abilities.get(battle.attacker_army_id, frozenset()),
        supported="attacker" in sides,
        blunder_bonus=blunder_target is not None and blunder_target == battle.attacker_army_id,
        painted=battle.attacker_army is not None and battle.attacker_army.painted,
    )
    defender = ScenarioSide(
        name=rival_side_name(battle, "defender")
        if rival
        else tomb_raid_side_name(battle, "defender")
        if raid
        else _side_name(battle.defender_kingdom, battle.defender_army, garrison),
        kingdom=battle.defender_kingdom_id,
        army=battle.defender_army_id,
        general_abilities=abilities.get(battle.defender_army_id, frozenset())
        if battle.defender_army_id
        else frozenset(),
        supported="defender" in sides or (garrison_supports and battle.garrison_points > 0),
        fortified=battle.fortified_points > 0,
        blunder_bonus=blunder_target is not None and blunder_target == battle.defender_army_id,
        # A garrison fighting alone is not an army the organizer can mark painted.
        painted=battle.defender_army is not None and battle.defender_army.painted,
    )
    return ScenarioSetup(
        terrain=province.terrain,
        settlement=settlement,
        attacker=attacker,
        defender=defender,
        defending=not battle.both_moved,
        skirmish=battle.skirmish,
        mission=battle.mission,
        ruin_sacked=battle.mission != "" and province.ruin_sacked,
        holder=_holder(battle, alliances) if battle.both_moved else "given",
    )


def alliances_in_force(campaign_id: int) -> set[frozenset[int]]:
    """The pairs of kingdoms allied now, in one query (a query per battle grew with the turn)."""
    pairs = Alliance.objects.filter(campaign_id=campaign_id, ended_turn__isnull=True).values_list(
        "first_id", "second_id"
    )
    return {frozenset(pair) for pair in pairs}


def _holder(battle: Battle, alliances: Collection[frozenset[int]] | None) -> str:
    """Of a battle both armies moved into, the side whose kingdom, or its ally, holds the province
    ("attacker", "defender"), or "none": who defends if it is an Assault (decision 625). The province
    as the orders phase left it (battles_build): two enemies that both moved in claim nothing."""
    owner = battle.province.controller_id
    if owner is None:
        return "none"
    sides = (("defender", battle.defender_kingdom_id), ("attacker", battle.attacker_kingdom_id))
    for side, kingdom in sides:
        if kingdom == owner:
            return side
    # One alliance at a time (decision 132): the holder's ally, if it is one of the two.
    allied = alliances if alliances is not None else alliances_in_force(battle.province.campaign_id)
    for side, kingdom in sides:
        if kingdom is not None and frozenset((owner, kingdom)) in allied:
            return side
    return "none"


def battle_scenarios_roll(*, turn: Any, battles: Sequence[BattleToPost]) -> list[BattleToPost]:
    """Roll the scenario and the Old Battle Wounds of every battle built for posting (in the turn's
    resolution transaction, before the rows are written), each on its own stream; every roll is
    recorded. Returns the battles in the order they are rolled and listed: by province, then as
    the resolution scheduled them."""
    ordered = sorted(enumerate(battles), key=lambda item: (item[1].row.province.number, item[0]))
    army_ids = [a for b in battles for a in (b.row.attacker_army_id, b.row.defender_army_id) if a]
    characters = living_characters(army_ids)  # once for every battle (a query per battle grew with the turn)
    abilities = generals_abilities(characters)
    alliances = alliances_in_force(turn.campaign_id)
    rolled: list[SeededDice] = []
    for _, posted in ordered:
        battle = posted.row
        dice = SeededDice(seed=turn.seed, stream=scenario_stream(battle))
        scenario = scenario_generate(scenario_setup(battle, abilities, posted.supported_sides, alliances), dice)
        battle.scenario = scenario.as_json_of_new()
        rolled.append(dice)
        wound_dice = SeededDice(seed=turn.seed, stream=f"old-wounds:{scenario_stream(battle)}")
        battle.old_wounds = old_wounds_roll(battle, wound_dice, characters)
        rolled.append(wound_dice)
    # One insert for every battle's rolls (a query per battle grows with the campaign).
    dice_rolls_save_many(campaign=turn.campaign, turn=turn.number, dice=rolled)
    return [posted for _, posted in ordered]


def living_characters(army_ids: list[int]) -> dict[int, list[Character]]:
    """The living characters of each army, by id, in one query."""
    by_army: dict[int, list[Character]] = defaultdict(list)
    for character in (
        Character.objects.filter(unit__army_id__in=army_ids, alive=True).select_related("unit").order_by("id")
    ):
        by_army[character.unit.army_id].append(character)
    return by_army


def old_wounds_roll(
    battle: Battle, dice: SeededDice, characters: Mapping[int, list[Character]]
) -> list[dict[str, Any]]:
    """Old Battle Wound, rolled by the engine as the battle is posted: a D6 per wound for each
    character of the two fighting armies (`characters`: the living ones of each army; one who must
    miss it for a Deep Wound rolls nothing); on a 1 he cannot take part, and the scenario sheet says so."""
    if battle.skirmish:
        return []  # the Tomb Raiders skirmish: no character of the army takes part (decision 231)
    armies = sorted({a for a in (battle.attacker_army_id, battle.defender_army_id) if a})
    rows = []
    for character in (c for army in armies for c in characters.get(army, [])):
        wounds = old_wounds(character.injuries)
        if not wounds or deep_wound_to_miss(character.injuries):
            continue
        rolls = old_wound_roll(
            dice, name=character.unit.name, kingdom=character.kingdom_id, army=character.unit.army_id, wounds=wounds
        )
        rows.append(
            {
                "character": character.id,
                "name": character.unit.name,
                "army": character.unit.army_id,
                "rolls": rolls,
                "out": OLD_WOUND_ACTS_UP in rolls,
            }
        )
    return rows


def battle_scenario(battle: Battle) -> Scenario | None:
    return Scenario.from_json(battle.scenario) if battle.scenario else None


def _ancient_dead_sized(battle: Battle, kingdom: Kingdom | None) -> bool:
    return battle.ancient_dead_points is not None and kingdom is not None and kingdom.is_ancient_dead


def _force_points(battle: Battle, army: Army | None, kingdom: Kingdom | None) -> int | None:
    """A side's army points; an army of the Ancient Dead's are fixed by the battle (The Ancient
    Dead: Armies: 250 less than its opponent's after supports, rule case AD2)."""
    if army is None:
        return None
    if _ancient_dead_sized(battle, kingdom):
        return battle.ancient_dead_points
    return army_counted_points(army)


def deployment_figure(scenario: Scenario, *, skirmish: bool = False) -> dict[str, Any]:
    """The scenario's Deployment Map for a template (battles/_deployment.html): the SVG sketch (built
    by rulebook.scenario.deployment_svg, which escapes every name) and the same in words."""
    diagram = deployment_diagram(scenario, skirmish=skirmish)
    return {"title": diagram.title, "lines": diagram.lines, "svg": mark_safe(diagram.svg)}


def scenario_sheet_context(battle: Battle, *, reveal_mission: bool = False) -> dict[str, Any]:
    """What the scenario sheet shows: every rolled result in full, and the forces of each side.
    `reveal_mission`: a Reconnaissance or Sabotage's desired mission is printed (the spy's and the
    organizer's view of the page; never the PDF or the email, which both sides read: decision 463)."""
    scenario = battle_scenario(battle)
    rival = rival_mission_sheet(battle, reveal=reveal_mission)
    supports = list(battle.supports.select_related("army", "kingdom"))

    def force(side: str) -> dict[str, Any]:
        army = battle.attacker_army if side == "attacker" else battle.defender_army
        kingdom = battle.attacker_kingdom if side == "attacker" else battle.defender_kingdom
        return {
            "kingdom": kingdom,
            "army": army,
            "points": _force_points(battle, army, kingdom),
            "ancient_dead": army is not None and _ancient_dead_sized(battle, kingdom),
            "supports": [s for s in supports if s.side == side],
            "wounded": wounded.get(army.id, []) if army is not None else [],
            # Who plays it, by display name, to book the game with (issue 18).
            "players": side_players(battle, side),
            # A Reconnaissance or Sabotage: the Tomb Raiders (or the guard) fight, no army; a Tomb Raid:
            # the Tomb Raiders, while the army waits on the raid.
            "label": rival_side_name(battle, side)
            if rival is not None
            else _tomb_raiders_label(battle, army)
            if is_tomb_raid(battle) and side == "attacker"
            else "",
        }

    # Earlier injuries that matter for this battle (Deep Wound, Old Battle Wound).
    wounded: dict[int, list[tuple[str, list[str]]]] = defaultdict(list)
    rolled = {int(w["character"]): list(w["rolls"]) for w in battle.old_wounds}
    for character in Character.objects.filter(
        unit__army_id__in=[a for a in (battle.attacker_army_id, battle.defender_army_id) if a], alive=True
    ).select_related("unit"):
        notes = injuries_standing(character.injuries, rolled.get(character.id))
        if notes:
            wounded[character.unit.army_id].append((character.unit.name, notes))

    return {
        "battle": battle,
        "turn": battle.turn,
        "campaign": battle.turn.campaign,
        "scenario": scenario,
        "sections": scenario_lines(scenario, rival) if scenario else [],
        "title": battle_title(battle),
        "rival": rival,
        # A skirmish stored before the scenario kept "skirmish" is one all the same (battle.skirmish).
        "deployment": deployment_figure(scenario, skirmish=battle.skirmish) if scenario else None,
        "attacker": force("attacker"),
        "defender": force("defender"),
    }


def scenario_sheet_pdf(battle: Battle) -> bytes:
    return pdf_render("battles/scenario_print.html", scenario_sheet_context(battle))
