"""schemathesis over the OpenAPI schema as a player (issue 19): every operation, with the demo's own
ids and with generated ones, valid and invalid input, bounded (examples per operation, no shrinking
database). Nothing answers 500, and no status code is one the schema does not document.

Runs in CI's PostgreSQL pass only (it is where a bad value turned into a 500); skipped on SQLite."""

from __future__ import annotations

import base64
import os
from collections import Counter, defaultdict

import pytest
from django.core.wsgi import get_wsgi_application

from battles.models import Battle
from kingdoms.models import Kingdom

pytestmark = pytest.mark.skipif(
    not os.environ.get("DATABASE_URL", "").startswith("postgres"),
    reason="schemathesis runs in CI's PostgreSQL pass (DATABASE_URL=postgres://...)",
)

EXAMPLES = 5  # per operation, per set of ids, per mode: ~40 operations x 2 x 2 x 5 requests at most


@pytest.fixture
def ids(demo_campaign):
    ostland = Kingdom.objects.get(campaign=demo_campaign, name="Ostland")
    army = ostland.armies.get(kind="field")
    turn = demo_campaign.turns.get(number=1)
    battle = Battle.objects.filter(turn__campaign=demo_campaign).first()
    character = army.units.filter(category="character").first().character
    return {
        "campaign_id": demo_campaign.pk,
        "turn_id": turn.pk,
        "kingdom_id": ostland.pk,
        "army_id": army.pk,
        "character_id": character.pk,
        "battle_id": battle.pk if battle else 1,
    }


@pytest.mark.django_db(transaction=True)
def test_no_request_from_the_schema_answers_500_or_an_undocumented_status(ids):
    import schemathesis
    from hypothesis import HealthCheck, given, settings
    from schemathesis import GenerationMode
    from schemathesis.checks import not_a_server_error
    from schemathesis.specs.openapi.checks import status_code_conformance

    app = get_wsgi_application()
    schema = schemathesis.openapi.from_wsgi("/api/schema/?format=json", app)
    auth = {"Authorization": "Basic " + base64.b64encode(b"alice:briternia").decode()}
    failures: list[str] = []
    statuses: Counter[int] = Counter()

    for result in schema.get_all_operations():
        operation = result.ok()
        names = {p.name for p in operation.path_parameters}
        for path_parameters in ({k: v for k, v in ids.items() if k in names}, None):
            for mode in (GenerationMode.POSITIVE, GenerationMode.NEGATIVE):
                strategy = operation.as_strategy(generation_mode=mode, path_parameters=path_parameters or None)

                @settings(
                    max_examples=EXAMPLES,
                    deadline=None,
                    database=None,
                    derandomize=True,
                    suppress_health_check=list(HealthCheck),
                )
                @given(case=strategy)
                def run(case) -> None:  # type: ignore[no-untyped-def]
                    response = case.call(headers=auth)
                    statuses[response.status_code] += 1
                    try:
                        case.validate_response(response, checks=[not_a_server_error, status_code_conformance])
                    except AssertionError as exc:
                        failures.append(f"{case.method} {case.path}: {exc}"[:800])

                run()
    assert not failures, "\n\n".join(failures[:20])
    # It did reach the endpoints as alice: her own objects answered, and bad input was refused.
    assert statuses[200] > 20 and statuses[400] > 20 and sum(statuses.values()) > 200, statuses


def _operations(ids: dict[str, int]) -> list[tuple[str, str]]:
    """Every operation of the schema as (method, path), its path's ids the demo's own."""
    from drf_spectacular.generators import SchemaGenerator

    schema = SchemaGenerator().get_schema(request=None, public=True)
    out = []
    for path, item in schema["paths"].items():
        for method in item:
            out.append((method.upper(), path.format_map(defaultdict(lambda: 1, ids))))
    return out


@pytest.mark.django_db(transaction=True)
def test_nested_and_oversized_bodies_are_refused_in_the_one_shape_by_every_write(ids, settings):
    """Issue 33: 10,000 brackets made the JSON parser recurse into a 500. Every write refuses a body
    nested too deep with 400 and one larger than any request with 413, in the one error shape."""
    from django.test import Client

    from briternia.middleware import MAX_JSON_DEPTH
    from tests.clients import error_shape_problems

    client = Client()
    client.force_login(Kingdom.objects.get(pk=ids["kingdom_id"]).players.get())
    limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
    bodies = {
        "[" * 10_000 + "]" * 10_000: 400,
        '{"a":' * 10_000 + "1" + "}" * 10_000: 400,
        "[" * (MAX_JSON_DEPTH + 1) + "]" * (MAX_JSON_DEPTH + 1): 400,
        '{"orders": [' + ",".join(["{}"] * (limit // 3 + 1)) + "]}": 413,
        '"' + "x" * (limit + 1) + '"': 413,
    }
    failures, writes = [], 0
    for method, path in _operations(ids):
        if method not in ("POST", "PUT", "PATCH"):
            continue
        writes += 1
        for body, status in bodies.items():
            response = client.generic(method, path, body, content_type="application/json")
            if response.status_code != status or error_shape_problems(response):
                failures.append(f"{method} {path} ({len(body)} bytes): {response.status_code}")
    assert writes > 10 and not failures, failures


@pytest.mark.django_db(transaction=True)
def test_no_authorization_header_answers_500(ids):
    """Issue 33: `Authorization: Token abcde\\0` answered 500 on PostgreSQL. Any header a client
    sends, on every read of the schema, is a clear 4xx (or the answer itself) in the one shape."""
    from django.test import Client
    from hypothesis import HealthCheck, given, settings
    from hypothesis import strategies as st

    from tests.clients import error_shape_problems

    reads = [path for method, path in _operations(ids) if method == "GET" and "schema" not in path]
    text = st.text(st.characters(max_codepoint=255), max_size=300)  # a header arrives as latin-1 (WSGI)
    header = st.one_of(
        text,
        text.map(lambda t: f"Token {t}"),
        text.map(lambda t: f"Bearer {t}"),
        st.tuples(text, text).map(lambda p: "Basic " + base64.b64encode(f"{p[0]}:{p[1]}".encode()).decode()),
        st.binary(max_size=300).map(lambda b: "Basic " + base64.b64encode(b).decode()),
        st.integers(min_value=256, max_value=1_000_000).map(
            lambda n: "Basic " + base64.b64encode(b"u" * n + b":x").decode()
        ),
    )
    failures: list[str] = []

    @settings(max_examples=150, deadline=None, database=None, derandomize=True, suppress_health_check=list(HealthCheck))
    @given(path=st.sampled_from(reads), authorization=header)
    def run(path: str, authorization: str) -> None:
        try:
            response = Client().get(path, HTTP_AUTHORIZATION=authorization)
        except Exception as exc:  # noqa: BLE001 - a failure to report, not to hide
            failures.append(f"{path} {authorization[:60]!r}: {exc!r}")
            return
        if response.status_code >= 500 or (response.status_code >= 400 and error_shape_problems(response)):
            failures.append(f"{path} {authorization[:60]!r}: {response.status_code}")

    run()
    assert not failures, failures[:20]
