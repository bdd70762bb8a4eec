"""7. Aftermath of the Tomb Raiders' skirmishes (pure Python): the Tomb Raid's result settles the
waiting army's entry into the ruins and the treasure found, and after every skirmish (a raid, the
Rogue Kingdom's scouting forces) the raiders' killed models leave the list and the injured roll on
the Recovery chart.

Rulebook: Ruins, Treasure from the Ruins, Tomb Raid, Maintaining / Changing Tomb Raiders, Recovery,
The Ancient Dead: Deserts (a sacked town's ruin). Rule cases TR5, TR7, TR8 and TR10; rules decisions
405-409 and 430-434.
"""

from __future__ import annotations

from dataclasses import replace

from kernel.dice import Dice
from kernel.event_codes import EventCode
from kernel.events import Event
from kernel.ledger import LedgerReason
from rulebook.ancient_dead.deserts import SCARAB_AMULET
from rulebook.ruins_and_tomb_raiders.force import Command, RaiderEntry, Role, TombRaiders
from rulebook.ruins_and_tomb_raiders.maintaining import PromotionRefused, models_killed, promote_captain
from rulebook.ruins_and_tomb_raiders.recovery import OUTCOME_LABELS, back_in_action, recover
from rulebook.ruins_and_tomb_raiders.tomb_raid import MissionKind, RaidOutcome, RaidResult, Ruin, raid_outcome
from rulebook.ruins_and_tomb_raiders.treasure import COMMON_ITEMS, HEALING_POTION, ITEM_NOTES, RUINS_ITEM_POINTS
from rulebook.turn.aftermath.end_of_turn import result_events
from rulebook.turn.aftermath.mislabeled_goods import goods_delayed
from rulebook.turn.aftermath.results import BattleResult
from rulebook.turn.aftermath.retreats import conquer, kept_out, may_claim
from rulebook.turn.aftermath.sheets import BattleA, SideA
from rulebook.turn.aftermath.state import (
    PHASE,
    AftermathState,
    BattleSettled,
    add_gold,
    army_name,
    possessive,
    put_item,
)
from rulebook.world import ItemState, ProvinceState

TOMB_RAID = MissionKind.TOMB_RAID.value
RAID_RESULT_LABELS: dict[RaidResult, str] = {
    RaidResult.SUCCESS: "Success",
    RaidResult.DRAW: "Draw",
    RaidResult.FAILURE: "Failure",
}
# Decision 430: a plain ruin's raid is a skirmish whose battle result is the raid's, on the ladder.
LADDER_OF_RAID: dict[RaidResult, BattleResult] = {
    RaidResult.SUCCESS: BattleResult.MINOR_VICTORY,
    RaidResult.DRAW: BattleResult.DRAW,
    RaidResult.FAILURE: BattleResult.MINOR_LOSS,
}
# Decision 431: items that are not the armory's one of each (a kingdom may hold several).
NOT_ARMORY_ITEMS = frozenset({*COMMON_ITEMS.values(), HEALING_POTION, SCARAB_AMULET})


def raid_result_of(result: BattleResult) -> RaidResult:
    """The raid's result a plain ruin's skirmish settled at on the ladder (decision 430): any victory
    a success, a draw a draw, any loss a failure. An organizer's ruling, or a sheet missing after the
    deadline (a major loss, 8. End of Turn), reads the same way."""
    if result.is_victory:
        return RaidResult.SUCCESS
    return RaidResult.DRAW if result is BattleResult.DRAW else RaidResult.FAILURE


def ruin_of(province: ProvinceState) -> Ruin:
    return Ruin(province.number, province.name, sacked=province.ruin_sacked, successful_raids=province.ruin_raids)


def tomb_raid_skirmish(state: AftermathState, dice: Dice, events: list[Event], battle: BattleA) -> BattleSettled:
    """A plain ruin's Tomb Raid: the army waiting on it (decision 408) did not fight. A success: the
    treasure, the amulet at the ruin's first successful raid, and the army moves in (it takes the
    province as any victor that moved in: Army Restrictions); a draw or a failure: nothing is found
    and the army goes back where it came from (Ruins; decision 407)."""
    province = state.provinces[battle.province]
    result_events(state, events, battle, province)
    side = battle.attacker
    assert side.army is not None and side.kingdom is not None
    outcome = raid_settled(state, dice, events, battle)
    if outcome.army_may_enter and may_claim(state, events, side, state.provinces[battle.province]):
        conquer(state, dice, events, state.provinces[battle.province], side)
    elif not outcome.army_may_enter:
        kept_out(state, events, side.army, battle.province, _not_won(state, battle), "Tomb Raid")
    else:
        # Army Restrictions: too small to claim the province (its event says so); it never entered.
        why = f"{possessive(state.kingdoms[side.kingdom].name)} Tomb Raid on the ruins of {province} succeeded"
        kept_out(state, events, side.army, battle.province, why, "Army Restrictions")
    return BattleSettled(
        battle=battle.id,
        result=battle.outcome.attacker.result,
        defender_result=battle.outcome.defender.result,
        victor=battle.outcome.victor,
    )


def entry_refused(state: AftermathState, battle: BattleA, outcome: RaidOutcome) -> str:
    """For a sacked town's ruin, whose raid goes with the battle against its garrison: why the army
    may not move in though it beat the garrison ("" when it may)."""
    return "" if outcome.army_may_enter else _not_won(state, battle)


def _not_won(state: AftermathState, battle: BattleA) -> str:
    assert battle.attacker.kingdom is not None
    kingdom = state.kingdoms[battle.attacker.kingdom].name
    result = battle.raid_result
    how = "was a draw" if result is RaidResult.DRAW else "failed" if result is RaidResult.FAILURE else "had no result"
    return f"{possessive(kingdom)} Tomb Raid on the ruins of {state.provinces[battle.province]} {how}"


def raid_settled(state: AftermathState, dice: Dice, events: list[Event], battle: BattleA) -> RaidOutcome:
    """The raid's outcome (rulebook.ruins_and_tomb_raiders.tomb_raid.raid_outcome) and what it gives:
    on a success the treasure (gold to the treasury, the items to the army's General), the Scarab
    Amulet at the ruin's first successful raid, and one more successful raid counted on the ruin."""
    side = battle.attacker
    kingdom = side.kingdom
    assert kingdom is not None
    province = state.provinces[battle.province]
    # Deserts: a sacked town's ruin is raided only when the army beat its garrison (won or drew).
    beaten = None if battle.skirmish else not battle.outcome.attacker.result.is_loss
    outcome = raid_outcome(battle.raid_result, ruin_of(province), dice, kingdom=kingdom, garrison_beaten=beaten)
    name = state.kingdoms[kingdom].name
    if outcome.treasure is None:
        why = (
            f"{name} did not beat the Ancient Dead garrison, so the raid finds nothing (The Ancient Dead: Deserts)"
            if beaten is False
            else f"{possessive(name)} Tomb Raiders found nothing (a draw is no success: decision 407)"
            if battle.raid_result is RaidResult.DRAW
            else f"{possessive(name)} Tomb Raiders found nothing"
        )
        result = RAID_RESULT_LABELS[battle.raid_result].lower() if battle.raid_result else "no result"
        events.append(
            Event(
                PHASE,
                EventCode.TOMB_RAID_FAILED,
                f"Tomb Raid on the ruins of {province}: {result}. {why}; the army may not move into the province "
                "this turn (Tomb Raid).",
                kingdom=kingdom,
                army=side.army,
                province=province.number,
                data={"result": battle.raid_result.value if battle.raid_result else ""},
            )
        )
        return outcome
    state.provinces[province.number] = replace(province, ruin_raids=outcome.ruin.successful_raids)
    treasure = outcome.treasure
    found = _items_found(state, dice, events, battle, (*treasure.items, *([outcome.amulet] if outcome.amulet else [])))
    if treasure.gold:
        add_gold(state, kingdom, treasure.gold)
    listed = ", ".join(_with_note(i) for i in treasure.items)
    gold = f"{treasure.gold:,} gold and " if treasure.gold else ""
    bearer = found.get("bearer") or "the armory"
    events.append(
        Event(
            PHASE,
            EventCode.TOMB_RAID_SUCCESS,
            f"Tomb Raid on the ruins of {province}: success. Treasure from the Ruins (rolled "
            f"{', '.join(str(f) for f in treasure.faces)}): {gold}{listed}, free and not counted toward a "
            f"character's magic items (decision 406); the items go to {bearer}.",
            kingdom=kingdom,
            army=side.army,
            province=province.number,
            gold=treasure.gold,
            ledger_reason=LedgerReason.RUINS if treasure.gold else "",
            data={
                "items": list(treasure.items),
                "gold": treasure.gold,
                "faces": list(treasure.faces),
                "amulet": bool(outcome.amulet),
                "ruin_raids": outcome.ruin.successful_raids,
            },
        )
    )
    if outcome.amulet:
        events.append(
            Event(
                PHASE,
                EventCode.SCARAB_AMULET_FOUND,
                f"The first successful raid on the ruins of {province}: {name} gains a Scarab Amulet, carried by "
                f"{bearer} (Tomb Raid).",
                kingdom=kingdom,
                army=side.army,
                province=province.number,
                data={"bearer": bearer},
            )
        )
    return outcome


def _with_note(item: str) -> str:
    note = ITEM_NOTES.get(item)
    return f"{item} ({note})" if note else item


def _bearer(state: AftermathState, army_id: int | None) -> tuple[int | None, str]:
    """Who carries the items found (decision 431): the raiding army's General (else its Warlord, else
    its first character); an army without one leaves them in the kingdom's armory."""
    if army_id is None:
        return None, ""
    units = {u.id: u for u in state.units_of(army_id)}
    characters = sorted((c for c in state.characters.values() if c.unit in units and c.alive), key=lambda c: c.id)
    for role in ("general", "warlord", None):
        chosen = next((c for c in characters if role is None or c.role == role), None)
        if chosen is not None:
            return chosen.unit, f"{chosen.name} ({army_name(state, army_id)})"
    return None, ""


def _items_found(
    state: AftermathState, dice: Dice, events: list[Event], battle: BattleA, names: tuple[str, ...]
) -> dict[str, str]:
    """The items found become the kingdom's, at 0 points (Treasure from the Ruins: "do not need to
    be purchased nor do they apply to a character's maximum points of magic items"). An armory item
    the kingdom holds already is lost (Armory: one of each; decision 431)."""
    kingdom = battle.attacker.kingdom
    assert kingdom is not None
    unit, bearer = _bearer(state, battle.attacker.army)
    held = set(state.held_items.get(kingdom, frozenset()))
    for name in names:
        common = name in NOT_ARMORY_ITEMS
        if not common and name.lower() in held:
            events.append(
                Event(
                    PHASE,
                    EventCode.RUINS_ITEM_LOST,
                    f"{name} found in the ruins of {state.provinces[battle.province]} is lost: "
                    f"{state.kingdoms[kingdom].name} holds one already and has only one of each armory item "
                    "(Armory; decision 431).",
                    kingdom=kingdom,
                    province=battle.province,
                    data={"name": name},
                )
            )
            continue
        if not common:
            held.add(name.lower())
        if goods_delayed(
            state,
            dice,
            events,
            kingdom=kingdom,
            army=battle.attacker.army,
            bearer=unit,
            name=name,
            points=RUINS_ITEM_POINTS,
            common=common,
        ):
            continue  # Sabotage, Mislabeled goods: on its way instead (decision 489)
        new_id = min([0, *state.items]) - 1
        put_item(
            state,
            ItemState(id=new_id, name=name, points=RUINS_ITEM_POINTS, bearer=unit, kingdom=kingdom, common=common),
        )
    state.held_items[kingdom] = frozenset(held)
    return {"bearer": bearer}


# -- the Tomb Raiders after a skirmish ----------------------------------------------------------


def raiders_back_in_action(state: AftermathState, events: list[Event]) -> None:
    """Recovery, "out of action for one turn": the models a 2 kept out at the last aftermath missed
    this turn's mission; they are back for the next (decision 432), before this turn's Recovery. Who
    stayed home is kept in `state.stayed_home` (a capture takes only a model that went)."""
    for kingdom, force in sorted(state.tomb_raiders.items()):
        out = sum(e.out_of_action for e in force.entries)
        if not out:
            continue
        state.stayed_home[kingdom] = {e.name: e.out_of_action for e in force.entries if e.out_of_action}
        state.tomb_raiders[kingdom] = back_in_action(force)
        events.append(
            Event(
                PHASE,
                EventCode.TOMB_RAIDERS_BACK_IN_ACTION,
                f"{possessive(state.kingdoms[kingdom].name)} Tomb Raiders: {out} model{'s' if out != 1 else ''} out of "
                "action this turn may go on the next turn's mission (Recovery).",
                kingdom=kingdom,
            )
        )


def raiders_recover(
    state: AftermathState, dice: Dice, events: list[Event], battle: BattleA, side: SideA | None = None
) -> None:
    """After a Tomb Raiders' skirmish, for the raiding kingdom's force (or `side`'s: a rival mission's
    target whose own raiders defended) as its sheet reports it: the
    killed models leave the list ("subtract their point value from your total"), each model removed
    as injured rolls on the Recovery chart (1 dead, 2 out of action for one turn, 3-6 back), and a
    Captain dead for good is replaced by his Lieutenant (Maintaining / Changing Tomb Raiders)."""
    side = side or battle.attacker
    kingdom = side.kingdom
    if kingdom is None or not side.raiders or kingdom not in state.tomb_raiders:
        return
    force = state.tomb_raiders[kingdom]
    name = possessive(state.kingdoms[kingdom].name)
    where = state.provinces[battle.province]
    killed = {r.entry: r.killed for r in side.raiders if r.killed}
    injured = {r.entry: r.injured for r in side.raiders if r.injured}
    casualties = models_killed(force, killed)
    if killed:
        text = ", ".join(f"{n} {entry}" for entry, n in killed.items())
        events.append(
            Event(
                PHASE,
                EventCode.TOMB_RAIDERS_KILLED,
                f"{name} Tomb Raiders lost in the skirmish for {where}: {text}, killed and off the list (Maintaining / "
                "Changing Tomb Raiders).",
                kingdom=kingdom,
                province=battle.province,
                data={"killed": killed},
            )
        )
    recovered = recover(casualties.force, injured, dice, kingdom=kingdom)
    if recovered.rolls:
        rolls = "; ".join(f"{r.entry}: {r.face}, {OUTCOME_LABELS[r.outcome]}" for r in recovered.rolls)
        events.append(
            Event(
                PHASE,
                EventCode.TOMB_RAIDERS_RECOVERY,
                f"{name} Tomb Raiders removed as injured in the skirmish for {where} roll on the Recovery chart: "
                f"{rolls} (Recovery).",
                kingdom=kingdom,
                province=battle.province,
                data={
                    "rolls": [{"entry": r.entry, "face": r.face, "outcome": r.outcome.value} for r in recovered.rolls]
                },
            )
        )
    after = recovered.force
    if (casualties.captain_killed or recovered.captain_killed) and after.captain is None:
        after = promoted(state, events, kingdom, force, after)
    state.tomb_raiders[kingdom] = after


def promoted(
    state: AftermathState, events: list[Event], kingdom: int, before: TombRaiders, after: TombRaiders
) -> TombRaiders:
    """ "If a Captain is permanently killed, the Lieutenant will become the new Captain": promoted at
    the champion upgrade the dead Captain paid over a trooper of his unit type (decision 433)."""
    name = possessive(state.kingdoms[kingdom].name)
    if after.lieutenant is None:
        events.append(
            Event(
                PHASE,
                EventCode.TOMB_RAIDERS_NO_CAPTAIN,
                f"{name} Tomb Raider Captain is dead and there is no Lieutenant to take his place: name the model "
                "who becomes Captain, upgraded to a champion from the points available, on the Tomb Raiders page "
                "before the force goes on a mission (Maintaining / Changing Tomb Raiders).",
                kingdom=kingdom,
            )
        )
        return after
    upgrade = _champion_upgrade(before, after.lieutenant)
    try:
        promotion = promote_captain(after, champion_upgrade_points=upgrade)
    except PromotionRefused:  # pragma: no cover - the Captain is gone and the Lieutenant is there
        return after
    over = (
        f" The force is {promotion.over_by} points over 150: free them before it goes on a mission (decision 404)."
        if promotion.over_by
        else ""
    )
    upgrade_text = (
        f"its champion upgrade, {upgrade} points, paid from the points available"
        if upgrade
        else (
            "enter his champion upgrade's points on the Tomb Raiders page (the list tells it only for the dead "
            "Captain's unit type, read from a trooper of it)"
        )
    )
    events.append(
        Event(
            PHASE,
            EventCode.TOMB_RAIDERS_PROMOTED,
            f"{name} Tomb Raider Captain is dead: the Lieutenant, {promotion.captain}, is the new Captain (+1 Ld up "
            f"to 10, never the bonus wound); {upgrade_text}.{over} Another model may be made Lieutenant on the Tomb "
            "Raiders page (Maintaining / Changing Tomb Raiders).",
            kingdom=kingdom,
            data={"captain": promotion.captain, "upgrade": upgrade, "over_by": promotion.over_by},
        )
    )
    return promotion.force


def _champion_upgrade(force: TombRaiders, new_captain: RaiderEntry) -> int:
    """Decision 433: "the cost of upgrading it to a Champion", the new Captain's. The list tells it only
    for the dead Captain's unit type: his cost over a plain trooper of it in the force (what the army
    book's upgrade cost him). A new Captain of another unit type, or no such trooper: 0, and the
    player enters it."""
    captain = force.captain
    if captain is None or new_captain.troop_type != captain.troop_type:
        return 0
    trooper = next(
        (
            e
            for e in force.entries
            if e.role is Role.TROOPER and e.command is Command.NONE and e.troop_type == captain.troop_type
        ),
        None,
    )
    return max(captain.points_per_model - trooper.points_per_model, 0) if trooper is not None else 0
