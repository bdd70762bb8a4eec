"""The sheet's answer written out (orders.serializers.sheet_data and its neighbours, issue 35) is what
the serializers the API's schema names give, for every kind of submission and sheet: the standing
one, one kept for the record, a draft saved after a submission, one filed by nobody known."""

from __future__ import annotations

import datetime as dt

import pytest
from django.utils import timezone

from orders.models import OrderSheet, OrderSubmission
from orders.serializers import (
    DraftSerializer,
    OrderSheetSerializer,
    RecordSerializer,
    SubmittedOrdersSerializer,
    draft_data,
    record_data,
    sheet_data,
    submitted_data,
)
from orders.services.sheets import record_submissions, standing_submission
from tests.clients import api_as
from tests.orders.test_kept_for_record import filed  # noqa: F401  (the fixture)


def _same(sheet: OrderSheet) -> None:
    standing = standing_submission(sheet)
    assert sheet_data(sheet, standing) == OrderSheetSerializer(sheet, context={"submitted": standing}).data
    assert draft_data(sheet) == DraftSerializer(sheet).data
    if standing is not None:
        assert submitted_data(standing) == SubmittedOrdersSerializer(standing).data
    for record in record_submissions(sheet):
        assert record_data(record) == RecordSerializer(record).data


def test_the_answer_written_out_is_the_serializers_for_every_sheet_of_the_turn(turn, filed):  # noqa: F811
    ostland, _red_fang, army = filed
    # Ostland saves a draft after its submission: the sheet's status is a draft, the submission stands.
    body = {"submit": False, "orders": [{"army": army.id, "kind": "hold"}]}
    assert api_as("alice").put(f"/api/turns/{turn.pk}/sheet/", body, format="json").status_code == 200
    sheets = list(OrderSheet.objects.filter(turn=turn).select_related("turn"))
    assert any(record_submissions(s) for s in sheets)
    for sheet in sheets:
        _same(sheet)
    sheet = next(s for s in sheets if s.kingdom_id == ostland.pk)
    assert standing_submission(sheet) is not None
    assert sheet_data(sheet, standing_submission(sheet))["status"] == OrderSheet.Status.DRAFT
    # A sheet whose entries are its standing submission's: "submitted".
    body = {"submit": True, "orders": [{"army": army.id, "kind": "hold"}]}
    assert api_as("alice").put(f"/api/turns/{turn.pk}/sheet/", body, format="json").status_code == 200
    sheet = OrderSheet.objects.select_related("turn").get(turn=turn, kingdom=ostland)
    _same(sheet)
    assert sheet_data(sheet, standing_submission(sheet))["status"] == OrderSheet.Status.SUBMITTED


@pytest.mark.parametrize(
    "receipt", [None, {}, {"record": None}, {"record": "kept"}, {"orders": ["x"]}], ids=lambda r: repr(r)
)
def test_a_submission_by_nobody_known_with_any_receipt_is_written_out_as_the_serializers(turn, k, receipt):
    """Submitted by nobody known (an account deleted since), no gold recorded, any receipt."""
    sheet = OrderSheet.objects.create(turn=turn, kingdom=k["Ostland"], entries={"orders": []})
    submission = OrderSubmission(
        sheet=sheet,
        submitted_at=timezone.now() - dt.timedelta(microseconds=1),
        entries={"orders": []},
        submitted_by=None,
        receipt=receipt,
    )
    submission.gold = None
    assert submitted_data(submission) == SubmittedOrdersSerializer(submission).data
    assert record_data(submission) == RecordSerializer(submission).data
    assert sheet_data(sheet, None) == OrderSheetSerializer(sheet, context={"submitted": None}).data
