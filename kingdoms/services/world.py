"""Loading the campaign's world state (rulebook.world) from the database: the one loader the
order-sheet check, the turn's resolution and the aftermath share, and the order-sheet check's
kept copy of it (`world_for_kingdom`)."""

from __future__ import annotations

import threading
from collections import OrderedDict, defaultdict
from collections.abc import Collection, Mapping
from dataclasses import dataclass, replace
from typing import Any

from django.conf import settings
from django.db.models import F, Q, QuerySet, Sum

from kernel.records import record_made
from rulebook.allies.chart import AllianceState, TrustLevel
from rulebook.ancient_dead.deserts import Caster, best_magic_level, is_scarab_amulet
from rulebook.tables import ArmyKind, ArmyType, Settlement, Terrain
from rulebook.world import (
    ArmyState,
    CharacterState,
    ItemState,
    KingdomState,
    ProvinceState,
    UnitState,
    World,
    counted_points,
)

from ..models import Alliance, ArmoryItem, Army, Campaign, Character, Kingdom, Province, TreasuryEntry, Unit
from ..selectors import campaign_adjacency
from .rival_missions import captives_load, mission_effects_load

# Rows are read as tuples and dicts, not model instances: building thousands of instances was most
# of the cost of every order sheet's check on a large map (docs/performance.md, "Order sheets
# under load").
_PROVINCE_FIELDS = (
    "id", "number", "name", "terrain", "settlement", "razed", "fortified", "controller_id", "pyramid",
    "looted_turn", "incantation", "col", "row", "land_sale_turn", "rogue",
    "ruin_sacked", "ruin_raids",
)  # fmt: skip
_ARMY_FIELDS = (
    "id", "kingdom_id", "name", "province_id", "size", "kind", "supply_depot", "spare_carts", "experience", "list_due",
    "losses_before_list", "created_turn", "upgraded_turn", "last_battle_turn", "recover_streak", "co_occupying",
    "fortified_in_id",
)  # fmt: skip
_UNIT_FIELDS = (
    "id", "army_id", "name", "category", "models_count", "points_per_model", "equipment_points", "one_use",
    "veteran_level", "veteran_eligible", "living",  # the spending roster's (Spending Experience)
    "champion_points", "standard_points", "musician_points",  # Casualty Recovery, in the aftermath
)  # fmt: skip
_CHARACTER_FIELDS = (
    "unit__army_id", "wizard", "magic_level", "rune_smith",
    # the spending roster's (Spending Experience)
    "kingdom_id", "unit__name", "unit__points_per_model", "role", "rank", "archetype", "abilities",
    "battles_survived", "battles_at_last_ability", "ability_choice_pending", "potential_used",
    "immune_to_psychology", "unit__living", "injuries",  # Amnesia: no Archetype roll (decision 621)
    # the world's character records (rulebook.world.CharacterState)
    "id", "unit_id",
)  # fmt: skip
_CHARACTER_ID = _CHARACTER_FIELDS.index("id")
_TERRAIN = {t.value: t for t in Terrain}
_SETTLEMENT = {s.value: s for s in Settlement}


@dataclass(frozen=True)
class _Armies:
    field: dict[int, ArmyState]
    garrisons: dict[int, ArmyState]
    units: dict[int, tuple[UnitState, ...]]
    items: dict[int, ItemState]  # the magic items their units bear
    characters: dict[int, CharacterState]  # their living characters, read with their lists


def army_rows(armies_query: QuerySet[Army], *extra: str) -> list[dict[str, Any]]:
    """The armies of `armies_query` as the world reads them (and their status, and the `extra`
    fields), in the model's order (kingdom, id) without the joins its default ordering brings: one
    query. The order sheet reads its kingdom's once for the world, the names it has used, its
    spending roster and its receipt."""
    return list(armies_query.order_by("kingdom_id", "id").values(*_ARMY_FIELDS, "status", *extra))


@dataclass(frozen=True)
class ListRows:
    """Some armies' lists as read once (`list_rows`): their units in list order and their living
    characters, as tuples of _UNIT_FIELDS and _CHARACTER_FIELDS. An order sheet's check reads its
    kingdom's once for the world and for the spending roster."""

    units: list[tuple[Any, ...]]
    characters: list[tuple[Any, ...]]
    # With a kingdom (`list_rows`' `kingdom`): the magic items not destroyed that the armies' units
    # bear or the kingdom owns, and its armory items destroyed (`items_read`), as tuples of
    # ITEM_FIELDS; else None (each reader reads its own).
    items: list[tuple[Any, ...]] | None = None


# A magic item as `list_rows` reads it: what the world counts in its bearer's army (the points, a
# Scarab Amulet) and what the spending roster reads (the kingdom's own, common or not, and those it
# lost: Armory, "If the army containing that item is destroyed, your kingdom does not get another one").
ITEM_FIELDS = ("id", "kingdom_id", "name", "points", "common", "bearer_id", "bearer__army_id", "destroyed")


def items_read(kingdom: int, armies: Any) -> Q:
    """The magic items `list_rows` reads for `kingdom` and its armies `armies`: those not destroyed that
    they bear or it owns, and its own armory items (not common) destroyed, whose names it never gets again."""
    return (Q(kingdom_id=kingdom) | Q(bearer__army_id__in=armies)) & Q(destroyed=False) | Q(
        kingdom_id=kingdom, common=False, destroyed=True
    )


def list_rows(army_ids: Collection[int] | QuerySet[Army], kingdom: int | None = None) -> ListRows:
    """The lists of the armies `army_ids` (ids, or a query of armies' ids: a campaign's thousand
    armies by a subquery rather than a thousand parameters compiled and quoted for each query): two
    queries; with `kingdom` (theirs), a third for the magic items they bear and the kingdom owns,
    read once for the world and the spending roster."""
    return ListRows(
        units=list(
            Unit.objects.filter(army_id__in=army_ids).order_by("army_id", "position", "id").values_list(*_UNIT_FIELDS)
        ),
        characters=list(
            Character.objects.filter(unit__army_id__in=army_ids, alive=True).values_list(*_CHARACTER_FIELDS)
        ),
        items=None
        if kingdom is None
        else list(ArmoryItem.objects.filter(items_read(kingdom, army_ids)).order_by().values_list(*ITEM_FIELDS)),
    )


def _armies_load(
    armies: list[dict[str, Any]],
    number_of: Mapping[int, int],
    lists: ListRows | None = None,
    *,
    read_by: QuerySet[Army] | None = None,
) -> _Armies:
    """The active ones of `armies` (`army_rows`) standing on the map, with their lists (`lists`:
    read before for these armies or more; by default read here, for `read_by`'s armies when given:
    the query `armies` was read by, or one of more armies), in one to three queries (units and
    characters unless given, items)."""
    rows = [a for a in armies if a["status"] == Army.Status.ACTIVE and a["province_id"] is not None]
    army_ids = [a["id"] for a in rows]
    on_map = set(army_ids)
    # The lists of the armies read, by the query that read them when given (a subquery, not ids).
    wanted: Collection[int] | QuerySet[Army] = army_ids if read_by is None else read_by.order_by().values("id")
    if lists is None:
        lists = list_rows(wanted)
    listed_units: dict[int, list[UnitState]] = defaultdict(list)
    for row in lists.units:
        unit_id, army_id, name, category, models_count, per_model, equipment, one_use, *rest = row
        veteran_level, veteran_eligible, living, champion, standard, musician = rest
        if army_id not in on_map:
            continue
        listed_units[army_id].append(
            record_made(
                UnitState,
                {
                    "id": unit_id,
                    "army": army_id,
                    "name": name,
                    "category": category,
                    "models": models_count,
                    "points_per_model": per_model,
                    "equipment_points": equipment,
                    "one_use": one_use,
                    "living": living,
                    "veteran_level": veteran_level,
                    "veteran_eligible": veteran_eligible,
                    "champion_points": champion,
                    "standard_points": standard,
                    "musician_points": musician,
                },
            )
        )
    units = {a["id"]: listed_units[a["id"]] for a in rows if a["id"] in listed_units}  # in the armies' order
    # Each army's magic items, read once: their points count in its list, and a Scarab Amulet among
    # them is worn (Deserts).
    item_points: dict[int, int] = defaultdict(int)
    amulets: dict[int, int] = defaultdict(int)
    items: dict[int, ItemState] = {}
    if lists.items is not None:  # read with the lists: those borne in these armies
        borne = [
            (i, bearer, army, name, points)
            for i, _, name, points, _, bearer, army, destroyed in lists.items
            if army in on_map and not destroyed
        ]
    else:
        borne = list(
            ArmoryItem.objects.filter(bearer__army__in=wanted, destroyed=False)
            .order_by()
            .values_list("id", "bearer_id", "bearer__army", "name", "points")
        )
    for item_id, bearer, army_id, name, points in borne:
        item_points[army_id] += points
        amulets[army_id] += is_scarab_amulet(name)
        items[item_id] = ItemState(id=item_id, name=name, points=points, bearer=bearer)
    casters: dict[int, list[Caster]] = defaultdict(list)
    characters: dict[int, CharacterState] = {}
    for row in sorted(lists.characters, key=lambda r: r[_CHARACTER_ID]):
        record = dict(zip(_CHARACTER_FIELDS, row, strict=True))
        army_id = record["unit__army_id"]
        if army_id not in on_map:
            continue
        casters[army_id].append(
            Caster(wizard=record["wizard"], magic_level=record["magic_level"], rune_smith=record["rune_smith"])
        )
        characters[record["id"]] = CharacterState(
            id=record["id"],
            kingdom=record["kingdom_id"],
            unit=record["unit_id"],
            name=record["unit__name"],
            role=record["role"],
            injuries=tuple(record["injuries"]),
            abilities=tuple(record["abilities"]),
            battles_survived=record["battles_survived"],
        )

    def army_state(army: dict[str, Any]) -> ArmyState:
        listed = sum(u.points for u in units.get(army["id"], ())) + (item_points.get(army["id"]) or 0)
        # A field army without a list has its list due, whatever the flag says (a new army's rows
        # are made without units); an Elite Defense Force counts its 500 points in the garrison.
        due = army["list_due"] or (army["kind"] == Army.Kind.FIELD and not units.get(army["id"]))
        return record_made(
            ArmyState,
            {
                "id": army["id"],
                "kingdom": army["kingdom_id"],
                "name": army["name"],
                "province": number_of[army["province_id"]],
                "size": army["size"],
                "points": counted_points(
                    size=army["size"], list_points=listed, list_due=due, losses_before_list=army["losses_before_list"]
                ),
                "kind": ArmyKind(army["kind"]),
                "supply_depot": army["supply_depot"],
                "spare_carts": army["spare_carts"],
                "experience": army["experience"],
                "list_due": due,
                "losses_before_list": army["losses_before_list"],
                "created_turn": army["created_turn"],
                "upgraded_turn": army["upgraded_turn"],
                "last_battle_turn": army["last_battle_turn"],
                "recover_streak": army["recover_streak"],
                "co_occupying": army["co_occupying"],
                "fortified_in": number_of.get(army["fortified_in_id"]) if army["fortified_in_id"] else None,
                "scarab_amulets": amulets.get(army["id"], 0),
                "magic_level": best_magic_level(casters.get(army["id"], ())),
            },
        )

    states = [army_state(a) for a in rows]
    return _Armies(
        field={a.id: a for a in states if a.kind is ArmyKind.FIELD},
        garrisons={a.id: a for a in states if a.kind is ArmyKind.GARRISON},
        units={army: tuple(unit_rows) for army, unit_rows in units.items()},
        items=items,
        characters=characters,
    )


def _world_and_numbers(*, campaign: Campaign, turn_number: int) -> tuple[World, dict[int, int]]:
    provinces = list(Province.objects.filter(campaign=campaign).values(*_PROVINCE_FIELDS))
    number_of = {p["id"]: p["number"] for p in provinces}
    treasury = dict(
        TreasuryEntry.objects.filter(kingdom__campaign=campaign).values_list("kingdom").annotate(total=Sum("amount"))
    )
    on_map = Army.objects.filter(kingdom__campaign=campaign, status=Army.Status.ACTIVE, province__isnull=False)
    armies = _armies_load(army_rows(on_map), number_of, read_by=on_map)
    garrisoned = {garrison.province for garrison in armies.garrisons.values()}
    warlords = dict(
        Character.objects.filter(kingdom__campaign=campaign, role=Character.Role.WARLORD, alive=True).values_list(
            "kingdom", "unit__army"
        )
    )
    world = World(
        turn=turn_number,
        player_count=campaign.player_count,
        provinces={
            p["number"]: record_made(
                ProvinceState,
                {
                    "number": p["number"],
                    "name": p["name"],
                    "terrain": _TERRAIN[p["terrain"]],
                    "settlement": _SETTLEMENT[p["settlement"]],
                    "razed": p["razed"],
                    "fortified": p["fortified"],
                    "controller": p["controller_id"],
                    "pyramid": p["pyramid"],
                    "elite_defense": p["number"] in garrisoned,
                    "looted_turn": p["looted_turn"],
                    "incantation": p["incantation"],
                    "col": p["col"],
                    "row": p["row"],
                    "land_sale_turn": p["land_sale_turn"],
                    "rogue": p["rogue"],
                    "ruin_sacked": p["ruin_sacked"],
                    "ruin_raids": p["ruin_raids"],
                },
            )
            for p in provinces
        },
        adjacency=campaign_adjacency(campaign, number_of),
        kingdoms={
            k["id"]: KingdomState(
                id=k["id"],
                name=k["name"],
                army_type=ArmyType(k["army_type"]),
                treasury=treasury.get(k["id"], 0),
                capitol=number_of.get(k["capitol_id"]) if k["capitol_id"] else None,
                rogue=k["rogue_turn"] is not None,
                capitol_lost_turn=k["capitol_lost_turn"],
                warlord_army=warlords.get(k["id"]),
            )
            for k in Kingdom.objects.filter(campaign=campaign).values(
                "id", "name", "army_type", "capitol_id", "rogue_turn", "capitol_lost_turn"
            )
        },
        armies=armies.field,
        garrisons=armies.garrisons,
        units=armies.units,
        alliances={
            a.id: AllianceState(
                id=a.id, first=a.first_id, second=a.second_id, trust=TrustLevel(a.trust), formed_turn=a.formed_turn
            )
            for a in Alliance.objects.filter(campaign=campaign, ended_turn__isnull=True)
        },
        characters=armies.characters,
        items=armies.items,
        mission_effects=mission_effects_load(campaign),
        captives=captives_load(campaign),
    )
    return world, number_of


def world_load(*, campaign: Campaign, turn_number: int) -> World:
    """The campaign's provinces, kingdoms (with their treasuries) and active armies with their
    lists as they stand in turn `turn_number`, in a fixed number of queries whatever the size of
    the map or the number of armies. Armies without a province (none stands on the map) are left
    out. An army counts at its list's points, or while its list is due at the points paid for it
    (`counted_points`). With the living characters and the magic items of the armies on the map,
    read with their lists (no query more): the orders phase's foraging disbands an army with its
    characters (decision 591), and a spied list shows its regiments' items (decision 590); the
    aftermath's injuries and Warlord read them."""
    return _world_and_numbers(campaign=campaign, turn_number=turn_number)[0]


def world_changed(campaign_id: int) -> None:
    """Record that the campaign's world changed outside a kingdom's own order sheet (a phase of the
    turn, the admin, a restore): every kept copy of it is read again (`world_for_kingdom`). Call it
    inside the transaction that changes the world, so it counts only if that commits."""
    Campaign.objects.filter(pk=campaign_id).update(world_version=F("world_version") + 1)


# The order-sheet check's kept worlds, in this process: campaign id -> ((world_version, turn
# number), world, province id -> number), the least recently used dropped beyond
# settings.WORLD_KEPT_CAMPAIGNS (the campaigns a process serves: with ten campaigns across four
# workers, eight kept worlds missed often; issue 35). A change of the world (`world_changed`) or of
# the turn gives a new key: the kept copy is read again.
_kept: OrderedDict[int, tuple[tuple[int, int], World, dict[int, int]]] = OrderedDict()
_kept_lock = threading.Lock()
# One reader of a campaign's world at a time in this process (by campaign id): the threads that
# miss the kept copy together wait for the first one's read and take it, rather than each reading
# the whole map (the weekly rush's first sheets, eight threads a worker: about 100 ms of CPU each;
# issue 35). An entry lives only while a read is under way: its reader removes it when it is done,
# whether the read succeeded or raised (a campaign deleted, a database error), so none is left
# behind for a campaign the process will never read again.
_reading: dict[int, threading.Lock] = {}


def _kept_get(campaign_id: int, key: tuple[int, int]) -> tuple[World, dict[int, int]] | None:
    with _kept_lock:
        kept = _kept.get(campaign_id)
        if kept is None or kept[0] != key:
            return None
        _kept.move_to_end(campaign_id)
        return kept[1], kept[2]


def _kept_world(*, campaign: Campaign, turn_number: int, version: int | None) -> tuple[World, dict[int, int]]:
    if version is None:
        version = Campaign.objects.filter(pk=campaign.pk).values_list("world_version", flat=True).get()
    key = (version, turn_number)
    kept = _kept_get(campaign.pk, key)
    if kept is not None:
        return kept
    with _kept_lock:
        reading = _reading.setdefault(campaign.pk, threading.Lock())
    with reading:
        try:
            kept = _kept_get(campaign.pk, key)  # read by the thread this one waited for
            if kept is not None:
                return kept
            world, number_of = _world_and_numbers(campaign=campaign, turn_number=turn_number)
            with _kept_lock:
                _kept[campaign.pk] = (key, world, number_of)
                _kept.move_to_end(campaign.pk)
                while len(_kept) > max(settings.WORLD_KEPT_CAMPAIGNS, 1):
                    _kept.popitem(last=False)
        finally:
            # Threads already waiting on `reading` still take it (and find the kept copy, or read
            # themselves if this read raised); one that comes later finds the kept copy, or makes a
            # new entry. Only this read's own entry is removed: a later reader's is not this one's.
            with _kept_lock:
                if _reading.get(campaign.pk) is reading:
                    del _reading[campaign.pk]
    return world, number_of


def world_for_kingdom(
    *,
    campaign: Campaign,
    turn_number: int,
    kingdom: int,
    world_version: int | None = None,
    own_armies: list[dict[str, Any]] | None = None,
    own_lists: ListRows | None = None,
    own_treasury: int | None = None,
) -> World:
    """The world as `kingdom`'s order sheet is checked against it: `world_load`'s, with the
    kingdom's own armies, lists and treasury read now, and the rest of the campaign (the map, the
    other kingdoms, the alliances) from a copy this process keeps while the campaign's
    `world_version` stands. During a turn's orders only a kingdom's own armies and treasury change
    (army lists, gold), and those are read fresh; everything else changes in a phase of the turn,
    the admin or a restore, each of which calls `world_changed`. Saves loading the whole map for
    every sheet of the weekly rush (docs/performance.md, "Order sheets under load").

    `world_version`: the campaign's, as the caller has just read it (under the turn's lock);
    by default it is read here. `own_armies`: the kingdom's `army_rows`, and `own_lists` the
    `list_rows` of its active armies (or more), and `own_treasury` its gold, if the caller has read
    them (`kingdom_rows`: in one statement).

    The world returned is the caller's: its dicts are copies, so the kept one never changes."""
    shared, number_of = _kept_world(campaign=campaign, turn_number=turn_number, version=world_version)
    if own_armies is None:
        own_armies = army_rows(Army.objects.filter(kingdom_id=kingdom))
    own = _armies_load(own_armies, number_of, own_lists)
    others_field = {i: a for i, a in shared.armies.items() if a.kingdom != kingdom}
    others_garrisons = {i: a for i, a in shared.garrisons.items() if a.kingdom != kingdom}
    units = {i: u for i, u in shared.units.items() if i in others_field or i in others_garrisons}
    kingdoms = dict(shared.kingdoms)
    if kingdom in kingdoms:
        if own_treasury is None:
            own_treasury = (
                TreasuryEntry.objects.filter(kingdom_id=kingdom).order_by().aggregate(total=Sum("amount"))["total"] or 0
            )
        kingdoms[kingdom] = replace(kingdoms[kingdom], treasury=own_treasury)
    return replace(
        shared,
        provinces=dict(shared.provinces),
        kingdoms=kingdoms,
        armies=others_field | own.field,
        garrisons=others_garrisons | own.garrisons,
        units=units | own.units,
        alliances=dict(shared.alliances),
        characters={},  # the phases', not the order sheet's
        items={},
    )


def world_kept_forget() -> None:
    """Drop this process's kept worlds (the tests start each from the database: their rolled-back
    transactions give a campaign's id and `world_version` again to another world)."""
    with _kept_lock:
        _kept.clear()
        _reading.clear()
