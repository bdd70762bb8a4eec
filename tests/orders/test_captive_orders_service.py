"""The fate of a captured Tomb Raider on the captor's order sheet, through the API, the page and the
receipt, settled when the turn resolves (orders/serializers.py, orders/captive_forms.py,
orders/services/describe.py, rulebook/ruins_and_tomb_raiders/captives.py, kingdoms/services/captives.py).
Reconnaissance, Sabotage: "A kingdom may do anything it wishes with a captured Tomb Raider"; decisions
453, 490 and 492. The demo campaign's turn 1: Ostland (alice) holds a model of Tor Anlec's Spearmen,
and Da Red Fang one of Ostland's own; the rows are made directly, as a failed mission's aftermath
would leave them."""

from __future__ import annotations

import re
from dataclasses import replace

import pytest
from django.contrib.auth import get_user_model

from kernel.event_codes import PUBLIC_EVENT_CODES, EventCode
from kingdoms.models import Army, CapturedRaider, Kingdom, TombRaiderEntry
from orders.models import OrderSheet, OrderSubmission
from rulebook.ruins_and_tomb_raiders.captives import captive_record
from rulebook.ruins_and_tomb_raiders.force import SAMPLE_HIGH_ELVES
from tests.clients import user_named
from tests.kingdoms.builders import raiders_force_built
from turns.models import Turn, TurnEvent
from turns.services.cycle import orders_phase_run

SPEARMEN = next(e for e in SAMPLE_HIGH_ELVES.entries if e.name == "Spearmen")


@pytest.fixture
def tor_anlec(demo_campaign) -> Kingdom:
    """Tor Anlec's force: the rulebook's sample list, four Spearmen left of five."""
    kingdom = Kingdom.objects.get(campaign=demo_campaign, name="Tor Anlec")
    raiders_force_built(
        kingdom, [replace(e, models=e.models - 1) if e == SPEARMEN else e for e in SAMPLE_HIGH_ELVES.entries], bows=True
    )
    return kingdom


@pytest.fixture
def held(demo_campaign, ostland, tor_anlec) -> CapturedRaider:
    return CapturedRaider.objects.create(
        campaign=demo_campaign,
        captor=ostland,
        owner=tor_anlec,
        entry=SPEARMEN.name,
        record=captive_record(SPEARMEN),
        captured_turn=0,
    )


@pytest.fixture
def not_ours(demo_campaign, ostland) -> CapturedRaider:
    """One of Ostland's own models, held by Da Red Fang: not Ostland's to decide."""
    return CapturedRaider.objects.create(
        campaign=demo_campaign,
        captor=Kingdom.objects.get(campaign=demo_campaign, name="Da Red Fang"),
        owner=ostland,
        entry="Swordsmen",
        record={"name": "Swordsmen", "models": 1, "points_per_model": 10},
        captured_turn=0,
    )


def holding(kingdom: Kingdom) -> dict[str, str]:
    """Every field army of the kingdom holds (the page's rows for them)."""
    armies = Army.objects.filter(kingdom=kingdom, kind=Army.Kind.FIELD, status=Army.Status.ACTIVE)
    return {f"army-{a.pk}-kind": "hold" for a in armies}


def _sheet(turn: Turn) -> str:
    return f"/api/turns/{turn.pk}/sheet/"


def test_the_captor_releases_its_captive_through_the_api_and_the_receipt_says_so(api_client_for, turn, ostland, held):
    """Decision 453: the fate is a captive order on a later sheet; it costs no gold."""
    body = {"orders": [], "captive_orders": [{"captive": held.pk, "fate": "released"}], "submit": True}
    response = api_client_for(user_named("alice")).put(_sheet(turn), body, format="json")

    assert response.status_code == 200, response.json()
    assert response.json()["check"]["errors"] == []
    submission = OrderSubmission.objects.get(sheet__kingdom=ostland)
    assert submission.entries["captive_orders"] == [{"captive": held.pk, "fate": "released"}]
    assert submission.gold == 0
    assert (
        f"Release the captured Tomb Raider Spearmen of Tor Anlec (captive {held.pk}): back to its owner's Tomb "
        "Raiders when the turn resolves"
    ) in submission.receipt["kingdom"]


def test_a_fate_for_a_captive_the_kingdom_does_not_hold_is_refused_naming_the_rule(
    api_client_for, turn, ostland, held, not_ours
):
    """Decision 490: only the captor decides, once; nothing is saved."""
    body = {
        "orders": [],
        "captive_orders": [{"captive": not_ours.pk, "fate": "released"}, {"captive": held.pk, "fate": "executed"}],
        "submit": True,
    }
    response = api_client_for(user_named("alice")).put(_sheet(turn), body, format="json")

    assert response.status_code == 400
    (error,) = response.json()["errors"]
    assert error["code"] == "captive-not-held"
    assert f"Captive {not_ours.pk} is not a Tomb Raider your kingdom holds" in error["detail"]
    assert not OrderSheet.objects.filter(turn=turn, kingdom=ostland).exists()
    bad_fate = {"orders": [], "captive_orders": [{"captive": held.pk, "fate": "ransomed"}]}
    assert api_client_for(user_named("alice")).put(_sheet(turn), bad_fate, format="json").status_code == 400


def test_the_page_offers_each_captive_held_and_sends_its_fate(client, turn, ostland, held, not_ours):
    """The order page's Captives part: a row for the captive Ostland holds (none for its own model held
    by another), with the ransom by Transfer of Gold said; the fate chosen is submitted."""
    client.force_login(get_user_model().objects.get(username="alice"))
    url = f"/turns/{turn.pk}/orders/{ostland.pk}/"
    page = client.get(url).content.decode()
    assert 'id="captive-orders"' in page
    assert "One model of Spearmen of Tor Anlec, held since turn 0" in page
    assert "Swordsmen" not in re.search(r'<table id="captive-orders">(.*?)</table>', page, re.S)[1]
    assert "the owner pays it with a Transfer of Gold on its own sheet, and you release the model" in page

    posted = {"captive-0-captive": held.pk, "captive-0-fate": "executed", "action": "submit"}
    assert client.post(url, {**holding(ostland), **posted}).status_code == 302
    entries = OrderSubmission.objects.get(sheet__kingdom=ostland).entries
    assert entries["captive_orders"] == [{"captive": held.pk, "fate": "executed"}]
    page = client.get(url).content.decode()
    assert re.search(r'<option value="executed" selected>', page)


def test_an_order_for_a_captive_not_held_stands_refused_in_its_row(client, api_client_for, turn, ostland, not_ours):
    """A draft saved through the API with another's captive: the page shows it in its own row, the
    refusal beside its fate."""
    body = {"orders": [], "captive_orders": [{"captive": not_ours.pk, "fate": "released"}]}
    assert api_client_for(user_named("alice")).put(_sheet(turn), body, format="json").status_code == 200
    client.force_login(get_user_model().objects.get(username="alice"))
    page = client.get(f"/turns/{turn.pk}/orders/{ostland.pk}/").content.decode()
    assert f"Captive {not_ours.pk}: not a Tomb Raider your kingdom holds" in page
    control = re.search(r'<select name="captive-0-fate"[^>]*>', page)[0]
    assert 'aria-invalid="true"' in control


def test_the_release_is_settled_when_the_turn_resolves_and_the_model_is_back_in_its_force(
    api_client_for, turn, ostland, tor_anlec, held, demo_campaign
):
    """Decisions 453 and 492: the captive's fate and turn are written, the Spearman is back in Tor Anlec's
    force, and each of the two kingdoms has its CAPTIVE_FATE event; no other kingdom, nothing public."""
    body = {"orders": [], "captive_orders": [{"captive": held.pk, "fate": "released"}], "submit": True}
    assert api_client_for(user_named("alice")).put(_sheet(turn), body, format="json").status_code == 200

    assert orders_phase_run(turn_id=turn.pk).resolved

    held.refresh_from_db()
    assert (held.fate, held.fate_turn) == ("released", 1)
    assert TombRaiderEntry.objects.get(force__kingdom=tor_anlec, name="Spearmen").models_count == SPEARMEN.models
    events = TurnEvent.objects.filter(turn=turn, code=EventCode.CAPTIVE_FATE).order_by("id")
    assert [e.kingdom_id for e in events] == [ostland.pk, tor_anlec.pk]
    assert EventCode.CAPTIVE_FATE not in PUBLIC_EVENT_CODES
    assert "Ostland releases a model of Spearmen of your Tomb Raiders" in events[1].text
