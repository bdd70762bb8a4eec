"""Captured Tomb Raiders (rulebook/ruins_and_tomb_raiders/captives.py and the sheet's check,
rulebook/turn/write_orders/captives.py): Reconnaissance, Sabotage, "A kingdom may do anything it wishes
with a captured Tomb Raider". The captor gives the fate on a later sheet (decision 453), checked when
written (decision 490) and settled at the turn's resolution, scripted dice (none is rolled); a released
model goes back to its owner's force (decision 492). The captives are built directly, as the
aftermath of a failed mission would leave them."""

from __future__ import annotations

from dataclasses import replace

from kernel.event_codes import EventCode
from rulebook.ruins_and_tomb_raiders.captives import captive_record, returned_to_force
from rulebook.ruins_and_tomb_raiders.force import SAMPLE_HIGH_ELVES, force_problems
from rulebook.ruins_and_tomb_raiders.rival_missions import CaptiveFate, CaptiveState
from rulebook.tables import ArmyType
from rulebook.turn.state import TurnState
from rulebook.turn.write_orders.check import order_sheet_check
from rulebook.turn.write_orders.context import order_sheet_context
from rulebook.turn.write_orders.problems import SheetProblemCode
from rulebook.turn.write_orders.records import CaptiveOrder, SheetEntries
from tests import world_builders as wb
from tests.rulebook.resolving import of, resolve

ELVES, DWARFS, ORCS = 1, 2, 3
# The Dwarfs caught one of the Elves' Spearmen on turn 2 (captive 7), the Orcs one of the Elves' too
# (captive 8); a captive released on turn 2 (captive 9) is no longer held.
SPEARMEN = next(e for e in SAMPLE_HIGH_ELVES.entries if e.name == "Spearmen")


def captive(id: int, captor: int = DWARFS, owner: int = ELVES, **changes: object) -> CaptiveState:
    record = captive_record(SPEARMEN)
    return replace(CaptiveState(id, captor, owner, SPEARMEN.name, record, captured_turn=2), **changes)  # type: ignore[arg-type]


def world(turn: int = 3) -> wb.World:
    built = wb.world(
        provinces=[wb.province(n, "plains") for n in range(1, 5)],
        kingdoms=[
            wb.kingdom(ELVES, "Tor Anlec", ArmyType.HIGH_ELVES, treasury=500),
            wb.kingdom(DWARFS, "Karak Dumn", ArmyType.DWARFS, treasury=500),
            wb.kingdom(ORCS, "Red Fang", ArmyType.ORCS_AND_GOBLINS, treasury=500),
        ],
        adjacency=wb.grid(2),
        turn=turn,
    )
    built.captives.update(
        {7: captive(7), 8: captive(8, captor=ORCS), 9: captive(9, fate=CaptiveFate.RELEASED, fate_turn=2)}
    )
    return built


def problems(entries: SheetEntries, kingdom: int = DWARFS) -> list[tuple[SheetProblemCode, int | None, str]]:
    check = order_sheet_check(entries, order_sheet_context(world(), kingdom))
    return [(p.code, p.entry, p.part) for p in check.error_problems]


def test_the_captor_may_release_or_execute_the_captive_it_holds() -> None:
    """Decision 490: a fate for a captive the kingdom holds is accepted, and costs no gold."""
    check = order_sheet_check(
        SheetEntries(captive_orders=(CaptiveOrder(7, "executed"),)), order_sheet_context(world(), DWARFS)
    )
    assert check.ok and check.gold == 0


def test_only_the_captor_decides_a_captive_s_fate_once() -> None:
    """Decision 490: the owner, a third kingdom, a captive of another captor, one already released,
    one not known, and a captive named twice are refused, each on its entry of the part."""
    assert problems(SheetEntries(captive_orders=(CaptiveOrder(7, "released"),)), kingdom=ELVES) == [
        (SheetProblemCode.CAPTIVE_NOT_HELD, 0, "captive_orders")
    ]
    assert problems(SheetEntries(captive_orders=(CaptiveOrder(7, "released"),)), kingdom=ORCS) == [
        (SheetProblemCode.CAPTIVE_NOT_HELD, 0, "captive_orders")
    ]
    orders = (CaptiveOrder(8, "released"), CaptiveOrder(9, "executed"), CaptiveOrder(99, "executed"))
    assert [code for code, _, _ in problems(SheetEntries(captive_orders=orders))] == [
        SheetProblemCode.CAPTIVE_NOT_HELD
    ] * 3
    twice = (CaptiveOrder(7, "released"), CaptiveOrder(7, "executed"))
    assert problems(SheetEntries(captive_orders=twice)) == [(SheetProblemCode.CAPTIVE_TWICE, 1, "captive_orders")]
    (message,) = order_sheet_check(SheetEntries(captive_orders=twice), order_sheet_context(world(), DWARFS)).errors
    assert "Captive 7 (a model of Spearmen) is given a fate twice" in message


def test_a_released_captive_s_fate_is_settled_at_the_resolution_and_both_kingdoms_are_told() -> None:
    """Decision 453: the captor's sheet of a later turn releases it; the resolution records the fate and
    its turn, and a CAPTIVE_FATE event goes to the captor and to the owner, none to a third kingdom."""
    sheets = {DWARFS: SheetEntries(captive_orders=(CaptiveOrder(7, "released"),))}
    result = resolve(TurnState(world=world(), sheets=sheets))

    assert result.state.world.captives[7].fate is CaptiveFate.RELEASED
    assert result.state.world.captives[7].fate_turn == 3
    assert result.state.world.captives[8].fate is CaptiveFate.HELD  # the Orcs' is theirs to decide
    to_captor, to_owner = of(result.events, EventCode.CAPTIVE_FATE)
    assert (to_captor.kingdom, to_owner.kingdom) == (DWARFS, ELVES)
    assert to_owner.data == {
        "captive": 7,
        "entry": "Spearmen",
        "fate": "released",
        "captor": DWARFS,
        "owner": ELVES,
        "captured_turn": 2,
    }
    assert to_owner.text == "Karak Dumn releases a model of Spearmen of your Tomb Raiders: it is back in your force."
    assert of(result.events, EventCode.CAPTIVE_FATE, ORCS) == []


def test_an_executed_captive_is_gone_and_an_order_the_check_refuses_is_not_settled() -> None:
    """Decision 453: executed, the captive's record says so; the owner's sheet cannot release its own
    model held by another (decision 490), whatever it submitted."""
    sheets = {
        DWARFS: SheetEntries(captive_orders=(CaptiveOrder(7, "executed"),)),
        ELVES: SheetEntries(captive_orders=(CaptiveOrder(8, "released"),)),
    }
    result = resolve(TurnState(world=world(), sheets=sheets))

    assert result.state.world.captives[7].fate is CaptiveFate.EXECUTED
    assert result.state.world.captives[8].fate is CaptiveFate.HELD
    (to_owner,) = of(result.events, EventCode.CAPTIVE_FATE, ELVES)
    assert to_owner.text == "Karak Dumn executes a model of Spearmen of your Tomb Raiders, their captive."


def test_a_released_model_joins_its_entry_again_or_comes_back_as_its_own_entry() -> None:
    """Decision 492: one more model in the entry of its name; an entry gone since comes back from the
    captive's record, one model, ready for the next mission."""
    # Four Spearmen left of five after the capture.
    force = replace(
        SAMPLE_HIGH_ELVES,
        entries=tuple(replace(e, models=4) if e == SPEARMEN else e for e in SAMPLE_HIGH_ELVES.entries),
    )
    back = returned_to_force(force, captive(7))
    assert back == SAMPLE_HIGH_ELVES

    without = replace(SAMPLE_HIGH_ELVES, entries=tuple(e for e in force.entries if e.name != "Spearmen"))
    again = returned_to_force(without, captive(7))
    assert again.entries[-1] == replace(SPEARMEN, models=1, out_of_action=0)
    assert force_problems(again) == force_problems(replace(without, entries=(*without.entries, again.entries[-1])))
