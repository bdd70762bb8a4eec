"""The import: a new campaign made from a document, read whole first (every problem collected),
then written in one transaction, or refused with nothing saved."""

from __future__ import annotations

from typing import Any

from django.db import DataError, IntegrityError, transaction

from briternia.errors import DomainError

from .campaign_models import Campaign
from .plan import Plan
from .reader import Reader
from .writer import plan_write


def campaign_plan_read(*, document: dict[str, Any]) -> Plan:
    """The document read into a plan of unsaved rows; DomainError lists every problem it has."""
    reader = Reader()
    reader.document(document)
    if reader.errors:
        raise DomainError(reader.errors)
    return reader.plan


def campaign_plan_write(*, plan: Plan, into: Campaign | None = None) -> Campaign:
    """Write a plan read without problems: a new campaign, or `into` (its row kept, its id and URL
    with it; its other rows must be gone: transfer/snapshots.py deletes them to restore a snapshot)."""
    try:
        with transaction.atomic():
            return plan_write(plan, into=into)
    except (IntegrityError, DataError) as error:
        # A constraint or a column's range the reader does not check: still refused as a whole, with
        # the reason.
        raise DomainError(f"The document breaks a rule of the database: {error}") from error


@transaction.atomic
def campaign_import(*, document: dict[str, Any]) -> Campaign:
    """A new campaign made from a document written by `campaign_export`, with all its rows.

    Users are matched by username: an existing account is reused as it is, a missing one is
    created with an unusable password (its owner sets one through "forgot password").
    Raises DomainError listing every problem of a malformed document; nothing is saved then.
    """
    return campaign_plan_write(plan=campaign_plan_read(document=document))
