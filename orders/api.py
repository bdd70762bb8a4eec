"""REST API of turns and order sheets: the same service and check as the browser form."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.exceptions import NotFound
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from briternia.api import KingdomQuery, kingdom_query
from briternia.arrival import arrived_at
from briternia.errors import DomainError
from briternia.fields import IntegerSerializerField
from kingdoms.models import Kingdom
from kingdoms.selectors import campaign_get, is_organizer, kingdom_organized_get, kingdoms_public
from kingdoms.serializers import KingdomPublicSerializer
from rulebook.turn.write_orders.check import order_sheet_check
from rulebook.turn.write_orders.problems import SheetCheck
from turns.models import Turn

from . import selectors
from .entries import sheet_from_json
from .models import OrderSheet, OrderSubmission
from .serializers import (
    DeadlinesInput,
    OrderSheetInput,
    OrderSheetResultSerializer,
    SheetStatusSerializer,
    TurnEventSerializer,
    TurnSerializer,
    draft_data,
    event_row,
    record_data,
    sheet_data,
    submitted_data,
)
from .services.independence import independence_declare
from .services.mission_uses import usable_effects_data
from .services.resolution import turn_preview
from .services.sheets import (
    lists_due_data,
    order_sheet_context_load,
    order_sheet_problems_data,
    order_sheet_save,
    record_submissions,
    standing_submission,
)
from .services.turns import current_turn, deadline_change


def _check_data(check: SheetCheck, lists_due: list[dict]) -> dict:
    return {
        "errors": check.errors,
        "warnings": check.warnings,
        "costs": check.costs,
        "gold": check.gold,
        # 1. Tally Gold comes before 3. Create / Upgrade Armies: the sheet may spend this turn's taxes.
        "treasury": check.treasury,
        "taxes": check.taxes,
        "available": check.available,
        "lists_due": lists_due,
        # Spending Experience: each army's experience beside what the sheet's purchases cost.
        "experience": check.experience_rows(),
        # The same, structured: a client places each by its army's id and code, not by its words.
        "problems": order_sheet_problems_data(check.error_problems, check.names),
        "warning_problems": order_sheet_problems_data(check.warning_problems, check.names),
    }


def _sheet_versions(sheet: OrderSheet, standing: OrderSubmission | None = None) -> dict:
    """Which version will resolve: the standing submission, and the unsent draft beside it; and the
    submissions kept for the record (never resolved), read only if the sheet may have any (a sheet
    just saved knows: `has_records`, read with its row).
    `standing`: the standing submission if the caller knows it (one it has just written), else read."""
    submitted = standing or standing_submission(sheet)
    draft_unsent = submitted is None or submitted.entries != sheet.entries
    return {
        "sheet": sheet_data(sheet, submitted),
        "submitted": submitted_data(submitted) if submitted else None,
        "draft": draft_data(sheet) if draft_unsent else None,
        "resolves": "submitted" if submitted else "nothing",
        "kept_for_record": [
            record_data(record) for record in (record_submissions(sheet) if getattr(sheet, "has_records", True) else [])
        ],
    }


class CurrentTurnApi(APIView):
    @extend_schema(responses=TurnSerializer)
    def get(self, request: Request, campaign_id: int) -> Response:
        campaign = campaign_get(user=request.user, campaign_id=campaign_id)
        turn = current_turn(campaign)
        if turn is None:
            raise NotFound("The campaign has not started.")
        return Response(TurnSerializer(turn).data)


class TurnApi(APIView):
    @extend_schema(responses=TurnSerializer)
    def get(self, request: Request, turn_id: int) -> Response:
        return Response(TurnSerializer(selectors.turn_get(user=request.user, turn_id=turn_id)).data)


class OrderSheetApi(APIView):
    """Your kingdom's sheet for the turn (the organizer may name any kingdom: ?kingdom=<id>).
    PUT saves a draft (`submit: false`) or submits (`submit: true`); a submission with any error
    is refused whole with 400: one error per problem of the sheet check, with its code, the words
    naming the army and the rule, and the ids of the armies it concerns (briternia/api.py)."""

    def _turn_and_kingdom(self, request: Request, turn_id: int) -> tuple[Turn, Kingdom]:
        turn, own = selectors.order_sheet_turn_get(user=request.user, turn_id=turn_id)
        kingdom = selectors.order_sheet_kingdom_get(
            user=request.user, turn=turn, kingdom_id=kingdom_query(request), own=own
        )
        return turn, kingdom

    @extend_schema(parameters=[KingdomQuery], responses=OrderSheetResultSerializer)
    def get(self, request: Request, turn_id: int) -> Response:
        turn, kingdom = self._turn_and_kingdom(request, turn_id)
        sheet = OrderSheet.objects.filter(turn=turn, kingdom=kingdom).first()
        if sheet is None:
            raise NotFound("Nothing filed yet: every army holds.")
        ctx = order_sheet_context_load(kingdom=kingdom, turn=turn)
        check = order_sheet_check(sheet_from_json(sheet.entries), ctx)
        return Response(
            {
                **_sheet_versions(sheet),
                "check": _check_data(check, lists_due_data(ctx=ctx, turn=turn)),
                "usable_effects": usable_effects_data(kingdom, turn.number),
            }
        )

    @extend_schema(
        parameters=[KingdomQuery],
        request=OrderSheetInput,
        responses=OrderSheetResultSerializer,
    )
    def put(self, request: Request, turn_id: int) -> Response:
        turn, kingdom = self._turn_and_kingdom(request, turn_id)
        data = OrderSheetInput.of(request.data)
        data.is_valid(raise_exception=True)
        result = order_sheet_save(
            kingdom=kingdom,
            turn=turn,
            entries=data.entries(),
            submitted_by=request.user,
            submit=data.validated_data["submit"],
            arrived_at=arrived_at(request),
        )
        # A sheet in time that met the running resolution: 202, kept for the record and not resolved
        # (`record`, its message), beside what the resolution uses (`submitted`).
        record = {"record": record_data(result.record)} if result.record else {}
        return Response(
            {
                **_sheet_versions(result.sheet, result.standing),
                **record,
                "check": _check_data(result.check, result.lists_due),
                "usable_effects": usable_effects_data(kingdom, turn.number, result.world),
            },
            status=202 if result.record else 200,
        )


class SheetsOverviewApi(APIView):
    """Organizer only: every kingdom's sheet status (404 for players)."""

    @extend_schema(responses=SheetStatusSerializer(many=True))
    def get(self, request: Request, turn_id: int) -> Response:
        turn = selectors.turn_get(user=request.user, turn_id=turn_id)
        rows = selectors.order_sheets_overview(user=request.user, turn=turn)
        return Response(
            [
                {
                    "kingdom": k.id,
                    "name": k.name,
                    "status": s.status if s else "missing",
                    "submitted_at": s.submitted_at if s else None,
                    "kept_for_record": s.kept_for_record if s else 0,
                }
                for k, s in rows
            ]
        )


class DeadlinesApi(APIView):
    """Organizer only: move the turn's deadlines (recorded and emailed to every player)."""

    @extend_schema(request=DeadlinesInput, responses=TurnSerializer)
    def post(self, request: Request, turn_id: int) -> Response:
        turn = selectors.turn_get(user=request.user, turn_id=turn_id)
        if not is_organizer(request.user, turn.campaign):
            raise NotFound("Not found.")
        data = DeadlinesInput(data=request.data)
        data.is_valid(raise_exception=True)
        turn = deadline_change(turn=turn, changed_by=request.user, **data.validated_data)
        return Response(TurnSerializer(turn).data)


class TurnPreviewApi(APIView):
    """Organizer only: a dry run of the resolution; nothing is written."""

    @extend_schema(responses=TurnEventSerializer(many=True))
    def get(self, request: Request, turn_id: int) -> Response:
        turn = selectors.turn_get(user=request.user, turn_id=turn_id)
        if not is_organizer(request.user, turn.campaign):
            raise NotFound("Not found.")
        if turn.status != Turn.Status.ORDERS_OPEN:
            raise DomainError("Only an open turn can be previewed.")
        return Response([event_row(e) for e in turn_preview(turn=turn).events])


class IndependenceInput(serializers.Serializer):
    co_player = IntegerSerializerField(help_text="The user id of the kingdom's co-player who declares independence.")
    name = serializers.CharField(max_length=100, help_text="The new kingdom's name.")
    provinces = serializers.ListField(child=IntegerSerializerField(), help_text="Province numbers given.")
    armies = serializers.ListField(
        child=IntegerSerializerField(), required=False, default=list, help_text="Field armies given (ids)."
    )


class IndependenceApi(APIView):
    """Organizer only (404 for anyone else): a co-player declares independence from the kingdom with
    the provinces, towns, cities and armies it gives (Joint kingdoms). Refused whole with 400 and
    the reasons."""

    @extend_schema(request=IndependenceInput, responses={201: KingdomPublicSerializer})
    def post(self, request: Request, kingdom_id: int) -> Response:
        kingdom = kingdom_organized_get(user=request.user, kingdom_id=kingdom_id)
        data = IndependenceInput(data=request.data)
        data.is_valid(raise_exception=True)
        values = data.validated_data
        player = kingdom.players.filter(pk=values["co_player"]).first()
        if player is None:
            raise DomainError(f"User {values['co_player']} is not a co-player of {kingdom.name} (Joint kingdoms).")
        new = independence_declare(
            kingdom=kingdom,
            co_player=player,
            name=values["name"],
            provinces=values["provinces"],
            armies=values["armies"],
        )
        return Response(
            KingdomPublicSerializer(kingdoms_public(campaign=kingdom.campaign).get(pk=new.pk)).data, status=201
        )
