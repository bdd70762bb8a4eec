"""API glue shared by every app: the domain error mapped to a 400 response, once."""

from typing import Any

from rest_framework import status
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from .errors import DomainError


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    if isinstance(exc, DomainError):
        body: dict[str, Any] = {"errors": exc.messages}
        if exc.problems:
            body["problems"] = exc.problems
        return Response(body, status=status.HTTP_400_BAD_REQUEST)
    return drf_exception_handler(exc, context)
