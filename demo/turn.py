"""One whole turn of the demo campaign, played headless through the real services: staging,
order sheets for every kingdom, resolution (scenarios emailed), turn summary sheets, the aftermath
and the reports. `manage.py play_demo_turn` (make demo) runs it; the tests stage their battles
with `battle_orders_file`."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from django.db import transaction

from battles.models import Battle
from battles.services.summaries import summary_sheet_save
from kingdoms.models import Army, Campaign, Character, Kingdom, Province, Unit
from orders.services.sheets import order_sheet_save
from rulebook.tables import STARTING_ABILITIES, Archetype
from rulebook.turn.write_orders.records import ArmyOrder, DeclareAlliance, OrderKind, SheetEntries
from turns.services.cycle import aftermath_phase_run, orders_phase_run


def _user_of(kingdom: Kingdom):  # type: ignore[no-untyped-def]
    return kingdom.players.first() or kingdom.campaign.organizer


def army_with_list(kingdom: Kingdom, name: str, province: Province, units: list[tuple]) -> Army:  # type: ignore[type-arg]
    """Staging: an army standing in `province` with a list of (name, models, points per model
    [, one-use]). The demo places these so that one turn brings battles about."""
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


@transaction.atomic
def battle_orders_file(campaign: Campaign, turn, *, allies: bool = False) -> dict[str, Army]:  # type: ignore[no-untyped-def]
    """Turn 1's orders, filed (Wardens 1,290 points, Raiders 1,205, Boyz 1,095): Tor Anlec's
    Raiders march from 52 into Ostland's Hartwood (62), held by Ostland's Wardens, whom the 1st
    Army (71) supports: a battle in the field. Da Red Fang's Boyz march from 60 into Ostland's city
    Eldenhall (61), defended by its garrison: a battle for a settlement. Karak Dumn holds; the
    Ancient Dead's orders are computed. `allies`: Ostland's sheet also declares an alliance with
    Karak Dumn (Allies; the demo's Karak Dumn declares it too)."""

    k = {x.name: x for x in Kingdom.objects.filter(campaign=campaign)}

    def province(number: int) -> Province:
        return Province.objects.get(campaign=campaign, number=number)

    def submit(kingdom: Kingdom, *orders: ArmyOrder, alliances: tuple[DeclareAlliance, ...] = ()) -> None:
        order_sheet_save(
            kingdom=kingdom,
            turn=turn,
            entries=SheetEntries(orders=tuple(orders), alliances=alliances),
            submitted_by=_user_of(kingdom),
            submit=True,
            arrived_at=turn.orders_deadline - dt.timedelta(days=1),
        )

    ostland, tor, fang = k["Ostland"], k["Tor Anlec"], k["Da Red Fang"]
    wardens = army_with_list(
        ostland,
        "Wardens",
        province(62),
        [("Halberdiers", 60, 6), ("Handgunners", 30, 8), ("Knights", 15, 24), ("Greatswords", 25, 11)],
    )
    # Their General, Captain Aldric (a Veteran), fought two border skirmishes before the campaign:
    # once he survives turn 1's battle he may buy a roll on his Archetype Advancement Table
    # (Character Archetypes and Advancement: "survives three or more battles").
    captain = wardens.units.create(
        name="Captain Aldric", category="character", models_count=1, points_per_model=55, position=4
    )
    Character.objects.create(
        unit=captain,
        kingdom=ostland,
        rank="hero",
        role="general",
        archetype="veteran",
        abilities=[STARTING_ABILITIES[Archetype.VETERAN]],
        battles_survived=2,
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
    submit(
        ostland,
        ArmyOrder(wardens.id, OrderKind.HOLD),
        ArmyOrder(first.id, OrderKind.SUPPORT, support=62),
        alliances=(DeclareAlliance(kingdom=k["Karak Dumn"].id),) if allies else (),
    )
    submit(tor, ArmyOrder(raiders.id, OrderKind.MOVE, target=62))
    submit(fang, ArmyOrder(boyz.id, OrderKind.MOVE, target=61))
    return {"wardens": wardens, "raiders": raiders, "boyz": boyz, "first": first}


@dataclass(frozen=True)
class DemoTurn:
    campaign: Campaign
    turn_number: int


def demo_turn_play(campaign: Campaign) -> DemoTurn:
    """Play turn 1 of a fresh demo campaign through, headless, as its players and organizer would."""

    turn = campaign.turns.get(number=1)
    battle_orders_file(campaign, turn, allies=True)
    k = {x.name: x for x in Kingdom.objects.filter(campaign=campaign)}
    # Every player files (Karak Dumn holds, and allies with Ostland: both sheets declare it, each
    # pays 1,000 gold; Allies); the Ancient Dead's orders are the engine's, drafted when the turn
    # opened (they march out of the pyramid and turn the land to desert).
    order_sheet_save(
        kingdom=k["Karak Dumn"],
        turn=turn,
        entries=SheetEntries(alliances=(DeclareAlliance(kingdom=k["Ostland"].id),)),
        submitted_by=_user_of(k["Karak Dumn"]),
        submit=True,
        arrived_at=turn.orders_deadline - dt.timedelta(days=1),
    )
    orders_phase_run(turn_id=turn.pk)  # the battles' scenarios are emailed when this commits
    battles = {b.province.number: b for b in Battle.objects.filter(turn=turn)}

    def sheet(number: int, kingdom: str, **data: object) -> None:
        summary_sheet_save(battle=battles[number], kingdom=k[kingdom], data=data, entered_by=_user_of(k[kingdom]))

    def unit(army: str, name: str) -> int:
        return Unit.objects.get(army__kingdom__campaign=campaign, army__name=army, name=name).pk

    sheet(
        62,
        "Tor Anlec",
        result="minor-victory",
        casualties=[{"unit": unit("Raiders", "Spearmen"), "models_lost": 14}],
        story="The Silver Helms broke the Halberdiers at the ford of Hartwood.",
    )
    sheet(
        62,
        "Ostland",
        result="minor-loss",
        casualties=[
            {"unit": unit("Wardens", "Halberdiers"), "models_lost": 24, "standard": True},
            {"unit": unit("Wardens", "Knights"), "models_lost": 5},
        ],
    )
    sheet(
        61,
        "Da Red Fang",
        result="major-victory",
        loot_choice="loot",
        casualties=[
            {"unit": unit("Boyz", "Orc Boyz"), "models_lost": 30},
            {"unit": unit("Boyz", "Fanatics"), "one_use_used": True},
        ],
    )
    sheet(61, "Ostland", result="major-loss")
    aftermath_phase_run(turn_id=turn.pk)  # the reports are rendered and emailed when this commits
    return DemoTurn(campaign=campaign, turn_number=1)
