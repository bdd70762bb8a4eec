"""A submission kept for the record (issue 34; Campaign Schedule: orders are due by the deadline; rules
decision 520): a sheet that arrived in time while the turn was already being resolved. It never
stands, is never resolved and never counts as orders in; the kingdom and the organizer see it, no
other kingdom does.

The row is written here as the service writes it when the orders phase is running (on PostgreSQL:
tests/turns/test_phase_running.py sends it through the API while the phase is held open); these
tests are about what every reader of the submissions then chooses, on either database."""

from __future__ import annotations

import pytest
from django.utils import timezone

from kernel.event_codes import EventCode
from orders.entries import sheet_to_json
from orders.models import OrderSheet, OrderSubmission
from orders.services.resolution import turn_state_load
from orders.services.sheets import record_submissions, standing_submission
from rulebook.turn.write_orders.records import ArmyOrder, OrderKind, SheetEntries
from tests.clients import api_as, pages_as
from turns.models import TurnEvent
from turns.services.cycle import orders_phase_run

RECORD = (
    "Accepted for the record at Sunday 29 November 2026, 19:00:01.250 (Europe/London): this sheet arrived "
    "before the deadline, but turn 1 was already being resolved, so it is kept for the record and not resolved."
)


def _field_army(kingdom):  # type: ignore[no-untyped-def]
    return kingdom.armies.select_related("province").get(kind="field")


def _kept(kingdom, turn, order: ArmyOrder) -> OrderSubmission:  # type: ignore[no-untyped-def]
    """A submission kept for the record, arriving after every other of the kingdom (the last to
    arrive, which would stand were it not kept for the record)."""
    sheet, _ = OrderSheet.objects.get_or_create(turn=turn, kingdom=kingdom)
    return OrderSubmission.objects.create(
        sheet=sheet,
        submitted_at=timezone.now(),
        entries=sheet_to_json(SheetEntries(orders=(order,))),
        for_record=True,
        receipt={"record": RECORD, "orders": ["kept orders"], "kingdom": []},
    )


@pytest.fixture
def filed(turn, k):  # type: ignore[no-untyped-def]
    """Ostland submitted Fortify, then a Move was kept for the record; Da Red Fang has only a sheet
    kept for the record (nothing submitted in time to resolve)."""
    ostland, red_fang = k["Ostland"], k["Da Red Fang"]
    army = _field_army(ostland)
    body = {"submit": True, "orders": [{"army": army.id, "kind": "fortify"}]}
    response = api_as("alice").put(f"/api/turns/{turn.pk}/sheet/", body, format="json")
    assert response.status_code == 200, response.content
    target = army.province.neighbours.exclude(terrain="desert").filter(controller=None).order_by("number").first()
    _kept(ostland, turn, ArmyOrder(army.id, OrderKind.MOVE, target=target.number))
    _kept(red_fang, turn, ArmyOrder(_field_army(red_fang).id, OrderKind.FORTIFY))
    return ostland, red_fang, army


def test_the_standing_submission_and_the_resolution_never_choose_one_kept_for_the_record(turn, filed):
    ostland, red_fang, army = filed
    sheet = OrderSheet.objects.get(turn=turn, kingdom=ostland)
    standing = standing_submission(sheet)
    assert standing is not None and not standing.for_record
    assert standing.entries["orders"][0]["kind"] == "fortify"  # not the later Move kept for the record
    assert [s.entries["orders"][0]["kind"] for s in record_submissions(sheet)] == ["move"]
    assert standing_submission(OrderSheet.objects.get(turn=turn, kingdom=red_fang)) is None

    # What the orders phase reads: Ostland's Fortify; Da Red Fang's orders missing.
    state = turn_state_load(turn)
    assert state.sheets[ostland.id].orders[0].kind is OrderKind.FORTIFY
    assert red_fang.id not in state.sheets and red_fang.id in state.missed_orders

    assert orders_phase_run(turn_id=turn.pk).resolved
    codes = set(TurnEvent.objects.filter(turn=turn, army=army).values_list("code", flat=True))
    assert EventCode.FORTIFIED in codes and EventCode.MOVED not in codes
    # Kept as received, and still kept for the record.
    assert OrderSubmission.objects.filter(sheet__turn=turn, for_record=True).count() == 2


def test_a_sheet_kept_for_the_record_is_not_orders_in(turn, filed):
    """The organizer's sheets page: Da Red Fang is still missing its orders; each sheet's count of
    submissions says which are kept for the record, not resolved, with the receipt to read them."""
    _ostland, red_fang, _army = filed
    page = pages_as("organizer").get(f"/turns/{turn.pk}/sheets/").content.decode()
    missing = page.split('id="missing"')[1].split("</p>")[0]
    assert "Da Red Fang" in missing and "Ostland" not in missing
    row = page.split("<td>Da Red Fang")[1].split("</tr>")[0]
    assert "0 <span" in row and "(+ 1 kept for the record, not resolved)" in row
    assert f"/turns/{turn.pk}/orders/{red_fang.pk}/receipt/" in row
    overview = {r["name"]: r for r in api_as("organizer").get(f"/api/turns/{turn.pk}/sheets/").json()}
    assert (overview["Da Red Fang"]["status"], overview["Da Red Fang"]["kept_for_record"]) == ("draft", 1)
    assert (overview["Ostland"]["status"], overview["Ostland"]["kept_for_record"]) == ("submitted", 1)


def test_the_kingdom_and_the_organizer_see_what_was_kept_and_no_other_kingdom_does(turn, filed):
    ostland, red_fang, _army = filed
    receipt = f"/turns/{turn.pk}/orders/{red_fang.pk}/receipt/"
    for who in ("bob", "organizer"):
        page = pages_as(who).get(receipt)
        assert page.status_code == 200
        text = page.content.decode()
        assert "Kept for the record, not resolved" in text and RECORD in text
        assert 'id="receipt-none"' in text  # nothing of Da Red Fang's resolves
    own = api_as("bob").get(f"/api/turns/{turn.pk}/sheet/").json()
    assert own["resolves"] == "nothing" and own["submitted"] is None
    assert [(r["message"], r["entries"]["orders"][0]["kind"]) for r in own["kept_for_record"]] == [(RECORD, "fortify")]
    # Ostland's receipt: its Fortify stands, the Move is listed as kept for the record, not resolved.
    text = pages_as("alice").get(f"/turns/{turn.pk}/orders/{ostland.pk}/receipt/").content.decode()
    assert "Fortify" in text.split('id="receipt-orders"')[1].split("</ul>")[0]
    assert text.count("kept for the record, not resolved") == 1 and "stands" in text

    # Another kingdom: neither the page nor the API, nor the organizer's lists.
    assert pages_as("alice").get(receipt).status_code == 404
    assert api_as("alice").get(f"/api/turns/{turn.pk}/sheet/?kingdom={red_fang.pk}").status_code == 404
    assert api_as("alice").get(f"/api/turns/{turn.pk}/sheets/").status_code == 404
    assert pages_as("alice").get(f"/turns/{turn.pk}/sheets/").status_code == 404
    alice_sheet = api_as("alice").get(f"/api/turns/{turn.pk}/sheet/").json()
    assert [r["entries"]["orders"][0]["kind"] for r in alice_sheet["kept_for_record"]] == ["move"]


def test_the_closed_sheet_page_lists_what_was_kept_for_the_record(turn, filed):
    _ostland, red_fang, _army = filed
    assert orders_phase_run(turn_id=turn.pk).resolved
    page = pages_as("bob").get(f"/turns/{turn.pk}/orders/{red_fang.pk}/").content.decode()
    assert "Nothing was submitted for this turn in time to resolve" in page
    assert RECORD in page.split('id="kept-for-record"')[1].split("</ul>")[0]


def test_after_a_resolution_that_failed_a_new_submission_stands_and_what_was_kept_stays_kept(turn, filed):
    """A phase that fails changes nothing and leaves the turn open; what it met stays kept for the
    record. A sheet submitted then stands and resolves; its answer lists what was kept, word for word
    as the sheet's GET does."""
    _ostland, red_fang, _army = filed
    army = _field_army(red_fang)
    body = {"submit": True, "orders": [{"army": army.id, "kind": "hold"}]}
    answer = api_as("bob").put(f"/api/turns/{turn.pk}/sheet/", body, format="json")
    assert answer.status_code == 200, answer.content
    data = answer.json()
    assert data["resolves"] == "submitted" and data["submitted"]["entries"]["orders"][0]["kind"] == "hold"
    assert [r["entries"]["orders"][0]["kind"] for r in data["kept_for_record"]] == ["fortify"]
    assert data == api_as("bob").get(f"/api/turns/{turn.pk}/sheet/").json()
    assert turn_state_load(turn).sheets[red_fang.id].orders[0].kind is OrderKind.HOLD
