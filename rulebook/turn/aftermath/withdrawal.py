"""Support detachments after the battle (7. Aftermath): an ally's detachment that withdrew its
support breaks the alliance; the detachments that fought return to their parent armies (pure Python).

Rulebook: Allies ("Withdraw of support", decision 220), Support. Withdrawal from the battlefield
(a result one level worse) is rulebook.turn.aftermath.results.
"""

from __future__ import annotations

from kernel.event_codes import EventCode
from kernel.events import Event
from rulebook.allies.chart import BreakKind
from rulebook.allies.declarations import alliance_break
from rulebook.turn.aftermath.sheets import BattleA
from rulebook.turn.aftermath.state import PHASE, AftermathState
from rulebook.world import ProvinceState


def support_withdrawn(state: AftermathState, events: list[Event], battle: BattleA) -> None:
    """Allies, "Withdraw of support": an ally whose detachment withdrew its support in the battle
    breaks the alliance (the betrayed receives 2,000 gold; decision 220). Reported on the
    supported side's sheet; an alliance already ended (announced over this turn, or broken by
    another withdrawal) is not broken twice."""
    for side in (battle.attacker, battle.defender):
        for army_id in side.withdrawn:
            ally = state.world.army(army_id).kingdom
            alliance = state.world.alliance_between(side.kingdom, ally)
            if alliance is not None:
                alliance_break(
                    state,
                    alliance,
                    by=ally,
                    how=BreakKind.WITHDRAWAL,
                    phase=PHASE,
                    events=events,
                    province=battle.province,
                )


def detachments_return(state: AftermathState, events: list[Event], battle: BattleA, province: ProvinceState) -> None:
    """Support: each side's detachments that are not disbanded return to their parent armies."""
    for side in (battle.attacker, battle.defender):
        for army_id in side.supports:
            army = state.armies[army_id]
            if not army.disbanded:
                events.append(
                    Event(
                        PHASE,
                        EventCode.DETACHMENT_RETURNED,
                        f"{army.name}'s detachment returns from {province}.",
                        kingdom=army.kingdom,
                        army=army_id,
                        province=battle.province,
                    )
                )
