"""Spending experience through the order sheet, the turn cycle and the list editor (services, API,
pages): the ledger rows, the deliveries through two resolved turns, a refused sheet, XP7 through
the page and the API, the organizer's correction. Rulebook: Spending Experience, Veteran Status,
Character Archetypes and Advancement."""

from __future__ import annotations

import datetime as dt
from dataclasses import replace

import pytest
from django.contrib.auth import get_user_model

from briternia.errors import DomainError
from kingdoms.models import ArmoryItem, Army, Character, Delivery, ExperienceEntry, Kingdom, RosterAdjustment, Unit
from kingdoms.services.armies import army_entries, army_list_save
from kingdoms.services.experience import experience_adjust, experience_ledger_total
from kingdoms.services.spending import spending_rosters_load
from orders.models import OrderSheet
from tests.clients import error_details
from turns.models import Turn, TurnEvent
from turns.services.cycle import aftermath_phase_run, orders_phase_run


@pytest.fixture
def army(ostland, turn):
    """Ostland's 1st Army after a battle: 10 Swordsmen lost, the Halberdiers eligible for +1
    Veteran, the Warlord three battles past his last ability; 100 experience in the ledger."""
    army = ostland.armies.get(kind="field")
    Unit.objects.filter(army=army, name="Swordsmen").update(models_count=10, models_lost=10)
    Unit.objects.filter(army=army, name="Halberdiers").update(veteran_eligible=True)
    # His free roll at setup is settled (a 6 there, Choose, would wait for the player's choice: the
    # setup dice's stream names the kingdom's id, which differs between databases).
    Character.objects.filter(unit__army=army, role="warlord").update(battles_survived=3, ability_choice_pending=False)
    experience_adjust(army=army, turn=1, amount=100, reason="Won the battle of the ford (test setup)")
    army.refresh_from_db()
    return army


def player(kingdom):
    return kingdom.players.first()


PURCHASES = [
    {"kind": "recruits", "unit": "Swordsmen", "models": 10},  # 60 points: 6
    {"kind": "veteran", "unit": "Halberdiers"},  # 10
    {"kind": "advancement", "unit": "Elector Count Valten"},  # 25
    {"kind": "item", "unit": "Captain Reiner", "name": "Sword of Battle", "points": 25},  # 25
]


def _next_turn(turn: Turn) -> Turn:
    """Resolve `turn`'s orders and aftermath (no battles); the next turn opens."""
    assert orders_phase_run(turn_id=turn.pk).resolved
    outcome = aftermath_phase_run(turn_id=turn.pk, now=turn.results_deadline + dt.timedelta(minutes=1))
    assert outcome.resolved, Turn.objects.get(pk=turn.pk).resolution_error
    return outcome.next_turn


def test_purchases_through_the_api_spend_the_experience_and_arrive_two_turns_later(
    api_client_for, client, army, turn, ostland
):
    """XP1, XP2, XP3, XP4 through the site: bought in turn 1, the Veteran level and the Archetype
    roll act at once; the Swordsmen and the sword arrive at the beginning of turn 3, not before."""
    api = api_client_for(player(ostland))
    client.force_login(player(ostland))
    purchases = [{**p, "army": army.id} for p in PURCHASES]
    response = api.put(
        f"/api/turns/{turn.pk}/sheet/", {"orders": [], "purchases": purchases, "submit": True}, format="json"
    )
    assert response.status_code == 200, response.json()
    [row] = [r for r in response.json()["check"]["experience"] if r["army"] == army.id]
    assert (row["experience"], row["spent"], row["left"]) == (100, 66, 34)
    assert row["purchases"][0] == {"what": "10 Swordsmen (60 points), arriving at the start of turn 3", "cost": 6}

    warlord = Character.objects.get(unit__army=army, role="warlord")
    abilities_before = len(warlord.abilities)
    turn2 = _next_turn(turn)

    army.refresh_from_db()
    assert army.experience == 34 == experience_ledger_total(army)
    spent = ExperienceEntry.objects.filter(army=army, turn=1, amount__lt=0).order_by("id")
    assert [e.amount for e in spent] == [-6, -10, -25, -25]
    halberdiers = Unit.objects.get(army=army, name="Halberdiers")
    assert halberdiers.veteran_level == 1 and not halberdiers.veteran_eligible
    warlord.refresh_from_db()
    assert len(warlord.abilities) == abilities_before + 1 or warlord.ability_choice_pending
    assert warlord.battles_at_last_ability == 3
    # On the way in turn 2: on the army's API and not yet on the list.
    assert turn2.number == 2
    assert Unit.objects.get(army=army, name="Swordsmen").models_count == 10
    data = api.get(f"/api/armies/{army.id}/").json()
    assert [(d["what"], d["arrives_turn"]) for d in data["on_the_way"]] == [
        ("10 Swordsmen (60 points)", 3),
        ("Sword of Battle (25 points) for Captain Reiner", 3),
    ]
    page = client.get(f"/armies/{army.id}/edit/")
    assert page.status_code == 200 and "On the way" in page.content.decode()

    turn3 = _next_turn(turn2)
    assert turn3.number == 3
    assert Unit.objects.get(army=army, name="Swordsmen").models_count == 20
    assert ArmoryItem.objects.get(name="Sword of Battle").bearer.name == "Captain Reiner"
    assert set(Delivery.objects.filter(army=army).values_list("status", flat=True)) == {"arrived"}
    arrived = TurnEvent.objects.filter(turn=turn3, code="delivery-arrived", kingdom=ostland)
    assert arrived.count() == 2 and "Swordsmen" in arrived.first().text


def test_a_refused_sheet_changes_nothing(api_client_for, army, turn, ostland):
    """One check, the sheet refused whole: a second Veteran level and more than the army has."""
    client = api_client_for(player(ostland))
    purchases = [
        {"army": army.id, "kind": "veteran", "unit": "Halberdiers"},
        {"army": army.id, "kind": "veteran", "unit": "Halberdiers"},
        {"army": army.id, "kind": "recruits", "unit": "Swordsmen", "models": 10},
        {"army": army.id, "kind": "item", "unit": "Captain Reiner", "name": "Runefang", "points": 85},
    ]
    response = client.put(
        f"/api/turns/{turn.pk}/sheet/", {"orders": [], "purchases": purchases, "submit": True}, format="json"
    )
    assert response.status_code == 400
    errors = error_details(response)
    assert any(e.startswith("1st Army: Halberdiers is raised 2 Veteran levels") for e in errors), errors
    assert any("Runefang" in e and "(Armory)" in e for e in errors), errors
    assert not OrderSheet.objects.filter(turn=turn, kingdom=ostland, status="submitted").exists()
    army.refresh_from_db()
    assert army.experience == 100 and not Delivery.objects.exists()


def test_another_kingdom_cannot_spend_your_army_s_experience(api_client_for, army, turn, demo_campaign):
    """Secrecy: a purchase for an army not yours is 'not one of your active armies'."""
    other = Kingdom.objects.get(campaign=demo_campaign, name="Tor Anlec")
    client = api_client_for(player(other))
    response = client.put(
        f"/api/turns/{turn.pk}/sheet/",
        {"orders": [], "purchases": [{"army": army.id, "kind": "supply-depot"}], "submit": True},
        format="json",
    )
    assert response.status_code == 400
    assert response.json()["errors"][0]["code"] == "no-such-army"


def test_a_delivery_for_an_army_disbanded_meanwhile_is_lost(api_client_for, army, turn, ostland):
    client = api_client_for(player(ostland))
    purchases = [{"army": army.id, "kind": "recruits", "unit": "Swordsmen", "models": 10}]
    sheet = {"orders": [], "purchases": purchases, "submit": True}
    assert client.put(f"/api/turns/{turn.pk}/sheet/", sheet, format="json").status_code == 200
    turn2 = _next_turn(turn)
    Army.objects.filter(pk=army.pk).update(status=Army.Status.DISBANDED)
    turn3 = _next_turn(turn2)
    assert Delivery.objects.get(army=army).status == "lost"
    assert TurnEvent.objects.filter(turn=turn3, code="delivery-lost", kingdom=ostland).exists()


# --- XP7: the list editor ---------------------------------------------------------------------


def _edit_payload(army, *, extra_swordsmen: int = 0) -> dict:
    units, items = army_entries(army)
    return {
        "units": [
            {
                "id": u.key,
                "name": u.name,
                "category": u.category,
                "models": u.models + (extra_swordsmen if u.name == "Swordsmen" else 0),
                "points_per_model": u.points_per_model,
                "equipment_points": u.equipment_points,
                "veteran_level": u.veteran_level,
                "one_use": u.one_use,
                **(
                    {
                        "rank": u.character.rank,
                        "role": u.character.role,
                        "archetype": u.character.archetype,
                        "monstrous_mount": u.character.monstrous_mount,
                        "wizard": u.character.wizard,
                    }
                    if u.character
                    else {}
                ),
            }
            for u in units
        ],
        "items": [{"name": i.name, "points": i.points, "common": i.common, "bearer": i.bearer} for i in items],
    }


def test_case_XP7_the_api_refuses_models_added_for_free_and_says_how_to_buy_them(api_client_for, army, ostland):
    """XP7 (Spending Experience): 10 Swordsmen put back in the editor are refused with their cost on
    the order sheet; removing models is saved."""
    client = api_client_for(player(ostland))
    response = client.put(f"/api/armies/{army.id}/", _edit_payload(army, extra_swordsmen=10), format="json")
    assert response.status_code == 400, response.json()
    assert (
        "1st Army: 10 Swordsmen (60 points) are bought with experience on the order sheet: 6 experience, arriving "
        "at the start of turn 3 (Spending Experience)." in error_details(response)
    )
    assert Unit.objects.get(army=army, name="Swordsmen").models_count == 10
    fewer = client.put(f"/api/armies/{army.id}/", _edit_payload(army, extra_swordsmen=-2), format="json")
    assert fewer.status_code == 200, fewer.json()
    assert Unit.objects.get(army=army, name="Swordsmen").models_count == 8


def test_case_XP7_the_page_refuses_models_added_for_free(client, army, ostland):
    """XP7 through the list editor's page: the message says what it would cost and how to buy it."""
    client.force_login(player(ostland))
    units, items = army_entries(army)
    form = {
        "units-TOTAL_FORMS": str(len(units)),
        "units-INITIAL_FORMS": str(len(units)),
        "items-TOTAL_FORMS": str(len(items)),
        "items-INITIAL_FORMS": str(len(items)),
    }
    page = client.get(f"/armies/{army.id}/edit/")
    initial = page.context["units"].initial
    for i, row in enumerate(initial):
        for key, value in row.items():
            if value is None or value is False:
                continue
            form[f"units-{i}-{key}"] = str(value)
        if row["name"] == "Swordsmen":
            form[f"units-{i}-models"] = "20"
    for i, row in enumerate(page.context["items"].initial):
        for key, value in row.items():
            if value is None or value is False:
                continue
            form[f"items-{i}-{key}"] = str(value)
    response = client.post(f"/armies/{army.id}/edit/", form)
    assert response.status_code == 400
    assert "10 Swordsmen (60 points) are bought with experience on the order sheet: 6 experience" in (
        response.content.decode()
    )
    assert Unit.objects.get(army=army, name="Swordsmen").models_count == 10


def test_the_organizer_corrects_a_list_with_a_reason_and_it_is_recorded(army, demo_campaign):
    """XP7: "an organizer's correction is a recorded adjustment with a reason" (a RosterAdjustment)."""
    units, items = army_entries(army)
    more = [u if u.name != "Swordsmen" else type(u)(**{**u.__dict__, "models": 12}) for u in units]
    player_user = army.kingdom.players.first()
    with pytest.raises(DomainError):
        army_list_save(army=army, units=more, items=items, correction="typo", corrected_by=player_user)
    army_list_save(
        army=army,
        units=more,
        items=items,
        correction="Two Swordsmen were left out by mistake",
        corrected_by=demo_campaign.organizer,
    )
    adjustment = RosterAdjustment.objects.get(army=army)
    assert (
        adjustment.reason == "Two Swordsmen were left out by mistake"
        and adjustment.points_after - adjustment.points_before == 12
    )
    assert "2 Swordsmen (12 points)" in adjustment.changes[0]
    assert get_user_model().objects.filter(pk=adjustment.made_by_id).exists()


def test_the_sheet_page_takes_purchases_with_the_cost_beside_the_army_s_experience(client, army, turn, ostland):
    """The order sheet's purchases table: the cost beside each army's experience; the receipt lists them."""
    client.force_login(player(ostland))
    url = f"/turns/{turn.pk}/orders/{ostland.pk}/"
    page = client.get(url).content.decode()
    assert 'id="purchases"' in page and 'name="purchase-0-kind"' in page
    form = {
        f"army-{army.id}-kind": "hold",
        "purchase-0-army": str(army.id),
        "purchase-0-kind": "recruits",
        "purchase-0-unit": "Swordsmen",
        "purchase-0-models": "10",
        "purchase-1-army": str(army.id),
        "purchase-1-kind": "veteran",
        "purchase-1-unit": "Halberdiers",
        "action": "check",
    }
    client.post(url, form)  # checked and saved as a draft
    checked = client.get(url).content.decode()
    assert "10 Swordsmen (60 points), arriving at the start of turn 3: 6" in checked
    assert "Halberdiers to +1 Veteran: 10" in checked
    # The draft keeps the purchases; three empty rows come back below them.
    assert 'name="purchase-4-kind"' in checked and 'value="Swordsmen"' in checked
    response = client.post(url, {**form, "action": "submit"})
    assert response.status_code == 302
    receipt = client.get(response["Location"]).content.decode()
    assert "1st Army spends experience on 10 recruits for Swordsmen" in receipt


def test_the_sheet_page_refuses_a_purchase_the_rules_forbid_naming_the_army_and_rule(client, army, turn, ostland):
    client.force_login(player(ostland))
    url = f"/turns/{turn.pk}/orders/{ostland.pk}/"
    form = {
        f"army-{army.id}-kind": "hold",
        "purchase-0-army": str(army.id),
        "purchase-0-kind": "veteran",
        "purchase-0-unit": "Swordsmen",
        "action": "submit",
    }
    response = client.post(url, form)
    assert response.status_code == 400
    assert "1st Army: Swordsmen is not eligible for +1 Veteran" in response.content.decode()
    assert not OrderSheet.objects.filter(turn=turn, kingdom=ostland, status="submitted").exists()


def test_purchases_and_deliveries_round_trip_through_export_and_import(api_client_for, army, turn, ostland):
    """Transfer (format 5): the sheet's purchases, the deliveries on the way and the character's
    battles at his last ability come back in the copy; the copy's export is the same document."""
    from tests.transfer.documents import round_trip
    from transfer.export import campaign_export

    client = api_client_for(player(ostland))
    purchases = [{**p, "army": army.id} for p in PURCHASES]
    response = client.put(
        f"/api/turns/{turn.pk}/sheet/", {"orders": [], "purchases": purchases, "submit": True}, format="json"
    )
    assert response.status_code == 200, response.json()
    assert orders_phase_run(turn_id=turn.pk).resolved
    campaign = ostland.campaign
    units, items = army_entries(army)
    more = [u if u.name != "Swordsmen" else type(u)(**{**u.__dict__, "models": 11}) for u in units]
    army_list_save(army=army, units=more, items=items, correction="One left out", corrected_by=campaign.organizer)
    exported = campaign_export(campaign=campaign)
    copy = round_trip(campaign)
    assert campaign_export(campaign=copy) == exported
    deliveries = Delivery.objects.filter(army__kingdom__campaign=copy)
    assert sorted(deliveries.values_list("what", "arrives_turn", "status")) == [
        ("10 Swordsmen (60 points)", 3, "on-the-way"),
        ("Sword of Battle (25 points) for Captain Reiner", 3, "on-the-way"),
    ]
    adjustment = RosterAdjustment.objects.get(army__kingdom__campaign=copy)
    assert (adjustment.reason, adjustment.made_by) == ("One left out", campaign.organizer)
    sheet = OrderSheet.objects.get(turn__campaign=copy, kingdom__name="Ostland")
    assert [p["kind"] for p in sheet.entries["purchases"]] == ["recruits", "veteran", "advancement", "item"]
    assert (
        Character.objects.get(kingdom__campaign=copy, role="warlord", kingdom__name="Ostland").battles_at_last_ability
        == 3
    )


def test_the_schema_documents_purchases_on_the_way_and_the_correction(client, ostland):
    client.force_login(player(ostland))
    schema = client.get("/api/schema/").content.decode()
    assert "PurchaseInput" in schema and "arrive at the start of the turn after next" in schema
    assert "on_the_way" in schema and "ArmyExperience" in schema and "correction" in schema


def test_case_XP8_a_unit_marked_living_on_a_vampire_counts_list_buys_its_veteran_level(
    api_client_for, army, ostland, turn
):
    """Curse of the Dead through the list editor and the order sheet: in a Vampire Counts army the
    eligible Halberdiers are undead and refused, until the list marks them living (a mercenary
    unit); then the sheet buys their +1 for 10 experience."""
    Kingdom.objects.filter(pk=ostland.pk).update(army_type="vampire-counts")
    client = api_client_for(player(ostland))
    sheet = {"orders": [], "purchases": [{"army": army.id, "kind": "veteran", "unit": "Halberdiers"}], "submit": True}
    refused = client.put(f"/api/turns/{turn.pk}/sheet/", sheet, format="json")
    assert refused.status_code == 400
    assert any("(Curse of the Dead)" in message for message in error_details(refused))

    payload = _edit_payload(army)
    for unit in payload["units"]:
        unit["living"] = unit["name"] == "Halberdiers"
    saved = client.put(f"/api/armies/{army.id}/", payload, format="json")
    assert saved.status_code == 200, saved.json()
    assert [u["name"] for u in saved.json()["units"] if u["living"]] == ["Halberdiers"]

    accepted = client.put(f"/api/turns/{turn.pk}/sheet/", sheet, format="json")
    assert accepted.status_code == 200, accepted.json()
    [row] = [r for r in accepted.json()["check"]["experience"] if r["army"] == army.id]
    assert row["spent"] == 10 and "Halberdiers" in row["purchases"][0]["what"]


def test_the_magician_s_potential_is_bought_on_the_sheet_and_raises_his_magic_level(
    api_client_for, army, turn, ostland
):
    """Character Archetypes and Advancement, Magician, Potential (decision 391): the order sheet (API)
    buys it for 75 experience; the turn raises the Wizard's stored level by one and marks it used, and
    a second purchase is refused by the sheet's check naming the rule."""
    unit = army.units.create(name="Magister Holst", category="character", models_count=1, points_per_model=100)
    holst = Character.objects.create(
        unit=unit,
        kingdom=ostland,
        role=Character.Role.HERO,
        archetype="magician",
        abilities=["Calmer of the Winds", "Potential"],
        wizard=True,
        magic_level=2,
    )
    api = api_client_for(player(ostland))
    body = {"orders": [], "purchases": [{"army": army.id, "kind": "potential", "unit": "Magister Holst"}]}
    response = api.put(f"/api/turns/{turn.pk}/sheet/", {**body, "submit": True}, format="json")
    assert response.status_code == 200, response.json()
    turn2 = _next_turn(turn)
    holst.refresh_from_db()
    army.refresh_from_db()
    assert (holst.magic_level, holst.potential_used, army.experience) == (3, True, 25)
    assert ExperienceEntry.objects.get(army=army, reason="potential").amount == -75
    again = api.put(f"/api/turns/{turn2.pk}/sheet/", {**body, "submit": True}, format="json")
    assert again.status_code == 400
    assert "once per magician per campaign" in error_details(again)[0]


def test_immune_to_psychology_is_entered_on_the_list_and_read_by_the_archetype_roll(army, demo_campaign):
    """Character Archetypes and Advancement (decision 392): the list marks a character Immune to
    Psychology; the spending roster the Archetype roll reads carries it, with his unit's living mark."""
    from kingdoms.services.spending import spending_rosters_load

    units, items = army_entries(army)
    warlord = next(u for u in units if u.character and u.character.role == "warlord")
    marked = replace(warlord, character=replace(warlord.character, immune_to_psychology=True))
    army_list_save(army=army, units=[marked if u is warlord else u for u in units], items=items)
    assert Character.objects.get(unit_id=warlord.key).immune_to_psychology
    roster = spending_rosters_load(campaign=demo_campaign)[army.kingdom_id]
    record = roster.character(army.id, warlord.name)
    assert record is not None and record.immune_to_psychology and not record.living


def test_an_armory_item_the_kingdom_lost_with_an_army_is_counted_by_the_sheets_roster(demo_campaign) -> None:
    """Armory: "If the army containing that item is destroyed, your kingdom does not get another one": the
    roster the sheet check reads counts a destroyed War Banner among the kingdom's items, and not in its
    armory (the roster left it out, so a sheet buying another was accepted and its delivery met the
    database's one-of-each rule). The check's refusal of a name in the roster's items is
    tests/rulebook/experience/test_purchases.py's XP2."""
    ostland = Kingdom.objects.get(campaign=demo_campaign, name="Ostland")
    ArmoryItem.objects.create(kingdom=ostland, name="War Banner", points=50, common=False, destroyed=True)
    roster = spending_rosters_load(campaign=demo_campaign, kingdom=ostland.pk)[ostland.pk]
    assert "war banner" in roster.items
    assert all(item.name != "War Banner" for item in roster.armory)


def test_a_warlord_with_amnesia_is_refused_his_archetype_roll_through_the_api(api_client_for, army, turn, ostland):
    """Character Injury Chart, Amnesia (decision 621): the Elector Count rolled Amnesia in an earlier
    battle (his record says so); the sheet (API, and the roster the order sheet's check reads) refuses
    the roll his three battles would otherwise buy, naming the rule."""
    Character.objects.filter(unit__army=army, role="warlord").update(
        injuries=[{"code": "amnesia", "label": "Amnesia", "roll": 52, "detail": "no Archetype Abilities any more"}]
    )
    api = api_client_for(player(ostland))
    body = {"orders": [], "purchases": [{"army": army.id, "kind": "advancement", "unit": "Elector Count Valten"}]}
    response = api.put(f"/api/turns/{turn.pk}/sheet/", {**body, "submit": True}, format="json")
    assert response.status_code == 400
    assert "Elector Count Valten suffers from Amnesia" in error_details(response)[0]
