"""The time a request arrived at the site, taken once before anything can wait (a lock, the
database): the order sheet's deadline is decided by it and it is recorded on the submission, so a
sheet that arrived in time counts whatever it waited for afterwards."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable

from django.http import HttpRequest, HttpResponse
from django.utils import timezone


class ArrivalMiddleware:
    """Stamps `request.arrived_at` (UTC) first thing."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        request.arrived_at = timezone.now()  # type: ignore[attr-defined]
        return self.get_response(request)


def arrived_at(request: HttpRequest) -> dt.datetime:
    """When the request arrived (now, for a request the middleware did not see)."""
    when = getattr(request, "arrived_at", None)
    return when if isinstance(when, dt.datetime) else timezone.now()
