"""The state a turn resolves, and the events it produces (pure Python)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from rulebook.armies.losses import ListLoss
from rulebook.experience.spending import SpendingRoster
from rulebook.ruins_and_tomb_raiders.force import TombRaiders
from rulebook.turn.write_orders.records import ArmyOrder, SheetEntries, TombRaiderMission
from rulebook.world import ArmyState, CharacterState, OnTheWorld, UnitState, World


@dataclass
class TurnState(OnTheWorld):
    """The world as the turn's orders find it, with the turn's own: each army's order and each
    kingdom's submitted sheet. The phases read the world's parts as `state.armies`, `state.provinces`...;
    they replace its frozen records in a working copy, never change them."""

    world: World
    orders: dict[int, ArmyOrder] = field(default_factory=dict)  # army id -> its (normalised) order
    sheets: dict[int, SheetEntries] = field(default_factory=dict)  # kingdom id -> its submitted sheet
    missed_orders: frozenset[int] = frozenset()  # kingdoms that filed no sheet by the deadline (rule case O1)
    # kingdom id -> its lists, characters and items, for the purchases with experience (never changed)
    rosters: dict[int, SpendingRoster] = field(default_factory=dict)
    # Using Tomb Raiders: kingdom id -> the ruin (province number) its Tomb Raiders raid this turn, the
    # mission sent and paid for; an army of the kingdom moving into that ruin waits on the raid.
    raids: dict[int, int] = field(default_factory=dict)
    # Reconnaissance and Sabotage: kingdom id -> the mission against a rival its sheet sent and paid for
    # this turn (rulebook.ruins_and_tomb_raiders.missions_sent); 6. Fight Battles makes each a skirmish.
    rival_missions: dict[int, TombRaiderMission] = field(default_factory=dict)
    # Using Tomb Raiders: kingdom id -> its Tomb Raider force, and the points added to it since the turn
    # opened (Maintaining / Changing), for the kingdoms whose sheet sends a mission and the targets of
    # their Reconnaissance and Sabotage (whose own raiders may defend) (never changed)
    raiders: dict[int, TombRaiders] = field(default_factory=dict)
    raiders_points_added: dict[int, int] = field(default_factory=dict)
    # Reconnaissance, Character Bio: the rivals' Warlords and Generals a spy may name (decision 455), read
    # only when a sheet names a character (never changed)
    rival_characters: dict[int, CharacterState] = field(default_factory=dict)

    def working_copy(self) -> TurnState:
        """A copy the phases may change: the world's working copy and the orders (normalising
        replaces them); the sheets are never changed and are shared."""
        return TurnState(
            world=self.world.working_copy(),
            orders=dict(self.orders),
            sheets=dict(self.sheets),
            missed_orders=self.missed_orders,
            rosters=self.rosters,
            raids=dict(self.raids),
            rival_missions=dict(self.rival_missions),
            raiders=self.raiders,
            raiders_points_added=self.raiders_points_added,
            rival_characters=self.rival_characters,
        )

    def losses_first(self, army: ArmyState) -> str:
        """The unit the army's kingdom named on its sheet to take the army's losses first ("": none)."""
        sheet = self.sheets.get(army.kingdom)
        return sheet.losses_first(army.id) if sheet is not None else ""

    def units_of(self, army: ArmyState) -> tuple[UnitState, ...]:
        """The army's list (no units: its list is not entered)."""
        return self.world.units.get(army.id, ())

    def put_loss(self, loss: ListLoss) -> ArmyState:
        """Record what a loss did: the army's record and its list (the writer stores both)."""
        self.world.armies[loss.army.id] = loss.army
        if loss.taken:
            self.world.units[loss.army.id] = loss.units
        return loss.army


@dataclass(frozen=True)
class SupportS:
    army: int
    kingdom: int
    side: str  # "attacker" or "defender"
    points: int  # the detachment, at most 200 points of core troops
    arrival: int | None = None  # the Support Arrival D6 (1-2 delayed, 3-6 on time)


@dataclass
class BattleS:
    """A battle scheduled by the turn."""

    province: int
    attacker_kingdom: int
    attacker_army: int | None  # None: a rival mission's skirmish (the spy's Tomb Raiders, no army)
    defender_kingdom: int | None  # None: a neutral or Ancient Dead desert garrison
    # The defending army: a field army, or the army row of a garrison that defends (its Elite Defense
    # Force, the Ancient Dead's Capitol Garrison); None: a garrison without an army row defends.
    defender_army: int | None
    garrison_points: int = 0  # the local garrison force fighting (as the defender, or supporting the army)
    garrison_defenses: int = 0
    # Battle for Towns, Cities, and Capitols: the garrison is the defending side's main force (alone,
    # or chosen over the army that stands there, `garrison_army`, which then supports it).
    garrison_defends: bool = False
    army_with_garrison: int | None = None  # the field army standing where its garrison defends
    # The kingdom of the garrison supporting an army of its ally's (its town's garrison beside its
    # ally's army, decision 580); None: the garrison fighting, if any, is the defender's own.
    garrison_kingdom: int | None = None
    # Allies: the armies standing in the province beside their ally's side, which they support from
    # there (decisions 550, 551); the contact's `beside`.
    beside: tuple[int, ...] = ()
    supports: list[SupportS] = field(default_factory=list)
    fortified_points: int = 0  # 200 extra core troops for a fortified defender
    defended_obstacles: int | None = None  # pieces of defenses from the Defended Obstacles roll
    guerrilla: dict[str, Any] | None = None  # {"army": smaller army, "roll": d6, "target": army, "points_lost": n}
    assault: bool = False  # over a town, city or capitol: always Assault
    # Rogue Kingdom, scouting forces: a ruins style battle for control (Tomb Raiders; decision 231)
    skirmish: bool = False
    # The Tomb Raiders' mission the skirmish plays ("tomb-raid": the army waits on it); "" for any other
    mission: str = ""
    # Reconnaissance and Sabotage: the mission as sent (desired, target_army, target_character) and who
    # defends ("defender": "raiders", the target's own Tomb Raiders, or "guard", a generic 150 points);
    # the attacker is the spying kingdom (its Tomb Raiders; `attacker_army` None), the defender its target.
    mission_detail: dict[str, Any] = field(default_factory=dict)
    # The Ancient Dead: Armies: their army's size in this battle (its opponent's after supports, less 250)
    ancient_dead_points: int | None = None
    notes: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class Contact:
    """Where the orders brought enemies together (made by the orders phase, read by the battles phase).

    `attacker` moved into `province`; `defender` is the army that stood there (or that moved in at
    the same time: `both_moved`), or None when the province's garrison defends it (an enemy town,
    city or capitol with no army in it, or a desert's Ancient Dead garrison)."""

    province: int
    attacker: int
    defender: int | None = None
    both_moved: bool = False
    # Rogue Kingdom: the Rogue Kingdom (D6) roll of an army entering a Rogue Kingdom's province; the
    # forces it rolled defend the province (no garrison, no army of the rogue kingdom's).
    rogue_roll: int | None = None
    # Ruins: the kingdom's Tomb Raid on the ruin `attacker` moves into (no defender: a generic
    # 150-point warband); the army stands there and waits on it (decision 408), with `waiting`, the
    # kingdom's other armies that moved into the ruin (decision 421).
    raid: bool = False
    waiting: tuple[int, ...] = ()
    # Allies: the other armies in the province, each on the attacker's side or the defender's (its
    # ally's), that fight beside it: a detachment from where they stand (decisions 550, 551).
    beside: tuple[int, ...] = ()


ARMY_ID_KEYS = ("army", "opponent_army", "target", "target_army")  # the keys of an event's data that hold army ids


def with_real_army_ids(data: dict[str, Any] | None, id_map: dict[int, int]) -> dict[str, Any] | None:
    """Armies raised this turn have temporary (negative) ids in the rules' data: the real ones, once
    their rows exist (`id_map`: temporary id -> row id)."""
    if not data:
        return data
    return {k: id_map.get(v, v) if k in ARMY_ID_KEYS and isinstance(v, int) else v for k, v in data.items()}
