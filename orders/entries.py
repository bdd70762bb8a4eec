"""The JSON form of an order sheet's entries (stored on OrderSheet.entries and submissions)."""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from rulebook.turn.write_orders.records import (
    DEFEND_WITH_ARMY,
    ArmyOrder,
    BuySupplyDepot,
    CreateArmy,
    DeclareAlliance,
    EndAlliance,
    LandDeal,
    LossesFrom,
    MoveCapitol,
    OrderKind,
    Purchase,
    ReinforceGarrison,
    SheetEntries,
    TransferGold,
    TransferItem,
    UpgradeArmy,
)


def entries_to_json(entries: SheetEntries) -> dict[str, Any]:
    return {
        "orders": [
            {
                "army": o.army,
                "kind": o.kind.value,
                "target": o.target,
                "support": o.support,
                "path": list(o.path),
                "disaster_choice": o.disaster_choice,
                "pay_for_depot": o.pay_for_depot,
                "defend_with": o.defend_with,
                "take_control": o.take_control,
            }
            for o in entries.orders
        ],
        "creations": [{"name": c.name, "points": c.points, "province": c.province} for c in entries.creations],
        "upgrades": [{"army": u.army, "points": u.points} for u in entries.upgrades],
        "depots": [{"army": d.army} for d in entries.depots],
        "garrisons": [{"province": g.province} for g in entries.garrisons],
        "losses": [{"army": c.army, "unit": c.unit} for c in entries.losses],
        "purchases": [asdict(p) for p in entries.purchases],
        "alliances": [{"kingdom": a.kingdom} for a in entries.alliances],
        "alliance_ends": [{"kingdom": a.kingdom} for a in entries.alliance_ends],
        "gold_transfers": [{"kingdom": t.kingdom, "gold": t.gold} for t in entries.gold_transfers],
        "item_transfers": [{"kingdom": t.kingdom, "item": t.item} for t in entries.item_transfers],
        "land_deals": [{"kingdom": d.kingdom, "province": d.province, "gold": d.gold} for d in entries.land_deals],
        "capitol_moves": [{"province": m.province} for m in entries.capitol_moves],
    }


def entries_from_json(data: dict[str, Any]) -> SheetEntries:
    """The inverse of entries_to_json; the data has been validated by the form or serializer."""
    return SheetEntries(
        orders=tuple(
            ArmyOrder(
                army=o["army"],
                kind=OrderKind(o.get("kind", "hold")),
                target=o.get("target"),
                support=o.get("support"),
                path=tuple(o.get("path") or ()),
                disaster_choice=o.get("disaster_choice", "casualties"),
                pay_for_depot=o.get("pay_for_depot", True),
                # Sheets filed before the choice existed: the army fights, as it always did.
                defend_with=o.get("defend_with", DEFEND_WITH_ARMY),
                take_control=o.get("take_control", False),
            )
            for o in data.get("orders", [])
        ),
        creations=tuple(CreateArmy(**c) for c in data.get("creations", [])),
        upgrades=tuple(UpgradeArmy(**u) for u in data.get("upgrades", [])),
        depots=tuple(BuySupplyDepot(**d) for d in data.get("depots", [])),
        garrisons=tuple(ReinforceGarrison(**g) for g in data.get("garrisons", [])),
        losses=tuple(LossesFrom(**c) for c in data.get("losses", [])),
        # Sheets filed before purchases with experience existed have none.
        purchases=tuple(Purchase(**p) for p in data.get("purchases", [])),
        # Sheets filed before alliances existed declare none.
        alliances=tuple(DeclareAlliance(**a) for a in data.get("alliances", [])),
        alliance_ends=tuple(EndAlliance(**a) for a in data.get("alliance_ends", [])),
        gold_transfers=tuple(TransferGold(**t) for t in data.get("gold_transfers", [])),
        # Sheets filed before items could be transferred send none.
        item_transfers=tuple(TransferItem(**t) for t in data.get("item_transfers", [])),
        # Sheets filed before Land Sales existed make no deal.
        land_deals=tuple(LandDeal(**d) for d in data.get("land_deals", [])),
        capitol_moves=tuple(MoveCapitol(**m) for m in data.get("capitol_moves", [])),
    )
