"""schemathesis over the OpenAPI schema as a player (issue 19): every operation, with the demo's own
ids and with generated ones, valid and invalid input, bounded (examples per operation, no shrinking
database). Nothing answers 500, and no status code is one the schema does not document.

Runs in CI's PostgreSQL pass only (it is where a bad value turned into a 500); skipped on SQLite."""

from __future__ import annotations

import base64
import os
from collections import Counter

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
