"""The Tomb Raid on the order sheet, through the API and the page's form, and the mission sent at the
turn's resolution (orders/services/sheets.py, orders/forms.py, orders/serializers.py,
rulebook/ruins_and_tomb_raiders/missions_sent.py). Rulebook: Ruins, Using Tomb Raiders, Tomb Raid.
The demo campaign's turn 1: alice leads Ostland (Empire), whose 1st Army stands in its capitol; a
neighbouring province is made ruins, and Ostland is given a Tomb Raider force kept since setup."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model

from battles.models import Battle
from kernel.event_codes import PUBLIC_EVENT_CODES, EventCode
from kingdoms.models import Army, Kingdom, Province, TombRaiderForce, TreasuryEntry
from kingdoms.services.world import world_changed, world_load
from orders.models import OrderSheet, OrderSubmission
from rulebook.turn.write_orders.missions import known_armies
from tests.clients import user_named
from tests.kingdoms.builders import raiders_force_built
from turns.models import Turn, TurnEvent
from turns.services.cycle import orders_phase_run


@pytest.fixture
def army(ostland: Kingdom) -> Army:
    return Army.objects.get(kingdom=ostland, name="1st Army")


@pytest.fixture
def ruin(army: Army, demo_campaign) -> Province:
    """A province next to 1st Army, empty and of no kingdom, made ruins."""
    taken = set(Army.objects.filter(kingdom__campaign=demo_campaign).values_list("province", flat=True))
    province = next(
        p
        for p in army.province.neighbours.order_by("number")
        if p.controller_id is None and p.id not in taken and p.terrain == "plains"
    )
    Province.objects.filter(pk=province.pk).update(settlement="ruins", name="Old Keep")
    world_changed(demo_campaign.pk)
    province.refresh_from_db()
    return province


@pytest.fixture
def raiders(ostland: Kingdom) -> TombRaiderForce:
    """Ostland's force, the rulebook's sample list without its bows (Ostland is no Elf kingdom), kept since
    setup (nothing added this turn)."""
    force = raiders_force_built(ostland)
    return force


def _sheet(turn: Turn) -> str:
    return f"/api/turns/{turn.pk}/sheet/"


def test_a_tomb_raid_is_submitted_through_the_api_and_the_receipt_names_the_waiting_army(
    api_client_for, turn, ostland, army, ruin, raiders
):
    """Tomb Raid: the Tomb Raiders set off when one of the kingdom's armies moves into the ruins; Using
    Tomb Raiders: 100 gold, counted with the sheet's gold; the receipt says so (decision 408)."""
    body = {
        "orders": [{"army": army.pk, "kind": "move", "target": ruin.number}],
        "missions": [{"kind": "tomb-raid", "province": ruin.number}],
        "submit": True,
    }
    response = api_client_for(user_named("alice")).put(_sheet(turn), body, format="json")

    assert response.status_code == 200, response.json()
    check = response.json()["check"]
    assert [f"Tomb Raid on {ruin.number} Old Keep (Using Tomb Raiders)", 100] in check["costs"]
    assert check["errors"] == []
    submission = OrderSubmission.objects.get(sheet__kingdom=ostland)
    assert submission.entries["missions"] == [
        {
            "kind": "tomb-raid",
            "province": ruin.number,
            "pay_change_fee": False,
            "target_kingdom": None,
            "desired": "",
            "target_army": None,
            "target_character": None,
        }
    ]
    assert submission.gold == 100
    assert (
        f"Tomb Raid on {ruin.number} Old Keep (100 gold); 1st Army waits on the raid to move in (Ruins)"
        in submission.receipt["kingdom"]
    )


def test_a_tomb_raid_without_an_army_moving_in_is_refused_through_the_api_and_nothing_is_saved(
    api_client_for, turn, army, ruin, raiders
):
    """Tomb Raid: "Provided one of your armies is moving into a province containing a ruin" (TR4)."""
    body = {"orders": [], "missions": [{"province": ruin.number}], "submit": True}
    response = api_client_for(user_named("alice")).put(_sheet(turn), body, format="json")

    assert response.status_code == 400
    (error,) = response.json()["errors"]
    assert error["code"] == "mission-no-army-moving-in"
    assert f"None of your armies is ordered to move into {ruin.number} Old Keep" in error["detail"]
    assert "(Tomb Raid)" in error["detail"]
    assert not OrderSheet.objects.filter(turn=turn, kingdom__name="Ostland").exists()
    assert not OrderSubmission.objects.exists()


def _control(page: str, name: str) -> str:
    return re.search(rf'<(?:select|input)[^>]*name="{re.escape(name)}"[^>]*>', page)[0]


def _described(page: str, name: str) -> str:
    control = _control(page, name)
    assert 'aria-invalid="true"' in control, control
    error_id = re.search(r'aria-describedby="([^"]*)"', control)[1].split()[-1]
    return re.search(rf'<div class="field-problems" id="{re.escape(error_id)}">(.*?)</div>', page, re.S)[1]


def test_the_page_s_form_sends_the_raid_and_refuses_it_beside_the_ruin(client, turn, ostland, army, ruin, raiders):
    """The order page's "Tomb Raiders' mission": the ruins are offered; a raid with no army moving in is
    refused beside the ruin's field, naming the rule, and nothing is saved; with the army's move it is
    submitted, and the page shows which army waits on it."""
    client.force_login(get_user_model().objects.get(username="alice"))
    url = f"/turns/{turn.pk}/orders/{ostland.pk}/"
    page = client.get(url).content.decode()
    assert 'id="tomb-raiders"' in page
    options = re.search(r'<select name="mission-province"[^>]*>(.*?)</select>', page, re.S)[1]
    offered = [int(n) for n in re.findall(r'<option value="([0-9]+)"', options)]
    ruins = set(Province.objects.filter(campaign=turn.campaign, settlement="ruins").values_list("number", flat=True))
    assert ruin.number in offered and set(offered) == ruins  # the map's ruins, and nothing else

    refused = client.post(url, {f"army-{army.pk}-kind": "hold", "mission-province": ruin.number, "action": "submit"})
    assert refused.status_code == 400
    words = _described(refused.content.decode(), "mission-province")
    assert "None of your armies is ordered to move into" in words and "(Tomb Raid)" in words
    assert not OrderSheet.objects.filter(turn=turn, kingdom=ostland).exists()

    moving = {f"army-{army.pk}-kind": "move", f"army-{army.pk}-target": ruin.number, "mission-province": ruin.number}
    assert client.post(url, {**moving, "action": "draft"}).status_code == 302
    page = client.get(url).content.decode()
    assert "1st Army waits on the raid" in page
    assert client.post(url, {**moving, "action": "submit"}).status_code == 302
    entries = OrderSubmission.objects.get(sheet__kingdom=ostland).entries
    assert entries["missions"] == [
        {
            "kind": "tomb-raid",
            "province": ruin.number,
            "pay_change_fee": False,
            "target_kingdom": None,
            "desired": "",
            "target_army": None,
            "target_character": None,
        }
    ]


def test_the_change_fee_s_checkbox_is_shown_when_the_force_was_changed_this_turn(
    client, turn, ostland, army, ruin, raiders
):
    """Maintaining / Changing Tomb Raiders: 5 gold a point added this turn (11 points: 55 gold)."""
    TombRaiderForce.objects.filter(pk=raiders.pk).update(changed_turn=turn.number, points_added=11)
    client.force_login(get_user_model().objects.get(username="alice"))
    url = f"/turns/{turn.pk}/orders/{ostland.pk}/"
    page = client.get(url).content.decode()
    assert 'name="mission-pay_change_fee"' in page and "55 gold, 5 a point for the 11 points added" in page

    moving = {f"army-{army.pk}-kind": "move", f"army-{army.pk}-target": ruin.number, "mission-province": ruin.number}
    refused = client.post(url, {**moving, "action": "submit"})
    assert "pays 55 gold, 5 a point" in _described(refused.content.decode(), "mission-pay_change_fee")
    assert client.post(url, {**moving, "mission-pay_change_fee": "on", "action": "submit"}).status_code == 302
    assert OrderSubmission.objects.get(sheet__kingdom=ostland).gold == 155


def test_the_gold_is_taken_when_the_turn_resolves_and_only_its_kingdom_hears_of_it(
    api_client_for, turn, ostland, army, ruin, raiders, demo_campaign
):
    """Using Tomb Raiders: 100 gold from the treasury, a ledger row of the kingdom's, when the turn
    resolves (decision 415); the raid is a private matter of the kingdom's (its report only)."""
    body = {
        "orders": [{"army": army.pk, "kind": "move", "target": ruin.number}],
        "missions": [{"province": ruin.number}],
        "submit": True,
    }
    assert api_client_for(user_named("alice")).put(_sheet(turn), body, format="json").status_code == 200

    assert orders_phase_run(turn_id=turn.pk).resolved

    (paid,) = TreasuryEntry.objects.filter(kingdom=ostland, turn=1, reason=TreasuryEntry.Reason.TOMB_RAIDERS)
    assert paid.amount == -100
    (sent,) = TurnEvent.objects.filter(turn=turn, code=EventCode.TOMB_RAID_SENT)
    assert sent.kingdom_id == ostland.pk and sent.phase == "tomb-raiders"
    assert "1st Army waits on the raid" in sent.text
    assert EventCode.TOMB_RAID_SENT not in PUBLIC_EVENT_CODES
    assert EventCode.TOMB_RAID_NOT_SENT not in PUBLIC_EVENT_CODES
    assert not TreasuryEntry.objects.filter(reason=TreasuryEntry.Reason.TOMB_RAIDERS).exclude(kingdom=ostland)


def test_the_army_waiting_on_its_tomb_raid_fought_no_battle_so_rivals_cannot_name_it_and_it_may_fortify(
    api_client_for, turn, ostland, army, ruin, raiders, demo_campaign
):
    """Decision 619 (Tomb Raid: "Provided one of your armies is moving into a province containing a
    ruin, the Tomb Raiders can set off"; Fortify: "If an army is given the Fortify order and was not in
    a battle the previous turn"): the raid is the Tomb Raiders' skirmish, and the army waiting on it
    does not fight (decision 408). So it was in no battle that turn: its Fortify next turn stands, and
    it is not among the armies every kingdom has seen fight (the raid is secret, decision 442), which a
    rival's spy may name on his sheet (decision 455). Before, it was recorded as in a battle: its
    Fortify acted as Hold, and every rival's sheet offered it by name."""
    body = {
        "orders": [{"army": army.pk, "kind": "move", "target": ruin.number}],
        "missions": [{"province": ruin.number}],
        "submit": True,
    }
    assert api_client_for(user_named("alice")).put(_sheet(turn), body, format="json").status_code == 200

    assert orders_phase_run(turn_id=turn.pk).resolved

    assert Battle.objects.filter(turn=turn, attacker_army=army, mission="tomb-raid").exists()
    army.refresh_from_db()
    assert army.last_battle_turn is None
    next_turn = world_load(campaign=demo_campaign, turn_number=turn.number + 1)
    assert army.pk not in known_armies(next_turn)
