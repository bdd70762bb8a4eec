"""Using Tomb Raiders and the Tomb Raid, and the army's entry into the Ruins, pure Python. Rule cases
TR4, TR5 and TR10; rules decisions 403, 405 and 407-410.

Ruins: "The player uses their Tomb Raider force to secure the ruins ... If the player loses the
skirmish, their army may not move into to the province this turn."
Using Tomb Raiders: "Tomb Raiders may do ONE of the following missions each turn. To send the Tomb
Raiders on a mission costs 100 gold from your Treasury."
Tomb Raid: "Provided one of your armies is moving into a province containing a ruin, the Tomb Raiders
can set off ... If the raid is a success, the Tomb is raided: roll on Treasure from the Ruins ... your
kingdom acquires a scarab amulet if it is the first time the Ruins was successfully tomb-raided. The
army is now safely able to move into the province. If the raid was a failure ... The army may not
move into to the province this turn."
The Ancient Dead: Deserts: a sacked town's ruin holds a 150-point garrison and no amulet; "an army must
fight the garrison force and in the same turn send a treasure hunting party to the ruins, IF the
battle against the Ancient Dead garrison is successful (win or draw)."

The mission is checked on the order sheet as plain records (`tomb_raid_problems`); the skirmish is
played with the turn's battles, and its result settles the waiting armies' entry (`raid_outcome`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from enum import StrEnum

from kernel.dice import Dice
from rulebook.ruins_and_tomb_raiders.force import TombRaiders, force_problems
from rulebook.ruins_and_tomb_raiders.maintaining import change_fee, may_go_after_change
from rulebook.ruins_and_tomb_raiders.treasure import Treasure, scarab_amulet_found, treasure_roll

USING = "Using Tomb Raiders"
TOMB_RAID = "Tomb Raid"
MISSION_GOLD = 100  # "To send the Tomb Raiders on a mission costs 100 gold from your Treasury"
MISSIONS_A_TURN = 1  # "Tomb Raiders may do ONE of the following missions each turn"


class MissionKind(StrEnum):
    """The Tomb Raiders' missions: the Tomb Raid, and Reconnaissance and Sabotage against a rival kingdom
    (rulebook.ruins_and_tomb_raiders.reconnaissance and .sabotage hold their lists)."""

    TOMB_RAID = "tomb-raid"
    RECONNAISSANCE = "reconnaissance"
    SABOTAGE = "sabotage"


@dataclass(frozen=True)
class Ruin:
    """A province with ruins: sacked (made from a town or city the desert took) and how many times it
    was raided successfully."""

    province: int
    name: str
    sacked: bool = False
    successful_raids: int = 0


@dataclass(frozen=True)
class TombRaidOrder:
    """The sheet's Tomb Raid: the ruin's province, and whether the kingdom pays 5 gold a point added to
    send a force changed this turn (Maintaining / Changing Tomb Raiders)."""

    province: int
    pay_change_fee: bool = False


@dataclass(frozen=True)
class RaidContext:
    """What the mission check reads, as the sheet stands: the kingdom's force and the points added to it
    since the turn opened, the gold the sheet leaves for missions, the ruins of the map, where the
    kingdom's armies are ordered to move (army id -> province), and the missions on the sheet."""

    force: TombRaiders | None
    treasury: int
    ruins: Mapping[int, Ruin]
    moves: Mapping[int, int]
    missions: int = 1
    points_added: int = 0
    ancient_dead: bool = False


class MissionProblemCode(StrEnum):
    ANCIENT_DEAD = "mission-ancient-dead"
    NO_FORCE = "mission-no-force"
    FORCE_INVALID = "mission-force-invalid"
    CHANGED_NOT_PAID = "mission-changed-not-paid"
    NO_MODELS_AVAILABLE = "mission-no-models-available"
    ONE_MISSION = "mission-one-a-turn"
    NOT_ENOUGH_GOLD = "mission-not-enough-gold"
    NOT_RUINS = "mission-not-ruins"
    NO_ARMY_MOVING_IN = "mission-no-army-moving-in"
    # Reconnaissance and Sabotage (rulebook.ruins_and_tomb_raiders.rival_mission_orders)
    NO_RIVAL = "mission-no-rival"
    NOT_A_RIVAL = "mission-not-a-rival"
    UNKNOWN_DESIRED = "mission-unknown-desired"
    TARGET_MISSING = "mission-target-missing"
    TARGET_NOT_WANTED = "mission-target-not-wanted"
    TARGET_NOT_KNOWN = "mission-target-not-known"


@dataclass(frozen=True)
class MissionProblem:
    code: MissionProblemCode
    message: str
    rule: str = TOMB_RAID
    field: str = ""  # the order's field that mends it, where the code alone does not say (a rival mission's target)


def mission_gold(order: TombRaidOrder, points_added: int) -> int:
    """The gold the mission takes from the treasury: 100, and the change fee when the kingdom pays it
    (decision 410)."""
    return MISSION_GOLD + (change_fee(points_added) if order.pay_change_fee else 0)


def armies_waiting(province: int, moves: Mapping[int, int]) -> tuple[int, ...]:
    """The kingdom's armies whose entry into the ruin's province waits on the raid (decision 408)."""
    return tuple(sorted(army for army, to in moves.items() if to == province))


def tomb_raid_problems(order: TombRaidOrder, ctx: RaidContext) -> list[MissionProblem]:
    """Every reason the sheet's Tomb Raid is refused, each naming the rule; empty: it goes."""
    problems: list[MissionProblem] = []
    if ctx.ancient_dead:
        return [
            MissionProblem(MissionProblemCode.ANCIENT_DEAD, "The Ancient Dead send no Tomb Raiders.", "Tomb Raiders")
        ]
    if ctx.missions > MISSIONS_A_TURN:
        problems.append(
            MissionProblem(
                MissionProblemCode.ONE_MISSION,
                f"The Tomb Raiders may do one mission each turn; the sheet sends them on {ctx.missions} ({USING}).",
                USING,
            )
        )
    ruin = ctx.ruins.get(order.province)
    if ruin is None:
        problems.append(
            MissionProblem(
                MissionProblemCode.NOT_RUINS,
                f"Province {order.province} holds no ruins; a Tomb Raid is made on a ruin ({TOMB_RAID}).",
            )
        )
    elif not armies_waiting(order.province, ctx.moves):
        problems.append(
            MissionProblem(
                MissionProblemCode.NO_ARMY_MOVING_IN,
                f"None of your armies is ordered to move into {ruin.name}; the Tomb Raiders set off only when one "
                f"of your armies is moving into a province containing a ruin ({TOMB_RAID}).",
            )
        )
    problems += force_ready_problems(ctx.force, ctx.points_added, paid=order.pay_change_fee)
    gold = mission_gold(order, ctx.points_added)
    if ctx.treasury < gold:
        fee = f" with the change fee of {change_fee(ctx.points_added):,}" if order.pay_change_fee else ""
        problems.append(
            MissionProblem(
                MissionProblemCode.NOT_ENOUGH_GOLD,
                f"The mission costs {gold:,} gold{fee}; the treasury has {ctx.treasury:,} for it ({USING}).",
                USING,
            )
        )
    return problems


def force_ready_problems(force: TombRaiders | None, points_added: int, *, paid: bool) -> list[MissionProblem]:
    """Whether the force is able to go on any mission: a valid list, paid for if changed this turn (`paid`:
    the sheet pays the change fee for `points_added`), a model to send."""
    if force is None or not force.entries:
        return [
            MissionProblem(
                MissionProblemCode.NO_FORCE,
                "Your kingdom has no Tomb Raider force to send; create it first (Creating Tomb Raiders).",
                "Creating Tomb Raiders",
            )
        ]
    problems: list[MissionProblem] = []
    if force_problems(force):
        problems.append(
            MissionProblem(
                MissionProblemCode.FORCE_INVALID,
                "Your Tomb Raider force breaks the rules of Creating Tomb Raiders; put its list right before "
                "sending it.",
                "Creating Tomb Raiders",
            )
        )
    if not may_go_after_change(points_added, paid=paid):
        problems.append(
            MissionProblem(
                MissionProblemCode.CHANGED_NOT_PAID,
                f"Your Tomb Raiders were changed this turn ({points_added} points added): they may go only if "
                f"the kingdom pays {change_fee(points_added):,} gold, 5 a point (Maintaining / Changing Tomb "
                "Raiders).",
                "Maintaining / Changing Tomb Raiders",
            )
        )
    if force.models_available < 1:
        problems.append(
            MissionProblem(
                MissionProblemCode.NO_MODELS_AVAILABLE,
                "Every model of your Tomb Raiders is out of action this turn (Recovery).",
                "Recovery",
            )
        )
    return problems


class RaidResult(StrEnum):
    """The raid's result on the turn summary sheet (the raiders' side)."""

    SUCCESS = "success"
    DRAW = "draw"
    FAILURE = "failure"


@dataclass(frozen=True)
class RaidOutcome:
    """What the raid gives: whether the waiting armies move in, the treasure, the amulet, the ruin after."""

    army_may_enter: bool
    ruin: Ruin
    treasure: Treasure | None = None
    amulet: str | None = None


def raid_outcome(
    result: RaidResult | None, ruin: Ruin, dice: Dice, *, kingdom: int, garrison_beaten: bool | None = None
) -> RaidOutcome:
    """The raid settles the entry of the armies waiting on it. A success: they move in, the kingdom rolls
    on Treasure from the Ruins and finds the Scarab Amulet at the ruin's first successful raid (never in a
    sacked town's ruin). A draw, a failure, or no raid: they may not move in this turn, nothing is found
    (decision 407). At a sacked town's ruin the raid counts only when the army beat its desert's garrison
    (won or drew, `garrison_beaten`; decision 409)."""
    if result is not RaidResult.SUCCESS or (ruin.sacked and garrison_beaten is False):
        return RaidOutcome(False, ruin)
    treasure = treasure_roll(dice, kingdom=kingdom, ruin=ruin.name)
    amulet = scarab_amulet_found(sacked=ruin.sacked, raided_before=ruin.successful_raids)
    return RaidOutcome(True, replace(ruin, successful_raids=ruin.successful_raids + 1), treasure, amulet)


def army_may_enter_ruins(outcome: RaidOutcome | None) -> bool:
    """An army ordered into a province with ruins moves in only on its kingdom's successful raid there
    (Ruins; decision 408): without a raid it may not move in this turn."""
    return outcome is not None and outcome.army_may_enter
