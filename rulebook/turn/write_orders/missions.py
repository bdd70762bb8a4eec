"""The Tomb Raiders' mission the sheet sends (Using Tomb Raiders; Tomb Raid; Reconnaissance; Sabotage)
(pure Python). Rule case TR4; rules decisions 408, 410, 414, 454 and 455.

"Tomb Raiders may do ONE of the following missions each turn. To send the Tomb Raiders on a mission
costs 100 gold from your Treasury." Tomb Raid: "Provided one of your armies is moving into a province
containing a ruin, the Tomb Raiders can set off". The rules are
rulebook.ruins_and_tomb_raiders.tomb_raid's (`tomb_raid_problems`); this module reads the sheet for
them: where the kingdom's armies are ordered to move, and the gold the rest of the sheet leaves.
Reconnaissance and Sabotage are rulebook.ruins_and_tomb_raiders.rival_mission_orders' rules
(`rival_mission_problems`): this module reads the world for them (the rivals, and what a spy may name).
"""

from __future__ import annotations

from collections.abc import Container, Iterable, Mapping
from dataclasses import dataclass

from rulebook.ruins_and_tomb_raiders.force import TombRaiders
from rulebook.ruins_and_tomb_raiders.rival_mission_orders import (
    Known,
    Rival,
    RivalContext,
    RivalMissionOrder,
    listed_mission,
    rival_mission_gold,
    rival_mission_problems,
    section_of,
)
from rulebook.ruins_and_tomb_raiders.tomb_raid import (
    MISSION_GOLD,
    TOMB_RAID,
    MissionKind,
    MissionProblemCode,
    RaidContext,
    TombRaidOrder,
    mission_gold,
    tomb_raid_problems,
)
from rulebook.tables import ArmyKind, ArmyType
from rulebook.turn.write_orders.context import SheetContext
from rulebook.turn.write_orders.problems import SheetCheck, SheetProblem, SheetProblemCode
from rulebook.turn.write_orders.records import MOVING_ORDERS, ArmyOrder, SheetEntries, TombRaiderMission, entry_at
from rulebook.world import CharacterState, World

PART = "missions"
# The entry's field that mends each problem (the page's mission row: the ruin, the fee's checkbox).
MISSION_FIELDS: dict[MissionProblemCode, str] = {MissionProblemCode.CHANGED_NOT_PAID: "pay_change_fee"}
# A Reconnaissance's or Sabotage's problems stand beside the field that mends them (the rest: the kind).
RIVAL_FIELDS: dict[MissionProblemCode, str] = {
    MissionProblemCode.CHANGED_NOT_PAID: "pay_change_fee",
    MissionProblemCode.NO_RIVAL: "target_kingdom",
    MissionProblemCode.NOT_A_RIVAL: "target_kingdom",
    MissionProblemCode.UNKNOWN_DESIRED: "desired",
}
RIVAL_KINDS = (MissionKind.RECONNAISSANCE.value, MissionKind.SABOTAGE.value)


def is_rival_mission(mission: TombRaiderMission) -> bool:
    """A Reconnaissance or Sabotage (any other kind is read as a Tomb Raid)."""
    return mission.kind in RIVAL_KINDS


def rival_order(mission: TombRaiderMission) -> RivalMissionOrder:
    """The Reconnaissance or Sabotage the entry orders."""
    return RivalMissionOrder(
        mission.kind,
        mission.target_kingdom,
        mission.desired,
        target_army=mission.target_army,
        target_character=mission.target_character,
        pay_change_fee=mission.pay_change_fee,
    )


def rivals_of(world: World) -> dict[int, Rival]:
    """The campaign's kingdoms as a spy may name them (decision 454 says which are rivals)."""
    return {k.id: Rival(k.name, ancient_dead=k.ancient_dead, out_of_the_game=k.rogue) for k in world.kingdoms.values()}


def known_armies(world: World) -> dict[int, Known]:
    """The armies a spy may name (decision 455): "any one army" of a rival, among those the rules have
    shown to every kingdom: a field army still on the map that fought a battle of an earlier turn (the
    turn's battles are public once it is over, decision 340). A player never sees another kingdom's
    armies otherwise, so the sheet offers no other."""
    return {
        a.id: Known(a.kingdom, a.name)
        for a in sorted(world.armies.values(), key=lambda a: (a.kingdom, a.name, a.id))
        if a.kind is ArmyKind.FIELD
        and not a.disbanded
        and a.last_battle_turn is not None
        and a.last_battle_turn < world.turn
    }


def known_characters(
    world: World, armies: dict[int, Known], characters: Mapping[int, CharacterState] | None = None
) -> dict[int, Known]:
    """The characters a spy may name for a Character Bio (decision 455): a rival's Warlord (every kingdom
    has one), and the General of each of its armies the spy may name, named by their place, never by a
    name the spy has not learned. `characters`: the rivals' Warlords and Generals read beside the world (the
    sheet's world holds none)."""
    army_of_unit = {unit.id: army for army, units in world.units.items() for unit in units}
    known: dict[int, Known] = {}
    everyone = {**(characters or {}), **world.characters}
    for c in sorted(everyone.values(), key=lambda c: (c.kingdom, c.id)):
        if not c.alive:
            continue
        army = army_of_unit.get(c.unit)
        if c.role == "warlord":
            known[c.id] = Known(c.kingdom, "the Warlord")
        elif c.role == "general" and army in armies and armies[army].kingdom == c.kingdom:
            known[c.id] = Known(c.kingdom, f"the General of {armies[army].label}")
    return known


def rival_context(
    world: World,
    kingdom: int,
    *,
    force: TombRaiders | None,
    treasury: int,
    points_added: int,
    missions: int = 1,
    characters: Mapping[int, CharacterState] | None = None,
) -> RivalContext:
    """What the check of a Reconnaissance or Sabotage reads, from `world` as it stands."""
    armies = known_armies(world)
    spy = world.kingdoms.get(kingdom)
    return RivalContext(
        kingdom=kingdom,
        force=force,
        treasury=treasury,
        kingdoms=rivals_of(world),
        armies=armies,
        characters=known_characters(world, armies, characters),
        missions=missions,
        points_added=points_added,
        ancient_dead=spy is not None and spy.ancient_dead,
    )


def rival_mission_words(
    mission: TombRaiderMission, world: World, characters: Mapping[int, CharacterState] | None = None
) -> str:
    """The mission as the sheet's lines say it: "Reconnaissance (Treasury Info) against Norsca", with the
    army or character it names."""
    section = section_of(mission.kind)
    listed = listed_mission(mission.kind, mission.desired)
    label = listed.label if listed else mission.desired
    target = world.kingdoms.get(mission.target_kingdom) if mission.target_kingdom is not None else None
    words = f"{section} ({label}) against {target.name if target else 'no kingdom'}"
    armies = known_armies(world)
    if mission.target_army is not None:
        words += f": {armies[mission.target_army].label if mission.target_army in armies else 'an army'}"
    if mission.target_character is not None:
        known = known_characters(world, armies, characters).get(mission.target_character)
        words += f": {known.label if known else 'a character'}"
    return words


def moves_into(orders: Iterable[ArmyOrder], armies: Container[int]) -> dict[int, int]:
    """Army id -> the province its order moves it into, for the kingdom's armies (`armies`: their ids)
    ordered to Move, Raze and Move, or Forced March. A forced march moves into the province it ends in:
    "The army can only claim / occupy the province they end up in" (decision 414)."""
    moves: dict[int, int] = {}
    for order in orders:
        destination = order.destination
        if order.kind in MOVING_ORDERS and order.army in armies and destination is not None:
            moves[order.army] = destination
    return moves


def mission_order(mission: TombRaiderMission) -> TombRaidOrder | None:
    """The Tomb Raid the entry orders (None: it names no ruin)."""
    if mission.province is None:
        return None
    return TombRaidOrder(mission.province, pay_change_fee=mission.pay_change_fee)


def check_missions(entries: SheetEntries, ctx: SheetContext, check: SheetCheck) -> None:
    """Each mission on the sheet, checked by Using Tomb Raiders and Tomb Raid; one that goes adds its
    gold (100, and the change fee it pays) to the sheet's. Run after every other part that spends gold:
    the mission is refused when the gold the rest of the sheet leaves cannot pay it (decision 410)."""
    moves = moves_into(entries.orders, ctx.armies)
    for index, mission in enumerate(entries.missions):
        if is_rival_mission(mission):
            _check_rival_mission(mission, index, len(entries.missions), ctx, check)
            continue
        order = mission_order(mission)
        if order is None:
            check.error_problems.append(
                SheetProblem(
                    SheetProblemCode.MISSION_NOT_RUINS,
                    f"Name the ruin the Tomb Raiders raid: a Tomb Raid is made on a province with ruins ({TOMB_RAID}).",
                    **entry_at(PART, index, "province"),
                )
            )
            continue
        raid = RaidContext(
            force=ctx.raiders,
            treasury=check.available - check.gold,  # what the sheet's other spending leaves
            ruins=ctx.ruins,
            moves=moves,
            missions=len(entries.missions),
            points_added=ctx.raiders_points_added,
            ancient_dead=ctx.army_type is ArmyType.ANCIENT_DEAD,
        )
        problems = tomb_raid_problems(order, raid)
        # One mission a turn is said once, at the second mission.
        problems = [p for p in problems if p.code is not MissionProblemCode.ONE_MISSION or index == 1]
        for problem in problems:
            check.error_problems.append(
                SheetProblem(
                    SheetProblemCode(problem.code.value),
                    problem.message,
                    **entry_at(PART, index, MISSION_FIELDS.get(problem.code, "province")),
                )
            )
        if not problems:
            ruin = ctx.ruins[order.province]
            gold = mission_gold(order, ctx.raiders_points_added)
            fee = f", with the change fee of {gold - MISSION_GOLD:,}" if gold > MISSION_GOLD else ""
            check.costs.append((f"Tomb Raid on {ruin.name} (Using Tomb Raiders{fee})", gold))


def _check_rival_mission(
    mission: TombRaiderMission, index: int, missions: int, ctx: SheetContext, check: SheetCheck
) -> None:
    """A Reconnaissance or Sabotage, checked by its section and Using Tomb Raiders; one that goes adds
    its gold (the fee of 100, and the change fee it pays) to the sheet's (decision 410)."""
    order = rival_order(mission)
    rivals = rival_context(
        ctx.world,
        ctx.kingdom,
        force=ctx.raiders,
        treasury=check.available - check.gold,  # what the sheet's other spending leaves
        points_added=ctx.raiders_points_added,
        missions=missions,
        characters=ctx.rival_characters,
    )
    problems = rival_mission_problems(order, rivals)
    problems = [p for p in problems if p.code is not MissionProblemCode.ONE_MISSION or index == 1]
    for problem in problems:
        field = problem.field or RIVAL_FIELDS.get(problem.code, "kind")
        check.error_problems.append(
            SheetProblem(SheetProblemCode(problem.code.value), problem.message, **entry_at(PART, index, field))
        )
    if not problems:
        gold = rival_mission_gold(order, ctx.raiders_points_added)
        fee = f", with the change fee of {gold - MISSION_GOLD:,}" if gold > MISSION_GOLD else ""
        words = rival_mission_words(mission, ctx.world, ctx.rival_characters)
        check.costs.append((f"{words} (Tomb Raiders{fee})", gold))


@dataclass(frozen=True)
class RivalChoices:
    """What the sheet's drop-downs offer a spy (decisions 454 and 455): the rival kingdoms, and their armies
    and characters it may name, each (id, words), the words naming the kingdom."""

    kingdoms: tuple[tuple[int, str], ...] = ()
    armies: tuple[tuple[int, str], ...] = ()
    characters: tuple[tuple[int, str], ...] = ()


def rival_choices(world: World, kingdom: int, characters: Mapping[int, CharacterState] | None = None) -> RivalChoices:
    """The rivals `kingdom`'s sheet may send its Tomb Raiders against, and what it may name of theirs."""
    rivals = {k.id: k.name for k in world.kingdoms.values() if k.id != kingdom and not k.ancient_dead and not k.rogue}
    armies = known_armies(world)
    named = known_characters(world, armies, characters)
    return RivalChoices(
        kingdoms=tuple(sorted(rivals.items(), key=lambda kv: kv[1])),
        armies=tuple((i, f"{rivals[a.kingdom]}: {a.label}") for i, a in armies.items() if a.kingdom in rivals),
        characters=tuple((i, f"{rivals[c.kingdom]}: {c.label}") for i, c in named.items() if c.kingdom in rivals),
    )
