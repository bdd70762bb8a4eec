"""1. Tally Gold: what a kingdom's provinces yield in a turn (pure Python).

One reckoning for the turn's resolution, which collects the taxes, and for the order sheet, which
may spend them: the sheet's gold is checked against the treasury plus the taxes its turn will
collect, since 1. Tally Gold comes before 3. Create / Upgrade Armies. And the phase itself
(`tally_gold`): every kingdom collects its taxes, an Empire kingdom pays its Imperial Taxation.

The phase reads the turn's state through the world's view (`OnTheWorld`, which `TurnState` is):
the order sheet imports this module, and the turn's state is built on the order sheet.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, replace

from kernel.event_codes import EventCode
from kernel.events import Event
from kernel.ledger import LedgerReason
from rulebook.tables import ArmyType, Terrain
from rulebook.world import OnTheWorld, ProvinceState, World

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


PHASE_TALLY_GOLD = "tally-gold"

_SOURCE_PLURALS = {"city": "cities", "town": "towns", "province": "provinces"}


def add_gold(state: OnTheWorld, kingdom: int, gold: int) -> None:
    """Add `gold` (taken away when negative) to the kingdom's treasury."""
    record = state.kingdoms[kingdom]
    state.kingdoms[kingdom] = replace(record, treasury=record.treasury + gold)


def _describe(counts: Counter[str], table: dict[str, int]) -> str:
    parts = []
    for source in table:  # the table's order: cities, towns, provinces
        n = counts[source]
        if n:
            parts.append(f"{n} {source if n == 1 else _SOURCE_PLURALS[source]} ({n * table[source]:,})")
    return ", ".join(parts)


def tally_gold(state: OnTheWorld, events: list[Event]) -> None:
    """Phase 1: every kingdom but a Rogue Kingdom collects taxes from the provinces it controls (G1, G3), and an
    Empire kingdom then pays Imperial Taxation on the same sources (G2). One event per movement
    of gold; a kingdom with no income gets no event."""
    for kingdom in sorted(state.kingdoms.values(), key=lambda k: k.id):
        if kingdom.rogue:
            # Rogue Kingdom: wracked by civil war, no leader collects its taxes; its treasury waits as
            # it was for a new player (New Player Option, decision 155).
            continue
        tally = tax_tally(state.world, kingdom.id)
        if tally.taxes == 0:
            continue
        add_gold(state, kingdom.id, tally.taxes)
        events.append(
            Event(
                PHASE_TALLY_GOLD,
                EventCode.TAXES,
                f"Taxes: {_describe(tally.sources, TAXES)}.",
                kingdom=kingdom.id,
                gold=tally.taxes,
                ledger_reason=LedgerReason.TAXES,
                data={"sources": dict(tally.sources)},
            )
        )
        if tally.imperial_taxation:
            levy = tally.imperial_taxation
            add_gold(state, kingdom.id, -levy)
            events.append(
                Event(
                    PHASE_TALLY_GOLD,
                    EventCode.IMPERIAL_TAXATION,
                    f"Imperial Taxation: {_describe(tally.sources, IMPERIAL_TAXATION)}, {levy:,} gold to the "
                    "Imperial Government.",
                    kingdom=kingdom.id,
                    gold=-levy,
                    ledger_reason=LedgerReason.IMPERIAL_TAXATION,
                    data={"sources": dict(tally.sources)},
                )
            )
