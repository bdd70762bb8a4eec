"""Loading the aftermath's state from the database: the campaign's world (kingdoms.services.world,
with the units, characters and magic items of the armies on the map), and the aftermath's own: where
armies moved from this turn, and each battle's settled outcome with its sheets."""

from __future__ import annotations

import datetime as dt
from typing import Any

from kernel.event_codes import EventCode
from kingdoms.models import ArmoryItem, Character, TreasuryEntry
from kingdoms.services.tomb_raiders import tomb_raiders_load
from kingdoms.services.world import world_load
from rulebook.ruins_and_tomb_raiders.intelligence import CharacterFacts, LedgerRow, SpiedSources
from rulebook.ruins_and_tomb_raiders.tomb_raid import RaidResult
from rulebook.turn.aftermath.results import Outcome
from rulebook.turn.aftermath.rival_missions import RECONNAISSANCE, RIVAL_MISSIONS
from rulebook.turn.aftermath.sheets import BattleA, Casualty, DepotCapture, RaidersLost, SideA
from rulebook.turn.aftermath.state import AftermathState
from rulebook.turn.aftermath.tomb_raids import TOMB_RAID, raid_result_of
from turns.models import Turn, TurnEvent

from ..models import Battle, TurnSummarySheet
from .announcements import announced_ends
from .summaries import battle_standing


def _side(battle: Battle, side: str, sheet: TurnSummarySheet | None, supports: list[int], faced: int) -> SideA:
    army = battle.attacker_army_id if side == "attacker" else battle.defender_army_id
    kingdom = battle.attacker_kingdom_id if side == "attacker" else battle.defender_kingdom_id
    # Old Battle Wound: the characters of this army who rolled a 1 when the battle was posted.
    sitting_out = tuple(int(w["character"]) for w in battle.old_wounds if w.get("out") and w.get("army") == army)
    if sheet is None or sheet.status != TurnSummarySheet.Status.SUBMITTED:
        return SideA(kingdom=kingdom, army=army, supports=tuple(supports), points_faced=faced, sitting_out=sitting_out)
    return SideA(
        kingdom=kingdom,
        army=army,
        supports=tuple(supports),
        casualties=tuple(
            Casualty(
                unit=int(c["unit"]),
                models_lost=int(c.get("models_lost", 0)),
                champion=bool(c.get("champion")),
                standard=bool(c.get("standard")),
                musician=bool(c.get("musician")),
                one_use_used=bool(c.get("one_use_used")),
            )
            for c in sheet.casualties
        ),
        characters_lost=tuple(int(c) for c in sheet.characters_lost),
        loot_choice=sheet.loot_choice,
        negotiation_gold=sheet.negotiation_gold,
        story=bool(sheet.story.strip()),
        story_bonus=sheet.story_bonus,
        story_army=sheet.story_army_id,
        points_faced=faced,
        injury_rerolls=tuple((int(c), str(w)) for c, w in (sheet.injury_rerolls or {}).items()),
        backstab=sheet.backstab,
        warlord_heir=sheet.warlord_heir_id,
        sitting_out=sitting_out,
        withdrawn=tuple(int(a) for a in sheet.support_withdrawn if int(a) in supports),
        depots_captured=tuple(DepotCapture(army=int(c["army"]), by=int(c["by"])) for c in sheet.depots_captured),
        carts_recaptured=tuple(int(a) for a in sheet.carts_recaptured),
        raiders=tuple(
            RaidersLost(entry=str(r["entry"]), killed=int(r.get("killed", 0)), injured=int(r.get("injured", 0)))
            for r in sheet.raiders
        ),
    )


def _raid_result(battle: Battle, standing: Outcome, sheet: TurnSummarySheet | None) -> RaidResult | None:
    """The raid's result (decision 430): a plain ruin's skirmish, and a Reconnaissance or Sabotage skirmish
    (decision 470), read it off its settled result on the
    ladder (the sheet's, the organizer's ruling, or a missing sheet's major loss); a sacked town's
    ruin's raid, beside the battle against its garrison, off the raiding kingdom's sheet (none: no
    success)."""
    if battle.skirmish and battle.mission in RIVAL_MISSIONS:
        # Reconnaissance, Sabotage: read as a plain ruin's raid (decision 470).
        return raid_result_of(standing.attacker.result)
    if battle.mission != TOMB_RAID:
        return None
    if battle.skirmish:
        return raid_result_of(standing.attacker.result)
    if sheet is None or sheet.status != TurnSummarySheet.Status.SUBMITTED or not sheet.raid_result:
        return None
    return RaidResult(sheet.raid_result)


def _army_on_the_table(state: AftermathState, battle: Battle, side: str) -> int:
    """The points of the side's army as it stood on the table: a field army, or the Elite Defense
    Force (Capitol Garrison) that fought as the defender; an army of the Ancient Dead at the 250
    points less than its opponent it fought at, whatever its list holds (The Ancient Dead: Armies;
    rules decision 370)."""
    army_id = battle.attacker_army_id if side == "attacker" else battle.defender_army_id
    kingdom = battle.attacker_kingdom if side == "attacker" else battle.defender_kingdom
    if army_id is None or not (army_id in state.armies or army_id in state.garrisons):
        return 0
    if battle.ancient_dead_points is not None and kingdom is not None and kingdom.is_ancient_dead:
        return battle.ancient_dead_points
    return state.army_points(army_id)


def _held_items(turn: Turn) -> dict[int, frozenset[str]]:
    held: dict[int, set[str]] = {}
    # A destroyed one counts: "If the army containing that item is destroyed, your kingdom does not get
    # another one" (Armory).
    rows = ArmoryItem.objects.filter(kingdom__campaign=turn.campaign, common=False)
    for kingdom, name in rows.values_list("kingdom_id", "name"):
        held.setdefault(kingdom, set()).add(name.strip().lower())
    return {k: frozenset(names) for k, names in held.items()}


def _spied(turn: Turn, targets: set[int]) -> SpiedSources:
    """What a Reconnaissance delivered in this aftermath reads besides the world (decisions 471, 472): the
    targets' ledger rows of this turn, and their characters' rank, Archetype and magic. Read only for the
    kingdoms a Reconnaissance skirmish was fought against."""
    if not targets:
        return SpiedSources()
    ledger: dict[int, list[LedgerRow]] = {}
    rows = TreasuryEntry.objects.filter(kingdom__in=targets, turn=turn.number).order_by("created_at", "id")
    for kingdom, reason, amount, note in rows.values_list("kingdom_id", "reason", "amount", "note"):
        ledger.setdefault(kingdom, []).append(LedgerRow(reason, amount, note))
    characters = {
        pk: CharacterFacts(rank=rank, archetype=archetype, wizard=wizard, magic_level=level)
        for pk, rank, archetype, wizard, level in Character.objects.filter(kingdom__in=targets, alive=True)
        .order_by("id")
        .values_list("id", "rank", "archetype", "wizard", "magic_level")
    }
    return SpiedSources(ledger={k: tuple(v) for k, v in ledger.items()}, characters=characters)


def aftermath_state_load(turn: Turn, *, now: dt.datetime) -> AftermathState:
    """The state the aftermath rules need. Raises ValueError if a battle is not settled (the
    service checks first, and refuses with the reasons)."""
    world = world_load(campaign=turn.campaign, turn_number=turn.number)
    came_from: dict[int, int] = {}
    for event in TurnEvent.objects.filter(turn=turn, code=EventCode.MOVED).exclude(army=None):
        came_from[event.army_id] = int(event.data["from"])  # type: ignore[index]
    battles = list(
        Battle.objects.filter(turn=turn)
        .select_related("province", "attacker_kingdom", "defender_kingdom", "attacker_army", "defender_army")
        .prefetch_related("supports", "summary_sheets")
        .order_by("province__number", "id")
    )
    state = AftermathState(
        # Its units, characters and items are the world's: those of every army on the map, an
        # ally's supporting army (Allies) among them.
        world=world,
        battles=[],
        came_from=came_from,
        # Allies, Announcement: the ends announced during this End of Turn (decision 385)
        announced_ends=announced_ends(turn),
        # Tomb Raiders: every kingdom's force (a skirmish changes it), and the armory items each holds
        # (one of each: an item found in the ruins that a kingdom holds already is lost, decision 431).
        tomb_raiders=tomb_raiders_load(campaign=turn.campaign),
        held_items=_held_items(turn),
        # Reconnaissance: the rows its deliveries read, for the kingdoms spied on (decision 471).
        spied=_spied(
            turn,
            {b.defender_kingdom_id for b in battles if b.mission == RECONNAISSANCE and b.defender_kingdom_id},
        ),
    )

    deadline_passed = now > turn.results_deadline
    for battle in battles:
        standing = battle_standing(battle, deadline_passed=deadline_passed)
        if not isinstance(standing, Outcome):
            raise ValueError(f"The battle in {battle.province} is not settled: {standing.message}")
        sheets = {s.kingdom_id: s for s in battle.summary_sheets.all()}
        supports: dict[str, list[int]] = {"attacker": [], "defender": []}
        support_points: dict[str, int] = {"attacker": 0, "defender": 0}
        # Allies, "Withdraw of support": a detachment that withdrew fought for the other side from
        # then on, so the side it left faced it and the opponent did not (decision 221).
        turned: dict[str, int] = {"attacker": 0, "defender": 0}
        for s in battle.supports.all():
            supports[s.side].append(s.army_id)
            sheet = sheets.get(battle.attacker_kingdom_id if s.side == "attacker" else battle.defender_kingdom_id)
            withdrew = (
                s.allied
                and sheet is not None
                and sheet.status == TurnSummarySheet.Status.SUBMITTED
                and s.army_id in sheet.support_withdrawn
            )
            if withdrew:
                turned[s.side] += s.points
            else:
                support_points[s.side] += s.points

        faced: dict[str, Any] = {
            "attacker": _army_on_the_table(state, battle, "defender")
            + support_points["defender"]
            + turned["attacker"]
            + battle.garrison_points
            + battle.fortified_points,
            "defender": _army_on_the_table(state, battle, "attacker") + support_points["attacker"] + turned["defender"],
        }
        state.battles.append(
            BattleA(
                id=battle.pk,
                province=battle.province.number,
                attacker=_side(
                    battle, "attacker", sheets.get(battle.attacker_kingdom_id), supports["attacker"], faced["attacker"]
                ),
                defender=_side(
                    battle,
                    "defender",
                    sheets.get(battle.defender_kingdom_id) if battle.defender_kingdom_id else None,
                    supports["defender"],
                    faced["defender"],
                ),
                outcome=standing,
                both_moved=battle.both_moved,
                skirmish=battle.skirmish,
                mission=battle.mission,
                mission_detail=battle.mission_detail,
                raid_result=_raid_result(battle, standing, sheets.get(battle.attacker_kingdom_id)),
            )
        )
    return state
