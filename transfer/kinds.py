"""The JSON types a key of the document may hold: each with the check the import makes and the
reading of the JSON value into the field's value; and the text the export writes for times and bytes."""

from __future__ import annotations

import base64
import binascii
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from datetime import UTC, date, datetime, time
from typing import Any


@dataclass(frozen=True)
class Kind:
    """The JSON type a key must hold."""

    label: str
    accepts: Callable[[Any], bool]
    nullable: bool = False
    read: Callable[[Any], Any] = lambda value: value  # noqa: E731 - the JSON value to the Python value

    def or_null(self) -> Kind:
        return replace(self, label=f"{self.label} or null", nullable=True)


def is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_timestamp(value: Any) -> bool:
    if not isinstance(value, str):
        return False
    try:
        parsed = datetime.fromisoformat(value)
    except ValueError:
        return False
    return parsed.tzinfo is not None  # a naive time would be read in the server's zone


def _is_base64(value: Any) -> bool:
    if not isinstance(value, str):
        return False
    try:
        base64.b64decode(value, validate=True)
    except (binascii.Error, ValueError):
        return False
    return True


def _is_time_of_day(value: Any) -> bool:
    if not isinstance(value, str):
        return False
    try:
        parsed = time.fromisoformat(value)
    except ValueError:
        return False
    return parsed.tzinfo is None  # read in the campaign's time zone, as the schedule is


def _is_date(value: Any) -> bool:
    if not isinstance(value, str):
        return False
    try:
        date.fromisoformat(value)
    except ValueError:
        return False
    return len(value) == 10  # YYYY-MM-DD, as the export writes it


STR = Kind("a string", lambda v: isinstance(v, str))
INT = Kind("an integer", is_int)
NUMBER = Kind("a number", lambda v: is_int(v) or isinstance(v, float), read=float)
BOOL = Kind("true or false", lambda v: isinstance(v, bool))
LIST = Kind("a list", lambda v: isinstance(v, list))
OBJECT = Kind("an object", lambda v: isinstance(v, dict))
ANY = Kind("any JSON value", lambda v: True, nullable=True)
TIMESTAMP = Kind("an ISO 8601 time with its UTC offset", _is_timestamp, read=datetime.fromisoformat)
INT_LIST = Kind("a list of integers", lambda v: isinstance(v, list) and all(is_int(x) for x in v))
STR_LIST = Kind("a list of strings", lambda v: isinstance(v, list) and all(isinstance(x, str) for x in v))
TIME_OF_DAY = Kind("a time of day (HH:MM:SS)", _is_time_of_day, read=time.fromisoformat)
DATE = Kind("a date (YYYY-MM-DD)", _is_date, read=date.fromisoformat)
BASE64 = Kind("base64 text", _is_base64, read=lambda v: base64.b64decode(v, validate=True))
ARMY_KEY = Kind(
    "[kingdom name, army name]", lambda v: isinstance(v, list) and len(v) == 2 and all(isinstance(x, str) for x in v)
)


def text_of_at_most(length: int) -> Kind:
    """A string the column can hold: SQLite would keep a longer one, PostgreSQL refuse it only as the
    row is written, so the reader names the key instead (and every problem at once)."""
    return Kind(f"a string of at most {length} characters", lambda v: isinstance(v, str) and len(v) <= length)


def timestamp_text(value: datetime) -> str:
    # Always UTC, so the same instant is written the same way whatever the database returns.
    return value.astimezone(UTC).isoformat()


def time_text(value: datetime | date | time | None) -> str | None:
    if value is None:
        return None
    return timestamp_text(value) if isinstance(value, datetime) else value.isoformat()


def bytes_text(value: bytes | memoryview | None) -> str | None:
    """Bytes as base64 text (PostgreSQL returns a BinaryField as a memoryview, SQLite as bytes)."""
    return None if value is None else base64.b64encode(bytes(value)).decode("ascii")


def of_version(keys: Mapping[str, Kind], added: Mapping[str, int], version: int) -> dict[str, Kind]:
    """`keys` as a document of `version` has them: without those `added` with a later version."""
    return {key: kind for key, kind in keys.items() if added.get(key, 0) <= version}
