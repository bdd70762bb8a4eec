"""Orders in words, for receipts, pages and reports."""

from __future__ import annotations

from collections.abc import Container, Iterable, Iterator, Mapping, Sequence
from typing import Any, NamedTuple

from kingdoms.models import Army, CapturedRaider, Character, Kingdom
from rulebook.experience.purchases import purchase_words
from rulebook.ruins_and_tomb_raiders.rival_mission_orders import WHEN_IT_TAKES_EFFECT, listed_mission, section_of
from rulebook.ruins_and_tomb_raiders.rival_missions import CaptiveFate
from rulebook.ruins_and_tomb_raiders.tomb_raid import MISSION_GOLD, armies_waiting
from rulebook.turn.write_orders.garrisons import garrisoned_by
from rulebook.turn.write_orders.missions import is_rival_mission, moves_into, rival_mission_words
from rulebook.turn.write_orders.records import DEFEND_WITH_GARRISON, CaptiveOrder, OrderKind, TombRaiderMission
from rulebook.world import World

from ..entries import sheet_from_json
from .mission_uses import mission_use_lines

# The fields of an army a description reads (`describe_orders`' `army_rows`), in _ArmyRow's order.
ARMY_ROW_FIELDS = ("id", "name", "kind", "status", "supply_depot", "province__number")


class _ArmyRow(NamedTuple):
    id: int
    name: str
    kind: str
    status: str
    supply_depot: bool
    province: int | None  # its number; None off the map


class _Map(NamedTuple):
    names: Mapping[int, str]  # province number -> "12 Name"
    garrisoned: Container[int]  # the kingdom's towns, cities and capitol: where its garrison may fight
    kingdoms: dict[int, str] | None  # kingdom id -> name; None: read when a line needs one


class _WorldNames(Mapping[int, str]):
    """A world's province names, each written when a line names it (a receipt names a few of a
    large map's provinces)."""

    def __init__(self, world: World) -> None:
        self._provinces = world.provinces

    def __getitem__(self, number: int) -> str:
        return str(self._provinces[number])

    def __iter__(self) -> Iterator[int]:
        return iter(self._provinces)

    def __len__(self) -> int:
        return len(self._provinces)


class _WorldGarrisons(Container[int]):
    """Where the kingdom's garrison may fight in the world: its towns, cities and capitol."""

    def __init__(self, world: World, kingdom: int) -> None:
        self._world, self._kingdom = world, kingdom

    def __contains__(self, number: object) -> bool:
        return isinstance(number, int) and garrisoned_by(self._world, number, self._kingdom)


def _map_read(kingdom: Kingdom) -> _Map:
    # Tuples, not model instances: a large map's thousands of instances were most of a
    # submission's cost (docs/performance.md).
    rows = list(
        kingdom.campaign.provinces.order_by().values_list("id", "number", "name", "controller_id", "settlement")
    )
    return _Map(
        names={number: f"{number} {name}" for _, number, name, _, _ in rows},
        # Battle for Towns, Cities, and Capitols: where a garrison of the kingdom's may fight instead of its army.
        garrisoned={
            number
            for pk, number, _, controller, settlement in rows
            if controller == kingdom.id and (settlement in ("town", "city") or pk == kingdom.capitol_id)
        },
        kingdoms=None,
    )


def _map_of_world(kingdom: Kingdom, world: World) -> _Map:
    """The same as `_map_read`, from the world the sheet was just checked against (the order
    sheets' kept world: the map changes only in a phase, the admin or a restore, each of which
    makes it read again), so a receipt reads no province."""
    return _Map(
        names=_WorldNames(world),
        garrisoned=_WorldGarrisons(world, kingdom.id),
        kingdoms={k.id: k.name for k in world.kingdoms.values()},
    )


def describe_entries(
    *,
    kingdom: Kingdom,
    entries: dict[str, Any],
    positions: dict[int, int] | None = None,
    world: World | None = None,
    army_rows: Iterable[Sequence[Any]] | None = None,
) -> dict[str, list[str]]:
    """{'orders': [...one line per army...], 'kingdom': [...creations, upgrades, purchases...]}.
    Armies without an order are listed as holding, as the rules make them. `positions` (army id
    -> province number) says where the armies stood when the orders were given (a turn report is
    written after they moved); by default, where they stand now. `world`: the world the sheet was
    checked against, whose map and kingdoms' names are used instead of reading them again.
    `army_rows`: every army of the kingdom as ARMY_ROW_FIELDS, by id, if the caller has read them."""
    described = describe_orders(kingdom=kingdom, entries=entries, positions=positions, world=world, army_rows=army_rows)
    return {"orders": [line for _, line in described["orders"]], "kingdom": described["kingdom"]}


def describe_orders(
    *,
    kingdom: Kingdom,
    entries: dict[str, Any],
    positions: dict[int, int] | None = None,
    armies_of_the_turn: set[int] | None = None,
    world: World | None = None,
    army_rows: Iterable[Sequence[Any]] | None = None,
) -> dict[str, Any]:
    """As `describe_entries`, with each army's line keyed by the army's id:
    {'orders': [(army id, line), ...], 'kingdom': [...]}. `armies_of_the_turn`: only these armies
    (a report of a past turn leaves out the armies raised since)."""
    sheet = sheet_from_json(entries)
    the_map = _map_read(kingdom) if world is None else _map_of_world(kingdom, world)
    provinces, garrisoned = the_map.names, the_map.garrisoned
    if army_rows is None:
        army_rows = Army.objects.filter(kingdom=kingdom).order_by("id").values_list(*ARMY_ROW_FIELDS)
    armies = {row[0]: _ArmyRow(*row) for row in army_rows}
    ordered = {o.army: o for o in sheet.orders}

    def where(number: int | None) -> str:
        return provinces.get(number, f"province {number}") if number is not None else "?"

    lines: list[tuple[int, str]] = []
    for army in armies.values():  # by id
        order = ordered.get(army.id)
        if army.kind != Army.Kind.FIELD or (army.status != Army.Status.ACTIVE and order is None):
            continue
        if armies_of_the_turn is not None and army.id not in armies_of_the_turn and order is None:
            continue
        if positions is not None and army.id in positions:
            number: int | None = positions[army.id]
        else:
            number = army.province
        start = f"{army.name} (in {where(number)})"
        losses = sheet.losses_first(army.id)
        losses_note = f" (losses first from {losses})" if losses else ""
        if order is None:
            lines.append((army.id, f"{start}: Hold (no order given){losses_note}"))
            continue
        text = order.kind.label
        if order.kind in (OrderKind.MOVE, OrderKind.RAZE_MOVE):
            text += f" into {where(order.target)}"
        if order.kind is OrderKind.FORCED_MARCH:
            text += " through " + " to ".join(where(p) for p in order.path)
        if order.support is not None:
            also = order.kind is not OrderKind.SUPPORT  # a Move or Forced March that supports as well (588)
            text += (" and support" if also else "") + f" the battle in {where(order.support)}"
        extras = []
        if not army.supply_depot:
            extras.append(f"on a foraging Disaster: {order.disaster_choice}")
            extras.append("pay 400 gold for a depot on a 12" if order.pay_for_depot else "do not pay for a depot")
        end = order.destination if order.destination is not None else number
        if order.defend_with == DEFEND_WITH_GARRISON:
            extras.append(f"if attacked in {where(end)}: the garrison fights, the army supports it")
        elif end in garrisoned:
            extras.append(f"if attacked in {where(end)}: the army fights, the garrison supports it")
        if losses:
            extras.append(f"losses first from {losses}")
        if order.take_control:
            extras.append("takes control of the ally's province it moves into (Invasion)")
        lines.append((army.id, f"{start}: {text}" + (f" ({'; '.join(extras)})" if extras else "")))
    kingdom_lines = [f"Create {c.name} ({c.points:,} points) in {where(c.province)}" for c in sheet.creations]
    kingdom_lines += [
        f"Upgrade {armies[u.army].name if u.army in armies else u.army} to {u.points:,} points" for u in sheet.upgrades
    ]
    kingdom_lines += [
        f"Buy a supply depot for {armies[d.army].name if d.army in armies else d.army}" for d in sheet.depots
    ]
    kingdom_lines += [f"Elite Defense Force for {where(g.province)}" for g in sheet.garrisons]
    kingdom_lines += [
        purchase_words(p, armies[p.army].name if p.army in armies else f"Army {p.army}") for p in sheet.purchases
    ]
    others = the_map.kingdoms
    if others is None and (
        sheet.alliances
        or sheet.alliance_ends
        or sheet.gold_transfers
        or sheet.item_transfers
        or sheet.land_deals
        or any(is_rival_mission(m) for m in sheet.missions)
    ):
        others = dict(kingdom.campaign.kingdoms.order_by().values_list("id", "name"))
    others = others or {}
    kingdom_lines += [f"Declare an alliance with {others.get(a.kingdom, a.kingdom)}" for a in sheet.alliances]
    kingdom_lines += [
        f"Announce the end of the alliance with {others.get(a.kingdom, a.kingdom)}" for a in sheet.alliance_ends
    ]
    kingdom_lines += [
        f"Transfer {t.gold:,} gold to {others.get(t.kingdom, t.kingdom)} (10% fee on top)" for t in sheet.gold_transfers
    ]
    kingdom_lines += [
        f"Transfer the magic item {t.item} to {others.get(t.kingdom, t.kingdom)} (10% of double its points on top)"
        for t in sheet.item_transfers
    ]
    for deal in sheet.land_deals:
        parts = [f"give {where(deal.province)}"] if deal.province is not None else ["receive"]
        if deal.gold:
            parts.append(f"pay {deal.gold:,} gold (10% fee on top)")
        kingdom_lines.append(f"Land deal with {others.get(deal.kingdom, deal.kingdom)}: {', '.join(parts)}")
    kingdom_lines += [f"Move the capitol to {where(m.province)} (1,000 gold)" for m in sheet.capitol_moves]
    moves = moves_into(sheet.orders, armies)
    for mission in sheet.missions:
        gold = f"{MISSION_GOLD} gold" + (", and the change fee: 5 gold a point added" if mission.pay_change_fee else "")
        if is_rival_mission(mission):
            kingdom_lines.append(f"{_rival_mission_line(mission, others, world)} ({gold})")
            continue
        line = f"Tomb Raid on {where(mission.province)} ({gold})"
        if mission.province is not None and (waiting := armies_waiting(mission.province, moves)):
            names = " and ".join(armies[a].name for a in waiting)
            line += f"; {names} {'waits' if len(waiting) == 1 else 'wait'} on the raid to move in (Ruins)"
        kingdom_lines.append(line)
    kingdom_lines += captive_order_lines(sheet.captive_orders)
    kingdom_lines += mission_use_lines(kingdom, sheet.mission_uses)  # Reconnaissance and Sabotage: effects used
    return {"orders": lines, "kingdom": kingdom_lines}


def captive_order_lines(orders: Sequence[CaptiveOrder]) -> list[str]:
    """The sheet's captive orders in words (Reconnaissance, Sabotage; decision 453): one query, only
    for a sheet that gives one. A captive not known is named by its id (the check refused it)."""
    if not orders:
        return []
    known = {c.pk: c for c in CapturedRaider.objects.filter(pk__in=[o.captive for o in orders]).select_related("owner")}
    verbs = {CaptiveFate.RELEASED.value: "Release", CaptiveFate.EXECUTED.value: "Execute"}
    lines = []
    for order in orders:
        captive = known.get(order.captive)
        who = f"{captive.entry} of {captive.owner.name}" if captive else "?"
        what = f"{verbs.get(order.fate, order.fate)} the captured Tomb Raider {who} (captive {order.captive})"
        if order.fate == CaptiveFate.RELEASED.value:
            what += ": back to its owner's Tomb Raiders when the turn resolves"
        lines.append(what)
    return lines


def _rival_mission_line(mission: TombRaiderMission, kingdoms: dict[int, str], world: World | None) -> str:
    """A Reconnaissance or Sabotage as the receipt says it: the mission, the rival, the army or character
    it names as the spy may know them (decision 455: an army that fought a battle of an earlier turn, the
    Warlord, a General of such an army), and when it takes effect (decision 450)."""
    if world is not None:
        words = rival_mission_words(mission, world)
    else:
        listed = listed_mission(mission.kind, mission.desired)
        target = mission.target_kingdom
        words = f"{section_of(mission.kind)} ({listed.label if listed else mission.desired or '?'}) against "
        words += kingdoms.get(target, "?") if target is not None else "no kingdom"
        if mission.target_army is not None:
            name = (
                Army.objects.filter(pk=mission.target_army, kingdom_id=target, last_battle_turn__isnull=False)
                .values_list("name", flat=True)
                .first()
            )
            words += f": {name or 'an army'}"
        if mission.target_character is not None:
            row = (
                Character.objects.filter(pk=mission.target_character, kingdom_id=target)
                .values_list("role", "unit__army__name", "unit__army__last_battle_turn")
                .first()
            )
            if row and row[0] == Character.Role.WARLORD:
                words += ": the Warlord"
            elif row and row[0] == Character.Role.GENERAL and row[2] is not None:
                words += f": the General of {row[1]}"
            else:
                words += ": a character"
    listed = listed_mission(mission.kind, mission.desired)
    when = f"; {WHEN_IT_TAKES_EFFECT[listed.mission]}" if listed else ""
    return f"{words}{when}"


def new_lists_note(*, entries: dict[str, Any], turn_number: int) -> str:
    """What a sheet that raises or upgrades armies leaves the player to do: enter each one's list
    by the next turn's orders deadline (until then it counts at the points paid for it)."""
    sheet = sheet_from_json(entries)
    if not (sheet.creations or sheet.upgrades):
        return ""
    return (
        "An army raised or upgraded by this sheet counts at the points paid for it until its list is "
        f"entered: enter each one's list by the orders deadline of turn {turn_number + 1} (Army Restrictions)."
    )
