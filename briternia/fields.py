"""The one integer field of every form and serializer: ASCII digits only, bounded by its column.

Python's int() reads "٣" (an Arabic-Indic three) and "1_000" as numbers, and an unbounded field
let 2**31 reach an integer column (a 500 on PostgreSQL). A player types 0-9, so a field takes
those only and says so; a field declares its rule's bounds, and one that declares none is bounded
by the column every integer lands in (a signed 32-bit integer on every database)."""

from __future__ import annotations

import re
from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from rest_framework import serializers

COLUMN_MIN = -(2**31)
COLUMN_MAX = 2**31 - 1
ASCII_INTEGER = re.compile(r"[+-]?[0-9]+")
DIGITS_MESSAGE = "Enter a whole number in the digits 0-9 (a minus sign in front for a negative one)."


def is_ascii_digits(value: Any) -> bool:
    """Whether `value` (an int, or text) is a whole number >= 0 written in 0-9 ("٣" and "²" are
    not: str.isdigit() says they are, and int("²") raised)."""
    text = str(value if value is not None else "")
    return text.isascii() and text.isdigit()


def ascii_int(value: Any) -> Any:
    """`value` as an int when it is text of ASCII digits (an optional sign), else ValueError; other
    values (an int from JSON) pass as they are for the field to judge."""
    if isinstance(value, str):
        text = value.strip()
        if not ASCII_INTEGER.fullmatch(text):
            raise ValueError(DIGITS_MESSAGE)
        return int(text)
    return value


def _bounds(kwargs: dict[str, Any]) -> dict[str, Any]:
    if kwargs.get("min_value") is None:
        kwargs["min_value"] = COLUMN_MIN
    if kwargs.get("max_value") is None:
        kwargs["max_value"] = COLUMN_MAX
    return kwargs


class IntegerField(forms.IntegerField):
    """A form's integer: ASCII digits only, bounded (its own bounds, else the column's)."""

    def __init__(self, **kwargs: Any):
        super().__init__(**_bounds(kwargs))

    def to_python(self, value: Any) -> int | None:
        if isinstance(value, str) and value.strip() and not ASCII_INTEGER.fullmatch(value.strip()):
            raise ValidationError(DIGITS_MESSAGE, code="invalid")
        return super().to_python(value)


class IntegerSerializerField(serializers.IntegerField):
    """A serializer's integer: ASCII digits only, bounded (its own bounds, else the column's)."""

    def __init__(self, **kwargs: Any):
        if not kwargs.get("read_only"):
            _bounds(kwargs)
        super().__init__(**kwargs)

    def to_internal_value(self, data: Any) -> int:
        if isinstance(data, str) and not ASCII_INTEGER.fullmatch(data.strip()):
            raise serializers.ValidationError(DIGITS_MESSAGE, code="invalid")
        return super().to_internal_value(data)


def address_problem(email: str) -> str | None:
    """What is wrong with `email` as the one address the product stores or sends to, or None: one
    address (no comma, no second @), no line break (no header smuggled into a message), no longer
    than a column holds (254, EmailField's). Django's own validator, for the site and the API alike."""
    try:
        validate_email(email)
    except ValidationError:
        return f"'{email[:60]}' is not an email address."
    return None


def list_bound(field: str, most: int, what: str) -> dict[str, Any]:
    """A list input's bound, as a list field's (or `many=True` serializer's) keyword arguments: at
    most `most` entries, refused before any entry is read (a sheet of 3,000 rows was read row by row
    and answered with an error for each) with a message naming the field and saying why."""
    return {
        "max_length": most,
        "error_messages": {
            "max_length": f"{field}: at most {most:,} entries ({what}); this list has more. Nothing was saved."
        },
    }
