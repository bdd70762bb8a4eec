"""Writing the campaign's world state (rulebook.world) back to the database: the one writer the
turn's phases share, as kingdoms.services.world is the one loader. A phase hands it the world as it
found it and as it leaves it (its working copy), with its events; it writes every record that
differs between the two (provinces, kingdoms, armies, units, characters, items) in bulk (a fixed
number of queries, whatever the number of armies; a character changed is one query, for the
one-living-Warlord constraint), and the alliance, ledger and experience rows the events carry.
The armies, provinces and units are written in the fields that changed only, one set-based
statement per table (bulk_rows.rows_update): a field the phase did not change is left as stored,
and the writes grow with what the turn changed, not with the campaign. A world loaded without
its characters and items (a test's) has none to write. What is a phase's own (its
battles, sheets, movements, dice, the turn's log) the phase writes."""

from __future__ import annotations

import itertools
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from kernel.event_codes import EventCode
from kernel.events import Event
from rulebook.world import ArmyState, CharacterState, ItemState, KingdomState, ProvinceState, UnitState, World

from ..models import ArmoryItem, Army, ArmyMovement, Campaign, Character, Kingdom, Province, TreasuryEntry, Unit
from .alliances import alliances_write
from .bulk_rows import records_insert, rows_update
from .experience import experience_rows_write
from .mislabeled_goods import delayed_items_write
from .rival_missions import rival_missions_write
from .rogue import rogue_rows_write

# The columns of an army and of a province the world records. A phase names those it decides
# (`world_write`): the others it leaves as stored.
ARMY_FIELDS = (
    "province", "size", "supply_depot", "experience", "upgraded_turn", "recover_streak", "co_occupying",
    "fortified_in", "status", "list_due", "losses_before_list", "last_battle_turn", "spare_carts",
)  # fmt: skip
PROVINCE_FIELDS = (
    "controller", "razed", "fortified", "terrain", "settlement", "incantation", "land_sale_turn", "rogue",
    "looted_turn", "ruin_sacked", "ruin_raids",
)  # fmt: skip
ELITE_DEFENSE_FORCE_SIZE = 500


@dataclass(frozen=True)
class WorldWritten:
    """What the writer made: the real ids of the armies raised (negative ids in the rules), and the
    ids of the campaign's province rows by number, for the phase's own rows."""

    army_ids: dict[int, int]
    province_ids: dict[int, int]


def _armies_of(world: World) -> list[ArmyState]:
    """Every army of the world: the field armies, then the Elite Defense Forces."""
    return [*world.armies.values(), *world.garrisons.values()]


def _army_values(army: ArmyState, province_ids: Mapping[int, int]) -> dict[str, Any]:
    """The army's columns (ARMY_FIELDS) as the record has them (its provinces by row id)."""
    return {
        "province": province_ids[army.province],
        "size": army.size,
        "supply_depot": army.supply_depot,
        "experience": army.experience,
        "upgraded_turn": army.upgraded_turn,
        "recover_streak": army.recover_streak,
        "co_occupying": army.co_occupying,
        "fortified_in": province_ids[army.fortified_in] if army.fortified_in is not None else None,
        "status": Army.Status.DISBANDED if army.disbanded else Army.Status.ACTIVE,
        "list_due": army.list_due,
        "losses_before_list": army.losses_before_list,
        "last_battle_turn": army.last_battle_turn,
        "spare_carts": army.spare_carts,  # Supply Depot: captured carts on the roster
    }


def _changed(was: Mapping[str, Any] | None, now: Mapping[str, Any], fields: Collection[str]) -> dict[str, Any]:
    """The `fields` of `now` that differ from `was` (all of them for a record `was` does not have)."""
    return {f: now[f] for f in fields if was is None or was[f] != now[f]}


def _armies_write(
    *,
    turn: int,
    campaign: Campaign,
    before: World,
    after: World,
    province_ids: Mapping[int, int],
    fields: Collection[str],
) -> dict[int, int]:
    """The armies raised (new rows, at their first step), the fields of each army that the phase
    changed (its record before and after: a field it did not change is left as stored), and the
    Elite Defense Forces of the towns reinforced; returns the raised armies' real ids."""
    # New armies (negative ids in the state) get rows first, so events can point at them.
    new = sorted((a for a in after.armies.values() if a.id < 0), key=lambda a: -a.id)
    created = Army.objects.bulk_create(
        Army(
            kingdom_id=a.kingdom,
            name=a.name,
            province_id=province_ids[a.province],
            size=a.size,
            supply_depot=a.supply_depot,
            created_turn=turn,
            list_due=True,  # it counts at the points paid for it until its list is entered
            losses_before_list=a.losses_before_list,
        )
        for a in new
    )
    # The towns already reinforced (their Elite Defense Force active as the phase found it).
    reinforced = set(
        Army.objects.filter(kingdom__campaign=campaign, status=Army.Status.ACTIVE, kind=Army.Kind.GARRISON)
        .order_by()  # the model's ordering would join the kingdoms and campaigns to sort
        .values_list("province_id", flat=True)
        .distinct()
    )
    army_ids = {army.id: row.id for army, row in zip(new, created, strict=True)}
    ArmyMovement.objects.bulk_create(
        ArmyMovement(army=row, turn=turn, step=0, province_id=row.province_id) for row in created
    )
    was = {a.id: a for a in _armies_of(before)}
    rows_update(
        Army,
        {
            army.id: _changed(
                _army_values(was[army.id], province_ids) if army.id in was else None,
                _army_values(army, province_ids),
                fields,
            )
            for army in _armies_of(after)
            if army.id > 0
        },
    )

    # Battle for Towns, Cities, and Capitols: a town or city reinforced gets its Elite Defense Force.
    forces = [
        (number, province)
        for number, province in after.provinces.items()
        if province.elite_defense and province_ids[number] not in reinforced and province.controller is not None
    ]
    # Named after its town, apart from every name its kingdom has used (one army of each name: Army's
    # constraint): the force that perished when the town was lost keeps its row and its name, and a
    # player may have given a new army that name (read after the armies raised above are written).
    taken: dict[int, set[str]] = {}
    if forces:
        for kingdom, name in Army.objects.filter(kingdom__in={p.controller for _, p in forces}).values_list(
            "kingdom_id", "name"
        ):
            taken.setdefault(kingdom, set()).add(name.lower())
    Army.objects.bulk_create(
        Army(
            kingdom_id=province.controller,
            name=army_name_free(
                f"Elite Defense Force of {province.name}", taken.setdefault(province.controller, set())
            ),
            kind=Army.Kind.GARRISON,
            province_id=province_ids[number],
            size=ELITE_DEFENSE_FORCE_SIZE,
            created_turn=turn,
        )
        for number, province in forces
    )
    return army_ids


ARMY_NAME_MAX = Army._meta.get_field("name").max_length or 100


def army_name_free(name: str, taken: set[str]) -> str:
    """`name`, or "`name` (2)", "(3)"...: the first its kingdom has not used (`taken`, lower case, as the
    sheet check compares names; the one returned is added), cut to the column's length (a map's province
    may have a long name)."""
    for n in itertools.count(1):
        suffix = f" ({n})" if n > 1 else ""
        candidate = name[: ARMY_NAME_MAX - len(suffix)].rstrip() + suffix
        if candidate.lower() not in taken:
            taken.add(candidate.lower())
            return candidate
    raise AssertionError("unreachable")  # itertools.count never ends


_UNIT_FIELDS = (
    "models_count", "veteran_level", "veteran_eligible", "equipment_points", "champion_points", "standard_points",
    "musician_points",
)  # fmt: skip


def _unit_kept(unit: UnitState) -> tuple[object, ...]:
    """What a unit's row keeps of its record: its models and Veteran Status; its equipment (Robbed:
    a character's mundane equipment is lost) and its command models (Casualty Recovery)."""
    return (
        unit.models,
        unit.veteran_level,
        unit.veteran_eligible,
        unit.equipment_points,
        unit.champion_points,
        unit.standard_points,
        unit.musician_points,
    )


def _lists_write(before: World, after: World) -> None:
    """The fields of each unit whose record changed: its models, its casualties over the campaign,
    its Veteran Status, its equipment and command; an army upgraded by 500 points or more loses its
    units' Veteran Status."""
    was = {u.id: u for units in before.units.values() for u in units}
    changed = {
        u.id: u
        for units in after.units.values()
        for u in units
        if u.id in was and _unit_kept(u) != _unit_kept(was[u.id])
    }
    lost = {i: was[i].models - u.models for i, u in changed.items() if u.models < was[i].models}
    casualties = dict(Unit.objects.filter(pk__in=list(lost)).values_list("id", "models_lost")) if lost else {}

    def values(unit: UnitState) -> dict[str, Any]:
        return {
            "models_count": unit.models,
            "veteran_level": unit.veteran_level,
            "veteran_eligible": unit.veteran_eligible,
            "equipment_points": unit.equipment_points,
            "champion_points": unit.champion_points,
            "standard_points": unit.standard_points,
            "musician_points": unit.musician_points,
        }

    rows_update(
        Unit,
        {
            i: _changed(values(was[i]), values(unit), _UNIT_FIELDS)
            | ({"models_lost": casualties[i] + lost[i]} if i in lost else {})
            for i, unit in changed.items()
        },
    )
    veterans_lost = [a.id for a in after.armies.values() if a.veteran_status_lost]
    if veterans_lost:
        # "will lose all its experience points and veteran status": the levels, and the eligibility its
        # last battle gave for the next one (the experience to buy it is gone too).
        Unit.objects.filter(army_id__in=veterans_lost).update(veteran_level=0, veteran_eligible=False)


def _characters_write(before: World, after: World) -> None:
    """Each character whose record changed (the Character Injury Chart, a Warlord's death and his
    successor), one by one and the dead first: a kingdom has one living Warlord at every moment
    (`one_living_warlord_per_kingdom`, checked row by row), so the dead Warlord's row is written
    before the General who takes his role."""

    def kept(character: CharacterState) -> tuple[object, ...]:
        return (character.alive, character.role, character.injuries, character.battles_survived)

    changed = sorted(
        (
            c
            for c in after.characters.values()
            if c.id in before.characters and kept(c) != kept(before.characters[c.id])
        ),
        key=lambda c: (c.alive, c.id),
    )
    rows = Character.objects.in_bulk([c.id for c in changed])
    for character in changed:
        row = rows[character.id]
        row.alive, row.role, row.battles_survived = character.alive, character.role, character.battles_survived
        row.injuries = [dict(i) for i in character.injuries]
        row.save(update_fields=["alive", "role", "injuries", "battles_survived"])


def _items_write(before: World, after: World, events: Iterable[Event]) -> None:
    """Each magic item whose record changed (its bearer, destroyed); the items a phase added (negative
    ids: Treasure from the Ruins), new rows of their kingdom's; the items of the armies disbanded
    are destroyed with them; Transfer of Gold: an item sent leaves its bearer (or the armory) now (its
    ITEM_SENT event carries it to the receiver's armory at the beginning of the turn after next,
    orders/services/transfers.py)."""

    def kept(item: ItemState) -> tuple[int | None, bool]:
        return item.bearer, item.destroyed

    changed = {i: item for i, item in after.items.items() if i in before.items and kept(item) != kept(before.items[i])}
    rows = list(ArmoryItem.objects.filter(pk__in=list(changed)))
    for row in rows:
        row.bearer_id, row.destroyed = changed[row.id].bearer, changed[row.id].destroyed
    ArmoryItem.objects.bulk_update(rows, ["bearer", "destroyed"])
    ArmoryItem.objects.bulk_create(
        ArmoryItem(
            kingdom_id=item.kingdom,
            name=item.name,
            points=item.points,
            common=item.common,
            bearer_id=item.bearer,
            destroyed=item.destroyed,
        )
        for i, item in sorted(after.items.items(), reverse=True)
        if i < 0 and item.kingdom is not None
    )
    disbanded = [a.id for a in _armies_of(after) if a.disbanded and a.id > 0]
    ArmoryItem.objects.filter(bearer__army_id__in=disbanded).update(destroyed=True)
    ArmoryItem.objects.filter(pk__in=[e.data["item_id"] for e in events if e.code == EventCode.ITEM_SENT]).delete()


def _province_values(province: ProvinceState) -> dict[str, Any]:
    """The province's columns (PROVINCE_FIELDS) as the record has them."""
    return {
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
        "ruin_sacked": province.ruin_sacked,
        "ruin_raids": province.ruin_raids,
    }


def _provinces_write(before: World, after: World, province_ids: Mapping[int, int], fields: Collection[str]) -> None:
    """The fields of each province that the phase changed (a field it did not change is left as stored)."""
    rows_update(
        Province,
        {
            province_ids[number]: _changed(
                _province_values(before.provinces[number]) if number in before.provinces else None,
                _province_values(province),
                fields,
            )
            for number, province in after.provinces.items()
            # A record the rules left as loaded (the same frozen record) has nothing to write: most
            # of a large map's 2,000 provinces, not compared field by field.
            if province is not before.provinces.get(number)
        },
    )


def _kingdoms_write(
    *, turn: int, campaign: Campaign, before: World, after: World, province_ids: Mapping[int, int]
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
        row.capitol_id = province_ids[record.capitol] if record.capitol else None
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
) -> WorldWritten:
    """Write what a phase of turn `turn` did to the campaign's world: `before` as it found it,
    `after` as it leaves it, `events` what it said. In bulk, in the caller's transaction:

    - the armies raised (negative ids: new rows, at step 0 of their movements), each army and Elite
      Defense Force in the `army_fields` that differ between `before` and `after` (the other fields,
      and the records that did not change, are left as stored), the
      Veteran Status lost by an upgrade, the Elite Defense Forces of the towns reinforced;
    - the army lists: each unit whose record changed (models, Veteran Status, equipment, command),
      its models lost counted in its casualties;
    - the characters whose record changed (alive, role, injuries, battles survived), the dead first;
    - the magic items: each whose record changed (bearer, destroyed), those added (negative ids: found
      in the ruins), those of the armies disbanded (destroyed), those sent (Transfer of Gold);
    - each province in the `province_fields` that differ between `before` and `after`;
    - the alliances the events form and end, the kingdoms' capitols and Rogue Kingdoms;
    - the treasury's ledger (each event with gold) and the experience ledger (each event with
      experience, checked against the armies' balances).

    Returns the raised armies' real ids and the province rows' ids by number."""
    # Ids by number, not rows: two thousand model instances cost more than the rest of the reads.
    province_ids = dict(Province.objects.filter(campaign=campaign).values_list("number", "id"))
    army_ids = _armies_write(
        turn=turn, campaign=campaign, before=before, after=after, province_ids=province_ids, fields=army_fields
    )
    _lists_write(before, after)
    _characters_write(before, after)
    _items_write(before, after, events)
    delayed_items_write(turn=turn, events=events)  # Sabotage, Mislabeled goods: an item found, on its way
    _provinces_write(before, after, province_ids, province_fields)
    alliances_write(campaign=campaign, turn=turn, events=events)
    _kingdoms_write(turn=turn, campaign=campaign, before=before, after=after, province_ids=province_ids)
    rival_missions_write(campaign=campaign, before=before, after=after, army_ids=army_ids)
    records_insert(
        TreasuryEntry,
        [
            {"kingdom_id": e.kingdom, "turn": turn, "amount": e.gold, "reason": e.ledger_reason, "note": e.text[:200]}
            for e in events
            if e.gold and e.kingdom is not None
        ],
    )
    experience_rows_write(
        turn=turn,
        events=events,
        before={a.id: a.experience for a in _armies_of(before)},
        after={a.id: a.experience for a in _armies_of(after)},
        army_id=lambda a: army_ids.get(a, a),
    )
    return WorldWritten(army_ids=army_ids, province_ids=province_ids)
