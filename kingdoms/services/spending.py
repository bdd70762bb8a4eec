"""What the purchases with experience are checked against: each kingdom's lists, characters,
items and deliveries on the way, read in a fixed number of queries (Spending Experience)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from typing import Any

from django.db.models import Q

from rulebook.archetypes.character_record import AMNESIA
from rulebook.experience.spending import CharacterRecord, ItemRecord, PurchaseKind, SpendingRoster, UnitRecord

from ..models import ArmoryItem, Army, Campaign, Delivery, Kingdom
from .world import ListRows, list_rows


def spending_rosters_load(
    *,
    campaign: Campaign,
    kingdom: int | None = None,
    active_armies: Iterable[int] | None = None,
    lists: ListRows | None = None,
    deliveries: list[tuple[Any, ...]] | None = None,
) -> dict[int, SpendingRoster]:
    """kingdom id -> its SpendingRoster (only `kingdom`'s when given; with it, `active_armies` may
    name its active armies, `lists` be their `list_rows` and `deliveries` their deliveries on the way
    (kingdom_rows.DELIVERY_FIELDS), if the caller has read them). Read as
    rows, not model instances, and without the joins the models' default orderings bring: every
    order sheet's check reads its kingdom's (docs/performance.md, "Order sheets under load")."""
    if kingdom is not None and active_armies is not None:
        army_kingdom = dict.fromkeys(active_armies, kingdom)
    else:
        armies = Army.objects.filter(status=Army.Status.ACTIVE).order_by()
        armies = armies.filter(kingdom__campaign=campaign) if kingdom is None else armies.filter(kingdom_id=kingdom)
        army_kingdom = dict(armies.values_list("id", "kingdom_id"))
        lists = None  # read for the armies just found
    if lists is None:
        lists = list_rows(list(army_kingdom))
    units: dict[int, list[UnitRecord]] = defaultdict(list)
    for row in lists.units:
        _, army_id, name, category, models_count, per_model, _, _, veteran_level, veteran_eligible, living, *_ = row
        if army_id not in army_kingdom:
            continue
        units[army_kingdom[army_id]].append(
            UnitRecord(
                army=army_id,
                name=name,
                category=category,
                models=models_count,
                points_per_model=per_model,
                veteran_level=veteran_level,
                veteran_eligible=veteran_eligible,
                living=living,
            )
        )
    characters: dict[int, list[CharacterRecord]] = defaultdict(list)
    for row in lists.characters:
        army_id, wizard, magic_level, _, kingdom_id, name, points, role, rank, archetype, abilities, *rest = row
        survived, at_last, pending, potential_used, immune, living, injuries, *_ = rest
        if army_id not in army_kingdom:
            continue
        characters[kingdom_id].append(
            CharacterRecord(
                army=army_id,
                name=name,
                role=role,
                rank=rank,
                points=points,
                archetype=archetype,
                abilities=tuple(abilities),
                battles_survived=survived,
                battles_at_last_ability=at_last,
                ability_choice_pending=pending,
                wizard=wizard,
                magic_level=magic_level,
                potential_used=potential_used,
                immune_to_psychology=immune,
                living=living,
                amnesia=any(i.get("code") == AMNESIA for i in injuries or ()),
            )
        )
    # The kingdom's magic items, read once: the names of its own (not common) ones, wherever they
    # are and those it lost ("does not get another one", Armory), and the armory of those not lost
    # with a disbanded army.
    items: dict[int, set[str]] = defaultdict(set)
    armory: dict[int, list[ItemRecord]] = defaultdict(list)
    if kingdom is not None and lists.items is not None:  # read with the lists (`list_rows`' `kingdom`)
        carried = [
            (i, owner, name, points, common, army, destroyed)
            for i, owner, name, points, common, _, army, destroyed in lists.items
        ]
        carried = [row for row in carried if row[1] == kingdom]
    else:
        every_item = ArmoryItem.objects.filter(Q(destroyed=False) | Q(common=False)).order_by()
        every_item = (
            every_item.filter(kingdom__campaign=campaign) if kingdom is None else every_item.filter(kingdom_id=kingdom)
        )
        carried = list(
            every_item.values_list("id", "kingdom_id", "name", "points", "common", "bearer__army_id", "destroyed")
        )
    for item_id, kingdom_id, name, points, common, army_id, destroyed in carried:
        if not common:
            items[kingdom_id].add(name.strip().lower())
        if destroyed or (army_id is not None and army_id not in army_kingdom):
            continue  # carried in a disbanded army: lost with it
        armory[kingdom_id].append(ItemRecord(item_id, name, points, common, army_id))
    on_the_way: dict[int, dict[int, int]] = defaultdict(lambda: defaultdict(int))
    depots: dict[int, set[int]] = defaultdict(set)
    if deliveries is None or active_armies is None or kingdom is None:
        deliveries = list(
            Delivery.objects.filter(army_id__in=army_kingdom, status=Delivery.Status.ON_THE_WAY)
            .order_by()
            .values_list("army_id", "points", "kind", "common", "name")
        )
    for army_id, points, kind, common, name in deliveries:
        k = army_kingdom[army_id]
        on_the_way[k][army_id] += points
        if kind == PurchaseKind.SUPPLY_DEPOT:
            depots[k].add(army_id)
        if kind == PurchaseKind.ITEM and not common:
            items[k].add(name.strip().lower())
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
