"""The OpenAPI schema tells the truth (issue 19): every status code an operation answers, and null
where a response holds null."""

from __future__ import annotations

import io

import pytest
from django.core.management import call_command

pytestmark = pytest.mark.django_db


@pytest.fixture(scope="module")
def schema(django_db_blocker):
    from drf_spectacular.generators import SchemaGenerator

    with django_db_blocker.unblock():
        return SchemaGenerator().get_schema(request=None, public=True)


def _operations(schema):
    for path, item in schema["paths"].items():
        for method, operation in item.items():
            yield path, method, operation


def test_every_operation_documents_its_error_answers(schema):
    for path, method, operation in _operations(schema):
        codes = set(operation["responses"])
        assert {"400", "401", "403", "404", "429"} <= codes, (method, path, codes)
        if method in ("post", "put", "patch"):
            assert "415" in codes, (method, path)


def test_resolve_and_aftermath_document_their_202(schema):
    for path in ("/api/turns/{turn_id}/resolve/", "/api/turns/{turn_id}/aftermath/"):
        codes = set(schema["paths"][path]["post"]["responses"])
        assert "202" in codes and "200" not in codes, (path, codes)


def test_null_fields_are_nullable(schema):
    components = schema["components"]["schemas"]
    assert components["Province"]["properties"]["controller"]["nullable"] is True
    character = components["Unit"]["properties"]["character"]
    assert character.get("nullable") is True or {"type": "null"} in character.get("oneOf", []), character


def test_the_schema_validates_without_warnings():
    out = io.StringIO()
    call_command("spectacular", "--validate", "--fail-on-warn", stdout=out)
    assert "openapi" in out.getvalue()
