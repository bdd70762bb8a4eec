"""The Elite Defense Force's army row and the kingdom's army names (Battle for Towns, Cities, and
Capitols; 3. Create / Upgrade Armies): a kingdom has one army of each name (kingdoms.models.Army's
constraint), and the orders phase names a town's Elite Defense Force after the town: a name the force
would take, already used, stopped the orders phase on that constraint (found reading the constraints
against their writers for the phase fuzz, tests/turns/test_phase_fuzz.py)."""

from __future__ import annotations

from kingdoms.models import Army, Province
from orders.services.sheets import order_sheet_save
from rulebook.turn.write_orders.records import ArmyOrder, CreateArmy, OrderKind, ReinforceGarrison, SheetEntries
from tests.kingdoms.builders import army_built, campaign_built, kingdom_built, province_built, unit_built
from tests.turns.builders import turn_built
from turns.models import Turn
from turns.services.cycle import orders_phase_run


def _kingdom_with_a_town():
    """Eastmark, rich, holding a row of provinces: its capitol city Highkeep (1), the town of Riverton (4)
    and plains (the Army Table allows it a second army), its army at the capitol; turn 1 open."""
    campaign = campaign_built(name="Garrisons", provinces=0)
    for number in range(1, 11):
        settlement, name = {1: ("city", "Highkeep"), 4: ("town", "Riverton")}.get(number, ("none", None))
        province_built(
            campaign, number, name=name, settlement=settlement, neighbours=[number - 1] if number > 1 else []
        )
    kingdom = kingdom_built(campaign, "Eastmark", player="east", capitol=1, gold=10_000)
    Province.objects.filter(campaign=campaign).update(controller=kingdom)
    kingdom_built(campaign, "Westreach", player="west")
    army = army_built(kingdom, name="1st Army", province=1)
    unit_built(army, "Halberdiers")
    return campaign, kingdom, turn_built(campaign), army


def _filed(kingdom, turn, **entries) -> None:
    order_sheet_save(
        kingdom=kingdom, turn=turn, entries=SheetEntries(**entries), submitted_by=kingdom.players.first(), submit=True
    )


def test_a_town_retaken_takes_a_new_elite_defense_force_beside_the_one_that_perished(db) -> None:
    """Battle for Towns, Cities, and Capitols: Eastmark's Elite Defense Force of Riverton perished to the last
    man when the town was taken (its row stays, disbanded, with its name); Eastmark holds Riverton again and
    reinforces its garrison: the orders phase resolves and the town has an Elite Defense Force again, named
    apart from the one that perished (one army of each name)."""
    campaign, kingdom, turn, army = _kingdom_with_a_town()
    riverton = Province.objects.get(campaign=campaign, number=4)
    perished = Army.objects.create(
        kingdom=kingdom, name="Elite Defense Force of Riverton", kind=Army.Kind.GARRISON, province=riverton,
        size=500, status=Army.Status.DISBANDED,
    )  # fmt: skip
    _filed(kingdom, turn, orders=(ArmyOrder(army.id, OrderKind.HOLD),), garrisons=(ReinforceGarrison(4),))

    assert orders_phase_run(turn_id=turn.pk).resolved

    turn.refresh_from_db()
    assert turn.status == Turn.Status.BATTLES
    (force,) = Army.objects.filter(kingdom=kingdom, kind=Army.Kind.GARRISON, status=Army.Status.ACTIVE)
    assert (force.province_id, force.size) == (riverton.pk, 500)
    assert force.name != perished.name and force.name.startswith("Elite Defense Force of Riverton")


def test_a_new_army_named_as_the_towns_elite_defense_force_and_the_force_itself_in_one_sheet(db) -> None:
    """3. Create / Upgrade Armies: a player names a new army "Elite Defense Force of Riverton" (a name its
    kingdom has not used) and reinforces Riverton's garrison on the same sheet; the sheet is accepted, so the
    orders phase resolves it: the new army keeps the name its player gave it, the force is named apart."""
    campaign, kingdom, turn, army = _kingdom_with_a_town()
    _filed(
        kingdom,
        turn,
        orders=(ArmyOrder(army.id, OrderKind.HOLD),),
        creations=(CreateArmy("Elite Defense Force of Riverton", 1000, 2),),
        garrisons=(ReinforceGarrison(4),),
    )

    assert orders_phase_run(turn_id=turn.pk).resolved

    raised = Army.objects.get(kingdom=kingdom, kind=Army.Kind.FIELD, province__number=2)
    assert raised.name == "Elite Defense Force of Riverton"
    (force,) = Army.objects.filter(kingdom=kingdom, kind=Army.Kind.GARRISON)
    assert force.province.number == 4 and force.name != raised.name


def test_a_town_of_a_long_name_takes_its_elite_defense_force(db) -> None:
    """A map may name a town in up to the 100 characters a province's name keeps; its Elite Defense
    Force's name ("Elite Defense Force of ...") is cut to the 100 an army's name keeps, and the orders
    phase resolves (PostgreSQL refuses a longer name: the turn would stop)."""
    campaign, kingdom, turn, army = _kingdom_with_a_town()
    Province.objects.filter(campaign=campaign, number=4).update(name="Riverton-upon-" + "w" * 86)
    _filed(kingdom, turn, orders=(ArmyOrder(army.id, OrderKind.HOLD),), garrisons=(ReinforceGarrison(4),))

    assert orders_phase_run(turn_id=turn.pk).resolved

    (force,) = Army.objects.filter(kingdom=kingdom, kind=Army.Kind.GARRISON)
    assert force.province.number == 4
    assert force.name.startswith("Elite Defense Force of Riverton-upon-www") and len(force.name) == 100
