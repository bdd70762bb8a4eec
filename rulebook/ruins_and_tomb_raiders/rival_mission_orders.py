"""Sending the Tomb Raiders on Reconnaissance or Sabotage: the order and its check, pure Python. Rules
decisions 450, 454 and 455.

Reconnaissance: "Your Tomb Raider's skills make them an excellent choice to gather information on a rival
Kingdom. To do this, pay the Tomb Raider's fee of 100 gold from your treasury and select a desired mission
from the list below." Sabotage: the same words, "to tamper with a rival Kingdom". Using Tomb Raiders:
"Tomb Raiders may do ONE of the following missions each turn."

The check reads the order as plain records (`rival_mission_problems`): the rival named (decision 454),
the desired mission of that kind's list, the army or character it names where the listed mission names
one, among those the spy may know of (decision 455), the force ready to go, and the gold.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from rulebook.ruins_and_tomb_raiders.force import TombRaiders
from rulebook.ruins_and_tomb_raiders.maintaining import change_fee
from rulebook.ruins_and_tomb_raiders.reconnaissance import RECONNAISSANCE_MISSIONS
from rulebook.ruins_and_tomb_raiders.reconnaissance import RULE as RECONNAISSANCE
from rulebook.ruins_and_tomb_raiders.rival_missions import ListedMission, MissionTarget
from rulebook.ruins_and_tomb_raiders.sabotage import RULE as SABOTAGE
from rulebook.ruins_and_tomb_raiders.sabotage import SABOTAGE_MISSIONS
from rulebook.ruins_and_tomb_raiders.tomb_raid import (
    MISSION_GOLD,
    MISSIONS_A_TURN,
    USING,
    MissionKind,
    MissionProblem,
    MissionProblemCode,
    force_ready_problems,
)

# Each rival mission's section and list.
RIVAL_LISTS: dict[MissionKind, tuple[str, tuple[ListedMission, ...]]] = {
    MissionKind.RECONNAISSANCE: (RECONNAISSANCE, RECONNAISSANCE_MISSIONS),
    MissionKind.SABOTAGE: (SABOTAGE, SABOTAGE_MISSIONS),
}


def listed_mission(kind: str, desired: str) -> ListedMission | None:
    """The mission of `kind`'s list whose value is `desired` (None: not on that list)."""
    section = next((lists for k, lists in RIVAL_LISTS.items() if k.value == kind), None)
    if section is None:
        return None
    return next((m for m in section[1] if m.mission == desired), None)


def section_of(kind: str) -> str:
    """The rulebook section of a rival mission's kind ("Reconnaissance" or "Sabotage")."""
    return RIVAL_LISTS[MissionKind(kind)][0]


@dataclass(frozen=True)
class RivalMissionOrder:
    """The sheet's Reconnaissance or Sabotage: its `kind` (MissionKind), the rival kingdom, the desired
    mission of the kind's list, the rival's army or character where the listed mission names one, and
    whether the kingdom pays the change fee to send a force changed this turn."""

    kind: str
    target_kingdom: int | None
    desired: str
    target_army: int | None = None
    target_character: int | None = None
    pay_change_fee: bool = False


@dataclass(frozen=True)
class Rival:
    """A kingdom the spy might name: its name, and why it is no rival (the Ancient Dead; a Rogue Kingdom,
    its player out of the game)."""

    name: str
    ancient_dead: bool = False
    out_of_the_game: bool = False


@dataclass(frozen=True)
class Known:
    """An army or character of a rival the spy may name (decision 455): its kingdom and how the page
    names it (an army by its name; a character by its place: "the Warlord", "the General of A3")."""

    kingdom: int
    label: str


@dataclass(frozen=True)
class RivalContext:
    """What the check reads: the spying kingdom, its force and the points added to it since the turn
    opened, the gold the sheet leaves for the mission, the missions on the sheet, the campaign's kingdoms,
    and the rivals' armies and characters the spy may name."""

    kingdom: int
    force: TombRaiders | None
    treasury: int
    kingdoms: Mapping[int, Rival]
    armies: Mapping[int, Known] = field(default_factory=dict)
    characters: Mapping[int, Known] = field(default_factory=dict)
    missions: int = 1
    points_added: int = 0
    ancient_dead: bool = False


def rival_mission_gold(order: RivalMissionOrder, points_added: int) -> int:
    """The gold the mission takes from the treasury: the fee of 100, and the change fee when paid."""
    return MISSION_GOLD + (change_fee(points_added) if order.pay_change_fee else 0)


def rival_mission_problems(order: RivalMissionOrder, ctx: RivalContext) -> list[MissionProblem]:
    """Every reason the sheet's Reconnaissance or Sabotage is refused, each naming the rule; empty: it
    goes."""
    if ctx.ancient_dead:
        return [
            MissionProblem(MissionProblemCode.ANCIENT_DEAD, "The Ancient Dead send no Tomb Raiders.", "Tomb Raiders")
        ]
    section = section_of(order.kind)
    problems: list[MissionProblem] = []
    if ctx.missions > MISSIONS_A_TURN:
        problems.append(
            MissionProblem(
                MissionProblemCode.ONE_MISSION,
                f"The Tomb Raiders may do one mission each turn; the sheet sends them on {ctx.missions} ({USING}).",
                USING,
            )
        )
    problems += _rival_problems(order, ctx, section)
    listed = listed_mission(order.kind, order.desired)
    if listed is None:
        problems.append(
            MissionProblem(
                MissionProblemCode.UNKNOWN_DESIRED,
                f"Select the desired mission from the {section} list ({section}).",
                section,
            )
        )
    else:
        problems += _target_problems(order, ctx, listed, section)
    problems += force_ready_problems(ctx.force, ctx.points_added, paid=order.pay_change_fee)
    gold = rival_mission_gold(order, ctx.points_added)
    if ctx.treasury < gold:
        fee = f" with the change fee of {change_fee(ctx.points_added):,}" if order.pay_change_fee else ""
        problems.append(
            MissionProblem(
                MissionProblemCode.NOT_ENOUGH_GOLD,
                f"The {section} costs the Tomb Raider's fee of {gold:,} gold{fee}; the treasury has "
                f"{ctx.treasury:,} for it ({section}).",
                section,
            )
        )
    return problems


def _rival_problems(order: RivalMissionOrder, ctx: RivalContext, section: str) -> list[MissionProblem]:
    """The kingdom named: another kingdom of the campaign, still in the game, not the Ancient Dead
    (decision 454). An ally is a rival all the same."""
    target = order.target_kingdom
    rival = ctx.kingdoms.get(target) if target is not None else None
    if rival is None:
        return [
            MissionProblem(
                MissionProblemCode.NO_RIVAL,
                f"Name the rival kingdom the Tomb Raiders go against ({section}).",
                section,
            )
        ]
    why = ""
    if target == ctx.kingdom:
        why = "the Tomb Raiders' own kingdom"
    elif rival.ancient_dead:
        why = "the Ancient Dead keep no treasury, orders or court to spy on"
    elif rival.out_of_the_game:
        why = "a Rogue Kingdom, its player out of the game"
    if not why:
        return []
    return [
        MissionProblem(
            MissionProblemCode.NOT_A_RIVAL,
            f"{rival.name} is no rival kingdom for a {section}: {why} ({section}).",
            section,
        )
    ]


def _target_problems(
    order: RivalMissionOrder, ctx: RivalContext, listed: ListedMission, section: str
) -> list[MissionProblem]:
    """The army or character named exactly when the listed mission names one ("any one army", "any 1
    character"), and one of the rival's the spy may name (decision 455)."""
    problems: list[MissionProblem] = []
    wants = listed.target
    named: Sequence[tuple[MissionTarget, int | None, Mapping[int, Known]]] = (
        (MissionTarget.ARMY, order.target_army, ctx.armies),
        (MissionTarget.CHARACTER, order.target_character, ctx.characters),
    )
    for what, chosen, known in named:
        if what is wants and chosen is None:
            problems.append(
                MissionProblem(
                    MissionProblemCode.TARGET_MISSING,
                    f"{listed.label} names {_one(what)} of the rival kingdom: choose it ({section}).",
                    section,
                    f"target_{what.value}",
                )
            )
        elif what is not wants and chosen is not None:
            problems.append(
                MissionProblem(
                    MissionProblemCode.TARGET_NOT_WANTED,
                    f"{listed.label} names no {what.value}: leave the {what.value} empty ({section}).",
                    section,
                    f"target_{what.value}",
                )
            )
        elif chosen is not None and (chosen not in known or known[chosen].kingdom != order.target_kingdom):
            problems.append(
                MissionProblem(
                    MissionProblemCode.TARGET_NOT_KNOWN,
                    f"The {what.value} named is not one of the rival kingdom's your Tomb Raiders may seek: "
                    f"{_knowable(what)} ({section}).",
                    section,
                    f"target_{what.value}",
                )
            )
    return problems


def _one(what: MissionTarget) -> str:
    return "any one army" if what is MissionTarget.ARMY else "any 1 character"


def _knowable(what: MissionTarget) -> str:
    """What decision 455 lets a spy name."""
    if what is MissionTarget.ARMY:
        return "an army of theirs in the field that fought a battle of an earlier turn (the bulletin names it)"
    return "their Warlord, or the General of an army of theirs you may name"


# When each mission's effect comes, as the sheet says it beside the choice (decision 450: the skirmish is
# played with this turn's battles and settled in this turn's aftermath).
WHEN_IT_TAKES_EFFECT: dict[str, str] = {
    "character-bio": "delivered after this turn's battles, as the character stands then",
    "treasury-info": "delivered after this turn's battles: the treasury then, and what was spent this turn and on what",
    "army-statistics": "delivered after this turn's battles, as the army stands then (a list not written yet: "
    "its points then, its list once written)",
    "army-orders": "the army's orders of next turn, delivered when next turn resolves; name one of your own armies "
    "on next turn's sheet to hold in response",
    "army-construction-info": "where and at what points when the kingdom next creates an army; its list once written",
    "artillery-info": "delivered after this turn's battles",
    "magic-college-raid": "delivered after this turn's battles",
    "theft": "the gold moves after this turn's battles",
    "destroy-communication": "cancel one support on your sheet of next turn or the turn after",
    "mislabeled-goods": "the kingdom's next magic item found in the field arrives d2 turns later",
    "poison-well": "the kingdom's next battle with a garrison force, from a later turn",
    "assassinate-spiritual-leader": "the kingdom's next battle, from a later turn",
    "sappers": "the kingdom's next battle using barricades, from a later turn",
    "misdirection": "the army's orders of next turn revert to Hold",
}
