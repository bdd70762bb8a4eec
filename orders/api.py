"""REST API of turns and order sheets: the same service and check as the browser form."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from kernel.events import Event
from kingdoms.selectors import campaign_get, is_organizer

from . import selectors
from .entries import entries_from_json
from .models import OrderSheet, Turn, TurnEvent
from .rules.sheets import SheetCheck, sheet_check
from .serializers import (
    DeadlinesInput,
    OrderSheetInput,
    OrderSheetResultSerializer,
    OrderSheetSerializer,
    SheetRefusedSerializer,
    SheetStatusSerializer,
    TurnEventSerializer,
    TurnResultsSerializer,
    TurnSerializer,
)
from .services.resolution import turn_preview
from .services.sheets import order_sheet_save, sheet_context, sheet_problems_data
from .services.turns import current_turn, deadline_change, turn_resolution_request


def _check_data(check: SheetCheck) -> dict:
    return {
        "errors": check.errors,
        "warnings": check.warnings,
        "costs": check.costs,
        "gold": check.gold,
        # The same, structured: a client places each by its army's id and code, not by its words.
        "problems": sheet_problems_data(check.error_problems, check.names),
        "warning_problems": sheet_problems_data(check.warning_problems, check.names),
    }


class CurrentTurnApi(APIView):
    @extend_schema(responses=TurnSerializer)
    def get(self, request: Request, campaign_id: int) -> Response:
        campaign = campaign_get(user=request.user, campaign_id=campaign_id)
        turn = current_turn(campaign)
        if turn is None:
            return Response({"detail": "The campaign has not started."}, status=404)
        return Response(TurnSerializer(turn).data)


class TurnApi(APIView):
    @extend_schema(responses=TurnSerializer)
    def get(self, request: Request, turn_id: int) -> Response:
        return Response(TurnSerializer(selectors.turn_get(user=request.user, turn_id=turn_id)).data)


class OrderSheetApi(APIView):
    """Your kingdom's sheet for the turn (the organizer may name any kingdom: ?kingdom=<id>).
    PUT saves a draft (`submit: false`) or submits (`submit: true`); a submission with any error
    is refused whole with 400: the messages, and the sheet check's problems (code, army ids, words)."""

    def _kingdom(self, request: Request, turn):
        kingdom_id = request.query_params.get("kingdom")
        return selectors.sheet_kingdom_get(
            user=request.user, turn=turn, kingdom_id=int(kingdom_id) if kingdom_id and kingdom_id.isdigit() else None
        )

    @extend_schema(responses=OrderSheetResultSerializer)
    def get(self, request: Request, turn_id: int) -> Response:
        turn = selectors.turn_get(user=request.user, turn_id=turn_id)
        kingdom = self._kingdom(request, turn)
        sheet = OrderSheet.objects.filter(turn=turn, kingdom=kingdom).first()
        if sheet is None:
            return Response({"detail": "Nothing filed yet: every army holds."}, status=404)
        check = sheet_check(entries_from_json(sheet.entries), sheet_context(kingdom=kingdom, turn=turn))
        return Response({"sheet": OrderSheetSerializer(sheet).data, "check": _check_data(check)})

    @extend_schema(request=OrderSheetInput, responses={200: OrderSheetResultSerializer, 400: SheetRefusedSerializer})
    def put(self, request: Request, turn_id: int) -> Response:
        turn = selectors.turn_get(user=request.user, turn_id=turn_id)
        kingdom = self._kingdom(request, turn)
        data = OrderSheetInput(data=request.data)
        data.is_valid(raise_exception=True)
        result = order_sheet_save(
            kingdom=kingdom,
            turn=turn,
            entries=data.entries(),
            submitted_by=request.user,
            submit=data.validated_data["submit"],
        )
        return Response({"sheet": OrderSheetSerializer(result.sheet).data, "check": _check_data(result.check)})


class SheetsOverviewApi(APIView):
    """Organizer only: every kingdom's sheet status (404 for players)."""

    @extend_schema(responses=SheetStatusSerializer(many=True))
    def get(self, request: Request, turn_id: int) -> Response:
        turn = selectors.turn_get(user=request.user, turn_id=turn_id)
        rows = selectors.sheets_overview(user=request.user, turn=turn)
        return Response(
            [
                {
                    "kingdom": k.id,
                    "name": k.name,
                    "status": s.status if s else "missing",
                    "submitted_at": s.submitted_at if s else None,
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
            return Response({"detail": "Not found."}, status=404)
        data = DeadlinesInput(data=request.data)
        data.is_valid(raise_exception=True)
        turn = deadline_change(turn=turn, changed_by=request.user, **data.validated_data)
        return Response(TurnSerializer(turn).data)


def _event(e: TurnEvent | Event) -> dict:
    """A stored TurnEvent or a previewed pure Event, in the same shape."""
    stored = isinstance(e, TurnEvent)
    return {
        "phase": e.phase,
        "code": e.code,
        "text": e.text,
        "kingdom": e.kingdom_id if stored else e.kingdom,
        "army": e.army_id if stored else e.army,
        "province": e.province,
        "gold": e.gold,
        "data": e.data,
    }


def _battle_row(b) -> dict:
    return {
        "province": b.province.number,
        "attacker_kingdom": b.attacker_kingdom_id,
        "attacker_army": b.attacker_army_id,
        "defender_kingdom": b.defender_kingdom_id,
        "defender_army": b.defender_army_id,
        "assault": b.assault,
        "garrison_points": b.garrison_points,
        "supports": [
            {"army": s.army_id, "kingdom": s.kingdom_id, "side": s.side, "points": s.points, "arrival": s.arrival}
            for s in b.supports.all()
        ],
    }


class TurnResolveApi(APIView):
    """Organizer only: resolve the turn's orders now (the task runs after this request commits)."""

    @extend_schema(request=None, responses=TurnSerializer)
    def post(self, request: Request, turn_id: int) -> Response:
        turn = selectors.turn_get(user=request.user, turn_id=turn_id)
        if not is_organizer(request.user, turn.campaign):
            return Response({"detail": "Not found."}, status=404)
        turn_resolution_request(turn=turn)
        return Response(TurnSerializer(turn).data, status=202)


class TurnPreviewApi(APIView):
    """Organizer only: a dry run of the resolution; nothing is written."""

    @extend_schema(responses=TurnEventSerializer(many=True))
    def get(self, request: Request, turn_id: int) -> Response:
        turn = selectors.turn_get(user=request.user, turn_id=turn_id)
        if not is_organizer(request.user, turn.campaign):
            return Response({"detail": "Not found."}, status=404)
        if turn.status != Turn.Status.ORDERS_OPEN:
            return Response({"errors": ["Only an open turn can be previewed."]}, status=400)
        return Response([_event(e) for e in turn_preview(turn=turn).events])


class TurnResultsApi(APIView):
    """What happened in the turn to your kingdom: events, battles, dice (the organizer: all)."""

    @extend_schema(responses=TurnResultsSerializer)
    def get(self, request: Request, turn_id: int) -> Response:
        turn = selectors.turn_get(user=request.user, turn_id=turn_id)
        results = selectors.turn_results(user=request.user, turn=turn)
        return Response(
            {
                "turn": TurnSerializer(turn).data,
                "events": [_event(e) for e in results["events"]],
                "battles": [_battle_row(b) for b in results["battles"]],
                "rolls": [
                    {"expression": r.expression, "faces": r.faces, "total": r.total, "purpose": r.purpose}
                    for r in results["rolls"]
                ],
            }
        )
