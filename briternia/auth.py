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


AUDIT_USERNAME_LENGTH = 255  # axes' AccessAttempt/AccessLog.username column


def audited_username(request: Any, credentials: dict[str, Any] | None) -> str | None:
    """The username axes records and locks out, cut to its column (settings.AXES_USERNAME_CALLABLE):
    any anonymous client may send a username of any length (Basic auth, `POST /api/token/`), and a
    longer one made PostgreSQL refuse the audit row with a 500. No account's name is that long
    (User.username holds 150), so the cut one still fails to log in and is still locked out."""
    source = credentials or getattr(request, "data", request.POST)
    username = source.get("username")
    if not isinstance(username, str):
        return username
    return username[:AUDIT_USERNAME_LENGTH]
