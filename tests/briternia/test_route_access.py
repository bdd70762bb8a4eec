"""Every route of the site has an access rule of its own (issue 19): the test walks every URL
pattern from the resolver and fails on a route the table below does not name, so a new page or
endpoint is never public (nor open to another player) by accident. Each rule is then requested as
each role: anonymous, another player of the campaign, the player whose object it is, the organizer.

A rule is (method, anonymous, other player, player, organizer), each an expected status code, or
None where a request would change the campaign (a player's or organizer's write: their own tests
cover those). LOGIN: a page's redirect to the login page; 401: the API's refusal with its
WWW-Authenticate header.

Every 4xx of the API has the one error shape (issue 17, briternia/api.py): the walk checks each
refusal it meets, and a second walk provokes on every endpoint each refusal it can give (no such
object, a wrong method, a body that is not JSON, a session write without its CSRF token, too many
requests) and checks each has the shape."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, resolve
from rest_framework.authentication import SessionAuthentication
from rest_framework.test import APIClient
from rest_framework.throttling import SimpleRateThrottle

from battles.models import Battle
from kingdoms.models import Kingdom
from outbox.models import Email
from reports.models import TurnReport
from tests.battles.conftest import BATTLES_FILED, BATTLES_POSTED
from tests.clients import error_shape_problems, user_named
from transfer.models import Snapshot

LOGIN = "login"  # 302 to /accounts/login/
ADMIN_LOGIN = "admin-login"  # 302 to /admin/login/

# route name: (method, anonymous, other player, player, organizer)
ROUTES: dict[str, tuple[str, object, object, object, object]] = {
    # Accounts: Django's own views.
    "login": ("GET", 200, 200, 200, 200),
    "logout": ("GET", 405, 405, 405, 405),
    "password_change": ("GET", LOGIN, 200, 200, 200),
    "password_change_done": ("GET", LOGIN, 200, 200, 200),
    "password_reset": ("GET", 200, 200, 200, 200),
    "password_reset_done": ("GET", 200, 200, 200, 200),
    "password_reset_confirm": ("GET", 200, 200, 200, 200),  # a wrong token: "the link was invalid"
    "password_reset_complete": ("GET", 200, 200, 200, 200),
    # The API's documentation is public: it holds no campaign's data.
    "api-schema": ("GET", 200, 200, 200, 200),
    "api-docs": ("GET", 200, 200, 200, 200),
    # The health endpoint is public: whether the parts answer, no campaign's data.
    "health": ("GET", 200, 200, 200, 200),
    # A password exchanged for the account's token: an empty request is refused whoever asks.
    "api-token-obtain": ("POST", 400, 400, 400, 400),
    # The API.
    "api-campaigns": ("GET", 401, 200, 200, 200),
    "api-campaign": ("GET", 401, 200, 200, 200),
    "api-campaign-map": ("GET", 401, 200, 200, 200),
    "api-campaign-kingdoms": ("GET", 401, 200, 200, 200),
    "api-campaign-alliances": ("GET", 401, 200, 200, 200),  # alliances are public once made
    "api-campaign-messages": ("GET", 401, 200, 200, 200),  # each reads their kingdom's messages only
    "api-setup-home": ("POST", 401, 400, 400, 400),  # an empty pick is refused whatever the role
    "api-setup-provinces": ("POST", 401, 400, 400, 400),
    "api-kingdom": ("GET", 401, 404, 200, 200),
    "api-kingdom-ledger": ("GET", 401, 404, 200, 200),
    # Joint kingdoms: the organizer's; an empty request is refused (nothing changes).
    "api-kingdom-co-players": ("POST", 401, 404, 404, 400),
    # Removing one (decision 229): Alice is Ostland's only player, so the organizer is refused (400).
    "api-kingdom-co-player": ("DELETE", 401, 404, 404, 400),
    "api-kingdom-independence": ("POST", 401, 404, 404, 400),
    "api-kingdom-armies": ("GET", 401, 404, 200, 200),
    "api-kingdom-characters": ("GET", 401, 404, 200, 200),
    "api-kingdom-tomb-raiders": ("GET", 401, 404, 200, 200),  # the force: its players' and the organizer's
    "api-kingdom-intelligence": ("GET", 401, 404, 200, 200),  # what its Reconnaissance learned: the same
    "api-army": ("GET", 401, 404, 200, 200),
    "api-army-experience": ("GET", 401, 404, 200, 200),
    "api-current-turn": ("GET", 401, 200, 200, 200),
    "api-turn": ("GET", 401, 200, 200, 200),
    # Each their own kingdom's; the organizer's is the Ancient Dead's, drafted by the engine (issue 16).
    "api-order-sheet": ("GET", 401, 200, 200, 200),
    "api-sheets": ("GET", 401, 404, 404, 200),
    "api-turn-deadlines": ("POST", 401, 404, 404, None),
    "api-turn-preview": ("GET", 401, 404, 404, 400),  # organizer: only an open turn is previewed
    "api-turn-battles": ("GET", 401, 200, 200, 200),  # each sees their own battles (secrecy tests)
    # Allies, Announcement: each player's own kingdom; the organizer names one (?kingdom=), its own
    # Ancient Dead have no alliance to end
    "api-alliance-end": ("GET", 401, 200, 200, 404),
    "api-battle": ("GET", 401, 404, 200, 200),
    # A message to the battle's other side: the battle's players'; an empty request is refused
    # (the organizer, who plays neither side, is refused too: rules decision 321).
    "api-battle-message": ("POST", 401, 404, 400, 400),
    "api-summary-sheet": ("GET", 401, 404, 404, 404),  # a filing side's sheet: none filed yet
    "api-character-retire": ("POST", 401, 404, None, 404),
    # Treasure from the Ruins: the player's own character; uninjured, he is refused (nothing changes).
    "api-character-healing-potion": ("POST", 401, 404, 400, 404),
    "api-battle-ruling": ("POST", 401, 404, 404, 400),
    "api-story-bonus": ("POST", 401, 404, 404, 404),  # no sheet yet
    "api-army-painted": ("POST", 401, 404, 404, 400),
    "api-turn-results": ("GET", 401, 200, 200, 200),
    "api-turn-resolve": ("POST", 401, 404, 404, None),
    "api-turn-aftermath": ("POST", 401, 404, 404, None),
    "api-campaign-desk": ("GET", 401, 404, 404, 200),  # the game master's desk: the organizer's alone
    # Pages.
    "home": ("GET", 200, 200, 200, 200),
    "account-name": ("GET", LOGIN, 200, 200, 200),  # your own display name
    "api-token": ("GET", LOGIN, 200, 200, 200),  # your own API token
    "account-orders-address": ("GET", LOGIN, 200, 200, 200),  # your own orders address (its secret yours alone)
    # Postmark's inbound webhook: HTTP basic auth with ANYMAIL_WEBHOOK_SECRET, closed while none is set.
    "postmark-inbound": ("POST", 400, 400, 400, 400),
    "scenario-generator": ("GET", 200, 200, 200, 200),  # a stand-alone tool, no campaign
    "campaign-create": ("GET", LOGIN, 404, 404, 200),  # staff only
    "campaign-map": ("GET", LOGIN, 200, 200, 200),
    "campaign-invite": ("POST", LOGIN, 404, 404, None),
    "campaign-roll-homes": ("POST", LOGIN, 404, 404, None),
    "campaign-pick": ("POST", LOGIN, 302, 302, 302),  # setup is over: "not your turn to pick"
    "kingdom": ("GET", LOGIN, 404, 200, 200),
    "kingdom-co-player-add": ("POST", LOGIN, 404, 404, 302),  # the organizer's empty address: refused, flashed
    "kingdom-co-player-remove": ("POST", LOGIN, 404, 404, 302),  # Alice, Ostland's only player: refused, flashed
    "kingdom-independence": ("GET", LOGIN, 404, 404, 200),
    "kingdom-tomb-raiders": ("GET", LOGIN, 404, 200, 200),  # the Tomb Raider force's page
    "kingdom-intelligence": ("GET", LOGIN, 404, 200, 200),  # what its Reconnaissance learned (decision 478)
    "character-choose-ability": ("POST", LOGIN, 404, None, None),
    "army": ("GET", LOGIN, 404, 200, 200),
    "army-experience-adjust": ("POST", LOGIN, 404, 404, None),
    "army-edit": ("GET", LOGIN, 404, 200, 200),
    "army-list-check": ("POST", LOGIN, 404, 200, 200),  # checks the rows posted, saves nothing
    "order-sheet": ("GET", LOGIN, 200, 200, 200),  # your own kingdom's; the organizer's overview
    "order-sheet-kingdom": ("GET", LOGIN, 404, 200, 200),
    "order-receipt": ("GET", LOGIN, 404, 200, 200),
    "sheets-overview": ("GET", LOGIN, 404, 404, 200),
    "turn-deadlines": ("POST", LOGIN, 404, 404, None),
    "turn-preview": ("GET", LOGIN, 404, 404, 302),  # organizer: only an open turn is previewed
    # A calendar application fetches the feed without logging in: a key the site did not sign
    # is "not found" whoever asks (tests/browser/test_clock.py reads a good one).
    "deadlines-feed": ("GET", 404, 404, 404, 404),
    "kingdom-leader": ("GET", LOGIN, 404, 404, 200),  # the organizer's: mark the player out, New Player Option
    "campaign-pause": ("POST", LOGIN, 404, 404, None),
    "campaign-schedule": ("POST", LOGIN, 404, 404, None),
    "turn-battles": ("GET", LOGIN, 200, 200, 200),
    # Allies, Announcement: a player without an alliance is refused, flashed; the organizer plays none
    "turn-alliance-end": ("POST", LOGIN, 302, 302, 404),
    "battle": ("GET", LOGIN, 404, 200, 200),
    "battle-scenario-pdf": ("GET", LOGIN, 404, 200, 200),
    "summary-sheet": ("GET", LOGIN, 404, 200, 404),
    "summary-sheet-kingdom": ("GET", LOGIN, 404, 200, 200),
    "battle-ruling": ("POST", LOGIN, 404, 404, 302),  # the organizer's empty ruling: refused, flashed
    # A message to the battle's other side: the battle's players' (an empty one refused, flashed).
    "battle-message": ("POST", LOGIN, 404, 302, 302),
    "story-bonus": ("POST", LOGIN, 404, 404, 404),  # no sheet yet
    "army-painted": ("POST", LOGIN, 404, 404, None),
    "character-retire": ("POST", LOGIN, 404, None, 404),
    "character-healing-potion": ("POST", LOGIN, 404, 302, 404),
    "turn-results": ("GET", LOGIN, 200, 200, 200),
    "campaign-history": ("GET", LOGIN, 200, 200, 200),
    # Diplomacy: every player of the campaign has its page (each reads only their kingdom's messages).
    "campaign-messages": ("GET", LOGIN, 200, 200, 200),
    # The battle stories: everyone in the campaign (a private story: its kingdom and the organizer).
    "campaign-stories": ("GET", LOGIN, 200, 200, 200),
    "my-reports": ("GET", LOGIN, 302, 302, 302),  # one campaign each: its history
    "report": ("GET", LOGIN, 404, 200, 200),
    "turn-deliveries": ("GET", LOGIN, 404, 404, 200),
    "report-render-again": ("POST", LOGIN, 404, 404, None),
    "campaign-emails": ("GET", LOGIN, 404, 404, 200),
    "campaign-desk": ("GET", LOGIN, 404, 404, 200),  # every army on the map: never a player's
    "campaign-mail-received": ("GET", LOGIN, 404, 404, 200),  # the mail received: the organizer's
    "email-resend": ("POST", LOGIN, 404, 404, None),
    "report-email-resend": ("POST", LOGIN, 404, 404, None),
    "report-preferences": ("GET", LOGIN, 200, 200, 200),
    "turn-resolve": ("POST", LOGIN, 404, 404, None),
    "turn-aftermath": ("POST", LOGIN, 404, 404, None),
    "turn-retry": ("POST", LOGIN, 404, 404, None),
    "turn-status": (
        "GET",
        LOGIN,
        200,
        200,
        200,
    ),  # where the turn's work stands; the failure's words are the organizer's
    "campaign": ("GET", LOGIN, 200, 200, 200),
    "campaign-start": ("POST", LOGIN, 404, 404, None),
    # Snapshots are the organizer's alone (players never see them); the restore's GET is its confirmation.
    "turn-snapshots": ("GET", LOGIN, 404, 404, 200),
    "snapshot-restore": ("GET", LOGIN, 404, 404, 200),
}
# The admin's routes are Django's, generated per model: one rule for the namespace, requested at
# its index (a player is sent to the admin's login; the organizer is staff).
ADMIN_RULE = ("GET", ADMIN_LOGIN, ADMIN_LOGIN, ADMIN_LOGIN, 200)


def _routes(patterns, prefix: str = "", namespace: str | None = None):
    for p in patterns:
        if isinstance(p, URLResolver):
            yield from _routes(p.url_patterns, prefix + str(p.pattern), p.namespace or namespace)
        elif isinstance(p, URLPattern):
            yield (f"{namespace}:{p.name}" if namespace else p.name), prefix + str(p.pattern)


def test_every_route_has_an_access_rule_of_its_own():
    routes = list(_routes(get_resolver().url_patterns))
    unnamed = [path for name, path in routes if not name]
    assert not unnamed, f"Routes without a name cannot have an access rule: {unnamed}"
    missing = sorted({name for name, _ in routes if not name.startswith("admin:")} - set(ROUTES))
    assert not missing, f"Give each new route its access rule in ROUTES: {missing}"
    stale = sorted(set(ROUTES) - {name for name, _ in routes})
    assert not stale, f"ROUTES names routes that are gone: {stale}"


@pytest.fixture
def world(demo_campaign, shared_layers):
    """The demo's turn 1 resolved into battles, its scenario sheets rendered and emailed (the
    battles' shared builds, tests/battles/conftest.py): every kind of object a route names exists."""
    shared_layers.take(BATTLES_FILED)
    shared_layers.take(BATTLES_POSTED)
    turn = demo_campaign.turns.get(number=1)
    ostland = Kingdom.objects.get(campaign=demo_campaign, name="Ostland")
    battle = Battle.objects.get(turn=turn, province__number=62)
    army = battle.attacker_army if battle.attacker_kingdom_id == ostland.pk else battle.defender_army
    return {
        "campaign_id": demo_campaign.pk,
        "turn_id": turn.pk,
        "kingdom_id": ostland.pk,
        "army_id": army.pk,
        "character_id": army.units.filter(category="character").first().character.pk,
        "battle_id": battle.pk,
        "report_id": TurnReport.objects.get(battle=battle).pk,
        "email_id": Email.objects.filter(campaign=demo_campaign).first().pk,
        "snapshot_id": Snapshot.objects.get(campaign=demo_campaign).pk,
        "user_id": user_named("alice").pk,
        "uidb64": "MQ",
        "token": "set-password",
        "key": "not-a-signed-key",
    }


def _url(path: str, ids: dict) -> str:
    return "/" + re.sub(r"<(?:\w+:)?(\w+)>", lambda m: str(ids[m.group(1)]), path).lstrip("^").rstrip("$")


def _outcome(response, *, api: bool) -> object:
    if response.status_code == 302:
        location = response["Location"]
        if location.startswith("/admin/login/"):
            return ADMIN_LOGIN
        if location.startswith("/accounts/login/"):
            return LOGIN
    if response.status_code == 401:
        assert api and response["WWW-Authenticate"].startswith("Basic"), response
    if api and 400 <= response.status_code < 500:
        assert not error_shape_problems(response), (response.status_code, response.content)
    return response.status_code


def test_each_route_answers_each_role_as_its_rule_says(world):
    """Alice plays Ostland, whose objects the routes name; Bob plays Da Red Fang in the same
    campaign (not in the battle in Hartwood); the organizer runs the campaign."""
    roles = {"anonymous": None, "other player": "bob", "player": "alice", "organizer": "organizer"}
    wrong = []
    for name, path in _routes(get_resolver().url_patterns):
        if name.startswith("admin:"):
            if name != "admin:index":
                continue
            rule = ADMIN_RULE
        else:
            rule = ROUTES[name]
        method, *expected = rule
        api = path.startswith("api/")
        url = _url(path, world)
        got = []
        for username, want in zip(roles.values(), expected, strict=True):
            if want is None:
                got.append(None)
                continue
            client = APIClient() if api else Client()
            if username:
                client.force_login(user_named(username))
            if method == "GET":
                response = client.get(url)
            elif api:
                response = client.generic(method, url, "{}", content_type="application/json")
            else:
                response = client.post(url, {})
            got.append(_outcome(response, api=api))
        if tuple(got) != tuple(expected):
            wrong.append(f"{method} {url} ({name}): expected {tuple(expected)}, got {tuple(got)}")
    assert not wrong, "\n".join(wrong)


WRITES = ("POST", "PUT", "PATCH", "DELETE")


# The schema and its page answer in their own formats (YAML, HTML), with the same refusals.
API_DOCUMENTATION = {"api-schema", "api-docs"}


def _api_routes(world: dict):
    """(name, url, the view's class) of every API endpoint that answers JSON."""
    for name, path in _routes(get_resolver().url_patterns):
        if path.startswith("api/") and name not in API_DOCUMENTATION:
            url = _url(path, world)
            yield name, url, resolve(url).func.cls


def _request(client, method: str, url: str, **body):  # type: ignore[no-untyped-def]
    return client.generic(method, url, **(body or {"data": "{}", "content_type": "application/json"}))


def _as(username: str | None, *, csrf: bool = False) -> APIClient:
    client = APIClient(enforce_csrf_checks=csrf)
    if username:
        client.force_login(user_named(username))
    return client


def test_every_api_endpoint_answers_each_refusal_it_can_give_in_the_one_error_shape(world, monkeypatch):
    """Issue 17: one error shape for every 4xx (validation, domain, 404, 403, 401, 405, 415, 429).
    The access walk above checks the 400s, 401s and 404s of its rules; this one provokes the rest on
    every endpoint. Alice plays Ostland; the organizer runs the campaign."""
    wrong: list[str] = []
    provoked: dict[int, int] = {}

    def expect(name: str, what: str, response, statuses: set[int]) -> None:  # type: ignore[no-untyped-def]
        provoked[response.status_code] = provoked.get(response.status_code, 0) + 1
        if response.status_code not in statuses:
            wrong.append(f"{name}, {what}: expected {sorted(statuses)}, got {response.status_code}")
        elif response.status_code >= 400 and (problems := error_shape_problems(response)):
            wrong.append(f"{name}, {what} ({response.status_code}): {problems}")

    for name, url, view in _api_routes(world):
        rule_method, _, _, player, organizer = ROUTES[name]
        allowed = {m.upper() for m in view().allowed_methods}
        # A method the endpoint does not take.
        method = next(m for m in ("DELETE", "PATCH", "PUT", "POST") if m not in allowed)
        expect(name, f"{method} (not allowed)", _request(_as("alice"), method, url), {405})
        # An object that does not exist (every id in the path unknown).
        if "<" in next(p for n, p in _routes(get_resolver().url_patterns) if n == name):
            path = next(p for n, p in _routes(get_resolver().url_patterns) if n == name)
            missing = _url(path, dict.fromkeys(world, 987654321))
            expect(name, "no such object", _request(_as("alice"), rule_method, missing), {404})
        for method in sorted(allowed & set(WRITES)):
            # A body that is not JSON: 415, unless the request is refused before its body is read
            # (a role that may not write here answers as its access rule says). A write that
            # would change the campaign (no rule for the organizer) is not sent.
            if organizer is not None:
                form = {"data": "result=massacre", "content_type": "application/x-www-form-urlencoded"}
                expect(name, f"{method} a form body", _request(_as("organizer"), method, url, **form), {415, organizer})
            # A logged-in browser's write without its CSRF token: refused before anything runs.
            if any(issubclass(a, SessionAuthentication) for a in view.authentication_classes):
                expect(
                    name, f"{method} without a CSRF token", _request(_as("organizer", csrf=True), method, url), {403}
                )

    # Too many requests: one a minute; the second wrong-method request is refused before its method.
    monkeypatch.setattr(
        SimpleRateThrottle, "THROTTLE_RATES", {"user": "1/minute", "anon": "1/minute", "login": "1/minute"}
    )
    for name, url, view in _api_routes(world):
        from django.core.cache import cache

        cache.clear()
        allowed = {m.upper() for m in view().allowed_methods}
        method = next(m for m in ("DELETE", "PATCH", "PUT", "POST") if m not in allowed)
        client = _as("alice")
        _request(client, method, url)
        throttled = _request(client, method, url)
        expect(name, "too many requests", throttled, {429})
        if throttled.status_code == 429 and int(throttled["Retry-After"]) <= 0:
            wrong.append(f"{name}: 429 without a Retry-After")

    assert not wrong, "\n".join(wrong)
    # Each kind of refusal was met (the 400s and 401s: the access walk above).
    assert {403, 404, 405, 415, 429} <= set(provoked), provoked


# Routes whose path names no object of a campaign: a user of another campaign is answered as
# another player of this one is (their own account, the public tools).
NOT_A_CAMPAIGN_OBJECT = {"password_reset_confirm", "deadlines-feed"}


def test_a_user_of_another_campaign_finds_nothing_of_this_one_by_its_ids(world, django_capture_on_commit_callbacks):
    """Secrecy (a forbidden object answers 404, never 403): the organizer and a player of another
    campaign, logged in, ask every route with the ids of this campaign's objects (its campaign,
    turn, kingdoms, army, character, battle, report, email, snapshot): every one is "not found",
    reads and writes alike, and nothing of the campaign changes. A route that names no object answers
    them as it answers another player of this campaign."""
    from django.contrib.auth import get_user_model

    from kingdoms.models import Campaign
    from kingdoms.services import campaigns as campaign_services
    from rulebook.setup.maps import load_default_map

    User = get_user_model()
    otto = User.objects.create_user(username="otto", email="otto@example.org")
    with django_capture_on_commit_callbacks(execute=True):
        elsewhere = campaign_services.campaign_create(
            name="Otto's War", organizer=otto, player_count=2, time_zone="Europe/London", map_spec=load_default_map()
        )
        kingdom = campaign_services.player_invite(
            campaign=elsewhere, email="pat@example.org", kingdom_name="Pat's Land", army_type="empire"
        )
    pat = kingdom.players.get()
    campaign = Campaign.objects.get(pk=world["campaign_id"])
    before = (campaign.status, campaign.current_turn, campaign.kingdoms.count(), Email.objects.count())
    wrong = []
    for name, path in _routes(get_resolver().url_patterns):
        if name.startswith("admin:"):
            continue
        method, _, other_player, _, _ = ROUTES[name]
        names_an_object = "<" in path and name not in NOT_A_CAMPAIGN_OBJECT
        if not names_an_object and other_player is None:
            continue
        api = path.startswith("api/")
        url = _url(path, world)
        for user in (otto, pat):
            client = APIClient() if api else Client()
            client.force_login(user)
            if method == "GET":
                response = client.get(url)
            elif api:
                response = client.generic(method, url, "{}", content_type="application/json")
            else:
                response = client.post(url, {})
            got = _outcome(response, api=api)
            want = 404 if names_an_object else other_player
            if name == "my-reports":
                want = 302  # their own campaign's history
            if got != want:
                wrong.append(f"{method} {url} ({name}) as {user.username}: expected {want}, got {got}")
    campaign.refresh_from_db()
    assert (campaign.status, campaign.current_turn, campaign.kingdoms.count(), Email.objects.count()) == before
    assert not wrong, "\n".join(wrong)
