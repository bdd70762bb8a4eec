"""Reconnaissance and Sabotage effects used at a turn's resolution, written (orders/services/
resolution.py, kingdoms/services/rival_missions.py): the effect retired with its turn, the events stored
for each kingdom. Decisions 450, 480. The demo campaign's turn 1; the MissionEffect row is made here (the
aftermath of a skirmish makes it in play)."""

from __future__ import annotations

from kingdoms.models import MissionEffect
from orders.services.sheets import order_sheet_save
from rulebook.turn.write_orders.records import ArmyOrder, OrderKind, SheetEntries
from turns.models import TurnEvent
from turns.services.cycle import orders_phase_run


def test_case_RS4_a_misdirection_is_used_at_the_resolution_and_both_kingdoms_reports_hold_it(turn, k):
    """Sabotage, Misdirection: Ostland earned it against Da Red Fang's army on turn 0; Da Red Fang orders
    the army to move on turn 1: it holds, the effect is used on turn 1, and each kingdom's events (its
    report's lines) say why."""
    ostland, fang = k["Ostland"], k["Da Red Fang"]
    army = fang.armies.get(kind="field")
    start = army.province
    target = start.neighbours.exclude(terrain="desert").order_by("number").first()
    effect = MissionEffect.objects.create(
        campaign=turn.campaign, kingdom=ostland, target=fang, mission="misdirection", earned_turn=0, target_army=army
    )
    for kingdom, orders in ((fang, (ArmyOrder(army.id, OrderKind.MOVE, target=target.number),)), (ostland, ())):
        order_sheet_save(
            kingdom=kingdom, turn=turn, entries=SheetEntries(orders=orders), submitted_by=None, submit=True
        )

    assert orders_phase_run(turn_id=turn.pk).resolved

    effect.refresh_from_db()
    army.refresh_from_db()
    assert (effect.status, effect.used_turn) == ("used", 1)
    assert army.province == start
    theirs = TurnEvent.objects.get(turn=turn, code="misdirection", kingdom=fang)
    ours = TurnEvent.objects.get(turn=turn, code="misdirection", kingdom=ostland)
    assert (
        theirs.text == f"{army.name}'s orders are cancelled by a saboteur and revert to Hold (Sabotage: Misdirection)."
    )
    assert ours.text == (
        f"Your saboteurs cancel the orders of Da Red Fang's {army.name}: it holds this turn (Sabotage: Misdirection)."
    )
