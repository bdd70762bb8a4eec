"""A page's button runs one service: its refusal (a DomainError) or its success becomes the flash
messages of the next page. Shared by every app's views."""

from __future__ import annotations

from collections.abc import Callable

from django.contrib import messages
from django.http import HttpRequest

from .errors import DomainError


def flash_errors(request: HttpRequest, exc: DomainError) -> None:
    for message in exc.messages:
        messages.error(request, message)


def flash_outcome(request: HttpRequest, action: Callable[[], object], *, success: str) -> bool:
    """Run `action`; flash `success`, or every message of the DomainError it raised. True if it ran."""
    try:
        action()
    except DomainError as exc:
        flash_errors(request, exc)
        return False
    messages.success(request, success)
    return True
