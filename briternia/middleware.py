"""Request guards shared by every page and endpoint."""

from __future__ import annotations

import base64
import binascii
import json
import operator
import re
from collections.abc import Callable, Iterable
from itertools import accumulate
from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.utils.html import escape

from .api import error_body

MAX_JSON_DEPTH = 32  # an order sheet nests 5 deep; a deeper body is no client of ours
DEPTH_MESSAGE = (
    f"The JSON body nests more than {MAX_JSON_DEPTH} levels deep (or its brackets do not pair up), "
    "which no request needs."
)
SIZE_MESSAGE = "The request body is larger than any request needs ({limit} bytes at most)."
_JSON_STRING = re.compile(rb'"[^"\\]*(?:\\.[^"\\]*)*"')
_NOT_A_BRACKET = re.compile(rb"[^\[\]{}]+")
_BRACKET_WEIGHT = bytes.maketrans(b"[{]}", b"\x02\x02\x00\x00")

_JSON_NUL_ESCAPE = b"\\u0000"
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


def _refusal(request: HttpRequest, code: str, message: str, status: int) -> HttpResponse:
    """A guard's refusal: in the API's one error shape under /api/, a short page elsewhere."""
    if request.path.startswith("/api/"):
        return JsonResponse(error_body(code, message), status=status)
    return HttpResponse(
        f"<!doctype html><title>Refused</title><h1>Refused</h1><p>{escape(message)}</p><p>Go back and correct it.</p>",
        status=status,
    )


def _is_json(request: HttpRequest) -> bool:
    content_type = request.content_type or ""
    return content_type == "application/json" or content_type.endswith("+json")


def json_too_deep(body: bytes, limit: int = MAX_JSON_DEPTH) -> bool:
    """Whether a JSON text nests its arrays and objects deeper than `limit`, found without parsing
    it (no recursion) and at C's pace: the strings taken out, each opening bracket counts 2 and
    each closing one 0, so the depth after the i-th bracket is the running sum less i."""
    brackets = _NOT_A_BRACKET.sub(b"", _JSON_STRING.sub(b"", body))
    if brackets.count(b"[") + brackets.count(b"{") <= limit:
        return False
    running = accumulate(brackets.translate(_BRACKET_WEIGHT))
    return max(map(operator.sub, running, range(1, len(brackets) + 1))) > limit


class BoundBodyMiddleware:
    """Every body is bounded before anything parses it, for every page and endpoint: a body other
    than a file upload larger than settings.DATA_UPLOAD_MAX_MEMORY_SIZE is refused with 413, and a
    JSON body nesting deeper than MAX_JSON_DEPTH with 400 (10,000 brackets made the parser recurse
    into a 500). Under /api/ the refusal is in the one error shape. Django's own limits still bound
    a form's fields (DATA_UPLOAD_MAX_NUMBER_FIELDS) and a file upload's parts."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if request.method in ("GET", "HEAD", "OPTIONS"):
            return self.get_response(request)
        limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
        try:
            length = int(request.META.get("CONTENT_LENGTH") or 0)
        except ValueError:
            length = 0
        if limit is not None and length > limit and request.content_type != "multipart/form-data":
            return _refusal(request, "body_too_large", SIZE_MESSAGE.format(limit=limit), 413)
        if _is_json(request) and json_too_deep(request.body):
            return _refusal(request, "json_too_deep", DEPTH_MESSAGE, 400)
        return self.get_response(request)


def _basic_credentials(authorization: str) -> str:
    """The `user:password` of a Basic Authorization header, decoded ("" for any other)."""
    scheme, _, encoded = authorization.partition(" ")
    if scheme.lower() != "basic":
        return ""
    try:
        return base64.b64decode(encoded.strip(), validate=True).decode("utf-8", "replace")
    except (ValueError, binascii.Error):
        return ""


class RefuseNulBytesMiddleware:
    """Every text a client sends, in the query string, a header (Basic credentials decoded), a form
    or a JSON body, is refused whole with 400 when it holds a NUL character: PostgreSQL stores none
    (it answered 500), SQLite would keep it silently, and no person types one. One guard for every
    field of every page and endpoint, the admin's too, instead of one validator per field. Uploaded
    files are not read."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if self._refused(request):
            return _refusal(request, "nul_character", NUL_MESSAGE, 400)
        return self.get_response(request)

    def _refused(self, request: HttpRequest) -> bool:
        if "\x00" in request.path or any("\x00" in v for v in _values(request.GET)):
            return True
        if any("\x00" in v for k, v in request.META.items() if k.startswith("HTTP_") and isinstance(v, str)):
            return True  # a header: `Authorization: Token abc\0` reached the token's query
        if "\x00" in _basic_credentials(request.META.get("HTTP_AUTHORIZATION", "")):
            return True
        if request.method in ("GET", "HEAD", "OPTIONS"):
            return False
        content_type = request.content_type or ""
        if content_type in ("application/x-www-form-urlencoded", "multipart/form-data"):
            return any("\x00" in v for v in _values(request.POST))
        if _is_json(request):
            body = request.body
            # In UTF-8 a JSON text can hold a NUL only as the escape \u0000 (a raw one in a string is
            # no valid JSON: the parser refuses it); UTF-16 and UTF-32, which json.loads reads too,
            # have zero bytes in any text. Without either nothing is parsed here, and a sheet of the
            # weekly rush is parsed once, by the API (issue 35).
            if _JSON_NUL_ESCAPE not in body and b"\x00" not in body:
                return False
            try:
                data = json.loads(body or b"null")
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
