"""Why gold moves in or out of a treasury: the ledger's reasons (kingdoms.models.TreasuryEntry.Reason
stores the same values with their labels)."""

from __future__ import annotations

from enum import StrEnum


class LedgerReason(StrEnum):
    STARTING_GOLD = "starting-gold"
    TAXES = "taxes"
    IMPERIAL_TAXATION = "imperial-taxation"
    ARMY_CREATED = "army-created"
    ARMY_UPGRADED = "army-upgraded"
    SUPPLY_DEPOT = "supply-depot"
    ELITE_DEFENSE_FORCE = "elite-defense-force"
    LOOT = "loot"
    VICTORY = "victory"
    ALLIANCE = "alliance"
    TRANSFER = "transfer"
    LAND_SALE = "land-sale"  # the price of a province (Land Sales)
    CAPITOL_MOVED = "capitol-moved"  # 1,000 gold to move the capitol (Loss of the Capitol)
    TOMB_RAIDERS = "tomb-raiders"  # 100 gold (and a change fee) to send them on a mission (Using Tomb Raiders)
    RUINS = "ruins"  # Treasure from the Ruins: a 6 is D6 x 100 gold
    THEFT = "theft"  # Sabotage, Theft: 150, 200 or 250 gold out of the target's treasury, into the saboteur's
    ADJUSTMENT = "adjustment"
