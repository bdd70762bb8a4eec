"""Where the moves leave enemies together: the contacts 6. Fight Battles schedules, and the
provinces that change hands without a fight (Army Restrictions), with an ally's province passed
through (Allies) and a Rogue Kingdom's entered (Rogue Kingdom). Pure Python."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import replace

from kernel.dice import Dice
from kernel.event_codes import EventCode
from kernel.events import Event
from rulebook.player_issues.rogue_kingdom import RogueForce, rogue_kingdom_roll
from rulebook.tables import ARMY_MIN_POINTS
from rulebook.turn.executing_orders import PHASE
from rulebook.turn.executing_orders.fortify import fortified_army
from rulebook.turn.fight_battles.towns_cities_capitols import province_garrison, settlement_battle
from rulebook.turn.state import Contact, TurnState
from rulebook.world import ArmyState


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


def contacts_and_claims(
    state: TurnState, dice: Dice, events: list[Event], start: dict[int, int], moved: set[int]
) -> list[Contact]:
    """Where the moves leave enemies together, the contacts 6. Fight Battles schedules (the armies
    that moved attack those that stayed; two that both moved in meet; two that both stayed, allies
    until their alliance ended, meet too: decision 570); a province entered with no
    enemy there is claimed, passed through as an ally's, or rolled for as a Rogue Kingdom's."""
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
            if movers:
                contacts.append(_one_battle(state, number, movers, stayers))
            else:
                # Decision 570: enemies that all stayed (an alliance ended while its armies shared the
                # province) fight all the same: "When two unallied armies occupy the same province, a
                # combat occurs" (6. Fight Battles).
                contacts.append(_standing_enemies_meet(state, number, stayers))
            continue
        # The contact of the first mover that meets the province's defenders (its garrison, or the
        # forces the Rogue Kingdom table gives): its allies that come in with it fight beside it in
        # that one battle, not in battles of their own against the same defenders (decision 551).
        first: int | None = None
        for army in movers:
            owner = state.provinces[number].controller  # as the movers before it left it (an Empty roll's claim)
            if owner == army.kingdom:
                continue
            if first is not None:
                contacts[first] = replace(contacts[first], beside=(*contacts[first].beside, army.id))
                continue
            if state.allied(owner, army.kingdom):
                _ally_passage(state, events, army, number)
                continue
            if province.rogue or (owner is not None and state.kingdoms[owner].rogue):
                contact = _rogue_kingdom_entered(state, dice, events, army, number)
                if contact is not None:
                    first = len(contacts)
                    contacts.append(contact)
                continue
            if garrison_defends(state, number) and not _their_own_desert(state, army, number):
                first = len(contacts)
                contacts.append(Contact(province=number, attacker=army.id))
            else:
                _claim(state, events, army, number)
    return contacts


def _their_own_desert(state: TurnState, army: ArmyState, number: int) -> bool:
    """Whether `army` is of the Ancient Dead and province `number`'s garrison is a desert's: "Each
    Desert province contains a 1000 point Ancient Dead garrison" (The Ancient Dead: Deserts), their
    own, which never fights them. So a host entering a desert another kingdom took from them, with no
    army there, meets no enemy and takes it back as any army takes an unopposed province (Move: "If
    there are no enemy armies in the province, then you may control it"). Before, it met the
    garrison, which did not fight it, and stood there taking nothing: the desert stayed the other
    kingdom's under the Ancient Dead's army, and their Army Table never counted it again."""
    garrison = province_garrison(state, number)
    return garrison is not None and garrison.desert and state.kingdoms[army.kingdom].ancient_dead


def _one_battle(state: TurnState, number: int, movers: list[ArmyState], stayers: list[ArmyState]) -> Contact:
    """The one battle fought in province `number`, where two sides meet (Multiple Moves into Battle
    leaves no more; an ally is its ally's side, decision 138): an army that moved in attacks an
    enemy that stayed there (the Fortified army, else the province's own kingdom's before its
    ally's), or, with none staying, the two that moved in meet. Every other army there of either
    side, its ally's, fights beside its side's army (Allies: "Armies may defend their allies'
    provinces by fighting battles therein"; decisions 550 and 551): no army fights two battles, no
    army stands in a battle's province outside it."""

    # Allies never fight each other when they meet: an army's enemies are the other kingdoms' but its ally's.
    def enemies(a: ArmyState, b: ArmyState) -> bool:
        return a.kingdom != b.kingdom and not state.allied(a.kingdom, b.kingdom)

    attacked = [d for d in stayers if any(enemies(m, d) for m in movers)]
    if attacked:
        # Of two allies standing there, the one that fortified the province defends it (Fortify: "It
        # is possible for an army to Fortify a province controlled by an ally"; its bonuses are its
        # own, decision 37), one fortifying it this turn among them (Fortify is carried out before
        # 6. Fight Battles, decision 581); else the province's own kingdom's army (its garrison, its
        # choice of who defends); else the lower id.
        fortifier = fortified_army(state, number)
        owner = state.provinces[number].controller
        defender = next(
            (d for d in attacked if fortifier is not None and d.id == fortifier.id),
            next((d for d in attacked if d.kingdom == owner), attacked[0]),
        )
        attacker = next(m for m in movers if enemies(m, defender))
        both_moved = False
    else:
        attacker = movers[0]
        second = next((m for m in movers if enemies(attacker, m)), None)
        if second is None:  # the first mover's allies only: the others' enemies meet them
            attacker, second = next((a, b) for a in movers for b in movers if enemies(a, b))
        # A town, city or capitol whose garrison stands there is under attack by the enemies of its
        # side: the army of its side (its kingdom's, or its ally's) defends it with the garrison, as
        # when it stood there (decision 584); elsewhere (a desert's garrison supports no army) the
        # lower id attacks. If its scenario is an Assault, the Scenario Generator names the Assault's
        # Attacker from who holds the province, or by a roll-off (decision 625).
        owner = state.provinces[number].controller
        garrisoned = owner is not None and garrison_defends(state, number) and settlement_battle(state, number)
        home = next((m for m in movers if garrisoned and (m.kingdom == owner or state.allied(m.kingdom, owner))), None)
        if home is not None:
            attacker, second = next(m for m in movers if enemies(m, home)), home
        defender, both_moved = second, True
    beside = tuple(
        a.id
        for a in sorted([*movers, *stayers], key=lambda a: a.id)
        if a.id not in (attacker.id, defender.id)
        if (enemies(a, defender) and not enemies(a, attacker)) or (enemies(a, attacker) and not enemies(a, defender))
    )
    return Contact(province=number, attacker=attacker.id, defender=defender.id, both_moved=both_moved, beside=beside)


def _standing_enemies_meet(state: TurnState, number: int, stayers: list[ArmyState]) -> Contact:
    """The contact of two unallied armies that both stood in province `number`: allies that shared
    it until their alliance ended (Allies: Raze, Invasion this turn; Announcement or a withdrawal of
    support at the last End of Turn, "During the next Campaign Turn, the rules for allies cease to
    apply"). Neither moved in, so the province decides (decision 570): the army of the kingdom that
    holds it (or of its ally) defends it as an army that did not move and is attacked, and the other
    attacks, so "the victor will keep the province" (7. Aftermath) whoever wins. In a province
    neither holds, neither defends: they meet as armies that moved in at the same time."""
    owner = state.provinces[number].controller
    holders = [a for a in stayers if a.kingdom == owner or state.allied(a.kingdom, owner)]
    defender = holders[0] if holders else stayers[0]
    attacker = next(
        a for a in stayers if a.kingdom != defender.kingdom and not state.allied(a.kingdom, defender.kingdom)
    )
    if holders:
        # The battle as if the attacker had moved in: its defender, and the armies beside either side.
        return _one_battle(state, number, [attacker], [a for a in stayers if a.id != attacker.id])
    # Neither holds it: the battle of armies that moved in at the same time (the lower id attacks).
    return _one_battle(state, number, stayers, [])


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
