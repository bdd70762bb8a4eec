"""How a person is named to others: their display name, never their email address."""

from __future__ import annotations

from typing import Any

DISPLAY_NAME_MAX = 150  # the column it is kept in (User.first_name)


def display_name(user: Any) -> str:
    """The name a player chose (kept as the account's first name), else a login name that is not an
    email address, else "Player <id>": an address is never shown to another player."""
    if user is None:
        return "-"
    chosen = (getattr(user, "first_name", "") or "").strip()
    if chosen:
        return chosen
    login = user.get_username()
    return login if "@" not in login else f"Player {user.pk}"


def invited_display_name(kingdom_name: str) -> str:
    """What an invited player is called until they choose: derived from their kingdom, not their address."""
    return f"Player of {kingdom_name.strip()}"[:DISPLAY_NAME_MAX]


def display_name_key(name: str) -> str:
    """What makes two display names the same to a reader: case and spaces aside ("Bob", " bob ",
    "B ob"), so one player cannot pass for another."""
    return "".join(name.split()).casefold()
