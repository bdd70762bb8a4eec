"""Joint kingdoms: a kingdom gives provinces, towns, cities and armies to a co-player who declares
independence as a new kingdom (pure Python, no Django).

Rulebook: Player Issues, "Player joins mid-campaign / joint kingdoms": "A joint kingdom is where a
player may give provinces / towns / cities / armies to another player. That other player then
declares independence from the parent kingdom and acts as an independent kingdom." What the
rulebook leaves open is settled in docs/rules-decisions.md (decisions 225-228).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from rulebook.tables import Settlement
from rulebook.warlord.succession import HeirCandidate, warlord_heir
from rulebook.world import World

# Towns and cities may be given ("provinces / towns / cities"), unlike Land Sales ("Towns or cities
# may not be given away or sold"); the new kingdom's capitol is one of the cities given (decision 226).
CAPITOL_SETTLEMENTS = (Settlement.CITY,)


@dataclass(frozen=True)
class Independence:
    """What passes to the new kingdom: the provinces, the field armies, the Elite Defense Forces of
    the towns and cities given (they go with their town), its capitol and its Warlord."""

    provinces: tuple[int, ...]
    armies: tuple[int, ...]
    garrisons: tuple[int, ...]
    capitol: int | None
    warlord: HeirCandidate | None


def independence_check(
    world: World,
    kingdom: int,
    provinces: Iterable[int],
    armies: Iterable[int],
    *,
    warlord_army: int | None,
    generals: Iterable[HeirCandidate] = (),
) -> tuple[list[str], Independence]:
    """The problems with the gift (each naming the province or army and the rule) and, when there
    are none, what passes. `warlord_army`: the army the parent's Warlord stands in; `generals`: the
    living Generals of the parent's armies, one of whom becomes the new kingdom's Warlord."""
    parent = world.kingdoms[kingdom]
    numbers = tuple(sorted(set(provinces)))
    given = tuple(sorted(set(armies)))
    problems: list[str] = []
    if not numbers:
        problems.append(
            f"Give the new kingdom at least one of {parent.name}'s provinces: an independent kingdom holds land "
            "(Joint kingdoms)."
        )
    for number in numbers:
        province = world.provinces.get(number)
        if province is None or province.controller != kingdom:
            problems.append(f"Province {number} is not {parent.name}'s to give (Joint kingdoms).")
        elif number == parent.capitol:
            problems.append(
                f"{province} is {parent.name}'s capitol: the parent kingdom keeps it (Joint kingdoms; decision 226)."
            )
    for army_id in given:
        army = world.armies.get(army_id)
        if army is None or army.kingdom != kingdom or army.disbanded:
            problems.append(f"Army {army_id} is not one of {parent.name}'s field armies (Joint kingdoms).")
        elif army_id == warlord_army:
            problems.append(
                f"{army.name} carries {parent.name}'s Warlord, who stays with the parent kingdom (Warlord; "
                "decision 227)."
            )
        elif army.province not in numbers:
            problems.append(
                f"{army.name} stands in {world.provinces[army.province]}, which is not given: an army goes with "
                "the land it stands on (decision 225)."
            )
    for army in sorted(world.armies.values(), key=lambda a: a.id):
        if army.kingdom == kingdom and not army.disbanded and army.province in numbers and army.id not in given:
            problems.append(
                f"{army.name} stands in {world.provinces[army.province]}, which is given: give the army too, or "
                "move it out first (decision 225)."
            )
    garrisons = tuple(
        g.id
        for g in sorted(world.garrisons.values(), key=lambda a: a.id)
        if g.kingdom == kingdom and not g.disbanded and g.province in numbers
    )
    cities = [n for n in numbers if n in world.provinces and world.provinces[n].settlement in CAPITOL_SETTLEMENTS]
    heir = warlord_heir([g for g in generals if g.army in given], None)
    return problems, Independence(
        provinces=numbers,
        armies=given,
        garrisons=garrisons,
        capitol=cities[0] if cities else None,
        warlord=heir.candidate if heir is not None else None,
    )
