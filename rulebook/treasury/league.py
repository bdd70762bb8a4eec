"""The campaign page's league table: gold rank bands (pure Python).

Treasuries are secret (The Treasury; a player never sees another kingdom's gold), so the league table
shows where a kingdom's treasury stands among the others as a band of thirds, never a figure: the
richest third, the middle, the poorest third (rules decision 341).
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import StrEnum


class GoldBand(StrEnum):
    """The league table's gold rank bands, richest first."""

    RICHEST = "richest third"
    MIDDLE = "middle"
    POOREST = "poorest third"


def gold_bands(treasuries: Mapping[int, int]) -> dict[int, GoldBand]:
    """Each kingdom's band by its rank among the treasuries given (kingdom id -> gold).

    A kingdom's rank is one plus the number of kingdoms strictly richer, so equal treasuries share a
    band and a tie never tells the two apart. Ranks split into thirds of the field: with three kingdoms
    one in each band, with six two in each; with two kingdoms the poorer is in the middle (half the field
    is not the poorest third); a lone kingdom, or a field all tied, is all in the richest third.
    """
    count = len(treasuries)
    bands: dict[int, GoldBand] = {}
    for kingdom_id, gold in treasuries.items():
        richer = sum(1 for other in treasuries.values() if other > gold)
        # Which third the rank falls in: rank r of n is in third floor(3 (r - 1) / n).
        third = (3 * richer) // count
        bands[kingdom_id] = (GoldBand.RICHEST, GoldBand.MIDDLE, GoldBand.POOREST)[third]
    return bands
