"""Issue 28: the demo campaign played through four turns with the real services, its players on the
API, and what each of four rules did told in the turn reports as the rulebook words it:

1. 3. Create / Upgrade Armies: an army whose list lost models is upgraded back to 2,000 points; "pay
   the gold difference" is measured from what it counts now, and adding 500 points or more "will lose
   all its experience points and veteran status".
2. Supply Depot: a depot captured (the winner's turn summary sheet, through the API) leaves its army
   without one; the next turn, "any army that does not have a Supply Depot at the start of its
   Maintain Armies phase must make a roll on the Foraging Table".
3. Allies, Announcement: "During the End of Campaign Turn, a player can announce that an alliance is
   broken. During the next Campaign Turn, the rules for allies cease to apply"; the one who did not
   break it receives 2,000 gold.
4. Land Sales, Transfer of Gold: the province changes hands; the payer pays the price and the 10%
   transportation fee; "if it were transferred in Turn 2, it will arrive at the beginning of Turn 4".

The story: turn 1, Ostland and Karak Dumn ally (both sheets) and Tor Anlec's Raiders take the Wardens'
cart in Hartwood; turn 2, the Wardens forage, Da Red Fang sells Millbrook to Tor Anlec and Karak
Dumn announces the end of its alliance during the End of Turn; turn 3, the two are allies no more and
Karak Dumn upgrades its battered 1st Army in its capitol; turn 4 opens with the price of Millbrook in
Da Red Fang's treasury. The dice are the services' own (each turn's seed); nothing random is
asserted. The reports are read from their context (what the PDF and the page print), not rendered.
"""

from __future__ import annotations

from typing import Any

from battles.models import Battle
from kernel.event_codes import EventCode
from kingdoms.models import Kingdom, Province
from reports.services.reports import bulletin_context, kingdom_report_context
from tests.battle_setup import army_with_list, sheet_filed
from tests.clients import api_as
from turns.models import Turn
from turns.services.cycle import aftermath_phase_run, orders_phase_run

PLAYER = {"Ostland": "alice", "Da Red Fang": "bob", "Karak Dumn": "carol", "Tor Anlec": "dave"}


def _sheet(kingdom: Kingdom, turn: Turn, **entries: Any) -> dict[str, Any]:
    """The kingdom's player submits its order sheet through the API; the answer's check."""
    answer = api_as(PLAYER[kingdom.name]).put(
        f"/api/turns/{turn.pk}/sheet/", {"orders": [], **entries, "submit": True}, format="json"
    )
    assert answer.status_code == 200, answer.json()
    return answer.json()["check"]


def _orders_resolved(turn: Turn, k: dict[str, Kingdom], **sheets: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """Every player files (an empty sheet holds every army), then the turn resolves; each
    kingdom's check as its player read it."""
    checks = {name: _sheet(k[name], turn, **sheets.get(name, {})) for name in PLAYER}
    assert orders_phase_run(turn_id=turn.pk).resolved
    return checks


def _aftermath(turn: Turn) -> Turn:
    """The battles nobody planned (the Ancient Dead's) get agreed sheets; the aftermath runs and
    opens the next turn."""
    for battle in Battle.objects.filter(turn=turn).prefetch_related("summary_sheets"):
        filed = {s.kingdom_id for s in battle.summary_sheets.all()}
        for kingdom in (battle.attacker_kingdom, battle.defender_kingdom):
            if kingdom is not None and kingdom.pk not in filed:
                sheet_filed(battle, kingdom, result="draw")
    outcome = aftermath_phase_run(turn_id=turn.pk)
    assert outcome.resolved
    return outcome.next_turn


def _report(turn: Turn, kingdom: Kingdom) -> dict[str, Any]:
    """The kingdom's turn report, as it is printed (read once the turn is reported)."""
    return kingdom_report_context(turn=turn, kingdom=kingdom)


def _events(report: dict[str, Any]) -> list[Any]:
    return [e for _, rows in report["phases"] for e in rows]


def _lines(report: dict[str, Any]) -> list[str]:
    return [e.text for e in _events(report)]


def _ledger(report: dict[str, Any]) -> list[tuple[str, int]]:
    return [(entry.reason, entry.amount) for entry, _ in report["ledger"]]


def _army(name: str, army_id: int) -> dict[str, Any]:
    return api_as(name).get(f"/api/armies/{army_id}/").json()


def test_four_turns_of_the_demo_campaign_told_in_the_reports(demo_campaign, k) -> None:
    ostland, fang, karak, tor = k["Ostland"], k["Da Red Fang"], k["Karak Dumn"], k["Tor Anlec"]
    province = {p.number: p for p in Province.objects.filter(campaign=demo_campaign)}
    turn_1 = demo_campaign.turns.get(number=1)

    # Staging (the demo's own): Ostland's Wardens hold Hartwood (62); Tor Anlec's Raiders stand at 52.
    wardens = army_with_list(
        ostland, "Wardens", province[62], [("Halberdiers", 60, 6), ("Handgunners", 30, 8), ("Knights", 15, 24)]
    )
    raiders = army_with_list(tor, "Raiders", province[52], [("Spearmen", 50, 9), ("Silver Helms", 15, 21)])
    # Karak Dumn's 1st Army, in its capitol Saltmarch (a city), comes back from a border war with
    # 60 experience and veteran Longbeards, its Ironbreakers, Hammerers, Warriors and Quarrellers
    # thinned out: its list lost models.
    dwarfs = karak.armies.get(name="1st Army")
    raised = _army("carol", dwarfs.pk)["points"]
    units = {u.name: u for u in dwarfs.units.all()}
    lost = 0
    for name, left in (("Ironbreakers", 5), ("Hammerers", 2), ("Dwarf Warriors", 10), ("Quarrellers", 5)):
        unit = units[name]
        lost += (unit.models_count - left) * unit.points_per_model
        unit.models_count = left
        unit.save(update_fields=["models_count"])
    units["Longbeards"].veteran_level = 1
    units["Longbeards"].save(update_fields=["veteran_level"])
    dwarfs.experience = 60
    dwarfs.save(update_fields=["experience"])
    damaged = _army("carol", dwarfs.pk)
    points = damaged["points"]  # what its player reads it counts now
    assert (points, damaged["experience"]) == (raised - lost, 60)
    assert 2000 - points >= 500

    # ---- Turn 1: Ostland and Karak Dumn ally (both sheets declare it); the Raiders attack Hartwood.
    _orders_resolved(
        turn_1,
        k,
        Ostland={"orders": [{"army": wardens.pk, "kind": "hold"}], "alliances": [{"kingdom": karak.pk}]},
        **{"Karak Dumn": {"alliances": [{"kingdom": ostland.pk}]}},
        **{"Tor Anlec": {"orders": [{"army": raiders.pk, "kind": "move", "target": 62}]}},
    )
    hartwood = Battle.objects.get(turn=turn_1, province__number=62)
    # Supply Depot: the winner's player reports the Wardens' cart captured on its turn summary sheet.
    for name, data in (
        ("dave", {"result": "minor-victory", "depots_captured": [{"army": wardens.pk, "by": raiders.pk}]}),
        ("alice", {"result": "minor-loss"}),
    ):
        saved = api_as(name).put(f"/api/battles/{hartwood.pk}/sheet/", data, format="json")
        assert saved.status_code == 200, saved.json()
    turn_2 = _aftermath(turn_1)

    # Turn 1's reports. Allies: "To form an alliance it will cost both players 1000 gold pieces."
    assert "Ostland and Karak Dumn are allies (Trusted Allies)." in bulletin_context(turn=turn_1)["changes"]
    for kingdom in (ostland, karak):
        assert ("alliance", -1000) in _ledger(_report(turn_1, kingdom))
    # Supply Depot: Ostland's report says the Wardens lost theirs and will forage; Tor Anlec's, the capture.
    (depot_lost,) = [e for e in _events(_report(turn_1, ostland)) if e.code == EventCode.DEPOT_LOST]
    assert depot_lost.army_id == wardens.pk
    assert depot_lost.text.startswith("Wardens' Supply Depot is captured by Tor Anlec: Raiders in 62 Hartwood")
    assert "rolls on the Foraging Table at the start of each Maintain Armies phase" in depot_lost.text
    assert any(e.code == EventCode.DEPOT_CAPTURED and e.army_id == raiders.pk for e in _events(_report(turn_1, tor)))
    assert _army("alice", wardens.pk)["supply_depot"] is False

    # ---- Turn 2: Da Red Fang sells Millbrook (56) to Tor Anlec for 600 gold.
    _orders_resolved(
        turn_2,
        k,
        **{"Da Red Fang": {"land_deals": [{"kingdom": tor.pk, "province": 56}]}},
        **{"Tor Anlec": {"land_deals": [{"kingdom": fang.pk, "gold": 600}]}},
    )
    millbrook = [p for p in api_as("bob").get(f"/api/campaigns/{demo_campaign.pk}/map/").json() if p["number"] == 56]
    assert millbrook[0]["controller"] == tor.pk  # the province changes hands with the turn's orders
    # 8. End of Turn: Karak Dumn, with no battle, announces the end of its alliance with Ostland.
    announced = api_as("carol").post(f"/api/turns/{turn_2.pk}/alliance-end/", {"ally": ostland.pk}, format="json")
    assert announced.status_code == 200 and announced.json()["announced"] is True
    turn_3 = _aftermath(turn_2)

    # Turn 2's reports. 2. Maintain Armies: the Wardens, without a depot, roll on the Foraging Table
    # (what the roll brings is the dice's; the roll and its line are the rule's).
    report = _report(turn_2, ostland)
    foraging = [e for e in _events(report) if e.code.startswith("foraging-")]
    assert foraging and {e.army_id for e in foraging} == {wardens.pk}
    assert "Wardens has no supply depot and rolls" in foraging[0].text and "on the Foraging Table" in foraging[0].text
    assert "Wardens: Foraging Table" in [r.purpose for r in report["rolls"]]
    # Allies, Announcement: told to everyone; Ostland, who did not break it, receives 2,000.
    bulletin = bulletin_context(turn=turn_2)["changes"]
    assert "Karak Dumn breaks its alliance with Ostland by announcement." in bulletin
    assert (
        "Karak Dumn breaks its alliance with Ostland by announcement: Ostland receives 2,000 gold, its own 1,000 "
        "back and Karak Dumn's (Allies)."
    ) in _lines(report)
    assert ("alliance", 2000) in _ledger(report)
    report = _report(turn_2, karak)
    assert (
        "Karak Dumn breaks its alliance with Ostland by announcement: its 1,000 gold go to Ostland (Allies)."
        in _lines(report)
    )
    assert [reason for reason, _ in _ledger(report)] == ["taxes"]
    # Land Sales: the deal is public; the payer pays the price and the 10% fee now, the seller's
    # price is on its way (Transfer of Gold).
    assert "Da Red Fang and Tor Anlec make a land deal: provinces change hands (Land Sales)." in bulletin
    report = _report(turn_2, tor)
    assert any(
        line.startswith(
            "Land deal with Da Red Fang: Tor Anlec receives 56 Millbrook, pays 600 gold (+60 transportation"
        )
        for line in _lines(report)
    )
    assert ("land-sale", -660) in _ledger(report)
    report = _report(turn_2, fang)
    assert (
        "Land deal with Tor Anlec: Da Red Fang gives 56 Millbrook to Tor Anlec, is paid 600 gold, arriving at the "
        "beginning of turn 4 (Land Sales)."
    ) in _lines(report)
    assert "land-sale" not in [reason for reason, _ in _ledger(report)]

    # ---- Turn 3: "the rules for allies cease to apply"; Karak Dumn upgrades its battered 1st Army.
    for name, kingdom in (("alice", ostland), ("carol", karak)):
        assert api_as(name).get(f"/api/kingdoms/{kingdom.pk}/").json()["alliance"] is None
    (alliance,) = api_as("bob").get(f"/api/campaigns/{demo_campaign.pk}/alliances/").json()
    assert (alliance["ended_turn"], alliance["ended_how"], alliance["broken_by"]) == (2, "announcement", karak.pk)
    # 3. Create / Upgrade Armies: "pay the gold difference", from what the army counts now.
    checks = _orders_resolved(turn_3, k, **{"Karak Dumn": {"upgrades": [{"army": dwarfs.pk, "points": 2000}]}})
    assert [f"Upgrade 1st Army from {points:,} to 2,000 points", 2000 - points] in checks["Karak Dumn"]["costs"]
    turn_4 = _aftermath(turn_3)

    report = _report(turn_3, karak)
    assert (
        f"1st Army is upgraded from {points:,} to 2,000 points for {2000 - points:,} gold; adding 500 points or "
        "more, it loses all its experience points and veteran status."
    ) in _lines(report)
    assert ("army-upgraded", -(2000 - points)) in _ledger(report)
    (row,) = [a for a in report["armies"] if a["id"] == dwarfs.pk]
    assert (row["points"], row["experience"]) == (2000, 0)
    upgraded = _army("carol", dwarfs.pk)
    assert (upgraded["size"], upgraded["experience"]) == (2000, 0)
    assert {u["veteran_level"] for u in upgraded["units"]} == {0}
    # Transfer of Gold: nothing of Millbrook's price yet at the beginning of turn 3.
    assert "land-sale" not in [reason for reason, _ in _ledger(_report(turn_3, fang))]

    # ---- Turn 4: "if it were transferred in Turn 2, it will arrive at the beginning of Turn 4".
    _orders_resolved(turn_4, k)
    _aftermath(turn_4)
    report = _report(turn_4, fang)
    assert _ledger(report)[0] == ("land-sale", 600)
    assert (
        _lines(report)[0] == "600 gold paid for land by Tor Anlec in turn 2 arrives in the treasury (Transfer of Gold)."
    )
