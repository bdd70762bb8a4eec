"""The server-error page (issue 18, point 8): what Django renders when a view fails with DEBUG off,
without the request's context, so it can never fail itself."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import path

from kingdoms.views import home


def broken(request):  # type: ignore[no-untyped-def]
    raise RuntimeError("a bug in a view")


urlpatterns = [path("broken/", broken), path("", home, name="home")]


@pytest.mark.urls("tests.briternia.test_error_pages")
def test_a_failing_page_shows_the_sites_error_page_without_a_traceback(db) -> None:
    response = Client(raise_request_exception=False).get("/broken/")
    assert response.status_code == 500
    body = response.content.decode()
    assert "Something went wrong" in body and "Nothing you sent was half-saved" in body
    assert "Traceback" not in body and "RuntimeError" not in body and "a bug in a view" not in body
