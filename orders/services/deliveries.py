"""The beginning of a turn: what was bought with experience two turns before arrives
(Spending Experience, Supply Depot: "purchased in Turn 2 will arrive at the beginning of Turn 4")."""

from __future__ import annotations

from django.db.models import Max

from kernel.event_codes import EventCode
from kingdoms.models import ArmoryItem, Army, Delivery, Unit
from rulebook.experience.spending import PurchaseKind, delivered_item_kept
from rulebook.turn.aftermath.mislabeled_goods import FOUND_ITEM
from turns.models import Turn, TurnEvent

from .events import turn_event_sequence_next

PHASE_DELIVERIES = "deliveries"


def deliveries_arrive(*, turn: Turn) -> list[TurnEvent]:
    """Put each delivery due at the beginning of `turn` on its army's list, with an event for the
    kingdom; one for an army disbanded meanwhile is lost, and so is a magic item the kingdom came to
    hold meanwhile (Armory: one of each; decision 600). Call in the transaction that opens it."""
    due = list(
        Delivery.objects.select_for_update()
        .filter(army__kingdom__campaign=turn.campaign, status=Delivery.Status.ON_THE_WAY, arrives_turn__lte=turn.number)
        .select_related("army__kingdom")
        .order_by("army__kingdom", "army", "id")
    )
    start = turn_event_sequence_next(turn)
    rows = []
    for delivery in due:
        army = delivery.army
        # Sabotage, Mislabeled goods: an item found in the field comes as a delivery, not bought.
        found = delivery.kind == FOUND_ITEM
        how, rule = ("found", "Sabotage: Mislabeled goods") if found else ("bought", "Spending Experience")
        if army.status != Army.Status.ACTIVE:
            delivery.status = Delivery.Status.LOST
            code = EventCode.DELIVERY_LOST
            text = (
                f"{delivery.what}, {how} for {army.name} in turn {delivery.ordered_turn}, is lost: the army was "
                f"disbanded before it arrived ({rule})."
            )
        elif _item_held(delivery):
            # Armory: one of each; one that came meanwhile (a transfer, a raid's find) is kept (decision 600).
            delivery.status = Delivery.Status.LOST
            code = EventCode.DELIVERY_LOST
            text = (
                f"{delivery.what}, {how} for {army.name} in turn {delivery.ordered_turn}, is lost: the kingdom holds "
                "one already (or lost one with an army) and has only one of each armory item (Armory; decision 600)."
            )
        else:
            _deliver(delivery)
            delivery.status = Delivery.Status.ARRIVED
            code = EventCode.DELIVERY_ARRIVED
            text = (
                f"{army.name}: {delivery.what}, {how} in turn {delivery.ordered_turn}, arrives and is on its list "
                f"({rule})."
            )
        delivery.save(update_fields=["status"])
        rows.append(
            TurnEvent(
                turn=turn,
                sequence=start + len(rows),
                phase=PHASE_DELIVERIES,
                code=code,
                text=text,
                kingdom_id=army.kingdom_id,
                army_id=army.id,
                data={"delivery": delivery.id, "kind": delivery.kind, "ordered_turn": delivery.ordered_turn},
            )
        )
    return TurnEvent.objects.bulk_create(rows)


def _item_held(delivery: Delivery) -> bool:
    """A magic item the kingdom may not take: it holds one of that name (or lost one) already."""
    if delivery.kind not in (PurchaseKind.ITEM, FOUND_ITEM) or delivery.common:
        return False
    held = ArmoryItem.objects.filter(kingdom=delivery.army.kingdom, name__iexact=delivery.name.strip(), common=False)
    return not delivered_item_kept(
        delivery.name,
        common=delivery.common,
        held=frozenset(n.strip().lower() for n in held.values_list("name", flat=True)),
    )


def _deliver(delivery: Delivery) -> None:
    army = delivery.army
    if delivery.kind == PurchaseKind.SUPPLY_DEPOT:
        Army.objects.filter(pk=army.pk).update(supply_depot=True)
        return
    unit = Unit.objects.filter(army=army, name__iexact=delivery.unit).first() if delivery.unit else None
    if delivery.kind == PurchaseKind.RECRUITS:
        if unit is None:
            # A new unit (or the unit named was removed from the list meanwhile: the recruits form it again).
            last = army.units.aggregate(last=Max("position"))["last"]
            Unit.objects.create(
                army=army,
                position=(last or 0) + 1,
                name=delivery.name or delivery.unit,
                category=delivery.category or "core",
                models_count=delivery.models_count,
                points_per_model=delivery.points_per_model,
            )
        else:
            unit.models_count += delivery.models_count
            unit.save(update_fields=["models_count"])
    elif delivery.kind == PurchaseKind.EQUIPMENT and unit is not None:
        unit.equipment_points += delivery.points
        unit.save(update_fields=["equipment_points"])
    elif delivery.kind in (PurchaseKind.ITEM, FOUND_ITEM):
        ArmoryItem.objects.create(
            kingdom=army.kingdom, name=delivery.name, points=delivery.points, common=delivery.common, bearer=unit
        )
