"""API glue shared by every app: the domain error mapped to a 400 response, once; the schema's
error answers, documented once for every operation; the query parameters every app shares."""

from typing import Any

from drf_spectacular.openapi import AutoSchema as SpectacularAutoSchema
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from .errors import DomainError

# What any operation may answer besides its success, as the exception handler and DRF shape it.
ERROR_RESPONSES = {
    "400": "Refused: the messages say why (`errors`, the sheet check's `problems`, or per field).",
    "401": "No credentials, or wrong ones (the `WWW-Authenticate` header says how to give them).",
    "403": "Not allowed for your account (`detail`).",
    "404": "No such object, or not one you may see (`detail`).",
    "429": "Too many requests: wait the `Retry-After` seconds (`detail`).",
}
BODY_ERROR_RESPONSES = {"415": "The body is not JSON (`detail`): every endpoint takes JSON only."}


class AutoSchema(SpectacularAutoSchema):
    """drf-spectacular's schema with the error answers every operation can give, so the schema
    tells the truth about each status code a client can meet."""

    def _get_response_bodies(self, direction: Any = "response") -> dict[str, Any]:
        responses = super()._get_response_bodies(direction)
        extra = dict(ERROR_RESPONSES)
        if self.method in ("POST", "PUT", "PATCH"):
            extra.update(BODY_ERROR_RESPONSES)
        for code, description in extra.items():
            if code not in responses:
                responses[code] = self._get_response_for_code(
                    OpenApiResponse(response=OpenApiTypes.OBJECT, description=description), code, direction=direction
                )
        return responses


class KingdomQuery(serializers.Serializer):
    """`?kingdom=<id>`: the organizer names the kingdom whose sheet it is (a player: their own, or 404)."""

    kingdom = serializers.IntegerField(
        required=False, min_value=1, max_value=2**63 - 1, help_text="Organizer only: the kingdom's id."
    )


def kingdom_query(request: Request) -> int | None:
    """The `?kingdom=` of the request, parsed by the serializer field (400 on anything else)."""
    query = KingdomQuery(data=request.query_params)
    query.is_valid(raise_exception=True)
    return query.validated_data.get("kingdom")


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    if isinstance(exc, DomainError):
        body: dict[str, Any] = {"errors": exc.messages}
        if exc.problems:
            body["problems"] = exc.problems
        return Response(body, status=status.HTTP_400_BAD_REQUEST)
    return drf_exception_handler(exc, context)
