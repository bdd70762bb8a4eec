"""API tokens for scripts (issue 17): made on the "API token" page or with the password through
`POST /api/token/`, replaced or revoked by their owner, and no key to another kingdom's secrets."""

from __future__ import annotations

import pytest
from django.core.cache import cache
from rest_framework.test import APIClient

from kingdoms.models import Kingdom
from tests.clients import pages_as

pytestmark = pytest.mark.django_db


def _with_token(key: str) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    return client


def test_a_player_makes_a_token_on_the_page_and_a_script_reads_their_kingdom_with_it(demo_campaign) -> None:
    alice = pages_as("alice")
    assert 'id="token-state">You have no token' in alice.get("/account/api-token/").content.decode()

    page = alice.post("/account/api-token/", {"action": "create"}).content.decode()
    key = page.split('<code id="token-key">')[1].split("<")[0]
    assert len(key) == 40
    ostland = Kingdom.objects.get(campaign=demo_campaign, name="Ostland")
    red_fang = Kingdom.objects.get(campaign=demo_campaign, name="Da Red Fang")

    script = _with_token(key)
    assert script.get(f"/api/kingdoms/{ostland.pk}/").status_code == 200
    # The token is Alice's: Bob's kingdom stays as secret as it is to her.
    assert script.get(f"/api/kingdoms/{red_fang.pk}/").status_code == 404
    # Shown once: the page does not show the key again.
    assert key not in alice.get("/account/api-token/").content.decode()

    # A new token replaces the old one at once; a revoked one is refused.
    renewed = alice.post("/account/api-token/", {"action": "replace"}).content.decode()
    new_key = renewed.split('<code id="token-key">')[1].split("<")[0]
    assert _with_token(key).get(f"/api/kingdoms/{ostland.pk}/").status_code == 401
    assert _with_token(new_key).get(f"/api/kingdoms/{ostland.pk}/").status_code == 200
    alice.post("/account/api-token/", {"action": "revoke"})
    refused = _with_token(new_key).get(f"/api/kingdoms/{ostland.pk}/")
    assert refused.status_code == 401 and refused.has_header("WWW-Authenticate")


def test_a_script_obtains_the_token_with_the_password_and_guessing_is_throttled(demo_campaign) -> None:
    cache.clear()
    client = APIClient()
    response = client.post("/api/token/", {"username": "alice", "password": "briternia"}, format="json")
    assert response.status_code == 200
    assert _with_token(response.json()["token"]).get("/api/campaigns/").status_code == 200

    wrong = [
        client.post("/api/token/", {"username": "alice", "password": f"guess{i}"}, format="json").status_code
        for i in range(12)
    ]
    assert wrong[:9] == [400] * 9  # the rate is 10 a minute, the right one above included
    assert wrong[-1] == 429
    cache.clear()
