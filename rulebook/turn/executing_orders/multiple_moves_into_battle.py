"""Multiple Moves into Battle: no more than two unallied sides in a province; a garrison that
defends its province is one of them (pure Python)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable

from kernel.dice import Dice
from kernel.event_codes import EventCode
from kernel.events import Event
from rulebook.turn.executing_orders.contacts import garrison_defends
from rulebook.turn.executing_orders.move import Moves, Roll, cancel, roll_off
from rulebook.turn.state import TurnState
from rulebook.world import ArmyState


def _garrison_words(state: TurnState, number: int) -> str:
    """The garrison that defends province `number`, for the events: "Da Red Fang's town garrison"."""
    province = state.provinces[number]
    if province.terrain == "desert":
        return "its Ancient Dead garrison"
    assert province.controller is not None  # garrison_defends: a town or city has its kingdom
    owner = state.kingdoms[province.controller]
    return f"{owner.name}'s {'capitol' if owner.capitol == number else province.settlement} garrison"


def multiple_moves_into_battle(
    state: TurnState, dice: Dice, events: list[Event], moves: Moves, start: dict[int, int]
) -> bool:
    """Three or more unallied kingdoms may not share a province: the kingdoms moving in roll, and
    only as many move as leave two kingdoms there; the others hold (B5). Two allies count as one
    side (decision 138). A garrison that defends its province (`garrison_defends`) occupies it for
    its kingdom as an army that stays (decision 372): "a third unallied player" whose garrison
    "cannot leave the province", so of two unallied kingdoms moving into a third's garrisoned town
    the higher roll moves in and fights the garrison, the other holds. An ally's garrison is the
    mover's own side. Where three sides stand already (two armies whose alliance has just ended and
    a garrison), no army of a kingdom without an army there moves in, and nobody rolls (decision 571).
    A mover that holds stays where it started, which may bring a third kingdom
    into that province: this repeats, the provinces in number order each pass, until a pass holds
    no one (decision 576). Returns whether any move was cancelled."""

    def side(kingdom: int | None) -> int | None:
        # None: a desert no kingdom holds, whose Ancient Dead garrison is a side of its own
        alliance = state.world.alliance_of(kingdom) if kingdom is not None else None
        return alliance.first if alliance is not None else kingdom

    cancelled = False
    changed = True
    while changed:
        changed = False
        # Who stays where, as this pass begins; a move cancelled below adds its army where it started.
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
            if len(occupiers) > 2:
                # Decision 571: three sides stand there already (two armies whose alliance has just ended,
                # and the garrison of a third kingdom's town): nobody rolls, no army of a kingdom without an
                # army there moves in ("Three or more armies from three or more unallied kingdoms cannot
                # occupy the same map section"), the garrison's own kingdom's included.
                held = _three_sides_there(state, events, moves, start, target, army_ids, side)
                for army in held:
                    staying[start[army.id]].add(side(army.kingdom))  # it now stays where it started
                    changed = cancelled = True
                continue
            if not movers or len(occupiers) + len({side(m.kingdom) for m in movers}) <= 2:
                # Two sides at most; or no mover to roll (the kingdoms standing there move nowhere).
                continue
            room = max(0, 2 - len(occupiers))
            garrisoned = f", which {_garrison_words(state, target)} defends" if garrison_defends(state, target) else ""
            if room == 0:
                # Two sides stand there already: no roll can let a third in.
                rolls: dict[int, Roll] = {}
                held = movers
            else:
                rolls = roll_off(
                    dice, movers, "multiple moves into battle", _tie_for_the_last_place(movers, room, side)
                )
                ranked = sorted(movers, key=lambda a: rolls[a.id], reverse=True)
                # "The highest 2 rolls move as normal and fight, the third player's army(s) remain
                # stationary": the places are the sides', so an army of a side already let in follows it.
                admitted: set[int | None] = set()
                held = []
                for army in ranked:
                    if side(army.kingdom) in admitted or len(admitted) < room:
                        admitted.add(side(army.kingdom))
                    else:
                        held.append(army)
            for army in held:
                why = (
                    f"{army.name} rolls {rolls[army.id]}, lower than the others, and holds"
                    if army.id in rolls
                    else f"two unallied sides stand there already; {army.name} holds"
                )
                cancel(
                    state,
                    events,
                    moves,
                    army.id,
                    EventCode.MULTIPLE_MOVES,
                    f"Multiple moves into {state.provinces[target]}{garrisoned}: {why} (Multiple Moves into Battle).",
                    holds=True,
                )
                staying[start[army.id]].add(side(army.kingdom))  # it now stays where it started
                # Where it started may have been checked already this pass, with it leaving: check again.
                changed = cancelled = True
    return cancelled


def _tie_for_the_last_place(
    movers: list[ArmyState], room: int, side: Callable[[int | None], int | None]
) -> Callable[[dict[int, Roll]], Roll | None]:
    """Multiple Moves into Battle: "The highest 2 rolls move as normal and fight, the third player's
    army(s) remain stationary". The places (`room` of them) are the sides' (decision 578), each side
    ranked by its best roll: a tie matters when it is for the last place, between a side that would
    move in and one that would hold; those tied roll again (decision 624). Before, the lower army id
    took the place, and the other was told it rolled lower than the others."""

    def contested(rolls: dict[int, Roll]) -> Roll | None:
        best: dict[int | None, Roll] = {}
        for army in movers:
            best[side(army.kingdom)] = max(best.get(side(army.kingdom), Roll()), rolls[army.id])
        ranked = sorted(best.values(), reverse=True)
        if 0 < room < len(ranked) and ranked[room - 1] == ranked[room]:
            return ranked[room]
        return None

    return contested


def _three_sides_there(
    state: TurnState,
    events: list[Event],
    moves: Moves,
    start: dict[int, int],
    target: int,
    army_ids: list[int],
    side: Callable[[int | None], int | None],
) -> list[ArmyState]:
    """Province `target` holds three sides already (decision 571): each army moving in whose side
    has no army standing there holds (its own kingdom's army there is Occupied Province's matter).
    Returns the armies held."""
    standing = {
        side(a.kingdom)
        for a in state.armies.values()
        if not a.disbanded and a.id not in moves and start[a.id] == target
    }
    held = [state.armies[i] for i in army_ids if side(state.armies[i].kingdom) not in standing]
    garrisoned = f" besides {_garrison_words(state, target)}" if garrison_defends(state, target) else ""
    for army in held:
        cancel(
            state,
            events,
            moves,
            army.id,
            EventCode.MULTIPLE_MOVES,
            f"Multiple moves into {state.provinces[target]}: armies of unallied kingdoms stand there{garrisoned} "
            f"already, three sides; {army.name} holds (Multiple Moves into Battle).",
            holds=True,
        )
    return held
