"""The orders phase's own steps: load the state the pipeline resolves, and write back what it did.

The phase itself (claim, seed, one transaction, the error recorded) is run by the turn cycle
(turns.services.cycle); the battles it schedules are posted by the battles app.
"""

from __future__ import annotations

import logging
from collections import defaultdict
from dataclasses import replace

from django.utils import timezone

from kernel.dice import SeededDice
from kernel.event_codes import EventCode
from kingdoms.models import ArmyMovement
from kingdoms.selectors import tomb_raiders_for_missions
from kingdoms.services.bulk_rows import records_insert, values_insert
from kingdoms.services.dice import DICE_ROLL_FIELDS, purpose_kept
from kingdoms.services.spending import spending_rosters_load
from kingdoms.services.world import world_load
from kingdoms.services.world_write import PROVINCE_FIELDS, world_write
from rulebook.turn.pipeline import Resolution, resolve_orders
from rulebook.turn.state import TurnState
from rulebook.turn.write_orders.missions import is_rival_mission
from turns.models import DiceRoll, Turn

from ..entries import sheet_from_json
from ..models import OrderSheet
from .events import turn_events_append
from .purchases import purchases_write
from .sheets import resolving_submissions

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
    # Never a submission kept for the record (it arrived while this phase ran: rules decision 520).
    # The kingdoms and entries only: the rows as instances read each sheet's own entries as well.
    for kingdom_id, entries in (
        resolving_submissions(turn)
        .filter(sheet__status=OrderSheet.Status.SUBMITTED)
        .values_list("sheet__kingdom_id", "entries")
    ):
        submitted[kingdom_id] = entries  # the last submission stands
    # A Rogue Kingdom has no leader: a sheet its player submitted before being marked out is not resolved.
    rogue = {k.id for k in world.kingdoms.values() if k.rogue}
    sheets = {k: sheet_from_json(e) for k, e in submitted.items() if k not in rogue}
    orders = {o.army: o for entries in sheets.values() for o in entries.orders}
    # Using Tomb Raiders: the forces of the kingdoms whose sheet sends them (one query, only then), and
    # of the targets of their Reconnaissance and Sabotage, whose own raiders may defend (issue 32).
    sending = {k for k, entries in sheets.items() if entries.missions}
    targets = {
        m.target_kingdom
        for entries in sheets.values()
        for m in entries.missions[:1]
        if is_rival_mission(m) and m.target_kingdom is not None
    }
    loaded = sorted(sending | targets)
    raiders = tomb_raiders_for_missions(kingdom_ids=loaded, turn_number=turn.number) if loaded else {}
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
        raiders={k: r.force for k, r in raiders.items()},
        raiders_points_added={k: r.points_added for k, r in raiders.items()},
        # A Character Bio names a rival's Warlord or General, checked again (decision 455): the world holds
        # the living characters of the armies on the map, read with their lists (decision 591), no query more.
    )


def turn_preview(*, turn: Turn) -> Resolution:
    """A dry run: what resolving now would do, written nowhere."""
    return resolve_orders(
        turn_state_load(turn), SeededDice(seed=turn.seed, stream=DICE_STREAM), ancient_dead_dice(turn)
    )


def resolution_write(
    *,
    turn: Turn,
    before: TurnState,
    resolution: Resolution,
    dice: SeededDice,
    ancient_dice: SeededDice | None = None,
) -> dict[int, int]:
    """Write what the orders did: the world (kingdoms.services.world_write: armies, lists, items,
    provinces, kingdoms, alliances, ledgers), the purchases, the events, the movements and the dice
    rolls, in bulk. Returns the real ids of the armies raised this turn (they had negative ids in
    the rules), for the battles' rows."""
    campaign = turn.campaign
    # Fortify: not the turn after a battle. The armies that will fight it (the battles are posted next).
    # A skirmish's army does not fight (a Tomb Raid's or the scouting forces' army waits on its Tomb
    # Raiders: decisions 231, 408): it was in no battle, and a spy may not name it (decisions 442, 455, 619).
    battles = [b for b in resolution.battles if not b.skirmish]
    fighting = {b.attacker_army for b in battles if b.attacker_army is not None} | {
        b.defender_army for b in battles if b.defender_army is not None
    }
    after = replace(
        resolution.state.world,
        armies={
            i: replace(a, last_battle_turn=turn.number) if i in fighting else a
            for i, a in resolution.state.world.armies.items()
        },
    )
    written = world_write(
        turn=turn.number,
        campaign=campaign,
        before=before.world,
        after=after,
        events=resolution.events,
        # The orders leave a province's looting date as stored (a Rogue Kingdom's town abandoned keeps it).
        province_fields=[f for f in PROVINCE_FIELDS if f != "looted_turn"],
    )
    id_map, province_ids = written.army_ids, written.province_ids

    def army_id(value: int | None) -> int | None:
        return id_map.get(value, value) if value is not None else None

    purchases_write(turn=turn.number, events=resolution.events)
    # After what the turn's log already holds: the deliveries that arrived when the turn opened,
    # and the organizer's events between the phases (an army marked painted, an extra for a story).
    turn_events_append(turn, resolution.events, id_map)
    steps: dict[int, int] = defaultdict(int)
    movements = []
    for e in resolution.events:
        if e.code == EventCode.MOVED and e.army is not None:
            for number in e.data.get("path", []):
                steps[e.army] += 1
                movements.append(
                    {
                        "army_id": army_id(e.army),
                        "turn": turn.number,
                        "step": steps[e.army],
                        "province_id": province_ids[number],
                    }
                )
    records_insert(ArmyMovement, movements)
    # The turn's rolls, and the Ancient Dead's on their own stream, in one insert.
    values_insert(
        DiceRoll,
        DICE_ROLL_FIELDS,
        [
            (
                campaign.pk,
                turn.number,
                stream,
                i,
                r.expression,
                list(r.faces),
                r.total,
                purpose_kept(r.purpose),
                list(r.kingdoms),
                [army_id(a) for a in r.armies],
            )
            for stream, rolled in ((DICE_STREAM, dice), (ANCIENT_DEAD_STREAM, ancient_dice))
            if rolled is not None
            for i, r in enumerate(rolled.rolls)
        ],
    )
    turn.resolved_at = timezone.now()
    turn.save(update_fields=["resolved_at"])
    return id_map
