"""The campaign page's league table (issue 18, "What would delight them"): public to every player of
the campaign, it shows each kingdom's provinces, towns, cities and battles won, its gold as a rank
band (The Treasury is secret: rules decision 341) and whether its orders for the turn are in, never
what they are."""

from __future__ import annotations

import datetime as dt
import re

from battles.models import Battle
from kingdoms.models import TreasuryEntry
from orders.services.sheets import order_sheet_save
from rulebook.turn.write_orders.records import SheetEntries, TransferGold
from tests.battle_setup import raid_posted
from tests.reports.test_reports import client_for


def league_rows(html: str) -> dict[str, list[str]]:
    """The league table's rows by kingdom name: the cells' text, in the columns' order."""
    table = re.search(r'<table id="league"[^>]*>(.*?)</table>', html, re.S)
    assert table, "the campaign page has no league table"
    rows = {}
    for row in re.findall(r"<tr>(.*?)</tr>", table.group(1), re.S):
        cells = [re.sub(r"<[^>]+>", "", c).strip() for c in re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", row, re.S)]
        rows[cells[0]] = cells[1:]
    return rows


def test_the_league_table_bands_the_gold_and_says_whose_orders_are_in_but_not_what(demo_campaign, k):
    """The Treasury (secret) and the order sheets (secret until resolved): a band and a yes or no only."""
    turn = demo_campaign.turns.get(number=1)
    for name, amount in (("Ostland", 1234), ("Da Red Fang", -517), ("Tor Anlec", -2089)):
        TreasuryEntry.objects.create(kingdom=k[name], turn=1, amount=amount, reason="adjustment")
    ostland = k["Ostland"]
    order_sheet_save(
        kingdom=ostland,
        turn=turn,
        entries=SheetEntries(gold_transfers=(TransferGold(kingdom=k["Karak Dumn"].pk, gold=777),)),
        submitted_by=ostland.players.first(),
        submit=True,
        arrived_at=turn.orders_deadline - dt.timedelta(days=1),
    )

    html = client_for("dave").get(f"/campaigns/{demo_campaign.pk}/").content.decode()

    rows = league_rows(html)
    header = rows.pop("Kingdom")
    assert header == ["Provinces", "Towns", "Cities", "Battles won", "Gold", "Orders in"]
    gold = {name: cells[4] for name, cells in rows.items()}
    filed = {name: cells[5] for name, cells in rows.items()}
    assert gold == {
        "Ostland": "richest third",  # 7,234
        "Karak Dumn": "richest third",  # 6,000: one kingdom is richer
        "Da Red Fang": "middle",  # 5,483
        "Tor Anlec": "poorest third",  # 3,911
        "The Ancient Dead": "-",  # the organizer's: outside the race
    }
    assert filed == {
        "Ostland": "yes",
        "Karak Dumn": "no",
        "Da Red Fang": "no",
        "Tor Anlec": "no",
        "The Ancient Dead": "-",
    }
    for figure in ("7234", "7,234", "5483", "5,483", "3911", "3,911", "777"):
        assert figure not in html
    assert '<th scope="col">Gold</th>' in html and "<caption>" in html


def test_the_league_table_counts_lands_and_battles_won(reported, k):
    """After turn 1 of the demo: Tor Anlec won in Hartwood (62), Ostland held Eldenhall (61)."""
    rows = league_rows(client_for("carol").get(f"/campaigns/{reported.campaign.pk}/").content.decode())
    won = {name: cells[3] for name, cells in rows.items() if name != "Kingdom"}
    assert won["Tor Anlec"] == "1" and won["Ostland"] == "1" and won["Da Red Fang"] == "0"
    for kingdom in k.values():
        held = kingdom.provinces.all()
        towns = sum(1 for p in held if p.settlement == "town")
        cities = sum(1 for p in held if p.settlement == "city")
        assert rows[kingdom.name][:3] == [str(held.count()), str(towns), str(cities)]


def test_a_tomb_raiders_skirmish_won_is_no_battle_won_on_the_league_table(demo_campaign, k):
    """Decision 442: everyone learns that a ruin was raided, never by whom, and a Reconnaissance or
    Sabotage is told to the spy and its target alone (decisions 456, 462); the bulletin lists none of
    these skirmishes among its battles. Counted as battles won, the public league table would tell
    every player which kingdom raided or spied (or repelled a spy) that turn."""
    turn = demo_campaign.turns.get(number=1)
    ostland, karak, tor = k["Ostland"], k["Karak Dumn"], k["Tor Anlec"]
    army = ostland.armies.get(name="1st Army")
    ruin = army.province.neighbours.filter(controller__isnull=True).order_by("number").first()
    won = {"status": Battle.Status.RESOLVED, "result": "minor-victory", "defender_result": "minor-loss"}
    raid_posted(turn, ruin, ostland, army, victor="attacker", **won)
    Battle.objects.create(
        turn=turn,
        province=tor.capitol,
        attacker_kingdom=karak,
        defender_kingdom=tor,
        skirmish=True,
        mission="reconnaissance",
        mission_detail={"desired": "treasury-info", "defender": "guard"},
        garrison_points=150,
        status=Battle.Status.RESOLVED,
        result="minor-loss",
        defender_result="minor-victory",
        victor="defender",
    )

    rows = league_rows(client_for("dave").get(f"/campaigns/{demo_campaign.pk}/").content.decode())

    won_column = {name: cells[3] for name, cells in rows.items() if name != "Kingdom"}
    assert set(won_column.values()) == {"0"}, won_column
