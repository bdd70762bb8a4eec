"""Alliances through the site (Allies): declared on the order sheets (page and API), formed by the
turn's resolution with its ledger rows and events, shown to both players and in the bulletin,
broken by invasion; secrecy: a declaration nobody answered is told to its kingdom only."""

import pytest

from battles.models import Battle
from kingdoms.models import Alliance, Army, Kingdom, Province, TreasuryEntry
from orders.models import OrderSheet
from reports.models import TurnReport
from reports.services.deliveries import report_recipients
from reports.services.reports import bulletin_context, kingdom_report_context
from tests.clients import api_as, error_details, pages_as
from tests.kingdoms.builders import army_built, campaign_built, character_built, kingdom_built, unit_built
from tests.turns.builders import turn_built
from turns.models import Turn, TurnEvent
from turns.services.cycle import orders_phase_run


@pytest.fixture
def turn(db) -> Turn:
    """Turn 1 of the demo's four kingdoms and players on a row of eight provinces, built directly
    (tests/kingdoms/builders.py; the alliances need no more of the demo campaign): Ostland (alice,
    Empire) in 1, Da Red Fang (bob, Orcs & Goblins) in 3, Karak Dumn (carol, Dwarfs) in 5 holding
    6 too, Tor Anlec (dave, High Elves) in 8; each with 3,000 gold and a 1st Army in its capitol."""
    campaign = campaign_built(player_count=4, provinces=8)
    for name, player, army_type, capitol in (
        ("Ostland", "alice", "empire", 1),
        ("Da Red Fang", "bob", "orcs-and-goblins", 3),
        ("Karak Dumn", "carol", "dwarfs", 5),
        ("Tor Anlec", "dave", "high-elves", 8),
    ):
        kingdom = kingdom_built(campaign, name, player=player, army_type=army_type, capitol=capitol, gold=3000)
        unit_built(army_built(kingdom, province=capitol), "Spearmen", models_count=100, points_per_model=20)
    campaign.provinces.filter(number=6).update(controller=Kingdom.objects.get(campaign=campaign, name="Karak Dumn"))
    return turn_built(campaign)


@pytest.fixture
def k(turn) -> dict[str, Kingdom]:
    return {x.name: x for x in Kingdom.objects.filter(campaign=turn.campaign)}


def _lines(context) -> list[str]:
    return [e.text for _, rows in context["phases"] for e in rows]


def test_case_AL1_two_players_ally_through_their_order_sheets_and_both_see_it(turn, k):
    ostland, karak, fang, tor = k["Ostland"], k["Karak Dumn"], k["Da Red Fang"], k["Tor Anlec"]
    # Ostland (Empire) through the page: the choices are the kingdoms the Alliance Chart allows.
    page = pages_as("alice")
    sheet_url = f"/turns/{turn.pk}/orders/{ostland.pk}/"
    form_page = page.get(sheet_url).content.decode()
    assert 'name="alliance-declare"' in form_page
    assert (
        "Karak Dumn (Dwarfs: Trusted Allies)" in form_page
        and "Da Red Fang" not in form_page.split("alliance-declare")[1]
    )
    holds = {f"army-{a.id}-kind": "hold" for a in ostland.armies.filter(kind="field")}
    response = page.post(sheet_url, {**holds, "alliance-declare": str(karak.id), "action": "submit"})
    assert response.status_code == 302
    assert "Declare an alliance with Karak Dumn" in page.get(response["Location"]).content.decode()  # the receipt
    # Karak Dumn (Dwarfs) through the API.
    answer = api_as("carol").put(
        f"/api/turns/{turn.pk}/sheet/",
        {"orders": [], "alliances": [{"kingdom": ostland.id}], "submit": True},
        format="json",
    )
    assert answer.status_code == 200, answer.json()
    assert ["Alliance with Ostland (Trusted Allies)", 1000] in answer.json()["check"]["costs"]
    # Da Red Fang (Orcs & Goblins) cannot ally with the Empire: refused whole, naming the rule.
    refused = api_as("bob").put(
        f"/api/turns/{turn.pk}/sheet/",
        {"orders": [], "alliances": [{"kingdom": ostland.id}], "submit": True},
        format="json",
    )
    assert refused.status_code == 400
    assert refused.json()["errors"][0]["code"] == "alliance-disallowed"
    assert "Alliance Chart marks them X" in error_details(refused)[0]
    assert not OrderSheet.objects.filter(kingdom=fang, status="submitted").exists()
    # Tor Anlec (High Elves) declares Ostland alone: not recognised, and told to Tor Anlec only.
    assert (
        api_as("dave")
        .put(
            f"/api/turns/{turn.pk}/sheet/",
            {"orders": [], "alliances": [{"kingdom": ostland.id}], "submit": True},
            format="json",
        )
        .status_code
        == 200
    )

    assert orders_phase_run(turn_id=turn.pk).resolved

    alliance = Alliance.objects.get()
    assert (alliance.first, alliance.second, alliance.trust, alliance.formed_turn) == (ostland, karak, "T", 1)
    for kingdom in (ostland, karak):
        row = TreasuryEntry.objects.get(kingdom=kingdom, turn=1, reason="alliance")
        assert row.amount == -1000
    assert not TreasuryEntry.objects.filter(kingdom=tor, reason="alliance").exists()
    (lonely,) = TurnEvent.objects.filter(code="alliance-not-recognised")
    assert lonely.kingdom == tor
    # Both players see it with its trust level: the kingdom page, the API.
    assert (
        "Allied with <strong>Karak Dumn</strong>: Trusted Allies"
        in pages_as("alice").get(f"/kingdoms/{ostland.pk}/").content.decode()
    )
    mine = api_as("carol").get(f"/api/kingdoms/{karak.pk}/").json()["alliance"]
    assert mine["trust_label"] == "Trusted Allies" and {x["name"] for x in mine["kingdoms"]} == {
        "Ostland",
        "Karak Dumn",
    }
    # Public once made: every player reads it, in the alliances list and the bulletin.
    public = api_as("bob").get(f"/api/campaigns/{turn.campaign_id}/alliances/").json()
    assert [(a["trust"], a["ended_turn"]) for a in public] == [("T", None)]
    assert "Ostland and Karak Dumn are allies (Trusted Allies)." in bulletin_context(turn=turn)["changes"]
    # Each kingdom's report tells it, under "Allies"; Ostland's says nothing of Tor Anlec's declaration.
    ostland_report = kingdom_report_context(turn=turn, kingdom=ostland)
    assert "Allies" in [title for title, _ in ostland_report["phases"]]
    assert "Ostland and Karak Dumn are allies (Trusted Allies): Ostland pays 1,000 gold (Allies)." in _lines(
        ostland_report
    )
    assert not any("Tor Anlec" in line for line in _lines(ostland_report))
    assert any("not recognized" in line for line in _lines(kingdom_report_context(turn=turn, kingdom=tor)))
    assert [e.amount for e, _ in ostland_report["ledger"] if e.reason == "alliance"] == [-1000]


def test_case_AL4_an_invasion_through_the_site_breaks_the_alliance_and_pays_the_betrayed_2000(turn, k):
    ostland, karak = k["Ostland"], k["Karak Dumn"]
    Alliance.objects.create(campaign=turn.campaign, first=ostland, second=karak, trust="T", formed_turn=1)
    target = (
        karak.capitol.neighbours.filter(controller=karak, settlement="none", armies=None).order_by("number").first()
    )
    staging = target.neighbours.filter(controller=None).exclude(terrain="desert").order_by("number").first()
    invader = Army.objects.create(kingdom=ostland, name="Backstabbers", province=staging, size=1500)
    invader.units.create(name="Swordsmen", category="core", models_count=250, points_per_model=6)
    # The order must say it takes the province (the page shows the choice once the kingdoms are allied).
    sheet_page = pages_as("alice").get(f"/turns/{turn.pk}/orders/{ostland.pk}/").content.decode()
    assert f'name="army-{invader.id}-take_control"' in sheet_page
    response = api_as("alice").put(
        f"/api/turns/{turn.pk}/sheet/",
        {
            "orders": [{"army": invader.id, "kind": "move", "target": target.number, "take_control": True}],
            "submit": True,
        },
        format="json",
    )
    assert response.status_code == 200, response.json()

    assert orders_phase_run(turn_id=turn.pk).resolved

    alliance = Alliance.objects.get()
    assert (alliance.ended_turn, alliance.ended_how, alliance.broken_by) == (1, "invasion", ostland)
    assert TreasuryEntry.objects.get(kingdom=karak, reason="alliance").amount == 2000
    assert not TreasuryEntry.objects.filter(kingdom=ostland, reason="alliance").exists()
    target.refresh_from_db()
    assert target.controller == ostland  # claimed: no ally's province any more
    line = "Ostland breaks its alliance with Karak Dumn by invasion"
    for kingdom in (ostland, karak):
        assert any(line in text for text in _lines(kingdom_report_context(turn=turn, kingdom=kingdom)))
    assert "Ostland breaks its alliance with Karak Dumn by invasion." in bulletin_context(turn=turn)["changes"]
    assert api_as("carol").get(f"/api/kingdoms/{karak.pk}/").json()["alliance"] is None


def test_razing_the_ally_s_capitol_through_the_site_loses_it_and_its_elite_defense_force_perishes(turn, k):
    """Allies, Raze: "the backstabber takes control of that province"; Loss of the Capitol; Battle for
    Towns, Cities, and Capitols (decisions 159, 556), as the orders phase writes them: Ostland's army in
    allied Karak Dumn's capitol city razes it; Karak Dumn has no capitol from this turn, and its Elite
    Defense Force there has perished, its hero with it (decision 592)."""
    ostland, karak = k["Ostland"], k["Karak Dumn"]
    Alliance.objects.create(campaign=turn.campaign, first=ostland, second=karak, trust="T", formed_turn=1)
    capitol = karak.capitol
    Province.objects.filter(pk=capitol.pk).update(settlement="city")
    karak.armies.filter(kind="field").update(province=capitol.neighbours.get(number=6))
    guard = army_built(karak, name="Elite Defense Force", province=capitol.number, size=500, kind="garrison")
    unit_built(guard, "Hammerers", models_count=40, points_per_model=12)
    thane = character_built(guard, "Thane Grimbold", points=80, role="general")
    backstabbers = army_built(ostland, name="Backstabbers", province=capitol.number, size=1500)
    unit_built(backstabbers, "Swordsmen", models_count=250, points_per_model=6)
    response = api_as("alice").put(
        f"/api/turns/{turn.pk}/sheet/",
        {"orders": [{"army": backstabbers.id, "kind": "raze-hold"}], "submit": True},
        format="json",
    )
    assert response.status_code == 200, response.json()

    assert orders_phase_run(turn_id=turn.pk).resolved

    capitol.refresh_from_db()
    karak.refresh_from_db()
    guard.refresh_from_db()
    assert capitol.controller == ostland and capitol.razed
    assert (karak.capitol, karak.capitol_lost_turn) == (None, 1)
    assert guard.status == Army.Status.DISBANDED
    assert TurnEvent.objects.filter(turn=turn, code="capitol-lost", kingdom=karak).exists()
    assert TurnEvent.objects.filter(turn=turn, code="elite-defense-force-perished", kingdom=karak).exists()
    # Perished to the last man: its hero is recorded dead (decision 592).
    thane.refresh_from_db()
    assert not thane.alive
    assert TurnEvent.objects.filter(turn=turn, code="character-dead", kingdom=karak, army=guard).exists()


def test_razing_the_ally_s_province_its_army_shares_makes_a_battle_through_the_site(turn, k):
    """Allies, Raze: "An army can end an alliance by Razing an ally' province that it occupies. By
    Razing the province this way, the backstabber takes control of that province." Ostland's army
    stands in Karak Dumn's 6 beside Karak Dumn's (allies may: Allies) and razes it: the two are
    unallied in one province, and "a combat occurs" this turn (6. Fight Battles; decision 570): Karak
    Dumn's army attacks the backstabber, who holds 6 now. Before, no battle was scheduled and the
    sanity check rolled the orders phase back: the turn could not resolve."""
    ostland, karak = k["Ostland"], k["Karak Dumn"]
    Alliance.objects.create(campaign=turn.campaign, first=ostland, second=karak, trust="T", formed_turn=1)
    six = turn.campaign.provinces.get(number=6)
    guests = Army.objects.create(kingdom=ostland, name="Guests", province=six, size=1500)
    guests.units.create(name="Swordsmen", category="core", models_count=250, points_per_model=6)
    hosts = Army.objects.create(kingdom=karak, name="Hosts", province=six, size=1500)
    hosts.units.create(name="Warriors", category="core", models_count=150, points_per_model=10)
    response = api_as("alice").put(
        f"/api/turns/{turn.pk}/sheet/",
        {"orders": [{"army": guests.id, "kind": "raze-hold"}], "submit": True},
        format="json",
    )
    assert response.status_code == 200, response.json()

    assert orders_phase_run(turn_id=turn.pk).resolved

    alliance = Alliance.objects.get()
    assert (alliance.ended_turn, alliance.ended_how, alliance.broken_by) == (1, "raze", ostland)
    six.refresh_from_db()
    assert six.controller == ostland and six.razed
    battle = Battle.objects.get(turn=turn, province=six)
    assert (battle.attacker_army, battle.defender_army, battle.both_moved) == (hosts, guests, False)


def test_an_ally_sees_no_more_of_its_ally_than_the_rules_reveal(turn, k):
    """The alliance is public; the ally's armies, treasury and orders stay private (404)."""
    ostland, karak = k["Ostland"], k["Karak Dumn"]
    Alliance.objects.create(campaign=turn.campaign, first=ostland, second=karak, trust="T", formed_turn=1)
    carol = api_as("carol")
    assert carol.get(f"/api/kingdoms/{ostland.pk}/").status_code == 404
    assert carol.get(f"/api/kingdoms/{ostland.pk}/armies/").status_code == 404
    assert carol.get(f"/api/kingdoms/{ostland.pk}/ledger/").status_code == 404
    army = ostland.armies.get(kind="field")
    assert carol.get(f"/api/armies/{army.pk}/").status_code == 404
    assert pages_as("carol").get(f"/kingdoms/{ostland.pk}/").status_code == 404
    assert pages_as("carol").get(f"/turns/{turn.pk}/orders/{ostland.pk}/").status_code == 404


def test_case_AL5_gold_transferred_on_the_order_sheet_arrives_two_turns_later(turn, k):
    """Sent in turn 1 through the API: 1,100 leave Ostland's treasury now (a ledger row), the 1,000
    arrive in Karak Dumn's at the beginning of turn 3 (a ledger row and an event in its log)."""
    ostland, karak = k["Ostland"], k["Karak Dumn"]
    response = api_as("alice").put(
        f"/api/turns/{turn.pk}/sheet/",
        {"orders": [], "gold_transfers": [{"kingdom": karak.id, "gold": 1000}], "submit": True},
        format="json",
    )
    assert response.status_code == 200, response.json()
    assert orders_phase_run(turn_id=turn.pk).resolved
    assert TreasuryEntry.objects.get(kingdom=ostland, reason="transfer").amount == -1100
    assert not TreasuryEntry.objects.filter(kingdom=karak, reason="transfer").exists()
    assert any(
        "sends 1,000 gold to Karak Dumn" in line for line in _lines(kingdom_report_context(turn=turn, kingdom=ostland))
    )
    # Turn 2 opens: nothing yet. Turn 3 opens: it arrives, once.
    from orders.services.transfers import gold_transfers_arrive

    later = {}
    for number in (2, 3):
        later[number] = Turn.objects.create(
            campaign=turn.campaign,
            number=number,
            orders_deadline=turn.orders_deadline,
            results_deadline=turn.results_deadline,
            seed=f"t{number}",
        )
        gold_transfers_arrive(turn=later[number])
    gold_transfers_arrive(turn=later[3])  # safe twice
    (arrived,) = TreasuryEntry.objects.filter(kingdom=karak, reason="transfer")
    assert (arrived.amount, arrived.turn) == (1000, 3)
    (event,) = TurnEvent.objects.filter(code="transfer-arrived")
    assert event.kingdom == karak and event.turn == later[3] and "sent by Ostland in turn 1" in event.text


def test_the_demo_turn_makes_an_alliance_in_turn_1(demo_campaign, demo_turn_played):
    """make demo (issue 15): Ostland and Karak Dumn declare each other on their turn 1 order sheets;
    the alliance is made, each pays 1,000 gold, and both reports and the bulletin tell it (their
    contexts: what the PDFs print, not rendered here)."""
    k = {x.name: x for x in Kingdom.objects.filter(campaign=demo_campaign)}
    ostland, karak = k["Ostland"], k["Karak Dumn"]
    alliance = Alliance.objects.get(campaign=demo_campaign)
    assert (alliance.first, alliance.second, alliance.trust, alliance.formed_turn) == (ostland, karak, "T", 1)
    assert alliance.ended_turn is None
    for kingdom in (ostland, karak):
        assert TreasuryEntry.objects.get(kingdom=kingdom, turn=1, reason="alliance").amount == -1000
    turn = demo_campaign.turns.get(number=1)
    for kingdom, ally in ((ostland, karak), (karak, ostland)):
        line = f"{kingdom.name} and {ally.name} are allies (Trusted Allies): {kingdom.name} pays 1,000 gold (Allies)."
        assert line in _lines(kingdom_report_context(turn=turn, kingdom=kingdom))
    assert "Ostland and Karak Dumn are allies (Trusted Allies)." in bulletin_context(turn=turn)["changes"]


def test_the_town_s_kingdom_sees_the_battle_its_garrison_fights_beside_its_ally_s_army(turn, k):
    """Battle for Towns, Cities, and Capitols; Allies (decisions 580, 585): Ostland's army stands in
    its ally Karak Dumn's town 6 and Tor Anlec attacks it there; the town's garrison fights beside
    Ostland's army. Its garrison is on the table, so the battle is among Karak Dumn's battles (page and
    API), carol reads its scenario sheet and it is emailed to her, her kingdom is named on the
    defending side and she may write to the attackers; Karak Dumn files no turn summary
    sheet (Ostland's reports the side's result: the garrison has no list). Tor Anlec's other battles
    stay hidden from her as before. Before, the stored battle did not name the town's kingdom: carol
    got a 404 and no scenario sheet."""
    ostland, karak, tor = k["Ostland"], k["Karak Dumn"], k["Tor Anlec"]
    Alliance.objects.create(campaign=turn.campaign, first=ostland, second=karak, trust="T", formed_turn=1)
    six = turn.campaign.provinces.get(number=6)
    Province.objects.filter(pk=six.pk).update(settlement="town")
    guests = army_built(ostland, name="Guests", province=6, size=1500)
    unit_built(guests, "Swordsmen", models_count=250, points_per_model=6)
    raiders = army_built(tor, name="Raiders", province=7, size=1500)
    unit_built(raiders, "Spearmen", models_count=150, points_per_model=10)
    response = api_as("dave").put(
        f"/api/turns/{turn.pk}/sheet/",
        {"orders": [{"army": raiders.id, "kind": "move", "target": 6}], "submit": True},
        format="json",
    )
    assert response.status_code == 200, response.json()

    assert orders_phase_run(turn_id=turn.pk).resolved

    battle = Battle.objects.get(turn=turn, province=six)
    assert (battle.attacker_army, battle.defender_army, battle.garrison_kingdom) == (raiders, guests, karak)
    assert battle.garrison_points > 0
    assert battle.involves(karak.pk)
    carol = pages_as("carol")
    assert f"/battles/{battle.pk}/" in carol.get(f"/turns/{turn.pk}/battles/").content.decode()
    assert carol.get(f"/battles/{battle.pk}/").status_code == 200
    assert carol.get(f"/battles/{battle.pk}/scenario.pdf").status_code == 200
    assert [b["id"] for b in api_as("carol").get(f"/api/turns/{turn.pk}/battles/").json()] == [battle.pk]
    assert api_as("carol").get(f"/api/battles/{battle.pk}/").status_code == 200
    report = TurnReport.objects.get(turn=turn, battle=battle)
    assert "carol" in {user.username for user, _, _ in report_recipients(report)}
    # Its players are named on the defending side, and carol may write to the attackers (dave).
    page = carol.get(f"/battles/{battle.pk}/").content.decode()
    assert "Tor Anlec (dave)" in page.split('id="opponents"')[1].split("</section>")[0]
    assert "Karak Dumn (carol)" in pages_as("dave").get(f"/battles/{battle.pk}/").content.decode()
    # No sheet is owed by the town's kingdom: the ally's sheet reports the side (8. End of Turn).
    assert battle.filing_kingdom_ids() == [tor.pk, ostland.pk]
    assert carol.get(f"/battles/{battle.pk}/sheet/").status_code == 404
    # Bob's kingdom has no force there: still not found.
    assert pages_as("bob").get(f"/battles/{battle.pk}/").status_code == 404
