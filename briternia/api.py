"""API glue shared by every app: one error shape for every refusal (drf-standardized-errors, with
the domain error mapped onto it once), documented once for every operation in the schema; the
query parameters every app shares.

Every 4xx answer of the API has one body (the shape drf-standardized-errors gives, which DRF
clients know and its drf-spectacular integration documents):

    {"type": "validation_error" | "client_error",
     "errors": [{"code": "...", "detail": "words for people", "attr": "field.path" | null}, ...]}

A refusal of the rules (DomainError) is a `validation_error` whose errors carry the messages that
name the army and the rule; a sheet check's refusal gives each problem's stable code and, in
`armies`, the ids of the armies it concerns."""

from typing import Any

from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.http import Http404
from drf_spectacular.utils import extend_schema_field
from drf_standardized_errors.formatter import ExceptionFormatter
from drf_standardized_errors.handler import ExceptionHandler
from drf_standardized_errors.openapi import AutoSchema as StandardizedErrorsAutoSchema
from rest_framework import exceptions, serializers
from rest_framework.request import Request

from .errors import DomainError
from .fields import IntegerSerializerField

REFUSED = "refused"  # the code of a domain refusal that carries no code of its own


class DomainRefusal(exceptions.ValidationError):
    """A DomainError as DRF knows it: a 400 whose errors are the domain's messages (or problems)."""

    def __init__(self, error: DomainError):
        super().__init__([exceptions.ErrorDetail(m, code=REFUSED) for m in error.messages])
        self.domain_error = error


def error_body(code: str, detail: str, *, type_: str = "validation_error") -> dict[str, Any]:
    """One error in the API's shape: for answers made outside DRF (a middleware's refusal)."""
    return {"type": type_, "errors": [{"code": code, "detail": detail, "attr": None}]}


class ErrorHandler(ExceptionHandler):
    """drf-standardized-errors' handler, which also knows our DomainError and keeps the words of
    Django's Http404 and PermissionDenied ("No such kingdom.") as DRF's own handler does."""

    def convert_known_exceptions(self, exc: Exception) -> Exception:
        if isinstance(exc, DomainError):
            return DomainRefusal(exc)
        if isinstance(exc, Http404):
            return exceptions.NotFound(*exc.args)
        if isinstance(exc, DjangoPermissionDenied):
            return exceptions.PermissionDenied(*exc.args)
        return super().convert_known_exceptions(exc)


class ErrorFormatter(ExceptionFormatter):
    """The library's shape; a domain refusal with a sheet check's problems gives one error per
    problem, with its stable code and the ids of the armies it concerns."""

    def run(self) -> Any:
        body = super().run()
        error = getattr(self.exc, "domain_error", None)
        if error is not None and error.problems:
            body["errors"] = [
                {"code": p["code"], "detail": p["message"], "attr": None, "armies": p["armies"]} for p in error.problems
            ]
        return body


# The schema: every operation documents every 4xx it can answer, in the one shape.
BODY_ONLY_ERROR_CODES = {"415"}  # only an operation that reads a body can refuse its media type


class ErrorSerializer(serializers.Serializer):
    code = serializers.CharField(help_text="Stable, for programs: a field's error code or the rule's refusal code.")
    detail = serializers.CharField(help_text="For people: names the army and the rule where there is one.")
    attr = serializers.CharField(
        allow_null=True, help_text="The input field it concerns (`orders.0.target`), or null for the whole request."
    )
    armies = serializers.ListField(
        child=IntegerSerializerField(), required=False, help_text="A sheet check's refusal: the armies it concerns."
    )


@extend_schema_field({"type": "string", "enum": ["validation_error", "client_error"]})
class _ErrorType400Field(serializers.CharField):
    pass


class ErrorResponse400Serializer(serializers.Serializer):
    """400: `validation_error` (a field, or a refusal of the rules), `client_error` (unreadable JSON)."""

    type = _ErrorType400Field()
    errors = ErrorSerializer(many=True)


class AutoSchema(StandardizedErrorsAutoSchema):
    """drf-standardized-errors' schema, which documents each error answer in the one shape. Every
    operation documents 400, 401, 403, 404, 405 and 429 (and 415 when it reads a body): each view
    refuses a bad `?kingdom=` or rule with 400, hides what is not yours with 404, and refuses a
    CSRF-less session write with 403, which the library cannot see from the view's classes."""

    def _should_add_error_response(self, responses: dict[str, Any], status_code: str) -> bool:
        if status_code in responses:
            return False
        if status_code in BODY_ONLY_ERROR_CODES:
            return self.method in ("POST", "PUT", "PATCH")
        return True

    def _get_error_response_serializer(self, status_code: str) -> Any:
        if status_code == "400":
            return ErrorResponse400Serializer
        return super()._get_error_response_serializer(status_code)


class KingdomQuery(serializers.Serializer):
    """`?kingdom=<id>`: the organizer names the kingdom whose sheet it is (a player: their own, or 404)."""

    kingdom = IntegerSerializerField(
        required=False, min_value=1, max_value=2**63 - 1, help_text="Organizer only: the kingdom's id."
    )


def kingdom_query(request: Request) -> int | None:
    """The `?kingdom=` of the request, parsed by the serializer field (400 on anything else)."""
    query = KingdomQuery(data=request.query_params)
    query.is_valid(raise_exception=True)
    return query.validated_data.get("kingdom")
