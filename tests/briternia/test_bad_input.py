"""Every bad input is a clear 4xx with nothing changed (issue 33): a number beyond its column, a
username longer than the login audit's column, a body nested or sized beyond any request, a NUL in
a header, digits other than 0-9. Each of these answered 500 or changed something silently."""

from __future__ import annotations

import base64

import pytest
from axes.models import AccessAttempt
from django.test import Client
from rest_framework.test import APIClient

from briternia.admin import CampaignScopedAdmin
from kingdoms.models import ExperienceEntry, Kingdom
from tests.clients import api_as, error_details, error_shape_problems, pages_as

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def army(demo_campaign):
    return Kingdom.objects.get(campaign=demo_campaign, name="Ostland").armies.get(kind="field")


def _ledger(army) -> tuple:
    army.refresh_from_db()
    return army.experience, list(army.experience_ledger.values_list("pk", "amount", "note"))


# Case 1: an experience correction beyond the column (500 on PostgreSQL from 2**31, on SQLite from 2**63).
@pytest.mark.parametrize("amount", [2**31, 2**63, -(2**63) - 1])
def test_an_experience_correction_beyond_its_column_is_refused_through_the_api(army, amount):
    before = _ledger(army)
    response = api_as("organizer").post(
        f"/api/armies/{army.pk}/experience/", {"amount": amount, "reason": "x"}, format="json"
    )
    assert response.status_code == 400, response.content
    assert not error_shape_problems(response)
    assert _ledger(army) == before


@pytest.mark.parametrize("amount", [str(2**31), str(2**63), "9" * 40])
def test_an_experience_correction_beyond_its_column_is_refused_by_the_page(army, amount):
    before = _ledger(army)
    response = pages_as("organizer").post(f"/armies/{army.pk}/experience/", {"amount": amount, "reason": "x"})
    assert response.status_code in (302, 400), response.status_code
    assert _ledger(army) == before


def test_a_correction_that_takes_the_balance_beyond_its_column_is_refused(army):
    room = 2**31 - 1 - army.experience
    url = f"/api/armies/{army.pk}/experience/"
    assert api_as("organizer").post(url, {"amount": room, "reason": "x"}, format="json").status_code == 200
    before = _ledger(army)
    response = api_as("organizer").post(url, {"amount": 1, "reason": "x"}, format="json")
    assert response.status_code == 400
    assert "cannot hold more than 2147483647" in " ".join(error_details(response))
    pages_as("organizer").post(f"/armies/{army.pk}/experience/", {"amount": "1", "reason": "x"})
    assert _ledger(army) == before


# Case 8: the page stored a 1 MB reason (the API caps it at 300).
def test_the_experience_page_refuses_a_reason_longer_than_the_ledger_keeps(army):
    before = _ledger(army)
    pages_as("organizer").post(f"/armies/{army.pk}/experience/", {"amount": "5", "reason": "x" * 1_000_000})
    assert _ledger(army) == before
    response = pages_as("organizer").post(f"/armies/{army.pk}/experience/", {"amount": "5", "reason": "y" * 301})
    assert _ledger(army) == before
    assert response.status_code in (302, 400)


def test_a_reason_of_300_characters_is_kept_whole(army):
    pages_as("organizer").post(f"/armies/{army.pk}/experience/", {"amount": "5", "reason": "y" * 300})
    assert ExperienceEntry.objects.filter(army=army).latest("pk").note == "y" * 300


# Case 11: Arabic-Indic and other non-ASCII digits were read as numbers.
@pytest.mark.parametrize("amount", ["٣", "３", "1_000", "²"])
def test_digits_other_than_0_to_9_are_refused(army, amount):
    before = _ledger(army)
    response = api_as("organizer").post(
        f"/api/armies/{army.pk}/experience/", {"amount": amount, "reason": "x"}, format="json"
    )
    assert response.status_code == 400
    assert any("0-9" in d for d in error_details(response))
    page = pages_as("organizer").post(f"/armies/{army.pk}/experience/", {"amount": amount, "reason": "x"})
    assert page.status_code in (302, 400)
    assert _ledger(army) == before


def test_a_form_s_integer_field_takes_ascii_digits_only():
    from kingdoms.forms import ItemForm

    form = ItemForm({"name": "Sword", "points": "٣", "bearer": "Hero"})
    assert not form.is_valid() and "0-9" in str(form.errors["points"])
    assert ItemForm({"name": "Sword", "points": "3", "bearer": "Hero"}).is_valid()


# Case 2: a long username was written into the login audit's 255-character column.
@pytest.mark.parametrize("length", [300, 1_000_000])
def test_a_username_longer_than_the_audit_column_is_refused_not_a_500(demo_campaign, length):
    client = APIClient()
    response = client.post("/api/token/", {"username": "u" * length, "password": "x"}, format="json")
    assert response.status_code in (400, 401, 413), response.status_code
    credentials = base64.b64encode(b"u" * 300 + b":x").decode()
    response = Client().get("/api/campaigns/", HTTP_AUTHORIZATION=f"Basic {credentials}")
    assert response.status_code == 401, response.status_code
    assert all(len(a.username) <= 255 for a in AccessAttempt.objects.all())


# Case 3: 10,000 nested brackets made the JSON parser recurse into a 500.
def test_a_deeply_nested_json_body_is_refused_in_the_one_shape(demo_campaign):
    turn = demo_campaign.turns.get(number=1)
    body = "[" * 10_000 + "]" * 10_000
    response = api_as("alice").put(f"/api/turns/{turn.pk}/sheet/", body, content_type="application/json")
    assert response.status_code == 400
    assert not error_shape_problems(response)
    body = '{"a": "[[[[", "b": ' + "[" * 40 + "]" * 40 + "}"
    response = api_as("alice").put(f"/api/turns/{turn.pk}/sheet/", body, content_type="application/json")
    assert response.status_code == 400 and response.json()["errors"][0]["code"] == "json_too_deep"


def test_brackets_inside_a_string_are_not_nesting():
    from briternia.middleware import json_too_deep

    assert not json_too_deep(b'{"a": "[[[[[[", "b": [1, {"c": "]]]\\"[["}]}', limit=3)
    assert json_too_deep(b'{"a": "]]]]", "b": [1, {"c": [[]]}]}', limit=3)
    assert not json_too_deep(b"[" * 32 + b"]" * 32) and json_too_deep(b"[" * 33 + b"]" * 33)
    assert not json_too_deep(b"[[]]" * 100_000)


def test_an_oversized_body_is_refused_with_413_in_the_one_shape(demo_campaign, settings):
    turn = demo_campaign.turns.get(number=1)
    body = '{"orders": "' + "x" * (settings.DATA_UPLOAD_MAX_MEMORY_SIZE + 1) + '"}'
    response = api_as("alice").put(f"/api/turns/{turn.pk}/sheet/", body, content_type="application/json")
    assert response.status_code == 413
    assert not error_shape_problems(response)
    form = "display_name=" + "x" * (settings.DATA_UPLOAD_MAX_MEMORY_SIZE + 1)
    page = pages_as("alice").post("/account/name/", form, content_type="application/x-www-form-urlencoded")
    assert page.status_code == 413


# Case 4: a NUL in the Authorization header reached the token's query (500 on PostgreSQL).
@pytest.mark.parametrize(
    "authorization",
    ["Token abcde\x00", "Basic " + base64.b64encode(b"alice\x00:briternia").decode(), "Bearer \x00"],
)
def test_a_nul_in_the_authorization_header_is_refused(demo_campaign, authorization):
    response = Client().get("/api/campaigns/", HTTP_AUTHORIZATION=authorization)
    assert response.status_code == 400
    assert not error_shape_problems(response)


# Case 4b: a NUL in a JSON body, whichever encoding json.loads reads (issue 35: the guard parses a
# body only when its bytes may hold one: the escape in UTF-8, any zero byte in UTF-16 or UTF-32).
@pytest.mark.parametrize(
    "body, content_type",
    [
        (b'{"name": "a\\u0000b"}', "application/json"),
        ('{"name": "a\\u0000b"}'.encode("utf-16"), "application/json; charset=utf-16"),
        ('{"name": "a\\u0000b"}'.encode("utf-32"), "application/json; charset=utf-32"),
    ],
)
def test_a_nul_in_a_json_body_is_refused_before_anything_reads_it(body, content_type):
    response = Client().generic("POST", "/api/campaigns/", body, content_type=content_type)  # sent as it is
    assert response.status_code == 400
    assert "nul_character" in response.content.decode()


def test_the_six_characters_of_the_escape_in_a_text_are_no_nul():
    body = b'{"name": "a\\\\u0000b"}'  # the text a\u0000b: a backslash, then "u0000"
    response = Client().post("/api/campaigns/", body, content_type="application/json")
    assert "nul_character" not in response.content.decode()


# Every field a client fills has its bounds, so the next field added without them fails here.
APPS = ["briternia", "kingdoms", "diplomacy", "orders", "turns", "battles", "inbox", "outbox", "reports", "transfer"]
# Text fields whose length the service bounds with its own words (the tests of each assert them).
BOUNDED_BY_THEIR_SERVICE = {
    "battles.api.BattleMessageInput.message": "MESSAGE_MAX, battles/services/opponents.py",
    "battles.api.SummarySheetInput.story": "STORY_MAX, battles/services/summaries.py",
    # Diplomacy: the page and the API refuse a long message in the service's words (tests/diplomacy).
    "diplomacy.forms.MessageForm.text": "MESSAGE_MAX, diplomacy/services/messages.py",
}


def _project_classes(base: type) -> list[type]:
    import importlib
    import pkgutil

    for app in APPS:
        package = importlib.import_module(app)
        for module in pkgutil.walk_packages(package.__path__, f"{app}."):
            if ".migrations" not in module.name and ".management" not in module.name:
                importlib.import_module(module.name)

    def below(cls: type) -> list[type]:
        return [c for sub in cls.__subclasses__() for c in (sub, *below(sub))]

    return sorted(
        {c for c in below(base) if c.__module__.split(".")[0] in APPS}, key=lambda c: (c.__module__, c.__name__)
    )


def _unbounded(where: str, field, *, integer: type, char: type, decimal: type, email: type) -> list[str]:  # type: ignore[no-untyped-def]
    from briternia.fields import IntegerField, IntegerSerializerField

    wrong = []
    if isinstance(field, integer):
        if field.min_value is None or field.max_value is None:
            wrong.append(f"{where}: an integer without min_value and max_value")
        if not isinstance(field, (IntegerField, IntegerSerializerField)):
            wrong.append(f"{where}: not briternia.fields' integer (ASCII digits only)")
    elif isinstance(field, decimal):
        if field.max_digits is None and field.max_value is None:
            wrong.append(f"{where}: a decimal without max_digits or max_value")
    elif isinstance(field, email):
        if not field.max_length:
            wrong.append(f"{where}: an email address without max_length")
    elif isinstance(field, char) and not getattr(field, "choices", None):
        bounded = field.max_length is not None or where in BOUNDED_BY_THEIR_SERVICE
        wrong += [] if bounded else [f"{where}: a text without max_length"]
    return wrong


def test_every_form_field_has_its_bounds():
    from django import forms

    wrong = []
    for cls in _project_classes(forms.BaseForm):
        for name, field in getattr(cls, "base_fields", {}).items():
            if isinstance(field.widget, forms.PasswordInput):
                continue  # Django's password fields, checked by its validators
            wrong += _unbounded(
                f"{cls.__module__}.{cls.__name__}.{name}",
                field,
                integer=forms.IntegerField,
                char=forms.CharField,
                decimal=forms.DecimalField,
                email=forms.EmailField,
            )
    assert not wrong, "\n".join(wrong)


def test_every_input_serializer_field_has_its_bounds():
    """The serializers that read a client's input (named ...Input, ...InputSerializer, ...Query:
    the next test holds every `(data=...)` to that) and those they nest."""
    from rest_framework import serializers

    wrong: list[str] = []

    def walk(where: str, field) -> None:  # type: ignore[no-untyped-def]
        if field.read_only:
            return
        if isinstance(field, serializers.ListSerializer):
            field = field.child
        if isinstance(field, serializers.ListField):
            walk(f"{where}[]", field.child)
        elif isinstance(field, serializers.Serializer):
            for name, inner in field.fields.items():
                walk(f"{type(field).__module__}.{type(field).__name__}.{name}", inner)
        else:
            wrong.extend(
                _unbounded(
                    where,
                    field,
                    integer=serializers.IntegerField,
                    char=serializers.CharField,
                    decimal=serializers.DecimalField,
                    email=serializers.EmailField,
                )
            )

    inputs = [
        c
        for c in _project_classes(serializers.Serializer)
        if c.__name__.endswith(("Input", "InputSerializer", "Query"))
    ]
    assert len(inputs) > 20
    for cls in inputs:
        walk(cls.__name__, cls())
    assert not wrong, "\n".join(wrong)


def test_every_serializer_that_reads_input_is_named_so():
    import re
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    readers = {
        m[1]
        for app in APPS
        for path in (root / app).rglob("*.py")
        for m in re.finditer(r"(\w+)\(data=", path.read_text())
    }
    assert readers and all(r.endswith(("Input", "InputSerializer", "Query")) for r in readers), sorted(readers)


# Case 5: the admin's dice-roll list answered 500 for every staff user (a list filter on a non-relation).
def test_every_admin_list_and_change_page_opens_for_a_staff_organizer(demo_campaign, rf):
    from django.contrib import admin
    from django.contrib.auth import get_user_model
    from django.urls import reverse

    get_user_model().objects.filter(pk=demo_campaign.organizer_id).update(is_staff=True, is_superuser=False)
    organizer = get_user_model().objects.get(pk=demo_campaign.organizer_id)
    client = Client()
    client.force_login(organizer)
    request = rf.get("/admin/")
    request.user = organizer
    failures, opened = [], 0
    for model, model_admin in admin.site._registry.items():
        if not isinstance(model_admin, CampaignScopedAdmin):
            continue
        name = f"admin:{model._meta.app_label}_{model._meta.model_name}"
        urls = [reverse(f"{name}_changelist")]
        obj = model_admin.get_queryset(request).first()
        if obj is not None:
            urls.append(reverse(f"{name}_change", args=[obj.pk]))
        for url in urls:
            for query in ("", "?q=x", "?o=1", "?turn=1", f"?campaign__id__exact={demo_campaign.pk}"):
                status = client.get(url + query).status_code
                opened += 1
                if status >= 500 or status == 403:
                    failures.append(f"{url}{query}: {status}")
    assert opened > 20 and not failures, failures
