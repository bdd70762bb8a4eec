"""Sabotage, Destroy Communication: a support cancelled at the scheduling of battles (pure Python).
Decisions 450 and 487.

"Cancel one support that is from this kingdom or to this kingdom when you wish, but must be used within 2
turns after success." The saboteur uses it on its sheet of either of the two turns after the success: a
MissionUse naming the effect and the army whose support it cancels (an army of the target's, or any army
supporting a battle of the target's side), or no army: the first support from or to the target at this
turn's scheduling, in the battles' order (the target's armies are its secret: the saboteur may know none
of them; decision 487). When the support is given, it is not: the army sends no
detachment, and the saboteur, the army's kingdom and (when another) the kingdom it would have supported
are told. An effect not used by the end of its last turn's scheduling expires.
"""

from __future__ import annotations

from kernel.event_codes import EventCode
from kernel.events import Event
from rulebook.ruins_and_tomb_raiders.mission_effects import expired, pending, used
from rulebook.ruins_and_tomb_raiders.sabotage import DESTROY_COMMUNICATION_TURNS, Sabotage
from rulebook.turn.fight_battles import PHASE
from rulebook.turn.state import BattleS, TurnState
from rulebook.turn.write_orders.mission_uses import last_turn
from rulebook.world import ArmyState

WHY = "(Sabotage: Destroy Communication)"


def support_cut(state: TurnState, battle: BattleS, army: ArmyState, side: str | None, events: list[Event]) -> bool:
    """Whether a pending Destroy Communication the saboteur's sheet of this turn aims at `army` cancels its
    support of `battle` (from the target, or to the target's side); if so the effect is used and the
    kingdoms concerned are told."""
    supported = {"attacker": battle.attacker_kingdom, "defender": battle.defender_kingdom}.get(side or "")
    for effect in pending(state.world, Sabotage.DESTROY_COMMUNICATION):
        if state.world.turn > last_turn(effect) or effect.target not in (army.kingdom, supported):
            continue
        sheet = state.sheets.get(effect.kingdom)
        # The army named, or none: the first support from or to the target (decision 487).
        use = next(
            (u for u in (sheet.mission_uses if sheet else ()) if u.effect == effect.id and u.army in (None, army.id)),
            None,
        )
        if use is None:
            continue
        used(state.world, effect)
        province = state.provinces[battle.province]
        data = {"effect": effect.id, "battle": battle.province, "side": side}
        target = state.kingdoms[effect.target].name
        # The saboteur learns the army only when it named it: the target's armies are its secret.
        cut = (
            f"{army.name}'s communication: its support of the battle in {province} is cancelled"
            if use.army is not None
            else f"the communication of a support from or to {target}: the battle in {province} does not get it"
        )
        events.append(
            Event(
                PHASE,
                EventCode.SUPPORT_CANCELLED,
                f"Your saboteurs cut {cut} {WHY}.",
                kingdom=effect.kingdom,
                province=battle.province,
                data={**data, "target_army": use.army},
            )
        )
        told = {army.kingdom} | ({supported} if supported is not None and supported != effect.kingdom else set())
        for kingdom in sorted(told - {effect.kingdom}):
            text = (
                f"{army.name}'s orders never arrive: its support of the battle in {province} is cancelled {WHY}."
                if kingdom == army.kingdom
                else f"The support your side expected in {province} never arrives: its orders were lost {WHY}."
            )
            events.append(
                Event(
                    PHASE,
                    EventCode.SUPPORT_CANCELLED,
                    text,
                    kingdom=kingdom,
                    army=army.id if kingdom == army.kingdom else None,
                    province=battle.province,
                    data=data,
                )
            )
        return True
    return False


def communication_expired(state: TurnState, events: list[Event]) -> None:
    """Each Destroy Communication still pending after its last turn's scheduling expires; its saboteur is
    told."""
    for effect in pending(state.world, Sabotage.DESTROY_COMMUNICATION):
        if state.world.turn < last_turn(effect):
            continue
        expired(state.world, effect)
        events.append(
            Event(
                PHASE,
                EventCode.SABOTAGE_EXPIRED,
                f"Your Destroy Communication against {state.kingdoms[effect.target].name} was not used within "
                f"{DESTROY_COMMUNICATION_TURNS} turns of its success: it is lost {WHY}.",
                kingdom=effect.kingdom,
                data={"effect": effect.id, "mission": effect.mission},
            )
        )
