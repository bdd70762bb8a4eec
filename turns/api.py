"""The turn cycle's API: the organizer's triggers of a phase."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.exceptions import NotFound
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from kingdoms.selectors import is_organizer
from orders.selectors import turn_get
from orders.serializers import TurnSerializer

from .services.requests import aftermath_phase_request, orders_phase_request


class AftermathAcceptedSerializer(serializers.Serializer):
    detail = serializers.CharField()


class TurnResolveApi(APIView):
    """Organizer only: resolve the turn's orders now (the task runs after this request commits)."""

    @extend_schema(request=None, responses={202: TurnSerializer})
    def post(self, request: Request, turn_id: int) -> Response:
        turn = turn_get(user=request.user, turn_id=turn_id)
        if not is_organizer(request.user, turn.campaign):
            raise NotFound("Not found.")
        orders_phase_request(turn=turn)
        turn.refresh_from_db()  # the request is recorded on the turn
        return Response(TurnSerializer(turn).data, status=202)


class AftermathApi(APIView):
    """Organizer only: run the turn's aftermath (refused with the reasons while a battle's result
    is in conflict or, before the results deadline, a sheet is missing)."""

    @extend_schema(request=None, responses={202: AftermathAcceptedSerializer})
    def post(self, request: Request, turn_id: int) -> Response:
        turn = turn_get(user=request.user, turn_id=turn_id)
        if not is_organizer(request.user, turn.campaign):
            raise NotFound("Not found.")
        aftermath_phase_request(turn=turn)
        return Response({"detail": f"The aftermath of turn {turn.number} is being resolved."}, status=202)
