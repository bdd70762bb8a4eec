"""The import's second half: the rows of a plan that read without problems, created parents
before children, with the times the document carries."""

from __future__ import annotations

from typing import Any, TypeVar

from django.db import models

from .campaign_models import (
    Campaign,
    Province,
    ReportPreferences,
)
from .layout import (
    ALLIANCES,
    CAPTIVES,
    DICE_ROLLS,
    EMAILS,
    KINGDOMS,
    MESSAGES,
    MISSION_EFFECTS,
    SCHEDULE,
    TURNS,
    Layout,
)
from .plan import Plan
from .references import (
    EMAIL_KEY_ID,
    STREAM_ID,
    Reference,
    email_key,
    stream_text,
    translated,
)
from .schema import ENTRY_REFERENCES

M = TypeVar("M", bound=models.Model)


def plan_write(plan: Plan, *, into: Campaign | None = None) -> Campaign:
    """Create the rows of `plan` (read without problems), parents before children; the campaign's
    own row is `into`'s, overwritten, when given (a snapshot restored: its id kept)."""
    campaign = plan.campaign
    assert campaign is not None  # a document without a readable campaign has problems
    _write_users(plan)
    campaign.organizer = plan.users[plan.organizer]
    if into is None:
        _create_keeping_times(Campaign, [campaign])
    else:
        campaign.pk = into.pk
        # The count of the world's changes only grows (the order sheets' kept worlds are keyed by it).
        campaign.world_version = into.world_version
        _create_one_by_one_keeping_times([campaign])  # saving a row with its id updates it
    _write_map(plan)
    _write_kingdoms(plan)
    # The turns with everything under them, then the emails that name their rows.
    _write_layouts(plan, (DICE_ROLLS, ALLIANCES, CAPTIVES, MISSION_EFFECTS, SCHEDULE, TURNS, EMAILS, MESSAGES))
    _write_emails(plan)  # a version 3 document's (the reports')
    return campaign


def _write_layouts(plan: Plan, layouts: tuple[Layout, ...]) -> None:
    """The rows the engine read (transfer/layout.py) of `layouts` and their children, parents first,
    in the document's order, with the times they carry."""
    for layout in (family for top in layouts for family in top.family()):
        rows = plan.rows.get(layout.model._meta.label, [])
        for row in rows:
            setattr(row, layout.parent, getattr(row, layout.parent))  # its parent's id, now that it exists
        for row, name, references, data in plan.translated:
            if type(row) is layout.model:
                value = _with_ids(data, references)
                field = layout.model._meta.get_field(name)
                # Null in the document for a field that holds none (an email without a key): its empty value.
                setattr(row, name, field.get_default() if value is None and not field.null else value)
        for row, name, entries in plan.entries:
            if type(row) is layout.model:
                setattr(row, name, _entries_with_ids(entries))
        if layout.model._meta.parents:
            # A child model's row (multi-table: a report's email), whose parent's row is written: its own
            # table's alone (bulk_create refuses such models).
            relations = [f.name for f in layout.model._meta.local_concrete_fields if f.is_relation]
            for row in rows:
                for name in relations:  # the ids of the rows named, now that they exist
                    setattr(row, name, getattr(row, name))
                row.save_base(raw=True, force_insert=True)
        else:
            _create_keeping_times(layout.model, rows)
        for field in (f for f in layout.fields() if f.many_to_many):
            through = field.remote_field.through
            source, target = field.m2m_field_name(), field.m2m_reverse_field_name()
            through.objects.bulk_create(
                through(**{f"{source}_id": row.pk, f"{target}_id": named.pk})
                for row, name, rows_named in plan.many_to_many
                if name == field.name and type(row) is layout.model
                for named in rows_named
            )


def _stamped(model: type[models.Model]) -> list[str]:
    """The fields auto_now or auto_now_add stamp with the time of the import on create."""
    return [
        f.name
        for f in model._meta.concrete_fields
        if getattr(f, "auto_now", False) or getattr(f, "auto_now_add", False)
    ]


def _create_keeping_times(model: type[M], rows: list[M]) -> None:
    """Create `rows` with the times they carry: auto_now and auto_now_add stamp the time of the
    import on create, and bulk_update writes the values as they are."""
    stamped = _stamped(model)
    stamps = [[getattr(row, name) for name in stamped] for row in rows]
    model._default_manager.bulk_create(rows)
    if not (rows and stamped):
        return
    for row, values in zip(rows, stamps, strict=True):
        for name, value in zip(stamped, values, strict=True):
            setattr(row, name, value)
    model._default_manager.bulk_update(rows, stamped)


def _create_one_by_one_keeping_times(rows: list[models.Model]) -> None:
    """Create `rows` one by one, in their order, with the times they carry: for models bulk_create
    refuses (multi-table inheritance: a reports.ReportEmail is an outbox.Email row and its own)."""
    for row in rows:
        model = type(row)
        stamps = {name: getattr(row, name) for name in _stamped(model)}
        row.save()
        if stamps:
            model._base_manager.filter(pk=row.pk).update(**stamps)


def _stored(reference: str, row: Any) -> Any:
    """A value of stored JSON as the reader resolved it (the row it names), as stored: its id, now that
    it exists; a stream or an email's key written again with it."""
    if reference == STREAM_ID:
        if isinstance(row, str):
            return row
        prefix, parts = row  # a province by number, the rows named
        return stream_text(prefix, tuple(getattr(part, "pk", part) for part in parts))
    if reference == EMAIL_KEY_ID:
        prefix, named, suffix = row
        return email_key(prefix, named.pk, suffix)
    return row.pk


def _entries_with_ids(entries: dict[str, Any]) -> dict[str, Any]:
    """Document entries back as stored: the ids of the rows just created for their names."""
    return {
        section: [
            {key: getattr(v, "pk", v) if key in ENTRY_REFERENCES else v for key, v in item.items()} for item in items
        ]
        for section, items in entries.items()
    }


def _with_ids(data: Any, references: Reference) -> Any:
    """Document JSON back as stored: the ids of the rows just created for their names."""
    return translated(data, references, lambda reference, row, key: _stored(reference, row))


def _write_users(plan: Plan) -> None:
    """The accounts the site does not have yet, with their report preferences."""
    for user in plan.users.values():
        if user.pk is None:
            user.save()
    ReportPreferences.objects.bulk_create(plan.preferences)


def _write_map(plan: Plan) -> None:
    for province in plan.provinces.values():
        province.controller = None  # a kingdom, created after the map: set then (_write_kingdoms)
    Province.objects.bulk_create(plan.provinces.values())
    Through = Province.neighbours.through
    Through.objects.bulk_create(
        # Stored both ways, as campaign_create stores a map's adjacency.
        Through(from_province_id=plan.provinces[a].pk, to_province_id=plan.provinces[b].pk)
        for pair in sorted(plan.adjacency)
        for a, b in (pair, pair[::-1])
    )


def _write_kingdoms(plan: Plan) -> None:
    """The kingdoms with their players, ledgers, armies, armories and Tomb Raiders (created after
    the provinces: a kingdom's capitol is a province), then the provinces they control."""
    _write_layouts(plan, (KINGDOMS,))
    for number, name in plan.controllers.items():
        plan.provinces[number].controller = plan.kingdoms[name]
    Province.objects.bulk_update([plan.provinces[number] for number in plan.controllers], ["controller"])


def _write_emails(plan: Plan) -> None:
    """A version 3 document's emails (the reports'), each key written with the id of its report, just
    created. One by one: a report's email is two rows (outbox.Email and reports.ReportEmail)."""
    for planned in plan.emails:
        if planned.key is not None:
            prefix, row, suffix = planned.key
            planned.email.key = email_key(prefix, row.pk, suffix)
    _create_one_by_one_keeping_times([planned.email for planned in plan.emails])
