"""What the purchases with experience are checked against: each kingdom's lists, characters,
items and deliveries on the way, read in a fixed number of queries (Spending Experience)."""

from __future__ import annotations

from collections import defaultdict

from ..models import ArmoryItem, Army, Campaign, Character, Delivery, Kingdom, Unit
from ..rules.experience import CharacterRecord, ItemRecord, PurchaseKind, SpendingRoster, UnitRecord


def spending_rosters_load(*, campaign: Campaign, kingdom: int | None = None) -> dict[int, SpendingRoster]:
    """kingdom id -> its SpendingRoster (only `kingdom`'s when given)."""
    armies = Army.objects.filter(kingdom__campaign=campaign, status=Army.Status.ACTIVE)
    if kingdom is not None:
        armies = armies.filter(kingdom_id=kingdom)
    army_kingdom = dict(armies.values_list("id", "kingdom_id"))
    units: dict[int, list[UnitRecord]] = defaultdict(list)
    for u in Unit.objects.filter(army_id__in=army_kingdom).order_by("army", "position", "id"):
        units[army_kingdom[u.army_id]].append(
            UnitRecord(
                army=u.army_id,
                name=u.name,
                category=u.category,
                models=u.models_count,
                points_per_model=u.points_per_model,
                veteran_level=u.veteran_level,
                veteran_eligible=u.veteran_eligible,
            )
        )
    characters: dict[int, list[CharacterRecord]] = defaultdict(list)
    for c in Character.objects.filter(unit__army_id__in=army_kingdom, alive=True).select_related("unit"):
        characters[c.kingdom_id].append(
            CharacterRecord(
                army=c.unit.army_id,
                name=c.unit.name,
                role=c.role,
                rank=c.rank,
                points=c.unit.points_per_model,
                archetype=c.archetype,
                abilities=tuple(c.abilities),
                battles_survived=c.battles_survived,
                battles_at_last_ability=c.battles_at_last_ability,
                ability_choice_pending=c.ability_choice_pending,
            )
        )
    items: dict[int, set[str]] = defaultdict(set)
    held = ArmoryItem.objects.filter(kingdom__campaign=campaign, common=False, destroyed=False)
    if kingdom is not None:
        held = held.filter(kingdom_id=kingdom)  # only its roster is returned
    for kingdom_id, name in held.values_list("kingdom_id", "name"):
        items[kingdom_id].add(name.strip().lower())
    armory: dict[int, list[ItemRecord]] = defaultdict(list)
    every_item = ArmoryItem.objects.filter(kingdom__campaign=campaign, destroyed=False)
    if kingdom is not None:
        every_item = every_item.filter(kingdom_id=kingdom)
    carried = every_item.values_list("id", "kingdom_id", "name", "points", "common", "bearer__army_id")
    for item_id, kingdom_id, name, points, common, army_id in carried:
        if army_id is not None and army_id not in army_kingdom:
            continue  # carried in a disbanded army: lost with it
        armory[kingdom_id].append(ItemRecord(item_id, name, points, common, army_id))
    on_the_way: dict[int, dict[int, int]] = defaultdict(lambda: defaultdict(int))
    depots: dict[int, set[int]] = defaultdict(set)
    for d in Delivery.objects.filter(army_id__in=army_kingdom, status=Delivery.Status.ON_THE_WAY):
        k = army_kingdom[d.army_id]
        on_the_way[k][d.army_id] += d.points
        if d.kind == PurchaseKind.SUPPLY_DEPOT:
            depots[k].add(d.army_id)
        if d.kind == PurchaseKind.ITEM and not d.common:
            items[k].add(d.name.strip().lower())
    kingdoms = set(army_kingdom.values()) | set(items) | set(armory)
    if kingdom is not None:
        kingdoms = {kingdom}
    return {
        k: SpendingRoster(
            units=tuple(units[k]),
            characters=tuple(characters[k]),
            items=frozenset(items[k]),
            on_the_way_points=dict(on_the_way[k]),
            depots_on_the_way=frozenset(depots[k]),
            armory=tuple(sorted(armory[k], key=lambda i: (i.army is not None, i.army or 0, i.id))),
        )
        for k in kingdoms
    }


def deliveries_on_the_way(army: Army) -> list[Delivery]:
    """What `army` has bought and not received yet, by the turn it arrives."""
    return list(army.deliveries.filter(status=Delivery.Status.ON_THE_WAY).order_by("arrives_turn", "id"))


def deliveries_of_kingdom(kingdom: Kingdom) -> list[Delivery]:
    """What the kingdom's armies have bought and not received yet, by army and the turn it arrives."""
    return list(
        Delivery.objects.filter(army__kingdom=kingdom, status=Delivery.Status.ON_THE_WAY)
        .select_related("army")
        .order_by("army", "arrives_turn", "id")
    )
