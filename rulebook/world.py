"""The campaign's world state as every phase sees it (pure Python, no Django).

One family of frozen records: the provinces, the kingdoms, the armies with their lists' units, and
their characters and magic items, held by a `World` with the map's adjacency, the
turn and the number of players. The order-sheet check, the turn's orders resolution and the
aftermath all read this one state, loaded once (kingdoms.services.world); each phase keeps its own
extras (orders, battles...) in a container that holds the world.

Records are frozen: a phase that changes the state replaces a record in its working copy's dicts
(`dataclasses.replace`), so the state it was given is never changed and a dry run equals the real
run. The rules that belong to the records themselves live here: Looting (no armies created or
upgraded in a looted town for a while), Fortify (the bonuses belong to the army that fortified
the province, and are lost when it moves away or when control changes) and Army Restrictions (a
disbanded army's magic items are destroyed with it).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace

from kernel.event_codes import EventCode
from kernel.events import Event
from rulebook.allies.chart import AllianceState
from rulebook.ruins_and_tomb_raiders.rival_missions import CaptiveState, MissionEffectState
from rulebook.tables import ArmyKind, ArmyType, Settlement, Terrain

# Looting: "A Looted town / city cannot upgrade or create armies until the beginning of the next
# full turn": looted at the end of turn 4, it creates and upgrades armies again from turn 6.
LOOTED_TURNS = 2


@dataclass(frozen=True)
class ProvinceState:
    number: int
    name: str
    terrain: Terrain
    settlement: Settlement = Settlement.NONE
    razed: bool = False
    fortified: bool = False  # shown on the map; the bonuses are the Fortified army's (World.fortifier)
    controller: int | None = None  # kingdom id
    pyramid: bool = False
    elite_defense: bool = False  # its garrison has an Elite Defense Force (+500 points)
    looted_turn: int | None = None  # looted at the end of this turn (Looting)
    # The Ancient Dead: Movement: their incantations have turned it to plains; desert next turn if they stay
    incantation: bool = False
    # Where it lies on the map (a grid's section; 0, 0 when unknown): the Ancient Dead's circular pattern
    col: int = 0
    row: int = 0
    # Land Sales: changed hands by a land deal in this turn; Civil Unrest is rolled the next turn.
    land_sale_turn: int | None = None
    # Civil Unrest: a Rogue Kingdom province of no kingdom (controller None) until an army takes it.
    rogue: bool = False
    # Ruins: made from a town or city sacked by the desert (a 150-point garrison, no Scarab Amulet), and
    # how many times they were raided successfully (the first successful raid finds the amulet).
    ruin_sacked: bool = False
    ruin_raids: int = 0

    def __str__(self) -> str:
        return f"{self.number} {self.name}"

    def looted_in(self, turn: int) -> bool:
        """Looting: in `turn` the province still may not create or upgrade armies."""
        return self.looted_turn is not None and turn < self.looted_turn + LOOTED_TURNS

    def abandoned(self) -> ProvinceState:
        """Rogue Kingdom: taking a town or city from a Rogue Kingdom "will not give the attacking player a
        town or city or a chance to loot": it is taken as a plain province (decision 383)."""
        return replace(self, settlement=Settlement.NONE, elite_defense=False, looted_turn=None)

    def taken_by(self, kingdom: int | None) -> ProvinceState:
        """The province under `kingdom`'s control. Fortify: "All Fortification bonuses are lost ...
        when the control of the province changes"; a kingdom keeping its own keeps them."""
        if kingdom == self.controller and not self.rogue:
            return self
        return replace(self, controller=kingdom, fortified=False, rogue=False, land_sale_turn=None)


@dataclass(frozen=True)
class KingdomState:
    id: int
    name: str
    army_type: ArmyType
    treasury: int = 0
    capitol: int | None = None  # province number
    # Rogue Kingdom: its player dropped out; it files no orders and its provinces roll on the Rogue
    # Kingdom (D6) table when a foreign army enters them.
    rogue: bool = False
    # Loss of the Capitol: the turn it was lost in (three turns to crown the Warlord in a city); the
    # army the living Warlord stands with (None: no Warlord on the map).
    capitol_lost_turn: int | None = None
    warlord_army: int | None = None

    @property
    def ancient_dead(self) -> bool:
        return self.army_type is ArmyType.ANCIENT_DEAD


@dataclass(frozen=True)
class ArmyState:
    id: int  # database id; armies raised during a turn get negative ids until written
    kingdom: int
    name: str
    province: int  # province number
    size: int  # the points it was raised or upgraded at (what was paid for)
    points: int  # what it counts as: its list's points, or while its list is due, `counted_points`
    kind: ArmyKind = ArmyKind.FIELD
    supply_depot: bool = True
    # Supply Depot: the carts it captured, on its roster (decision 396); it "can now afford to lose
    # one of their carts with no penalties" (a capture takes a spare first), but forages without its own.
    spare_carts: int = 0
    experience: int = 0
    # Raised or upgraded, its list for `size` not entered yet: it counts at the points paid for it
    # (less `losses_before_list`); the losses it suffers meanwhile are kept as points.
    list_due: bool = False
    losses_before_list: int = 0  # points lost while its list was due: the list, when entered, leaves them out
    created_turn: int = 0
    upgraded_turn: int | None = None
    last_battle_turn: int | None = None  # Fortify: not the turn after a battle
    recover_streak: int = 0  # consecutive earlier turns spent recovering its province (Recover: +1 each)
    co_occupying: bool = False  # it shares a friendly army's province (Forced March; Occupied Province)
    fortified_in: int | None = None  # Fortify: the province it fortified (its bonuses while it stays there)
    # Deserts: the Scarab Amulets its units carry, and the best magic level of its living mages and
    # rune smiths (None: it has neither; rulebook.ancient_dead.deserts)
    scarab_amulets: int = 0
    magic_level: int | None = None
    # Decided by the turn's phases, until written back:
    no_forced_march: bool = False  # the Foraging Table forbade it this turn
    veteran_status_lost: bool = False  # upgraded by 500 points or more this turn
    disbanded: bool = False


def counted_points(*, size: int, list_points: int, list_due: bool, losses_before_list: int) -> int:
    """The points an army counts as (claiming, support, Guerrilla Tactics, Army Restrictions): its
    list's; while its list is due (raised or upgraded and not entered since), the points paid for
    it, less what it lost meanwhile. The list is what counts, once it is there."""
    if list_due:
        return max(0, size - losses_before_list)
    return list_points


@dataclass(frozen=True)
class UnitState:
    """A unit of an army's list, as the turn's losses read it (foraging, Guerrilla Tactics) and the
    aftermath changes it (Casualty Recovery, Veteran Status, a character's injuries)."""

    id: int
    army: int
    name: str
    category: str  # character, core, special, rare
    models: int
    points_per_model: int
    equipment_points: int = 0  # command and upgrades: they go with the unit's last model
    one_use: bool = False
    living: bool = False  # a living unit of an undead army (Curse of the Dead)
    veteran_level: int = 0
    veteran_eligible: bool = False
    # Casualty Recovery: its command models' points (part of equipment_points; 0: none on the list).
    champion_points: int = 0
    standard_points: int = 0
    musician_points: int = 0

    @property
    def character(self) -> bool:
        """A character's one-model unit: not a regiment, no Veteran Status."""
        return self.category == "character"

    @property
    def points(self) -> int:
        return self.models * self.points_per_model + (self.equipment_points if self.models else 0)


@dataclass(frozen=True)
class CharacterState:
    """A living character of an army on the map: a unit of one model (`unit`) with a role."""

    id: int
    kingdom: int
    unit: int  # his one-model unit's id
    name: str
    role: str  # warlord, general, hero
    injuries: tuple[Mapping[str, object], ...] = ()  # the Character Injury Chart's results, as stored
    alive: bool = True
    abilities: tuple[str, ...] = ()  # Archetype Abilities: the Starting Ability, then advancements
    battles_survived: int = 0


@dataclass(frozen=True)
class ItemState:
    """A magic item borne by a unit of an army on the map."""

    id: int
    name: str
    points: int
    bearer: int | None  # unit id; None: back in the kingdom's armory
    destroyed: bool = False
    # An item a phase adds (a negative id until written: Treasure from the Ruins): its kingdom, and
    # whether it is a common item (the armory's one of each does not hold it).
    kingdom: int | None = None
    common: bool = False


@dataclass(frozen=True)
class World:
    """The campaign at the start of a phase: every province, kingdom and active army.

    `armies` are the active field armies standing on the map; `garrisons` the Elite Defense
    Forces (they never move; they perish with their town). The dicts of a working copy are the
    phases' to change, by replacing records; the records themselves never change."""

    turn: int
    player_count: int
    provinces: dict[int, ProvinceState]
    adjacency: Mapping[int, frozenset[int]]
    kingdoms: dict[int, KingdomState]
    armies: dict[int, ArmyState]
    garrisons: dict[int, ArmyState]
    # The field armies' lists: army id -> its units in list order (an army without a list has none).
    units: dict[int, tuple[UnitState, ...]] = field(default_factory=dict)
    # The alliances in force (Allies): alliance id -> its record. Public: every phase may read them.
    alliances: dict[int, AllianceState] = field(default_factory=dict)
    # The living characters and the magic items of the armies on the map, by id (read with their lists,
    # kingdoms.services.world.world_load): the aftermath's (Character Injury Chart, Warlord), a disband
    # at foraging (decision 591), a spied list's regiments' items (decision 590). The order sheet's
    # check has none (world_for_kingdom).
    characters: dict[int, CharacterState] = field(default_factory=dict)
    items: dict[int, ItemState] = field(default_factory=dict)
    # Reconnaissance and Sabotage: the effects gained and not yet used (id -> record; new ones have
    # negative ids), and the Tomb Raiders held captive, whatever their fate (id -> record). Private:
    # a phase tells a kingdom only of its own (rulebook.ruins_and_tomb_raiders.rival_missions).
    mission_effects: dict[int, MissionEffectState] = field(default_factory=dict)
    captives: dict[int, CaptiveState] = field(default_factory=dict)

    def adjacent(self, a: int, b: int) -> bool:
        return b in self.adjacency.get(a, frozenset())

    def alliance_between(self, a: int | None, b: int | None) -> AllianceState | None:
        """The alliance in force between kingdoms `a` and `b`, if any."""
        if a is None or b is None or a == b:
            return None
        return next((x for x in self.alliances.values() if x.members == {a, b}), None)

    def allied(self, a: int | None, b: int | None) -> bool:
        """Allies: `a` and `b` are allied kingdoms (a kingdom is not its own ally)."""
        return self.alliance_between(a, b) is not None

    def alliance_of(self, kingdom: int) -> AllianceState | None:
        """The kingdom's alliance in force (a kingdom is in one alliance at a time, decision 132)."""
        return next((x for x in self.alliances.values() if kingdom in x.members), None)

    def army(self, army_id: int) -> ArmyState:
        """A field army or an Elite Defense Force, by id."""
        return self.armies[army_id] if army_id in self.armies else self.garrisons[army_id]

    def armies_in(self, province: int) -> list[ArmyState]:
        """The field armies standing in `province` (not those disbanded this turn)."""
        return [a for a in self.armies.values() if a.province == province and not a.disbanded]

    def fortifier(self, province: int) -> ArmyState | None:
        """Fortify: the Fortified army of `province`, the army that fortified it and still stands in
        it; the bonuses are its own. None when the province is not fortified."""
        if not self.provinces[province].fortified:
            return None
        return next(
            (
                a
                for a in sorted(self.armies.values(), key=lambda a: a.id)
                if a.fortified_in == province and a.province == province and not a.disbanded
            ),
            None,
        )

    def working_copy(self) -> World:
        """A copy whose dicts a phase may change. The records are frozen and the map's adjacency
        is never changed, so they are shared."""
        return World(
            turn=self.turn,
            player_count=self.player_count,
            provinces=dict(self.provinces),
            adjacency=self.adjacency,
            kingdoms=dict(self.kingdoms),
            armies=dict(self.armies),
            garrisons=dict(self.garrisons),
            units=dict(self.units),
            alliances=dict(self.alliances),
            characters=dict(self.characters),
            items=dict(self.items),
            mission_effects=dict(self.mission_effects),
            captives=dict(self.captives),
        )


def destroy_borne(world: World, bearers: set[int]) -> None:
    """In the working copy `world`, the magic items the units `bearers` bear are destroyed."""
    for item in list(world.items.values()):
        if item.bearer in bearers and not item.destroyed:
            world.items[item.id] = replace(item, destroyed=True)


def disband_army(world: World, army: ArmyState) -> ArmyState:
    """In the working copy `world`, the army (a field army or an Elite Defense Force) is gone from the
    map, and the magic items its units carried are destroyed with it (Army Restrictions: "All the magic
    items it was carrying are destroyed"; Armory: "If the army containing that item is destroyed, your
    kingdom does not get another one"). A world loaded without its items has none to destroy: the
    writer destroys those of every army disbanded."""
    destroy_borne(world, {u.id for u in world.units.get(army.id, ())})
    gone = replace(army, disbanded=True)
    (world.garrisons if army.kind is ArmyKind.GARRISON else world.armies)[army.id] = gone
    return gone


def lose_fortifications(world: World, phase: str) -> list[Event]:
    """Fortify: "All Fortification bonuses are lost when the Fortified army moves away and / or when
    the control of the province changes." In the working copy `world`, the fortifications whose army
    moved away (a move, a forced march, a retreat) or is gone (disbanded, wiped out) are lost, and an
    army keeps no claim on a province no longer fortified. Returns an event for each army that left
    (or lost) the province it had fortified, for its kingdom, and one for each fortified province
    with no army that fortified it."""
    events: list[Event] = []
    holders = {p: a.id for p in world.provinces if (a := world.fortifier(p)) is not None}
    for army in sorted(world.armies.values(), key=lambda a: a.id):
        number = army.fortified_in
        if number is None or holders.get(number) == army.id:
            continue
        world.armies[army.id] = replace(army, fortified_in=None)
        province = world.provinces.get(number)
        left = army.disbanded or army.province != number
        if province is None or number in holders or not left:
            continue  # still there, but the province is no longer fortified: its control changed
        if province.fortified:
            world.provinces[number] = replace(province, fortified=False)
        # Said even when a change of control has already taken the fortifications away: the
        # player learns why the army no longer holds them.
        why = f"{army.name} was disbanded" if army.disbanded else f"{army.name} moved away"
        events.append(
            Event(
                phase,
                EventCode.FORTIFICATION_LOST,
                f"The fortifications of {province} are lost: {why} (Fortify).",
                kingdom=army.kingdom,
                army=army.id,
                province=number,
            )
        )
    for number, province in sorted(world.provinces.items()):
        if province.fortified and number not in holders:
            # No army that fortified it stands in it (a state written before the bonuses were the army's).
            world.provinces[number] = replace(province, fortified=False)
            events.append(
                Event(
                    phase,
                    EventCode.FORTIFICATION_LOST,
                    f"The fortifications of {province} are lost: no army that fortified it stands there (Fortify).",
                    kingdom=province.controller,
                    province=number,
                )
            )
    return events


class OnTheWorld:
    """For a phase's state that holds the world (`self.world`) beside its own extras: the world's
    parts read as `state.armies`, `state.provinces`..., written once here, not in every phase."""

    world: World

    @property
    def turn(self) -> int:
        return self.world.turn

    @property
    def player_count(self) -> int:
        return self.world.player_count

    @property
    def provinces(self) -> dict[int, ProvinceState]:
        return self.world.provinces

    @property
    def adjacency(self) -> Mapping[int, frozenset[int]]:
        return self.world.adjacency

    @property
    def kingdoms(self) -> dict[int, KingdomState]:
        return self.world.kingdoms

    @property
    def armies(self) -> dict[int, ArmyState]:
        """The active field armies (the Elite Defense Forces are `garrisons`)."""
        return self.world.armies

    @property
    def garrisons(self) -> dict[int, ArmyState]:
        return self.world.garrisons

    def adjacent(self, a: int, b: int) -> bool:
        return self.world.adjacent(a, b)

    def allied(self, a: int | None, b: int | None) -> bool:
        return self.world.allied(a, b)

    def armies_in(self, province: int) -> list[ArmyState]:
        return self.world.armies_in(province)
