"""7. Aftermath: the victor keeps the province (taking it, if it moved in: the Elite Defense Force
there perishes, its town or city is looted or sacked), the loser retreats or is wiped out; a Rogue
Kingdom's scouting skirmish (pure Python).

Rulebook: 7. Aftermath, Army Restrictions (fewer than 1000 points cannot claim), Battle for Towns,
Cities, and Capitols (the Elite Defense Force perishes with its town), Allies (retreat into an
allied province), Loss of the Capitol, Return to the Tomb, Rogue Kingdom (decisions 231, 383).
"""

from __future__ import annotations

from dataclasses import replace

from kernel.dice import Dice
from kernel.event_codes import EventCode
from kernel.events import Event
from rulebook.loss_of_the_capitol import capitol_taken
from rulebook.tables import ARMY_MIN_POINTS
from rulebook.turn.aftermath.end_of_turn import result_events
from rulebook.turn.aftermath.looting import SACK_GOLD, loot
from rulebook.turn.aftermath.sheets import BattleA, SideA
from rulebook.turn.aftermath.state import PHASE, AftermathState, BattleSettled, army_name, disband, put_army
from rulebook.turn.aftermath.succession import characters_go_with_their_army, heir_choices
from rulebook.turn.fight_battles.towns_cities_capitols import elite_defense_perishes
from rulebook.world import ArmyState, ProvinceState


def province_and_retreats(
    state: AftermathState,
    dice: Dice,
    events: list[Event],
    battle: BattleA,
    province: ProvinceState,
    victor: str | None,
    entry_refused: str = "",
) -> None:
    """The victor keeps the province and the loser retreats; with no victor, an army that moved in
    goes back. `entry_refused`: why the attacker may not move in though it wins (a Tomb Raid that did
    not succeed, decision 430): it is kept out, and the province stays as it was."""
    attacker, defender = battle.attacker, battle.defender
    retreating: list[int] = []
    if victor is not None:
        winner, loser = (attacker, defender) if victor == "attacker" else (defender, attacker)
        if loser.army is not None:
            retreating.append(loser.army)
        # Every other army there that is not the victor's or its ally's was on the side that lost:
        # the loser's army that stood where its garrison fought (Battle for Towns, Cities, and
        # Capitols), its ally's beside it (Allies, decision 550), an ally whose withdrawn support
        # broke the alliance. None may stay beside the victor.
        retreating += _enemies_there(state, battle.province, winner.kingdom, retreating)
        # The victor keeps the province: the attacker moved in and takes it; so does a defender
        # that moved in as well (both moved). A defender that stood its ground keeps what it held.
        if victor == "attacker" and entry_refused and attacker.army is not None:
            kept_out(state, events, attacker.army, battle.province, entry_refused, "Tomb Raid")
        elif (victor == "attacker" or battle.both_moved) and may_claim(state, events, winner, province):
            conquer(state, dice, events, province, winner)
        elif _allies_province(state, winner, province):
            # A defender that stood its ground in its ally's province: it kept it for its ally too.
            kept_for_ally(state, events, province, winner)
    else:
        # No victor: the province stays as it was; an army that moved in goes back, a
        # defender that stood its ground stays (docs/rules-decisions.md).
        if attacker.army is not None:
            retreating.append(attacker.army)
        # Both moved in: the defender's army goes back too, and so does the army that moved into its
        # own town and sent its garrison to the table, which has no army row of its own but an Elite
        # Defense Force's, which never leaves (decision 586).
        defender_leaves = battle.both_moved or (defender.army is not None and battle.outcome.defender.result.is_loss)
        if defender_leaves:
            if defender.army is not None:
                retreating.append(defender.army)
            # Nobody holds the province: the armies beside either side (its ally's) leave with it (decision 550).
            retreating += [
                a.id
                for a in _armies_there(state, battle.province, retreating)
                if any(a.kingdom == k or state.allied(a.kingdom, k) for k in (attacker.kingdom, defender.kingdom))
            ]
        else:
            # The defender stands its ground: the attacker's ally that came in with it goes back too.
            retreating += _enemies_there(state, battle.province, defender.kingdom, retreating)
        events.append(
            Event(
                PHASE,
                EventCode.NO_VICTOR,
                f"Nobody won the battle in {province}: it stays "
                + (f"with {state.kingdoms[province.controller].name}." if province.controller else "neutral."),
                province=battle.province,
            )
        )
    for army_id in retreating:
        retreat(state, events, army_id, battle.province)


def _armies_there(state: AftermathState, province: int, leaving: list[int]) -> list[ArmyState]:
    """The armies standing in `province`, by id, but those in `leaving`."""
    return [
        a
        for a in sorted(state.armies.values(), key=lambda a: a.id)
        if a.province == province and not a.disbanded and a.id not in leaving
    ]


def _enemies_there(state: AftermathState, province: int, holder: int | None, leaving: list[int]) -> list[int]:
    """The armies in `province`, but those in `leaving`, that may not stay beside the armies of
    `holder`, the kingdom that holds it after the battle: all but its own and its ally's."""
    return [
        a.id
        for a in _armies_there(state, province, leaving)
        if a.kingdom != holder and not state.allied(a.kingdom, holder)
    ]


def may_claim(state: AftermathState, events: list[Event], side: SideA, province: ProvinceState) -> bool:
    """Army Restrictions: "Armies less than 1000 points cannot claim provinces" (R1). The army
    counts as it fought the battle: its points when the victor keeps the province, the first
    step of 7. Aftermath, before Casualty Recovery applies the battle's losses (the same count a
    move's claim uses). Its support detachments return to their parents and do not count."""
    if side.army is None or side.kingdom is None or province.controller == side.kingdom:
        return True
    if _allies_province(state, side, province):
        return True  # it claims nothing there, whatever its size: it keeps it for its ally (decision 552)
    army = state.world.army(side.army)
    if army.points >= ARMY_MIN_POINTS:
        return True
    holder = state.kingdoms[province.controller].name if province.controller is not None else None
    stays = f"with {holder}" if holder else "neutral"
    # Looting follows the capture (Orcs & Goblins: "When they capture a city or town"; a looted
    # town "becomes under the control of the conquerors"): no claim, no looting or sacking.
    untouched = f"; its {province.settlement} is neither looted nor sacked" if province.settlement in SACK_GOLD else ""
    events.append(
        Event(
            PHASE,
            EventCode.TOO_SMALL_TO_CLAIM,
            f"{army.name} won with {army.points:,} points, fewer than {ARMY_MIN_POINTS:,}: it cannot claim "
            f"{province}, which stays {stays}{untouched} (Army Restrictions).",
            kingdom=army.kingdom,
            army=army.id,
            province=province.number,
            data={"points": army.points},
        )
    )
    return False


def conquer(state: AftermathState, dice: Dice, events: list[Event], province: ProvinceState, side: SideA) -> None:
    """The winning side takes the province: the Elite Defense Force there perishes, a town or
    city is looted or sacked, control changes. Its own province it simply keeps."""
    winner = side.kingdom
    assert winner is not None  # only a neutral garrison has no kingdom, and it never moves in
    loser = province.controller
    if loser == winner:
        # Nothing to conquer: a kingdom does not loot its own town.
        return
    if state.allied(winner, loser):
        # Allies: "Armies may defend their allies' provinces by fighting battles therein. Control of
        # the province does not change hands if the ally maintains control" (decision 552).
        kept_for_ally(state, events, province, side)
        return
    # Battle for Towns, Cities, and Capitols: should the town or city be conquered, its Elite
    # Defense Force has perished to the last man.
    elite_defense_perishes(
        state.world, events, province=province.number, taker=winner, phase=PHASE, choice=heir_choices(state)
    )
    rogue = loser is not None and state.kingdoms[loser].rogue
    abandoned = ""
    if rogue and province.settlement in SACK_GOLD:
        # Rogue Kingdom: "taking these from a Rogue Kingdom will not give the attacking player a
        # town or city or a chance to loot" (decision 383).
        abandoned = (
            f"; its {province.settlement} is abandoned, without wealth or supplies: no town or city and nothing "
            "to loot (Rogue Kingdom)"
        )
        state.provinces[province.number] = state.provinces[province.number].abandoned()
    elif province.settlement in SACK_GOLD:
        loot(state, dice, events, province, side)
    state.provinces[province.number] = state.provinces[province.number].taken_by(winner)
    events.append(
        Event(
            PHASE,
            EventCode.PROVINCE_CONQUERED,
            f"{state.kingdoms[winner].name} takes {province} with {army_name(state, side.army)}{abandoned}.",
            kingdom=winner,
            army=side.army,
            province=province.number,
            data={"from_kingdom": loser},
        )
    )
    if loser is not None and loser != winner:
        events.append(
            Event(
                PHASE,
                EventCode.PROVINCE_LOST,
                f"{province} is lost to {state.kingdoms[winner].name}.",
                kingdom=loser,
                province=province.number,
            )
        )
        capitol_taken(state.world, events, province=province, taker=winner, phase=PHASE)


def _allies_province(state: AftermathState, side: SideA, province: ProvinceState) -> bool:
    """Whether `province` is held by an ally of the side's kingdom."""
    owner, kingdom = province.controller, side.kingdom
    return kingdom is not None and owner is not None and owner != kingdom and state.allied(kingdom, owner)


def kept_for_ally(state: AftermathState, events: list[Event], province: ProvinceState, side: SideA) -> None:
    """The victor keeps its ally's province for its ally (Allies: "Armies may defend their allies'
    provinces by fighting battles therein. Control of the province does not change hands if the ally
    maintains control of the province"; decisions 552, 582): its own kingdom is told it took nothing,
    and the ally that its province was held for it. The rules reveal an ally's army in the ally's
    province to it (decision 139); the enemy learns nothing more than its own battle's result."""
    winner, owner = side.kingdom, province.controller
    assert winner is not None and owner is not None
    army = army_name(state, side.army)
    ally, own = state.kingdoms[owner].name, state.kingdoms[winner].name
    events.append(
        Event(
            PHASE,
            EventCode.PROVINCE_KEPT_FOR_ALLY,
            f"{army} wins the battle in {province}, a province of its ally {ally}: it keeps it for {ally}, "
            "and control does not change hands (Allies).",
            kingdom=winner,
            army=side.army,
            province=province.number,
            data={"ally": owner},
        )
    )
    events.append(
        Event(
            PHASE,
            EventCode.PROVINCE_KEPT_FOR_ALLY,
            f"Your ally {own}'s army {army} wins the battle in your province {province}: it keeps it for you, "
            "and control does not change hands (Allies).",
            kingdom=owner,
            province=province.number,
            data={"ally": winner},
        )
    )


def _occupied(state: AftermathState, number: int, moving: int, *, elite: bool = True) -> bool:
    """7. Aftermath: "No province may be moved into if it already has an army in it": a field army,
    or an Elite Defense Force, "treated as an army in the field in all manners" (decision 587).
    `elite` False: the Elite Defense Forces do not count (an army kept out of a ruin never left the
    province it stood in beside one)."""
    armies = (*state.armies.values(), *state.garrisons.values()) if elite else state.armies.values()
    return any(a.province == number and not a.disbanded and a.id != moving for a in armies)


def retreat(state: AftermathState, events: list[Event], army_id: int, battle_province: int) -> None:
    """7. Aftermath: back where it came from if it can; else (or if it did not move) to an
    adjacent province without an army: a home territory first, then neutral, then allied
    (Allies: "Armies may retreat into allied provinces. Control of the province does not change
    hands"), then another kingdom's; the lowest number within each. Nowhere: wiped out."""
    if army_id in state.garrisons:
        return  # an Elite Defense Force cannot leave its town (Battle for Towns, Cities, and Capitols)
    army = state.armies[army_id]
    if army.disbanded:
        return
    target: int | None = None
    how = ""
    came_from = state.came_from.get(army_id)
    if came_from is not None and came_from != battle_province and not _occupied(state, came_from, army_id):
        target, how = came_from, "back where it came from"
    else:

        def rank(number: int) -> int:
            controller = state.provinces[number].controller
            if controller == army.kingdom:
                return 0
            if controller is None:
                return 1
            return 2 if state.allied(army.kingdom, controller) else 3

        free = [
            n
            for n in sorted(state.adjacency.get(battle_province, frozenset()))
            if n != battle_province and n in state.provinces and not _occupied(state, n, army_id)
        ]
        if free:
            target = min(free, key=lambda n: (rank(n), n))
            how = ("to its own", "to the neutral", "to the allied", "to the foreign")[rank(target)] + " province"
    if target is None:
        disband(state, army)
        events.append(
            Event(
                PHASE,
                EventCode.WIPED_OUT,
                f"{army.name} has nowhere to retreat from {state.provinces[battle_province]} and is wiped out "
                "(7. Aftermath); its magic items are lost.",
                kingdom=army.kingdom,
                army=army_id,
                province=battle_province,
            )
        )
        # Wiped out, its characters with it; a Warlord among them is succeeded (decision 557).
        characters_go_with_their_army(state, events, army, disbanded=False)
        return
    army = put_army(state, replace(army, province=target))
    events.append(
        Event(
            PHASE,
            EventCode.RETREATED,
            f"{army.name} retreats from {state.provinces[battle_province]} {how} {state.provinces[target]}"
            + (" (it does not claim it)." if state.provinces[target].controller not in (army.kingdom,) else "."),
            kingdom=army.kingdom,
            army=army_id,
            province=target,
            data={"from": battle_province},
        )
    )


def skirmish(state: AftermathState, dice: Dice, events: list[Event], battle: BattleA) -> BattleSettled:
    """Rogue Kingdom, scouting forces (decision 231): "Fight a ruins style battle for control";
    in a ruins battle "the player uses their Tomb Raider force ... If the player loses the
    skirmish, their army may not move into to the province this turn". The army did not fight:
    no casualties, recovery, injuries, experience or victory gold (what the Tomb Raiders lose is
    their own: Maintaining / Changing Tomb Raiders). Won: the army takes the province as any
    victor that moved in (Army Restrictions; a Rogue Kingdom's town gives nothing, decision
    151). Otherwise it goes back where it came from: it never entered."""
    province = state.provinces[battle.province]
    outcome = battle.outcome
    result_events(state, events, battle, province)
    side = battle.attacker
    assert side.army is not None and side.kingdom is not None
    if outcome.victor == "attacker" and may_claim(state, events, side, province):
        conquer(state, dice, events, province, side)
    else:
        why = f"{state.kingdoms[side.kingdom].name}'s Tomb Raiders did not win the skirmish for {province}"
        kept_out(state, events, side.army, battle.province, why, "Ruins")
        # Its ally's army that entered with it (decision 551) may not move in either.
        for army in _armies_there(state, battle.province, [side.army]):
            if state.allied(army.kingdom, side.kingdom) and army.id in state.came_from:
                kept_out(state, events, army.id, battle.province, why, "Ruins")
    return BattleSettled(
        battle=battle.id,
        result=outcome.attacker.result,
        defender_result=outcome.defender.result,
        victor=outcome.victor,
    )


def kept_out(
    state: AftermathState, events: list[Event], army_id: int, battle_province: int, why: str, rule: str
) -> None:
    """Ruins: "their army may not move into to the province this turn": the army that entered for a
    Tomb Raiders' skirmish goes back where it came from (it never entered); with nowhere to go back
    to, the retreat's choices. `why` opens the event's sentence; `rule` closes it."""
    army = state.armies[army_id]
    if army.disbanded:
        return
    back = state.came_from.get(army.id)
    if back is None or back == battle_province or _occupied(state, back, army.id, elite=False):
        retreat(state, events, army.id, battle_province)
        return
    put_army(state, replace(army, province=back))
    events.append(
        Event(
            PHASE,
            EventCode.SKIRMISH_LOST,
            f"{why}: {army.name} may not move into it this turn and stays in {state.provinces[back]} ({rule}).",
            kingdom=army.kingdom,
            army=army.id,
            province=back,
            data={"back_to": back, "from": battle_province},
        )
    )
