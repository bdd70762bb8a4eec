"""The turn summary sheet as text, and a summary sheet filed from text (Appendix: Turn Summary Sheet)."""

from __future__ import annotations

from collections.abc import Sequence

from django.contrib.auth.models import AbstractBaseUser

from orders.services.sheet_text import TextFiling


def summary_sheet_text_file(
    *, user: AbstractBaseUser, header: dict[str, str], text: str, subject: str = "", notes: Sequence[str] = ()
) -> TextFiling:
    return TextFiling(
        accepted=False, subject="Turn summary sheet", lines=["Not yet filed by email.", *notes], email=None
    )
