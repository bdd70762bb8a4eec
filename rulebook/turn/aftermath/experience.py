"""Experience in the aftermath (pure Python): each army's experience for its battle, the story
bonus, Veteran Status judged after Casualty Recovery, and Press the Advantage.

Rulebook: Experience Points, Stories Are Nice, Veteran Status, Curse of the Dead (Spending
Experience), The Ancient Dead (no experience), Rogue / Trickster (Press the Advantage).
"""

from __future__ import annotations

from dataclasses import replace

from kernel.event_codes import EventCode
from kernel.events import Event
from rulebook.archetypes.character_record import abilities_kept
from rulebook.experience.spending import CURSE_OF_THE_DEAD
from rulebook.turn.aftermath.results import BASE_EXPERIENCE, BattleResult, SideOutcome
from rulebook.turn.aftermath.sheets import BattleA, SideA
from rulebook.turn.aftermath.state import (
    PHASE,
    AftermathState,
    add_experience,
    ancient_dead,
    put_unit,
)
from rulebook.world import ArmyState, CharacterState, ProvinceState, UnitState

STORY_EXPERIENCE = 3  # Stories Are Nice: once per turn, to the army written about
VETERAN_LEVEL_MAX = 3
# Rogue / Trickster: "Press the Advantage": 25 more experience for a victory or massacre, if the
# General survives the battle.
PRESS_THE_ADVANTAGE = "Press the Advantage"
PRESS_THE_ADVANTAGE_EXPERIENCE = 25
GENERAL_ROLES = ("warlord", "general")  # the Warlord leads the army he is in


def battle_experience(
    state: AftermathState,
    events: list[Event],
    battle: BattleA,
    side: SideA,
    result: BattleResult,
    allowed: bool,
    province: ProvinceState,
) -> None:
    """Experience Points: the army's base experience for its result (none without its sheet, 8. End
    of Turn; none for the Ancient Dead), and the turn's story bonus if it goes to this battle. An
    army gone (wiped out with nowhere to retreat; an Elite Defense Force perished with its town)
    gains none: there is no army left to gain it (decision 557)."""
    if side.army is None or state.world.army(side.army).disbanded:
        return
    army = state.world.army(side.army)
    if ancient_dead(state, army.kingdom):
        # The Ancient Dead, Setup: "the armies do not gain experience points": none for the
        # battle, none for a story.
        events.append(
            Event(
                PHASE,
                EventCode.NO_EXPERIENCE,
                f"{army.name} gains no experience for the battle in {province}: the armies of the Ancient Dead "
                "do not gain experience points (The Ancient Dead).",
                kingdom=army.kingdom,
                army=army.id,
                province=province.number,
            )
        )
        return
    if not allowed:
        # The result line already says why (no turn summary sheet).
        events.append(
            Event(
                PHASE,
                EventCode.NO_EXPERIENCE,
                f"{army.name} gains no experience for the battle in {province} (8. End of Turn).",
                kingdom=army.kingdom,
                army=army.id,
                province=province.number,
            )
        )
    else:
        points = BASE_EXPERIENCE[result]
        army = add_experience(state, army.id, points)
        events.append(
            Event(
                PHASE,
                EventCode.EXPERIENCE,
                f"{army.name} gains {points} experience for the {result.label.lower()} in "
                f"{province} (Experience Points).",
                kingdom=army.kingdom,
                army=army.id,
                province=province.number,
                experience=points,
                data={"experience": points},
            )
        )
    if side.kingdom is not None and story_battles(state.battles).get(side.kingdom) == battle.id:
        army = add_experience(state, army.id, STORY_EXPERIENCE)
        events.append(
            Event(
                PHASE,
                EventCode.STORY,
                f"{army.name} gains {STORY_EXPERIENCE} experience for the story of the battle in "
                f"{province} (Stories Are Nice).",
                kingdom=army.kingdom,
                army=army.id,
                province=province.number,
                experience=STORY_EXPERIENCE,
                data={"experience": STORY_EXPERIENCE},
            )
        )


def tomb_raiders_story(state: AftermathState, events: list[Event], battle: BattleA) -> None:
    """Stories Are Nice: "Battle reports from a Tomb Raiders' prospective also count. Players can apply
    those bonus Experience Points to any of their armies." A Tomb Raiders' skirmish (a Tomb Raid, the
    Rogue Kingdom's scouting forces) gives its army no experience of its own (decision 231), but its
    story earns the turn's 3 when it is the kingdom's story of the turn (`story_battles`): to the army
    the player names on the sheet, any of the kingdom's, else to the skirmish's army (decision 444)."""
    side = battle.attacker
    named = side.story_army if side.story_army is not None else side.army
    if side.kingdom is None or named is None or story_battles(state.battles).get(side.kingdom) != battle.id:
        return  # a Reconnaissance or Sabotage has no army of its own: its story goes to the army named
    if named not in state.world.armies or state.world.armies[named].disbanded or ancient_dead(state, side.kingdom):
        # A garrison takes none (story_battles); an army gone, wiped out (its own skirmish lost with
        # nowhere to go back to, or an earlier battle of the turn), can gain none (decision 557).
        return
    army = state.world.army(named)
    if army.kingdom != side.kingdom:
        return  # the sheet's check names only the kingdom's own armies
    province = state.provinces[battle.province]
    army = add_experience(state, army.id, STORY_EXPERIENCE)
    events.append(
        Event(
            PHASE,
            EventCode.STORY,
            f"{army.name} gains {STORY_EXPERIENCE} experience for the story of the Tomb Raiders' skirmish in "
            f"{province} (Stories Are Nice).",
            kingdom=army.kingdom,
            army=army.id,
            province=province.number,
            experience=STORY_EXPERIENCE,
            data={"experience": STORY_EXPERIENCE, "tomb_raiders": True},
        )
    )


def story_battles(battles: list[BattleA]) -> dict[int, int]:
    """Stories Are Nice: the bonus comes once per turn, to "the army that the player wrote about";
    with stories of several battles "the player may decide which army": the battle whose sheet
    gives it the bonus, else (the player silent) the first with a story, in province order. Only
    an army can take it, not a garrison. Kingdom -> the battle its story bonus goes to."""
    chosen: dict[int, int] = {}
    for battle in sorted(battles, key=lambda b: (b.province, b.id)):
        for side in (battle.attacker, battle.defender):
            # A Reconnaissance or Sabotage goes without an army: its story counts for the army named.
            if side.kingdom is None or (side.army is None and side.story_army is None) or not side.story:
                continue
            if side.kingdom not in chosen or (
                side.story_bonus and not _gives_bonus(battles, chosen[side.kingdom], side.kingdom)
            ):
                chosen[side.kingdom] = battle.id
    return chosen


def _gives_bonus(battles: list[BattleA], battle_id: int, kingdom: int) -> bool:
    """Whether the kingdom's sheet for `battle_id` gives its story bonus there."""
    battle = next(b for b in battles if b.id == battle_id)
    return any(s.kingdom == kingdom and s.story_bonus for s in (battle.attacker, battle.defender))


def veterans(
    state: AftermathState,
    events: list[Event],
    army: ArmyState,
    regiments: list[tuple[UnitState, int]],
    province: ProvinceState,
) -> None:
    """Veteran Status, judged after Casualty Recovery: a unit that kept more than half of the
    models it began the battle with is eligible for its next level; a veteran unit that lost
    half or more drops a level. One line for each, per army. Curse of the Dead (Tomb Kings,
    Vampire Counts, and so the Ancient Dead): their undead units cannot spend experience on
    Veteran Status, so none is made eligible; a unit the list marks living (XP8) is."""
    army_type = state.kingdoms[army.kingdom].army_type
    cursed = army_type in CURSE_OF_THE_DEAD
    eligible: list[tuple[str, str]] = []  # (unit, what the line says of it)
    dropped: list[tuple[str, str]] = []
    for unit, began in regiments:
        if began <= 0:
            continue
        kept = unit.models
        if kept * 2 > began:
            undead = cursed and not unit.living
            if not undead and unit.veteran_level < VETERAN_LEVEL_MAX and not unit.veteran_eligible:
                put_unit(state, replace(unit, veteran_eligible=True))
                eligible.append((unit.name, f"kept {kept} of {began}, to +{unit.veteran_level + 1}"))
        else:
            level = max(unit.veteran_level - 1, 0)
            put_unit(state, replace(unit, veteran_eligible=False, veteran_level=level))
            if unit.veteran_level > 0:
                dropped.append((unit.name, f"kept {kept} of {began}, now +{level}"))
    if eligible:
        events.append(
            Event(
                PHASE,
                EventCode.VETERAN_ELIGIBLE,
                f"{army.name}: units that kept more than half their models may each rise one level of Veteran "
                f"Status for 10 experience (Veteran Status): {', '.join(f'{n} ({w})' for n, w in eligible)}.",
                kingdom=army.kingdom,
                army=army.id,
                province=province.number,
                data={"units": [n for n, _ in eligible]},
            )
        )
    if dropped:
        events.append(
            Event(
                PHASE,
                EventCode.VETERAN_LOST,
                f"{army.name}: units that lost half or more of their models drop one level of Veteran Status "
                f"(Veteran Status): {', '.join(f'{n} ({w})' for n, w in dropped)}.",
                kingdom=army.kingdom,
                army=army.id,
                province=province.number,
                data={"units": [n for n, _ in dropped]},
            )
        )


def pressing_general(state: AftermathState, army_id: int | None) -> CharacterState | None:
    """The army's General (its living Warlord if he is in it, else its living General) if he
    can use Press the Advantage: he has it and no Amnesia took his abilities away."""
    if army_id is None:
        return None
    leaders = [
        c
        for c in state.characters.values()
        if c.alive and c.role in GENERAL_ROLES and c.unit in state.units and state.units[c.unit].army == army_id
    ]
    general = min(leaders, key=lambda c: (GENERAL_ROLES.index(c.role), c.id), default=None)
    if general is None or PRESS_THE_ADVANTAGE not in abilities_kept(general.abilities, general.injuries):
        return None
    return general


def press_the_advantage(
    state: AftermathState,
    events: list[Event],
    side: SideA,
    outcome: SideOutcome,
    general: CharacterState | None,
    province: ProvinceState,
) -> None:
    """Rogue / Trickster, Press the Advantage: 25 more experience for a victory or massacre,
    if the General who led the battle with it survived the injury rolls. An army denied its
    experience (no sheet, A7) gets none of it (docs/rules-decisions.md)."""
    if general is not None:
        general = state.characters[general.id]  # as the injury rolls left him
    if side.army is None or general is None or not general.alive or ancient_dead(state, side.kingdom):
        return  # the armies of the Ancient Dead gain no experience, this bonus neither
    if not (outcome.result.is_victory and outcome.experience_allowed):
        return
    army = add_experience(state, side.army, PRESS_THE_ADVANTAGE_EXPERIENCE)
    events.append(
        Event(
            PHASE,
            EventCode.PRESS_THE_ADVANTAGE,
            f"{army.name} gains {PRESS_THE_ADVANTAGE_EXPERIENCE} more experience for the "
            f"{outcome.result.label.lower()} in {province}: its General {general.name} survived the battle "
            "(Rogue / Trickster: Press the Advantage).",
            kingdom=army.kingdom,
            army=army.id,
            province=province.number,
            experience=PRESS_THE_ADVANTAGE_EXPERIENCE,
            data={"experience": PRESS_THE_ADVANTAGE_EXPERIENCE, "character": general.name},
        )
    )
