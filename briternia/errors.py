"""The one domain error: raised by services, shown to the user as it is."""

from __future__ import annotations

from typing import Any


class DomainError(Exception):
    """A request the rules or the campaign's state refuse. Carries every message for the user.

    Services raise it before writing anything (or inside the transaction that it rolls back),
    so a refused request changes nothing. `problems` optionally carries the same refusals in a
    structured form (a stable code, the ids they concern) for clients that place them, as the
    order sheet's check does; the messages stay the words for people.
    """

    def __init__(self, messages: str | list[str], *, problems: list[dict[str, Any]] | None = None):
        self.messages = [messages] if isinstance(messages, str) else list(messages)
        self.problems = list(problems or [])
        super().__init__("; ".join(self.messages))
