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


def _component(schema, ref: str) -> dict:
    return schema["components"]["schemas"][ref.rsplit("/", 1)[-1]]


def test_every_error_answer_is_documented_in_the_one_error_shape(schema):
    """Issue 17: each 4xx of each operation is `{"type", "errors": [{"code", "detail", "attr"}]}`
    (briternia/api.py), so a client reads every refusal the same way."""
    for path, method, operation in _operations(schema):
        for code, response in operation["responses"].items():
            if not code.startswith("4"):
                continue
            body = _component(schema, response["content"]["application/json"]["schema"]["$ref"])
            assert set(body["required"]) == {"type", "errors"}, (method, path, code)
            error = _component(schema, body["properties"]["errors"]["items"]["$ref"])
            assert {"code", "detail", "attr"} <= set(error["properties"]), (method, path, code)
    operations = list(_operations(schema))
    assert all("405" in operation["responses"] for _, _, operation in operations)
