"""The order sheet's mission uses (Reconnaissance and Sabotage): through the API and the page, checked,
on the receipt (orders/services/mission_uses.py, orders/mission_use_forms.py, orders/serializers.py).
Decisions 450, 483, 487. The demo campaign's turn 1: alice leads Ostland, which earned an Army Orders and
a Destroy Communication against Da Red Fang before it (the MissionEffect rows are made here: the
aftermath of a skirmish makes them in play); Da Red Fang earned one of its own against Ostland."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model

from kingdoms.models import Army, Kingdom, MissionEffect
from orders.models import OrderSubmission
from tests.clients import user_named


@pytest.fixture
def effects(ostland: Kingdom, demo_campaign) -> dict[str, MissionEffect]:
    fang = Kingdom.objects.get(campaign=demo_campaign, name="Da Red Fang")
    spied = Army.objects.filter(kingdom=fang, kind="field").first()

    def effect(kingdom: Kingdom, target: Kingdom, mission: str, **kw: object) -> MissionEffect:
        return MissionEffect.objects.create(
            campaign=demo_campaign, kingdom=kingdom, target=target, mission=mission, earned_turn=0, **kw
        )

    return {
        "orders": effect(ostland, fang, "army-orders", target_army=spied),
        "cut": effect(ostland, fang, "destroy-communication", expires_turn=2),
        "theirs": effect(fang, ostland, "destroy-communication", expires_turn=2),
        "poison": effect(ostland, fang, "poison-well"),
    }


def _sheet(turn) -> str:
    return f"/api/turns/{turn.pk}/sheet/"


def test_the_api_lists_the_usable_effects_takes_the_uses_and_the_receipt_says_them(
    api_client_for, turn, ostland, effects
):
    army = Army.objects.get(kingdom=ostland, name="1st Army")
    client = api_client_for(user_named("alice"))
    uses = [{"effect": effects["orders"].pk, "army": army.pk}, {"effect": effects["cut"].pk, "army": None}]
    response = client.put(_sheet(turn), {"orders": [], "mission_uses": uses, "submit": True}, format="json")

    assert response.status_code == 200, response.json()
    usable = response.json()["usable_effects"]
    # Its own Army Orders and Destroy Communication; never Da Red Fang's, nor a Poison Well (no sheet uses it).
    assert [(u["id"], u["mission"]) for u in usable] == [
        (effects["orders"].pk, "army-orders"),
        (effects["cut"].pk, "destroy-communication"),
    ]
    assert usable[1]["label"] == "Destroy Communication against Da Red Fang (turn 0, usable until turn 2)"
    submission = OrderSubmission.objects.get(sheet__kingdom=ostland)
    assert submission.entries["mission_uses"] == uses
    assert (
        "Army Orders against Da Red Fang: 1st Army holds in response if the army spied on is ordered into its "
        "province or one adjacent to it (Reconnaissance)" in submission.receipt["kingdom"]
    )
    assert (
        "Destroy Communication against Da Red Fang: cancel the first support from or to them this turn (Sabotage)"
        in submission.receipt["kingdom"]
    )


def test_the_api_refuses_another_kingdom_s_effect(api_client_for, turn, effects):
    body = {"orders": [], "mission_uses": [{"effect": effects["theirs"].pk, "army": None}], "submit": True}
    response = api_client_for(user_named("alice")).put(_sheet(turn), body, format="json")

    assert response.status_code == 400
    (error,) = response.json()["errors"]
    assert error["code"] == "mission-use-no-effect"
    assert not OrderSubmission.objects.exists()


def test_the_page_offers_each_usable_effect_with_its_choice_of_army(client, turn, ostland, effects):
    client.force_login(get_user_model().objects.get(username="alice"))
    url = f"/turns/{turn.pk}/orders/{ostland.pk}/"
    page = client.get(url).content.decode()

    assert 'id="mission-uses"' in page
    orders_field = re.search(rf'<select name="use-{effects["orders"].pk}-army"[^>]*>(.*?)</select>', page, re.S)[1]
    own = {str(a.pk) for a in Army.objects.filter(kingdom=ostland, kind="field", status="active")}
    assert set(re.findall(r'<option value="([0-9]+)"', orders_field)) == own
    cut_field = re.search(rf'<select name="use-{effects["cut"].pk}-army"[^>]*>(.*?)</select>', page, re.S)[1]
    assert re.findall(r'<option value="([^"]*)"', cut_field) == ["", "first"]  # no army of theirs is shown
    assert f'name="use-{effects["theirs"].pk}-army"' not in page

    army = Army.objects.get(kingdom=ostland, name="1st Army")
    posted = {
        f"army-{army.pk}-kind": "hold",
        f"use-{effects['orders'].pk}-army": str(army.pk),
        f"use-{effects['cut'].pk}-army": "first",
        "action": "submit",
    }
    assert client.post(url, posted).status_code == 302
    assert OrderSubmission.objects.get(sheet__kingdom=ostland).entries["mission_uses"] == [
        {"effect": effects["orders"].pk, "army": army.pk},
        {"effect": effects["cut"].pk, "army": None},
    ]
    page = client.get(url).content.decode()
    chosen = re.search(rf'<select name="use-{effects["cut"].pk}-army"[^>]*>(.*?)</select>', page, re.S)[1]
    assert '<option value="first" selected>' in chosen
