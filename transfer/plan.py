"""The import's plan: the document read into unsaved model instances, their references
resolved by natural key, ready for the writer."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .campaign_models import (
    Army,
    Campaign,
    Email,
    Kingdom,
    Province,
    ReportPreferences,
)


@dataclass
class EmailPlan:
    """An email (a ReportEmail for a report's), and its key as the document names it: the prefix,
    the planned row whose id the key holds once it exists, the text after the id (None: no key)."""

    email: Email
    key: tuple[str, Any, str] | None = None


@dataclass
class Plan:
    """The document read into unsaved model instances, their references resolved by natural key.

    Relations point at the unsaved instances themselves; Django fills in the ids when the
    writer creates the rows in dependency order."""

    campaign: Campaign | None = None
    organizer: str = ""
    users: dict[str, Any] = field(default_factory=dict)  # username -> existing or unsaved user
    # The report preferences of the accounts the import creates (an existing account keeps its own).
    preferences: list[ReportPreferences] = field(default_factory=list)
    provinces: dict[int, Province] = field(default_factory=dict)
    # Provinces are created before kingdoms (a kingdom's capitol is a province), so their
    # controllers are set once the kingdoms exist.
    controllers: dict[int, str] = field(default_factory=dict)
    adjacency: set[tuple[int, int]] = field(default_factory=set)
    # The kingdoms by name, their armies by (kingdom name, army name), and the kingdoms' players by
    # username: what the document names them by (an army's units and characters are Reading.listed).
    kingdoms: dict[str, Kingdom] = field(default_factory=dict)
    armies: dict[tuple[str, str], Army] = field(default_factory=dict)
    players: set[str] = field(default_factory=set)
    # Every row the engine reads (transfer/layout.py), by its model's label, in the document's order,
    # and each one's many-to-many field with the rows it names.
    rows: dict[str, list[Any]] = field(default_factory=dict)
    # The rows of the layouts with a natural key (an email's key names them so), by layout (its id),
    # then by the key's values in its order.
    natural: dict[int, dict[tuple[Any, ...], Any]] = field(default_factory=dict)
    many_to_many: list[tuple[Any, str, list[Any]]] = field(default_factory=list)
    # Each JSON field that holds ids (transfer/references.py) as the document has it, names for ids:
    # (row, field, what its ids name, the JSON), written with the ids once the rows it names exist.
    translated: list[tuple[Any, str, Any, Any]] = field(default_factory=list)
    # Each field that holds a sheet's entries (Layout.entries) as the document has them: (row, field, entries).
    entries: list[tuple[Any, str, dict[str, Any]]] = field(default_factory=list)
    # Reconnaissance and Sabotage: in the document's order (sheets name them by place).
    emails: list[EmailPlan] = field(default_factory=list)
    # Who changed deadlines, submitted sheets, ruled battles or was sent a report: users the
    # document must keep.
    actors: set[str] = field(default_factory=set)
