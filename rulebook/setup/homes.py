"""Setup: home selection order, province picks and the number of armies allowed.

Rulebook, Setup: each player rolls 2D6, duplicates are rolled again; the highest picks a
home (capitol site) first; then, from the lowest, each picks two provinces adjacent to
their home (one when there are more than five players). Pure Python.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from kernel.dice import Dice
from rulebook.setup.maps import MAX_PROVINCES
from rulebook.tables import (
    ARMY_TABLE,
    HOME_PROVINCES_TO_PICK,
    HOME_PROVINCES_TO_PICK_OVER_FIVE_PLAYERS,
)


@dataclass(frozen=True)
class HomeRolls:
    """The final 2D6 value of each kingdom (after re-rolls) and the picking orders it gives."""

    values: dict[int, int]

    @property
    def home_order(self) -> list[int]:
        """Kingdoms in home-selection order: highest roll first."""
        return sorted(self.values, key=lambda k: self.values[k], reverse=True)

    @property
    def province_order(self) -> list[int]:
        """Kingdoms in adjacent-province order: lowest roll first."""
        return list(reversed(self.home_order))


def roll_home_selection(kingdoms: Iterable[int], dice: Dice) -> HomeRolls:
    """Roll 2D6 for each kingdom; every kingdom whose value duplicates another's rolls again,
    until all values differ (rule case S1)."""
    values = {k: dice.two_d6(purpose="home selection", kingdoms=[k]) for k in kingdoms}
    while True:
        counts = Counter(values.values())
        tied = [k for k, v in values.items() if counts[v] > 1]
        if not tied:
            return HomeRolls(values=values)
        for kingdom in tied:
            values[kingdom] = dice.two_d6(purpose="home selection re-roll", kingdoms=[kingdom])


def provinces_to_pick(player_count: int) -> int:
    """Adjacent provinces each kingdom picks at setup: two, one with more than five players (S2)."""
    return HOME_PROVINCES_TO_PICK_OVER_FIVE_PLAYERS if player_count > 5 else HOME_PROVINCES_TO_PICK


@dataclass(frozen=True)
class PickableProvince:
    number: int
    terrain: str
    settlement: str
    capitol_site: bool
    pyramid: bool
    controlled: bool


def home_pick_errors(number: int, provinces: Mapping[int, PickableProvince]) -> list[str]:
    """Why `number` cannot be taken as a home (capitol) province; empty when it can."""
    province = provinces.get(number)
    if province is None:
        return [f"Province {number} is not on this campaign's map."]
    if not province.capitol_site:
        return [f"Province {number} is not one of the predetermined capitol sites (Setup)."]
    if province.controlled:
        return [f"Province {number} has already been taken as another kingdom's home."]
    return []


def adjacent_pick_errors(
    numbers: list[int],
    *,
    home: int,
    neighbours: frozenset[int],
    provinces: Mapping[int, PickableProvince],
    player_count: int,
) -> list[str]:
    """Why these adjacent provinces cannot be picked; empty when they can.

    Deserts and the pyramid belong to the Ancient Dead, and unpicked capitol sites stay free
    for no one: a kingdom may not start with a second city (see docs/rules-decisions.md).
    """
    wanted = provinces_to_pick(player_count)
    errors: list[str] = []
    if len(numbers) != wanted:
        errors.append(
            f"Pick exactly {wanted} province{'s' if wanted > 1 else ''} adjacent to your home "
            f"(Setup{': more than five players' if player_count > 5 else ''}); you picked {len(numbers)}."
        )
    if len(set(numbers)) != len(numbers):
        errors.append("The same province was picked twice.")
    for number in numbers:
        province = provinces.get(number)
        if province is None:
            errors.append(f"Province {number} is not on this campaign's map.")
        elif number not in neighbours:
            errors.append(f"Province {number} is not adjacent to your home province {home} (Setup).")
        elif province.controlled:
            errors.append(f"Province {number} is already taken.")
        elif province.terrain == "desert" or province.pyramid:
            errors.append(f"Province {number} is desert, held by the Ancient Dead.")
        elif province.capitol_site:
            errors.append(f"Province {number} is a capitol site and cannot be taken as an adjacent province.")
    return errors


def army_limit(*, player_count: int, provinces_controlled: int) -> int:
    """How many armies a kingdom may have (Army Table): the starting army plus one for every
    N provinces controlled, rounded down, N by the number of players (see docs/rules-decisions.md)."""
    per = ARMY_TABLE[min(max(player_count, 2), 5)]
    return 1 + provinces_controlled // per


# The most armies any kingdom may have (Army Table): every province of the largest map a campaign
# accepts, at the most generous rate. It bounds the lists an order sheet takes (a few entries an army).
MOST_ARMIES = army_limit(player_count=5, provinces_controlled=MAX_PROVINCES)
