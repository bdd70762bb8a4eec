"""Support and Support Arrival (D6): the detachments bordering armies send to a battle, an ally's
among them (Allies: Alliance Support Arrival), within the 500-point cap, and the supports refused
or unused (pure Python)."""

from __future__ import annotations

from kernel.dice import Dice
from kernel.event_codes import EventCode
from kernel.events import Event
from rulebook.allies.chart import ALLIANCE_SUPPORT_POINTS, support_arrival
from rulebook.turn.fight_battles import PHASE
from rulebook.turn.fight_battles.ancient_dead import is_ancient_dead
from rulebook.turn.fight_battles.destroy_communication import support_cut
from rulebook.turn.state import BattleS, SupportS, TurnState
from rulebook.turn.write_orders.records import SUPPORTING_ORDERS, ArmyOrder, OrderKind
from rulebook.world import ArmyState

SUPPORT_DETACHMENT_MAX = 200  # Support: one detachment of core troops
SUPPORT_MAX = 500  # Support: all support of one side, allies, fortification and garrisons included

SUPPORT_DELAYED = "Unexpected Delay"  # rolls for arrival as reserves from turn 2
SUPPORT_ON_TIME = "On Time"
# Support Arrival (D6).
SUPPORT_ARRIVAL: dict[int, str] = {
    1: SUPPORT_DELAYED,
    2: SUPPORT_DELAYED,
    3: SUPPORT_ON_TIME,
    4: SUPPORT_ON_TIME,
    5: SUPPORT_ON_TIME,
    6: SUPPORT_ON_TIME,
}

# Reasons a support does not take place (Event "support-refused", data["reason"]).
REFUSED_ALREADY_SUPPORTING = "already-supporting"
REFUSED_IN_BATTLE = "supporter-in-battle"
REFUSED_CO_OCCUPYING = "co-occupying"
REFUSED_DISBANDED = "disbanded"
REFUSED_ANCIENT_DEAD = "ancient-dead"
REFUSED_NO_SIDE = "no-side"
REFUSED_NOT_ADJACENT = "not-adjacent"
REFUSED_CAP = "support-cap"
REFUSED_NO_TROOPS = "no-troops"


def supports(
    state: TurnState,
    battle: BattleS,
    fighting: set[int],
    supporting: set[int],
    supporters: list[ArmyState],
    dice: Dice,
    events: list[Event],
) -> None:
    """Support (B3): detachments of at most 200 points, at most 500 points a side with fortification
    and garrison, one battle per supporting army, none from an army in a battle. Support Arrival is
    rolled for each detachment that takes place. The army standing where its garrison defends
    supports it first (Battle for Towns, Cities, and Capitols), then the armies standing in the
    province beside their ally's side (Allies, decisions 550 and 551), from where they stand."""
    province = state.provinces[battle.province]
    total = {
        "attacker": 0,
        # A garrison defending is the main force, not support; supporting an army it counts.
        "defender": battle.fortified_points + (0 if battle.garrison_defends else battle.garrison_points),
    }
    # The support that stands in the province comes first (decision 35): the army beside its
    # garrison, then the armies beside their ally's side (decisions 550, 551), then the detachments
    # of the bordering armies. Those standing there need no order and border nothing.
    candidates = [(state.armies[a], True) for a in battle.beside if a != battle.army_with_garrison]
    candidates += [(army, False) for army in supporters if army.id not in battle.beside]
    if battle.army_with_garrison is not None:
        candidates.insert(0, (state.armies[battle.army_with_garrison], True))
    for supporter, with_garrison in candidates:
        army = state.armies[supporter.id]  # as the battles before this one left it
        side = _side(state, battle, army)
        allied = side is not None and army.kingdom not in (battle.attacker_kingdom, battle.defender_kingdom)
        if with_garrison:
            reason, why = _refusal_beside_garrison(state, army)
        else:
            reason, why = _refusal(state, army, battle, side, fighting, supporting)
        points = 0
        if reason is None and side is not None:
            # Allies: "support adjacent ally armies in battle with 300 points of core troops".
            detachment = ALLIANCE_SUPPORT_POINTS if allied else SUPPORT_DETACHMENT_MAX
            points = min(detachment, army.points, SUPPORT_MAX - total[side])
            # Each refusal gives its own reason, never another's.
            if army.points <= 0:
                reason, why = REFUSED_NO_TROOPS, "it has no troops left to send"
            elif points <= 0:
                reason, why = REFUSED_CAP, f"the {side} already has {SUPPORT_MAX} points of support"
        if reason is not None or side is None:
            events.append(
                Event(
                    PHASE,
                    EventCode.SUPPORT_REFUSED,
                    f"{army.name} does not support the battle in {province}: {why}.",
                    kingdom=army.kingdom,
                    army=army.id,
                    province=battle.province,
                    data={"battle": battle.province, "reason": reason, "side": side},
                )
            )
            continue
        if not with_garrison and support_cut(state, battle, army, side, events):
            continue  # Sabotage, Destroy Communication: the support is cancelled, the army sends nothing
        supporting.add(army.id)
        total[side] += points
        if allied:
            _allied_detachment(state, battle, army, side, points, dice, events)
        else:
            _detachment(state, battle, army, side, points, dice, events)


def _allied_detachment(
    state: TurnState, battle: BattleS, army: ArmyState, side: str, points: int, dice: Dice, events: list[Event]
) -> None:
    """An ally's detachment (Allies, AL3): at most 300 points of core troops, its arrival rolled on
    the Alliance Support Arrival table (-1 for Distrusted Allies). Its own kingdom and the ally it
    supports are told (the rules reveal a supporting army to its ally, decision 139)."""
    province = state.provinces[battle.province]
    ally = battle.attacker_kingdom if side == "attacker" else battle.defender_kingdom
    alliance = state.world.alliance_between(army.kingdom, ally)
    assert alliance is not None and ally is not None
    distrusted = alliance.trust.value == "D"
    roll = dice.roll(
        "D6",
        purpose=f"{army.name}: alliance support arrival in {province}" + (" (-1 Distrusted)" if distrusted else ""),
        kingdoms=[army.kingdom, ally],
        armies=[army.id],
    ).total
    modified, row = support_arrival(roll, alliance.trust)
    label = SUPPORT_DELAYED if row.code == "unexpected-delay" else SUPPORT_ON_TIME
    battle.supports.append(
        SupportS(army=army.id, kingdom=army.kingdom, side=side, points=points, arrival=max(modified, 1))
    )
    if label == SUPPORT_DELAYED:
        battle.notes.append(
            f"{army.name}'s allied detachment is delayed: it arrives as reserves, 4+ on turn 2, 3+ on turn 3, "
            "2+ on turns 4-6, from any friendly board edge, and may not charge that turn (Alliance Support Arrival)."
        )
    rolled = f"{roll}-1={modified}" if distrusted else f"{roll}"
    words = f"{points:,} points of core troops to the {side} in {province}; Alliance Support Arrival {rolled}: {label}"
    data = {
        "battle": battle.province,
        "side": side,
        "points": points,
        "arrival": max(modified, 1),
        "roll": roll,
        "result": label,
        "ally": ally,
        "trust": alliance.trust.value,
    }
    events.append(
        Event(
            PHASE,
            EventCode.SUPPORT,
            f"{army.name} supports its ally {state.kingdoms[ally].name} with {words} (Allies).",
            kingdom=army.kingdom,
            army=army.id,
            province=battle.province,
            data=data,
        )
    )
    events.append(
        Event(
            PHASE,
            EventCode.ALLY_SUPPORT,
            f"Your ally {state.kingdoms[army.kingdom].name}'s army {army.name} sends {words} (Allies).",
            kingdom=ally,
            province=battle.province,
            data={**data, "ally": army.kingdom},
        )
    )


def _refusal_beside_garrison(state: TurnState, army: ArmyState) -> tuple[str | None, str]:
    """The army standing where its garrison defends, or beside its ally's side in the battle's
    province (decisions 550, 551), fights beside it as a support detachment; it needs no order and
    borders nothing. The Ancient Dead's armies support no one."""
    if army.disbanded:
        return REFUSED_DISBANDED, "it was disbanded"
    if is_ancient_dead(state, army.kingdom):
        return REFUSED_ANCIENT_DEAD, "the armies of the Ancient Dead cannot support each other"
    return None, ""


def _detachment(
    state: TurnState, battle: BattleS, army: ArmyState, side: str, points: int, dice: Dice, events: list[Event]
) -> None:
    """A detachment joins the battle: its Support Arrival roll, its record and its event."""
    province = state.provinces[battle.province]
    arrival = dice.roll(
        "D6",
        purpose=f"{army.name}: support arrival in {province}",
        kingdoms=[army.kingdom],
        armies=[army.id],
    ).total
    label = SUPPORT_ARRIVAL[arrival]
    battle.supports.append(SupportS(army=army.id, kingdom=army.kingdom, side=side, points=points, arrival=arrival))
    if label == SUPPORT_DELAYED:
        battle.notes.append(
            f"{army.name}'s detachment is delayed: it arrives as reserves, 4+ on turn 2, 3+ on turn 3, "
            "2+ on turns 4-6, from a friendly board edge, and may not charge that turn (Support Arrival)."
        )
    cut = (
        f", cut to {points:,} by the {SUPPORT_MAX}-point cap"
        if points < min(SUPPORT_DETACHMENT_MAX, army.points)
        else ""
    )
    events.append(
        Event(
            PHASE,
            EventCode.SUPPORT,
            f"{army.name} sends a detachment of {points:,} points{cut} to the {side} in {province}; "
            f"Support Arrival {arrival}: {label}.",
            kingdom=army.kingdom,
            army=army.id,
            province=battle.province,
            data={"battle": battle.province, "side": side, "points": points, "arrival": arrival, "result": label},
        )
    )


def _side(state: TurnState, battle: BattleS, army: ArmyState) -> str | None:
    """The side an army's support joins: its own kingdom's, else its ally's (Allies: "Armies may
    support adjacent ally armies in battle")."""
    if army.kingdom == battle.attacker_kingdom:
        return "attacker"
    if army.kingdom == battle.defender_kingdom:
        return "defender"
    if state.allied(army.kingdom, battle.attacker_kingdom):
        return "attacker"
    if state.allied(army.kingdom, battle.defender_kingdom):
        return "defender"
    return None


def supporters_by_province(state: TurnState) -> dict[int, list[ArmyState]]:
    """Armies ordered to support a battle (Support, or a Move or Forced March with support), by the province
    supported and then by id, so the 500-point cap falls the same way every time. Built once
    per phase: scanning every army for every battle grew with armies x battles."""
    index: dict[int, list[ArmyState]] = {}
    for army_id in sorted(state.armies):
        order = state.orders.get(army_id)
        if order is not None and order.support is not None and order.kind in SUPPORTING_ORDERS:
            index.setdefault(order.support, []).append(state.armies[army_id])
    return index


def _refusal(
    state: TurnState,
    army: ArmyState,
    battle: BattleS,
    side: str | None,
    fighting: set[int],
    supporting: set[int],
) -> tuple[str | None, str]:
    """Why `army` cannot support `battle` (a reason code and the words), or (None, "")."""
    if army.id in supporting:
        return REFUSED_ALREADY_SUPPORTING, "it already supports another battle; each army supports one"
    if army.id in fighting:
        return REFUSED_IN_BATTLE, "it is in a battle itself, and armies in battles may not send support"
    if army.disbanded:
        return REFUSED_DISBANDED, "it was disbanded"
    if army.co_occupying:
        return REFUSED_CO_OCCUPYING, "it shares a friendly army's province and does not count as being there"
    if is_ancient_dead(state, army.kingdom):
        return REFUSED_ANCIENT_DEAD, "the armies of the Ancient Dead cannot support each other"
    if side is None:
        return REFUSED_NO_SIDE, "none of its kingdom's forces fights there"
    # The start province is not in the state. A supporter that stayed put must border the battle
    # now; one that moved (it stands in its Move's target, or in a province of its Forced March's
    # path: one when fatigued or stopped, two when it marched, decision 588) was checked against its
    # start province when the orders were normalised, so its support is accepted from wherever it
    # ended. A march's path never holds its start province (the sheet check refuses that), and a
    # mutinied march was turned to Hold (no support, decision 588), as a held Move is (623).
    if not _moved(state.orders[army.id], army) and not state.adjacent(army.province, battle.province):
        return REFUSED_NOT_ADJACENT, f"{state.provinces[army.province]} does not border it"
    return None, ""


def _moved(order: ArmyOrder, army: ArmyState) -> bool:
    """Whether the army stands where its Move or Forced March took it this turn."""
    if order.kind is OrderKind.FORCED_MARCH:
        return army.province in order.path
    return order.kind is OrderKind.MOVE and order.target == army.province


def supports_without_battle(state: TurnState, battles: list[BattleS], fighting: set[int], events: list[Event]) -> None:
    """A support order names a province where no battle is fought: tell the player it did nothing."""
    fought = {b.province for b in battles}
    for army in sorted(state.armies.values(), key=lambda a: a.id):
        order = state.orders.get(army.id)
        if order is None or order.support is None or order.kind not in SUPPORTING_ORDERS:
            continue
        if order.support in fought or army.disbanded or army.id in fighting:
            continue
        events.append(
            Event(
                PHASE,
                EventCode.SUPPORT_NO_BATTLE,
                f"{army.name}'s support goes unused: no battle is fought in {state.provinces[order.support]}.",
                kingdom=army.kingdom,
                army=army.id,
                province=order.support,
                data={"battle": order.support},
            )
        )
