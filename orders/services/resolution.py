"""Resolving a turn's orders: load the state, run the pure pipeline, write everything back.

The turn is claimed with a conditional update inside the same transaction as the writes, so a
second trigger finds nothing to claim, and a failure rolls everything back, the claim included:
the turn stays open and claimable, and the error is recorded for the organizer.
"""

from __future__ import annotations

import logging
import traceback
from collections import defaultdict
from dataclasses import dataclass

from django.db import transaction
from django.utils import timezone

from battles.models import Battle, BattleSupport
from battles.services.scenarios import battle_scenarios_generate
from kernel.dice import SeededDice
from kingdoms.models import ArmoryItem, Army, ArmyMovement, DiceRoll, Province, TreasuryEntry, Unit
from kingdoms.services.world import world_load

from ..entries import entries_from_json
from ..models import OrderSheet, OrderSubmission, Turn, TurnEvent
from ..rules.resolution.pipeline import Resolution, resolve_turn
from ..rules.resolution.state import TurnState
from .reports import battle_scenario_reports_create

logger = logging.getLogger(__name__)
DICE_STREAM = "turn-resolution"


def turn_state_load(turn: Turn) -> TurnState:
    """The campaign's world and the turn's submitted sheets for the pipeline, in a fixed number
    of queries (they do not grow with the number of armies or provinces)."""
    world = world_load(campaign=turn.campaign, turn_number=turn.number)
    submitted: dict[int, dict] = {}
    for sub in (
        OrderSubmission.objects.filter(sheet__turn=turn, sheet__status=OrderSheet.Status.SUBMITTED)
        .select_related("sheet")
        .order_by("submitted_at", "id")
    ):
        submitted[sub.sheet.kingdom_id] = sub.entries  # the last submission stands
    sheets = {k: entries_from_json(e) for k, e in submitted.items()}
    orders = {o.army: o for entries in sheets.values() for o in entries.orders}
    return TurnState(
        world=world,
        orders=orders,
        sheets=sheets,
        missed_orders=frozenset(k.id for k in world.kingdoms.values() if k.id not in submitted and not k.ancient_dead),
    )


@dataclass(frozen=True)
class Outcome:
    resolved: bool  # False: there was nothing to claim (resolved already, or not open)
    resolution: Resolution | None = None


def turn_preview(*, turn: Turn) -> Resolution:
    """A dry run: what resolving now would do, written nowhere."""
    return resolve_turn(turn_state_load(turn), SeededDice(seed=turn.seed, stream=DICE_STREAM))


def turn_resolve(*, turn_id: int) -> Outcome:
    """Resolve the turn's orders once. Safe to call twice and concurrently."""
    from ..tasks import turn_reports_start

    try:
        with transaction.atomic():
            claimed = Turn.objects.filter(pk=turn_id, status=Turn.Status.ORDERS_OPEN).update(
                status=Turn.Status.RESOLVING_ORDERS
            )
            if not claimed:
                return Outcome(resolved=False)
            turn = Turn.objects.select_related("campaign").get(pk=turn_id)
            dice = SeededDice(seed=turn.seed, stream=DICE_STREAM)
            before = turn_state_load(turn)
            resolution = resolve_turn(before, dice)
            _write(turn, before, resolution, dice)
            # The battles are posted: each gets its scenario, and its players the scenario sheet.
            battles = battle_scenarios_generate(turn=turn)
            battle_scenario_reports_create(turn=turn, battles=battles)
            transaction.on_commit(lambda: turn_reports_start.delay(turn_id=turn_id))
            return Outcome(resolved=True, resolution=resolution)
    except Exception:
        # Everything above was rolled back; record why, for the organizer, and re-raise.
        logger.exception("Resolving turn %s failed", turn_id)
        Turn.objects.filter(pk=turn_id).update(resolution_error=traceback.format_exc(limit=20)[-4000:])
        raise


def _write(turn: Turn, before: TurnState, resolution: Resolution, dice: SeededDice) -> None:
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
        row.status = Army.Status.DISBANDED if army.disbanded else Army.Status.ACTIVE
        # Troops lost this turn (foraging, guerrilla) are points the player removes from the list.
        row.pending_losses += max(0, before.armies[army.id].points - army.points)
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
            "status",
            "pending_losses",
            "last_battle_turn",
        ],
    )
    if any(a.veteran_status_lost for a in state.armies.values()):
        Unit.objects.filter(army_id__in=[a.id for a in state.armies.values() if a.veteran_status_lost]).update(
            veteran_level=0
        )
    ArmoryItem.objects.filter(bearer__army_id__in=[a.id for a in state.armies.values() if a.disbanded]).update(
        destroyed=True
    )

    reinforced = {a.province_id for a in armies.values() if a.kind == Army.Kind.GARRISON}
    elite_defense_forces = []
    for number, province in state.provinces.items():
        row = provinces[number]
        row.controller_id, row.razed, row.fortified = province.controller, province.razed, province.fortified
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
    Province.objects.bulk_update(list(provinces.values()), ["controller", "razed", "fortified"])

    def army_id(value: int | None) -> int | None:
        return id_map.get(value, value) if value is not None else None

    def with_army_ids(data: dict | None) -> dict | None:
        """Armies raised this turn have temporary (negative) ids in the rules' data: store the real ones."""
        if not data:
            return data
        return {
            k: army_id(v) if k in ("army", "opponent_army", "target") and isinstance(v, int) else v
            for k, v in data.items()
        }

    TreasuryEntry.objects.bulk_create(
        TreasuryEntry(kingdom_id=e.kingdom, turn=turn.number, amount=e.gold, reason=e.ledger_reason, note=e.text[:200])
        for e in resolution.events
        if e.gold and e.kingdom is not None
    )
    TurnEvent.objects.bulk_create(
        TurnEvent(
            turn=turn,
            sequence=i,
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
        if e.code == "moved" and e.army is not None:
            for number in e.data.get("path", []):
                steps[e.army] += 1
                movements.append(
                    ArmyMovement(
                        army_id=army_id(e.army), turn=turn.number, step=steps[e.army], province=provinces[number]
                    )
                )
    ArmyMovement.objects.bulk_create(movements)
    DiceRoll.objects.bulk_create(
        DiceRoll(
            campaign=campaign,
            turn=turn.number,
            stream=DICE_STREAM,
            sequence=i,
            expression=r.expression,
            faces=list(r.faces),
            total=r.total,
            purpose=r.purpose,
            kingdoms=list(r.kingdoms),
            armies=[army_id(a) for a in r.armies],
        )
        for i, r in enumerate(dice.rolls)
    )
    both_moved = {c.province for c in resolution.contacts if c.both_moved}
    battle_rows = Battle.objects.bulk_create(
        Battle(
            turn=turn,
            province=provinces[b.province],
            attacker_kingdom_id=b.attacker_kingdom,
            attacker_army_id=army_id(b.attacker_army),
            defender_kingdom_id=b.defender_kingdom,
            defender_army_id=army_id(b.defender_army),
            assault=b.assault,
            garrison_points=b.garrison_points,
            garrison_defenses=b.garrison_defenses,
            fortified_points=b.fortified_points,
            defended_obstacles=b.defended_obstacles,
            guerrilla=with_army_ids(b.guerrilla),
            notes=b.notes,
            both_moved=b.province in both_moved,
        )
        for b in resolution.battles
    )
    BattleSupport.objects.bulk_create(
        BattleSupport(
            battle=row, army_id=army_id(s.army), kingdom_id=s.kingdom, side=s.side, points=s.points, arrival=s.arrival
        )
        for battle, row in zip(resolution.battles, battle_rows, strict=True)
        for s in battle.supports
    )
    turn.status = Turn.Status.BATTLES
    turn.resolved_at = timezone.now()
    turn.resolution_error = ""
    turn.save(update_fields=["status", "resolved_at", "resolution_error"])
