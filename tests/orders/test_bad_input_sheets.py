"""Bad input on the order sheet, as a careless or hostile client sends it (issue 19): each is a
clear 4xx through the real endpoint, and the submitted sheet stands as it was."""

from __future__ import annotations

import pytest

from orders.models import OrderSheet, OrderSubmission
from tests.clients import api_as, error_details, error_fields, pages_as

JUNK_IDS = ["²", "abc", "-1", "0", "1.5", "99999999999999999999999"]


@pytest.fixture
def submitted(turn, ostland):
    """Alice's real submission: her army moves."""
    army = ostland.armies.get(kind="field")
    target = army.province.neighbours.exclude(terrain="desert").order_by("number").first()
    response = api_as("alice").put(
        f"/api/turns/{turn.pk}/sheet/",
        {"orders": [{"army": army.id, "kind": "move", "target": target.number}], "submit": True},
        format="json",
    )
    assert response.status_code == 200, response.json()
    return OrderSheet.objects.get(turn=turn, kingdom=ostland)


def _unchanged(sheet: OrderSheet) -> None:
    fresh = OrderSheet.objects.get(pk=sheet.pk)
    assert (fresh.status, fresh.entries, fresh.updated_at) == (sheet.status, sheet.entries, sheet.updated_at)
    assert fresh.entries["orders"][0]["kind"] == "move"
    assert OrderSubmission.objects.filter(sheet=sheet).count() == 1


def test_a_form_or_multipart_body_is_415_and_the_submission_stands(turn, submitted):
    """The nested order lists of a form body parse as empty: an empty sheet would replace the
    player's submission. The sheet endpoints take JSON only."""
    url = f"/api/turns/{turn.pk}/sheet/"
    alice = api_as("alice")
    for body, content_type in (
        ("submit=true&orders=garbage", "application/x-www-form-urlencoded"),
        ("submit=true", "text/plain"),
    ):
        response = alice.put(url, body, content_type=content_type)
        assert response.status_code == 415, response.content
        assert "Unsupported media type" in error_details(response)[0]
    multipart = alice.put(url, {"submit": "true", "orders": "false"}, format="multipart")
    assert multipart.status_code == 415
    _unchanged(submitted)


def test_a_submission_whose_orders_are_missing_or_not_a_list_is_400(turn, submitted):
    url = f"/api/turns/{turn.pk}/sheet/"
    alice = api_as("alice")
    missing = alice.put(url, {"submit": True}, format="json")
    assert missing.status_code == 400
    assert missing.json() == {
        "type": "validation_error",
        "errors": [
            {
                "code": "invalid",
                "detail": "A submission lists its orders: give [] for every army to hold.",
                "attr": "orders",
            }
        ],
    }
    for junk in (False, "garbage", None, {"army": 1}):
        response = alice.put(url, {"orders": junk, "submit": True}, format="json")
        assert response.status_code == 400, junk
        assert error_fields(response) == ["orders"], response.json()
    not_an_object = alice.put(url, [{"submit": True}], format="json")
    assert not_an_object.status_code == 400
    _unchanged(submitted)
    # Every army holding is still said plainly.
    assert alice.put(url, {"orders": [], "submit": True}, format="json").status_code == 200


@pytest.mark.parametrize("junk", JUNK_IDS)
def test_a_kingdom_query_that_is_no_id_is_400(turn, submitted, junk):
    url = f"/api/turns/{turn.pk}/sheet/?kingdom={junk}"
    for client in (api_as("alice"), api_as("organizer")):
        read = client.get(url)
        assert read.status_code == 400, (junk, read.content)
        assert error_fields(read) == ["kingdom"]
        write = client.put(url, {"orders": [], "submit": True}, format="json")
        assert write.status_code == 400
        assert error_fields(write) == ["kingdom"]
    _unchanged(submitted)


def test_the_form_s_garrison_is_parsed_by_its_field(turn, ostland, submitted):
    """`garrison=²` answered 500; any other junk was dropped without a word."""
    page = pages_as("alice")
    for junk in ("²", "abc", "9999"):
        response = page.post(f"/turns/{turn.pk}/orders/{ostland.pk}/", {"garrison": junk, "action": "submit"})
        assert response.status_code == 400
        assert f"Garrisons: Select a valid choice. {junk} is not one of the available choices." in (
            response.content.decode()
        )
    _unchanged(submitted)


def test_the_schema_documents_the_kingdom_query(client):
    schema = client.get("/api/schema/?format=json").json()
    for method in ("get", "put"):
        params = schema["paths"]["/api/turns/{turn_id}/sheet/"][method]["parameters"]
        kingdom = next(p for p in params if p["name"] == "kingdom")
        assert kingdom["in"] == "query" and kingdom["schema"]["type"] == "integer"


@pytest.mark.parametrize("index", ["1000000", "-1", "402", "٣", "x"])
def test_a_row_the_sheet_form_cannot_place_refuses_the_sheet(turn, ostland, submitted, demo_campaign, index):
    """Issue 33: `transfer-1000000-kingdom` was dropped without a word and the sheet submitted
    without it. A row the form cannot place is an error, and nothing is submitted."""
    from kingdoms.models import Kingdom

    army = ostland.armies.get(kind="field")
    fang = Kingdom.objects.get(campaign=demo_campaign, name="Da Red Fang")
    response = pages_as("alice").post(
        f"/turns/{turn.pk}/orders/{ostland.pk}/",
        {
            f"army-{army.pk}-kind": "hold",
            f"transfer-{index}-kingdom": fang.pk,
            f"transfer-{index}-gold": "10",
            "action": "submit",
        },
    )
    assert response.status_code == 400
    assert f"transfer-{index}-kingdom: the sheet has no such row" in response.content.decode()
    _unchanged(submitted)


def test_the_sheet_form_takes_as_many_rows_of_a_part_as_the_api_and_refuses_one_past_them_naming_the_rule(
    turn, ostland, submitted, demo_campaign
):
    """Army Table; decision 593: the site's order form bounds each part of the sheet as the API bounds its
    lists (402 entries: a few for each of the 134 armies a kingdom may have at most). Row 401 of a part is
    a row of the sheet (it was refused past row 99); row 402 refuses the whole sheet with a message naming
    the rule, and nothing is saved."""
    from kingdoms.models import Kingdom

    army = ostland.armies.get(kind="field")
    fang = Kingdom.objects.get(campaign=demo_campaign, name="Da Red Fang")
    url = f"/turns/{turn.pk}/orders/{ostland.pk}/"
    past = pages_as("alice").post(
        url,
        {
            f"army-{army.pk}-kind": "hold",
            "transfer-402-kingdom": fang.pk,
            "transfer-402-gold": "10",
            "action": "submit",
        },
    )
    assert past.status_code == 400
    page = past.content.decode()
    assert (
        "transfer-402-kingdom: the sheet has no such row (rows are numbered 0 to 401: a part of the sheet holds "
        in page
    )
    assert "Army Table: a few for each of the 134 armies a kingdom may have at most); nothing is saved." in page
    _unchanged(submitted)
    # The last row a part holds is read, as the API's 402nd entry is.
    last = pages_as("alice").post(
        url,
        {f"army-{army.pk}-kind": "hold", "transfer-401-kingdom": fang.pk, "transfer-401-gold": "", "action": "save"},
    )
    assert "no such row" not in last.content.decode()
    assert OrderSheet.objects.get(pk=submitted.pk).entries["gold_transfers"] == [{"kingdom": fang.pk, "gold": 0}]


def test_a_threads_kept_input_fields_check_each_sheet_as_fresh_ones_do(db):
    """Issue 35: the order sheet's input serializer keeps its fields per thread
    (OrderSheetInput.of). Whatever came before, each body is validated as a serializer built for
    it alone validates it: the same errors, the same validated sheet, nothing of an earlier one."""
    from orders.serializers import OrderSheetInput

    bodies = [
        {"orders": [{"army": 7, "kind": "move", "target": 12}], "submit": True},
        {"orders": [{"army": "abc", "kind": "fly"}], "creations": "x", "submit": True},
        {"submit": True},
        {"orders": [], "purchases": [{"army": 3, "kind": "veteran", "unit": "Spearmen"}], "submit": False},
        {"orders": [{"army": 7, "kind": "move", "target": 12, "path": [1, 2, 3]}]},
        {"orders": [{"army": 9}], "land_deals": [{"kingdom": 2, "gold": "lots"}]},
        {"orders": [{"army": 7, "kind": "move", "target": 12}], "submit": True},
    ]
    for body in bodies * 2:
        kept, fresh = OrderSheetInput.of(body), OrderSheetInput(data=body)
        assert kept.is_valid() == fresh.is_valid()
        assert kept.errors == fresh.errors
        if not fresh.errors:
            assert kept.validated_data == fresh.validated_data
            assert kept.sheet_json() == fresh.sheet_json()


def test_a_threads_kept_input_fields_are_bound_to_each_requests_serializer(db):
    """The kept fields (OrderSheetInput.of) belong to the serializer of the request at hand: every
    field's `parent` chain leads to it (`root`, and its `partial` and `context` through it), never to
    the thread's first request's serializer, which is not kept alive by them either."""
    from rest_framework.fields import Field

    from orders.serializers import OrderSheetInput

    def every_field(field: Field) -> list[Field]:
        nested = getattr(field, "child", None)
        children = [nested] if nested is not None else list(getattr(field, "fields", {}).values())
        return [field, *(f for child in children for f in every_field(child))]

    first = OrderSheetInput.of({"orders": [], "submit": False})
    assert first.is_valid()
    second = OrderSheetInput.of({"orders": [{"army": 7, "kind": "move", "target": 12}], "submit": True})
    assert second.fields is first.fields  # the same kept fields, built once for the thread
    nested = [f for top in second.fields.values() for f in every_field(top)]
    assert len(nested) > len(second.fields)
    assert all(field.root is second for field in nested)
    assert all(top.parent is second for top in second.fields.values())
    assert second.is_valid(), second.errors
    assert second.validated_data["orders"][0]["target"] == 12


def test_many_orders_for_an_army_not_yours_are_told_once_each_problem(turn, submitted):
    """4. Write Orders ("an army receives one order a turn"): 200 orders for an army that is none of
    the kingdom's are two problems, told once each (not once per order), and nothing is saved."""
    alice = api_as("alice")
    orders = [{"army": 99, "kind": "hold"}] * 200
    response = alice.put(f"/api/turns/{turn.pk}/sheet/", {"orders": orders, "submit": True}, format="json")
    assert response.status_code == 400, response.content
    assert error_details(response) == [
        "Army 99 has 200 orders; an army receives one order a turn (4. Write Orders).",
        "Army 99 is not one of your active armies.",
    ]
    _unchanged(submitted)


@pytest.mark.parametrize("field", ["orders", "purchases", "depots", "gold_transfers", "mission_uses"])
def test_a_list_of_the_order_sheet_longer_than_any_kingdom_needs_is_refused_naming_it(turn, submitted, field):
    """Army Table: a kingdom has at most 134 armies (every province of the largest map, one army for
    every three); a list of the sheet takes a few entries for each (402), and one of 2,000 is refused
    whole with one message naming the field, before any entry is read; nothing is saved."""
    alice = api_as("alice")
    response = alice.put(
        f"/api/turns/{turn.pk}/sheet/", {"orders": [], field: [{}] * 2000, "submit": True}, format="json"
    )
    assert response.status_code == 400, response.content
    assert error_details(response) == [
        f"{field}: at most 402 entries (Army Table: a few for each of the 134 armies a kingdom may have at most); "
        "this list has more. Nothing was saved."
    ]
    assert error_fields(response) == [field]
    _unchanged(submitted)
