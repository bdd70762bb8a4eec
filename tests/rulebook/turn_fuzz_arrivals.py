"""What a turn sends that arrives later, for the turn fuzz (tests/rulebook/turn_fuzz.py): the gold and
items of Transfer of Gold (an order sheet's transfer, money negotiations, a land sale's price), the
purchases with experience (Spending Experience, Supply Depot: "purchased in Turn 2 will arrive at the
beginning of Turn 4") and an item found in the field and delayed by a Mislabeled goods. Read off the
phases' events as the writers read them, and made to arrive at the beginning of their turn as
orders/services/transfers.py and orders/services/deliveries.py put them in the database; the rules then
meet what arrived on the next turns (an armory item, a unit grown by its recruits, a new one)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from typing import Any

from kernel.event_codes import EventCode
from kernel.events import Event
from rulebook.experience.spending import PurchaseKind
from rulebook.turn.aftermath.mislabeled_goods import FOUND_ITEM
from rulebook.world import ItemState, UnitState, World

TRANSFER_GOLD, TRANSFER_ITEM = "transfer-gold", "transfer-item"  # not a Delivery row's kinds
GOLD_SENT = (EventCode.TRANSFER_SENT, EventCode.NEGOTIATION_PAID, EventCode.LAND_PRICE_PAID)


@dataclass(frozen=True)
class OnTheWay:
    """One thing on its way: `kind` TRANSFER_GOLD, TRANSFER_ITEM (a transfer's, to the kingdom `to` from `sender`) or a
    purchase's or found item's delivery to `army` (the Delivery row's kind)."""

    kind: str
    arrives: int
    data: dict[str, Any]
    sender: int | None = None
    army: int | None = None


def sent(events: Iterable[Event]) -> list[OnTheWay]:
    """What the phase's events send on its way, as the writers store it."""
    out: list[OnTheWay] = []
    for e in events:
        if e.code in GOLD_SENT and "arrives" in e.data and e.kingdom is not None:
            out.append(OnTheWay(TRANSFER_GOLD, int(e.data["arrives"]), dict(e.data), sender=e.kingdom))
        elif e.code == EventCode.ITEM_SENT and e.kingdom is not None:
            out.append(OnTheWay(TRANSFER_ITEM, int(e.data["arrives"]), dict(e.data), sender=e.kingdom))
        elif e.code == EventCode.PURCHASE_ORDERED and e.army is not None:
            purchase = e.data["purchase"]
            out.append(
                OnTheWay(
                    str(purchase["kind"]),
                    int(e.data["arrives_turn"]),
                    {
                        "unit": purchase["unit"].strip(),
                        "models": max(purchase["models"], 0),
                        "points": max(e.data["points"], 0),
                        "points_per_model": e.data.get("points_per_model") or max(purchase["points"], 0),
                        "name": purchase["name"].strip(),
                        "category": purchase["category"],
                        "common": purchase["common"],
                    },
                    army=e.army,
                )
            )
        elif e.code == EventCode.SABOTAGE_APPLIED and (delivery := e.data.get("delivery")):
            out.append(
                OnTheWay(
                    FOUND_ITEM,
                    int(delivery["arrives"]),
                    {
                        "unit": str(delivery.get("unit") or ""),
                        "name": str(delivery["name"]),
                        "points": int(delivery.get("points") or 0),
                        "common": bool(delivery.get("common")),
                    },
                    army=int(delivery["army"]),
                )
            )
    return out


def items_sent(events: Iterable[Event]) -> set[int]:
    """The items the orders phase sent away: the writer deletes their rows (world_write)."""
    return {int(e.data["item_id"]) for e in events if e.code == EventCode.ITEM_SENT}


def _holds(world: World, kingdom: int, name: str) -> bool:
    key = name.strip().lower()
    return any(i.kingdom == kingdom and not i.common and i.name.strip().lower() == key for i in world.items.values())


def _new_item(world: World, **fields: Any) -> None:
    item_id = min([0, *world.items]) - 1
    world.items[item_id] = ItemState(item_id, **fields)


def arrive(world: World, on_the_way: list[OnTheWay]) -> tuple[World, list[OnTheWay]]:
    """At the beginning of `world.turn`: what is due arrives (gold in the treasury, a transfer's item in
    the armory or back to its sender, a delivery on its army's list, lost with an army disbanded or when
    the kingdom came to hold its item meanwhile, decision 600); the rest stays on its way."""
    world = world.working_copy()
    # As the turn opens (orders/services/turns.py): the deliveries first, then the gold, then the items.
    order = {TRANSFER_GOLD: 1, TRANSFER_ITEM: 2}
    due = sorted((d for d in on_the_way if d.arrives <= world.turn), key=lambda d: order.get(d.kind, 0))
    for d in due:
        if d.kind == TRANSFER_GOLD:
            receiver = world.kingdoms.get(int(d.data["to"]))
            if receiver is not None:
                world.kingdoms[receiver.id] = replace(receiver, treasury=receiver.treasury + int(d.data["gold"]))
            continue
        if d.kind == TRANSFER_ITEM:
            name, common = str(d.data["name"]), bool(d.data.get("common"))
            for keeper in (int(d.data["to"]), d.sender):
                if keeper is not None and keeper in world.kingdoms and (common or not _holds(world, keeper, name)):
                    _new_item(
                        world, name=name, points=int(d.data["points"]), bearer=None, kingdom=keeper, common=common
                    )
                    break
            continue
        army = world.armies.get(d.army or 0)
        if army is None or army.disbanded:
            continue  # lost: the army was disbanded before it arrived
        listed = world.units.get(army.id, ())
        key = str(d.data.get("unit", "")).strip().lower()
        unit = next((u for u in listed if key and u.name.strip().lower() == key), None)
        if d.kind == PurchaseKind.SUPPLY_DEPOT:
            world.armies[army.id] = replace(army, supply_depot=True)
        elif d.kind == PurchaseKind.RECRUITS:
            if unit is None:
                new_id = max([0, *(u.id for units in world.units.values() for u in units)]) + 1
                world.units[army.id] = (
                    *listed,
                    UnitState(
                        new_id,
                        army.id,
                        str(d.data["name"] or d.data["unit"]),
                        str(d.data["category"] or "core"),
                        int(d.data["models"]),
                        int(d.data["points_per_model"]),
                    ),
                )
            else:
                world.units[army.id] = tuple(
                    replace(u, models=u.models + int(d.data["models"])) if u.id == unit.id else u for u in listed
                )
        elif d.kind == PurchaseKind.EQUIPMENT and unit is not None:
            world.units[army.id] = tuple(
                replace(u, equipment_points=u.equipment_points + int(d.data["points"])) if u.id == unit.id else u
                for u in listed
            )
        elif d.kind in (PurchaseKind.ITEM, FOUND_ITEM):
            name, common = str(d.data["name"]), bool(d.data["common"])
            if not common and _holds(world, army.kingdom, name):
                continue  # Armory: one came meanwhile; this one is lost (decision 600)
            _new_item(
                world,
                name=name,
                points=int(d.data["points"]),
                bearer=unit.id if unit is not None else None,
                kingdom=army.kingdom,
                common=common,
            )
    return world, [d for d in on_the_way if d.arrives > world.turn]
