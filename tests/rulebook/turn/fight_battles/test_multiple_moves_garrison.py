"""A garrison counts in Multiple Moves into Battle (decision 372), through the turn's resolution
(rulebook/turn/executing_orders/multiple_moves_into_battle.py, fight_battles/scheduling.py) with
scripted dice.

Rulebook: Multiple Moves into Battle ("If two attacking players are not in alliance and try to
attack the same province that is occupied by a third unallied player, then a three player roll for
initiative. The highest 2 rolls move as normal and fight, the third player's army(s) remain
stationary"); Battle for Towns, Cities, and Capitols ("If a town, city or capital is under attack,
you may either defend with the local garrison force ... Garrisons cannot leave the province"); The
Ancient Dead: Deserts (a 1000 point Ancient Dead garrison force). Found by the four-turn walk-through:
Ostland and an Ancient Dead host both entered Da Red Fang's town and fought each other, the winner
taking the town without ever meeting its garrison.
"""

from kernel.dice import ScriptedDice
from kernel.event_codes import EventCode
from rulebook.allies.chart import AllianceState, TrustLevel
from rulebook.tables import ArmyType
from rulebook.turn.pipeline import Resolution, resolve_orders
from rulebook.turn.state import TurnState
from rulebook.turn.write_orders.records import ArmyOrder, OrderKind, SheetEntries
from tests import world_builders as wb
from tests.rulebook.resolving import of, resolve

# A 4 x 4 grid (corner to corner adjacent):
#   1  2  3  4
#   5  6  7  8
#   9 10 11 12
#  13 14 15 16
# Ostland (1) holds 5; Da Red Fang (2) holds 1 and the town in 10 (no army of theirs stands
# there); Karak Dumn (3) holds 11; 8 is a desert with its Ancient Dead garrison (the desert test
# gives it to the Ancient Dead).
OSTLAND, FANG, KARAK = 1, 2, 3
CONTROL = {5: OSTLAND, 1: FANG, 10: FANG, 11: KARAK}
TOWN, DESERT = 10, 8
TERRAIN = {DESERT: "desert"}
ALLIANCE = AllianceState(id=7, first=OSTLAND, second=FANG, trust=TrustLevel.TRUSTED, formed_turn=1)


def moving_in(target: int, *armies: tuple[int, int, int], alliances: tuple[AllianceState, ...] = ()) -> TurnState:
    """Each (army id, kingdom, province) stands there with 1,500 points and is ordered into `target`."""
    world = wb.world(
        provinces=[
            wb.province(n, TERRAIN.get(n, "plains"), "town" if n == TOWN else "none", controller=CONTROL.get(n))
            for n in range(1, 17)
        ],
        kingdoms=[
            wb.kingdom(OSTLAND, "Ostland", ArmyType.EMPIRE, treasury=1000),
            wb.kingdom(FANG, "Da Red Fang", ArmyType.ORCS_AND_GOBLINS, treasury=1000),
            wb.kingdom(KARAK, "Karak Dumn", ArmyType.DWARFS, treasury=1000),
        ],
        armies=[wb.army(army, kingdom, where, name=f"A{army}") for army, kingdom, where in armies],
        adjacency=wb.grid(4),
        turn=3,
        player_count=3,
    )
    world.alliances.update({a.id: a for a in alliances})
    sheets: dict[int, SheetEntries] = {}
    for army, kingdom, _ in armies:
        order = ArmyOrder(army, OrderKind.MOVE, target=target)
        sheets[kingdom] = SheetEntries(orders=(*sheets.get(kingdom, SheetEntries()).orders, order))
    orders = {o.army: o for s in sheets.values() for o in s.orders}
    return TurnState(world=world, orders=orders, sheets=sheets)


def battles_of(result: Resolution) -> list[tuple[int, int, int | None, int | None, bool]]:
    """(province, attacking kingdom, defending kingdom, defending army, whether the garrison defends)."""
    return [
        (b.province, b.attacker_kingdom, b.defender_kingdom, b.defender_army, b.garrison_defends)
        for b in result.battles
    ]


def test_case_B5_two_kingdoms_into_a_third_s_garrisoned_town_the_higher_roll_fights_the_garrison():
    """Multiple Moves into Battle; Battle for Towns, Cities, and Capitols: Da Red Fang's town of 10
    has no army of theirs in it, but its garrison occupies it (it "cannot leave the province"), so
    Ostland and Karak Dumn moving in make three unallied kingdoms: they roll, Karak Dumn's 5 beats
    Ostland's 2, Karak Dumn moves in and attacks the garrison (an Assault), Ostland holds."""
    dice = ScriptedDice(faces=[2, 5])
    result = resolve_orders(moving_in(TOWN, (11, OSTLAND, 6), (13, KARAK, 11)), dice)

    assert [(r.purpose, r.total) for r in dice.rolls] == [
        ("A11: multiple moves into battle", 2),
        ("A13: multiple moves into battle", 5),
    ]
    assert (result.state.armies[11].province, result.state.armies[13].province) == (6, TOWN)
    (held,) = of(result.events, EventCode.MULTIPLE_MOVES)
    assert held.kingdom == OSTLAND and held.army == 11
    assert held.text == (
        "Multiple moves into 10 P10, which Da Red Fang's town garrison defends: A11 rolls 2, lower than the "
        "others, and holds (Multiple Moves into Battle)."
    )
    assert battles_of(result) == [(TOWN, KARAK, FANG, None, True)]
    (battle,) = result.battles
    assert (battle.garrison_points, battle.assault) == (750, True)
    # The result of the combat will determine who controls the province: until then it is Da Red Fang's.
    assert result.state.provinces[TOWN].controller == FANG
    (attacked,) = of(result.events, EventCode.BATTLE_SCHEDULED, FANG)
    assert attacked.text == "The town garrison of 10 P10 is attacked by A13 (Karak Dumn) in 10 P10. It is an Assault."
    assert of(result.events, EventCode.BATTLE_SCHEDULED, OSTLAND) == []  # Ostland fights nobody this turn


def test_case_B5_the_other_mover_s_higher_roll_sends_it_against_the_garrison():
    """The same moves with the other roll: Ostland's 6 beats Karak Dumn's 3."""
    result = resolve(moving_in(TOWN, (11, OSTLAND, 6), (13, KARAK, 11)), [6, 3])

    assert (result.state.armies[11].province, result.state.armies[13].province) == (TOWN, 11)
    (held,) = of(result.events, EventCode.MULTIPLE_MOVES)
    assert (held.kingdom, held.army) == (KARAK, 13) and "A13 rolls 3, lower than the others, and holds" in held.text
    assert battles_of(result) == [(TOWN, OSTLAND, FANG, None, True)]


def test_a_desert_s_ancient_dead_garrison_counts_as_a_third_kingdom():
    """Multiple Moves into Battle; The Ancient Dead: Deserts ("a 1000 point Ancient Dead garrison
    force"): Ostland and Karak Dumn moving into the Ancient Dead's desert roll; Ostland's 6 moves in
    and fights the garrison, Karak Dumn's 1 holds."""
    s = moving_in(DESERT, (11, OSTLAND, 7), (13, KARAK, 12))
    s.world.kingdoms[4] = wb.kingdom(4, "The Ancient Dead", ArmyType.ANCIENT_DEAD, capitol=16)
    s.world.provinces[DESERT] = wb.province_with(s.world.provinces[DESERT], controller=4)
    result = resolve(s, [6, 1])

    assert (result.state.armies[11].province, result.state.armies[13].province) == (DESERT, 12)
    (held,) = of(result.events, EventCode.MULTIPLE_MOVES)
    assert held.kingdom == KARAK and held.text == (
        "Multiple moves into 8 P8, which its Ancient Dead garrison defends: A13 rolls 1, lower than the others, "
        "and holds (Multiple Moves into Battle)."
    )
    assert battles_of(result) == [(DESERT, OSTLAND, 4, None, True)]
    assert result.battles[0].garrison_points == 1000


def test_an_ally_s_garrison_is_no_third_side_the_two_movers_meet_without_a_roll():
    """Multiple Moves into Battle counts two allies as one side (decision 138): Ostland is Da Red
    Fang's ally, so its army and Karak Dumn's moving into Da Red Fang's town are two sides, not
    three. No die is rolled, both move in, and they meet each other: Karak Dumn attacks the town,
    which Ostland's army defends with its ally's garrison beside it (decision 584)."""
    result = resolve(moving_in(TOWN, (11, OSTLAND, 6), (13, KARAK, 11), alliances=(ALLIANCE,)), [])

    assert of(result.events, EventCode.MULTIPLE_MOVES) == []
    assert (result.state.armies[11].province, result.state.armies[13].province) == (TOWN, TOWN)
    assert battles_of(result) == [(TOWN, KARAK, OSTLAND, 11, False)]
    assert result.battles[0].garrison_points == 500


def test_an_army_moving_into_its_own_garrisoned_town_is_there_already_and_never_rolls():
    """Decision 372 (and decision 31, the kingdom already in a province never rolls): Da Red Fang's
    army marches into its own town of 10 while Ostland and Karak Dumn move in too. The town is Da Red
    Fang's by its garrison, so only the two others roll: Karak Dumn's 5 beats Ostland's 2 and moves
    in, Ostland holds, and Da Red Fang's army, never rolling, takes its place in its town and meets
    Karak Dumn there."""
    dice = ScriptedDice(faces=[2, 5])
    result = resolve_orders(moving_in(TOWN, (11, OSTLAND, 5), (12, FANG, 6), (13, KARAK, 11)), dice)

    assert [r.purpose for r in dice.rolls] == ["A11: multiple moves into battle", "A13: multiple moves into battle"]
    assert [result.state.armies[a].province for a in (11, 12, 13)] == [5, TOWN, TOWN]
    (held,) = of(result.events, EventCode.MULTIPLE_MOVES)
    assert (held.kingdom, held.army) == (OSTLAND, 11)
    (battle,) = result.battles
    assert battle.province == TOWN and {battle.attacker_kingdom, battle.defender_kingdom} == {KARAK, FANG}
