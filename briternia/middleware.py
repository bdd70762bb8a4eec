"""Request guards shared by every page and endpoint."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.utils.html import escape

from .api import error_body

NUL_MESSAGE = "A text contains a NUL character (\\0), which no field accepts; remove it and send again."


def _has_nul(value: Any) -> bool:
    if isinstance(value, str):
        return "\x00" in value
    if isinstance(value, dict):
        return any(_has_nul(k) or _has_nul(v) for k, v in value.items())
    if isinstance(value, list):
        return any(_has_nul(v) for v in value)
    return False


def _values(querydict: Any) -> Iterable[str]:
    for key, values in querydict.lists():
        yield key
        yield from values


class RefuseNulBytesMiddleware:
    """Every text a client sends, in the query string, a form or a JSON body, is refused whole
    with 400 when it holds a NUL character: PostgreSQL stores none (it answered 500), SQLite would
    keep it silently, and no person types one. One guard for every field of every page and
    endpoint, the admin's too, instead of one validator per field. Uploaded files are not read."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if self._refused(request):
            if request.path.startswith("/api/"):
                return JsonResponse(error_body("nul_character", NUL_MESSAGE), status=400)
            return HttpResponse(
                f"<!doctype html><title>Refused</title><h1>Refused</h1><p>{escape(NUL_MESSAGE)}</p>"
                "<p>Go back and correct it.</p>",
                status=400,
            )
        return self.get_response(request)

    def _refused(self, request: HttpRequest) -> bool:
        if "\x00" in request.path or any("\x00" in v for v in _values(request.GET)):
            return True
        if request.method in ("GET", "HEAD", "OPTIONS"):
            return False
        content_type = request.content_type or ""
        if content_type in ("application/x-www-form-urlencoded", "multipart/form-data"):
            return any("\x00" in v for v in _values(request.POST))
        if content_type == "application/json" or content_type.endswith("+json"):
            try:
                data = json.loads(request.body or b"null")
            except ValueError:
                return False  # the parser answers it with its own 400
            return _has_nul(data)
        return False


class PermissionsPolicyMiddleware:
    """Every answer says which browser features the site uses: none (settings.PERMISSIONS_POLICY)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        response.headers.setdefault("Permissions-Policy", settings.PERMISSIONS_POLICY)
        return response
