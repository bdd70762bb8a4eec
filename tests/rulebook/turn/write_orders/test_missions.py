"""The Tomb Raiders' mission on the order sheet (rulebook/turn/write_orders/missions.py): Using Tomb
Raiders, Tomb Raid, Maintaining / Changing Tomb Raiders. Rule case TR4 on the whole sheet; rules
decisions 408, 410 and 414."""

from __future__ import annotations

from dataclasses import replace

from rulebook.ruins_and_tomb_raiders.force import SAMPLE_HIGH_ELVES
from rulebook.ruins_and_tomb_raiders.tomb_raid import MissionProblemCode
from rulebook.tables import ArmyType
from rulebook.turn.write_orders.check import order_sheet_check
from rulebook.turn.write_orders.context import SheetContext, order_sheet_context
from rulebook.turn.write_orders.problems import SheetProblem, SheetProblemCode
from rulebook.turn.write_orders.records import (
    ArmyOrder,
    BuySupplyDepot,
    OrderKind,
    SheetEntries,
    TombRaiderMission,
)
from tests import world_builders as wb

ME = 1
# A 3 x 3 grid (corner to corner adjacent):
#   1 2 3
#   4 5 6
#   7 8 9
# Ruins in 5 (the Old Keep) and 9 (Sandburg, a town the desert sacked). My army 11 stands in 1, army 12
# in 6; the kingdom holds only its town in 1 (150 gold of taxes this turn, which the sheet may spend).
RUINS = {5: "Old Keep", 9: "Sandburg"}


def context(*, treasury: int = 500, army_type: ArmyType = ArmyType.HIGH_ELVES, **kw: object) -> SheetContext:
    provinces = [
        wb.province(
            n,
            "desert" if n == 9 else "plains",
            "ruins" if n in RUINS else ("town" if n == 1 else "none"),
            name=RUINS.get(n),
            controller=ME if n == 1 else None,
            ruin_sacked=n == 9,
        )
        for n in range(1, 10)
    ]
    world = wb.world(
        provinces=provinces,
        kingdoms=[wb.kingdom(ME, "Tor Anlec", army_type, treasury=treasury, capitol=1)],
        armies=[wb.army(11, ME, 1, name="1st Army", supply_depot=False), wb.army(12, ME, 6, name="2nd Army")],
        adjacency=wb.grid(3),
        turn=3,
    )
    return order_sheet_context(world, ME, **{"raiders": SAMPLE_HIGH_ELVES, **kw})  # type: ignore[arg-type]


INTO_THE_KEEP = ArmyOrder(11, OrderKind.MOVE, target=5)
RAID_THE_KEEP = TombRaiderMission(province=5)


def errors(entries: SheetEntries, ctx: SheetContext) -> list[SheetProblem]:
    return order_sheet_check(entries, ctx).error_problems


def place(problem: SheetProblem) -> tuple[str, str, int | None, str]:
    return problem.code.value, problem.part, problem.entry, problem.entry_field


def test_case_TR4_a_tomb_raid_on_the_sheet_goes_only_with_an_army_moving_into_the_ruins_for_100_gold() -> None:
    """Tomb Raid: "Provided one of your armies is moving into a province containing a ruin"; Using Tomb
    Raiders: "To send the Tomb Raiders on a mission costs 100 gold from your Treasury"."""
    check = order_sheet_check(SheetEntries(orders=(INTO_THE_KEEP,), missions=(RAID_THE_KEEP,)), context())
    assert check.ok
    assert check.costs == [("Tomb Raid on 5 Old Keep (Using Tomb Raiders)", 100)]
    assert check.gold == 100

    holding = SheetEntries(orders=(ArmyOrder(11, OrderKind.HOLD),), missions=(RAID_THE_KEEP,))
    (problem,) = errors(holding, context())
    assert place(problem) == ("mission-no-army-moving-in", "missions", 0, "province")
    assert "None of your armies is ordered to move into 5 Old Keep" in problem.text
    assert "(Tomb Raid)" in problem.text
    assert order_sheet_check(holding, context()).gold == 0  # a refused mission costs nothing


def test_case_TR4_only_one_mission_a_turn_said_at_the_second() -> None:
    """Using Tomb Raiders: "Tomb Raiders may do ONE of the following missions each turn"."""
    twice = SheetEntries(
        orders=(INTO_THE_KEEP, ArmyOrder(12, OrderKind.MOVE, target=3)),
        missions=(RAID_THE_KEEP, RAID_THE_KEEP),
    )
    (problem,) = errors(twice, context())
    assert place(problem) == ("mission-one-a-turn", "missions", 1, "province")
    assert "one mission each turn" in problem.text


def test_the_mission_is_paid_from_what_the_rest_of_the_sheet_leaves() -> None:
    """Treasury; decision 410: the sheet's other spending comes first, the mission is refused when the
    gold left cannot pay it (and the sheet is not over budget for it: the mission is not counted)."""
    depot = SheetEntries(orders=(INTO_THE_KEEP,), depots=(BuySupplyDepot(11),), missions=(RAID_THE_KEEP,))
    assert order_sheet_check(depot, context()).taxes == 150
    assert order_sheet_check(depot, context(treasury=150)).ok  # 200 for the depot, 100 for the raid

    (problem,) = errors(depot, context(treasury=149))
    assert place(problem) == ("mission-not-enough-gold", "missions", 0, "province")
    assert problem.text == "The mission costs 100 gold; the treasury has 99 for it (Using Tomb Raiders)."


def test_case_TR3_a_force_changed_this_turn_goes_only_when_the_sheet_pays_5_gold_a_point() -> None:
    """Maintaining / Changing Tomb Raiders: "may not be used the Turn you make changes, Unless you pay gold
    from your Treasury at the rate of 5 gold per point" (an 11-point spearman: 55 gold; decision 410)."""
    changed = context(raiders_points_added=11)
    unpaid = SheetEntries(orders=(INTO_THE_KEEP,), missions=(RAID_THE_KEEP,))
    (problem,) = errors(unpaid, changed)
    assert place(problem) == ("mission-changed-not-paid", "missions", 0, "pay_change_fee")
    assert "55 gold, 5 a point" in problem.text

    paid = SheetEntries(orders=(INTO_THE_KEEP,), missions=(TombRaiderMission(province=5, pay_change_fee=True),))
    check = order_sheet_check(paid, changed)
    assert check.ok
    assert check.costs == [("Tomb Raid on 5 Old Keep (Using Tomb Raiders, with the change fee of 55)", 155)]
    assert [p.code for p in errors(paid, context(treasury=4, raiders_points_added=11))] == [
        SheetProblemCode.MISSION_NOT_ENOUGH_GOLD
    ]


def test_a_forced_march_moves_into_the_province_it_ends_in() -> None:
    """Forced March: "The army can only claim / occupy the province they end up in": a march that ends in
    the ruins lets the raid go, one that passes through them does not (decision 414)."""
    ends_there = ArmyOrder(12, OrderKind.FORCED_MARCH, path=(2, 5))
    passes = ArmyOrder(12, OrderKind.FORCED_MARCH, path=(5, 7))
    orc = {"army_type": ArmyType.ORCS_AND_GOBLINS}
    assert errors(SheetEntries(orders=(ends_there,), missions=(RAID_THE_KEEP,)), context(**orc)) == []
    (problem,) = errors(SheetEntries(orders=(passes,), missions=(RAID_THE_KEEP,)), context(**orc))
    assert problem.code is SheetProblemCode.MISSION_NO_ARMY_MOVING_IN


def test_a_raid_names_a_ruin_and_a_force_able_to_go() -> None:
    """Tomb Raid is made on a ruin; Creating Tomb Raiders, Recovery: a force that exists, keeps the rules,
    and has a model not out of action. The Ancient Dead send none."""
    into_4 = ArmyOrder(11, OrderKind.MOVE, target=4)
    not_a_ruin = SheetEntries(orders=(into_4,), missions=(TombRaiderMission(province=4),))
    assert [place(p) for p in errors(not_a_ruin, context())] == [("mission-not-ruins", "missions", 0, "province")]
    unnamed = SheetEntries(orders=(INTO_THE_KEEP,), missions=(TombRaiderMission(),))
    assert [p.code for p in errors(unnamed, context())] == [SheetProblemCode.MISSION_NOT_RUINS]

    sheet = SheetEntries(orders=(INTO_THE_KEEP,), missions=(RAID_THE_KEEP,))
    assert [p.code for p in errors(sheet, context(raiders=None))] == [SheetProblemCode.MISSION_NO_FORCE]
    all_out = replace(
        SAMPLE_HIGH_ELVES, entries=tuple(replace(e, out_of_action=e.models) for e in SAMPLE_HIGH_ELVES.entries)
    )
    assert [p.code for p in errors(sheet, context(raiders=all_out))] == [SheetProblemCode.MISSION_NO_MODELS_AVAILABLE]
    over = replace(SAMPLE_HIGH_ELVES, entries=(*SAMPLE_HIGH_ELVES.entries, replace(SAMPLE_HIGH_ELVES.entries[-1])))
    assert SheetProblemCode.MISSION_FORCE_INVALID in [p.code for p in errors(sheet, context(raiders=over))]
    ancient_dead = context(army_type=ArmyType.ANCIENT_DEAD, raiders=None)
    assert [p.code for p in errors(sheet, ancient_dead)] == [SheetProblemCode.MISSION_ANCIENT_DEAD]


def test_a_raid_on_a_sacked_town_s_ruin_is_checked_the_same() -> None:
    """The Ancient Dead: Deserts: the army fights the garrison and "in the same turn" sends its raiders;
    the sheet sends them as to any ruin (decision 409 settles the raid's result)."""
    into_sandburg = ArmyOrder(12, OrderKind.MOVE, target=9)  # no Forced March into a desert: a Move
    sheet = SheetEntries(orders=(into_sandburg,), missions=(TombRaiderMission(province=9),))
    check = order_sheet_check(sheet, context())
    assert check.ok and check.costs == [("Tomb Raid on 9 Sandburg (Using Tomb Raiders)", 100)]


def test_every_mission_problem_has_its_sheet_code() -> None:
    """The API gives the rules' stable codes: each of Using Tomb Raiders' is one of the sheet's."""
    assert {code.value for code in MissionProblemCode} <= {code.value for code in SheetProblemCode}
