"""Login guard: repeated wrong passwords lock the username out from that address for a while
(django-axes), on the login page, the admin's and the API's Basic auth alike."""

from __future__ import annotations

from typing import Any

from axes.backends import AxesStandaloneBackend


class LoginGuardBackend(AxesStandaloneBackend):
    """Axes' backend, for the authentications that come with a request: every login over HTTP.
    One without a request (a management command, the test client's login()) is not a guess from
    outside and is left to the next backend."""

    def authenticate(self, request: Any, username: str | None = None, password: str | None = None, **kwargs: Any):  # type: ignore[no-untyped-def]
        if request is None:
            return None
        return super().authenticate(request, username=username, password=password, **kwargs)
