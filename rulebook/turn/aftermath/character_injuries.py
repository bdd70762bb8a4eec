"""The characters in the aftermath (pure Python): the Character Injury Chart for those the sheet
lost, with its rerolls (Resilient, the experience the player spends, the opponent's Backstabbers),
death or retirement and his items, the battles a Deep Wound or an Old Battle Wound kept him out of,
and the battles survived. The chart itself is rulebook.turn.aftermath.injury_chart.

Rulebook: Character Injury Chart (D66), Spending Experience (a reroll), Psychopath / Zealot (Resilient), Skaven
(Backstabbers), Warlord (his succession: rulebook.turn.aftermath.succession).
"""

from __future__ import annotations

from dataclasses import replace

from kernel.dice import Dice
from kernel.event_codes import EventCode
from kernel.events import Event
from rulebook.archetypes.character_record import abilities_kept, deep_wound_battles_left
from rulebook.tables import ArmyType
from rulebook.turn.aftermath.injury_chart import AGAINST_THE_ODDS, FULL, Injury, injury_roll
from rulebook.turn.aftermath.sheets import SideA
from rulebook.turn.aftermath.state import (
    PHASE,
    AftermathState,
    add_experience,
    ancient_dead,
    army_name,
    lose_items,
    perished,
    put_character,
    put_item,
    put_unit,
    robbed,
)
from rulebook.turn.aftermath.succession import succession
from rulebook.world import ArmyState, CharacterState, ProvinceState

# Spending Experience: "To reroll a result on the Character Injury Table (25 Experience Points =
# 1 reroll; the second roll stands regardless of the result)". What the player asks for on the
# turn summary sheet: a reroll of a Dead result only, or of any result that harms him.
INJURY_REROLL_EXPERIENCE = 25
REROLL_DEAD = "dead"
REROLL_HARMED = "harmed"
INJURY_REROLL_CHOICES = (REROLL_DEAD, REROLL_HARMED)
RESILIENT = "Resilient"  # Psychopath / Zealot, 4: "may reroll any result on the Character Injury Table"
# Skaven "Backstabbers": "If your army includes more than one character and at least one of them is
# an assassin, your opponent can force you to reroll the results of ONE character injury test."
BACKSTABBERS_ASSASSIN = "assassin"  # a character whose unit's name says Assassin
UNHARMED = frozenset({FULL.code, AGAINST_THE_ODDS.code})


def deep_wounds(state: AftermathState, events: list[Event], side: SideA, province: ProvinceState) -> set[int]:
    """Deep Wound: "the character must miss the next D3 battles the army plays". Each battle
    the army fights after the injury counts one off (before this battle's own injuries). The
    characters who missed this battle."""
    missed: set[int] = set()
    if side.army is None:
        return missed
    army = state.world.army(side.army)
    for character in sorted(state.characters.values(), key=lambda c: c.id):
        unit = state.units.get(character.unit)
        if not character.alive or unit is None or unit.army != side.army:
            continue
        for n, injury in enumerate(character.injuries):
            left = deep_wound_battles_left(injury)
            if left:
                counted = {**injury, "battles_missed": int(str(injury.get("battles_missed") or 0)) + 1}
                wounds = (*character.injuries[:n], counted, *character.injuries[n + 1 :])
                put_character(state, replace(character, injuries=wounds))
                missed.add(character.id)
                events.append(
                    Event(
                        PHASE,
                        EventCode.DEEP_WOUND_MISSED,
                        f"{character.name} ({army.name}) missed the battle in {province} (Deep Wound); "
                        + (f"{left - 1} more to miss." if left > 1 else "he may fight again."),
                        kingdom=character.kingdom,
                        army=army.id,
                        province=province.number,
                        data={"character": character.name, "left": left - 1},
                    )
                )
                break  # one battle counts off one wound's battles at a time
    return missed


def old_wounds(state: AftermathState, events: list[Event], side: SideA, province: ProvinceState) -> None:
    """Old Battle Wound: the characters whose roll, made when the battle was posted, was a 1."""
    for character_id in side.sitting_out:
        character = state.characters.get(character_id)
        if character is None or side.army is None:
            continue
        events.append(
            Event(
                PHASE,
                EventCode.OLD_WOUND_OUT,
                f"{character.name} ({army_name(state, side.army)}) could not take part in the battle in "
                f"{province}: his old wound was acting up (Old Battle Wound).",
                kingdom=character.kingdom,
                army=side.army,
                province=province.number,
                data={"character": character.name},
            )
        )


def injuries(
    state: AftermathState,
    dice: Dice,
    events: list[Event],
    side: SideA,
    province: ProvinceState,
    *,
    forced: bool = False,
) -> None:
    """The Character Injury Chart for each character the sheet lost, with the rerolls: Resilient
    (free), the 25 experience the player chose to spend, the opponent's Backstabbers. One
    reroll at most per test: the second roll stands whatever it is."""
    choices = dict(side.injury_rerolls)
    backstab = forced and side.army is not None and backstabbers(state, side.army)
    for character_id in side.characters_lost:
        character = state.characters.get(character_id)
        if character is None or not character.alive:
            continue
        unit = state.units[character.unit]
        if perished(state, unit.army):
            continue  # perished with his Elite Defense Force: no rolls
        army = state.world.army(unit.army)
        earlier = [i.get("detail", "") for i in character.injuries]

        def roll(
            character: CharacterState = character, army_id: int = army.id, earlier: list[object] = earlier
        ) -> list[Injury]:
            return injury_roll(
                dice,
                name=character.name,
                kingdom=character.kingdom,
                army=army_id,
                arms_lost=sum(1 for d in earlier if str(d).startswith("lost an arm")),
                eyes_lost=sum(1 for i in character.injuries if i.get("code") == "blind-in-one-eye"),
            )

        rolled = roll()
        rule, cost = reroll_rule(
            state, events, character, army, rolled, choices.get(character.id, ""), backstab, province
        )
        if rule:
            if rule == "Backstabbers":
                backstab = False  # ONE character injury test
            second = roll()
            if cost:
                army = add_experience(state, army.id, -cost)
            _reroll_event(events, character, army, rule, cost, rolled, second, province)
            rolled = second
        ancient = ancient_dead(state, character.kingdom)
        for injury in rolled:
            record = {**injury.as_json(), "turn": state.turn}
            character = put_character(state, replace(character, injuries=(*character.injuries, record)))
            detail = injury.detail
            if injury.experience_bonus and ancient:
                detail = "no experience, the armies of the Ancient Dead do not gain experience points"
            # Say each thing once, and nothing empty: "Dead", not "Dead: dead".
            said = f": {detail}." if detail and detail.lower() != injury.label.lower() else "."
            events.append(
                Event(
                    PHASE,
                    EventCode.INJURY,
                    f"{character.name} ({army.name}) rolls {injury.roll} on the Character Injury Chart: "
                    f"{injury.label}{said}",
                    kingdom=character.kingdom,
                    army=army.id,
                    province=province.number,
                    experience=injury.experience_bonus if not ancient else 0,
                    data={"character": character.name, **injury.as_json()},
                )
            )
            if injury.experience_bonus and not ancient:
                army = add_experience(state, army.id, injury.experience_bonus)
            if injury.items_lost:
                robbed(state, unit.id)
        if any(i.dead or i.retired for i in rolled):
            character_dies(state, events, character, army, retired=not any(i.dead for i in rolled))


def reroll_rule(
    state: AftermathState,
    events: list[Event],
    character: CharacterState,
    army: ArmyState,
    first: list[Injury],
    choice: str,
    backstab: bool,
    province: ProvinceState,
) -> tuple[str, int]:
    """Which reroll the first result calls for, and its cost in experience: ("", 0) for none.
    Resilient rerolls for free what the player asked for, or a Dead result when he asked for
    nothing (docs/rules-decisions.md, 76); otherwise the player's choice costs 25 experience,
    if the army has it; an unharmed result is what the opponent's Backstabbers rerolls."""
    if RESILIENT in abilities_kept(character.abilities, character.injuries) and _wants(choice or REROLL_DEAD, first):
        return "Resilient", 0
    if choice and _wants(choice, first):
        if army.experience >= INJURY_REROLL_EXPERIENCE:
            return "experience", INJURY_REROLL_EXPERIENCE
        events.append(
            Event(
                PHASE,
                EventCode.INJURY_REROLL_REFUSED,
                f"{character.name} ({army.name}): no reroll on the Character Injury Chart, the army has "
                f"{army.experience} experience and a reroll costs {INJURY_REROLL_EXPERIENCE} (Spending Experience).",
                kingdom=character.kingdom,
                army=army.id,
                province=province.number,
                data={"character": character.name, "experience": army.experience},
            )
        )
        return "", 0
    if backstab and all(i.code in UNHARMED for i in first):
        return "Backstabbers", 0
    return "", 0


def _reroll_event(
    events: list[Event],
    character: CharacterState,
    army: ArmyState,
    rule: str,
    cost: int,
    first: list[Injury],
    second: list[Injury],
    province: ProvinceState,
) -> None:
    why = {
        "Resilient": "free, he is Resilient (Psychopath / Zealot)",
        "experience": f"for {cost} experience (Spending Experience)",
        "Backstabbers": "forced by the opponent (Skaven: Backstabbers)",
    }[rule]
    events.append(
        Event(
            PHASE,
            EventCode.INJURY_REROLL,
            f"{character.name} ({army.name}) rolled {_rolled(first)} on the Character Injury Chart and rerolls it "
            f"{why}: {_rolled(second)}; the second roll stands.",
            kingdom=character.kingdom,
            army=army.id,
            province=province.number,
            experience=-cost,
            data={
                "character": character.name,
                "rule": rule,
                "experience": -cost,
                "first": [i.as_json() for i in first],
                "second": [i.as_json() for i in second],
            },
        )
    )


def backstabbers(state: AftermathState, army_id: int) -> bool:
    """Skaven "Backstabbers": the army includes more than one character and at least one of
    them is an Assassin (a character unit whose name says so; docs/rules-decisions.md, 77)."""
    if state.kingdoms[state.world.army(army_id).kingdom].army_type is not ArmyType.SKAVEN:
        return False
    names = [c.name for c in state.characters.values() if c.alive and state.units[c.unit].army == army_id]
    return len(names) > 1 and any(BACKSTABBERS_ASSASSIN in n.lower() for n in names)


def survived(state: AftermathState, side: SideA, missed: set[int]) -> None:
    """Battles survived, counted after the injury rolls: each living character of the army that
    fought, except those who missed the battle (`missed`: Deep Wound; an Old Battle Wound's 1)."""
    if side.army is None or perished(state, side.army):
        return
    for character in list(state.characters.values()):
        unit = state.units.get(character.unit)
        if unit is None or unit.army != side.army or not character.alive:
            continue
        if character.id in missed or character.id in side.sitting_out:
            continue
        put_character(state, replace(character, battles_survived=character.battles_survived + 1))


def character_dies(
    state: AftermathState, events: list[Event], character: CharacterState, army: ArmyState, *, retired: bool
) -> None:
    """Dead, or retired (a retired character counts as dead): his items stay with the army, or go
    with him; a Warlord's death calls the succession."""
    character = put_character(state, replace(character, alive=False))
    unit = put_unit(state, replace(state.units[character.unit], models=0))
    if retired:
        # A retired character takes his items with him as a gift for service.
        lose_items(state, unit.id)
    else:
        # Dead: the equipment and magic items remain with the army for another character.
        for item in list(state.items.values()):
            if item.bearer == unit.id and not item.destroyed:
                put_item(state, replace(item, bearer=None))
    events.append(
        Event(
            PHASE,
            EventCode.CHARACTER_DEAD if not retired else EventCode.CHARACTER_RETIRED,
            f"{character.name} ({army.name}) "
            + (
                "must be retired: he counts as dead and takes his items with him."
                if retired
                else "is dead; his items stay with the army."
            ),
            kingdom=character.kingdom,
            army=army.id,
            data={"character": character.name},
        )
    )
    if character.role == "warlord":
        succession(state, events, character)


def _wants(choice: str, rolled: list[Injury]) -> bool:
    """Whether the player's reroll choice covers this result: a Dead result, or any that harms."""
    if choice == REROLL_DEAD:
        return any(i.dead for i in rolled)
    if choice == REROLL_HARMED:
        return any(i.code not in UNHARMED for i in rolled)
    return False


def _rolled(rolled: list[Injury]) -> str:
    """'11 (Dead)', or '16 (Multiple Injuries: 32 Chest Wound, 44 Deep Wound)'."""
    head = f"{rolled[0].roll} ({rolled[0].label}"
    rest = ", ".join(f"{i.roll} {i.label}" for i in rolled[1:])
    return head + (f": {rest})" if rest else ")")
