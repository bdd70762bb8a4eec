"""The reports' API: what happened in a turn, as the user may see it."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from kingdoms.selectors import tomb_raiders_private_get
from orders.selectors import turn_get
from orders.serializers import TurnResultsSerializer, TurnSerializer, event_row

from . import selectors
from .serializers import LEARNED_FIELDS, IntelligenceSerializer
from .services.intelligence import intelligence_page


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


class TurnResultsApi(APIView):
    """What happened in the turn to your kingdom: events, battles, dice (the organizer: all)."""

    @extend_schema(responses=TurnResultsSerializer)
    def get(self, request: Request, turn_id: int) -> Response:
        turn = turn_get(user=request.user, turn_id=turn_id)
        results = selectors.turn_results(user=request.user, turn=turn)
        return Response(
            {
                "turn": TurnSerializer(turn).data,
                "events": [event_row(e) for e in results["events"]],
                "battles": [_battle_row(b) for b in results["battles"]],
                "rolls": [
                    {"expression": r.expression, "faces": r.faces, "total": r.total, "purpose": r.purpose}
                    for r in results["rolls"]
                ],
            }
        )


class KingdomIntelligenceApi(APIView):
    """What the kingdom's Reconnaissance learned over the campaign, newest first, and the mission effects
    it holds pending (its players and the organizer; 404 to anyone else, the target among them)."""

    @extend_schema(responses=IntelligenceSerializer)
    def get(self, request: Request, kingdom_id: int) -> Response:
        kingdom = tomb_raiders_private_get(user=request.user, kingdom_id=kingdom_id)
        page = intelligence_page(kingdom)
        return Response(
            {
                "kingdom": kingdom.pk,
                "learned": [{k: item[k] for k in LEARNED_FIELDS} for item in page["learned"]],
                "pending": page["pending"],
            }
        )
