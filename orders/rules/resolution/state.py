"""The state a turn resolves, and the events it produces (pure Python)."""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any

from kingdoms.rules.tables import ArmyType

from ..sheets import ArmyOrder, SheetEntries


@dataclass
class ProvinceS:
    number: int
    name: str
    terrain: str
    settlement: str = "none"  # none, town, city, ruins
    razed: bool = False
    fortified: bool = False
    controller: int | None = None  # kingdom id
    pyramid: bool = False
    elite_defense: bool = False  # its garrison has an Elite Defense Force (+500 points)

    def __str__(self) -> str:
        return f"{self.number} {self.name}"


@dataclass
class KingdomS:
    id: int
    name: str
    army_type: ArmyType
    treasury: int
    capitol: int | None = None  # province number
    missed_orders: bool = False  # filed no sheet by the deadline (rule case O1)

    @property
    def ancient_dead(self) -> bool:
        return self.army_type is ArmyType.ANCIENT_DEAD


@dataclass
class ArmyS:
    id: int  # database id; armies created this turn get negative ids until written
    kingdom: int
    name: str
    province: int  # province number
    points: int  # the army's list points (what it fields)
    size: int  # the points it was raised or upgraded at
    supply_depot: bool = True
    experience: int = 0
    created_turn: int = 0
    upgraded_turn: int | None = None
    fought_last_turn: bool = False
    recover_streak: int = 0  # consecutive earlier turns spent recovering this province
    no_forced_march: bool = False  # set by the foraging table this turn
    co_occupying: bool = False  # a failed forced march left it in a friendly army's province
    disbanded: bool = False
    veteran_status_lost: bool = False  # upgraded by 500 points or more this turn


@dataclass
class TurnState:
    turn: int
    player_count: int
    provinces: dict[int, ProvinceS]
    adjacency: dict[int, frozenset[int]]
    kingdoms: dict[int, KingdomS]
    armies: dict[int, ArmyS]  # active field armies
    orders: dict[int, ArmyOrder] = field(default_factory=dict)  # army id -> its (normalised) order
    sheets: dict[int, SheetEntries] = field(default_factory=dict)  # kingdom id -> its submitted sheet

    def adjacent(self, a: int, b: int) -> bool:
        return b in self.adjacency.get(a, frozenset())

    def working_copy(self) -> TurnState:
        """A copy the phases may change: provinces, kingdoms and armies are copied; the map's
        adjacency, the orders and the sheets are immutable and shared."""
        return TurnState(
            turn=self.turn,
            player_count=self.player_count,
            provinces={n: copy.copy(p) for n, p in self.provinces.items()},
            adjacency=self.adjacency,
            kingdoms={k: copy.copy(v) for k, v in self.kingdoms.items()},
            armies={a: copy.copy(v) for a, v in self.armies.items()},
            orders=dict(self.orders),
            sheets=dict(self.sheets),
        )

    def armies_in(self, province: int) -> list[ArmyS]:
        return [a for a in self.armies.values() if a.province == province and not a.disbanded]


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
    attacker_army: int
    defender_kingdom: int | None  # None: a neutral or Ancient Dead desert garrison
    defender_army: int | None  # None: the settlement's (or desert's) garrison defends
    garrison_points: int = 0  # the garrison fighting (as defender or supporting the defending army)
    garrison_defenses: int = 0
    supports: list[SupportS] = field(default_factory=list)
    fortified_points: int = 0  # 200 extra core troops for a fortified defender
    defended_obstacles: int | None = None  # pieces of defenses from the Defended Obstacles roll
    guerrilla: dict[str, Any] | None = None  # {"army": smaller army, "roll": d6, "target": army, "points_lost": n}
    assault: bool = False  # over a town, city or capitol: always Assault
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


ARMY_ID_KEYS = ("army", "opponent_army", "target")  # the keys of an event's data that hold army ids


def with_real_army_ids(data: dict[str, Any] | None, id_map: dict[int, int]) -> dict[str, Any] | None:
    """Armies raised this turn have temporary (negative) ids in the rules' data: the real ones, once
    their rows exist (`id_map`: temporary id -> row id)."""
    if not data:
        return data
    return {k: id_map.get(v, v) if k in ARMY_ID_KEYS and isinstance(v, int) else v for k, v in data.items()}
