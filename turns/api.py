"""The turn cycle's API: the organizer's triggers of a phase, and the game master's desk (what is
outstanding in a campaign, read-only)."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.exceptions import NotFound
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from kingdoms.selectors import campaign_get, is_organizer
from orders.selectors import turn_get
from orders.serializers import TurnSerializer

from .services.desk import ITEM_KINDS, desk_items
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


class DeskActionSerializer(serializers.Serializer):
    label = serializers.CharField()
    url = serializers.CharField(help_text="The page (GET) or the site's button (POST, with the site's CSRF token).")
    method = serializers.ChoiceField(choices=["get", "post"])
    confirm = serializers.CharField(help_text="What the site asks before the POST; blank for a page.")


class DeskItemSerializer(serializers.Serializer):
    kind = serializers.ChoiceField(choices=list(ITEM_KINDS))
    text = serializers.CharField()
    actions = DeskActionSerializer(many=True)
    details = serializers.DictField(
        help_text="By kind: a failed phase's phase, reason, failed_since, failed_at, tries and next_try; "
        "the kingdom, battle, army or email the item is about."
    )


class CampaignDeskSerializer(serializers.Serializer):
    campaign = serializers.IntegerField()
    outstanding = DeskItemSerializer(many=True)


class CampaignDeskApi(APIView):
    """Organizer only (anyone else: not found): what is outstanding in the campaign, as on the game
    master's desk, each with the action that settles it. Read-only."""

    @extend_schema(responses={200: CampaignDeskSerializer})
    def get(self, request: Request, campaign_id: int) -> Response:
        campaign = campaign_get(user=request.user, campaign_id=campaign_id)
        if not is_organizer(request.user, campaign):
            raise NotFound("Not found.")
        return Response(CampaignDeskSerializer({"campaign": campaign.pk, "outstanding": desk_items(campaign)}).data)
