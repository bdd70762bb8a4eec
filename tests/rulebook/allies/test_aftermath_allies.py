"""Allies in the aftermath (rulebook/turn/aftermath/run.py), with scripted dice and no database:
"Withdraw of support" reported on the turn summary sheet breaks the alliance, and "Armies may
retreat into allied provinces. Control of the province does not change hands" (the third retreat
choice of 7. Aftermath). Rulebook: Allies; 7. Aftermath."""

from __future__ import annotations

from rulebook.allies.chart import AllianceState, TrustLevel
from rulebook.tables import ArmyType
from rulebook.turn.aftermath.results import BattleResult as R
from rulebook.turn.aftermath.state import SideA
from tests.rulebook.turn.aftermath.test_aftermath import AVALON, BRYTHON, CARNWYL, GUARD, HOST, HOST_UNITS, Scene
from tests.world_builders import kingdom

SQUIRES = 30  # Carnwyl's army in 6, whose detachment supports Avalon's Host in 5
AVALON_CARNWYL = AllianceState(id=9, first=AVALON, second=CARNWYL, trust=TrustLevel.TRUSTED, formed_turn=2)
BRYTHON_CARNWYL = AllianceState(id=8, first=BRYTHON, second=CARNWYL, trust=TrustLevel.TRUSTED, formed_turn=2)


def scene(*alliances: AllianceState) -> Scene:
    """Carnwyl is Bretonnian here: Bretonnians ally with the Empire and the Dwarfs (Alliance Chart: T)."""
    world = Scene()
    world.kingdoms[CARNWYL] = kingdom(CARNWYL, "Carnwyl", ArmyType.BRETONNIANS, treasury=0)
    world.alliances.update({a.id: a for a in alliances})
    return world


def supported_battle(world: Scene, result: R, *, withdrawn: tuple[int, ...] = ()) -> None:
    """Avalon's Host moved from 2 into Brython's 5 against the Guard; Carnwyl's Squires in 6 sent
    Avalon a detachment, which Avalon's sheet may report withdrew (`withdrawn`)."""
    world.army(HOST, AVALON, 5, HOST_UNITS, came_from=2)
    world.army(GUARD, BRYTHON, 5, [(201, "Warriors", 40, 15), (202, "Thunderers", 20, 30)])
    world.army(SQUIRES, CARNWYL, 6, [(301, "Men-at-arms", 40, 30)])
    world.battle(
        result,
        SideA(AVALON, HOST, supports=(SQUIRES,), withdrawn=withdrawn),
        SideA(BRYTHON, GUARD),
    )


def test_an_ally_that_withdrew_its_support_breaks_the_alliance_and_the_betrayed_receives_2000():
    """Allies, "Withdraw of support": Avalon's sheet reports that Carnwyl's detachment withdrew in
    the middle of the game. The alliance is broken by Carnwyl; Avalon receives 2,000 gold (its own
    1,000 back and Carnwyl's), Carnwyl nothing; an event for each, Avalon's a ledger row."""
    world = scene(AVALON_CARNWYL)
    supported_battle(world, R.MINOR_LOSS, withdrawn=(SQUIRES,))
    result = world.run([])

    assert result.state.world.alliances == {}
    broken = [e for e in result.events if e.code == "alliance-broken"]
    assert [(e.kingdom, e.gold, e.ledger_reason, e.province) for e in broken] == [
        (CARNWYL, 0, "", 5),
        (AVALON, 2000, "alliance", 5),
    ]
    assert all(e.data["how"] == "withdrawal" and e.data["broken_by"] == CARNWYL for e in broken)
    assert broken[1].text == (
        "Carnwyl breaks its alliance with Avalon by withdrawing its support in battle (5 P5): Avalon receives "
        "2,000 gold, its own 1,000 back and Carnwyl's (Allies)."
    )
    assert result.state.kingdoms[AVALON].treasury == 1000 + 2000  # a minor loss earns no victory gold
    assert result.state.kingdoms[CARNWYL].treasury == 0
    # The detachment still returns to its parent army after the battle (Support).
    assert any(e.code == "detachment-returned" and e.army == SQUIRES for e in result.events)


def test_an_ally_whose_support_did_not_withdraw_keeps_the_alliance():
    world = scene(AVALON_CARNWYL)
    supported_battle(world, R.MINOR_LOSS)
    result = world.run([])
    assert list(result.state.world.alliances) == [AVALON_CARNWYL.id]
    assert not [e for e in result.events if e.code == "alliance-broken"]
    assert result.state.kingdoms[AVALON].treasury == 1000


def test_a_withdrawal_reported_after_the_alliance_ended_pays_nothing():
    """An alliance already ended (announced over at the beginning of the turn) is not broken twice:
    the rules for allies no longer applied to the battle."""
    world = scene()
    supported_battle(world, R.MINOR_LOSS, withdrawn=(SQUIRES,))
    result = world.run([])
    assert not [e for e in result.events if e.code == "alliance-broken"]
    assert result.state.kingdoms[AVALON].treasury == 1000


def guard_beaten(world: Scene) -> None:
    """Brython's Guard did not move and loses in 5: it retreats by the order of preference."""
    world.army(HOST, AVALON, 5, HOST_UNITS, came_from=2)
    world.army(GUARD, BRYTHON, 5, [(201, "Warriors", 40, 15), (202, "Thunderers", 20, 30)])
    world.battle(R.MINOR_VICTORY, SideA(AVALON, HOST), SideA(BRYTHON, GUARD))


def test_case_A5_the_third_choice_is_an_allied_province_before_a_foreign_one():
    """7. Aftermath: "Third choice is allied province. Fourth is a non-allied player's province";
    Allies: "Control of the province does not change hands". No home or neutral province is free:
    the Guard passes Avalon's 1 (lower, foreign) for its ally Carnwyl's 9, which stays Carnwyl's."""
    world = scene(BRYTHON_CARNWYL)
    guard_beaten(world)
    for n in (1, 2, 3, 4, 6, 7, 8):
        world.province(n, controller=AVALON)
    world.province(9, controller=CARNWYL)
    result = world.run([])

    assert result.state.armies[GUARD].province == 9
    assert result.state.provinces[9].controller == CARNWYL
    (retreat,) = [e for e in result.events if e.code == "retreated"]
    assert retreat.text == "Army 20 retreats from 5 P5 to the allied province 9 P9 (it does not claim it)."


def test_case_A5_a_neutral_province_comes_before_an_allied_one_and_without_the_alliance_9_is_foreign():
    world = scene(BRYTHON_CARNWYL)
    guard_beaten(world)
    for n in (1, 2, 3, 4, 6, 7):
        world.province(n, controller=AVALON)
    world.province(9, controller=CARNWYL)  # 8 stays neutral
    assert world.run([]).state.armies[GUARD].province == 8

    world = scene(AVALON_CARNWYL)  # Carnwyl is Avalon's ally, not Brython's: its 9 is foreign
    guard_beaten(world)
    for n in (1, 2, 3, 4, 6, 7, 8):
        world.province(n, controller=AVALON)
    world.province(9, controller=CARNWYL)
    assert world.run([]).state.armies[GUARD].province == 1
