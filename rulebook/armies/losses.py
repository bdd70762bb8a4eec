"""Losses taken from an army's list (pure Python).

Rulebook: Foraging Table (3-4 "must lose D6 x 50 points of troops"; 2, Disaster, "50% casualties
(by number of models, not points)"), Guerrilla Tactics (the enemy army "loses 5% / 10% of its
force ... This counts as destroyed"), Army Restrictions.

The list is what counts: a loss takes models off the list, once, and the army's points are the
list's. The player chooses the models by naming, on the order sheet, the unit of the army that
takes its losses first; whatever that unit cannot take, and the whole loss when the player said
nothing, falls on the rank and file: core units first, then special, then rare, and within each the
unit with the most models first (the big regiments absorb casualties best, and the cheapest models
go first). Never a character: a character's fate is the Character Injury Chart's, which neither
table calls for (docs/rules-decisions.md, decision 22).

While an army's list is due (raised or upgraded, not entered since) there are no models to take:
the loss is kept as points, and the list, when entered, leaves them out.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace

from rulebook.world import ArmyState, UnitState

RANK_AND_FILE_ORDER: tuple[str, ...] = ("core", "special", "rare")


@dataclass(frozen=True)
class UnitLoss:
    unit: int
    name: str
    models: int
    points: int  # the models' points, and the unit's equipment when its last model goes


@dataclass(frozen=True)
class ListLoss:
    """What a loss did: the army and its list after it, the models taken off the list (none while
    its list is due), and the points the army lost."""

    army: ArmyState
    units: tuple[UnitState, ...]
    taken: tuple[UnitLoss, ...]
    points: int

    @property
    def models(self) -> int:
        return sum(t.models for t in self.taken)

    def describe(self) -> str:
        """The models taken, in the player's terms: "15 Spearmen (150 points), 2 Archers (24 points)"."""
        return ", ".join(f"{t.models} {t.name} ({t.points:,} points)" for t in self.taken)

    def outcome(self) -> str:
        """What the loss took, for the army's own kingdom (it names the army's units)."""
        if self.taken:
            return f"taken from its list: {self.describe()}; it now counts {self.army.points:,} points"
        if self.army.list_due:
            return (
                f"its list is not entered yet: it counts {self.army.points:,} points, and its list, when "
                f"entered, leaves out the {self.army.losses_before_list:,} points lost"
            )
        return "its list has no rank and file left to lose"

    def data(self) -> list[list[object]]:
        """The models taken, for an event's data: [unit name, models, points] each."""
        return [[t.name, t.models, t.points] for t in self.taken]


def _matches(unit: UnitState, name: str) -> bool:
    return bool(name.strip()) and unit.name.strip().lower() == name.strip().lower()


def loss_order(units: Iterable[UnitState], first: str = "") -> list[UnitState]:
    """The units a loss falls on, in turn: the unit the player named first (a rank-and-file unit of
    the list, else the choice is ignored), then core, special and rare units, the one with the most
    models first within each. Characters and units already gone are never in it."""
    rank_and_file = [u for u in units if not u.character and u.models > 0 and u.category in RANK_AND_FILE_ORDER]
    ordered = sorted(rank_and_file, key=lambda u: (RANK_AND_FILE_ORDER.index(u.category), -u.models))
    chosen = [u for u in ordered if _matches(u, first)]
    return chosen + [u for u in ordered if u not in chosen]


def rank_and_file_models(units: Iterable[UnitState]) -> int:
    return sum(u.models for u in loss_order(units))


def models_for_points(units: Iterable[UnitState], points: int, first: str = "") -> dict[int, int]:
    """Unit id -> models to remove for a loss of `points`: whole models, unit by unit in loss
    order, until they are worth the loss (troops come in whole models, so the last one may take it
    a few points over). A list too small for the loss loses all its rank and file."""
    counts: dict[int, int] = {}
    remaining = points
    for unit in loss_order(units, first):
        if remaining <= 0:
            break
        if unit.points_per_model <= 0:
            continue  # models worth nothing are no loss of points
        n = min(unit.models, math.ceil(remaining / unit.points_per_model))
        counts[unit.id] = n
        remaining -= n * unit.points_per_model + (unit.equipment_points if n == unit.models else 0)
    return counts


def models_by_number(units: Iterable[UnitState], models: int, first: str = "") -> dict[int, int]:
    """Unit id -> models to remove for a loss of `models` models, unit by unit in loss order."""
    counts: dict[int, int] = {}
    remaining = models
    for unit in loss_order(units, first):
        if remaining <= 0:
            break
        n = min(unit.models, remaining)
        counts[unit.id] = n
        remaining -= n
    return counts


def take_models(army: ArmyState, units: tuple[UnitState, ...], counts: Mapping[int, int]) -> ListLoss:
    """Take `counts` (unit id -> models) off the army's list; the army counts what is left."""
    after: list[UnitState] = []
    taken: list[UnitLoss] = []
    for unit in units:
        n = min(counts.get(unit.id, 0), unit.models)
        if n <= 0:
            after.append(unit)
            continue
        left = replace(unit, models=unit.models - n)
        lost = unit.points - left.points
        taken.append(UnitLoss(unit=unit.id, name=unit.name, models=n, points=lost))
        after.append(left)
    points = min(army.points, sum(t.points for t in taken))
    return ListLoss(
        army=replace(army, points=army.points - points), units=tuple(after), taken=tuple(taken), points=points
    )


def keep_points(army: ArmyState, units: tuple[UnitState, ...], points: int) -> ListLoss:
    """A loss of an army whose list is due: kept as points, for the list to leave out when entered."""
    points = min(army.points, max(0, points))
    return ListLoss(
        army=replace(army, points=army.points - points, losses_before_list=army.losses_before_list + points),
        units=units,
        taken=(),
        points=points,
    )


def lists_models(army: ArmyState, units: tuple[UnitState, ...]) -> bool:
    """Whether a loss of the army is taken as models from its list (else kept as points)."""
    return not army.list_due and bool(units)


def lose_points(army: ArmyState, units: tuple[UnitState, ...], points: int, *, first: str = "") -> ListLoss:
    """A loss of `points` of troops (Foraging Table 3-4, Guerrilla Tactics), taken from the list."""
    if not lists_models(army, units):
        return keep_points(army, units, points)
    return take_models(army, units, models_for_points(units, points, first))
