"""1. Tally Gold: what a kingdom's provinces yield in a turn (pure Python).

One reckoning for the turn's resolution, which collects the taxes, and for the order sheet, which
may spend them: the sheet's gold is checked against the treasury plus the taxes its turn will
collect, since 1. Tally Gold comes before 3. Create / Upgrade Armies.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from rulebook.tables import ArmyType, Terrain
from rulebook.world import ProvinceState, World

# 1. Tally Gold: the taxes each source yields a turn. A province with a town or city yields the
# settlement's tax only (rule case G1); ruins are a plain province.
TAXES: dict[str, int] = {"city": 300, "town": 150, "province": 30}
# Army-Specific Rules, Empire "Imperial Taxation": deducted for each source that was taxed.
IMPERIAL_TAXATION: dict[str, int] = {"city": 50, "town": 25, "province": 5}


def tax_source(province: ProvinceState) -> str | None:
    """What a province is taxed as, or None when it yields nothing (razed or desert: G3)."""
    if province.razed or province.terrain is Terrain.DESERT:
        return None
    if province.settlement.town_or_city:
        return province.settlement.value
    return "province"  # plain provinces and ruins


@dataclass(frozen=True)
class TaxTally:
    """A kingdom's taxes for the turn: the sources counted, the taxes, and the Empire's levy."""

    sources: Counter[str]
    taxes: int
    imperial_taxation: int  # paid to the Imperial Government out of the taxes (Empire only)

    @property
    def net(self) -> int:
        """What the treasury gains in 1. Tally Gold."""
        return self.taxes - self.imperial_taxation


def tax_tally(world: World, kingdom: int) -> TaxTally:
    """The taxes `kingdom` collects from the provinces it controls in `world` (G1-G3), and the
    Imperial Taxation an Empire kingdom pays on the same sources."""
    sources: Counter[str] = Counter()
    for province in world.provinces.values():
        if province.controller != kingdom:
            continue
        source = tax_source(province)
        if source is not None:
            sources[source] += 1
    taxes = sum(TAXES[s] * n for s, n in sources.items())
    levy = 0
    if world.kingdoms[kingdom].army_type is ArmyType.EMPIRE:
        levy = sum(IMPERIAL_TAXATION[s] * n for s, n in sources.items())
    return TaxTally(sources=sources, taxes=taxes, imperial_taxation=levy)
