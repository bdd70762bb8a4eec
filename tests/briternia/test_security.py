"""Logins cannot be guessed without limit, the API is throttled and says how to authenticate, and
every page carries a Content-Security-Policy and a Permissions-Policy (issue 19)."""

from __future__ import annotations

import base64
import re
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from rest_framework.test import APIClient
from rest_framework.throttling import UserRateThrottle

from tests.conftest import PASSWORD

TEMPLATES = Path(__file__).resolve().parents[2] / "templates"


@pytest.fixture
def ada(db):
    return get_user_model().objects.create_user(username="ada", email="ada@example.org", password=PASSWORD)


def _basic(username: str, password: str) -> str:
    return "Basic " + base64.b64encode(f"{username}:{password}".encode()).decode()


def test_wrong_passwords_lock_the_login_out_and_then_the_right_one_does_not_work(ada, settings):
    client = Client()
    for _ in range(settings.AXES_FAILURE_LIMIT):
        wrong = client.post("/accounts/login/", {"username": "ada", "password": "guess"})
        assert wrong.status_code in (200, 429)
    locked = client.post("/accounts/login/", {"username": "ada", "password": PASSWORD})
    assert locked.status_code == 429
    assert "_auth_user_id" not in client.session
    # Another account from the same address is not locked by ada's guesses.
    get_user_model().objects.create_user(username="bea", email="bea@example.org", password=PASSWORD)
    assert client.post("/accounts/login/", {"username": "bea", "password": PASSWORD}).status_code == 302


def test_the_api_answers_a_missing_or_wrong_credential_with_401_and_how_to_give_one(ada, settings):
    api = APIClient()
    missing = api.get("/api/campaigns/")
    assert missing.status_code == 401 and missing["WWW-Authenticate"] == 'Basic realm="api"'
    wrong = api.get("/api/campaigns/", HTTP_AUTHORIZATION=_basic("ada", "guess"))
    assert wrong.status_code == 401 and wrong["WWW-Authenticate"] == 'Basic realm="api"'
    assert api.get("/api/campaigns/", HTTP_AUTHORIZATION=_basic("ada", PASSWORD)).status_code == 200
    # Basic auth's guesses count as the login page's do.
    for _ in range(settings.AXES_FAILURE_LIMIT):
        assert api.get("/api/campaigns/", HTTP_AUTHORIZATION=_basic("ada", "guess")).status_code == 401
    assert api.get("/api/campaigns/", HTTP_AUTHORIZATION=_basic("ada", PASSWORD)).status_code == 401


def test_the_api_is_throttled_per_account(ada, monkeypatch):
    monkeypatch.setattr(UserRateThrottle, "THROTTLE_RATES", {"user": "5/minute", "anon": "5/minute"})
    api = APIClient()
    api.force_authenticate(ada)
    assert [api.get("/api/campaigns/").status_code for _ in range(5)] == [200] * 5
    throttled = api.get("/api/campaigns/")
    assert throttled.status_code == 429 and int(throttled["Retry-After"]) > 0


def test_every_page_carries_a_content_security_policy_and_a_permissions_policy(db):
    response = Client().get("/accounts/login/")
    csp = response["Content-Security-Policy"]
    assert "default-src 'self'" in csp and "script-src 'self'" in csp and "'unsafe-inline'" not in csp
    assert "frame-ancestors 'none'" in csp
    assert "camera=()" in response["Permissions-Policy"] and "geolocation=()" in response["Permissions-Policy"]
    assert "Content-Security-Policy" in APIClient().get("/api/schema/").headers


def test_no_page_template_has_an_inline_script_or_style():
    """The policy allows the site's own files only: a page's script or style is a file under static/.
    (The *_print templates and reports are rendered to PDF, never served as pages.)"""
    pages = [
        p for p in TEMPLATES.rglob("*.html") if p.name == "base.html" or '{% extends "base.html" %}' in p.read_text()
    ]
    assert len(pages) > 20
    inline = [
        str(p.relative_to(TEMPLATES))
        for p in pages
        if re.search(r"<script(?![^>]*\bsrc=)[^>]*>|<style\b|\sstyle=\"|\son[a-z]+=\"", p.read_text())
    ]
    assert not inline, inline
