"""Using Tomb Raiders, the Tomb Raid and the army's entry into the Ruins. Rule cases
TR4, TR5 and TR10; rules decisions 407-410. Dice scripted."""

from __future__ import annotations

from dataclasses import replace

from kernel.dice import ScriptedDice
from rulebook.ruins_and_tomb_raiders.force import (
    SAMPLE_HIGH_ELVES,
    RaiderEntry,
)
from rulebook.ruins_and_tomb_raiders.generic_opponents import raid_opponent
from rulebook.ruins_and_tomb_raiders.tomb_raid import (
    MissionProblemCode,
    RaidContext,
    RaidResult,
    Ruin,
    TombRaidOrder,
    armies_waiting,
    army_may_enter_ruins,
    mission_gold,
    raid_outcome,
    tomb_raid_problems,
)

KEEP = Ruin(7, "Old Keep")
SACKED = Ruin(9, "Sandburg", sacked=True)
RUINS = {KEEP.province: KEEP, SACKED.province: SACKED}


def context(**changes: object) -> RaidContext:
    base = RaidContext(force=SAMPLE_HIGH_ELVES, treasury=500, ruins=RUINS, moves={1: 7, 2: 3})
    return replace(base, **changes)


def refused(order: TombRaidOrder, ctx: RaidContext) -> list[MissionProblemCode]:
    return [p.code for p in tomb_raid_problems(order, ctx)]


def test_case_TR4_a_tomb_raid_goes_only_with_an_army_moving_into_the_ruins_for_100_gold_once_a_turn() -> None:
    """Tomb Raid: "Provided one of your armies is moving into a province containing a ruin"; Using Tomb
    Raiders: "ONE of the following missions each turn ... costs 100 gold from your Treasury"."""
    assert refused(TombRaidOrder(7), context()) == []
    assert mission_gold(TombRaidOrder(7), 0) == 100

    assert refused(TombRaidOrder(7), context(moves={1: 3})) == [MissionProblemCode.NO_ARMY_MOVING_IN]
    assert refused(TombRaidOrder(3), context()) == [MissionProblemCode.NOT_RUINS]
    assert refused(TombRaidOrder(7), context(missions=2)) == [MissionProblemCode.ONE_MISSION]
    short = tomb_raid_problems(TombRaidOrder(7), context(treasury=99))
    assert [p.code for p in short] == [MissionProblemCode.NOT_ENOUGH_GOLD]
    assert "costs 100 gold" in short[0].message and "Using Tomb Raiders" in short[0].message


def test_a_changed_force_goes_only_when_the_fee_is_paid_with_the_mission_s_gold() -> None:
    """Maintaining / Changing Tomb Raiders (TR3) on the sheet: the fee is asked and paid with the 100
    (decision 410)."""
    changed = context(points_added=11)
    assert refused(TombRaidOrder(7), changed) == [MissionProblemCode.CHANGED_NOT_PAID]
    paying = TombRaidOrder(7, pay_change_fee=True)
    assert mission_gold(paying, 11) == 155
    assert refused(paying, changed) == []
    assert refused(paying, replace(changed, treasury=154)) == [MissionProblemCode.NOT_ENOUGH_GOLD]


def test_a_force_that_breaks_the_rules_or_does_not_exist_cannot_go() -> None:
    over = replace(SAMPLE_HIGH_ELVES, entries=(*SAMPLE_HIGH_ELVES.entries, RaiderEntry("Spearman", 1, 11)))
    assert refused(TombRaidOrder(7), context(force=over)) == [MissionProblemCode.FORCE_INVALID]
    assert refused(TombRaidOrder(7), context(force=None)) == [MissionProblemCode.NO_FORCE]
    assert refused(TombRaidOrder(7), context(ancient_dead=True)) == [MissionProblemCode.ANCIENT_DEAD]


def test_case_TR5_a_failed_raid_keeps_the_army_out_a_successful_one_lets_it_in_with_treasure_and_amulet() -> None:
    """Tomb Raid: "If the raid is a success ... roll on Treasure from the Ruins ... acquires a scarab amulet
    if it is the first time the Ruins was successfully tomb-raided. The army is now safely able to move into
    the province. If the raid was a failure ... The army may not move into to the province this turn"."""
    failed = raid_outcome(RaidResult.FAILURE, KEEP, ScriptedDice(), kingdom=2)
    assert not failed.army_may_enter and failed.treasure is None and failed.amulet is None
    assert failed.ruin == KEEP and not army_may_enter_ruins(failed)

    dice = ScriptedDice(faces=[2])
    first = raid_outcome(RaidResult.SUCCESS, KEEP, dice, kingdom=2)
    assert first.army_may_enter and army_may_enter_ruins(first)
    assert first.treasure is not None and first.treasure.items == ("Staff of Sorcery",)
    assert first.amulet == "Scarab Amulet" and first.ruin.successful_raids == 1

    second = raid_outcome(RaidResult.SUCCESS, first.ruin, ScriptedDice(faces=[6, 4]), kingdom=2)
    assert second.army_may_enter and second.amulet is None
    assert second.treasure is not None and second.treasure.gold == 400
    assert second.ruin.successful_raids == 2


def test_a_drawn_raid_is_no_success_and_no_raid_keeps_the_army_out() -> None:
    """Decision 407: a draw finds nothing and the army waits outside; decision 408: so does no raid."""
    drawn = raid_outcome(RaidResult.DRAW, KEEP, ScriptedDice(), kingdom=2)
    assert (drawn.army_may_enter, drawn.treasure, drawn.amulet) == (False, None, None)
    assert not army_may_enter_ruins(None)
    assert armies_waiting(7, {1: 7, 2: 3, 5: 7}) == (1, 5)


def test_case_TR10_a_sacked_town_s_ruin_gives_treasure_but_no_amulet_once_its_garrison_is_beaten() -> None:
    """The Ancient Dead: Deserts: the ruins "will contain a 150 point garrison force ... will not contain a
    Scarab Amulet ... IF the battle against the Ancient Dead garrison is successful (win or draw)"
    (decision 409)."""
    won = raid_outcome(RaidResult.SUCCESS, SACKED, ScriptedDice(faces=[3]), kingdom=2, garrison_beaten=True)
    assert won.army_may_enter and won.amulet is None
    assert won.treasure is not None and won.treasure.items == ("War Banner",)

    lost = raid_outcome(RaidResult.SUCCESS, SACKED, ScriptedDice(), kingdom=2, garrison_beaten=False)
    assert (lost.army_may_enter, lost.treasure) == (False, None)
    assert "150 point garrison of the Ancient Dead" in raid_opponent(sacked=True)[0]
