"""The aftermath's one state (pure Python): the world the battles were fought in (its units,
characters and magic items among its records), the battles as the sheets reported them, and where
each army moved from this turn; what the aftermath returns; and the few changes every step of 7.
Aftermath makes to it (an army put back, disbanded, given experience; a unit, a character or an
item replaced; a treasury paid; items lost).

The steps are small functions over this state, one module per rulebook section, each taking the
state, the dice and the events list it appends to; rulebook.turn.aftermath.run calls them per
battle in the fixed order. They change the world's working copy by replacing its frozen records
(`dataclasses.replace`), never a record in place.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field, replace

from kernel.events import Event
from rulebook.ruins_and_tomb_raiders.force import TombRaiders
from rulebook.ruins_and_tomb_raiders.intelligence import IntelligenceDue, SpiedSources
from rulebook.tables import ArmyKind
from rulebook.turn.aftermath.results import BattleResult
from rulebook.turn.aftermath.sheets import BattleA
from rulebook.world import (
    ArmyState,
    CharacterState,
    ItemState,
    OnTheWorld,
    UnitState,
    World,
    destroy_borne,
    disband_army,
)

PHASE = "aftermath"


def possessive(name: str) -> str:
    return f"{name}'" if name.endswith("s") else f"{name}'s"


class UnitsById(Mapping[int, UnitState]):
    """The world's units by id (read only): `World.units` holds them by army, in list order. A unit
    never changes army in the aftermath, so the index (unit id -> army id) taken from the world it
    was given stays true of its working copy."""

    def __init__(self, by_army: Mapping[int, tuple[UnitState, ...]], army_of: Mapping[int, int]) -> None:
        self._by_army = by_army
        self._army_of = army_of

    def __getitem__(self, unit_id: int) -> UnitState:
        army = self._army_of[unit_id]
        return next(u for u in self._by_army[army] if u.id == unit_id)

    def __iter__(self) -> Iterator[int]:
        return iter(self._army_of)

    def __len__(self) -> int:
        return len(self._army_of)

    def __contains__(self, unit_id: object) -> bool:
        return unit_id in self._army_of


@dataclass(frozen=True)
class AftermathState(OnTheWorld):
    """The world the battles were fought in, with what the aftermath needs besides: the battles
    with their settled outcomes, where each army moved from this turn (its retreat goes back
    there), and the ends of alliances announced. The units, characters and items it reads and
    changes are the world's."""

    world: World  # every active army of the campaign, with its units, characters and items
    battles: list[BattleA]
    came_from: dict[int, int] = field(default_factory=dict)  # army id -> province it moved from this turn
    # Allies, Announcement: (kingdom, ally) for each end of an alliance announced during this End of
    # Turn (a turn summary sheet, or the end-of-turn announcement of a kingdom without a battle).
    announced_ends: tuple[tuple[int, int], ...] = ()
    # Tomb Raiders: each kingdom's force (kingdom id -> its list), which a skirmish's losses and the
    # Recovery change (Maintaining / Changing Tomb Raiders; Recovery).
    tomb_raiders: dict[int, TombRaiders] = field(default_factory=dict)
    # Recovery, "out of action for one turn": the models of each kingdom's force that missed this turn's
    # mission (kingdom id -> entry name -> models), noted as they come back (`raiders_back_in_action`),
    # so that the failure chart's capture takes only a model that went.
    stayed_home: dict[int, dict[str, int]] = field(default_factory=dict)
    # The magic items each kingdom holds that are not common (names, lower case): the armory has one of
    # each (Armory), so an item found in the ruins that the kingdom holds already is lost (decision 431).
    held_items: dict[int, frozenset[str]] = field(default_factory=dict)
    # Reconnaissance: what a delivery reads that the world does not hold (the targets' ledger rows of the
    # turn, their characters' Archetypes and magic), and the deliveries earned, made at the aftermath's
    # end (decision 471).
    spied: SpiedSources = field(default_factory=SpiedSources)
    intelligence_due: list[IntelligenceDue] = field(default_factory=list)
    _army_of: dict[int, int] = field(init=False, repr=False, compare=False)  # unit id -> army id

    def __post_init__(self) -> None:
        army_of = {u.id: army for army, units in self.world.units.items() for u in units}
        object.__setattr__(self, "_army_of", army_of)

    @property
    def units(self) -> Mapping[int, UnitState]:
        """The world's units by id, in the armies' order and each army's list order (`put_unit`
        replaces one)."""
        return UnitsById(self.world.units, self._army_of)

    @property
    def characters(self) -> dict[int, CharacterState]:
        return self.world.characters

    @property
    def items(self) -> dict[int, ItemState]:
        return self.world.items

    def units_of(self, army_id: int) -> tuple[UnitState, ...]:
        """The army's units, in list order."""
        return self.world.units.get(army_id, ())

    def working_copy(self) -> AftermathState:
        """A copy the rules may change: the world's working copy. The battles and where the armies
        came from are never changed, so they are shared."""
        return AftermathState(
            world=self.world.working_copy(),
            battles=list(self.battles),
            came_from=self.came_from,
            announced_ends=self.announced_ends,
            tomb_raiders=dict(self.tomb_raiders),
            stayed_home=dict(self.stayed_home),
            held_items=dict(self.held_items),
            spied=self.spied,
            intelligence_due=list(self.intelligence_due),
        )

    def army_points(self, army_id: int) -> int:
        """The army's list points: its units and the items they bear. While its list is due it has
        none to count: it counts at the points paid for it, less its losses since, as the world does."""
        army = self.world.army(army_id)
        if army.list_due:
            return army.points
        units = self.units_of(army_id)
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


def put_unit(state: AftermathState, unit: UnitState) -> UnitState:
    """Replace the unit's record in its army's list, in the working copy (its place kept)."""
    units = state.world.units
    units[unit.army] = tuple(unit if u.id == unit.id else u for u in units[unit.army])
    return unit


def put_character(state: AftermathState, character: CharacterState) -> CharacterState:
    """Replace the character's record in the working copy."""
    state.characters[character.id] = character
    return character


def put_item(state: AftermathState, item: ItemState) -> ItemState:
    """Replace the magic item's record in the working copy."""
    state.items[item.id] = item
    return item


def perished(state: AftermathState, army_id: int) -> bool:
    """An Elite Defense Force (or Capitol Garrison) whose town was conquered: "perished to the
    last man and no recovery rolls are to be made" (Battle for Towns, Cities, and Capitols)."""
    army = state.world.army(army_id)
    return army.kind is ArmyKind.GARRISON and army.disbanded


def disband(state: AftermathState, army: ArmyState) -> ArmyState:
    """The army is gone, and the magic items its units carried are destroyed with it."""
    return disband_army(state.world, army)


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
    destroy_borne(state.world, {unit_id})


def robbed(state: AftermathState, unit_id: int) -> None:
    """Character Injury Chart, Robbed: "his equipment and magic items are lost": his magic items are
    destroyed and his mundane equipment (the equipment points of his one-model unit) leaves the
    list. "New equipment may be purchased as normal" (Spending Experience)."""
    lose_items(state, unit_id)
    unit = state.units.get(unit_id)
    if unit is not None:
        put_unit(state, replace(unit, equipment_points=0))
