"""Phases 4-5: normalising the orders and executing them in the rulebook's order
(Raze, Move / Support, Fortify, Recover, Hold), with Don't Pass in the Night, Occupied Province,
Forced March and Multiple Moves into Battle. Pure Python.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import replace

from kernel.dice import Dice
from kernel.event_codes import EventCode
from kernel.events import Event
from rulebook.allies.chart import BreakKind
from rulebook.allies.declarations import alliance_break
from rulebook.player_issues.rogue_kingdom import RogueForce, rogue_kingdom_roll
from rulebook.tables import ARMY_MIN_POINTS, ArmyType
from rulebook.turn.state import Contact, TurnState
from rulebook.turn.write_orders.check import order_sheet_check
from rulebook.turn.write_orders.context import SheetContext, order_sheet_context
from rulebook.turn.write_orders.records import MOVING_ORDERS, ArmyOrder, OrderKind, SheetEntries
from rulebook.world import ArmyState, lose_fortifications

PHASE = "orders"
RAZE_MOVE_NEEDS = 3  # Raze: after razing, a D6 of 3+ lets the army move
RECOVER_NEEDS = 4  # Recover: 4+, +1 for each earlier consecutive turn; a natural 1 fails

# Forced March (D6): 1 Mutiny (holds), 2-3 Fatigue (one province), 4-6 Forced March (two provinces).
FORCED_MARCH_TABLE: dict[int, str] = {1: "mutiny", 2: "fatigue", 3: "fatigue", 4: "march", 5: "march", 6: "march"}
# Army-Specific Rules: these may reroll a failed Forced March (Mutiny) across plains.
PLAINS_REROLL = frozenset(
    {ArmyType.EMPIRE, ArmyType.BRETONNIANS, ArmyType.TOMB_KINGS, ArmyType.HIGH_ELVES, ArmyType.DARK_ELVES}
)


def normalise_orders(state: TurnState, events: list[Event]) -> None:
    """Every army ends with exactly one legal order: armies of kingdoms that missed their orders
    hold (O1); an order the sheet check refuses now (the state changed since it was written) holds."""
    for kingdom in state.kingdoms.values():
        if kingdom.id in state.missed_orders and not kingdom.ancient_dead:
            events.append(
                Event(
                    PHASE,
                    EventCode.MISSED_ORDERS,
                    f"{kingdom.name} sent no orders: every army holds.",
                    kingdom=kingdom.id,
                )
            )
    # The sheet check's view of each kingdom, derived once from the state as phases 1-3 left it:
    # the check refuses what the kingdom's armies can no longer do.
    contexts: dict[int, SheetContext] = {}
    for army in sorted(state.armies.values(), key=lambda a: a.id):
        order = state.orders.get(army.id)
        if order is None or army.kingdom in state.missed_orders or army.disbanded:
            # A disbanded army (2. Maintain Armies) is gone: its order is not executed, and its
            # disbanding was reported; no reason to refuse the order is given in its place.
            state.orders[army.id] = ArmyOrder(army.id, OrderKind.HOLD)
            continue
        if army.kingdom not in contexts:
            contexts[army.kingdom] = order_sheet_context(state.world, army.kingdom)
        check = order_sheet_check(SheetEntries(orders=(order,)), contexts[army.kingdom])
        if check.error_problems:
            state.orders[army.id] = order.held()
            problem = check.error_problems[0]
            events.append(
                Event(
                    PHASE,
                    EventCode.ORDER_ILLEGAL,
                    f"{problem.message(check.names)} It holds.",  # the message names the army once
                    kingdom=army.kingdom,
                    army=army.id,
                    data={"problem": problem.code.value},
                )
            )


def execute_orders(state: TurnState, dice: Dice, events: list[Event]) -> list[Contact]:
    """Phase 5: raze, then moves and supports, then fortify, recover, hold. Returns the contacts
    (where enemies meet) for the battles phase; claims provinces that change hands without a fight."""
    start = {a.id: a.province for a in state.armies.values()}
    sharing = {a.id for a in state.armies.values() if a.co_occupying}  # from a failed forced march last turn
    for army_id in sharing:
        # Its moves this turn follow the usual rules; if it stays, the follow-up marks it again.
        state.armies[army_id] = replace(state.armies[army_id], co_occupying=False)
    _invasions(state, events)
    _raze(state, dice, events)
    destinations = _intended_moves(state, dice, events, start)
    _dont_pass_in_the_night(state, dice, events, destinations, start)
    _occupied_province(state, dice, events, destinations, start)
    _multiple_moves_into_battle(state, dice, events, destinations, start)
    for army_id, (province, passed) in sorted(destinations.items()):
        army = replace(state.armies[army_id], province=province)
        state.armies[army_id] = army
        events.append(
            Event(
                PHASE,
                EventCode.MOVED,
                f"{army.name} moves {'through ' + ', '.join(map(_name(state), passed)) + ' to ' if passed else 'into '}"
                f"{state.provinces[province]}.",
                kingdom=army.kingdom,
                army=army.id,
                province=province,
                data={"from": start[army_id], "path": [*passed, province]},
            )
        )
    _co_occupation_follow_up(state, dice, events, sharing, start)
    # Moves, forced marches and disbandings are done: a Fortified army that left loses its bonuses.
    events += lose_fortifications(state.world, PHASE)
    contacts = _contacts_and_claims(state, dice, events, start, set(destinations))
    fighting = {c.attacker for c in contacts} | {c.defender for c in contacts if c.defender is not None}
    # Fortify comes before 6. Fight Battles: an army attacked this turn fortifies all the same (R12).
    _fortify(state, events)
    _recover(state, dice, events, fighting)
    return contacts


def _name(state: TurnState):  # type: ignore[no-untyped-def]
    return lambda number: str(state.provinces[number])


def _invasions(state: TurnState, events: list[Event]) -> None:
    """Allies, Invasion: "An army can end an alliance by taking control of one or more allied
    provinces. The backstabber must note this in their orders": an army whose order takes control of
    the ally's province it moves into breaks the alliance before the moves (decision 137), so it
    moves in as an enemy (it claims the province, or fights for it). Without the note it takes nothing."""
    for army in sorted(state.armies.values(), key=lambda a: a.id):
        order = state.orders[army.id]
        target = order.destination
        if not order.take_control or target is None or target not in state.provinces:
            continue
        alliance = state.world.alliance_between(army.kingdom, state.provinces[target].controller)
        if alliance is not None:
            alliance_break(
                state, alliance, by=army.kingdom, how=BreakKind.INVASION, phase=PHASE, events=events, province=target
            )


def _raze(state: TurnState, dice: Dice, events: list[Event]) -> None:
    for army in sorted(state.armies.values(), key=lambda a: a.id):
        order = state.orders[army.id]
        if order.kind not in (OrderKind.RAZE_HOLD, OrderKind.RAZE_MOVE):
            continue
        owner = state.provinces[army.province].controller
        alliance = state.world.alliance_between(army.kingdom, owner)
        if alliance is not None:
            # Allies, Raze: "By Razing the province this way, the backstabber takes control of that province."
            alliance_break(
                state, alliance, by=army.kingdom, how=BreakKind.RAZE, phase=PHASE, events=events, province=army.province
            )
            taken = state.provinces[army.province].taken_by(army.kingdom)
            state.provinces[taken.number] = taken
            events.append(
                Event(
                    PHASE,
                    EventCode.PROVINCE_CLAIMED,
                    f"{army.name} takes {taken} by razing it (Allies, Raze).",
                    kingdom=army.kingdom,
                    army=army.id,
                    province=taken.number,
                    data={"from_kingdom": owner},
                )
            )
            events.append(
                Event(
                    PHASE,
                    EventCode.PROVINCE_LOST,
                    f"{taken} is taken by {state.kingdoms[army.kingdom].name}.",
                    kingdom=owner,
                    province=taken.number,
                )
            )
        # Fortification bonuses are lost with the land ("Razed provinces cannot be Fortified").
        was_fortified = state.provinces[army.province].fortified
        province = replace(state.provinces[army.province], razed=True, fortified=False)
        state.provinces[province.number] = province
        for fortifier in [a for a in state.armies.values() if a.fortified_in == province.number]:
            state.armies[fortifier.id] = replace(fortifier, fortified_in=None)  # said here, not again
        events.append(
            Event(
                PHASE,
                EventCode.RAZED,
                f"{army.name} razes {province}" + ("; its fortifications are lost." if was_fortified else "."),
                kingdom=army.kingdom,
                army=army.id,
                province=province.number,
            )
        )
        if order.kind is OrderKind.RAZE_MOVE:
            roll = dice.d6(purpose=f"{army.name}: raze then move (3+ moves)", kingdoms=[army.kingdom], armies=[army.id])
            if roll < RAZE_MOVE_NEEDS:
                state.orders[army.id] = order.held()
                events.append(
                    Event(
                        PHASE,
                        EventCode.RAZE_TOO_LONG,
                        f"{army.name} rolls {roll}: razing took too long, it stays.",
                        kingdom=army.kingdom,
                        army=army.id,
                        province=province.number,
                    )
                )


def _intended_moves(
    state: TurnState, dice: Dice, events: list[Event], start: dict[int, int]
) -> dict[int, tuple[int, list[int]]]:
    """army -> (destination, provinces passed through) for every army that will try to move."""
    moves: dict[int, tuple[int, list[int]]] = {}
    for army in sorted(state.armies.values(), key=lambda a: a.id):
        order = state.orders[army.id]
        if order.kind in (OrderKind.MOVE, OrderKind.RAZE_MOVE) and order.target is not None:
            moves[army.id] = (order.target, [])
        elif order.kind is OrderKind.FORCED_MARCH and len(order.path) == 2:
            result = _forced_march(state, dice, events, army, order, start)
            if result is not None:
                moves[army.id] = result
    return moves


def _forced_march(
    state: TurnState, dice: Dice, events: list[Event], army: ArmyState, order: ArmyOrder, start: dict[int, int]
) -> tuple[int, list[int]] | None:
    first, second = order.path
    kingdom = state.kingdoms[army.kingdom]
    if army.no_forced_march:
        events.append(
            Event(
                PHASE,
                EventCode.FORCED_MARCH_FORBIDDEN,
                f"{army.name} may not Forced March this turn (Foraging Table): it moves one province, into "
                f"{state.provinces[first]}.",
                kingdom=army.kingdom,
                army=army.id,
            )
        )
        return first, []
    enemy_in_first = any(
        a.kingdom != army.kingdom and not state.allied(a.kingdom, army.kingdom) and start[a.id] == first
        for a in state.armies.values()
        if not a.disbanded
    )
    if enemy_in_first:
        # An army cannot forced march through an occupied enemy province: it stops there and fights.
        events.append(
            Event(
                PHASE,
                EventCode.FORCED_MARCH_BLOCKED,
                f"{army.name} cannot Forced March through {state.provinces[first]}, occupied by an enemy army: "
                "it stops there.",
                kingdom=army.kingdom,
                army=army.id,
                province=first,
            )
        )
        return first, []
    off_plains = any(state.provinces[p].terrain != "plains" for p in order.path)
    modifier = -1 if kingdom.army_type is ArmyType.ORCS_AND_GOBLINS and off_plains else 0
    purpose = f"{army.name}: forced march" + (" (-1 off plains)" if modifier else "")
    roll = dice.d6(purpose=purpose, kingdoms=[army.kingdom], armies=[army.id])
    result = FORCED_MARCH_TABLE[max(1, roll + modifier)]
    if result == "mutiny" and kingdom.army_type in PLAINS_REROLL and not off_plains:
        roll = dice.d6(
            purpose=f"{army.name}: forced march reroll after Mutiny on plains",
            kingdoms=[army.kingdom],
            armies=[army.id],
        )
        result = FORCED_MARCH_TABLE[roll]
    if result == "mutiny":
        events.append(
            Event(
                PHASE,
                EventCode.FORCED_MARCH_MUTINY,
                f"{army.name}: Mutiny! It holds.",
                kingdom=army.kingdom,
                army=army.id,
            )
        )
        return None
    if result == "fatigue":
        friendly = [
            a for a in state.armies.values() if a.kingdom == army.kingdom and start[a.id] == first and a.id != army.id
        ]
        events.append(
            Event(
                PHASE,
                EventCode.FORCED_MARCH_FATIGUE,
                f"{army.name}: Fatigue, it moves one province only.",
                kingdom=army.kingdom,
                army=army.id,
            )
        )
        if friendly:
            state.armies[army.id] = replace(army, co_occupying=True)
            events.append(
                Event(
                    PHASE,
                    EventCode.CO_OCCUPYING,
                    f"{army.name} shares {state.provinces[first]} with {friendly[0].name}: it does not count as "
                    "being there and must move out next turn.",
                    kingdom=army.kingdom,
                    army=army.id,
                    province=first,
                )
            )
        return first, []
    events.append(
        Event(
            PHASE,
            EventCode.FORCED_MARCH,
            f"{army.name} completes its Forced March.",
            kingdom=army.kingdom,
            army=army.id,
        )
    )
    return second, [first]


def _cancel(
    state: TurnState,
    events: list[Event],
    moves: dict[int, tuple[int, list[int]]],
    army_id: int,
    code: EventCode,
    text: str,
) -> None:
    moves.pop(army_id, None)
    army = state.armies[army_id]
    events.append(Event(PHASE, code, text, kingdom=army.kingdom, army=army_id, province=army.province))


def _dont_pass_in_the_night(state, dice, events, moves, start) -> None:  # type: ignore[no-untyped-def]
    """Enemy armies ordered into each other's provinces: both roll (ties again); the higher moves,
    the lower stays and the battle is in its province (O4)."""
    by_route: dict[tuple[int, int], list[int]] = defaultdict(list)
    for army_id, (target, _) in moves.items():
        by_route[(start[army_id], target)].append(army_id)
    for a_id in sorted(moves):
        if a_id not in moves:
            continue
        a = state.armies[a_id]
        for b_id in sorted(by_route.get((moves[a_id][0], start[a_id]), [])):
            b = state.armies[b_id]
            if b_id <= a_id or b.kingdom == a.kingdom or b_id not in moves or a_id not in moves:
                continue
            if state.allied(a.kingdom, b.kingdom):  # Allies: they pass each other as friends
                continue
            while True:
                ra = dice.d6(purpose=f"{a.name}: don't pass in the night", kingdoms=[a.kingdom], armies=[a.id])
                rb = dice.d6(purpose=f"{b.name}: don't pass in the night", kingdoms=[b.kingdom], armies=[b.id])
                if ra != rb:
                    break
            loser = b if ra > rb else a
            winner = a if loser is b else b
            _cancel(
                state,
                events,
                moves,
                loser.id,
                EventCode.PASSED_IN_THE_NIGHT,
                f"Don't pass in the night: {winner.name} ({max(ra, rb)}) beats {loser.name} "
                f"({min(ra, rb)}); {loser.name} stays in {state.provinces[start[loser.id]]}.",
            )


def _occupied_province(state, dice, events, moves, start) -> None:  # type: ignore[no-untyped-def]
    """Occupied Province: "Whenever there are two or more friendly armies attempt to move into or
    occupy the same province, roll a d6 for each army. The army with the highest result may move,
    the rest ... remain stationary and act as if they had been given the Hold orders." A friendly
    army staying in the province occupies it and rolls too; ties among the highest roll again (O5).
    A mover that beats an army staying there moves in beside it and shares the province as a failed
    forced march does ("the province cannot support 2 armies at once"): it does not count as being
    there and must move out next turn (decision 29). Cancelled moves leave armies staying where they
    started, which can bring them into another roll, so this repeats until nothing changes."""
    changed = True
    while changed:
        changed = False
        by_target: dict[tuple[int, int], list[int]] = defaultdict(list)
        for army_id, (target, _) in sorted(moves.items()):
            if state.armies[army_id].co_occupying:
                continue  # a fatigued forced march, or a mover that already won its roll, shares the province
            by_target[(state.armies[army_id].kingdom, target)].append(army_id)
        # Who stays where, as this pass begins; a move cancelled below makes another pass.
        stays: dict[tuple[int, int], list[ArmyState]] = defaultdict(list)
        for a in sorted(state.armies.values(), key=lambda a: a.id):
            if a.id not in moves and not a.disbanded:
                stays[(a.kingdom, start[a.id])].append(a)
        for (kingdom, target), army_ids in sorted(by_target.items()):
            staying = stays.get((kingdom, target), [])
            if not staying and len(army_ids) == 1:
                continue
            movers = [state.armies[i] for i in army_ids]
            rolls = _roll_off(dice, [*staying, *movers], "occupied province")
            best = state.armies[max(rolls, key=lambda i: rolls[i])]
            where = state.provinces[target]
            for mover in movers:
                if mover.id != best.id:
                    _cancel(
                        state,
                        events,
                        moves,
                        mover.id,
                        EventCode.OCCUPIED_PROVINCE,
                        f"Occupied Province: {best.name} ({rolls[best.id]}) "
                        f"{'moves into' if best.id in moves else 'stays in'} {where}; {mover.name} "
                        f"({rolls[mover.id]}) does not move in and holds.",
                    )
            if best.id in moves and staying:
                state.armies[best.id] = replace(best, co_occupying=True)
                beaten = ", ".join(f"{a.name} ({rolls[a.id]})" for a in staying)
                events.append(
                    Event(
                        PHASE,
                        EventCode.OCCUPIED_PROVINCE,
                        f"Occupied Province: {best.name} ({rolls[best.id]}) beats {beaten} and moves into {where}, "
                        f"which {staying[0].name} keeps: {best.name} shares it, does not count as being there "
                        "(it cannot be attacked or lend support) and must move out next turn (Occupied Province; "
                        "Forced March).",
                        kingdom=best.kingdom,
                        army=best.id,
                        province=target,
                    )
                )
            changed = True


def _roll_off(dice: Dice, armies: list[ArmyState], purpose: str) -> dict[int, int]:
    """A D6 each; ties among the highest roll again (only the tied ones)."""
    rolls = {a.id: dice.d6(purpose=f"{a.name}: {purpose}", kingdoms=[a.kingdom], armies=[a.id]) for a in armies}
    while True:
        top = max(rolls.values())
        tied = [a for a in armies if rolls[a.id] == top]
        if len(tied) == 1:
            return rolls
        for a in tied:
            rolls[a.id] = dice.d6(purpose=f"{a.name}: {purpose} (tie)", kingdoms=[a.kingdom], armies=[a.id])


def garrison_defends(state: TurnState, number: int) -> bool:
    """Whether province `number`'s garrison fights an army of another kingdom (not its ally) that
    enters it with no army there: a kingdom's town or city, its capitol among them (Battle for Towns,
    Cities, and Capitols), or a desert with its 1,000-point Ancient Dead garrison (The Ancient Dead:
    Deserts; decision 32). A Rogue Kingdom's land is not: an army entering it alone rolls on the Rogue
    Kingdom table instead (decision 153). The one notion of a defending garrison for the contacts
    and for Multiple Moves into Battle (decision 372)."""
    province = state.provinces[number]
    owner = province.controller
    if province.rogue or (owner is not None and state.kingdoms[owner].rogue):
        return False
    return province.terrain == "desert" or (owner is not None and province.settlement in ("town", "city"))


def _garrison_words(state: TurnState, number: int) -> str:
    """The garrison that defends province `number`, for the events: "Da Red Fang's town garrison"."""
    province = state.provinces[number]
    if province.terrain == "desert":
        return "its Ancient Dead garrison"
    assert province.controller is not None  # garrison_defends: a town or city has its kingdom
    owner = state.kingdoms[province.controller]
    return f"{owner.name}'s {'capitol' if owner.capitol == number else province.settlement} garrison"


def _multiple_moves_into_battle(state, dice, events, moves, start) -> None:  # type: ignore[no-untyped-def]
    """Three or more unallied kingdoms may not share a province: the kingdoms moving in roll, and
    only as many move as leave two kingdoms there; the others hold (B5). Two allies count as one
    side (decision 138). A garrison that defends its province (`garrison_defends`) occupies it for
    its kingdom as an army that stays (decision 372): "a third unallied player" whose garrison
    "cannot leave the province", so of two unallied kingdoms moving into a third's garrisoned town
    the higher roll moves in and fights the garrison, the other holds. An ally's garrison is the
    mover's own side."""

    def side(kingdom: int | None) -> int | None:
        # None: a desert no kingdom holds, whose Ancient Dead garrison is a side of its own
        alliance = state.world.alliance_of(kingdom) if kingdom is not None else None
        return alliance.first if alliance is not None else kingdom

    by_target: dict[int, list[int]] = defaultdict(list)
    for army_id, (target, _) in sorted(moves.items()):
        by_target[target].append(army_id)
    staying: dict[int, set[int | None]] = defaultdict(set)  # province -> sides that stay there
    for a in state.armies.values():
        if a.id not in moves and not a.disbanded:
            staying[start[a.id]].add(side(a.kingdom))
    for target in by_target:
        if garrison_defends(state, target):
            # Decision 372: the garrison cannot leave its province: its kingdom occupies it as an army that stays.
            staying[target].add(side(state.provinces[target].controller))
    for target, army_ids in sorted(by_target.items()):
        occupiers = staying.get(target, set())
        movers = [state.armies[i] for i in army_ids if side(state.armies[i].kingdom) not in occupiers]
        if len(occupiers) + len({side(m.kingdom) for m in movers}) <= 2:
            continue
        rolls = _roll_off(dice, movers, "multiple moves into battle")
        ranked = sorted(movers, key=lambda a: rolls[a.id], reverse=True)
        room = max(0, 2 - len(occupiers))
        garrisoned = f", which {_garrison_words(state, target)} defends" if garrison_defends(state, target) else ""
        for army in ranked[room:]:
            _cancel(
                state,
                events,
                moves,
                army.id,
                EventCode.MULTIPLE_MOVES,
                f"Multiple moves into {state.provinces[target]}{garrisoned}: {army.name} rolls {rolls[army.id]}, "
                "lower than the others, and holds (Multiple Moves into Battle).",
            )
            staying[start[army.id]].add(side(army.kingdom))  # it now stays where it started


def _contacts_and_claims(
    state: TurnState, dice: Dice, events: list[Event], start: dict[int, int], moved: set[int]
) -> list[Contact]:
    contacts: list[Contact] = []
    present: dict[int, list[ArmyState]] = defaultdict(list)
    for a in state.armies.values():
        if not a.disbanded and not a.co_occupying:
            present[a.province].append(a)
    for number in sorted(present):
        province = state.provinces[number]
        here = present[number]
        kingdoms = sorted({a.kingdom for a in here})
        movers = sorted((a for a in here if a.id in moved), key=lambda a: a.id)
        stayers = sorted((a for a in here if a.id not in moved), key=lambda a: a.id)
        hostile = any(not state.allied(a, b) for a in kingdoms for b in kingdoms if a < b)
        if hostile:
            # Allies never fight each other when they meet: an army's enemies are the other kingdoms' but its ally's.
            def enemies(a: ArmyState, b: ArmyState) -> bool:
                return a.kingdom != b.kingdom and not state.allied(a.kingdom, b.kingdom)

            if stayers:
                for attacker in movers:
                    defender = next((d for d in stayers if enemies(attacker, d)), None)
                    if defender is not None:
                        contacts.append(Contact(province=number, attacker=attacker.id, defender=defender.id))
            else:
                first = movers[0]
                second = next((m for m in movers if enemies(first, m)), None)
                if second is None:  # the first mover's allies only: the others' enemies meet them
                    first, second = next((a, b) for a in movers for b in movers if enemies(a, b))
                contacts.append(Contact(province=number, attacker=first.id, defender=second.id, both_moved=True))
            continue
        for army in movers:
            owner = province.controller
            if owner == army.kingdom:
                continue
            if state.allied(owner, army.kingdom):
                _ally_passage(state, events, army, number)
                continue
            if province.rogue or (owner is not None and state.kingdoms[owner].rogue):
                contact = _rogue_kingdom_entered(state, dice, events, army, number)
                if contact is not None:
                    contacts.append(contact)
                continue
            if garrison_defends(state, number):
                contacts.append(Contact(province=number, attacker=army.id))
            else:
                _claim(state, events, army, number)
    return contacts


def _claim(state: TurnState, events: list[Event], army: ArmyState, number: int) -> None:
    """The army claims province `number` unopposed (Army Restrictions: with 1,000 points or more). A
    town or city taken from a Rogue Kingdom is no town or city for its taker (Rogue Kingdom)."""
    province = state.provinces[number]
    owner = province.controller
    if army.points < ARMY_MIN_POINTS:
        events.append(
            Event(
                PHASE,
                EventCode.TOO_SMALL_TO_CLAIM,
                f"{army.name} has {army.points} points, fewer than {ARMY_MIN_POINTS:,}: it cannot claim "
                f"{province} (Army Restrictions).",
                kingdom=army.kingdom,
                army=army.id,
                province=number,
            )
        )
        return
    abandoned = ""
    if owner is not None and state.kingdoms[owner].rogue and province.settlement in ("town", "city"):
        taker = state.kingdoms[army.kingdom].name
        abandoned = f": its {province.settlement} is abandoned, no town or city for {taker} (Rogue Kingdom)"
        province = province.abandoned()
    province = province.taken_by(army.kingdom)
    state.provinces[number] = province
    events.append(
        Event(
            PHASE,
            EventCode.PROVINCE_CLAIMED,
            f"{army.name} claims {province}{abandoned}.",
            kingdom=army.kingdom,
            army=army.id,
            province=number,
            data={"from_kingdom": owner},
        )
    )
    if owner is not None:
        events.append(
            Event(
                PHASE,
                EventCode.PROVINCE_LOST,
                f"{province} is taken by {state.kingdoms[army.kingdom].name}.",
                kingdom=owner,
                province=number,
            )
        )


def _rogue_kingdom_entered(
    state: TurnState, dice: Dice, events: list[Event], army: ArmyState, number: int
) -> Contact | None:
    """Rogue Kingdom: "If a foreign army enters the land, roll on the following table": Empty, the
    province is the army's; otherwise a battle against the scouting forces (a ruins style battle) or a
    1,000, 1,500 or 2,000-point army, scheduled like any other (the contact carries the roll)."""
    province = state.provinces[number]
    owner = state.kingdoms.get(province.controller) if province.controller is not None else None
    whose = f"a province of the Rogue Kingdom {owner.name}" if owner is not None else "a Rogue Kingdom province"
    roll = dice.d6(purpose=f"{army.name}: Rogue Kingdom ({province})", kingdoms=[army.kingdom], armies=[army.id])
    row = rogue_kingdom_roll(roll)
    found = {
        RogueForce.EMPTY: "the province is empty",
        RogueForce.SCOUTING: "scouting forces: a ruins style battle for control (Ruins and Tomb Raiders)",
    }.get(row.force, f"a {row.points:,}-point army")
    events.append(
        Event(
            PHASE,
            EventCode.ROGUE_KINGDOM_ROLL,
            f"{army.name} enters {province}, {whose}, and rolls {roll} on the "
            f"Rogue Kingdom table: {row.label}, {found}.",
            kingdom=army.kingdom,
            army=army.id,
            province=number,
            data={"roll": roll, "force": row.force.value, "points": row.points, "rogue_kingdom": province.controller},
        )
    )
    if row.force is RogueForce.EMPTY:
        _claim(state, events, army, number)
        return None
    return Contact(province=number, attacker=army.id, rogue_roll=roll)


def _ally_passage(state: TurnState, events: list[Event], army: ArmyState, number: int) -> None:
    """Allies: "Armies may move through their allies' province without control of the province
    exchanging hands." The ally learns of the army in its province (the rules reveal it, decision 139)."""
    province = state.provinces[number]
    owner = province.controller
    assert owner is not None
    own, ally = state.kingdoms[army.kingdom].name, state.kingdoms[owner].name
    events.append(
        Event(
            PHASE,
            EventCode.ALLY_PASSAGE,
            f"{army.name} stands in {province}, a province of its ally {ally}: control does not change hands (Allies).",
            kingdom=army.kingdom,
            army=army.id,
            province=number,
        )
    )
    events.append(
        Event(
            PHASE,
            EventCode.ALLY_PASSAGE,
            f"{own}'s army {army.name} ({army.points:,} points) enters your province {province} as an ally: control "
            "does not change hands (Allies).",
            kingdom=owner,
            province=number,
            data={"ally": army.kingdom},
        )
    )


def _co_occupation_follow_up(
    state: TurnState, dice: Dice, events: list[Event], sharing: set[int], start: dict[int, int]
) -> None:
    """Forced March: an army left sharing a friendly province must move out the next turn; if it
    does not, it rolls on the Foraging Table as if it had lost its supply depot."""
    from rulebook.turn.economy import forage_army  # the table lives with phase 2

    for army_id in sorted(sharing):
        army = state.armies[army_id]
        if army.disbanded:
            continue
        if army.province != start[army_id]:
            continue
        army = replace(army, co_occupying=True)
        state.armies[army_id] = army
        events.append(
            Event(
                PHASE,
                EventCode.CO_OCCUPYING_STAYED,
                f"{army.name} did not move out of {state.provinces[army.province]}, which cannot support two armies: "
                "it forages as if it had lost its supply depot (Forced March).",
                kingdom=army.kingdom,
                army=army.id,
                province=army.province,
            )
        )
        forage_army(state, army, dice, events)


def _fortify(state: TurnState, events: list[Event]) -> None:
    """Fortify: "If an army is given the Fortify order and was not in a battle the previous turn,
    then it may spend the turn fortifying the province"; one that was acts as if given Hold (and
    keeps any fortification it already holds: only moving away or a change of control loses it).
    Being attacked this turn does not stop it: Fortify is executed before 6. Fight Battles."""
    for army in sorted(state.armies.values(), key=lambda a: a.id):
        if state.orders[army.id].kind is not OrderKind.FORTIFY:
            continue
        province = state.provinces[army.province]
        if army.last_battle_turn is not None and army.last_battle_turn == state.turn - 1:
            events.append(
                Event(
                    PHASE,
                    EventCode.FORTIFY_AFTER_BATTLE,
                    f"{army.name} was in a battle last turn (turn {army.last_battle_turn}): it cannot fortify "
                    f"{province} this turn and holds (Fortify).",
                    kingdom=army.kingdom,
                    army=army.id,
                    province=province.number,
                )
            )
        elif army.co_occupying:
            events.append(
                Event(
                    PHASE,
                    EventCode.FORTIFY_CO_OCCUPYING,
                    f"{army.name} shares {province} with a friendly army and does not count as being there: "
                    "it cannot fortify it and holds (Forced March; Occupied Province).",
                    kingdom=army.kingdom,
                    army=army.id,
                    province=province.number,
                )
            )
        elif province.razed:
            events.append(
                Event(
                    PHASE,
                    EventCode.FORTIFY_RAZED,
                    f"{province} is razed and cannot be fortified until it is recovered: {army.name} holds (Fortify).",
                    kingdom=army.kingdom,
                    army=army.id,
                    province=province.number,
                )
            )
        else:
            kept = province.fortified and army.fortified_in == province.number
            state.provinces[province.number] = replace(province, fortified=True)
            state.armies[army.id] = replace(army, fortified_in=province.number)
            events.append(
                Event(
                    PHASE,
                    EventCode.FORTIFIED,
                    f"{army.name} {'keeps' if kept else 'fortifies'} {province}"
                    f"{' fortified' if kept else ''}: the bonuses are its own while it stays there (Fortify).",
                    kingdom=army.kingdom,
                    army=army.id,
                    province=province.number,
                )
            )


def _recover(state: TurnState, dice: Dice, events: list[Event], fighting: set[int]) -> None:
    for army in sorted(state.armies.values(), key=lambda a: a.id):
        if state.orders[army.id].kind is not OrderKind.RECOVER:
            state.armies[army.id] = replace(army, recover_streak=0)
            continue
        province = state.provinces[army.province]
        if army.id in fighting:
            events.append(
                Event(
                    PHASE,
                    EventCode.RECOVER_IN_BATTLE,
                    f"{army.name} is being attacked: it cannot recover {province} this turn (Recover).",
                    kingdom=army.kingdom,
                    army=army.id,
                    province=province.number,
                )
            )
            continue
        if not province.razed:
            continue
        roll = dice.d6(
            purpose=f"{army.name}: recover {province} (4+, +{army.recover_streak})",
            kingdoms=[army.kingdom],
            armies=[army.id],
        )
        if roll != 1 and roll + army.recover_streak >= RECOVER_NEEDS:
            events.append(
                Event(
                    PHASE,
                    EventCode.RECOVERED,
                    f"{army.name} rolls {roll}+{army.recover_streak}: {province} is recovered.",
                    kingdom=army.kingdom,
                    army=army.id,
                    province=province.number,
                )
            )
            state.provinces[province.number] = replace(province, razed=False)
            state.armies[army.id] = replace(army, recover_streak=0)
        else:
            state.armies[army.id] = replace(army, recover_streak=army.recover_streak + 1)
            events.append(
                Event(
                    PHASE,
                    EventCode.RECOVER_FAILED,
                    f"{army.name} rolls {roll}: {province} is not recovered yet.",
                    kingdom=army.kingdom,
                    army=army.id,
                    province=province.number,
                )
            )


__all__ = ["execute_orders", "normalise_orders", "MOVING_ORDERS"]
