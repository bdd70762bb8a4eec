"""Phases 4-5, executing orders (rulebook/turn/executing_orders/), with scripted dice.
Rulebook: 5. Executing Orders (Raze, Move, Don't Pass in the Night, Occupied Province, Fortify,
Recover, Hold), Army-Specific Rules (Forced March), Multiple Moves into Battle, Army Restrictions."""

import pytest

from kernel.dice import ScriptedDice
from rulebook.tables import ArmyType
from rulebook.turn.executing_orders.normalise import normalise_orders
from rulebook.turn.executing_orders.run import execute_orders
from rulebook.turn.state import TurnState
from rulebook.turn.write_orders.records import ArmyOrder, OrderKind
from rulebook.world import ArmyState, CharacterState, UnitState
from tests import world_builders as wb
from tests.rulebook.resolving import resolve

# A 4 x 4 grid of sections numbered row by row (corner-to-corner counts as adjacent):
#   1  2  3  4
#   5  6  7  8
#   9 10 11 12
#  13 14 15 16
TERRAIN = {3: "forest", 7: "forest", 8: "desert", 4: "mountains"}
SETTLEMENT = {10: "town"}


def state(armies, orders=(), control=None, types=None, razed=(), fortified=()) -> TurnState:
    types = types or {}
    control = control or {}
    world = wb.world(
        provinces=[
            wb.province(
                n,
                TERRAIN.get(n, "plains"),
                SETTLEMENT.get(n, "none"),
                controller=control.get(n),
                razed=n in razed,
                fortified=n in fortified,
            )
            for n in range(1, 17)
        ],
        kingdoms=[wb.kingdom(k, f"K{k}", types.get(k, ArmyType.EMPIRE), treasury=1000) for k in (1, 2, 3)],
        armies=armies,
        adjacency=wb.grid(4),
        turn=2,
        player_count=3,
    )
    return TurnState(world=world, orders={o.army: o for o in orders})


def army(id, kingdom, province, points=1500, **kw) -> ArmyState:
    return wb.army(id, kingdom, province, points, name=f"A{id}", **kw)


def run(s: TurnState, faces=()):
    dice = ScriptedDice(faces=list(faces))
    events = []
    normalise_orders(s, events)
    contacts = execute_orders(s, dice, events)
    assert dice.unused == [], "every scripted die is used"
    return contacts, events, dice


def codes(events):
    return [e.code for e in events]


def test_case_O1_a_kingdom_without_orders_holds_everywhere_and_is_recorded():
    s = state([army(1, 1, 6), army(2, 1, 11)], orders=[ArmyOrder(1, OrderKind.MOVE, target=7)])
    s.missed_orders = frozenset({1})
    contacts, events, _ = run(s)
    assert (s.armies[1].province, s.armies[2].province) == (6, 11)
    assert "missed-orders" in codes(events)
    assert all(o.kind is OrderKind.HOLD for o in s.orders.values())


def test_case_O3_raze_and_move_moves_on_3_plus_and_stays_on_1_2():
    s = state([army(1, 1, 6)], orders=[ArmyOrder(1, OrderKind.RAZE_MOVE, target=7)])
    run(s, faces=[3])
    assert s.provinces[6].razed and s.armies[1].province == 7
    s = state([army(1, 1, 6)], orders=[ArmyOrder(1, OrderKind.RAZE_MOVE, target=7)])
    _, events, dice = run(s, faces=[2])
    assert s.provinces[6].razed and s.armies[1].province == 6
    assert "raze-too-long" in codes(events) and "raze then move" in dice.rolls[0].purpose


def test_case_O4_dont_pass_in_the_night():
    # A (kingdom 1) in 6 and B (kingdom 2) in 7 move into each other's province. Ties roll again.
    s = state(
        [army(1, 1, 6), army(2, 2, 7)],
        orders=[ArmyOrder(1, OrderKind.MOVE, target=7), ArmyOrder(2, OrderKind.MOVE, target=6)],
    )
    contacts, events, _ = run(s, faces=[4, 4, 5, 2])
    assert s.armies[1].province == 7 and s.armies[2].province == 7  # A moves into Q; B stays in Q
    assert [(c.province, c.attacker, c.defender) for c in contacts] == [(7, 1, 2)]
    assert "passed-in-the-night" in codes(events)


def test_dont_pass_in_the_night_is_judged_on_the_orders_before_occupied_province():
    """Decision 583 (Don't Pass in the Night: "When enemy armies are in adjacent provinces and both
    receive orders to Move into the enemy's province ... The battle takes place in the province
    occupied by the lower scoring player's army"): A (kingdom 1) in 6 and B (kingdom 2) in 7 are
    ordered into each other's province, and C (kingdom 1) in 3 into 7 as well. A beats B (5 to 2):
    B stays in 7. Occupied Province then holds A (C rolls 6 to its 2), and C fights B in 7, the
    province of the lower scorer. Judged after Occupied Province, A would not have been moving, and B
    would have marched into 6 against it."""
    s = state(
        [army(1, 1, 6), army(2, 2, 7), army(3, 1, 3)],
        orders=[
            ArmyOrder(1, OrderKind.MOVE, target=7),
            ArmyOrder(2, OrderKind.MOVE, target=6),
            ArmyOrder(3, OrderKind.MOVE, target=7),
        ],
    )
    contacts, events, dice = run(s, faces=[5, 2, 2, 6])

    assert [(c.province, c.attacker, c.defender) for c in contacts] == [(7, 3, 2)]
    assert (s.armies[1].province, s.armies[2].province, s.armies[3].province) == (6, 7, 7)
    assert [(e.code, e.army) for e in events if e.code in ("passed-in-the-night", "occupied-province")] == [
        ("passed-in-the-night", 2),
        ("occupied-province", 1),
    ]
    assert [r.purpose for r in dice.rolls] == [
        "A1: don't pass in the night",
        "A2: don't pass in the night",
        "A1: occupied province",
        "A3: occupied province",
    ]


def test_an_army_held_by_occupied_province_or_multiple_moves_acts_as_hold_and_sends_no_support():
    """Decision 623 (Occupied Province: "the rest of the other armies remain stationary and act as if
    they had been given the Hold orders"; Multiple Moves into Battle: "the third player's army(s)
    remain stationary and act as if they had been given the hold orders"; Hold: "An army given Hold
    orders remains in place and does nothing"). A1 is ordered to Move into 7 and Support the battle
    in 10 (A4 attacks K2's A2 there); A3, of its kingdom, also moves into 7 and wins the roll (5 to
    2): A1 holds, and its detachment does not go to 10. Then the same with K3's A5 standing in 7 and
    K2's A6 moving into 7 too: A6 rolls higher (4 to 1) and A1 holds as the third side. Before, a held
    army's support went out as if it had moved."""
    orders = [
        ArmyOrder(1, OrderKind.MOVE, target=7, support=10),
        ArmyOrder(3, OrderKind.MOVE, target=7),
        ArmyOrder(4, OrderKind.MOVE, target=10),
    ]
    s = state([army(1, 1, 6), army(3, 1, 3), army(4, 1, 9), army(2, 2, 10)], orders=orders)

    resolution = resolve(s, faces=[2, 5])  # Occupied Province: A1 2, A3 5; no Support Arrival roll

    (battle,) = resolution.battles
    assert (battle.province, battle.attacker_army, battle.supports) == (10, 4, [])
    assert resolution.state.orders[1].kind is OrderKind.HOLD
    (held,) = [e for e in resolution.events if e.code == "occupied-province"]
    assert held.text.endswith(
        "A1 (2) does not move in and holds. As if given Hold, it sends no support to 10 P10 (Hold)."
    )
    assert not [e for e in resolution.events if e.code in ("support", "support-no-battle") and e.army == 1]

    orders = [
        ArmyOrder(1, OrderKind.MOVE, target=7, support=10),
        ArmyOrder(6, OrderKind.MOVE, target=7),
        ArmyOrder(4, OrderKind.MOVE, target=10),
    ]
    s = state([army(1, 1, 6), army(5, 3, 7), army(6, 2, 11), army(4, 1, 9), army(2, 2, 10)], orders=orders)

    resolution = resolve(s, faces=[1, 4])  # Multiple Moves into Battle: A1 1, A6 4

    assert [(b.province, b.supports) for b in resolution.battles] == [(7, []), (10, [])]
    assert resolution.state.armies[1].province == 6 and resolution.state.orders[1].kind is OrderKind.HOLD
    assert not [e for e in resolution.events if e.code == "support" and e.army == 1]


def _forced_march_and_support(types=None, friend_in_6=False) -> TurnState:
    """K1's A1 in 5 forced-marches 6 -> 11 (plains) and supports the battle in 9, which borders 5:
    K1's A4 moves from 13 into 9, where K2's A2 stands. 11 does not border 9. With `friend_in_6`,
    K1's A3 holds in 6."""
    friend = [army(3, 1, 6)] if friend_in_6 else []
    s = state(
        [army(1, 1, 5), army(4, 1, 13), army(2, 2, 9), *friend],
        orders=[ArmyOrder(1, OrderKind.FORCED_MARCH, path=(6, 11), support=9), ArmyOrder(4, OrderKind.MOVE, target=9)],
        types=types,
    )
    s.provinces[11] = wb.province_with(s.provinces[11], terrain="plains")
    return s


@pytest.mark.parametrize(
    "march, end",
    [(2, 6), (4, 11)],  # Fatigue: one province only; Forced March: two
    ids=["fatigue", "success"],
)
def test_a_forced_march_with_support_sends_its_detachment_from_where_it_moved(march, end):
    """Decision 588 (4. Write Orders: "Move and / or Support"; "when an Orc & Goblin army moves, it may
    use its special Forced March ability"; 6. Fight Battles: Support). A1's Forced March names the battle
    in 9 to support, as a Move may: fatigued into 6 or marched on to 11 (which does not border 9), its
    support is judged as a moved Move's, from where it ended, and its detachment goes to the attacker.
    Before, the sheet check refused a Forced March with support and the army held."""
    resolution = resolve(_forced_march_and_support(), faces=[march, 3])  # the march, then Support Arrival

    assert resolution.state.armies[1].province == end
    (battle,) = resolution.battles
    assert (battle.province, battle.attacker_army, battle.defender_army) == (9, 4, 2)
    assert [(x.army, x.side, x.points, x.arrival) for x in battle.supports] == [(1, "attacker", 200, 3)]
    assert not [e for e in resolution.events if e.code == "order-illegal"]


def test_a_mutinied_forced_march_acts_as_hold_and_sends_no_support():
    """Decision 588 (Forced March (D6), 1 Mutiny: "The army does not move this turn and acts as if it
    received the Hold order"; Hold: "remains in place and does nothing"; as decision 623 for an army
    Occupied Province holds). A1 (Dwarfs: no plains reroll) mutinies in 5, which borders the battle in
    9: it holds, and its detachment does not go there."""
    resolution = resolve(_forced_march_and_support(types={1: ArmyType.DWARFS}), faces=[1])  # Mutiny

    assert resolution.state.armies[1].province == 5 and resolution.state.orders[1].kind is OrderKind.HOLD
    (battle,) = resolution.battles
    assert (battle.province, battle.supports) == (9, [])
    (mutiny,) = [e for e in resolution.events if e.code == "forced-march-mutiny"]
    assert mutiny.text == "A1: Mutiny! It holds. As if given Hold, it sends no support to 9 P9 (Hold)."
    assert not [e for e in resolution.events if e.army == 1 and e.code.startswith("support")]


def test_a_forced_march_that_fails_into_a_friend_s_province_lends_no_support():
    """Decision 588 (Forced March note: "The forced marched army does not count as being there and there
    for cannot be attack or lend support"; decision 41). A1, fatigued into 6 where K1's A3 holds, shares
    it: its support of the battle in 9 is refused, A3's province or not."""
    resolution = resolve(_forced_march_and_support(friend_in_6=True), faces=[2])  # Fatigue

    assert resolution.state.armies[1].province == 6 and resolution.state.armies[1].co_occupying
    (battle,) = resolution.battles
    assert (battle.province, battle.supports) == (9, [])
    (refused,) = [e for e in resolution.events if e.code == "support-refused"]
    assert (refused.army, refused.data["reason"]) == (1, "co-occupying")


def test_case_O5_occupied_province_the_highest_roll_moves():
    s = state(
        [army(1, 1, 5), army(2, 1, 7)],
        orders=[ArmyOrder(1, OrderKind.MOVE, target=6), ArmyOrder(2, OrderKind.MOVE, target=6)],
    )
    _, events, _ = run(s, faces=[2, 5])
    assert s.armies[2].province == 6 and s.armies[1].province == 5
    assert "occupied-province" in codes(events)


def test_occupied_province_the_army_staying_there_rolls_too_and_keeps_it_on_the_highest():
    """Occupied Province: "two or more friendly armies attempt to move into or occupy the same
    province, roll a d6 for each army": the friendly army staying there occupies it and rolls; on
    the highest the mover remains stationary, as if given Hold."""
    s = state([army(1, 1, 5), army(2, 1, 6)], orders=[ArmyOrder(1, OrderKind.MOVE, target=6)])
    _, events, dice = run(s, faces=[5, 2])  # A2 (staying) 5, A1 (moving in) 2
    assert [r.purpose for r in dice.rolls] == ["A2: occupied province", "A1: occupied province"]
    assert (s.armies[1].province, s.armies[2].province) == (5, 6)
    assert not s.armies[1].co_occupying and not s.armies[2].co_occupying
    (occupied,) = [e for e in events if e.code == "occupied-province"]
    assert occupied.text == "Occupied Province: A2 (5) stays in 6 P6; A1 (2) does not move in and holds."


def test_case_O5_occupied_province_ties_roll_again():
    s = state([army(1, 1, 5), army(2, 1, 6)], orders=[ArmyOrder(1, OrderKind.MOVE, target=6)])
    _, _, dice = run(s, faces=[4, 4, 3, 6])  # a tie, then A2 3, A1 6
    assert [r.purpose for r in dice.rolls][2:] == ["A2: occupied province (tie)", "A1: occupied province (tie)"]
    assert s.armies[1].province == 6


def test_occupied_province_a_tie_is_broken_among_the_tied_and_never_lets_a_lower_roll_in():
    """Decision 624 (Occupied Province: "roll a d6 for each army. The army with the highest result may
    move"; O5: ties roll again). A1 and A2 roll 5, A3 4: A1 and A2 roll again (1 and 2) between
    themselves, and A2 moves in; A3, whose 4 was beaten by both, holds. Before, the rerolls replaced
    the 5s, and A3's 4 was then the highest: it moved in."""
    s = state(
        [army(1, 1, 5), army(2, 1, 7), army(3, 1, 2)],
        orders=[ArmyOrder(i, OrderKind.MOVE, target=6) for i in (1, 2, 3)],
    )
    _, events, dice = run(s, faces=[5, 5, 4, 1, 2])
    assert (s.armies[1].province, s.armies[2].province, s.armies[3].province) == (5, 6, 2)
    assert [r.purpose for r in dice.rolls][3:] == ["A1: occupied province (tie)", "A2: occupied province (tie)"]
    assert [e.text for e in events if e.code == "occupied-province"] == [
        "Occupied Province: A2 (5, then 2) moves into 6 P6; A1 (5, then 1) does not move in and holds.",
        "Occupied Province: A2 (5, then 2) moves into 6 P6; A3 (4) does not move in and holds.",
    ]


def test_multiple_moves_a_tie_for_the_last_place_rolls_again():
    """Decision 624 (Multiple Moves into Battle: "a three player roll for initiative. The highest 2
    rolls move as normal and fight, the third player's army(s) remain stationary"). Three kingdoms
    move into the empty 6: A1 rolls 6, A2 and A3 tie on 3 for the second place and roll again (2 and
    5): A3 moves in and fights A1, A2 holds. Before, the lower id took the place without a roll, and
    A3 was told it "rolls 3, lower than the others"."""
    s = state(
        [army(1, 1, 5), army(2, 2, 7), army(3, 3, 2)],
        orders=[ArmyOrder(i, OrderKind.MOVE, target=6) for i in (1, 2, 3)],
    )
    contacts, events, dice = run(s, faces=[6, 3, 3, 2, 5])
    assert [(c.province, c.attacker, c.defender) for c in contacts] == [(6, 1, 3)]
    assert s.armies[2].province == 7
    assert [r.purpose for r in dice.rolls][3:] == [
        "A2: multiple moves into battle (tie)",
        "A3: multiple moves into battle (tie)",
    ]
    assert [e.text for e in events if e.code == "multiple-moves"] == [
        "Multiple moves into 6 P6: A2 rolls 3, then 2, lower than the others, and holds (Multiple Moves into Battle)."
    ]


def test_occupied_province_a_mover_that_beats_the_army_staying_there_moves_in_and_shares_it():
    """Decision 29: "The army with the highest result may move, the rest ... remain stationary" and
    "each province can only support one army at a time": the winner moves in beside the army that
    stays, which keeps the province; the winner shares it as after a failed Forced March (it does not
    count as being there: an enemy moving in fights the army that stays), and must move out next turn."""
    s = state(
        [army(1, 1, 5), army(2, 1, 6), army(3, 2, 7)],
        orders=[ArmyOrder(1, OrderKind.MOVE, target=6), ArmyOrder(3, OrderKind.MOVE, target=6)],
        control={6: 1},
    )
    contacts, events, _ = run(s, faces=[2, 5])  # A2 (staying) 2, A1 (moving in) 5
    assert (s.armies[1].province, s.armies[2].province) == (6, 6)
    assert s.armies[1].co_occupying and not s.armies[2].co_occupying
    assert [(c.province, c.attacker, c.defender) for c in contacts] == [(6, 3, 2)]
    (occupied,) = [e for e in events if e.code == "occupied-province"]
    assert occupied.text == (
        "Occupied Province: A1 (5) beats A2 (2) and moves into 6 P6, which A2 keeps: A1 shares it, does not "
        "count as being there (it cannot be attacked or lend support) and must move out next turn (Occupied "
        "Province; Forced March)."
    )
    # Next turn it has not moved out: the province cannot support two armies, it forages.
    s.orders = {1: ArmyOrder(1, OrderKind.HOLD), 2: ArmyOrder(2, OrderKind.HOLD), 3: ArmyOrder(3, OrderKind.HOLD)}
    _, events, dice = run(s, faces=[4, 4])
    assert "co-occupying-stayed" in codes(events) and dice.rolls[0].purpose == "A1: Foraging Table"


def test_a_sharing_army_that_forages_itself_away_takes_its_characters_with_it():
    """Forced March: an army still sharing a province forages "as the province cannot support 2 armies at
    once"; a Disaster its banner chose to disband on disbands it (Foraging Table; Army Restrictions), and its
    hero leaves with it, counting as dead (decision 591)."""
    s = state(
        [army(1, 1, 5), army(2, 1, 6), army(3, 2, 7)],
        orders=[ArmyOrder(1, OrderKind.MOVE, target=6), ArmyOrder(3, OrderKind.MOVE, target=6)],
        control={6: 1},
    )
    run(s, faces=[2, 5])  # A1 moves in beside A2 and shares 6
    s.world.units[1] = (UnitState(10, 1, "Captain Aldred", "character", 1, 80),)
    s.world.characters[7] = CharacterState(7, 1, 10, "Captain Aldred", "hero")
    s.orders = {
        1: ArmyOrder(1, OrderKind.HOLD, disaster_choice="disband"),
        2: ArmyOrder(2, OrderKind.HOLD),
        3: ArmyOrder(3, OrderKind.HOLD),
    }
    _, events, _ = run(s, faces=[1, 1])  # 2: Disaster
    assert s.armies[1].disbanded
    assert [c for c in codes(events) if c in ("army-disbanded", "character-retired")] == [
        "army-disbanded",
        "character-retired",
    ]
    assert not s.world.characters[7].alive


def test_occupied_province_a_move_cancelled_by_a_roll_can_bring_its_army_into_another_roll():
    """A1 loses to A2 for 6 and stays in 5, where A3 means to move: A1 now occupies 5 and rolls with A3."""
    s = state(
        [army(1, 1, 5), army(2, 1, 7), army(3, 1, 9)],
        orders=[
            ArmyOrder(1, OrderKind.MOVE, target=6),
            ArmyOrder(2, OrderKind.MOVE, target=6),
            ArmyOrder(3, OrderKind.MOVE, target=5),
        ],
    )
    _, _, dice = run(s, faces=[1, 6, 6, 2])  # for 6: A1 1, A2 6; for 5: A1 (staying) 6, A3 2
    assert [r.purpose for r in dice.rolls] == [
        "A1: occupied province",
        "A2: occupied province",
        "A1: occupied province",
        "A3: occupied province",
    ]
    assert (s.armies[1].province, s.armies[2].province, s.armies[3].province) == (5, 6, 9)


def test_case_O6_fortify_after_a_battle_last_turn_holds_and_razed_cannot_be_fortified():
    s = state(
        [army(1, 1, 6, last_battle_turn=1), army(2, 1, 11)],  # fought last turn
        orders=[ArmyOrder(1, OrderKind.FORTIFY), ArmyOrder(2, OrderKind.FORTIFY)],
        razed=(11,),
    )
    _, events, _ = run(s)
    assert not s.provinces[6].fortified and not s.provinces[11].fortified
    (held,) = [e for e in events if e.code == "fortify-after-battle"]
    assert held.text == "A1 was in a battle last turn (turn 1): it cannot fortify 6 P6 this turn and holds (Fortify)."
    assert "order-illegal" in codes(events)  # the sheet check refuses fortifying a razed province
    s = state([army(1, 1, 6)], orders=[ArmyOrder(1, OrderKind.FORTIFY)])
    _, events, _ = run(s)
    assert s.provinces[6].fortified and s.armies[1].fortified_in == 6
    assert [e.text for e in events if e.code == "fortified"] == [
        "A1 fortifies 6 P6: the bonuses are its own while it stays there (Fortify)."
    ]


def test_an_army_that_holds_fortifications_keeps_them_when_its_fortify_acts_as_hold():
    """Fortify: the bonuses are lost only "when the Fortified army moves away and / or when the
    control of the province changes"; a Fortify that acts as Hold after last turn's battle does not."""
    s = state(
        [army(1, 1, 6, last_battle_turn=1, fortified_in=6)], orders=[ArmyOrder(1, OrderKind.FORTIFY)], fortified=(6,)
    )
    run(s)
    assert s.provinces[6].fortified and s.world.fortifier(6) == s.armies[1]


def test_a_fortified_army_that_moves_away_loses_its_fortifications():
    """Fortify: "All Fortification bonuses are lost when the Fortified army moves away" (a Move or a
    Forced March alike); the report says so, and the army that comes in after it has none."""
    s = state(
        [army(1, 1, 6, fortified_in=6), army(2, 1, 5)],
        orders=[ArmyOrder(1, OrderKind.FORCED_MARCH, path=(7, 3)), ArmyOrder(2, OrderKind.MOVE, target=6)],
        fortified=(6,),
    )
    s.provinces[3] = wb.province_with(s.provinces[3], terrain="plains")
    s.provinces[7] = wb.province_with(s.provinces[7], terrain="plains")
    _, events, _ = run(s, faces=[5])
    assert (s.armies[1].province, s.armies[2].province) == (3, 6)
    assert not s.provinces[6].fortified and s.armies[1].fortified_in is None
    assert [e.text for e in events if e.code == "fortification-lost"] == [
        "The fortifications of 6 P6 are lost: A1 moved away (Fortify)."
    ]


def test_a_fortified_army_that_razes_its_province_and_moves_is_told_once_that_the_fortifications_are_lost():
    s = state([army(1, 1, 6, fortified_in=6)], orders=[ArmyOrder(1, OrderKind.RAZE_MOVE, target=7)], fortified=(6,))
    _, events, _ = run(s, faces=[3])
    assert s.armies[1].province == 7 and s.armies[1].fortified_in is None and not s.provinces[6].fortified
    assert [e.text for e in events if "fortifications" in e.text] == ["A1 razes 6 P6; its fortifications are lost."]


def test_a_fortified_army_disbanded_by_foraging_loses_its_fortifications():
    s = state([army(1, 1, 6, fortified_in=6, disbanded=True)], orders=[ArmyOrder(1, OrderKind.HOLD)], fortified=(6,))
    _, events, _ = run(s)
    assert not s.provinces[6].fortified
    assert [e.text for e in events if e.code == "fortification-lost"] == [
        "The fortifications of 6 P6 are lost: A1 was disbanded (Fortify)."
    ]


def test_an_army_sharing_a_province_does_not_fortify_it():
    """It "does not count as being there" (Forced March; Occupied Province): it holds, with the reason."""
    s = state(
        [army(1, 1, 6, co_occupying=True), army(2, 1, 6)],
        orders=[ArmyOrder(1, OrderKind.FORTIFY), ArmyOrder(2, OrderKind.HOLD)],
    )
    _, events, _ = run(s, faces=[4, 4])  # it did not move out: the Foraging Table
    assert not s.provinces[6].fortified
    assert [e.text for e in events if e.code == "fortify-co-occupying"] == [
        "A1 shares 6 P6 with a friendly army and does not count as being there: it cannot fortify it and holds "
        "(Forced March; Occupied Province)."
    ]


def test_a_province_razed_this_turn_is_not_fortified_and_the_army_is_told_why():
    """Raze comes before Fortify (5. Executing Orders): A2, sharing 6, razes it; A1's Fortify, legal
    when written, holds with the reason "Razed provinces cannot be Fortified unless ... Recovered"."""
    s = state(
        [army(1, 1, 6), army(2, 1, 6, co_occupying=True)],
        orders=[ArmyOrder(1, OrderKind.FORTIFY), ArmyOrder(2, OrderKind.RAZE_HOLD)],
    )
    _, events, _ = run(s, faces=[4, 4])  # A2 did not move out: the Foraging Table
    assert s.provinces[6].razed and not s.provinces[6].fortified
    assert [e.text for e in events if e.code == "fortify-razed"] == [
        "6 P6 is razed and cannot be fortified until it is recovered: A1 holds (Fortify)."
    ]


def test_a_disbanded_army_s_order_is_not_executed_and_no_false_reason_is_given():
    """An army disbanded in 2. Maintain Armies is gone: it does not move, and no refusal of its
    order stands in for the real reason (its disbanding, reported there)."""
    s = state([army(1, 1, 5, disbanded=True)], orders=[ArmyOrder(1, OrderKind.MOVE, target=6)])
    _, events, _ = run(s)
    assert s.armies[1].province == 5 and events == []


def test_case_O7_recover_4_plus_plus_one_per_consecutive_turn_natural_1_fails():
    s = state([army(1, 1, 6)], orders=[ArmyOrder(1, OrderKind.RECOVER)], razed=(6,))
    run(s, faces=[3])
    assert s.provinces[6].razed and s.armies[1].recover_streak == 1
    s.orders = {1: ArmyOrder(1, OrderKind.RECOVER)}
    run(s, faces=[3])  # second turn: 3 + 1 = 4
    assert not s.provinces[6].razed
    s = state([army(1, 1, 6, recover_streak=2)], orders=[ArmyOrder(1, OrderKind.RECOVER)], razed=(6,))
    run(s, faces=[1])  # a natural 1 always fails, even at +2
    assert s.provinces[6].razed


def test_an_army_sharing_a_razed_province_does_not_roll_to_recover_it():
    """Recover: "Armies occupying Razed provinces may attempt to Recover them"; an army sharing a
    friendly army's province "does not count as being there" (Forced March note; Occupied Province,
    decision 29), so it occupies nothing to recover: only A1, which keeps 6, rolls. Before, A2 rolled
    too when A1 failed, and recovered 6 on its 5: one more chance for the province each turn."""
    s = state(
        [army(1, 1, 6), army(2, 1, 6, co_occupying=True)],
        orders=[ArmyOrder(1, OrderKind.RECOVER), ArmyOrder(2, OrderKind.RECOVER)],
        razed=(6,),
        control={6: 1},
    )
    _, events, dice = run(s, faces=[4, 4, 2])  # A2 did not move out: the Foraging Table; A1 rolls 2
    assert s.provinces[6].razed
    assert [r.purpose for r in dice.rolls if "recover" in r.purpose] == ["A1: recover 6 P6 (4+, +0)"]
    assert (s.armies[1].recover_streak, s.armies[2].recover_streak) == (1, 0)
    assert [e.text for e in events if e.code == "recover-co-occupying"] == [
        "A2 shares 6 P6 with a friendly army and does not count as being there: it cannot recover it and holds "
        "(Recover; Forced March; Occupied Province)."
    ]


def test_case_O7_an_army_brought_to_battle_does_not_roll_to_recover():
    s = state(
        [army(1, 1, 6), army(2, 2, 7)],
        orders=[ArmyOrder(1, OrderKind.RECOVER), ArmyOrder(2, OrderKind.MOVE, target=6)],
        razed=(6,),
    )
    contacts, events, dice = run(s)
    assert dice.rolls == [] and "recover-in-battle" in codes(events)
    (refused,) = [e for e in events if e.code == "recover-in-battle"]
    assert refused.text == "A1 is being attacked: it cannot recover 6 P6 this turn (Recover)."
    assert [(c.attacker, c.defender) for c in contacts] == [(2, 1)]


def test_case_O8_orcs_forced_march_through_forest_at_minus_one():
    types = {1: ArmyType.ORCS_AND_GOBLINS}
    orders = [ArmyOrder(1, OrderKind.FORCED_MARCH, path=(7, 3))]
    s = state([army(1, 1, 6)], orders=orders, types=types)
    _, _, dice = run(s, faces=[2])  # 2 - 1 = 1: Mutiny, it holds
    assert s.armies[1].province == 6 and "-1 off plains" in dice.rolls[0].purpose
    s = state([army(1, 1, 6)], orders=orders, types=types)
    run(s, faces=[4])  # 3: Fatigue, one province
    assert s.armies[1].province == 7
    s = state([army(1, 1, 6)], orders=orders, types=types)
    contacts, events, _ = run(s, faces=[5])  # 4: two provinces; claims only where it ends
    assert s.armies[1].province == 3
    assert s.provinces[3].controller == 1 and s.provinces[7].controller is None


def test_case_O8_empire_rerolls_mutiny_on_plains():
    s = state([army(1, 1, 5)], orders=[ArmyOrder(1, OrderKind.FORCED_MARCH, path=(6, 11))])
    s.provinces[11] = wb.province_with(s.provinces[11], terrain="plains")
    _, _, dice = run(s, faces=[1, 6])
    assert s.armies[1].province == 11 and "reroll" in dice.rolls[1].purpose


def _forced_march_into_an_enemy(kingdom_type: ArmyType = ArmyType.LIZARDMEN) -> TurnState:
    # K1's A1 in 5 forced-marches 6 -> 11 (plains); K2's A2 stands in 6 and holds.
    s = state(
        [army(1, 1, 5), army(2, 2, 6)],
        orders=[ArmyOrder(1, OrderKind.FORCED_MARCH, path=(6, 11))],
        types={1: kingdom_type},
    )
    s.provinces[11] = wb.province_with(s.provinces[11], terrain="plains")
    return s


def test_case_O8_a_forced_march_into_an_enemy_occupied_province_is_rolled_and_mutiny_holds():
    """Army-Specific Rules, Forced March (decision 30): "After a Forced March order is submitted, the
    player must roll on the chart below and apply the results", an enemy in the way or not. A 1,
    Mutiny: "The army does not move this turn and acts as if it received the Hold order": no battle."""
    s = _forced_march_into_an_enemy()
    contacts, events, dice = run(s, faces=[1])
    assert [r.purpose for r in dice.rolls] == ["A1: forced march"]
    assert s.armies[1].province == 5 and contacts == []
    assert "forced-march-mutiny" in codes(events) and "forced-march-blocked" not in codes(events)


def test_case_O8_a_fatigued_forced_march_into_an_enemy_occupied_province_moves_in_and_fights():
    """Forced March (decision 30): Fatigue, "The army can only move into one province only this
    turn": the first of its path, where the enemy stands; it fights there."""
    s = _forced_march_into_an_enemy()
    contacts, events, _ = run(s, faces=[3])
    assert s.armies[1].province == 6 and not s.armies[1].co_occupying
    assert [(c.province, c.attacker, c.defender) for c in contacts] == [(6, 1, 2)]
    assert "forced-march-fatigue" in codes(events) and "forced-march-blocked" not in codes(events)


def test_case_O8_no_forced_march_through_an_enemy_occupied_province():
    """Forced March (decision 30): "An army cannot forced marched through an occupied enemy province":
    a successful roll stops it there, and it fights; the plains reroll of a Mutiny applies as anywhere."""
    s = _forced_march_into_an_enemy()
    contacts, events, dice = run(s, faces=[6])
    assert [r.purpose for r in dice.rolls] == ["A1: forced march"]
    assert s.armies[1].province == 6 and "forced-march-blocked" in codes(events)
    assert [(c.province, c.attacker, c.defender) for c in contacts] == [(6, 1, 2)]
    s = _forced_march_into_an_enemy(ArmyType.EMPIRE)
    contacts, events, dice = run(s, faces=[1, 5])  # Mutiny on plains, rerolled: 5
    assert "reroll" in dice.rolls[1].purpose and "forced-march-blocked" in codes(events)
    assert [(c.province, c.attacker, c.defender) for c in contacts] == [(6, 1, 2)]


def test_failed_forced_march_through_a_friendly_province_co_occupies():
    s = state([army(1, 1, 5), army(2, 1, 6)], orders=[ArmyOrder(1, OrderKind.FORCED_MARCH, path=(6, 11))])
    s.provinces[11] = wb.province_with(s.provinces[11], terrain="plains")
    _, events, _ = run(s, faces=[2])
    assert s.armies[1].province == 6 and s.armies[1].co_occupying
    assert "co-occupying" in codes(events)


def _fatigued_into_the_province_a_friend_leaves() -> TurnState:
    # K1: A1 in 5 forced-marches 6 -> 11 (plains); friendly A2 stands in 6 and moves to 2.
    # K2: A3 in 7 moves into 6.
    s = state(
        [army(1, 1, 5), army(2, 1, 6), army(3, 2, 7)],
        orders=[
            ArmyOrder(1, OrderKind.FORCED_MARCH, path=(6, 11)),
            ArmyOrder(2, OrderKind.MOVE, target=2),
            ArmyOrder(3, OrderKind.MOVE, target=6),
        ],
        control={5: 1, 6: 1, 2: 1, 7: 2},
    )
    s.provinces[11] = wb.province_with(s.provinces[11], terrain="plains")
    return s


def test_a_fatigued_forced_march_into_the_province_its_friend_leaves_stands_there_alone():
    """Forced March note (decision 41): the army that fails "co-occupies the province with the other
    army"; a friendly army that moves out this turn leaves none to share with. A1, fatigued into 6 as
    A2 leaves it, counts as being there: K2's A3, moving in as well, meets it (both moved), claims
    nothing, and the orders phase leaves no enemies together without a battle (the sanity check that
    rolled the turn back)."""
    from rulebook.sanity import world_problems

    s = _fatigued_into_the_province_a_friend_leaves()
    contacts, events, _ = run(s, faces=[2])  # Fatigue: one province only
    assert (s.armies[1].province, s.armies[2].province, s.armies[3].province) == (6, 2, 6)
    assert not s.armies[1].co_occupying and "co-occupying" not in codes(events)
    assert [(c.province, {c.attacker, c.defender}, c.both_moved) for c in contacts] == [(6, {1, 3}, True)]
    assert s.provinces[6].controller == 1 and "province-claimed" not in codes(events)
    assert world_problems(s.world, battle_provinces=frozenset(c.province for c in contacts)) == []
    # Next turn it holds: it shares nothing, so nothing to forage for.
    s.orders = {i: ArmyOrder(i, OrderKind.HOLD) for i in (1, 2, 3)}
    _, events, dice = run(s)
    assert dice.rolls == [] and "co-occupying-stayed" not in codes(events)


def test_a_fatigued_forced_march_co_occupies_with_a_friend_whose_move_out_is_cancelled():
    """Co-occupation is judged where the friendly army stands once the moves are made: A2, ordered
    out of 6 into 7, loses the Multiple Moves into Battle roll there and stays, so A1, fatigued into
    6, shares it with A2 (Forced March note)."""
    s = state(
        [army(1, 1, 5), army(2, 1, 6), army(3, 2, 3), army(4, 3, 11)],
        orders=[
            ArmyOrder(1, OrderKind.FORCED_MARCH, path=(6, 10)),
            ArmyOrder(2, OrderKind.MOVE, target=7),
            ArmyOrder(3, OrderKind.MOVE, target=7),
            ArmyOrder(4, OrderKind.MOVE, target=7),
        ],
        control={5: 1, 6: 1},
    )
    contacts, events, dice = run(s, faces=[3, 1, 5, 4])  # Fatigue; for 7: A2 1, A3 5, A4 4
    assert [r.purpose for r in dice.rolls][1:] == [f"A{i}: multiple moves into battle" for i in (2, 3, 4)]
    assert (s.armies[1].province, s.armies[2].province) == (6, 6)
    assert s.armies[1].co_occupying and not s.armies[2].co_occupying
    (shares,) = [e for e in events if e.code == "co-occupying"]
    assert shares.text == "A1 shares 6 P6 with A2: it does not count as being there and must move out next turn."
    assert [(c.province, c.attacker, c.defender) for c in contacts] == [(7, 3, 4)]


def test_a_fatigued_forced_march_rolls_occupied_province_with_a_friend_moving_into_the_province_its_friend_leaves():
    """Occupied Province: "two or more friendly armies attempt to move into ... the same province,
    roll a d6 for each army": A2 leaves 6, so A1 (fatigued) and A4 both move into a province no
    friendly army keeps; they roll as any two movers, and the loser holds."""
    s = state(
        [army(1, 1, 5), army(2, 1, 6), army(4, 1, 7)],
        orders=[
            ArmyOrder(1, OrderKind.FORCED_MARCH, path=(6, 11)),
            ArmyOrder(2, OrderKind.MOVE, target=2),
            ArmyOrder(4, OrderKind.MOVE, target=6),
        ],
    )
    s.provinces[11] = wb.province_with(s.provinces[11], terrain="plains")
    _, events, dice = run(s, faces=[2, 5, 3])  # Fatigue; for 6: A1 5, A4 3
    assert [r.purpose for r in dice.rolls][1:] == ["A1: occupied province", "A4: occupied province"]
    assert (s.armies[1].province, s.armies[4].province) == (6, 7)
    assert not s.armies[1].co_occupying


def test_case_O9_an_army_under_1000_points_does_not_claim():
    s = state([army(1, 1, 5, points=900)], orders=[ArmyOrder(1, OrderKind.MOVE, target=6)], control={6: 2})
    _, events, _ = run(s)
    assert s.armies[1].province == 6 and s.provinces[6].controller == 2
    assert "too-small-to-claim" in codes(events)


def test_case_O10_orders_execute_raze_then_moves_then_fortify_then_recover():
    s = state(
        [army(1, 1, 6), army(2, 1, 11), army(3, 1, 1)],
        orders=[
            ArmyOrder(1, OrderKind.RAZE_HOLD),
            ArmyOrder(2, OrderKind.RECOVER),
            ArmyOrder(3, OrderKind.MOVE, target=2),
        ],
        razed=(11,),
    )
    _, events, _ = run(s, faces=[6])
    order = [c for c in codes(events) if c in ("razed", "moved", "recovered")]
    assert order == ["razed", "moved", "recovered"]


def test_case_B1_enemy_province_without_army_or_settlement_changes_control_without_battle():
    s = state([army(1, 1, 5, points=1000)], orders=[ArmyOrder(1, OrderKind.MOVE, target=6)], control={6: 2})
    contacts, events, _ = run(s)
    assert contacts == [] and s.provinces[6].controller == 1
    assert {"province-claimed", "province-lost"} <= set(codes(events))


def test_case_B2_moving_into_an_enemy_town_without_army_meets_its_garrison():
    s = state([army(1, 1, 5)], orders=[ArmyOrder(1, OrderKind.MOVE, target=10)], control={10: 2})
    contacts, _, _ = run(s)
    assert [(c.province, c.attacker, c.defender) for c in contacts] == [(10, 1, None)]
    assert s.provinces[10].controller == 2


def test_case_B5_three_unallied_kingdoms_into_one_province_the_lowest_holds():
    s = state(
        [army(1, 1, 5), army(2, 2, 7), army(3, 3, 11)],
        orders=[
            ArmyOrder(1, OrderKind.MOVE, target=6),
            ArmyOrder(2, OrderKind.MOVE, target=6),
            ArmyOrder(3, OrderKind.MOVE, target=6),
        ],
    )
    contacts, events, _ = run(s, faces=[5, 2, 4])
    assert s.armies[2].province == 7 and {s.armies[1].province, s.armies[3].province} == {6}
    assert [(c.province, {c.attacker, c.defender}, c.both_moved) for c in contacts] == [(6, {1, 3}, True)]
    assert "multiple-moves" in codes(events)


def test_moving_into_a_desert_meets_the_ancient_dead_garrison():
    s = state([army(1, 1, 4)], orders=[ArmyOrder(1, OrderKind.MOVE, target=8)])
    contacts, _, _ = run(s)
    assert [(c.province, c.defender) for c in contacts] == [(8, None)]


def test_a_co_occupying_army_that_does_not_move_out_forages():
    s = state([army(1, 1, 6, co_occupying=True), army(2, 1, 6)], orders=[ArmyOrder(1, OrderKind.HOLD)])
    _, events, dice = run(s, faces=[4, 4])  # 8 on the Foraging Table: no forced march, nothing lost
    assert "co-occupying-stayed" in codes(events)
    assert dice.rolls[0].purpose == "A1: Foraging Table"
    assert s.armies[1].co_occupying


def test_a_co_occupying_army_that_moves_out_no_longer_shares():
    s = state([army(1, 1, 6, co_occupying=True), army(2, 1, 6)], orders=[ArmyOrder(1, OrderKind.MOVE, target=7)])
    _, events, dice = run(s)
    assert dice.rolls == [] and not s.armies[1].co_occupying and s.armies[1].province == 7


def test_a_sharing_army_whose_partner_leaves_counts_as_there_and_does_not_forage():
    """Forced March note (decision 41): "The army must move out of that province in the next turn. If
    it does not ..., roll on the Foraging Table ... as the province cannot support 2 armies at once."
    Its partner A2 moves out instead: A1 holds 6 alone, forages for nothing, and counts as being
    there: K2's A3 moving in attacks it."""
    s = state(
        [army(1, 1, 6, co_occupying=True), army(2, 1, 6), army(3, 2, 7)],
        orders=[
            ArmyOrder(1, OrderKind.HOLD),
            ArmyOrder(2, OrderKind.MOVE, target=2),
            ArmyOrder(3, OrderKind.MOVE, target=6),
        ],
        control={6: 1, 2: 1, 7: 2},
    )
    contacts, events, dice = run(s)
    assert dice.rolls == [] and not s.armies[1].co_occupying
    assert [(c.province, c.attacker, c.defender) for c in contacts] == [(6, 3, 1)]
    assert "co-occupying-stayed" not in codes(events) and "province-claimed" not in codes(events)
    (alone,) = [e for e in events if e.code == "co-occupying-ended"]
    assert alone.text == (
        "A1 no longer shares 6 P6: no other army of its kingdom stands there now, so it counts as being there "
        "(Forced March)."
    )


def test_a_sharing_army_whose_partner_was_disbanded_counts_as_there():
    """The same when the partner is gone before the orders (disbanded by the Foraging Table)."""
    s = state(
        [army(1, 1, 6, co_occupying=True), army(2, 1, 6, disbanded=True)], orders=[ArmyOrder(1, OrderKind.FORTIFY)]
    )
    _, events, dice = run(s)
    assert dice.rolls == [] and not s.armies[1].co_occupying
    assert s.provinces[6].fortified and "co-occupying-ended" in codes(events)


def test_an_order_the_check_refuses_now_holds_and_its_event_names_the_army_once():
    """The normalisation's event says why in words that name the army once ("A1: 16 P16 is not
    adjacent ...", never "A1: A1: ..."), and keeps the sheet check's code in its data."""
    s = state(
        [army(1, 1, 1), army(2, 1, 11, created_turn=2)],
        orders=[ArmyOrder(1, OrderKind.FORCED_MARCH, path=(6, 16)), ArmyOrder(2, OrderKind.MOVE, target=12)],
    )
    _, events, _ = run(s)
    illegal = {e.army: e for e in events if e.code == "order-illegal"}
    assert illegal[1].text == "A1: 16 P16 is not adjacent to 6 P6 (Forced March). It holds."
    assert illegal[1].data == {"problem": "forced-march-not-adjacent"}
    assert illegal[2].text.startswith("A2 was created this turn: newly made")
    assert illegal[2].data == {"problem": "new-army-moves"}
    assert all(e.text.count(f"A{army_id}") == 1 for army_id, e in illegal.items())
    assert (s.armies[1].province, s.armies[2].province) == (1, 11)


def test_an_order_refused_or_cut_short_keeps_the_army_s_standing_choices():
    """Battle for Towns, Cities, and Capitols: the player chose on the sheet who defends the town
    if the army is attacked there. An order the check refuses (Hold instead) and a raze then move
    that takes too long (it stays) keep that choice and the Foraging Table's answers."""
    s = state(
        [army(1, 1, 10), army(2, 1, 9)],
        orders=[
            ArmyOrder(1, OrderKind.MOVE, target=16, defend_with="garrison", disaster_choice="disband"),
            ArmyOrder(2, OrderKind.RAZE_MOVE, target=13, disaster_choice="disband", pay_for_depot=False),
        ],
        control={10: 1},
    )
    _, events, _ = run(s, faces=[2])  # the raze then move rolls 2: it stays
    assert "order-illegal" in codes(events) and "raze-too-long" in codes(events)
    assert s.orders[1] == ArmyOrder(1, OrderKind.HOLD, defend_with="garrison", disaster_choice="disband")
    assert s.orders[2] == ArmyOrder(2, OrderKind.HOLD, disaster_choice="disband", pay_for_depot=False)


def test_multiple_moves_a_move_held_at_a_later_province_makes_its_start_province_roll_again():
    """Multiple Moves into Battle: "Three or more armies from three or more unallied kingdoms cannot
    occupy the same map section" (decision 576). K1's A1 leaves 6 for 11; K2's A2 and K3's A3 move
    into 6 (two kingdoms: no roll while A1 leaves). Into 11, which K2's A4 holds, move A1 and K3's A5:
    three kingdoms, A1 rolls 1 against A5's 6 and holds in 6. Now 6 holds K1 and is entered by K2 and
    K3: they roll again and the lower holds, so 6 ends with two kingdoms and one battle. (The fuzz
    harness's finding: checked once, in province order, 6 ended with K1, K2 and K3, two battles
    against A1, and the two victors beside each other with no battle: the turn could not resolve.)"""
    from rulebook.sanity import world_problems

    s = state(
        [army(1, 1, 6), army(2, 2, 5), army(3, 3, 2), army(4, 2, 11), army(5, 3, 15)],
        orders=[
            ArmyOrder(1, OrderKind.MOVE, target=11),
            ArmyOrder(2, OrderKind.MOVE, target=6),
            ArmyOrder(3, OrderKind.MOVE, target=6),
            ArmyOrder(5, OrderKind.MOVE, target=11),
        ],
    )
    contacts, events, dice = run(s, faces=[1, 6, 5, 2])  # into 11: A1 1, A5 6; into 6 again: A2 5, A3 2
    assert [r.purpose for r in dice.rolls] == [f"A{i}: multiple moves into battle" for i in (1, 5, 2, 3)]
    assert [s.armies[i].province for i in (1, 2, 3, 4, 5)] == [6, 6, 2, 11, 11]
    assert [e.text for e in events if e.code == "multiple-moves"] == [
        "Multiple moves into 11 P11: A1 rolls 1, lower than the others, and holds (Multiple Moves into Battle).",
        "Multiple moves into 6 P6: A3 rolls 2, lower than the others, and holds (Multiple Moves into Battle).",
    ]
    assert [(c.province, c.attacker, c.defender) for c in contacts] == [(6, 2, 1), (11, 5, 4)]
    assert world_problems(s.world, battle_provinces=frozenset(c.province for c in contacts)) == []


def test_multiple_moves_rolls_for_no_one_when_no_army_moves_in_from_outside_the_sides_there():
    """Multiple Moves into Battle has the kingdoms moving in roll: where the sides already there are
    three (K3's garrisoned town 10, and K1's and K2's armies standing in it) and only K3's own army
    moves in, nobody rolls (it rolled for no army and the orders phase raised); K3's army holds, since
    "Three or more armies from three or more unallied kingdoms cannot occupy the same map section"
    (decision 571)."""
    from rulebook.turn.executing_orders.multiple_moves_into_battle import multiple_moves_into_battle

    s = state(
        [army(1, 1, 10, points=900), army(2, 2, 10, points=900), army(3, 3, 14)],
        orders=[ArmyOrder(3, OrderKind.MOVE, target=10)],
        control={10: 3, 14: 3},
    )
    dice, events = ScriptedDice(faces=[]), []
    moves = {3: (10, [])}
    assert multiple_moves_into_battle(s, dice, events, moves, {1: 10, 2: 10, 3: 14})
    assert moves == {} and dice.rolls == []
    assert [e.army for e in events] == [3] and "three sides" in events[0].text


def test_multiple_moves_the_places_are_the_sides_an_ally_follows_its_side_in():
    """Multiple Moves into Battle: "The highest 2 rolls move as normal and fight, the third player's
    army(s) remain stationary"; two allies count as one side (decision 138). Into the empty province 6
    come K1's A1, its ally K2's A2, K3's A3 and K4's A4: A1 (6) and A2 (5) roll highest, one side,
    so the second place is the next side's, A3's (4); only A4 (1) holds. (The places were counted by
    army: A3 held too, though there was room for its side.)"""
    from rulebook.allies.chart import AllianceState, TrustLevel
    from rulebook.turn.executing_orders.multiple_moves_into_battle import multiple_moves_into_battle

    s = state(
        [army(1, 1, 5), army(2, 2, 7), army(3, 3, 2), army(4, 4, 10)],
        orders=[ArmyOrder(i, OrderKind.MOVE, target=6) for i in (1, 2, 3, 4)],
    )
    s.world.kingdoms[4] = wb.kingdom(4, "K4", treasury=1000)
    s.world.alliances[7] = AllianceState(id=7, first=1, second=2, trust=TrustLevel.TRUSTED, formed_turn=1)
    dice, events = ScriptedDice(faces=[6, 5, 4, 1]), []
    moves = {i: (6, []) for i in (1, 2, 3, 4)}
    assert multiple_moves_into_battle(s, dice, events, moves, {1: 5, 2: 7, 3: 2, 4: 10})
    assert sorted(moves) == [1, 2, 3]
    assert [e.army for e in events] == [4] and "rolls 1, lower than the others" in events[0].text


def test_multiple_moves_two_sides_there_a_third_holds_without_a_roll():
    """Multiple Moves into Battle: "Three or more armies from three or more unallied kingdoms cannot
    occupy the same map section". K1's A1 and K2's A2 stand in 6 (their battle this turn); K3's A3
    moving in holds, and rolls no die: no roll could let it in."""
    from rulebook.turn.executing_orders.multiple_moves_into_battle import multiple_moves_into_battle

    s = state(
        [army(1, 1, 6), army(2, 2, 6), army(3, 3, 2)],
        orders=[ArmyOrder(3, OrderKind.MOVE, target=6)],
    )
    dice, events = ScriptedDice(faces=[]), []
    moves = {3: (6, [])}
    assert multiple_moves_into_battle(s, dice, events, moves, {1: 6, 2: 6, 3: 2})
    assert moves == {} and dice.rolls == []
    assert [e.army for e in events] == [3] and "two unallied sides stand there already" in events[0].text


def test_occupied_province_a_friend_held_later_makes_the_army_that_entered_its_province_roll():
    """Occupied Province: "two or more friendly armies attempt to move into or occupy the same
    province, roll a d6 for each army" (decision 577). K1's A2 moves into 6 as K1's A1 leaves it for
    11: no roll. Into 11, which K2's A4 holds, A1 and K3's A5 move: A1 loses Multiple Moves into
    Battle and stays in 6, so A2, which moved in, now rolls Occupied Province against it. A1 (5)
    keeps 6 and A2 (2) holds in 5. (The roll-offs ran once, Occupied Province first: A1 and A2 both
    stood in 6, both counting, with no roll.) Should A2 win, it moves in and shares 6 (decision 29)."""
    for faces, a2_in, shares in (([1, 6, 5, 2], 5, False), ([1, 6, 2, 5], 6, True)):
        s = state(
            [army(1, 1, 6), army(2, 1, 5), army(4, 2, 11), army(5, 3, 15)],
            orders=[
                ArmyOrder(1, OrderKind.MOVE, target=11),
                ArmyOrder(2, OrderKind.MOVE, target=6),
                ArmyOrder(5, OrderKind.MOVE, target=11),
            ],
        )
        contacts, events, dice = run(s, faces=faces)  # into 11: A1 1, A5 6; for 6: A1 (staying), A2
        assert [r.purpose for r in dice.rolls] == [
            "A1: multiple moves into battle",
            "A5: multiple moves into battle",
            "A1: occupied province",
            "A2: occupied province",
        ]
        assert (s.armies[1].province, s.armies[2].province, s.armies[2].co_occupying) == (6, a2_in, shares)
        assert not s.armies[1].co_occupying
        assert [(c.province, c.attacker, c.defender) for c in contacts] == [(11, 5, 4)]


def test_a_move_into_ruins_without_a_raid_makes_its_start_province_roll_multiple_moves():
    """Ruins: without a raid the army "may not move into to the province this turn"; Multiple Moves
    into Battle: "Three or more armies from three or more unallied kingdoms cannot occupy the same map
    section" (decision 577). K1's A1 leaves 6 for the ruins of 11 with no Tomb Raid, so it stays in 6,
    into which K2's A2 and K3's A3 move: they roll, and the lower holds. (Ruins came after the
    roll-offs: 6 ended with K1, K2 and K3, two battles against A1, and the turn could not resolve.)"""
    from rulebook.sanity import world_problems

    s = state(
        [army(1, 1, 6), army(2, 2, 5), army(3, 3, 2)],
        orders=[
            ArmyOrder(1, OrderKind.MOVE, target=11),
            ArmyOrder(2, OrderKind.MOVE, target=6),
            ArmyOrder(3, OrderKind.MOVE, target=6),
        ],
    )
    s.provinces[11] = wb.province_with(s.provinces[11], settlement="ruins")
    contacts, events, dice = run(s, faces=[2, 5])  # for 6: A2 2, A3 5
    assert [r.purpose for r in dice.rolls] == ["A2: multiple moves into battle", "A3: multiple moves into battle"]
    assert [s.armies[i].province for i in (1, 2, 3)] == [6, 5, 6]
    assert [e.code for e in events if e.code in ("ruins-no-raid", "multiple-moves")] == [
        "ruins-no-raid",
        "multiple-moves",
    ]
    assert [(c.province, c.attacker, c.defender) for c in contacts] == [(6, 3, 1)]
    assert world_problems(s.world, battle_provinces=frozenset(c.province for c in contacts)) == []


def test_an_army_kept_out_of_ruins_stays_in_the_ruin_it_meant_to_leave_and_the_enemy_entering_it_fights():
    """Ruins: without a raid the army "may not move into to the province this turn"; where enemies meet
    in ruins they fight as usual (decisions 420, 422, 577). K1's A1 leaves the ruins of 11 for those
    of 7 with no Tomb Raid and stays in 11; K2's A2 moves into 11 on its kingdom's raid. With A1 staying,
    enemies meet in 11: A2 attacks A1 and does not stand in the ruin on its raid beside it. (The ruins
    were judged once, as the moves stood: A2 stood in 11 on its raid beside A1, neither fighting.)"""
    from rulebook.sanity import world_problems

    s = state(
        [army(1, 1, 11), army(2, 2, 15)],
        orders=[ArmyOrder(1, OrderKind.MOVE, target=7), ArmyOrder(2, OrderKind.MOVE, target=11)],
    )
    for n in (7, 11):
        s.provinces[n] = wb.province_with(s.provinces[n], settlement="ruins")
    s.raids = {2: 11}
    contacts, events, dice = run(s)
    assert (s.armies[1].province, s.armies[2].province) == (11, 11)
    assert [e.army for e in events if e.code == "ruins-no-raid"] == [1]
    assert [(c.province, c.attacker, c.defender, c.raid) for c in contacts] == [(11, 2, 1, False)]
    assert world_problems(s.world, battle_provinces=frozenset(c.province for c in contacts)) == []
