"""The address the site answers on, for the links in emails: the request's own scheme and host
while a request is served (the site may run on another host or port than SITE_URL says, as under
`make run` on a port of the developer's choosing), SITE_URL otherwise (a task, the deadline sweep)."""

from __future__ import annotations

from collections.abc import Callable
from contextvars import ContextVar

from django.conf import settings
from django.core.exceptions import DisallowedHost
from django.http import HttpRequest, HttpResponse

_request_site_url: ContextVar[str | None] = ContextVar("request_site_url", default=None)


class SiteUrlMiddleware:
    """Remembers the request's own address (scheme and host, checked against ALLOWED_HOSTS) for the
    emails queued while it is served."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        try:
            address: str | None = request.build_absolute_uri("/").rstrip("/")
        except DisallowedHost:  # CommonMiddleware answers it with a 400; no email is queued then
            address = None
        token = _request_site_url.set(address)
        try:
            return self.get_response(request)
        finally:
            _request_site_url.reset(token)


def site_url() -> str:
    """The site's address without a trailing slash: the request's while one is served, else SITE_URL."""
    return (_request_site_url.get() or settings.SITE_URL).rstrip("/")
