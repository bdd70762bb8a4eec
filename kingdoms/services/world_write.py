"""Writing the campaign's world state (rulebook.world) back to the database: the one writer the
turn's phases share, as kingdoms.services.world is the one loader. A phase hands it the world as it
found it and as it leaves it, with its events; it writes every difference in bulk (a fixed number
of queries, whatever the number of armies), and the ledger and experience rows the events carry.
What is a phase's own (its battles, sheets, movements, dice, the turn's log) the phase writes."""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from kernel.event_codes import EventCode
from kernel.events import Event
from rulebook.world import ArmyState, KingdomState, World

from ..models import ArmoryItem, Army, ArmyMovement, Campaign, Kingdom, Province, TreasuryEntry, Unit
from .alliances import alliances_write
from .experience import experience_rows_write
from .rogue import rogue_rows_write

# The columns of an army and of a province the world records. A phase names those it decides
# (`world_write`): the others it leaves as stored.
ARMY_FIELDS = (
    "province", "size", "supply_depot", "experience", "upgraded_turn", "recover_streak", "co_occupying",
    "fortified_in", "status", "list_due", "losses_before_list", "last_battle_turn", "spare_carts",
)  # fmt: skip
PROVINCE_FIELDS = (
    "controller", "razed", "fortified", "terrain", "settlement", "incantation", "land_sale_turn", "rogue",
    "looted_turn",
)  # fmt: skip
ELITE_DEFENSE_FORCE_SIZE = 500


@dataclass(frozen=True)
class UnitLine:
    """A unit's row as a phase finds or leaves it: its models, and its Veteran Status where the
    phase decides it (None: as stored)."""

    models: int
    veteran_level: int | None = None
    veteran_eligible: bool | None = None
    equipment_points: int | None = None
    command_points: tuple[int, int, int] | None = None  # champion, standard, musician (Casualty Recovery)


@dataclass(frozen=True)
class ItemLine:
    """A magic item's row as a phase finds or leaves it."""

    bearer: int | None  # unit id; None: in the kingdom's armory
    destroyed: bool = False


@dataclass(frozen=True)
class WorldWritten:
    """What the writer made: the real ids of the armies raised (negative ids in the rules), and the
    campaign's province rows by number, for the phase's own rows."""

    army_ids: dict[int, int]
    provinces: dict[int, Province]


def unit_lines(world: World) -> dict[int, UnitLine]:
    """The world's army lists as lines: each unit's models (its Veteran Status as stored)."""
    return {u.id: UnitLine(models=u.models) for units in world.units.values() for u in units}


def _armies_of(world: World) -> list[ArmyState]:
    """Every army of the world: the field armies, then the Elite Defense Forces."""
    return [*world.armies.values(), *world.garrisons.values()]


def _army_values(army: ArmyState, provinces: Mapping[int, Province]) -> dict[str, Any]:
    """The army's columns (ARMY_FIELDS) as the record has them."""
    return {
        "province": provinces[army.province],
        "size": army.size,
        "supply_depot": army.supply_depot,
        "experience": army.experience,
        "upgraded_turn": army.upgraded_turn,
        "recover_streak": army.recover_streak,
        "co_occupying": army.co_occupying,
        "fortified_in": provinces[army.fortified_in] if army.fortified_in is not None else None,
        "status": Army.Status.DISBANDED if army.disbanded else Army.Status.ACTIVE,
        "list_due": army.list_due,
        "losses_before_list": army.losses_before_list,
        "last_battle_turn": army.last_battle_turn,
        "spare_carts": army.spare_carts,  # Supply Depot: captured carts on the roster
    }


def _set_changed(row: Any, values: Mapping[str, Any], fields: Collection[str]) -> bool:
    """Give the row the `fields` of `values` (a related row for a foreign key); True if one changed."""
    changed = False
    for name in fields:
        value = values[name]
        attname = row._meta.get_field(name).attname
        stored = value.pk if isinstance(value, Province) else value
        if getattr(row, attname) != stored:
            setattr(row, name, value)
            changed = True
    return changed


def _armies_write(
    *, turn: int, campaign: Campaign, after: World, provinces: Mapping[int, Province], fields: Collection[str]
) -> dict[int, int]:
    """The armies raised (new rows, at their first step), every army whose `fields` the record
    changed, and the Elite Defense Forces of the towns reinforced; returns the raised armies' real ids."""
    rows = {a.id: a for a in Army.objects.filter(kingdom__campaign=campaign, status=Army.Status.ACTIVE)}
    # New armies (negative ids in the state) get rows first, so events can point at them.
    new = sorted((a for a in after.armies.values() if a.id < 0), key=lambda a: -a.id)
    created = Army.objects.bulk_create(
        Army(
            kingdom_id=a.kingdom,
            name=a.name,
            province=provinces[a.province],
            size=a.size,
            supply_depot=a.supply_depot,
            created_turn=turn,
            list_due=True,  # it counts at the points paid for it until its list is entered
            losses_before_list=a.losses_before_list,
        )
        for a in new
    )
    army_ids = {army.id: row.id for army, row in zip(new, created, strict=True)}
    ArmyMovement.objects.bulk_create(
        ArmyMovement(army=row, turn=turn, step=0, province=row.province) for row in created
    )
    changed = [
        rows[army.id]
        for army in _armies_of(after)
        if army.id > 0 and _set_changed(rows[army.id], _army_values(army, provinces), fields)
    ]
    Army.objects.bulk_update(changed, [f for f in ARMY_FIELDS if f in fields])

    # Battle for Towns, Cities, and Capitols: a town or city reinforced gets its Elite Defense Force.
    reinforced = {row.province_id for row in [*rows.values(), *created] if row.kind == Army.Kind.GARRISON}
    Army.objects.bulk_create(
        Army(
            kingdom_id=province.controller,
            name=f"Elite Defense Force of {provinces[number].name}",
            kind=Army.Kind.GARRISON,
            province=provinces[number],
            size=ELITE_DEFENSE_FORCE_SIZE,
            created_turn=turn,
        )
        for number, province in after.provinces.items()
        if province.elite_defense and provinces[number].id not in reinforced
    )
    return army_ids


def _lists_write(before: Mapping[int, UnitLine], after: Mapping[int, UnitLine], after_world: World) -> None:
    """Each unit whose line changed: its models, its casualties over the campaign, its Veteran
    Status; an army upgraded by 500 points or more loses its units' Veteran Status."""
    changed = {unit: line for unit, line in after.items() if unit in before and before[unit] != line}
    rows = list(Unit.objects.filter(pk__in=list(changed)))
    for row in rows:
        line, was = changed[row.id], before[row.id]
        row.models_lost += max(0, was.models - line.models)
        row.models_count = line.models
        if line.veteran_level is not None:
            row.veteran_level = line.veteran_level
        if line.veteran_eligible is not None:
            row.veteran_eligible = line.veteran_eligible
        if line.equipment_points is not None:
            row.equipment_points = line.equipment_points
        if line.command_points is not None:
            row.champion_points, row.standard_points, row.musician_points = line.command_points
    Unit.objects.bulk_update(
        rows,
        [
            "models_lost",
            "models_count",
            "veteran_level",
            "veteran_eligible",
            "equipment_points",
            "champion_points",
            "standard_points",
            "musician_points",
        ],
    )
    veterans_lost = [a.id for a in after_world.armies.values() if a.veteran_status_lost]
    if veterans_lost:
        Unit.objects.filter(army_id__in=veterans_lost).update(veteran_level=0)


def _items_write(
    before: Mapping[int, ItemLine], after: Mapping[int, ItemLine], after_world: World, events: Iterable[Event]
) -> None:
    """Each magic item whose line changed; the items of the armies disbanded are destroyed with them;
    Transfer of Gold: an item sent leaves its bearer (or the armory) now (its ITEM_SENT event carries
    it to the receiver's armory at the beginning of the turn after next, orders/services/transfers.py)."""
    changed = {item: line for item, line in after.items() if item in before and before[item] != line}
    rows = list(ArmoryItem.objects.filter(pk__in=list(changed)))
    for row in rows:
        row.bearer_id, row.destroyed = changed[row.id].bearer, changed[row.id].destroyed
    ArmoryItem.objects.bulk_update(rows, ["bearer", "destroyed"])
    disbanded = [a.id for a in _armies_of(after_world) if a.disbanded and a.id > 0]
    ArmoryItem.objects.filter(bearer__army_id__in=disbanded).update(destroyed=True)
    ArmoryItem.objects.filter(pk__in=[e.data["item_id"] for e in events if e.code == EventCode.ITEM_SENT]).delete()


def _provinces_write(after: World, provinces: Mapping[int, Province], fields: Collection[str]) -> None:
    changed = []
    for number, province in after.provinces.items():
        values = {
            "controller": province.controller,
            "razed": province.razed,
            "fortified": province.fortified,
            # The Ancient Dead's incantations turn the land to plains, then desert (and towns to ruins).
            "terrain": province.terrain.value,
            "settlement": province.settlement.value,
            "incantation": province.incantation,
            "land_sale_turn": province.land_sale_turn,
            "rogue": province.rogue,
            "looted_turn": province.looted_turn,
        }
        row = provinces[number]
        stored = {f: getattr(row, row._meta.get_field(f).attname) for f in fields}
        if any(stored[f] != values[f] for f in fields):
            for f in fields:
                setattr(row, row._meta.get_field(f).attname, values[f])
            changed.append(row)
    Province.objects.bulk_update(changed, [f for f in PROVINCE_FIELDS if f in fields])


def _kingdoms_write(
    *, turn: int, campaign: Campaign, before: World, after: World, provinces: Mapping[int, Province]
) -> None:
    """Loss of the Capitol: a capitol lost, moved or crowned, the countdown's start set or cleared; a
    kingdom whose player is out becomes a Rogue Kingdom (its rows as when the organizer marks a
    player out)."""

    def kept(kingdom: KingdomState) -> tuple[int | None, int | None, bool]:
        return kingdom.capitol, kingdom.capitol_lost_turn, kingdom.rogue

    changed = {k: record for k, record in after.kingdoms.items() if kept(record) != kept(before.kingdoms[k])}
    if not changed:
        return
    rows = Kingdom.objects.filter(pk__in=list(changed), campaign=campaign).in_bulk()
    for kingdom_id, record in changed.items():
        row = rows[kingdom_id]
        row.capitol = provinces[record.capitol] if record.capitol else None
        row.capitol_lost_turn = record.capitol_lost_turn
    Kingdom.objects.bulk_update(list(rows.values()), ["capitol", "capitol_lost_turn"])
    for kingdom_id, record in changed.items():
        if record.rogue and not before.kingdoms[kingdom_id].rogue:
            rogue_rows_write(kingdom=rows[kingdom_id], turn_number=turn)


def world_write(
    *,
    turn: int,
    campaign: Campaign,
    before: World,
    after: World,
    events: Sequence[Event],
    army_fields: Collection[str] = ARMY_FIELDS,
    province_fields: Collection[str] = PROVINCE_FIELDS,
    units: tuple[Mapping[int, UnitLine], Mapping[int, UnitLine]] | None = None,
    items: tuple[Mapping[int, ItemLine], Mapping[int, ItemLine]] | None = None,
) -> WorldWritten:
    """Write what a phase of turn `turn` did to the campaign's world: `before` as it found it,
    `after` as it leaves it, `events` what it said. In bulk, in the caller's transaction:

    - the armies raised (negative ids: new rows, at step 0 of their movements), each army and Elite
      Defense Force whose `army_fields` differ from its row (the others are left as stored), the
      Veteran Status lost by an upgrade, the Elite Defense Forces of the towns reinforced;
    - the army lists: each unit whose line changed (`units`, before and after; by default the
      world's lists, `unit_lines`), its models lost counted in its casualties;
    - the magic items: each whose line changed (`items`, if the phase decides them), those of the
      armies disbanded (destroyed), those sent (Transfer of Gold);
    - each province whose `province_fields` differ from its row;
    - the alliances the events form and end, the kingdoms' capitols and Rogue Kingdoms;
    - the treasury's ledger (each event with gold) and the experience ledger (each event with
      experience, checked against the armies' balances).

    Returns the raised armies' real ids and the province rows."""
    provinces = {p.number: p for p in Province.objects.filter(campaign=campaign)}
    army_ids = _armies_write(turn=turn, campaign=campaign, after=after, provinces=provinces, fields=army_fields)
    lists_before, lists_after = units if units is not None else (unit_lines(before), unit_lines(after))
    _lists_write(lists_before, lists_after, after)
    items_before, items_after = items if items is not None else ({}, {})
    _items_write(items_before, items_after, after, events)
    _provinces_write(after, provinces, province_fields)
    alliances_write(campaign=campaign, turn=turn, events=events)
    _kingdoms_write(turn=turn, campaign=campaign, before=before, after=after, provinces=provinces)
    TreasuryEntry.objects.bulk_create(
        TreasuryEntry(kingdom_id=e.kingdom, turn=turn, amount=e.gold, reason=e.ledger_reason, note=e.text[:200])
        for e in events
        if e.gold and e.kingdom is not None
    )
    experience_rows_write(
        turn=turn,
        events=events,
        before={a.id: a.experience for a in _armies_of(before)},
        after={a.id: a.experience for a in _armies_of(after)},
        army_id=lambda a: army_ids.get(a, a),
    )
    return WorldWritten(army_ids=army_ids, provinces=provinces)
