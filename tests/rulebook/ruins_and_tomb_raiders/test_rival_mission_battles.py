"""Reconnaissance and Sabotage as battles of the turn (rulebook/turn/fight_battles/rival_missions.py):
the spy's Tomb Raiders skirmish against the target's own Tomb Raiders or a 150-point guard. Rulebook:
Reconnaissance; Sabotage; Generic Opponents; Tomb Raider Scenario & Terrain. Decisions 460-462. No
database; the missions are put in `TurnState.rival_missions` as the sending step records them."""

from __future__ import annotations

from typing import Any

from kernel.event_codes import EventCode
from rulebook.ruins_and_tomb_raiders.force import RaiderEntry, Role, TombRaiders
from rulebook.tables import ArmyType
from rulebook.turn.state import TurnState
from rulebook.turn.write_orders.records import SheetEntries, TombRaiderMission
from tests import world_builders as wb
from tests.rulebook.resolving import of, resolve

# A 3 x 3 grid. Avalon (1) holds 1, 2 and 4 (capitol 1); Brython (2) holds 3, 6 and 9 (capitol 6);
# Cornwall (3) holds 7 and 8 (capitol 8). Armies: 11 of Avalon in 1, 21 of Brython in 3, 31 of Cornwall in 7.
AVALON, BRYTHON, CORNWALL = 1, 2, 3
CONTROL = {1: AVALON, 2: AVALON, 4: AVALON, 3: BRYTHON, 6: BRYTHON, 9: BRYTHON, 7: CORNWALL, 8: CORNWALL}


def raiders(out_of_action: int = 0) -> TombRaiders:
    """A small force: the Captain and four spearmen (`out_of_action` of all five are out, Recovery)."""
    captain = RaiderEntry("Captain", 1, 20, role=Role.CAPTAIN, out_of_action=min(out_of_action, 1))
    spears = RaiderEntry("Spearmen", 4, 10, out_of_action=max(0, out_of_action - 1))
    return TombRaiders(ArmyType.DWARFS, (captain, spears))


def recon(target: int = BRYTHON, **changes: Any) -> TombRaiderMission:
    values: dict[str, Any] = {"kind": "reconnaissance", "target_kingdom": target, "desired": "treasury-info"}
    return TombRaiderMission(**{**values, **changes})


def state(
    missions: dict[int, TombRaiderMission],
    *,
    forces: dict[int, TombRaiders] | None = None,
    raids: dict[int, int] | None = None,
    capitols: dict[int, int | None] | None = None,
) -> TurnState:
    capitol = {AVALON: 1, BRYTHON: 6, CORNWALL: 8, **(capitols or {})}
    world = wb.world(
        provinces=[wb.province(n, controller=CONTROL.get(n)) for n in range(1, 10)],
        kingdoms=[
            wb.kingdom(AVALON, "Avalon", ArmyType.EMPIRE, treasury=1000, capitol=capitol[AVALON]),
            wb.kingdom(BRYTHON, "Brython", ArmyType.DWARFS, treasury=1000, capitol=capitol[BRYTHON]),
            wb.kingdom(CORNWALL, "Cornwall", ArmyType.ORCS_AND_GOBLINS, treasury=1000, capitol=capitol[CORNWALL]),
        ],
        armies=[wb.army(11, AVALON, 1), wb.army(21, BRYTHON, 3), wb.army(31, CORNWALL, 7)],
        adjacency=wb.grid(3),
        turn=4,
    )
    return TurnState(
        world=world,
        sheets={k: SheetEntries() for k in (AVALON, BRYTHON, CORNWALL)},
        rival_missions=missions,
        raids=raids or {},
        raiders=forces or {},
    )


def test_a_reconnaissance_is_a_skirmish_in_the_target_s_capitol_against_its_own_tomb_raiders():
    """Reconnaissance: "Play a Tomb Raider game for the Recon ... Alternatively, the player may use his own
    Tomb Raiders to defend if they are not being used for a mission this turn": Brython sends none, so its
    Tomb Raiders defend; no army fights on either side, it is never an Assault (rs-design)."""
    result = resolve(state({AVALON: recon()}, forces={BRYTHON: raiders()}))

    (battle,) = result.battles
    assert (battle.province, battle.attacker_kingdom, battle.attacker_army) == (6, AVALON, None)
    assert (battle.defender_kingdom, battle.defender_army, battle.skirmish, battle.assault) == (
        BRYTHON,
        None,
        True,
        False,
    )
    assert battle.mission == "reconnaissance"
    assert battle.mission_detail == {
        "desired": "treasury-info",
        "target_army": None,
        "target_character": None,
        "defender": "raiders",
    }
    assert battle.garrison_points == 0 and battle.supports == [] and battle.guerrilla is None
    assert battle.notes == [
        "Reconnaissance by Avalon's Tomb Raiders against Brython in 6 P6 (Reconnaissance): they skirmish against the "
        "Tomb Raiders of Brython, on Tomb Raider Scenario & Terrain. No army fights; Avalon files the mission's "
        "result (a success, a draw or a failure) and its raiders' losses."
    ]


def test_the_target_learns_raiders_come_and_who_defends_never_the_desired_mission():
    """Reconnaissance (decision 462): the target's players defend the skirmish, so they learn that Tomb
    Raiders of Avalon come on a Reconnaissance and who defends; what the raiders desire (Treasury Info)
    is the spy's alone, in its own event."""
    result = resolve(state({AVALON: recon()}, forces={BRYTHON: raiders()}))

    (coming,) = of(result.events, EventCode.RAIDERS_COMING)
    assert coming.kingdom == BRYTHON and coming.province == 6
    assert coming.text == (
        "The Tomb Raiders of Avalon come to 6 P6 on a Reconnaissance: your own Tomb Raiders defend "
        "(Reconnaissance; Tomb Raider Scenario & Terrain)."
    )
    assert coming.data is not None and coming.data["spy"] == AVALON and coming.data["defender"] == "raiders"
    assert "desired" not in coming.data and "treasury" not in coming.text.lower()
    (scheduled,) = of(result.events, EventCode.BATTLE_SCHEDULED)
    assert scheduled.kingdom == AVALON and scheduled.data is not None
    assert (scheduled.data["desired"], scheduled.data["mission"]) == ("treasury-info", "reconnaissance")
    # Nothing of the mission goes to a third kingdom.
    told = {EventCode.RAIDERS_COMING, EventCode.BATTLE_SCHEDULED}
    assert [e for e in result.events if e.kingdom == CORNWALL and e.code in told] == []


def test_the_guard_defends_when_the_target_s_raiders_are_on_a_mission_or_out_of_action_or_none():
    """Generic Opponents: "If a rival kingdom's Tomb Raiders are not used for defending ... the player
    creates a rival defense force": 150 points from the target's army book, no Lieutenant, two Core troop
    types at most. Brython's raiders are on a Tomb Raid of their own, all out of action, or never made."""
    on_a_raid = state({AVALON: recon()}, forces={BRYTHON: raiders()}, raids={BRYTHON: 5})
    all_out = state({AVALON: recon()}, forces={BRYTHON: raiders(out_of_action=5)})
    none = state({AVALON: recon(kind="sabotage", desired="theft")})
    for case in (on_a_raid, all_out, none):
        (battle,) = resolve(case).battles
        assert battle.mission_detail["defender"] == "guard"
        assert battle.garrison_points == 150 and battle.defender_army is None
        assert "a generic 150-point guard of Brython, built by its player from its own army book" in battle.notes[0]
    (coming,) = of(resolve(none).events, EventCode.RAIDERS_COMING)
    assert coming.text == (
        "The Tomb Raiders of Avalon come to 6 P6 on a Sabotage: a 150-point guard you build from your army book "
        "defends (Generic Opponents: no Lieutenant, two Core troop types at most) (Sabotage; Tomb Raider "
        "Scenario & Terrain)."
    )


def test_two_spies_on_one_target_two_skirmishes_its_raiders_defend_the_first_only():
    """Using Tomb Raiders (decision 461): both missions are played; the target's Tomb Raiders defend one
    skirmish, the first in the order of the spying kingdoms, and a guard the other. A target that sends
    its own raiders on a mission defends with guards (decision 460), and its own mission is played too."""
    result = resolve(
        state(
            {AVALON: recon(), CORNWALL: recon(kind="sabotage", desired="poison-well")},
            forces={BRYTHON: raiders()},
        )
    )
    assert [(b.attacker_kingdom, b.mission, b.mission_detail["defender"]) for b in result.battles] == [
        (AVALON, "reconnaissance", "raiders"),
        (CORNWALL, "sabotage", "guard"),
    ]
    both_ways = resolve(
        state({AVALON: recon(), BRYTHON: recon(target=AVALON)}, forces={AVALON: raiders(), BRYTHON: raiders()})
    )
    assert [(b.attacker_kingdom, b.province, b.mission_detail["defender"]) for b in both_ways.battles] == [
        (AVALON, 6, "guard"),
        (BRYTHON, 1, "guard"),
    ]


def test_the_skirmish_goes_to_the_named_army_s_province_or_a_held_one_when_the_capitol_is_lost():
    """Where it is played (rs-design): the capitol while the target holds it, else the province of the army
    the mission names, else the lowest-numbered province the target controls."""
    named = resolve(state({AVALON: recon(desired="army-statistics", target_army=21)}, capitols={BRYTHON: None}))
    assert [b.province for b in named.battles] == [3]
    held = resolve(state({AVALON: recon()}, capitols={BRYTHON: 5}))  # 5 is no one's: the capitol was lost
    assert [b.province for b in held.battles] == [3]
