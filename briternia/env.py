"""Reading settings from the environment, failing loudly on bad values.

One helper for every setting, so a typo in production stops start-up with a message
instead of silently falling back to a development default.
"""

import os

from django.core.exceptions import ImproperlyConfigured

_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off", ""}


def env_str(name: str, default: str | None = None) -> str | None:
    """The variable's value, or `default` when it is unset or empty."""
    value = os.environ.get(name, "")
    return value if value != "" else default


def env_bool(name: str, default: bool) -> bool:
    """A boolean variable: 1/true/yes/on or 0/false/no/off; anything else is an error."""
    raw = os.environ.get(name)
    if raw is None:
        return default
    value = raw.strip().lower()
    if value in _TRUE:
        return True
    if value in _FALSE:
        return False
    raise ImproperlyConfigured(f"{name}={raw!r} is not a boolean (use 1/0, true/false, yes/no, on/off).")


def env_int(name: str, default: int) -> int:
    """An integer variable; a value that is not a whole number is an error."""
    raw = os.environ.get(name)
    if raw is None or raw.strip() == "":
        return default
    try:
        return int(raw)
    except ValueError as exc:
        raise ImproperlyConfigured(f"{name}={raw!r} is not a whole number.") from exc


def env_list(name: str, default: list[str]) -> list[str]:
    """A comma-separated list variable."""
    raw = os.environ.get(name)
    if raw is None or raw.strip() == "":
        return default
    return [item.strip() for item in raw.split(",") if item.strip()]
