"""The aftermath's one state and its records (pure Python): the units, characters and items of
the kingdoms that fought, each side of a battle as its turn summary sheet reported it, the battles,
and what the aftermath returns; with the few changes every step of 7. Aftermath makes to it (an
army put back, disbanded, given experience; a treasury paid; items lost).

The steps are small functions over this state, one module per rulebook section, each taking the
state, the dice and the events list it appends to; rulebook.turn.aftermath.run calls them per
battle in the fixed order.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field, replace

from kernel.events import Event
from rulebook.tables import ArmyKind
from rulebook.turn.aftermath.results import BattleResult
from rulebook.turn.aftermath.sheets import BattleA
from rulebook.world import ArmyState, OnTheWorld, World

PHASE = "aftermath"


def possessive(name: str) -> str:
    return f"{name}'" if name.endswith("s") else f"{name}'s"


@dataclass
class UnitA:
    id: int
    army: int
    name: str
    models_count: int
    points_per_model: int
    equipment_points: int = 0
    one_use: bool = False
    living: bool = False  # a living unit of an undead army (Curse of the Dead)
    veteran_level: int = 0
    veteran_eligible: bool = False
    character: bool = False  # a character's one-model unit: not a regiment, no Veteran Status
    # Casualty Recovery: its command models' points (part of equipment_points; 0: none on the list).
    champion_points: int = 0
    standard_points: int = 0
    musician_points: int = 0

    @property
    def points(self) -> int:
        return self.models_count * self.points_per_model + (self.equipment_points if self.models_count else 0)


@dataclass
class CharacterA:
    id: int
    kingdom: int
    unit: int
    name: str
    role: str  # warlord, general, hero
    injuries: list[dict[str, object]] = field(default_factory=list)
    alive: bool = True
    abilities: tuple[str, ...] = ()  # Archetype Abilities: the Starting Ability, then advancements
    battles_survived: int = 0


@dataclass
class ItemA:
    id: int
    name: str
    points: int
    bearer: int | None  # unit id
    destroyed: bool = False


@dataclass(frozen=True)
class AftermathState(OnTheWorld):
    """The world the battles were fought in, with what the aftermath needs besides: the units,
    characters and items of the kingdoms that fought, the battles with their settled outcomes, and
    where each army moved from this turn (its retreat goes back there)."""

    world: World  # every active army of the campaign is in it: retreats must see them all
    units: dict[int, UnitA]  # the units of the armies that fought
    characters: dict[int, CharacterA]  # the living characters of the kingdoms that fought
    items: dict[int, ItemA]  # magic items borne by those units
    battles: list[BattleA]
    came_from: dict[int, int] = field(default_factory=dict)  # army id -> province it moved from this turn
    # Allies, Announcement: (kingdom, ally) for each end of an alliance announced during this End of
    # Turn (a turn summary sheet, or the end-of-turn announcement of a kingdom without a battle).
    announced_ends: tuple[tuple[int, int], ...] = ()

    def working_copy(self) -> AftermathState:
        """A copy the rules may change: the world's working copy, and copies of the units,
        characters and items (which the rules change in place). The battles and where the
        armies came from are never changed, so they are shared."""
        return AftermathState(
            world=self.world.working_copy(),
            units={u: copy.copy(v) for u, v in self.units.items()},
            characters={c: copy.deepcopy(v) for c, v in self.characters.items()},
            items={i: copy.copy(v) for i, v in self.items.items()},
            battles=list(self.battles),
            came_from=self.came_from,
            announced_ends=self.announced_ends,
        )

    def army_points(self, army_id: int) -> int:
        """The army's list points: its units and the items they bear. While its list is due it has
        none to count: it counts at the points paid for it, less its losses since, as the world does."""
        army = self.world.army(army_id)
        if army.list_due:
            return army.points
        units = [u for u in self.units.values() if u.army == army_id]
        ids = {u.id for u in units}
        items = sum(i.points for i in self.items.values() if i.bearer in ids and not i.destroyed)
        return sum(u.points for u in units) + items


@dataclass(frozen=True)
class BattleSettled:
    battle: int
    result: BattleResult  # the attacker's final result
    defender_result: BattleResult  # the defender's: not its mirror when a sheet was missing (8. End of Turn)
    victor: str | None


@dataclass(frozen=True)
class AftermathResult:
    state: AftermathState
    events: list[Event]
    battles: list[BattleSettled]


# -- the changes every step makes to the state ----------------------------------------------------


def army_name(state: AftermathState, army_id: int | None) -> str:
    return state.world.army(army_id).name if army_id is not None else "the garrison"


def put_army(state: AftermathState, army: ArmyState) -> ArmyState:
    """Replace the army's record in the working copy (a field army or an Elite Defense Force)."""
    armies = state.garrisons if army.kind is ArmyKind.GARRISON else state.armies
    armies[army.id] = army
    return army


def perished(state: AftermathState, army_id: int) -> bool:
    """An Elite Defense Force (or Capitol Garrison) whose town was conquered: "perished to the
    last man and no recovery rolls are to be made" (Battle for Towns, Cities, and Capitols)."""
    army = state.world.army(army_id)
    return army.kind is ArmyKind.GARRISON and army.disbanded


def disband(state: AftermathState, army: ArmyState) -> ArmyState:
    """The army is gone, and the magic items its units carried are destroyed with it."""
    destroy_items(state, army.id)
    return put_army(state, replace(army, disbanded=True))


def add_experience(state: AftermathState, army_id: int, points: int) -> ArmyState:
    army = state.world.army(army_id)
    return put_army(state, replace(army, experience=army.experience + points))


def add_gold(state: AftermathState, kingdom: int, amount: int) -> None:
    """The kingdom's treasury gains `amount` (pays it, when negative); the caller's event, with its
    `gold` and `ledger_reason`, is the ledger's row."""
    record = state.kingdoms[kingdom]
    state.kingdoms[kingdom] = replace(record, treasury=record.treasury + amount)


def ancient_dead(state: AftermathState, kingdom: int | None) -> bool:
    return kingdom is not None and state.kingdoms[kingdom].ancient_dead


def lose_items(state: AftermathState, unit_id: int) -> None:
    for item in state.items.values():
        if item.bearer == unit_id and not item.destroyed:
            item.destroyed = True


def robbed(state: AftermathState, unit_id: int) -> None:
    """Character Injury Chart, Robbed: "his equipment and magic items are lost": his magic items are
    destroyed and his mundane equipment (the equipment points of his one-model unit) leaves the
    list. "New equipment may be purchased as normal" (Spending Experience)."""
    lose_items(state, unit_id)
    unit = state.units.get(unit_id)
    if unit is not None:
        unit.equipment_points = 0


def destroy_items(state: AftermathState, army_id: int) -> None:
    units = {u.id for u in state.units.values() if u.army == army_id}
    for item in state.items.values():
        if item.bearer in units:
            item.destroyed = True
