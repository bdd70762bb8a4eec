"""Logged-in clients for the demo's users by name (alice, bob, organizer...): the API's and the pages'."""

from django.contrib.auth import get_user_model
from django.test import Client
from rest_framework.test import APIClient


def user_named(name: str):  # type: ignore[no-untyped-def]
    return get_user_model().objects.get(username=name)


def api_as(name: str) -> APIClient:
    client = APIClient()
    client.force_authenticate(user_named(name))
    return client


def pages_as(name: str) -> Client:
    client = Client()
    client.force_login(user_named(name))
    return client


ERROR_TYPES = {"validation_error", "client_error"}


def error_shape_problems(response) -> list[str]:  # type: ignore[no-untyped-def]
    """What is wrong with a 4xx answer's body against the API's one error shape (briternia/api.py):
    `{"type": ..., "errors": [{"code", "detail", "attr"(, "armies")}, ...]}`; empty when it fits."""
    try:
        body = response.json()
    except ValueError:
        return [f"not JSON: {response.content[:80]!r}"]
    if not isinstance(body, dict) or set(body) != {"type", "errors"}:
        return [f"keys {sorted(body) if isinstance(body, dict) else type(body).__name__}, not type and errors"]
    wrong = [] if body["type"] in ERROR_TYPES else [f"type {body['type']!r}"]
    if not body["errors"]:
        wrong.append("no errors")
    for error in body["errors"]:
        keys = set(error)
        if not {"code", "detail", "attr"} <= keys <= {"code", "detail", "attr", "armies"}:
            wrong.append(f"error keys {sorted(keys)}")
        elif not (isinstance(error["code"], str) and error["code"] and isinstance(error["detail"], str)):
            wrong.append(f"error {error}")
    return wrong


def error_details(response) -> list[str]:  # type: ignore[no-untyped-def]
    """The words of an API refusal (each error's `detail`), after checking the body has the one shape."""
    assert not error_shape_problems(response), (response.status_code, response.content)
    return [e["detail"] for e in response.json()["errors"]]


def error_fields(response) -> list[str]:  # type: ignore[no-untyped-def]
    """The input fields an API refusal names (each error's `attr`, top-level part: `units.0.kind` is `units`)."""
    assert not error_shape_problems(response), (response.status_code, response.content)
    return [e["attr"].split(".")[0] for e in response.json()["errors"] if e["attr"]]
