"""Phase 6, Fight Battles: scheduling (rulebook/turn/fight_battles/). Rule cases B2, B3, B4;
garrisons, the Elite Defense Force, deserts, Fortify and Defended Obstacles. No database."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from kernel.dice import ScriptedDice
from kernel.events import Event
from rulebook.tables import ArmyType
from rulebook.turn.fight_battles.scheduling import build_battles
from rulebook.turn.state import (
    BattleS,
    Contact,
    SupportS,
    TurnState,
)
from rulebook.turn.write_orders.records import ArmyOrder, LossesFrom, OrderKind, SheetEntries
from rulebook.world import ArmyState, UnitState
from tests import world_builders as wb

AVALON, BRYTHON, CARNWYL, DEAD = 1, 2, 3, 9

# A small map around province 5, where most battles are fought:
#   1 2 3
#   4 5 6      7 borders 4 and 8; 8 borders only 7 (far from 5).
EDGES = [(1, 2), (2, 3), (1, 4), (1, 5), (2, 5), (3, 5), (3, 6), (4, 5), (5, 6), (4, 7), (7, 8)]


class Scene:
    """Builds a TurnState: eight plains provinces, four kingdoms, armies with their orders."""

    def __init__(self) -> None:
        self.provinces = {n: wb.province(n, name=f"Province {n}") for n in range(1, 9)}
        self.kingdoms = {
            AVALON: wb.kingdom(AVALON, "Avalon", ArmyType.EMPIRE, treasury=0),
            BRYTHON: wb.kingdom(BRYTHON, "Brython", ArmyType.DWARFS, treasury=0),
            CARNWYL: wb.kingdom(CARNWYL, "Carnwyl", ArmyType.HIGH_ELVES, treasury=0),
            DEAD: wb.kingdom(DEAD, "The Ancient Dead", ArmyType.ANCIENT_DEAD, treasury=0),
        }
        self.armies: dict[int, ArmyState] = {}
        self.garrisons: dict[int, ArmyState] = {}
        self.orders: dict[int, ArmyOrder] = {}

    def province(self, number: int, **changes: Any) -> Scene:
        self.provinces[number] = wb.province_with(self.provinces[number], **changes)
        return self

    def capitol(self, kingdom: int, number: int) -> Scene:
        self.kingdoms[kingdom] = dataclasses.replace(self.kingdoms[kingdom], capitol=number)
        return self

    def army(
        self,
        army_id: int,
        kingdom: int,
        province: int,
        points: int = 1500,
        order: ArmyOrder | None = None,
        **changes: Any,
    ) -> Scene:
        self.armies[army_id] = wb.army(army_id, kingdom, province, points, **changes)
        self.orders[army_id] = order or ArmyOrder(army_id)
        return self

    def fortified_by(self, army_id: int) -> Scene:
        """The army has fortified the province it stands in (Fortify): the province shows it."""
        army = self.armies[army_id]
        self.armies[army_id] = dataclasses.replace(army, fortified_in=army.province)
        return self.province(army.province, fortified=True)

    def garrison(self, army_id: int, kingdom: int, province: int, points: int = 500, **changes: Any) -> Scene:
        """An army row that garrisons `province`: an Elite Defense Force, or the Ancient Dead's Capitol Garrison."""
        self.garrisons[army_id] = wb.garrison(army_id, kingdom, province, points, **changes)
        return self

    def supporter(self, army_id: int, kingdom: int, province: int, battle: int = 5, **changes: Any) -> Scene:
        return self.army(
            army_id, kingdom, province, order=ArmyOrder(army_id, OrderKind.SUPPORT, support=battle), **changes
        )

    def state(self) -> TurnState:
        world = wb.world(
            provinces=self.provinces.values(),
            kingdoms=self.kingdoms.values(),
            armies=self.armies.values(),
            garrisons=self.garrisons.values(),
            adjacency=wb.edges(EDGES, self.provinces),
            turn=3,
            player_count=3,
        )
        return TurnState(world=world, orders=self.orders)


def resolve(
    world: Scene, contacts: list[Contact], faces: list[int] | None = None
) -> tuple[TurnState, list[BattleS], list[Event], ScriptedDice]:
    state = world.state()
    dice = ScriptedDice(faces=faces or [])
    events: list[Event] = []
    battles = build_battles(state, contacts, dice, events)
    assert dice.unused == [], "the battle rolled fewer dice than the test scripted"
    return state, battles, events, dice


def codes(events: list[Event], code: str) -> list[Event]:
    return [e for e in events if e.code == code]


def refusals(events: list[Event]) -> dict[int | None, str]:
    return {e.army: e.data["reason"] for e in codes(events, "support-refused")}


def roll_kinds(dice: ScriptedDice) -> list[str]:
    kinds = ("guerrilla tactics", "support arrival", "defended obstacles")
    return [next(k for k in kinds if k in roll.purpose) for roll in dice.rolls]


def army_vs_army(attacker: int = 1500, defender: int = 1500) -> Scene:
    """Avalon's army 10 moves into province 5, where Brython's army 20 stands."""
    return Scene().army(10, AVALON, 5, points=attacker).army(20, BRYTHON, 5, points=defender)


ATTACK_5 = Contact(province=5, attacker=10, defender=20)


# B2 and the garrisons (Battle for Towns, Cities, and Capitols; Deserts) --------------------------


def test_case_B2_an_enemy_town_without_an_army_is_an_assault_on_its_750_point_garrison() -> None:
    world = Scene().province(5, settlement="town", controller=BRYTHON).army(10, AVALON, 5)

    _, battles, events, dice = resolve(world, [Contact(province=5, attacker=10)])

    (battle,) = battles
    assert (battle.attacker_kingdom, battle.attacker_army) == (AVALON, 10)
    assert (battle.defender_kingdom, battle.defender_army) == (BRYTHON, None)
    assert (battle.garrison_points, battle.garrison_defenses) == (750, 1)
    assert battle.assault is True
    assert battle.guerrilla is None and battle.supports == [] and dice.rolls == []
    scheduled = codes(events, "battle-scheduled")
    assert [(e.kingdom, e.data["opponent_kingdom"], e.data["assault"]) for e in scheduled] == [
        (AVALON, BRYTHON, True),
        (BRYTHON, AVALON, True),
    ]
    assert all(e.province == 5 for e in scheduled)


def test_case_B2_an_army_defending_its_own_town_is_an_assault_supported_by_the_garrison() -> None:
    world = army_vs_army().province(5, settlement="town", controller=BRYTHON)

    _, (battle,), _, _ = resolve(world, [ATTACK_5])

    assert battle.defender_army == 20
    assert battle.assault is True
    # The 750-point garrison supports the army only up to the 500-point cap; its defense still stands.
    assert (battle.garrison_points, battle.garrison_defenses) == (500, 1)


def test_both_moved_into_a_town_the_garrison_beside_the_army_is_its_support_in_the_set_up_notes() -> None:
    """6. Fight Battles: "If both armies move into the province at the same time ... If one was
    supported and the opponent was not, the supported army has +1 to choose sides, and the
    unsupported army has +1 to go first"; Support: "up to a maximum of 500 points of support
    (including ... Garrisons)". Avalon's army 10 and Brython's army 20 both move into Brython's town 5
    (decision 584: Brython's army defends it with the garrison beside it). With a detachment for
    Avalon both sides are supported: no +1 either way, as the scenario sheet has it. With none, the
    garrison alone makes Brython's army the supported one. Before, the notes counted the
    detachments only: they told the players Army 20 was unsupported and Army 10 had +1 to choose
    sides, against the scenario sheet."""
    both_moved = Contact(province=5, attacker=10, defender=20, both_moved=True)
    town = Scene().province(5, settlement="town", controller=BRYTHON).army(10, AVALON, 5).army(20, BRYTHON, 5)

    _, (battle,), _, _ = resolve(town.supporter(11, AVALON, 4), [both_moved], faces=[4])

    assert battle.garrison_points == 500 and [s.side for s in battle.supports] == ["attacker"]
    assert not [n for n in battle.notes if n.startswith("Both armies moved in")]

    _, (battle,), _, _ = resolve(
        Scene().province(5, settlement="town", controller=BRYTHON).army(10, AVALON, 5).army(20, BRYTHON, 5),
        [both_moved],
    )

    assert [n for n in battle.notes if n.startswith("Both armies moved in")] == [
        "Both armies moved in: Army 20 is supported (+1 to choose sides), Army 10 is not (+1 to go first)."
    ]


def defended_town(defend_with: str | None) -> Scene:
    """Avalon's 1,500-point army 10 attacks Brython's town 5, where Brython's 1,500-point army 20 stands."""
    order = ArmyOrder(20) if defend_with is None else ArmyOrder(20, defend_with=defend_with)
    return (
        Scene().province(5, settlement="town", controller=BRYTHON).army(10, AVALON, 5).army(20, BRYTHON, 5, order=order)
    )


def test_case_R4_the_garrison_chosen_fights_and_the_army_supports_it() -> None:
    """Battle for Towns, Cities, and Capitols: "you may use either the local garrison force or the
    army". Chose the garrison: the 750-point garrison is the main force; the army supports it with a
    detachment (Support: at most 200 points, within the 500-point cap), rolling Support Arrival."""
    _, (battle,), events, dice = resolve(defended_town("garrison"), [ATTACK_5], faces=[5])

    assert (battle.defender_kingdom, battle.defender_army, battle.garrison_defends) == (BRYTHON, None, True)
    assert (battle.garrison_points, battle.garrison_defenses, battle.assault) == (750, 1, True)
    assert battle.supports == [SupportS(army=20, kingdom=BRYTHON, side="defender", points=200, arrival=5)]
    assert roll_kinds(dice) == ["support arrival"]
    assert battle.guerrilla is None
    assert "The town garrison of 5 Province 5 defends" in battle.notes[0]
    assert [e.army for e in codes(events, "support")] == [20]


def test_case_R4_the_army_chosen_fights_and_the_garrison_supports_it() -> None:
    """Chose the army: the army fights; the garrison supports it up to the 500-point cap."""
    _, (battle,), events, dice = resolve(defended_town("army"), [ATTACK_5])

    assert (battle.defender_army, battle.garrison_defends, battle.supports) == (20, False, [])
    assert (battle.garrison_points, battle.garrison_defenses) == (500, 1)
    assert dice.rolls == [] and codes(events, "support") == []


def test_a_silent_sheet_lets_the_army_defend_its_town() -> None:
    _, (silent,), _, _ = resolve(defended_town(None), [ATTACK_5])

    assert (silent.defender_army, silent.garrison_defends, silent.garrison_points) == (20, False, 500)


def test_the_garrison_chosen_keeps_the_army_s_fortification_within_the_cap() -> None:
    """The army attacked in its fortified province keeps its Fortify bonuses whichever force fights:
    200 fortified points, then its own detachment, then other supporters, 500 in all."""
    world = defended_town("garrison").fortified_by(20).supporter(21, BRYTHON, 4)

    _, (battle,), events, dice = resolve(world, [ATTACK_5], faces=[3, 4, 6])

    assert (battle.fortified_points, battle.garrison_points, battle.defended_obstacles) == (200, 750, 3)
    assert [(s.army, s.points) for s in battle.supports] == [(20, 200), (21, 100)]
    assert roll_kinds(dice) == ["support arrival", "support arrival", "defended obstacles"]
    assert [e.army for e in codes(events, "defended-obstacles")] == [20]


def test_no_guerrilla_tactics_when_the_garrison_defends_in_the_army_s_place() -> None:
    world = defended_town("garrison")
    world.army(20, BRYTHON, 5, points=2000, order=ArmyOrder(20, defend_with="garrison"))
    world.army(10, AVALON, 5, points=1000)

    _, (battle,), _, dice = resolve(world, [ATTACK_5], faces=[4])

    assert battle.guerrilla is None and roll_kinds(dice) == ["support arrival"]


def test_the_elite_defense_force_fights_with_the_garrison_chosen_and_the_army_supports() -> None:
    world = defended_town("garrison").province(5, elite_defense=True).garrison(50, BRYTHON, 5)

    _, (battle,), _, _ = resolve(world, [ATTACK_5], faces=[3])

    assert (battle.defender_army, battle.garrison_defends, battle.garrison_points) == (50, True, 750)
    assert [(s.army, s.side, s.points) for s in battle.supports] == [(20, "defender", 200)]


def test_a_battle_in_a_town_is_an_assault_even_when_the_town_is_not_the_defenders() -> None:
    world = army_vs_army().province(5, settlement="town", controller=CARNWYL)

    _, (battle,), _, _ = resolve(world, [ATTACK_5])

    assert battle.assault is True
    assert (battle.garrison_points, battle.garrison_defenses) == (0, 0)


def test_an_army_in_open_country_fights_a_pitched_battle_without_garrison() -> None:
    _, (battle,), _, _ = resolve(army_vs_army(), [ATTACK_5])

    assert battle.assault is False
    assert (battle.garrison_points, battle.garrison_defenses, battle.fortified_points) == (0, 0, 0)


def test_a_city_garrison_is_1000_points_with_2_defenses() -> None:
    world = Scene().province(5, settlement="city", controller=BRYTHON).army(10, AVALON, 5)

    _, (battle,), _, _ = resolve(world, [Contact(province=5, attacker=10)])

    assert (battle.garrison_points, battle.garrison_defenses, battle.assault) == (1000, 2, True)


def test_a_capitol_garrison_is_2000_points_with_3_defenses() -> None:
    world = Scene().province(5, settlement="city", controller=BRYTHON).capitol(BRYTHON, 5).army(10, AVALON, 5)

    _, (battle,), events, _ = resolve(world, [Contact(province=5, attacker=10)])

    assert (battle.garrison_points, battle.garrison_defenses, battle.assault) == (2000, 3, True)
    assert "capitol garrison" in codes(events, "battle-scheduled")[0].text


def test_another_kingdoms_capitol_number_does_not_make_a_city_a_capitol() -> None:
    world = Scene().province(5, settlement="city", controller=BRYTHON).capitol(CARNWYL, 5).army(10, AVALON, 5)

    _, (battle,), _, _ = resolve(world, [Contact(province=5, attacker=10)])

    assert (battle.garrison_points, battle.garrison_defenses) == (1000, 2)


@pytest.mark.parametrize(
    ("settlement", "capitol", "points", "defenses"),
    [
        ("town", False, 1250, 1),
        ("city", False, 1500, 2),
        ("city", True, 2500, 3),
    ],
)
def test_an_elite_defense_force_bought_this_turn_adds_its_500_points_to_the_garrison(
    settlement: str, capitol: bool, points: int, defenses: int
) -> None:
    """Paid for in 3. Create / Upgrade Armies, it has no list yet: it fights as the 500 points paid."""
    world = Scene().province(5, settlement=settlement, controller=BRYTHON, elite_defense=True).army(10, AVALON, 5)
    if capitol:
        world.capitol(BRYTHON, 5)

    _, (battle,), _, _ = resolve(world, [Contact(province=5, attacker=10)])

    assert (battle.garrison_points, battle.garrison_defenses) == (points, defenses)


def test_an_elite_defense_force_is_the_defending_army_when_the_garrison_defends_alone() -> None:
    """Battle for Towns, Cities, and Capitols: the Elite Defense Force "is treated as an army in the
    field": it fights as the defending army, its hero the General, beside the local garrison force."""
    world = (
        Scene()
        .province(5, settlement="town", controller=BRYTHON, elite_defense=True)
        .garrison(50, BRYTHON, 5)
        .army(10, AVALON, 5)
    )

    _, (battle,), events, dice = resolve(world, [Contact(province=5, attacker=10)])

    assert (battle.defender_kingdom, battle.defender_army, battle.garrison_defends) == (BRYTHON, 50, True)
    assert (battle.garrison_points, battle.garrison_defenses, battle.assault) == (750, 1, True)
    assert battle.guerrilla is None and dice.rolls == []  # a garrison never rolls for Guerrilla Tactics
    defender_event = codes(events, "battle-scheduled")[1]
    assert defender_event.army == 50 and "with its Elite Defense Force" in defender_event.text


def test_the_elite_defense_force_does_not_fight_when_the_army_defends_its_town() -> None:
    """The local garrison alone fills the 500-point cap of the army it supports."""
    world = (
        army_vs_army().province(5, settlement="town", controller=BRYTHON, elite_defense=True).garrison(50, BRYTHON, 5)
    )

    _, (battle,), _, _ = resolve(world, [ATTACK_5])

    assert (battle.defender_army, battle.garrison_defends, battle.garrison_points) == (20, False, 500)


def test_an_ancient_dead_army_standing_with_its_capitol_garrison_does_not_support_it() -> None:
    world = (
        Scene()
        .province(5, terrain="desert", controller=DEAD, pyramid=True)
        .capitol(DEAD, 5)
        .garrison(95, DEAD, 5, 2000, name="Capitol Garrison")
        .army(90, DEAD, 5)
        .army(10, AVALON, 5)
    )

    _, (battle,), events, dice = resolve(world, [Contact(province=5, attacker=10, defender=90)])

    assert (battle.defender_army, battle.garrison_defends, battle.supports) == (95, True, [])
    assert refusals(events) == {90: "ancient-dead"}
    assert dice.rolls == []


def test_case_R10_an_attack_on_the_great_pyramid_meets_the_capitol_garrison_with_the_warlord() -> None:
    """The Ancient Dead: Setup: "The kingdom's Warlord must remain with the Capitol's garrison ...
    The Warlord's point cost is included in the garrison force." The 2,000-point Capitol Garrison
    army defends the pyramid, the Ancient Dead's capitol (3 defenses, an Assault), not the
    1,000-point garrison of a desert."""
    world = (
        Scene()
        .province(5, terrain="desert", controller=DEAD, pyramid=True)
        .capitol(DEAD, 5)
        .garrison(95, DEAD, 5, 2000, name="Capitol Garrison")
        .army(10, AVALON, 5)
    )

    _, (battle,), events, _ = resolve(world, [Contact(province=5, attacker=10)])

    assert (battle.defender_kingdom, battle.defender_army, battle.garrison_defends) == (DEAD, 95, True)
    # Its list holds the Warlord and every one of its 2,000 points: no garrison points beside it.
    assert (battle.garrison_points, battle.garrison_defenses, battle.assault) == (0, 3, True)
    assert [e.army for e in codes(events, "battle-scheduled")] == [10, 95]
    attack = codes(events, "battle-scheduled")[0].text
    assert attack.startswith("Army 10 attacks the Capitol Garrison (with the Warlord) in")


def test_a_desert_province_is_defended_by_a_1000_point_ancient_dead_garrison() -> None:
    world = Scene().province(5, terrain="desert", controller=DEAD).army(10, AVALON, 5)

    _, (battle,), events, dice = resolve(world, [Contact(province=5, attacker=10)])

    assert (battle.defender_kingdom, battle.defender_army) == (DEAD, None)
    assert (battle.garrison_points, battle.garrison_defenses, battle.assault) == (1000, 0, False)
    assert [e.kingdom for e in codes(events, "battle-scheduled")] == [AVALON, DEAD]
    assert dice.rolls == []


def test_an_uncontrolled_desert_garrison_fights_for_no_kingdom() -> None:
    world = Scene().province(5, terrain="desert").army(10, AVALON, 5)

    _, (battle,), events, _ = resolve(world, [Contact(province=5, attacker=10)])

    assert (battle.defender_kingdom, battle.garrison_points) == (None, 1000)
    assert [e.kingdom for e in codes(events, "battle-scheduled")] == [AVALON]


def test_the_desert_garrison_does_not_support_an_army_in_its_desert() -> None:
    world = Scene().province(5, terrain="desert", controller=DEAD).army(10, AVALON, 5).army(90, DEAD, 5)

    _, (battle,), _, _ = resolve(world, [Contact(province=5, attacker=10, defender=90)])

    assert (battle.defender_kingdom, battle.defender_army, battle.garrison_points) == (DEAD, 90, 0)


def test_an_ancient_dead_army_does_not_fight_the_desert_garrison() -> None:
    world = Scene().province(5, terrain="desert").army(90, DEAD, 5)

    _, battles, events, _ = resolve(world, [Contact(province=5, attacker=90)])

    assert battles == []
    assert [e.army for e in codes(events, "no-battle")] == [90]


# Fortify and Defended Obstacles ------------------------------------------------------------------


@pytest.mark.parametrize(("roll", "pieces"), [(1, 1), (2, 1), (3, 2), (4, 2), (5, 3), (6, 3)])
def test_a_fortified_defender_gets_200_points_and_rolls_on_the_defended_obstacles_table(roll: int, pieces: int) -> None:
    world = army_vs_army().fortified_by(20)

    _, (battle,), events, dice = resolve(world, [ATTACK_5], faces=[roll])

    assert battle.fortified_points == 200
    assert battle.defended_obstacles == pieces
    assert roll_kinds(dice) == ["defended obstacles"]
    assert dice.rolls[0].armies == (20,)
    (obstacles,) = codes(events, "defended-obstacles")
    assert (obstacles.kingdom, obstacles.data["pieces"]) == (BRYTHON, pieces)


def test_armies_that_both_moved_in_get_no_fortification() -> None:
    world = army_vs_army().province(5, fortified=True)

    _, (battle,), _, dice = resolve(world, [Contact(province=5, attacker=10, defender=20, both_moved=True)])

    assert (battle.fortified_points, battle.defended_obstacles) == (0, None)
    assert dice.rolls == []


def test_a_garrison_alone_in_a_fortified_town_gets_no_fortification() -> None:
    world = Scene().province(5, settlement="town", controller=BRYTHON, fortified=True).army(10, AVALON, 5)

    _, (battle,), _, dice = resolve(world, [Contact(province=5, attacker=10)])

    assert (battle.garrison_points, battle.fortified_points, battle.defended_obstacles) == (750, 0, None)
    assert dice.rolls == []


# B3 Support --------------------------------------------------------------------------------------


def test_case_B3_a_detachment_is_at_most_200_points_of_core_troops() -> None:
    world = army_vs_army().supporter(11, AVALON, 4, points=2000).supporter(21, BRYTHON, 6, points=150)

    _, (battle,), events, dice = resolve(world, [ATTACK_5], faces=[4, 3])

    assert battle.supports == [
        SupportS(army=11, kingdom=AVALON, side="attacker", points=200, arrival=4),
        SupportS(army=21, kingdom=BRYTHON, side="defender", points=150, arrival=3),
    ]
    assert roll_kinds(dice) == ["support arrival", "support arrival"]
    assert [(e.army, e.data["points"], e.data["result"]) for e in codes(events, "support")] == [
        (11, 200, "On Time"),
        (21, 150, "On Time"),
    ]


def test_case_B3_two_armies_may_support_one_battle_and_each_army_supports_only_one() -> None:
    world = army_vs_army().army(30, CARNWYL, 5).supporter(21, BRYTHON, 6).supporter(22, BRYTHON, 4)
    # Army 20 is attacked twice in province 5 (by Avalon, then by Carnwyl): the supports go to the first battle only.
    contacts = [ATTACK_5, Contact(province=5, attacker=30, defender=20)]

    _, (first, second), events, _ = resolve(world, contacts, faces=[5, 6])

    assert [(s.army, s.points) for s in first.supports] == [(21, 200), (22, 200)]
    assert second.supports == []
    assert [(e.army, e.data["reason"], e.data["battle"]) for e in codes(events, "support-refused")] == [
        (21, "already-supporting", 5),
        (22, "already-supporting", 5),
    ]


def test_case_B3_a_side_gets_at_most_500_points_of_support() -> None:
    world = (
        army_vs_army()
        .supporter(11, AVALON, 1)
        .supporter(12, AVALON, 2)
        .supporter(13, AVALON, 3)
        .supporter(14, AVALON, 4)
    )

    _, (battle,), events, dice = resolve(world, [ATTACK_5], faces=[3, 3, 3])

    assert [(s.army, s.points) for s in battle.supports] == [(11, 200), (12, 200), (13, 100)]
    assert sum(s.points for s in battle.supports) == 500
    assert refusals(events) == {14: "support-cap"}
    assert "cut to 100" in codes(events, "support")[2].text
    assert len(dice.rolls) == 3  # no arrival roll for the refused detachment


def test_case_B3_the_500_point_cap_includes_fortification() -> None:
    world = army_vs_army().fortified_by(20).supporter(21, BRYTHON, 4).supporter(22, BRYTHON, 6)

    _, (battle,), events, dice = resolve(world, [ATTACK_5], faces=[4, 4, 2])

    assert battle.fortified_points == 200
    assert [(s.army, s.points) for s in battle.supports] == [(21, 200), (22, 100)]
    assert roll_kinds(dice) == ["support arrival", "support arrival", "defended obstacles"]
    assert refusals(events) == {}


def test_case_B3_the_500_point_cap_includes_the_garrison_and_fortification() -> None:
    world = (
        army_vs_army()
        .province(5, settlement="town", controller=BRYTHON)
        .fortified_by(20)
        .supporter(21, BRYTHON, 4)
        .supporter(11, AVALON, 6)
    )

    _, (battle,), events, _ = resolve(world, [ATTACK_5], faces=[3, 6])

    # 200 fortified + 300 of the 750-point garrison fill the defender's 500; the attacker's cap is its own.
    assert (battle.fortified_points, battle.garrison_points, battle.garrison_defenses) == (200, 300, 1)
    assert [(s.army, s.side, s.points) for s in battle.supports] == [(11, "attacker", 200)]
    assert refusals(events) == {21: "support-cap"}


def test_case_B3_armies_may_support_a_garrison_defending_alone() -> None:
    world = Scene().province(5, settlement="city", controller=BRYTHON).army(10, AVALON, 5).supporter(21, BRYTHON, 4)

    _, (battle,), _, _ = resolve(world, [Contact(province=5, attacker=10)], faces=[1])

    assert battle.garrison_points == 1000  # the garrison is the main force, not support
    assert [(s.army, s.side, s.points, s.arrival) for s in battle.supports] == [(21, "defender", 200, 1)]
    assert any("delayed" in note for note in battle.notes)


def test_case_B3_a_supporter_that_is_itself_attacked_gives_nothing() -> None:
    world = army_vs_army().supporter(21, BRYTHON, 4).army(30, CARNWYL, 4)
    # The battle that pins the supporter is listed after the one it meant to support.
    contacts = [ATTACK_5, Contact(province=4, attacker=30, defender=21)]

    _, (battle, _), events, dice = resolve(world, contacts)

    assert battle.supports == []
    assert refusals(events) == {21: "supporter-in-battle"}
    assert dice.rolls == []


def test_case_B3_an_army_attacking_elsewhere_may_not_send_support() -> None:
    # Army 11 moves from 2 into 6 (where Carnwyl's army 30 stands) and names 5 for its support.
    move_and_support = ArmyOrder(11, OrderKind.MOVE, target=6, support=5)
    world = army_vs_army().army(11, AVALON, 6, order=move_and_support).army(30, CARNWYL, 6)

    _, (battle, _), events, _ = resolve(world, [ATTACK_5, Contact(province=6, attacker=11, defender=30)])

    assert battle.supports == []
    assert refusals(events) == {11: "supporter-in-battle"}


def test_case_B3_a_supporter_must_be_on_a_side_and_border_the_battle() -> None:
    world = (
        army_vs_army()
        .supporter(30, CARNWYL, 4)  # neither side is Carnwyl's (allies come later)
        .supporter(11, AVALON, 8)  # 8 does not border 5
        .supporter(12, AVALON, 1, co_occupying=True)
        .supporter(13, AVALON, 2, disbanded=True)
    )

    _, (battle,), events, dice = resolve(world, [ATTACK_5])

    assert battle.supports == [] and dice.rolls == []
    assert refusals(events) == {30: "no-side", 11: "not-adjacent", 12: "co-occupying", 13: "disbanded"}


def test_move_and_support_counts_from_the_province_the_army_moved_into() -> None:
    # The orders phase checked that 5 bordered the army's start province; the army now stands in 7.
    world = army_vs_army().army(11, AVALON, 7, order=ArmyOrder(11, OrderKind.MOVE, target=7, support=5))

    _, (battle,), _, _ = resolve(world, [ATTACK_5], faces=[3])

    assert [(s.army, s.points) for s in battle.supports] == [(11, 200)]


def test_a_hold_order_sends_no_support_and_a_support_with_no_battle_is_reported() -> None:
    world = (
        army_vs_army()
        .army(11, AVALON, 4, order=ArmyOrder(11, OrderKind.HOLD, support=5))
        .supporter(12, AVALON, 7, battle=8)
    )

    _, (battle,), events, _ = resolve(world, [ATTACK_5])

    assert battle.supports == []
    assert [e.army for e in codes(events, "support-no-battle")] == [12]


# B4 Guerrilla Tactics ----------------------------------------------------------------------------


@pytest.mark.parametrize("roll", [2, 3, 4, 5])
def test_case_B4_hit_and_run_costs_the_1500_point_army_75_points(roll: int) -> None:
    state, (battle,), events, dice = resolve(army_vs_army(1000, 1500), [ATTACK_5], faces=[roll])

    assert battle.guerrilla is not None
    assert {k: battle.guerrilla[k] for k in ("army", "roll", "target", "points_lost")} == {
        "army": 10,
        "roll": roll,
        "target": 20,
        "points_lost": 75,
    }
    assert state.armies[20].points == 1425
    assert state.armies[10].points == 1000
    assert roll_kinds(dice) == ["guerrilla tactics"]
    assert [e.kingdom for e in codes(events, "guerrilla")] == [AVALON, BRYTHON]


def test_case_B4_an_ambush_costs_the_1500_point_army_150_points() -> None:
    state, (battle,), _, _ = resolve(army_vs_army(1500, 1000), [ATTACK_5], faces=[6])

    assert battle.guerrilla is not None
    assert (battle.guerrilla["army"], battle.guerrilla["target"], battle.guerrilla["points_lost"]) == (20, 10, 150)
    assert state.armies[10].points == 1350


def test_case_R5_a_blunder_does_no_damage_and_gives_the_smaller_army_plus_1_for_first_turn() -> None:
    """Guerrilla Tactics, Blundered! ("Your saboteurs barely make it back alive. No damage is done
    ... +1 to your roll for first turn"): no damage; the smaller army, whose saboteurs rolled on the
    table, has +1 for first turn (rule cases B4, R5)."""
    state, (battle,), events, _ = resolve(army_vs_army(1000, 1500), [ATTACK_5], faces=[1])

    assert battle.guerrilla is not None
    assert (battle.guerrilla["result"], battle.guerrilla["points_lost"]) == ("blundered", 0)
    assert (battle.guerrilla["army"], battle.guerrilla["target"]) == (10, 20)
    assert state.armies[20].points == 1500
    assert any("Army 10 +1 to its roll for first turn" in note for note in battle.notes)
    assert all("Army 10 has +1 to its roll for first turn" in e.text for e in codes(events, "guerrilla"))


def test_case_B4_the_loss_is_rounded_down() -> None:
    state, (battle,), _, _ = resolve(army_vs_army(1000, 1519), [ATTACK_5], faces=[2])

    assert battle.guerrilla is not None and battle.guerrilla["points_lost"] == 75  # 5% of 1,519 is 75.95
    assert state.armies[20].points == 1444


def test_case_B4_the_guerrilla_loss_is_taken_from_the_larger_army_s_list_once() -> None:
    """Guerrilla Tactics: "The enemy army loses 5% of its force ... This counts as destroyed": the
    models come off the larger army's list (its kingdom's standing choice first), and the list is
    what the army counts. Only its own kingdom is told which models."""
    world = army_vs_army(1000, 1500)
    state = world.state()
    state.world.units[20] = (
        UnitState(201, 20, "Thane", "character", 1, 300),
        UnitState(202, 20, "Warriors", "core", 60, 10),
        UnitState(203, 20, "Thunderers", "core", 40, 15),
    )
    state.sheets[BRYTHON] = SheetEntries(losses=(LossesFrom(20, "Thunderers"),))
    dice = ScriptedDice(faces=[3])  # Hit and Run: 5% of 1,500 = 75
    events: list[Event] = []

    (battle,) = build_battles(state, [ATTACK_5], dice, events)

    assert battle.guerrilla is not None and battle.guerrilla["points_lost"] == 75
    assert [(u.name, u.models) for u in state.world.units[20]] == [("Thane", 1), ("Warriors", 60), ("Thunderers", 35)]
    assert state.armies[20].points == 1500 - 75
    mine, theirs = codes(events, "guerrilla")[1], codes(events, "guerrilla")[0]
    assert mine.kingdom == BRYTHON and "taken from its list: 5 Thunderers (75 points)" in mine.text
    assert mine.data["taken"] == [["Thunderers", 5, 75]]
    assert theirs.kingdom == AVALON and "Thunderers" not in theirs.text and "taken" not in theirs.data


def test_a_support_refusal_gives_its_own_reason_never_the_cap_s() -> None:
    """6. Fight Battles: Support. An army with nothing left to send is refused for that, not for a
    500-point cap that was never reached."""
    world = army_vs_army().supporter(11, AVALON, 4, points=0)

    _, (battle,), events, _ = resolve(world, [ATTACK_5])

    assert battle.supports == []
    assert refusals(events) == {11: "no-troops"}
    (refused,) = codes(events, "support-refused")
    assert refused.text == "Army 11 does not support the battle in 5 Province 5: it has no troops left to send."


def test_case_B4_armies_less_than_500_points_apart_do_not_roll() -> None:
    _, (battle,), _, dice = resolve(army_vs_army(1000, 1499), [ATTACK_5])

    assert battle.guerrilla is None and dice.rolls == []


def test_case_B4_a_garrison_never_rolls_and_is_never_the_target() -> None:
    world = Scene().province(5, settlement="city", controller=BRYTHON).capitol(BRYTHON, 5).army(10, AVALON, 5, 1000)

    _, (battle,), _, dice = resolve(world, [Contact(province=5, attacker=10)])

    assert battle.guerrilla is None and dice.rolls == []


def test_case_B4_guerrilla_compares_the_armies_never_their_supports() -> None:
    # 1,100 against 1,500: no roll, however much support the larger army gets.
    world = army_vs_army(1100, 1500).supporter(21, BRYTHON, 4).supporter(22, BRYTHON, 6)

    _, (battle,), _, dice = resolve(world, [ATTACK_5], faces=[3, 3])

    assert battle.guerrilla is None
    assert roll_kinds(dice) == ["support arrival", "support arrival"]


def test_case_B4_guerrilla_tactics_come_before_support_arrival() -> None:
    world = army_vs_army(1000, 1500).fortified_by(20).supporter(11, AVALON, 4).supporter(21, BRYTHON, 6, points=1000)

    state, (battle,), _, dice = resolve(world, [ATTACK_5], faces=[6, 2, 5, 4])

    assert roll_kinds(dice) == ["guerrilla tactics", "support arrival", "support arrival", "defended obstacles"]
    assert state.armies[20].points == 1350
    # Supports are not touched by the ambush, and their arrival rolls are the ones after it.
    assert [(s.army, s.points, s.arrival) for s in battle.supports] == [(11, 200, 2), (21, 200, 5)]
    assert battle.defended_obstacles == 2
