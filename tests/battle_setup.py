"""Builders shared by the battle tests (service, browser and worker tests): orders on the demo
campaign that bring about a field battle with a support detachment and a battle for a city."""

from __future__ import annotations

import datetime as dt

from kingdoms.models import Army, Kingdom, Province
from orders.rules.sheets import ArmyOrder, OrderKind, SheetEntries
from orders.services.sheets import order_sheet_save


def submit(kingdom, turn, *orders):
    order_sheet_save(
        kingdom=kingdom,
        turn=turn,
        entries=SheetEntries(orders=tuple(orders)),
        submitted_by=kingdom.players.first(),
        submit=True,
        now=turn.orders_deadline - dt.timedelta(days=1),
    )


def army_with_list(kingdom, name, province, units):
    """An army standing in `province` with a list: (name, models, points per model[, one_use])."""
    army = Army.objects.create(kingdom=kingdom, name=name, province=province, size=2000)
    for position, (unit_name, models, ppm, *flags) in enumerate(units):
        army.units.create(
            name=unit_name,
            category="core",
            models_count=models,
            points_per_model=ppm,
            position=position,
            one_use=bool(flags and flags[0]),
        )
    return army


def file_battle_orders(campaign, turn) -> dict[str, Army]:
    """Turn 1's orders, filed (Wardens 1,290 points, Raiders 1,205, Boyz 1,095): Tor Anlec's
    Raiders march from 52 into Ostland's Hartwood (62),
    held by Ostland's Wardens, whom the 1st Army (71) supports; Da Red Fang's Boyz march from 60
    into Ostland's city Eldenhall (61), defended by its garrison."""
    k = {x.name: x for x in Kingdom.objects.filter(campaign=campaign)}

    def province(number: int) -> Province:
        return Province.objects.get(campaign=campaign, number=number)

    ostland, tor, fang = k["Ostland"], k["Tor Anlec"], k["Da Red Fang"]
    wardens = army_with_list(
        ostland,
        "Wardens",
        province(62),
        [("Halberdiers", 60, 6), ("Handgunners", 30, 8), ("Knights", 15, 24), ("Greatswords", 30, 11)],
    )
    raiders = army_with_list(
        tor, "Raiders", province(52), [("Spearmen", 50, 9), ("Archers", 40, 11), ("Silver Helms", 15, 21)]
    )
    boyz = army_with_list(
        fang,
        "Boyz",
        province(60),
        [("Orc Boyz", 100, 6), ("Night Goblins", 60, 3), ("Fanatics", 3, 25, True), ("Wolf Riders", 20, 12)],
    )
    first = ostland.armies.get(name="1st Army")
    submit(ostland, turn, ArmyOrder(wardens.id, OrderKind.HOLD), ArmyOrder(first.id, OrderKind.SUPPORT, support=62))
    submit(tor, turn, ArmyOrder(raiders.id, OrderKind.MOVE, target=62))
    submit(fang, turn, ArmyOrder(boyz.id, OrderKind.MOVE, target=61))
    return {"wardens": wardens, "raiders": raiders, "boyz": boyz, "first": first}
