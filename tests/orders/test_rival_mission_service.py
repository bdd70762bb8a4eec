"""Reconnaissance and Sabotage on the order sheet, through the API and the page's form, and the mission
paid at the turn's resolution (orders/forms.py, orders/serializers.py, orders/services/describe.py,
rulebook/ruins_and_tomb_raiders/missions_sent.py, orders/services/resolution.py). Rulebook:
Reconnaissance, Sabotage, Using Tomb Raiders; rules decisions 450, 454-456. The demo campaign's turn 1:
alice leads Ostland, given a Tomb Raider force kept since setup; Tor Anlec is its rival."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model

from kernel.event_codes import PUBLIC_EVENT_CODES, EventCode
from kingdoms.models import Army, Character, Kingdom, TombRaiderForce, TreasuryEntry
from kingdoms.services.world import world_changed
from orders.models import OrderSheet, OrderSubmission
from orders.services.resolution import turn_preview, turn_state_load
from tests.clients import user_named
from tests.kingdoms.builders import raiders_force_built
from turns.models import Turn, TurnEvent
from turns.services.cycle import orders_phase_run


def _force(kingdom: Kingdom) -> TombRaiderForce:
    """The rulebook's sample list, kept since setup (nothing added this turn)."""
    force = raiders_force_built(kingdom)
    return force


@pytest.fixture
def raiders(ostland: Kingdom) -> TombRaiderForce:
    return _force(ostland)


@pytest.fixture
def tor_anlec(demo_campaign) -> Kingdom:
    return Kingdom.objects.get(campaign=demo_campaign, name="Tor Anlec")


def _sheet(turn: Turn) -> str:
    return f"/api/turns/{turn.pk}/sheet/"


def test_a_treasury_info_is_submitted_through_the_api_and_the_receipt_says_it_and_when(
    api_client_for, turn, ostland, tor_anlec, raiders
):
    """Reconnaissance: "pay the Tomb Raider's fee of 100 gold ... and select a desired mission"; the
    receipt names the mission, the rival and when it takes effect (decision 450)."""
    mission = {"kind": "reconnaissance", "target_kingdom": tor_anlec.pk, "desired": "treasury-info"}
    body = {"orders": [], "missions": [mission], "submit": True}
    response = api_client_for(user_named("alice")).put(_sheet(turn), body, format="json")

    assert response.status_code == 200, response.json()
    check = response.json()["check"]
    assert check["errors"] == []
    assert ["Reconnaissance (Treasury Info) against Tor Anlec (Tomb Raiders)", 100] in check["costs"]
    submission = OrderSubmission.objects.get(sheet__kingdom=ostland)
    assert submission.gold == 100
    assert submission.entries["missions"][0] | {} == {
        "kind": "reconnaissance",
        "province": None,
        "pay_change_fee": False,
        "target_kingdom": tor_anlec.pk,
        "desired": "treasury-info",
        "target_army": None,
        "target_character": None,
    }
    (line,) = [x for x in submission.receipt["kingdom"] if x.startswith("Reconnaissance")]
    assert line == (
        "Reconnaissance (Treasury Info) against Tor Anlec; delivered after this turn's battles: the treasury "
        "then, and what was spent this turn and on what (100 gold)"
    )


def test_a_mission_the_rules_refuse_is_refused_through_the_api_naming_the_entry_and_rule_and_nothing_is_saved(
    api_client_for, turn, ostland, tor_anlec, raiders
):
    """Sabotage: against "a rival Kingdom" (decision 454); Misdirection names an army the spy may know of
    (decision 455): Tor Anlec's armies have fought no battle, so none may be named."""
    their_army = Army.objects.filter(kingdom=tor_anlec).first()
    client = api_client_for(user_named("alice"))
    for mission, code, words in (
        ({"kind": "sabotage", "target_kingdom": ostland.pk, "desired": "theft"}, "mission-not-a-rival", "own kingdom"),
        (
            {"kind": "sabotage", "target_kingdom": tor_anlec.pk, "desired": "misdirection"},
            "mission-target-missing",
            "Misdirection names any one army",
        ),
        (
            {
                "kind": "sabotage",
                "target_kingdom": tor_anlec.pk,
                "desired": "misdirection",
                "target_army": their_army.pk,
            },
            "mission-target-not-known",
            "fought a battle of an earlier turn",
        ),
    ):
        response = client.put(_sheet(turn), {"orders": [], "missions": [mission], "submit": True}, format="json")
        assert response.status_code == 400
        (error,) = response.json()["errors"]
        assert error["code"] == code and words in error["detail"] and "(Sabotage)" in error["detail"]
        assert their_army.name not in error["detail"]  # the refusal tells nothing of the rival's army
    assert not OrderSheet.objects.filter(turn=turn, kingdom=ostland).exists()
    assert not OrderSubmission.objects.exists()


def _control(page: str, name: str) -> str:
    return re.search(rf'<(?:select|input)[^>]*name="{re.escape(name)}"[^>]*>', page)[0]


def _described(page: str, name: str) -> str:
    control = _control(page, name)
    assert 'aria-invalid="true"' in control, control
    error_id = re.search(r'aria-describedby="([^"]*)"', control)[1].split()[-1]
    return re.search(rf'<div class="field-problems" id="{re.escape(error_id)}">(.*?)</div>', page, re.S)[1]


def _options(page: str, name: str) -> str:
    return re.search(rf'<select name="{re.escape(name)}"[^>]*>(.*?)</select>', page, re.S)[1]


def test_the_page_offers_the_rivals_and_the_lists_with_when_and_refuses_beside_the_field(
    client, turn, ostland, tor_anlec, raiders
):
    """The order page's "Tomb Raiders' mission": the kind, the rivals (not the kingdom itself, not the
    Ancient Dead), each desired mission with the rulebook's words and when it takes effect (decision 450),
    and no army of a rival the spy has not seen (decision 455). A Misdirection naming no army is refused
    beside the army's field, naming the rule, and nothing is saved; a Treasury Info is submitted."""
    client.force_login(get_user_model().objects.get(username="alice"))
    url = f"/turns/{turn.pk}/orders/{ostland.pk}/"
    page = client.get(url).content.decode()
    assert "Reconnaissance" in _options(page, "mission-kind") and "Sabotage" in _options(page, "mission-kind")
    rivals = _options(page, "mission-target_kingdom")
    assert "Tor Anlec" in rivals and "Ostland" not in rivals
    assert not [k for k in Kingdom.objects.filter(campaign=turn.campaign, army_type="ancient-dead") if k.name in rivals]
    assert "Treasury Info" in _options(page, "mission-desired") and "Misdirection" in _options(page, "mission-desired")
    lists = re.search(r'<fieldset id="rival-mission">(.*?)</fieldset>', page, re.S)[1]
    assert "<dt>Treasury Info</dt><dd>The current funds in the Treasury" in lists
    assert "When: delivered after this turn&#x27;s battles: the treasury then" in lists
    assert "<dt>Misdirection</dt><dd>One army" in lists
    assert "When: the army&#x27;s orders of next turn revert to Hold." in lists
    armies = _options(page, "mission-target_army")
    assert not [a for a in Army.objects.filter(kingdom=tor_anlec) if a.name in armies]

    holding = {f"army-{a.pk}-kind": "hold" for a in Army.objects.filter(kingdom=ostland, kind=Army.Kind.FIELD)}
    misdirect = {
        **holding,
        "mission-kind": "sabotage",
        "mission-target_kingdom": tor_anlec.pk,
        "mission-desired": "misdirection",
    }
    refused = client.post(url, {**misdirect, "action": "submit"})
    assert refused.status_code == 400
    words = _described(refused.content.decode(), "mission-target_army")
    assert "Misdirection names any one army of the rival kingdom" in words and "(Sabotage)" in words
    assert not OrderSheet.objects.filter(turn=turn, kingdom=ostland).exists()

    spy = {
        **holding,
        "mission-kind": "reconnaissance",
        "mission-target_kingdom": tor_anlec.pk,
        "mission-desired": "treasury-info",
    }
    assert client.post(url, {**spy, "action": "submit"}).status_code == 302
    (mission,) = OrderSubmission.objects.get(sheet__kingdom=ostland).entries["missions"]
    assert (mission["kind"], mission["target_kingdom"], mission["desired"]) == (
        "reconnaissance",
        tor_anlec.pk,
        "treasury-info",
    )


def test_the_fee_is_paid_when_the_turn_resolves_and_the_mission_is_kept_for_the_battles(
    api_client_for, turn, ostland, tor_anlec, raiders
):
    """Using Tomb Raiders: 100 gold from the spy's treasury when the turn resolves, a ledger row of its own;
    the mission is held in TurnState.rival_missions for 6. Fight Battles (decision 450), with the target's
    force loaded (its raiders may defend); the event is the spy's alone, never public (decision 456)."""
    _force(tor_anlec)
    mission = {"kind": "sabotage", "target_kingdom": tor_anlec.pk, "desired": "theft"}
    body = {"orders": [], "missions": [mission], "submit": True}
    assert api_client_for(user_named("alice")).put(_sheet(turn), body, format="json").status_code == 200

    loaded = turn_state_load(turn)
    assert set(loaded.raiders) == {ostland.pk, tor_anlec.pk}
    resolution = turn_preview(turn=turn)
    sent = resolution.state.rival_missions[ostland.pk]
    assert (sent.kind, sent.target_kingdom, sent.desired) == ("sabotage", tor_anlec.pk, "theft")

    assert orders_phase_run(turn_id=turn.pk).resolved
    (paid,) = TreasuryEntry.objects.filter(kingdom=ostland, turn=1, reason=TreasuryEntry.Reason.TOMB_RAIDERS)
    assert paid.amount == -100
    assert not TreasuryEntry.objects.filter(kingdom=tor_anlec, reason=TreasuryEntry.Reason.TOMB_RAIDERS).exists()
    (event,) = TurnEvent.objects.filter(turn=turn, code=EventCode.RIVAL_MISSION_SENT)
    assert event.kingdom_id == ostland.pk
    assert event.data["target_kingdom"] == tor_anlec.pk and event.data["desired"] == "theft"
    assert EventCode.RIVAL_MISSION_SENT not in PUBLIC_EVENT_CODES
    assert not TurnEvent.objects.filter(turn=turn, kingdom=tor_anlec, code__startswith="rival-mission").exists()


def test_an_army_of_the_rival_that_fought_is_offered_with_its_general_and_a_misdirection_against_it_goes(
    client, turn, ostland, tor_anlec, raiders, demo_campaign
):
    """Decision 455: an army of the rival that fought a battle of an earlier turn may be named (the
    bulletin showed it), and for a Character Bio its General, by his place; the Warlord always. Both go,
    the Character Bio checked again when the turn resolves (the rivals' Warlords and Generals read then)."""
    general = Character.objects.filter(kingdom=tor_anlec, alive=True).exclude(role=Character.Role.WARLORD).first()
    Character.objects.filter(pk=general.pk).update(role=Character.Role.GENERAL)  # the army's General
    fought = Army.objects.get(pk=general.unit.army_id)
    Army.objects.filter(pk=fought.pk).update(last_battle_turn=0)  # a battle before this turn (the setup's)
    world_changed(demo_campaign.pk)
    client.force_login(get_user_model().objects.get(username="alice"))
    url = f"/turns/{turn.pk}/orders/{ostland.pk}/"
    page = client.get(url).content.decode()
    assert f"Tor Anlec: {fought.name}" in _options(page, "mission-target_army")
    characters = _options(page, "mission-target_character")
    assert "Tor Anlec: the Warlord" in characters
    assert f"Tor Anlec: the General of {fought.name}" in characters
    names = {c.unit.name for c in Character.objects.filter(kingdom=tor_anlec).select_related("unit")}
    assert not [n for n in names - {"Warlord", "General"} if f": {n}" in characters or f"of {n}<" in characters]

    holding = {f"army-{a.pk}-kind": "hold" for a in Army.objects.filter(kingdom=ostland, kind=Army.Kind.FIELD)}
    misdirect = {
        **holding,
        "mission-kind": "sabotage",
        "mission-target_kingdom": tor_anlec.pk,
        "mission-desired": "misdirection",
        "mission-target_army": fought.pk,
    }
    assert client.post(url, {**misdirect, "action": "submit"}).status_code == 302
    submission = OrderSubmission.objects.get(sheet__kingdom=ostland)
    assert submission.entries["missions"][0]["target_army"] == fought.pk
    assert (
        f"Sabotage (Misdirection) against Tor Anlec: {fought.name}; the army's orders of next turn revert to Hold"
        in (" ".join(submission.receipt["kingdom"]))
    )

    # A Character Bio naming the General is checked again when the turn resolves, and goes.
    bio = {
        **holding,
        "mission-kind": "reconnaissance",
        "mission-target_kingdom": tor_anlec.pk,
        "mission-desired": "character-bio",
        "mission-target_character": general.pk,
    }
    assert client.post(url, {**bio, "action": "submit"}).status_code == 302
    resolution = turn_preview(turn=turn)
    assert resolution.state.rival_missions[ostland.pk].target_character == general.pk
