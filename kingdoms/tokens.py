"""API tokens: scripts and other clients authenticate with a token of their own, never the
account's password (issue 17). One token per account (REST framework's authtoken): created,
replaced or revoked by its owner on the "API token" page, or obtained with the password once
through `POST /api/token/` (throttled like the login)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db import transaction
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods
from rest_framework.authtoken.models import Token
from rest_framework.authtoken.views import ObtainAuthToken
from rest_framework.throttling import ScopedRateThrottle


@transaction.atomic
def api_token_replace(*, user) -> Token:  # type: ignore[no-untyped-def]
    """A new token for `user`; the old one stops working at once."""
    Token.objects.filter(user=user).delete()
    return Token.objects.create(user=user)


@login_required
@require_http_methods(["GET", "POST"])
def api_token_page(request: HttpRequest) -> HttpResponse:
    """The account's API token: its key is shown once, when it is made (a copy kept nowhere else
    on the site's pages); afterwards only when it was created."""
    token = Token.objects.filter(user=request.user).first()
    new_key = None
    if request.method == "POST":
        if request.POST.get("action") == "revoke":
            Token.objects.filter(user=request.user).delete()
            messages.success(request, "Your API token is revoked: scripts using it are refused from now on.")
            return redirect("api-token")
        token = api_token_replace(user=request.user)
        new_key = token.key
    return render(request, "kingdoms/api_token.html", {"token": token, "new_key": new_key})


class ObtainTokenApi(ObtainAuthToken):
    """`POST /api/token/` with `username` and `password`: the account's token (created if it has
    none). Throttled by the login's scope: a password cannot be guessed here faster than at the
    login page."""

    throttle_classes = [ScopedRateThrottle]
    throttle_scope = "login"
