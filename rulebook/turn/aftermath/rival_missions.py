"""7. Aftermath of a Reconnaissance or Sabotage skirmish (pure Python): the spying kingdom's result read on
the charts, the raiders' losses on both sides, a model captured on a failure, and what the mission earned:
the information delivered now, the Theft's gold moved now, every other effect kept pending for its moment.

Rulebook: Reconnaissance, Sabotage, Recovery, Maintaining / Changing Tomb Raiders. Rule cases RS1-RS3;
rules decisions 450-453 (the lead's: timing, the draw's d6, the random model, the captives) and 470-479.

Secrecy: the spy's events (its result, the information) are the spy's alone; the target's event says
only that raiders came and how the skirmish went (RIVAL_MISSION_REPELLED), never what was learned.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from kernel.dice import Dice
from kernel.event_codes import EventCode
from kernel.events import Event
from kernel.ledger import LedgerReason
from rulebook.ruins_and_tomb_raiders.captives import captive_record
from rulebook.ruins_and_tomb_raiders.force import TombRaiders
from rulebook.ruins_and_tomb_raiders.intelligence import (
    IntelligenceDue,
    LedgerRow,
    army_statistics,
    artillery_info,
    character_bio,
    magic_college_raid,
    treasury_info,
)
from rulebook.ruins_and_tomb_raiders.maintaining import models_killed
from rulebook.ruins_and_tomb_raiders.mission_effects import awaiting_list
from rulebook.ruins_and_tomb_raiders.reconnaissance import RECONNAISSANCE_MISSIONS, Reconnaissance
from rulebook.ruins_and_tomb_raiders.rival_missions import (
    CaptiveState,
    ListedMission,
    MissionEarned,
    MissionEffectState,
    MissionTarget,
    captured_model,
    mission_earned,
)
from rulebook.ruins_and_tomb_raiders.sabotage import (
    DESTROY_COMMUNICATION_TURNS,
    SABOTAGE_MISSIONS,
    Sabotage,
    theft_roll,
)
from rulebook.ruins_and_tomb_raiders.tomb_raid import MissionKind, RaidResult
from rulebook.turn.aftermath.sheets import BattleA
from rulebook.turn.aftermath.state import PHASE, AftermathState, BattleSettled, add_gold, possessive
from rulebook.turn.aftermath.tomb_raids import promoted, raiders_recover

RECONNAISSANCE = MissionKind.RECONNAISSANCE.value
SABOTAGE = MissionKind.SABOTAGE.value
RIVAL_MISSIONS = frozenset({RECONNAISSANCE, SABOTAGE})
SECTIONS: dict[str, tuple[str, tuple[ListedMission, ...]]] = {
    RECONNAISSANCE: ("Reconnaissance", RECONNAISSANCE_MISSIONS),
    SABOTAGE: ("Sabotage", SABOTAGE_MISSIONS),
}
LISTED: dict[str, ListedMission] = {m.mission: m for m in (*RECONNAISSANCE_MISSIONS, *SABOTAGE_MISSIONS)}

# Decision 450: the Reconnaissance delivered in this aftermath, from the target's state at its end.
DELIVERED_NOW = frozenset(
    {
        Reconnaissance.CHARACTER_BIO,
        Reconnaissance.TREASURY_INFO,
        Reconnaissance.ARMY_STATISTICS,
        Reconnaissance.ARTILLERY_INFO,
        Reconnaissance.MAGIC_COLLEGE_RAID,
    }
)


def effect_when(mission: str, target: str, turn: int) -> str:
    """When a pending effect takes effect (decision 450), in the saboteur's result event."""
    words: dict[str, str] = {
        Reconnaissance.ARMY_ORDERS: (
            f"the army's orders of turn {turn + 1} are delivered at that turn's resolution; name one of your "
            "armies on that sheet to hold in response"
        ),
        Reconnaissance.ARMY_CONSTRUCTION_INFO: (
            f"where and at what points when {target} next creates an army; its list once written"
        ),
        Sabotage.DESTROY_COMMUNICATION: (
            f"cancel one support from or to {target} on your sheet of turn {turn + 1} or {turn + 2} "
            f"(it expires after turn {turn + DESTROY_COMMUNICATION_TURNS})"
        ),
        Sabotage.MISLABELED_GOODS: f"the next magic item {target} acquires in the field arrives D2 turns later",
        Sabotage.POISON_WELL: f"{possessive(target)} next battle with a garrison force: it loses 25% before the battle",
        Sabotage.ASSASSINATE_SPIRITUAL_LEADER: f"{possessive(target)} next battle: -1 to all Leadership",
        Sabotage.SAPPERS: f"{possessive(target)} next battle using barricades: D3 of them destroyed, your choice",
        Sabotage.MISDIRECTION: f"the army's orders of turn {turn + 1} revert to Hold at that turn's resolution",
    }
    return words.get(mission, "")


def mission_result(battle: BattleA) -> RaidResult:
    """The spy's result: the skirmish's, as the aftermath's state read it (decision 470); none is a
    failure (no sheet, no success)."""
    return battle.raid_result or RaidResult.FAILURE


def rival_mission_skirmish(state: AftermathState, dice: Dice, events: list[Event], battle: BattleA) -> BattleSettled:
    """A Reconnaissance or Sabotage skirmish: first the effects of the game on both kingdoms' Tomb Raiders
    (the spy's losses; the target's when its own raiders defended), then the spy's result on the charts
    ("If the Recon is a failure, record the effects of the game on your Tomb Raiders. In addition roll on
    the chart"), then what it earned."""
    spy, target = battle.attacker.kingdom, battle.defender.kingdom
    assert spy is not None and target is not None
    section, missions = SECTIONS[battle.mission]
    detail = battle.mission_detail
    desired = str(detail.get("desired", ""))
    result = mission_result(battle)
    # Decision 452: the model captured is one of those left after the losses as filed (neither the
    # killed nor the injured), taken before the Recovery puts the injured back.
    left = _left_after_losses(state, battle)
    raiders_recover(state, dice, events, battle)
    if detail.get("defender") == "raiders":
        raiders_recover(state, dice, events, battle, battle.defender)
    earned = mission_earned(result.value, section, missions, desired, dice, spy=spy, target=target)
    spy_name, target_name = state.kingdoms[spy].name, state.kingdoms[target].name
    province = state.provinces[battle.province]
    desired_label = LISTED[desired].label if desired in LISTED else desired
    what = _earned(state, dice, events, battle, earned, section)
    events.append(
        Event(
            PHASE,
            EventCode.RIVAL_MISSION_RESULT,
            f"{section} against {target_name} ({desired_label}), the skirmish in {province}: {earned.how}. {what}",
            kingdom=spy,
            province=battle.province,
            data={
                "section": section,
                "target": target,
                "desired": desired,
                "result": result.value,
                "earned": earned.mission or "",
                "how": earned.how,
                "draw_face": earned.draw_face,
                "another_face": earned.another_face,
                "capture_face": earned.capture_face,
                "battle": battle.id,
            },
        )
    )
    events.append(
        Event(
            PHASE,
            EventCode.RIVAL_MISSION_REPELLED,
            f"{possessive(spy_name)} Tomb Raiders came to {province}: {_for_the_target(result)}.",
            kingdom=target,
            province=battle.province,
            data={"spy": spy, "result": result.value, "battle": battle.id},
        )
    )
    if earned.capture_face is not None and earned.capture_face <= 2:
        _captured(state, dice, events, battle, left)
    return BattleSettled(
        battle=battle.id,
        result=battle.outcome.attacker.result,
        defender_result=battle.outcome.defender.result,
        victor=battle.outcome.victor,
    )


def _for_the_target(result: RaidResult) -> str:
    """The skirmish's outcome as the target lived it: nothing of what the raiders were after."""
    return {
        RaidResult.SUCCESS: "they won the skirmish and got away",
        RaidResult.DRAW: "the skirmish was a draw and they got away",
        RaidResult.FAILURE: "they were repelled",
    }[result]


def _earned(
    state: AftermathState, dice: Dice, events: list[Event], battle: BattleA, earned: MissionEarned, section: str
) -> str:
    """What the mission earned, done or kept: returns the result event's closing words."""
    mission = earned.mission
    if mission is None:
        return f"Nothing gained ({section})."
    spy, target = battle.attacker.kingdom, battle.defender.kingdom
    assert spy is not None and target is not None
    label = LISTED[mission].label
    army, character = _named(state, battle, mission, target)
    if mission in DELIVERED_NOW:
        state.intelligence_due.append(
            IntelligenceDue(
                spy=spy,
                target=target,
                mission=mission,
                battle=battle.id,
                province=battle.province,
                target_army=army,
                target_character=character,
            )
        )
        return f"{label}: delivered at the end of this aftermath, in your Intelligence (decision 450)."
    if mission == Sabotage.THEFT:
        gold = _theft(state, dice, events, battle)
        return f"Theft: {gold:,} gold taken from {state.kingdoms[target].name} (Sabotage)."
    turn = state.turn
    effect = MissionEffectState(
        id=min([0, *state.world.mission_effects]) - 1,
        kingdom=spy,
        target=target,
        mission=mission,
        earned_turn=turn,
        target_army=army,
        target_character=character,
        data={"battle": battle.id, "how": earned.how},
        expires_turn=turn + DESTROY_COMMUNICATION_TURNS if mission == Sabotage.DESTROY_COMMUNICATION else None,
    )
    state.world.mission_effects[effect.id] = effect
    return f"{label}, pending: {effect_when(mission, state.kingdoms[target].name, turn)} (decision 450)."


def _named(state: AftermathState, battle: BattleA, mission: str, target: int) -> tuple[int | None, int | None]:
    """The army and character the mission is about: the sheet's; for a mission the draw's 4-5 reached that
    names one the sheet did not (decision 475), the target's Warlord (else its character of lowest id) or
    its field army of most points (ties: lowest id)."""
    detail = battle.mission_detail
    army = _int(detail.get("target_army"))
    character = _int(detail.get("target_character"))
    kind = LISTED[mission].target
    if kind is MissionTarget.ARMY and army is None:
        armies = sorted(
            (a for a in state.armies.values() if a.kingdom == target and not a.disbanded),
            key=lambda a: (-state.army_points(a.id), a.id),
        )
        army = armies[0].id if armies else None
    if kind is MissionTarget.CHARACTER and character is None:
        living = sorted(
            (c for c in state.characters.values() if c.kingdom == target and c.alive),
            key=lambda c: (c.role != "warlord", c.id),
        )
        character = living[0].id if living else None
    return army, character


def _int(value: Any) -> int | None:
    return int(value) if value not in (None, "") else None


def _theft(state: AftermathState, dice: Dice, events: list[Event], battle: BattleA) -> int:
    """Theft: the D6's gold, out of the target's treasury and into the saboteur's, a ledger row in each.
    Never more than the target holds (decision 476): an empty treasury gives nothing."""
    spy, target = battle.attacker.kingdom, battle.defender.kingdom
    assert spy is not None and target is not None
    face, rolled = theft_roll(dice, saboteur=spy, target=target)
    gold = min(rolled, max(state.kingdoms[target].treasury, 0))
    spy_name, target_name = state.kingdoms[spy].name, state.kingdoms[target].name
    short = f" (the treasury held only {gold:,}; decision 476)" if gold < rolled else ""
    data = {"face": face, "gold": gold, "rolled": rolled, "saboteur": spy, "target": target}
    if gold:
        add_gold(state, target, -gold)
        add_gold(state, spy, gold)
    events.append(
        Event(
            PHASE,
            EventCode.THEFT,
            f"Theft: {possessive(spy_name)} Tomb Raiders stole {gold:,} gold from {target_name} (a {face}: "
            f"{rolled:,}){short} (Sabotage).",
            kingdom=spy,
            province=battle.province,
            gold=gold,
            ledger_reason=LedgerReason.THEFT if gold else "",
            data=data,
        )
    )
    events.append(
        Event(
            PHASE,
            EventCode.THEFT,
            f"Theft: {possessive(spy_name)} Tomb Raiders stole {gold:,} gold from your treasury (Sabotage).",
            kingdom=target,
            province=battle.province,
            gold=-gold,
            ledger_reason=LedgerReason.THEFT if gold else "",
            data=data,
        )
    )
    return gold


def _left_after_losses(state: AftermathState, battle: BattleA) -> TombRaiders | None:
    """The spy's force less the models that did not go (out of action this turn: Recovery) and those its
    sheet filed as killed or injured (decision 452)."""
    spy = battle.attacker.kingdom
    force = state.tomb_raiders.get(spy) if spy is not None else None
    if spy is None or force is None:
        return None
    lost: dict[str, int] = dict(state.stayed_home.get(spy, {}))
    for r in battle.attacker.raiders:
        lost[r.entry] = lost.get(r.entry, 0) + r.killed + r.injured
    return models_killed(force, lost).force


def _captured(
    state: AftermathState, dice: Dice, events: list[Event], battle: BattleA, left: TombRaiders | None
) -> None:
    """The failure chart's 1-2: "One random model is captured", of the models left after the skirmish's
    losses as filed (decision 452), after the Recovery (decision 477). It leaves the spy's force and is held
    by the target (decision 453); a captured Captain is replaced as a dead one is (decision 477)."""
    spy, target = battle.attacker.kingdom, battle.defender.kingdom
    assert spy is not None and target is not None
    force = state.tomb_raiders.get(spy)
    if force is None or left is None:
        return
    name = captured_model(left, dice, spy=spy, target=target)
    if name is None or force.entry(name) is None:
        return
    entry = force.entry(name)
    assert entry is not None
    casualties = models_killed(force, {name: 1})
    after = casualties.force
    if casualties.captain_killed and after.captain is None:
        after = promoted(state, events, spy, force, after)
    state.tomb_raiders[spy] = after
    captive = CaptiveState(
        id=min([0, *state.world.captives]) - 1,
        captor=target,
        owner=spy,
        entry=entry.name,
        record=captive_record(entry),  # the shape returned_to_force reads back
        captured_turn=state.turn,
    )
    state.world.captives[captive.id] = captive
    spy_name, target_name = state.kingdoms[spy].name, state.kingdoms[target].name
    data = {"captive": captive.id, "entry": entry.name, "captor": target, "owner": spy}
    events.append(
        Event(
            PHASE,
            EventCode.RAIDER_CAPTURED,
            f"One of {possessive(spy_name)} Tomb Raiders ({entry.name}) is captured by {target_name} and leaves the "
            "force (Reconnaissance, Sabotage: a failure).",
            kingdom=spy,
            province=battle.province,
            data=data,
        )
    )
    events.append(
        Event(
            PHASE,
            EventCode.RAIDER_CAPTURED,
            f"Your guards captured one of {possessive(spy_name)} Tomb Raiders ({entry.name}): decide its fate on a "
            "later order sheet (release, ransom through a Transfer of Gold, execution; decision 453).",
            kingdom=target,
            province=battle.province,
            data=data,
        )
    )


# -- the deliveries, at the aftermath's end ------------------------------------------------------------


def intelligence_delivered(state: AftermathState, events: list[Event]) -> None:
    """Decision 471: each Reconnaissance earned in this aftermath and delivered now is read from the
    target's state at the aftermath's end (after every battle's gold, retreats and injuries): an
    INTELLIGENCE event of the spy's alone, its `data` the information."""
    for due in state.intelligence_due:
        info = _information(state, events, due)
        label = LISTED[due.mission].label
        target_name = state.kingdoms[due.target].name
        if due.mission == Reconnaissance.ARMY_STATISTICS and info.get("found") and info["list_due"]:
            _list_awaited(state, due)
        events.append(
            Event(
                PHASE,
                EventCode.INTELLIGENCE,
                f"Intelligence on {target_name}, {label} (Reconnaissance): {intelligence_text(due.mission, info)}",
                kingdom=due.spy,
                data={
                    "mission": due.mission,
                    "label": label,
                    "target": due.target,
                    "target_name": target_name,
                    "turn": state.turn,
                    "battle": due.battle,
                    "info": info,
                },
            )
        )
    state.intelligence_due.clear()


def _list_awaited(state: AftermathState, due: IntelligenceDue) -> None:
    """Decision 562: Army Statistics of an army whose list is due tells its location and points now, and
    an effect kept pending delivers its list at the first later resolution that finds it written."""
    assert due.target_army is not None
    effect = MissionEffectState(
        id=min([0, *state.world.mission_effects]) - 1,
        kingdom=due.spy,
        target=due.target,
        mission=due.mission,
        earned_turn=state.turn,
        data={"battle": due.battle},
    )
    state.world.mission_effects[effect.id] = effect
    awaiting_list(state.world, effect, due.target_army)


def _information(state: AftermathState, events: list[Event], due: IntelligenceDue) -> dict[str, Any]:
    world = state.world
    if due.mission == Reconnaissance.TREASURY_INFO:
        # The turn's rows written before the aftermath, then this aftermath's own (decision 472).
        rows = (
            *state.spied.ledger.get(due.target, ()),
            *(
                LedgerRow(str(e.ledger_reason), e.gold, e.text[:200])
                for e in events
                if e.kingdom == due.target and e.gold
            ),
        )
        return treasury_info(world, due.target, rows)
    if due.mission == Reconnaissance.CHARACTER_BIO:
        character = world.characters.get(due.target_character) if due.target_character is not None else None
        if character is not None and (character.kingdom != due.target or not character.alive):
            character = None
        facts = state.spied.characters.get(character.id) if character is not None else None
        unit = state.units.get(character.unit) if character is not None else None
        return character_bio(world, character, facts, unit)
    if due.mission == Reconnaissance.ARMY_STATISTICS:
        army = due.target_army
        known = army is not None and (army in world.armies or army in world.garrisons)
        if army is not None and known and world.army(army).kingdom != due.target:
            army = None
        return army_statistics(world, army)
    if due.mission == Reconnaissance.ARTILLERY_INFO:
        return artillery_info(world, due.target)
    return magic_college_raid(world, due.target, state.spied.characters)


def _where(info: Mapping[str, Any]) -> str:
    return f"{info['army_name']} in {info['province']} {info['province_name']}"


def intelligence_text(mission: str, info: Mapping[str, Any]) -> str:
    """The information in words, for the event's text (the report's structured rows read `data`)."""
    if mission == Reconnaissance.TREASURY_INFO:
        spent = "; ".join(
            f"{r['amount']:,} on {r['reason']}" + (f" ({r['note']})" if r["note"] else "") for r in info["spent"]
        )
        return f"the treasury holds {info['treasury']:,} gold; spent this turn: {spent or 'nothing'}."
    if mission == Reconnaissance.CHARACTER_BIO:
        if not info.get("found"):
            return "the character is no longer on the map."
        where = _where(info["where"]) if info.get("where") else "not with an army"
        parts = [
            f"{info['name']} ({info['role']}{', ' + info['archetype'] if info['archetype'] else ''}), {where}",
            f"items: {', '.join(info['items']) or 'none'}",
            f"abilities: {', '.join(info['abilities']) or 'none'}",
            f"injuries: {', '.join(i['label'] for i in info['injuries']) or 'none'}",
        ]
        if info.get("wizard_level"):
            parts.insert(1, f"Wizard, level {info['wizard_level']}")
        return "; ".join(parts) + "."
    if mission == Reconnaissance.ARMY_STATISTICS:
        if not info.get("found"):
            return "the army is no longer on the map."
        if info["list_due"]:
            return (
                f"{_where(info)}, {info['points']:,} points (its list is not entered yet: it reaches you at the first "
                "resolution after it is written)."
            )
        units = ", ".join(f"{u['models']} {u['name']}" for u in info["units"])
        return f"{_where(info)}: {units or 'no units'} ({info['points']:,} points, characters left out)."
    if mission == Reconnaissance.ARTILLERY_INFO:
        machines = "; ".join(f"{m['number']} {m['type']} ({_where(m)})" for m in info["machines"])
        return f"{machines or 'no artillery or war machines'}."
    mages = "; ".join(f"{m['name']}, level {m['level']} ({_where(m)})" for m in info["mages"])
    return f"{info['count']} mage{'s' if info['count'] != 1 else ''}: {mages or 'none'}."
