"""7. Aftermath and 8. End of Turn over a copy of the state (pure Python): the order of the steps.

Per battle, in a fixed order (province number, then battle id): the victor keeps the province and
the loser retreats (or is wiped out); looting or sacking; victory gold; money negotiations;
experience; casualty recovery (one-use troops included); character injuries (and the Warlord's
succession); veteran status; Press the Advantage. Then, over every army that fought, Army
Restrictions: 500 points or less is disbanded. Last, the ends of alliances announced during the End of
Turn (Allies, Announcement).

Each step is a function over the one state (rulebook.turn.aftermath.state), in the module of its
rulebook section: retreats (7. Aftermath), looting (Looting), negotiations (Transfer of Gold),
withdrawal (Allies' withdrawn support, detachments' return), supply_depot (Supply Depot:
carts captured and recaptured), experience (Experience Points,
Stories Are Nice, Veteran Status, Press the Advantage), casualty_recovery (Casualty Recovery),
character_injuries (Character Injury Chart), succession (Warlord), end_of_turn (the results,
8. End of Turn, Army Restrictions), tomb_raids (the Tomb Raid's result, Treasure from the Ruins, the
Tomb Raiders' losses and Recovery; first, the models out of action last turn are back), rival_missions
(Reconnaissance and Sabotage: the charts, a captive, what was earned; the information delivered last).
Rule cases A1-A8.
"""

from __future__ import annotations

from kernel.dice import Dice
from kernel.events import Event
from rulebook.turn.aftermath.casualty_recovery import recovery
from rulebook.turn.aftermath.character_injuries import deep_wounds, injuries, old_wounds, survived
from rulebook.turn.aftermath.end_of_turn import alliances_announced_over, disband_the_small, result_events
from rulebook.turn.aftermath.experience import (
    battle_experience,
    press_the_advantage,
    pressing_general,
    tomb_raiders_story,
)
from rulebook.turn.aftermath.looting import victory_gold_paid
from rulebook.turn.aftermath.negotiations import negotiations
from rulebook.turn.aftermath.retreats import province_and_retreats, skirmish
from rulebook.turn.aftermath.rival_missions import RIVAL_MISSIONS, intelligence_delivered, rival_mission_skirmish
from rulebook.turn.aftermath.sheets import BattleA
from rulebook.turn.aftermath.state import PHASE, AftermathResult, AftermathState, BattleSettled
from rulebook.turn.aftermath.supply_depot import depots_captured
from rulebook.turn.aftermath.tomb_raids import (
    TOMB_RAID,
    entry_refused,
    raid_settled,
    raiders_back_in_action,
    raiders_recover,
    tomb_raid_skirmish,
)
from rulebook.turn.aftermath.withdrawal import detachments_return, support_withdrawn
from rulebook.world import lose_fortifications


def settle_battle(
    state: AftermathState, dice: Dice, events: list[Event], battle: BattleA, fought: set[int]
) -> BattleSettled:
    """The aftermath of one battle, its steps in the rulebook's order; the armies that fought
    (and their detachments' parents) are added to `fought`."""
    if battle.skirmish and battle.mission in RIVAL_MISSIONS:
        # Reconnaissance, Sabotage: the spy's Tomb Raiders against the target's; no army fought.
        settled = rival_mission_skirmish(state, dice, events, battle)
        tomb_raiders_story(state, events, battle)  # Stories Are Nice: to the army the spy names
        return settled
    if battle.skirmish:
        # The Tomb Raiders' skirmish: a plain ruin's Tomb Raid, or the scouting forces of a Rogue
        # Kingdom; either way the raiders' losses and their Recovery follow.
        raid = battle.mission == TOMB_RAID
        settled = (tomb_raid_skirmish if raid else skirmish)(state, dice, events, battle)
        raiders_recover(state, dice, events, battle)
        tomb_raiders_story(state, events, battle)  # Stories Are Nice: to any of the kingdom's armies
        return settled
    province = state.provinces[battle.province]
    outcome = battle.outcome
    sides = {"attacker": battle.attacker, "defender": battle.defender}
    results = {"attacker": outcome.attacker, "defender": outcome.defender}
    for side in sides.values():
        if side.army is not None:
            fought.add(side.army)
        fought.update(side.supports)
    result_events(state, events, battle, province)
    support_withdrawn(state, events, battle)
    depots_captured(state, events, battle, province)  # Supply Depot
    missed: set[int] = set()  # characters who missed the battle (Deep Wound)
    for side in sides.values():
        missed |= deep_wounds(state, events, side, province)
        old_wounds(state, events, side, province)
    refused = ""
    if battle.mission == TOMB_RAID:
        # A sacked town's ruin: the raid goes with the battle against its Ancient Dead garrison
        # (decision 409): the army moves in only on a victory and a successful raid (decision 430).
        refused = entry_refused(state, battle, raid_settled(state, dice, events, battle))
    province_and_retreats(state, dice, events, battle, state.provinces[battle.province], outcome.victor, refused)
    victory_gold_paid(state, events, battle, province)
    negotiations(state, events, battle, province)
    for side_name, side in sides.items():
        result = results[side_name]
        battle_experience(state, events, battle, side, result.result, result.experience_allowed, province)
    # The Generals who led the battle with Press the Advantage, taken before the injury rolls:
    # a Warlord's succession must not hand it to a General who did not lead the battle, and
    # Amnesia rolled now does not undo what he did in it.
    pressing = {side_name: pressing_general(state, side.army) for side_name, side in sides.items()}
    for side_name, side in sides.items():
        opponent = sides["defender" if side_name == "attacker" else "attacker"]
        recovery(state, dice, events, side, results[side_name].result.is_victory, province)
        injuries(state, dice, events, side, province, forced=opponent.backstab)
        survived(state, side, missed)
        press_the_advantage(state, events, side, results[side_name], pressing[side_name], province)
    detachments_return(state, events, battle, province)
    if battle.mission == TOMB_RAID:
        raiders_recover(state, dice, events, battle)
    return BattleSettled(
        battle=battle.id, result=outcome.attacker.result, defender_result=outcome.defender.result, victor=outcome.victor
    )


def resolve_aftermath(state: AftermathState, dice: Dice) -> AftermathResult:
    """Run the aftermath of every battle over a copy of `state` (which is not changed)."""
    work = state.working_copy()
    events: list[Event] = []
    fought: set[int] = set()
    raiders_back_in_action(work, events)  # Recovery: the turn out of action is over (decision 432)
    settled = [
        settle_battle(work, dice, events, b, fought) for b in sorted(work.battles, key=lambda b: (b.province, b.id))
    ]
    disband_the_small(work, events, fought)
    events += lose_fortifications(work.world, PHASE)  # Fortify: a Fortified army retreated or is gone
    alliances_announced_over(work, events)  # Allies, Announcement: the alliance ends with this turn
    intelligence_delivered(work, events)  # Reconnaissance: from the targets' state now (decision 471)
    return AftermathResult(state=work, events=events, battles=settled)
