"""The orders phase's own steps: load the state the pipeline resolves, and write back what it did.

The phase itself (claim, seed, one transaction, the error recorded) is run by the turn cycle
(turns.services.cycle); the battles it schedules are posted by the battles app.
"""

from __future__ import annotations

import logging
from collections import defaultdict

from django.utils import timezone

from kernel.dice import SeededDice
from kernel.event_codes import EventCode
from kingdoms.models import ArmoryItem, Army, ArmyMovement, Campaign, DiceRoll, Kingdom, Province, TreasuryEntry, Unit
from kingdoms.services.alliances import alliances_write, without_alliance_id
from kingdoms.services.experience import experience_rows_write
from kingdoms.services.spending import spending_rosters_load
from kingdoms.services.world import world_load
from rulebook.turn.pipeline import Resolution, resolve_orders
from rulebook.turn.state import TurnState, with_real_army_ids

from ..entries import sheet_from_json
from ..models import OrderSheet, OrderSubmission, Turn, TurnEvent
from .events import turn_event_sequence_next
from .purchases import purchases_write
from .rogue import rogue_rows_write

logger = logging.getLogger(__name__)
DICE_STREAM = "turn-resolution"
ANCIENT_DEAD_STREAM = "ancient-dead"  # the Ancient Dead's own rolls (where an army rises)


def ancient_dead_dice(turn: Turn) -> SeededDice:
    return SeededDice(seed=turn.seed, stream=ANCIENT_DEAD_STREAM)


def turn_state_load(turn: Turn) -> TurnState:
    """The campaign's world and the turn's submitted sheets for the pipeline, in a fixed number
    of queries (they do not grow with the number of armies or provinces)."""
    world = world_load(campaign=turn.campaign, turn_number=turn.number)
    submitted: dict[int, dict] = {}
    # The Ancient Dead's sheet stands as drafted (computed when the turn opened, or changed by the
    # organizer) unless the organizer submitted it: missed orders never apply to them.
    ancient = [k.id for k in world.kingdoms.values() if k.ancient_dead]
    for draft in OrderSheet.objects.filter(turn=turn, kingdom__in=ancient, status=OrderSheet.Status.DRAFT):
        submitted[draft.kingdom_id] = draft.entries
    for sub in (
        OrderSubmission.objects.filter(sheet__turn=turn, sheet__status=OrderSheet.Status.SUBMITTED)
        .select_related("sheet")
        .order_by("submitted_at", "id")
    ):
        submitted[sub.sheet.kingdom_id] = sub.entries  # the last submission stands
    # A Rogue Kingdom has no leader: a sheet its player submitted before being marked out is not resolved.
    rogue = {k.id for k in world.kingdoms.values() if k.rogue}
    sheets = {k: sheet_from_json(e) for k, e in submitted.items() if k not in rogue}
    orders = {o.army: o for entries in sheets.values() for o in entries.orders}
    return TurnState(
        world=world,
        orders=orders,
        sheets=sheets,
        missed_orders=frozenset(
            k.id for k in world.kingdoms.values() if k.id not in submitted and not k.ancient_dead and not k.rogue
        ),
        rosters=spending_rosters_load(campaign=turn.campaign)
        if any(s.purchases or s.item_transfers for s in sheets.values())
        else {},
    )


def turn_preview(*, turn: Turn) -> Resolution:
    """A dry run: what resolving now would do, written nowhere."""
    return resolve_orders(
        turn_state_load(turn), SeededDice(seed=turn.seed, stream=DICE_STREAM), ancient_dead_dice(turn)
    )


def _lists_write(before: TurnState, state: TurnState) -> None:
    """The models the turn's losses took off the armies' lists (foraging, Guerrilla Tactics): each
    unit's models, and its casualties over the campaign."""
    left = {u.id: u.models for units in state.world.units.values() for u in units}
    lost = {
        u.id: u.models - left[u.id]
        for units in before.world.units.values()
        for u in units
        if u.id in left and left[u.id] != u.models
    }
    rows = list(Unit.objects.filter(pk__in=lost))
    for row in rows:
        row.models_count = left[row.id]
        row.models_lost += lost[row.id]
    Unit.objects.bulk_update(rows, ["models_count", "models_lost"])


def _kingdoms_write(before: TurnState, state: TurnState, campaign: Campaign, turn_number: int) -> None:
    """Loss of the Capitol: a capitol moved or crowned, the countdown's start cleared; a kingdom whose
    player is out becomes a Rogue Kingdom (its rows as when the organizer marks a player out)."""
    for kingdom_id, after in state.kingdoms.items():
        was = before.kingdoms[kingdom_id]
        if (after.capitol, after.capitol_lost_turn, after.rogue) == (was.capitol, was.capitol_lost_turn, was.rogue):
            continue
        row = Kingdom.objects.get(pk=kingdom_id, campaign=campaign)
        row.capitol = Province.objects.get(campaign=campaign, number=after.capitol) if after.capitol else None
        row.capitol_lost_turn = after.capitol_lost_turn
        row.save(update_fields=["capitol", "capitol_lost_turn"])
        if after.rogue and not was.rogue:
            rogue_rows_write(kingdom=row, turn_number=turn_number)


def resolution_write(
    *,
    turn: Turn,
    before: TurnState,
    resolution: Resolution,
    dice: SeededDice,
    ancient_dice: SeededDice | None = None,
) -> dict[int, int]:
    """Write what the orders did (armies, provinces, ledger, events, movements, dice rolls) in bulk.
    Returns the real ids of the armies raised this turn (they had negative ids in the rules), for
    the battles' rows."""
    state = resolution.state
    campaign = turn.campaign
    provinces = {p.number: p for p in Province.objects.filter(campaign=campaign)}
    armies = {a.id: a for a in Army.objects.filter(kingdom__campaign=campaign, status=Army.Status.ACTIVE)}
    id_map: dict[int, int] = {}

    # New armies (negative ids in the state) get rows first, so events can point at them.
    new = sorted((a for a in state.armies.values() if a.id < 0), key=lambda a: -a.id)
    rows = Army.objects.bulk_create(
        Army(
            kingdom_id=a.kingdom,
            name=a.name,
            province=provinces[a.province],
            size=a.size,
            supply_depot=a.supply_depot,
            created_turn=turn.number,
            list_due=True,  # it counts at the points paid for it until its list is entered
            losses_before_list=a.losses_before_list,
        )
        for a in new
    )
    for army, row in zip(new, rows, strict=True):
        id_map[army.id] = row.id
        armies[row.id] = row
    ArmyMovement.objects.bulk_create(
        ArmyMovement(army=row, turn=turn.number, step=0, province=row.province) for row in rows
    )

    fighting = {b.attacker_army for b in resolution.battles} | {
        b.defender_army for b in resolution.battles if b.defender_army is not None
    }
    changed: list[Army] = []
    for army in state.armies.values():
        if army.id < 0:
            continue
        row = armies[army.id]
        row.province = provinces[army.province]
        row.size = army.size
        row.supply_depot = army.supply_depot
        row.experience = army.experience
        row.upgraded_turn = army.upgraded_turn
        row.recover_streak = army.recover_streak
        row.co_occupying = army.co_occupying
        row.fortified_in = provinces[army.fortified_in] if army.fortified_in is not None else None
        row.status = Army.Status.DISBANDED if army.disbanded else Army.Status.ACTIVE
        # Troops lost this turn (foraging, guerrilla) were taken off the list (written below), or,
        # while the list is due, are kept as the points it leaves out.
        row.list_due = army.list_due
        row.losses_before_list = army.losses_before_list
        if army.id in fighting:
            row.last_battle_turn = turn.number
        changed.append(row)
    Army.objects.bulk_update(
        changed,
        [
            "province",
            "size",
            "supply_depot",
            "experience",
            "upgraded_turn",
            "recover_streak",
            "co_occupying",
            "fortified_in",
            "status",
            "list_due",
            "losses_before_list",
            "last_battle_turn",
        ],
    )
    _lists_write(before, state)
    if any(a.veteran_status_lost for a in state.armies.values()):
        Unit.objects.filter(army_id__in=[a.id for a in state.armies.values() if a.veteran_status_lost]).update(
            veteran_level=0
        )
    ArmoryItem.objects.filter(bearer__army_id__in=[a.id for a in state.armies.values() if a.disbanded]).update(
        destroyed=True
    )
    # Transfer of Gold: an item sent leaves its bearer (or the armory) now; its ITEM_SENT event carries
    # it to the receiver's armory at the beginning of the turn after next (orders/services/transfers.py).
    ArmoryItem.objects.filter(
        pk__in=[e.data["item_id"] for e in resolution.events if e.code == EventCode.ITEM_SENT]
    ).delete()

    reinforced = {a.province_id for a in armies.values() if a.kind == Army.Kind.GARRISON}
    elite_defense_forces = []
    for number, province in state.provinces.items():
        row = provinces[number]
        row.controller_id, row.razed, row.fortified = province.controller, province.razed, province.fortified
        # The Ancient Dead's incantations turn the land to plains, then desert (and towns to ruins).
        row.terrain, row.settlement = province.terrain.value, province.settlement.value
        row.incantation = province.incantation
        row.land_sale_turn, row.rogue = province.land_sale_turn, province.rogue
        if province.elite_defense and row.id not in reinforced:
            elite_defense_forces.append(
                Army(
                    kingdom_id=province.controller,
                    name=f"Elite Defense Force of {row.name}",
                    kind=Army.Kind.GARRISON,
                    province=row,
                    size=500,
                    created_turn=turn.number,
                )
            )
    Army.objects.bulk_create(elite_defense_forces)
    Province.objects.bulk_update(
        list(provinces.values()),
        ["controller", "razed", "fortified", "terrain", "settlement", "incantation", "land_sale_turn", "rogue"],
    )

    def army_id(value: int | None) -> int | None:
        return id_map.get(value, value) if value is not None else None

    alliances_write(campaign=campaign, turn=turn.number, events=resolution.events)
    _kingdoms_write(before, state, campaign, turn.number)

    def with_army_ids(data: dict | None) -> dict | None:
        return without_alliance_id(with_real_army_ids(data, id_map))

    TreasuryEntry.objects.bulk_create(
        TreasuryEntry(kingdom_id=e.kingdom, turn=turn.number, amount=e.gold, reason=e.ledger_reason, note=e.text[:200])
        for e in resolution.events
        if e.gold and e.kingdom is not None
    )
    experience_rows_write(
        turn=turn.number,
        events=resolution.events,
        before={a.id: a.experience for a in before.armies.values()},
        after={a.id: a.experience for a in state.armies.values()},
        army_id=lambda a: id_map.get(a, a),
    )
    purchases_write(turn=turn.number, events=resolution.events)
    # After what the turn's log already holds: the deliveries that arrived when the turn opened,
    # and the organizer's events between the phases (an army marked painted, an extra for a story).
    start = turn_event_sequence_next(turn)
    TurnEvent.objects.bulk_create(
        TurnEvent(
            turn=turn,
            sequence=start + i,
            phase=e.phase,
            code=e.code,
            text=e.text,
            kingdom_id=e.kingdom,
            army_id=army_id(e.army),
            province=e.province,
            gold=e.gold,
            data=with_army_ids(e.data),
        )
        for i, e in enumerate(resolution.events)
    )
    steps: dict[int, int] = defaultdict(int)
    movements = []
    for e in resolution.events:
        if e.code == EventCode.MOVED and e.army is not None:
            for number in e.data.get("path", []):
                steps[e.army] += 1
                movements.append(
                    ArmyMovement(
                        army_id=army_id(e.army), turn=turn.number, step=steps[e.army], province=provinces[number]
                    )
                )
    ArmyMovement.objects.bulk_create(movements)
    # The turn's rolls, and the Ancient Dead's on their own stream.
    for stream, rolled in ((DICE_STREAM, dice), (ANCIENT_DEAD_STREAM, ancient_dice)):
        if rolled is None:
            continue
        DiceRoll.objects.bulk_create(
            DiceRoll(
                campaign=campaign,
                turn=turn.number,
                stream=stream,
                sequence=i,
                expression=r.expression,
                faces=list(r.faces),
                total=r.total,
                purpose=r.purpose,
                kingdoms=list(r.kingdoms),
                armies=[army_id(a) for a in r.armies],
            )
            for i, r in enumerate(rolled.rolls)
        )
    turn.resolved_at = timezone.now()
    turn.save(update_fields=["resolved_at"])
    return id_map
