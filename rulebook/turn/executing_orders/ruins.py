"""Ruins: an army moving into a province with ruins waits on its kingdom's Tomb Raid (pure Python).

Ruins: "The player uses their Tomb Raider force to secure the ruins ... If the player loses the
skirmish, their army may not move into to the province this turn." Tomb Raid: "Provided one of your
armies is moving into a province containing a ruin, the Tomb Raiders can set off ... If the raid is a
success ... The army is now safely able to move into the province. If the raid was a failure ... The
army may not move into to the province this turn." (decision 408: every move into ruins waits on a
raid; decisions 420-424 settle who waits where.)

Run before the moves are made: `ruins_without_raid` with the roll-offs, which judge again where an
army kept out stays (decision 577), then `ruins_entries` once they have settled which moves stand.
An army whose kingdom sent no raid to the ruin never moves (it stays where it was, keeping what it
held there); an army whose kingdom raids the ruin moves in and stands there during the turn, like
the scouting forces' army (decision 231), while its Tomb Raiders skirmish; the aftermath lets it in
or sends it back. Where enemies meet in the ruins, or the desert's garrison holds them, the battle
is the armies' (6. Fight Battles marks the raid on it: `raid_with_battle`).
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field, replace

from kernel.event_codes import EventCode
from kernel.events import Event
from rulebook.ruins_and_tomb_raiders.tomb_raid import armies_waiting
from rulebook.tables import Settlement
from rulebook.turn.executing_orders import PHASE
from rulebook.turn.executing_orders.contacts import garrison_defends
from rulebook.turn.executing_orders.move import Moves
from rulebook.turn.state import Contact, TurnState


@dataclass
class RuinEntries:
    """What the ruins made of the moves: the raids to schedule (one Contact per kingdom and ruin, its
    attacker the first of the kingdom's armies moving in), and every army standing in a ruin on its
    kingdom's raid (the raid's attacker and the others with it): they neither claim nor fight there."""

    raids: list[Contact] = field(default_factory=list)
    standing: set[int] = field(default_factory=set)


def hostile_there(state: TurnState, armies: list[int]) -> bool:
    """Whether armies of kingdoms that are not allies would stand together (they fight as usual)."""
    kingdoms = sorted({state.armies[a].kingdom for a in armies})
    return any(not state.allied(a, b) for a in kingdoms for b in kingdoms if a < b)


def ruins_entries(state: TurnState, events: list[Event], moves: Moves, start: dict[int, int]) -> RuinEntries:
    """Every move into a province with ruins that no enemy would contest waits on the kingdom's Tomb
    Raid there (`state.raids`; decision 408). Called once the roll-offs have settled (`_roll_offs`
    in `rulebook.turn.executing_orders.run`, decision 577): `ruins_without_raid` has cancelled every
    such move without its kingdom's raid there (decision 420), so each one left has its raid. The
    first army of the kingdom (by id) is the raid's attacker, the others stand with it and share its
    outcome (decision 421). At a desert's ruin the garrison battle is scheduled as usual and the
    raid marked on it (decision 409). The Ancient Dead, who keep no Tomb Raiders, walk in; in a
    Rogue Kingdom's ruins the Rogue Kingdom table is rolled as in any of its provinces (decision
    423). `moves` is left as it is."""
    entries = RuinEntries()
    for number, kingdom, waiting in _waiting_on_raids(state, moves, start):
        assert state.raids.get(kingdom) == number, "the roll-offs cancel a move into ruins without a raid first"
        if garrison_defends(state, number):
            continue  # the desert's garrison: the armies fight it; the raid goes with the battle (409)
        first, *others = waiting
        entries.raids.append(Contact(province=number, attacker=first, raid=True, waiting=tuple(others)))
        entries.standing.update(waiting)
        for army_id in others:
            _with_the_raid(state, events, army_id, first, number)
    return entries


def ruins_without_raid(state: TurnState, events: list[Event], moves: Moves, start: dict[int, int]) -> bool:
    """Cancels every move into ruins that waits on a Tomb Raid its kingdom did not send there (Ruins:
    "their army may not move into to the province this turn"; decision 420), one pass over the
    ruins as the moves stand. Returns whether any move was cancelled (the armies now stay where
    they were: the roll-offs and the ruins are judged again, decision 577)."""
    held = [
        (army_id, number)
        for number, kingdom, waiting in _waiting_on_raids(state, moves, start)
        if state.raids.get(kingdom) != number
        for army_id in waiting
    ]
    for army_id, number in held:
        _no_raid(state, events, moves, army_id, number)
    return bool(held)


def _waiting_on_raids(state: TurnState, moves: Moves, start: dict[int, int]) -> list[tuple[int, int, tuple[int, ...]]]:
    """(ruin's province, kingdom, its armies whose move in waits on a raid) for every ruin that no
    enemy would contest, in province and kingdom order, as the moves stand."""
    where = {a.id: a.province for a in state.armies.values() if not a.disbanded and not a.co_occupying}
    for army_id, (to, _) in moves.items():
        where[army_id] = to
    present: dict[int, list[int]] = defaultdict(list)
    for army_id, number in where.items():
        present[number].append(army_id)
    found: list[tuple[int, int, tuple[int, ...]]] = []
    for number in sorted(present):
        province = state.provinces[number]
        if province.settlement is not Settlement.RUINS or hostile_there(state, present[number]):
            continue  # no ruins, or enemies meet there: they fight as usual (decision 422)
        owner = province.controller
        if province.rogue or (owner is not None and state.kingdoms[owner].rogue):
            continue  # a Rogue Kingdom's land: its table is rolled, scouting forces a ruins battle (423)
        by_kingdom: dict[int, dict[int, int]] = defaultdict(dict)
        for army_id in present[number]:
            army = state.armies[army_id]
            if army_id in moves and start[army_id] != number and not state.kingdoms[army.kingdom].ancient_dead:
                by_kingdom[army.kingdom][army_id] = number
        found += [(number, kingdom, armies_waiting(number, km)) for kingdom, km in sorted(by_kingdom.items())]
    return found


def _no_raid(state: TurnState, events: list[Event], moves: Moves, army_id: int, number: int) -> None:
    """Ruins: without a raid the army "may not move into to the province this turn": it stays where
    it was (decision 420)."""
    moves.pop(army_id, None)
    # A mover that won Occupied Province against an army of its own in the ruin does not go to share it.
    army = state.armies[army_id] = replace(state.armies[army_id], co_occupying=False)
    events.append(
        Event(
            PHASE,
            EventCode.RUINS_NO_RAID,
            f"{army.name} waits outside the ruins of {state.provinces[number]}: no Tomb Raid was sent (Ruins).",
            kingdom=army.kingdom,
            army=army_id,
            province=army.province,
            data={"ruin": number},
        )
    )


def _with_the_raid(state: TurnState, events: list[Event], army_id: int, first: int, number: int) -> None:
    army = state.armies[army_id]
    events.append(
        Event(
            PHASE,
            EventCode.RUINS_WAITING,
            f"{army.name} waits on the Tomb Raid at {state.provinces[number]} with {state.armies[first].name}: it "
            "moves in if the raiders succeed (Tomb Raid).",
            kingdom=army.kingdom,
            army=army_id,
            province=number,
            data={"ruin": number, "with_army": first},
        )
    )
