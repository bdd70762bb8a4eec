"""A roll's purpose names the kingdoms, armies and provinces it is for (turns.models.DiceRoll keeps 200
characters of it): a kingdom and an army may each be named in 100, so a purpose naming both ("Scenario:
special circumstances: <kingdom>: <army>", a Guerrilla Tactics roll naming two armies) ran past what the
row keeps and stopped the orders phase on PostgreSQL. Found reading the columns against their writers
for the phase fuzz (tests/turns/test_phase_fuzz.py)."""

from __future__ import annotations

from battles.models import Battle
from orders.services.sheets import order_sheet_save
from rulebook.turn.write_orders.records import ArmyOrder, OrderKind, SheetEntries
from tests.kingdoms.builders import army_built, campaign_built, kingdom_built, unit_built
from tests.turns.builders import turn_built
from turns.models import DiceRoll, Turn
from turns.services.cycle import orders_phase_run


def test_a_battle_between_armies_of_the_longest_names_is_posted_with_its_scenario_rolls(db) -> None:
    """6. Fight Battles: an army of a kingdom whose names take the 100 characters each keeps moves into a
    rival's: the orders phase resolves and posts the battle, its scenario rolled and every roll kept, its
    purpose cut to what the row keeps."""
    campaign = campaign_built(name="Long Names", provinces=4)
    names = [f"The Most Serene and Ancient Kingdom of {w} " for w in ("East", "West")]
    east, west = (
        kingdom_built(campaign, name.ljust(100, "x"), player=player, capitol=capitol)
        for name, player, capitol in zip(names, ("east", "west"), (1, 4), strict=True)
    )
    armies = []
    for kingdom, where in ((east, 2), (west, 3)):
        army = army_built(kingdom, name=f"The Grand Army of {kingdom.name[:30]}".ljust(100, "y"), province=where)
        unit_built(army, "Halberdiers", models_count=40, points_per_model=6)
        armies.append(army)
    turn = turn_built(campaign)
    order_sheet_save(
        kingdom=east,
        turn=turn,
        entries=SheetEntries(orders=(ArmyOrder(armies[0].id, OrderKind.MOVE, target=3),)),
        submitted_by=east.players.first(),
        submit=True,
    )

    assert orders_phase_run(turn_id=turn.pk).resolved

    turn.refresh_from_db()
    assert turn.status == Turn.Status.BATTLES
    assert Battle.objects.filter(turn=turn, province__number=3).exists()
    purposes = list(DiceRoll.objects.filter(campaign=campaign).values_list("purpose", flat=True))
    assert any(p.startswith("Scenario:") and p.endswith("\u2026") for p in purposes)
    assert max(len(p) for p in purposes) <= 200
