"""Issue 15's "Done when", walked through the site on the demo campaign: two players ally through
their order sheets (turn 1), one supports the other's battle with the Alliance Support Arrival roll
(turn 2), then breaks the alliance by invasion and the betrayed receives 2,000 gold (turn 3), each
step read back from both players' PDF reports as they download them; then the betrayed player drops
out and a new player takes over the Rogue Kingdom through the organizer's pages (turn 4).

The players file through the API and the order sheet page, the organizer resolves each turn and
runs its aftermath with the pages' buttons (the tasks run when the request commits). Only the
armies of turns 2 and 3 are staged, as the demo stages its battles (demo/turn.py).
Rulebook: Allies (the Alliance Chart, Alliance Support Arrival, breaking an alliance), Player
Issues (Rogue Kingdom, New Player Option)."""

from __future__ import annotations

import pytest
from django.test import Client

from battles.models import Battle
from kingdoms.models import Alliance, Army, Kingdom, Province, TreasuryEntry
from outbox.models import Email
from reports.models import TurnReport
from tests.battle_setup import army_with_list
from tests.clients import api_as, pages_as
from tests.reports.test_reports import pdf_text
from turns.models import Turn, TurnEvent

# Alliance Support Arrival (D6, Trusted Allies: no modifier): 1-3 Unexpected Delay, 4-6 On Time.
ON_TIME_FROM = 4


def _province(campaign, number: int) -> Province:
    return Province.objects.get(campaign=campaign, number=number)


def _organizer_resolves(turn: Turn, capture) -> None:
    """The organizer's Resolve button; the orders phase runs when the request commits."""
    with capture(execute=True):
        assert pages_as("organizer").post(f"/turns/{turn.pk}/resolve/").status_code == 302
    turn.refresh_from_db()
    assert turn.status == Turn.Status.BATTLES, turn.status


def _organizer_ends(turn: Turn, capture) -> Turn:
    """The organizer's aftermath button: the turn's reports are made, rendered and sent when it
    commits, and the next turn opens."""
    with capture(execute=True):
        assert pages_as("organizer").post(f"/turns/{turn.pk}/aftermath/").status_code == 302
    turn.refresh_from_db()
    assert turn.status == Turn.Status.REPORTED, turn.status
    return Turn.objects.get(campaign=turn.campaign, number=turn.number + 1)


def _report(turn: Turn, kingdom: Kingdom, player: str) -> str:
    """The kingdom's turn report as its player downloads it, as one line of PDF text."""
    report = TurnReport.objects.get(turn=turn, kingdom=kingdom, kind=TurnReport.Kind.KINGDOM)
    response = pages_as(player).get(f"/reports/{report.pk}/")
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    return " ".join(pdf_text(b"".join(response.streaming_content) if response.streaming else response.content).split())


def _file(player: str, turn: Turn, **sheet) -> None:
    response = api_as(player).put(
        f"/api/turns/{turn.pk}/sheet/", {"orders": [], **sheet, "submit": True}, format="json"
    )
    assert response.status_code == 200, response.json()


@pytest.mark.long
def test_issue_15_done_when_allies_support_betrayal_drop_out_and_new_player(
    demo_campaign, k, django_capture_on_commit_callbacks
):
    capture = django_capture_on_commit_callbacks
    ostland, karak, tor = k["Ostland"], k["Karak Dumn"], k["Tor Anlec"]

    # Turn 1: Alice (Ostland) declares the alliance on the order sheet page, Carol (Karak Dumn)
    # through the API; each pays 1,000 gold (Allies: "it will cost both players 1000 gold pieces").
    turn1 = demo_campaign.turns.get(number=1)
    page = pages_as("alice")
    sheet_url = f"/turns/{turn1.pk}/orders/{ostland.pk}/"
    holds = {f"army-{a.id}-kind": "hold" for a in ostland.armies.filter(kind="field")}
    assert page.post(sheet_url, {**holds, "alliance-declare": str(karak.id), "action": "submit"}).status_code == 302
    _file("carol", turn1, alliances=[{"kingdom": ostland.id}])
    _organizer_resolves(turn1, capture)
    turn2 = _organizer_ends(turn1, capture)

    alliance = Alliance.objects.get(campaign=demo_campaign)
    assert (alliance.first, alliance.second, alliance.trust, alliance.ended_turn) == (ostland, karak, "T", None)
    for kingdom, ally, player in ((ostland, karak, "alice"), (karak, ostland, "carol")):
        assert TreasuryEntry.objects.get(kingdom=kingdom, turn=1, reason="alliance").amount == -1000
        line = f"{kingdom.name} and {ally.name} are allies (Trusted Allies): {kingdom.name} pays 1,000 gold (Allies)."
        assert line in _report(turn1, kingdom, player)

    # Turn 2: Tor Anlec's Raiders attack Karak Dumn's Ironbreakers in the marsh of 18; Ostland's
    # Reiksguard, next door in 9, supports its ally with 300 points of core troops (AL3).
    ironbreakers = army_with_list(karak, "Ironbreakers", _province(demo_campaign, 18), [("Ironbreakers", 60, 13)])
    reiksguard = army_with_list(
        ostland, "Reiksguard", _province(demo_campaign, 9), [("Swordsmen", 150, 6), ("Halberdiers", 60, 6)]
    )
    raiders = army_with_list(tor, "Raiders", _province(demo_campaign, 27), [("Spearmen", 50, 9), ("Archers", 40, 11)])
    _file("alice", turn2, orders=[{"army": reiksguard.id, "kind": "support", "support": 18}])
    _file("carol", turn2, orders=[{"army": ironbreakers.id, "kind": "hold"}])
    _file("dave", turn2, orders=[{"army": raiders.id, "kind": "move", "target": 18}])
    _organizer_resolves(turn2, capture)

    battle = Battle.objects.get(turn=turn2, province__number=18)
    support = TurnEvent.objects.get(turn=turn2, code="support", kingdom=ostland)
    rolled = support.data["roll"]  # the campaign's seeded dice: read what was rolled, not assumed
    on_time = rolled >= ON_TIME_FROM
    label = "On Time" if on_time else "Unexpected Delay"
    assert (support.data["points"], support.data["side"], support.data["arrival"]) == (300, "defender", rolled)
    assert support.data["result"] == label
    delayed_note = any("allied detachment is delayed" in note for note in battle.notes)
    assert delayed_note is not on_time  # the delay's consequence is written into the scenario
    # Both sides file their turn summary sheets through the API: the Dwarfs hold the marsh.
    for player, result in (("carol", "major-victory"), ("dave", "major-loss")):
        response = api_as(player).put(
            f"/api/battles/{battle.pk}/sheet/", {"result": result, "submit": True}, format="json"
        )
        assert response.status_code == 200, response.json()
    turn3 = _organizer_ends(turn2, capture)
    # The detachment returned to its army, whole: an ally's army is not left at 0 points and
    # disbanded after supporting (the bug this walk found in the aftermath's state).
    reiksguard.refresh_from_db()
    assert reiksguard.status == Army.Status.ACTIVE
    assert sorted(reiksguard.units.values_list("name", "models_count")) == [("Halberdiers", 60), ("Swordsmen", 150)]

    sent = "Reiksguard supports its ally Karak Dumn with 300 points of core troops to the defender in 18"
    arrival = f"Alliance Support Arrival {rolled}: {label} (Allies)."
    ostland_report = _report(turn2, ostland, "alice")
    assert sent in ostland_report and arrival in ostland_report
    karak_report = _report(turn2, karak, "carol")
    assert "Your ally Ostland's army Reiksguard sends 300 points of core troops" in karak_report
    assert arrival in karak_report
    assert "Swordsmen" not in karak_report  # the ally's army list stays Ostland's

    # Turn 3: Ostland's Reiksguard marches into Karak Dumn's 8 and its order says it takes the
    # province: the alliance is broken by invasion and Karak Dumn receives 2,000 gold (AL4).
    karak_gold = karak.treasury_balance()
    _file("alice", turn3, orders=[{"army": reiksguard.id, "kind": "move", "target": 8, "take_control": True}])
    _file("carol", turn3, orders=[{"army": ironbreakers.id, "kind": "hold"}])
    _organizer_resolves(turn3, capture)
    turn4 = _organizer_ends(turn3, capture)

    alliance.refresh_from_db()
    assert (alliance.ended_turn, alliance.ended_how, alliance.broken_by) == (3, "invasion", ostland)
    assert _province(demo_campaign, 8).controller == ostland
    (paid,) = TreasuryEntry.objects.filter(kingdom=karak, turn=3, reason="alliance")
    assert paid.amount == 2000
    assert not TreasuryEntry.objects.filter(kingdom=ostland, turn=3, reason="alliance").exists()
    ledger = api_as("carol").get(f"/api/kingdoms/{karak.pk}/ledger/")
    assert ledger.status_code == 200 and 2000 in [row["amount"] for row in _rows(ledger.json())]
    assert karak.treasury_balance() - karak_gold == sum(
        TreasuryEntry.objects.filter(kingdom=karak, turn=3).values_list("amount", flat=True)
    )
    broken = "Ostland breaks its alliance with Karak Dumn by invasion"
    assert broken in _report(turn3, ostland, "alice")
    karak_report = _report(turn3, karak, "carol")
    assert broken in karak_report and "Karak Dumn receives 2,000 gold" in karak_report

    # Turn 4: Carol drops out. The organizer marks Karak Dumn out on its leader page: a Rogue
    # Kingdom; then gives it to Erin, a new player invited by email (New Player Option).
    treasury = karak.treasury_balance()
    settled = set(karak.provinces.exclude(settlement="none").values_list("number", "settlement"))
    assert settled and karak.armies.filter(status=Army.Status.ACTIVE).exists()
    organizer = pages_as("organizer")
    leader = f"/kingdoms/{karak.pk}/leader/"
    assert organizer.post(leader, {"action": "rogue", "why": "betrayed and fed up"}).status_code == 302
    karak.refresh_from_db()
    assert karak.rogue_turn == turn4.number and not karak.players.exists()
    assert pages_as("carol").get(f"/kingdoms/{karak.pk}/").status_code == 404
    assert "New Player Option" in organizer.get(leader).content.decode()

    assert organizer.post(leader, {"action": "give", "email": "erin@example.com"}).status_code == 302
    karak.refresh_from_db()
    assert karak.rogue_turn is None
    (erin,) = karak.players.all()
    assert erin.email == "erin@example.com"
    invitation = Email.objects.get(kind=Email.Kind.INVITATION, to=["erin@example.com"])
    assert "Karak Dumn" in invitation.text and "/accounts/reset/" in invitation.text
    # Towns, cities and treasury restored; the armies are not.
    assert karak.treasury_balance() == treasury
    assert set(karak.provinces.exclude(settlement="none").values_list("number", "settlement")) == settled
    assert not karak.armies.filter(status=Army.Status.ACTIVE).exists()
    erin_pages = Client()
    erin_pages.force_login(erin)
    assert erin_pages.get(f"/kingdoms/{karak.pk}/").status_code == 200
    assert erin_pages.get(f"/turns/{turn4.pk}/orders/{karak.pk}/").status_code == 200


def _rows(body):  # type: ignore[no-untyped-def]
    """The ledger's rows, paginated or not."""
    return body["results"] if isinstance(body, dict) and "results" in body else body


def test_an_ally_arriving_to_defend_fights_beside_its_ally_and_the_aftermath_goes_on(
    demo_campaign, k, django_capture_on_commit_callbacks
):
    """Decision 550 through the site (Allies: "Armies may defend their allies' provinces by fighting
    battles therein"): Ostland and Karak Dumn are allied; Tor Anlec's Raiders (from 27) and Ostland's
    Reiksguard (from 9) both march into Karak Dumn's 18, where its Ironbreakers stand. One battle:
    the Raiders attack the Ironbreakers, the Reiksguard fights beside its ally with 300 points of
    core troops. The Raiders win: the Ironbreakers retreat, and so does the Reiksguard, back to 9;
    the aftermath is not rolled back for enemies left side by side (the bug: the Reiksguard was in
    no battle and stayed in 18 beside the Raiders)."""
    capture = django_capture_on_commit_callbacks
    ostland, karak, tor = k["Ostland"], k["Karak Dumn"], k["Tor Anlec"]
    first, second = sorted((ostland, karak), key=lambda x: x.id)
    Alliance.objects.create(campaign=demo_campaign, first=first, second=second, trust="T", formed_turn=0)
    turn1 = demo_campaign.turns.get(number=1)
    Province.objects.filter(campaign=demo_campaign, number=18).update(controller=karak)
    ironbreakers = army_with_list(karak, "Ironbreakers", _province(demo_campaign, 18), [("Ironbreakers", 60, 13)])
    reiksguard = army_with_list(
        ostland, "Reiksguard", _province(demo_campaign, 9), [("Swordsmen", 150, 6), ("Halberdiers", 60, 6)]
    )
    # 1,070 points: enough to claim the province it wins (Army Restrictions).
    raiders = army_with_list(tor, "Raiders", _province(demo_campaign, 27), [("Spearmen", 70, 9), ("Archers", 40, 11)])
    _file("alice", turn1, orders=[{"army": reiksguard.id, "kind": "move", "target": 18}])
    _file("carol", turn1, orders=[{"army": ironbreakers.id, "kind": "hold"}])
    _file("dave", turn1, orders=[{"army": raiders.id, "kind": "move", "target": 18}])
    _organizer_resolves(turn1, capture)

    battle = Battle.objects.get(turn=turn1, province__number=18)
    assert (battle.attacker_army, battle.defender_army) == (raiders, ironbreakers)
    assert [(s.army, s.side, s.points) for s in battle.supports.all()] == [(reiksguard, "defender", 300)]
    for player, result in (("dave", "major-victory"), ("carol", "major-loss")):
        response = api_as(player).put(
            f"/api/battles/{battle.pk}/sheet/", {"result": result, "submit": True}, format="json"
        )
        assert response.status_code == 200, response.json()
    assert Battle.objects.filter(turn=turn1).count() == 1  # one battle: the Reiksguard fights in no other
    _organizer_ends(turn1, capture)

    for army in (raiders, ironbreakers, reiksguard):
        army.refresh_from_db()
    assert raiders.province.number == 18 and _province(demo_campaign, 18).controller == tor
    assert reiksguard.province.number == 9 and ironbreakers.province.number != 18


def test_an_ally_that_wins_in_its_ally_s_province_is_told_so_and_so_is_its_ally(
    demo_campaign, k, django_capture_on_commit_callbacks
):
    """Decision 582 through the site (decision 552; Allies: "Control of the province does not change
    hands if the ally maintains control of the province"): Ostland's Reiksguard (from 9) and Tor
    Anlec's Raiders (from 27) both march into Karak Dumn's 18, Ostland's ally. The Reiksguard wins:
    18 stays Karak Dumn's, and both allies' reports say the Reiksguard kept it for Karak Dumn; Tor
    Anlec's does not."""
    capture = django_capture_on_commit_callbacks
    ostland, karak, tor = k["Ostland"], k["Karak Dumn"], k["Tor Anlec"]
    first, second = sorted((ostland, karak), key=lambda x: x.id)
    Alliance.objects.create(campaign=demo_campaign, first=first, second=second, trust="T", formed_turn=0)
    turn1 = demo_campaign.turns.get(number=1)
    Province.objects.filter(campaign=demo_campaign, number=18).update(controller=karak)
    reiksguard = army_with_list(
        ostland, "Reiksguard", _province(demo_campaign, 9), [("Swordsmen", 150, 6), ("Halberdiers", 60, 6)]
    )
    raiders = army_with_list(tor, "Raiders", _province(demo_campaign, 27), [("Spearmen", 70, 9), ("Archers", 40, 11)])
    _file("alice", turn1, orders=[{"army": reiksguard.id, "kind": "move", "target": 18}])
    _file("dave", turn1, orders=[{"army": raiders.id, "kind": "move", "target": 18}])
    _organizer_resolves(turn1, capture)

    battle = Battle.objects.get(turn=turn1, province__number=18)
    assert {battle.attacker_army, battle.defender_army} == {reiksguard, raiders} and battle.both_moved
    for player, result in (("alice", "major-victory"), ("dave", "major-loss")):
        response = api_as(player).put(
            f"/api/battles/{battle.pk}/sheet/", {"result": result, "submit": True}, format="json"
        )
        assert response.status_code == 200, response.json()
    _organizer_ends(turn1, capture)

    assert _province(demo_campaign, 18).controller == karak
    kept = TurnEvent.objects.filter(turn=turn1, code="province-kept-for-ally")
    assert sorted(e.kingdom_id for e in kept) == sorted([ostland.id, karak.id])
    assert "Reiksguard wins the battle in 18" in _report(turn1, ostland, "alice")
    assert "it keeps it for Karak Dumn, and control does not change hands (Allies)." in _report(turn1, ostland, "alice")
    karak_report = _report(turn1, karak, "carol")
    assert "Your ally Ostland's army Reiksguard wins the battle in your province 18" in karak_report
    assert "keeps it for" not in _report(turn1, tor, "dave")
