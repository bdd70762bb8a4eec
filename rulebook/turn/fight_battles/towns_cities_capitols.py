"""Battle for Towns, Cities, and Capitols: a province's garrison (its Elite Defense Force, the
Ancient Dead's Capitol Garrison, a desert's Ancient Dead garrison), the Assault in a battle for a
settlement, the garrison or the army chosen to defend it, and the Elite Defense Force perishing
when its town is taken (pure Python)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import NamedTuple

from kernel.event_codes import EventCode
from kernel.events import Event
from rulebook.turn.state import BattleS, TurnState
from rulebook.turn.write_orders.records import DEFEND_WITH_GARRISON
from rulebook.warlord.succession import characters_gone_with
from rulebook.world import ArmyState, World, disband_army


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


def settlement_battle(state: TurnState, number: int) -> bool:
    """The Engagement Type is always Assault in a battle for a town, city, or capitol (the pyramid is
    the Ancient Dead's capitol)."""
    province = state.provinces[number]
    owner = state.kingdoms.get(province.controller) if province.controller is not None else None
    return province.settlement in _SETTLEMENTS or (owner is not None and owner.capitol == number)


def garrison_chosen(state: TurnState, army: ArmyState, garrison: Garrison) -> bool:
    """Battle for Towns, Cities, and Capitols: "you may use either the local garrison force or the
    army". The army's order says which (the army when silent); the Ancient Dead's pyramid is always
    defended by its Capitol Garrison, with whom the Warlord must remain (The Ancient Dead: Setup)."""
    if garrison.ancient_dead_capitol:
        return True
    order = state.orders.get(army.id)
    return order is not None and order.defend_with == DEFEND_WITH_GARRISON


def garrison_as_defender(battle: BattleS, garrison: Garrison) -> None:
    """The garrison is the defending side's main force: its local troops and its army row."""
    battle.garrison_defends = True
    battle.defender_kingdom = garrison.kingdom
    battle.defender_army = garrison.army
    battle.garrison_points = garrison.points
    battle.garrison_defenses = garrison.defenses


def elite_defense_perishes(
    world: World,
    events: list[Event],
    *,
    province: int,
    taker: int,
    phase: str,
    choice: Mapping[int, int] | None = None,
) -> None:
    """Province `province` is taken by kingdom `taker`: "Should the town / city be conquered, the Elite
    Defense Force it to be considered to have perished to the last man and no recovery rolls are to be
    made". Every garrison army there not of the taker's (an Elite Defense Force, the Ancient Dead's
    Capitol Garrison) is disbanded, its magic items with it, in the working copy `world`, and its
    characters (its hero) die with it, to the last man (decision 592); a Warlord among them (the Ancient
    Dead's stands with their Capitol Garrison) is succeeded (`choice`: kingdom id -> the General its
    player named for a tie). Whether the town was won in battle (7. Aftermath) or taken by razing it from
    an ally (Allies, Raze; decision 556): it cannot stay there as the old owner's in the taker's
    province."""
    perished = []
    for army in sorted(world.garrisons.values(), key=lambda a: a.id):
        if army.province != province or army.disbanded or army.kingdom == taker:
            continue
        disband_army(world, army)
        perished.append(army.id)
        world.provinces[province] = replace(world.provinces[province], elite_defense=False)
        events.append(
            Event(
                phase,
                EventCode.ELITE_DEFENSE_FORCE_PERISHED,
                f"The Elite Defense Force of {world.provinces[province].name} perished to the last man.",
                kingdom=army.kingdom,
                army=army.id,
                province=province,
            )
        )
    characters_gone_with(
        world,
        events,
        perished,
        how="perished to the last man with his force (Battle for Towns, Cities, and Capitols)",
        code=EventCode.CHARACTER_DEAD,
        phase=phase,
        choice=choice,
    )
