"""Order sheets through the API and the pages: one validation path, and secrecy per endpoint."""

import pytest
from django.contrib.auth import get_user_model

from kingdoms.models import Kingdom
from orders.models import OrderSheet


@pytest.fixture
def turn(demo_campaign):
    return demo_campaign.turns.get(number=1)


@pytest.fixture
def users(demo_campaign):
    User = get_user_model()
    return {u.username: u for u in User.objects.all()}


@pytest.fixture
def kingdoms(demo_campaign):
    return {k.name: k for k in Kingdom.objects.filter(campaign=demo_campaign)}


def adjacent_move(kingdom):
    army = kingdom.armies.get(kind="field")
    target = army.province.neighbours.exclude(terrain="desert").order_by("number").first()
    return {"army": army.id, "kind": "move", "target": target.number}


def test_submit_through_the_api_and_read_it_back(api_client_for, users, kingdoms, turn):
    client = api_client_for(users["alice"])
    order = adjacent_move(kingdoms["Ostland"])
    response = client.put(f"/api/turns/{turn.pk}/sheet/", {"orders": [order], "submit": True}, format="json")
    assert response.status_code == 200, response.json()
    assert response.json()["sheet"]["status"] == "submitted"
    read = client.get(f"/api/turns/{turn.pk}/sheet/").json()
    assert read["sheet"]["entries"]["orders"][0]["target"] == order["target"]
    assert read["check"]["errors"] == []


def test_invalid_sheet_through_the_api_is_400_naming_the_army_and_rule(api_client_for, users, kingdoms, turn):
    army = kingdoms["Ostland"].armies.get(kind="field")
    far = turn.campaign.provinces.exclude(pk__in=army.province.neighbours.all()).exclude(pk=army.province_id).first()
    response = api_client_for(users["alice"]).put(
        f"/api/turns/{turn.pk}/sheet/",
        {"orders": [{"army": army.id, "kind": "move", "target": far.number}], "submit": True},
        format="json",
    )
    assert response.status_code == 400
    assert "1st Army" in response.json()["errors"][0] and "(5. Executing Orders: Move)" in response.json()["errors"][0]
    assert not OrderSheet.objects.exists()


def test_an_order_for_another_kingdoms_army_is_refused(api_client_for, users, kingdoms, turn):
    fang_army = kingdoms["Da Red Fang"].armies.get(kind="field")
    response = api_client_for(users["alice"]).put(
        f"/api/turns/{turn.pk}/sheet/", {"orders": [{"army": fang_army.id}], "submit": True}, format="json"
    )
    assert response.status_code == 400
    assert f"Army {fang_army.id} is not one of your active armies" in response.json()["errors"][0]


def test_another_kingdoms_sheet_answers_404_everywhere(api_client_for, client, users, kingdoms, turn):
    fang = kingdoms["Da Red Fang"]
    api_client_for(users["bob"]).put(
        f"/api/turns/{turn.pk}/sheet/", {"orders": [adjacent_move(fang)], "submit": True}, format="json"
    )
    alice = api_client_for(users["alice"])
    assert alice.get(f"/api/turns/{turn.pk}/sheet/?kingdom={fang.pk}").status_code == 404
    assert (
        alice.put(f"/api/turns/{turn.pk}/sheet/?kingdom={fang.pk}", {"submit": False}, format="json").status_code == 404
    )
    assert alice.get(f"/api/turns/{turn.pk}/sheets/").status_code == 404
    assert alice.post(f"/api/turns/{turn.pk}/deadlines/", {}, format="json").status_code == 404
    client.force_login(users["alice"])
    for url in (
        f"/turns/{turn.pk}/orders/{fang.pk}/",
        f"/turns/{turn.pk}/orders/{fang.pk}/receipt/",
        f"/turns/{turn.pk}/sheets/",
    ):
        assert client.get(url).status_code == 404, url
    assert client.post(f"/turns/{turn.pk}/deadlines/", {}).status_code == 404
    assert client.post(f"/campaigns/{turn.campaign_id}/pause/", {"paused": "1"}).status_code == 404


def test_the_organizer_sees_every_sheet_and_who_has_not_submitted(api_client_for, client, users, kingdoms, turn):
    api_client_for(users["bob"]).put(
        f"/api/turns/{turn.pk}/sheet/",
        {"orders": [adjacent_move(kingdoms["Da Red Fang"])], "submit": True},
        format="json",
    )
    organizer = api_client_for(users["organizer"])
    rows = {r["name"]: r["status"] for r in organizer.get(f"/api/turns/{turn.pk}/sheets/").json()}
    assert rows["Da Red Fang"] == "submitted" and rows["Ostland"] == "missing"
    fang_sheet = organizer.get(f"/api/turns/{turn.pk}/sheet/?kingdom={kingdoms['Da Red Fang'].pk}")
    assert fang_sheet.status_code == 200
    client.force_login(users["organizer"])
    page = client.get(f"/turns/{turn.pk}/sheets/").content.decode()
    missing = page.split('id="missing"')[1].split("</p>")[0]
    assert "Ostland" in missing and "Da Red Fang" not in missing


def test_form_post_without_javascript_submits_and_shows_the_receipt(client, users, kingdoms, turn):
    ostland = kingdoms["Ostland"]
    order = adjacent_move(ostland)
    client.force_login(users["alice"])
    prefix = f"army-{order['army']}"
    response = client.post(
        f"/turns/{turn.pk}/orders/{ostland.pk}/",
        {
            f"{prefix}-kind": "move",
            f"{prefix}-target": order["target"],
            f"{prefix}-disaster_choice": "casualties",
            "action": "submit",
        },
    )
    assert response.status_code == 302
    receipt = client.get(response["Location"]).content.decode()
    assert "Move into" in receipt and "orders received" in receipt.lower()


def test_form_post_with_a_bad_sheet_shows_the_errors_in_place_and_saves_nothing(client, users, kingdoms, turn):
    ostland = kingdoms["Ostland"]
    army = ostland.armies.get(kind="field")
    client.force_login(users["alice"])
    response = client.post(
        f"/turns/{turn.pk}/orders/{ostland.pk}/",
        {
            "create-0-name": "2nd Army",
            "create-0-points": "900",
            "create-0-province": army.province.number,
            f"army-{army.id}-kind": "hold",
            f"army-{army.id}-disaster_choice": "casualties",
            "action": "submit",
        },
    )
    assert response.status_code == 400
    page = response.content.decode()
    assert "an army of 900 points cannot be created" in page
    assert not OrderSheet.objects.exists()


def test_schema_lists_the_order_endpoints(client, users):
    client.force_login(users["alice"])
    schema = client.get("/api/schema/").content.decode()
    assert "/api/turns/{turn_id}/sheet/" in schema and "/api/turns/{turn_id}/sheets/" in schema


def test_organizer_sets_the_weekly_schedule_and_players_are_told(
    client, users, turn, django_capture_on_commit_callbacks
):
    from django.core import mail

    from orders.models import DeadlineChange
    from orders.services.turns import schedule_of

    client.force_login(users["organizer"])
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(
            f"/campaigns/{turn.campaign_id}/schedule/",
            {"orders_weekday": 5, "orders_time": "18:00", "results_weekday": 1, "results_time": "22:00"},
        )
    assert response.status_code == 302
    schedule = schedule_of(turn.campaign)
    assert (schedule.orders_weekday, schedule.orders_time.hour) == (5, 18)
    change = DeadlineChange.objects.get(kind="schedule")
    assert "Saturday 18:00" in change.new_value and "Sunday 20:00" in change.old_value
    assert any("Saturday 18:00" in m.body for m in mail.outbox)
