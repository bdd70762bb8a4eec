"""Allies in the aftermath (rulebook/turn/aftermath/run.py), with scripted dice and no database:
"Withdraw of support" reported on the turn summary sheet breaks the alliance, an end announced
during the End of Turn ends it with the turn ("Announcement"), and "Armies may
retreat into allied provinces. Control of the province does not change hands" (the third retreat
choice of 7. Aftermath). Rulebook: Allies; 7. Aftermath."""

from __future__ import annotations

from rulebook.allies.chart import AllianceState, TrustLevel
from rulebook.tables import ArmyType
from rulebook.turn.aftermath.results import BattleResult as R
from rulebook.turn.aftermath.sheets import SideA
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
    """An alliance already ended (announced over at the end of the last turn) is not broken twice:
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


# -- Allies, Announcement: "During the End of Campaign Turn, a player can announce that an alliance is
# broken. During the next Campaign Turn, the rules for allies cease to apply" (decision 385).


def test_an_end_announced_during_the_end_of_turn_breaks_the_alliance_with_the_turn_and_pays_the_other_2000():
    """Allies, Announcement: Carnwyl, which fought no battle, announces the end of its alliance with
    Avalon during the End of Turn. The aftermath ends it last (phase "aftermath"), so the world the
    next turn loads has no alliance; Avalon receives 2,000 gold (its own 1,000 back and Carnwyl's)."""
    world = scene(AVALON_CARNWYL)
    world.announced_ends = ((CARNWYL, AVALON),)
    result = world.run([])

    assert result.state.world.alliances == {}
    broken = [e for e in result.events if e.code == "alliance-broken"]
    assert [(e.phase, e.kingdom, e.gold, e.ledger_reason) for e in broken] == [
        ("aftermath", CARNWYL, 0, ""),
        ("aftermath", AVALON, 2000, "alliance"),
    ]
    assert all(e.data["how"] == "announcement" and e.data["broken_by"] == CARNWYL for e in broken)
    assert broken[1].text == (
        "Carnwyl breaks its alliance with Avalon by announcement: Avalon receives 2,000 gold, its own 1,000 back "
        "and Carnwyl's (Allies)."
    )
    assert result.state.kingdoms[AVALON].treasury == 1000 + 2000
    assert result.state.kingdoms[CARNWYL].treasury == 0


def test_case_AL4_an_alliance_cancelled_by_both_gives_no_gold_back():
    """Allies: "If the alliance is mutually canceled, neither party in the alliance will receive their
    gold back": both announce during the same End of Turn (rule case AL4's cancellation)."""
    world = scene(AVALON_CARNWYL)
    world.announced_ends = ((AVALON, CARNWYL), (CARNWYL, AVALON))
    result = world.run([])
    assert result.state.world.alliances == {}
    cancelled = [e for e in result.events if e.code == "alliance-cancelled"]
    assert [(e.phase, e.kingdom, e.gold) for e in cancelled] == [("aftermath", AVALON, 0), ("aftermath", CARNWYL, 0)]
    assert not [e for e in result.events if e.code == "alliance-broken"]
    assert result.state.kingdoms[AVALON].treasury == 1000


def test_the_alliance_announced_over_still_holds_for_this_turn_s_retreats():
    """Allies, Announcement: the rules for allies cease during the NEXT Campaign Turn. Brython
    announces the end of its alliance with Carnwyl this End of Turn; its beaten Guard still retreats
    into its ally's 9 without claiming it (7. Aftermath, third choice), then the alliance ends."""
    world = scene(BRYTHON_CARNWYL)
    world.announced_ends = ((BRYTHON, CARNWYL),)
    guard_beaten(world)
    for n in (1, 2, 3, 4, 6, 7, 8):
        world.province(n, controller=AVALON)
    world.province(9, controller=CARNWYL)
    result = world.run([])

    assert result.state.armies[GUARD].province == 9
    assert result.state.provinces[9].controller == CARNWYL
    assert result.state.world.alliances == {}
    codes = [e.code for e in result.events]
    assert codes.index("retreated") < codes.index("alliance-broken")


def test_an_end_announced_after_a_withdrawal_broke_the_alliance_does_nothing_more():
    """Allies: an alliance broken this turn by a withdrawal of support is not broken again by the
    betrayed's announcement: Avalon receives its 2,000 once, and nothing is cancelled."""
    world = scene(AVALON_CARNWYL)
    world.announced_ends = ((AVALON, CARNWYL),)
    supported_battle(world, R.MINOR_LOSS, withdrawn=(SQUIRES,))
    result = world.run([])
    broken = [e for e in result.events if e.code == "alliance-broken"]
    assert [(e.kingdom, e.data["how"]) for e in broken] == [(CARNWYL, "withdrawal"), (AVALON, "withdrawal")]
    assert not [e for e in result.events if e.code == "alliance-cancelled"]
    assert result.state.kingdoms[AVALON].treasury == 1000 + 2000


def test_an_end_announced_to_a_kingdom_that_is_no_ally_does_nothing():
    """Refused where it is filed (decision 385); should one reach the aftermath, no alliance ends."""
    world = scene(BRYTHON_CARNWYL)
    world.announced_ends = ((AVALON, CARNWYL),)
    result = world.run([])
    assert list(result.state.world.alliances) == [BRYTHON_CARNWYL.id]
    assert not [e for e in result.events if e.code.startswith("alliance-")]
