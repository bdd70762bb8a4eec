"""Login guard: repeated wrong passwords lock the username out from that address for a while
(django-axes), on the login page, the admin's and the API's Basic auth alike; and the API's token
authentication."""

from __future__ import annotations

import functools
from typing import Any

from axes.backends import AxesStandaloneBackend
from django.contrib.auth import get_user_model
from django.db import connection
from django.utils.translation import gettext_lazy as _
from rest_framework import authentication, exceptions
from rest_framework.authtoken.models import Token

from .one_statement import model_from_row, row_converters_build
from .prepared import prepared_cursor


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


class TokenAuthentication(authentication.TokenAuthentication):
    """REST framework's `Authorization: Token <key>`, the token and its user read by one
    hand-written statement built once per process, where the ORM built and compiled the same join
    at every request (issue 35: about a millisecond of every scripted request, the weekly rush's
    submissions among them). The same answers: an unknown key or an inactive user is refused with
    REST framework's words."""

    def authenticate_credentials(self, key: str) -> tuple[Any, Token]:
        with prepared_cursor() as cursor:
            cursor.execute(_token_sql(connection.vendor), [key])
            row = cursor.fetchone()
        if row is None:
            raise exceptions.AuthenticationFailed(_("Invalid token."))
        token_count = len(Token._meta.concrete_fields)
        token = model_from_row(Token, row[:token_count])
        user = model_from_row(get_user_model(), row[token_count:])
        token.user = user
        if not user.is_active:
            raise exceptions.AuthenticationFailed(_("User inactive or deleted."))
        return user, token


def token_statement_build() -> None:
    """`TokenAuthentication`'s statement and its rows' converters built now (a web worker's warm-up,
    briternia/warm.py), not by its first requests."""
    _token_sql(connection.vendor)
    row_converters_build(Token, get_user_model())


def token_statement_prepare() -> None:
    """`TokenAuthentication`'s statement run once for a key no token has (""): this thread's
    connection prepares it (a web worker's warm-up, briternia/warm.py)."""
    with prepared_cursor() as cursor:
        cursor.execute(_token_sql(connection.vendor), [""])
        cursor.fetchall()


@functools.cache
def _token_sql(vendor: str) -> str:
    """The token with its user, by its key (`TokenAuthentication`'s statement, built once)."""
    quote = connection.ops.quote_name
    user_model = get_user_model()
    columns = [f"t.{quote(f.column)}" for f in Token._meta.concrete_fields] + [
        f"u.{quote(f.column)}" for f in user_model._meta.concrete_fields
    ]
    return (
        f"SELECT {', '.join(columns)} FROM {quote(Token._meta.db_table)} t "
        f"INNER JOIN {quote(user_model._meta.db_table)} u ON u.{quote(user_model._meta.pk.column)} = "
        f"t.{quote(Token._meta.get_field('user').column)} WHERE t.{quote(Token._meta.pk.column)} = %s"
    )
