"""Every row of a campaign, read generically, for comparing two campaigns model by model.

Nothing here knows the document or the models of the apps: the rows of a campaign are those of
every model that a chain of foreign keys leads to kingdoms.Campaign (any app, any added later),
each made comparable: its database id left out, each foreign key replaced by the identity of the
row it points to (a natural key from the model's unique constraints, else that row's own
comparable form), a user by username, bytes by their digest. A model no chain of foreign keys
relates to a campaign must be listed in transfer/exceptions.py's NOT_CAMPAIGN_DATA, with the reason: so a new model
fails the comparison until the export carries it, or this list says why it need not.

Ids kept inside JSON fields and text are found generically too: `ids_set_apart` starts every
table's ids in a range of its own (ID_RANGE wide), so a number in a JSON value, or standing alone
between colons in a text (an email's key: "orders-receipt:<submission id>"), that falls in a
model's range and names one of its rows is that row's id, and compares as that row's identity. An
id the export forgot to translate then shows up as a row of the other campaign, and the comparison
fails.
"""

from __future__ import annotations

import hashlib
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from django.apps import apps
from django.contrib.auth import get_user_model
from django.db import connection, models

from kingdoms.models import Campaign
from transfer.exceptions import NOT_CAMPAIGN_DATA, NOT_COMPARED, NOT_IN_THE_DOCUMENT

User = get_user_model()

# Text fields that hold ids the document keeps as they are (compared as text, not as the rows they
# name), each with the reason. None since format version 5 (a dice roll's stream travels by
# natural key, transfer/references.py STREAM_REFERENCES).
IDS_IN_TEXT_KEPT: dict[str, str] = {}

ID_RANGE = 10_000_000


def all_models() -> list[type[models.Model]]:
    """Every model of every installed app, the many-to-many tables too, in a fixed order."""
    return sorted(apps.get_models(include_auto_created=True), key=lambda model: model._meta.label)


def _numbered_models() -> list[type[models.Model]]:
    return [model for model in all_models() if isinstance(model._meta.pk, models.AutoField)]


@contextmanager
def ids_set_apart() -> Iterator[None]:
    """Within the block, the rows each table creates get ids in a range of their own: model i of
    `_numbered_models` from (i + 1) * ID_RANGE. The tables' counters are put back afterwards."""
    tables = [(model._meta.db_table, model._meta.pk.column) for model in _numbered_models()]
    with connection.cursor() as cursor:
        if connection.vendor == "sqlite":
            cursor.execute("SELECT name, seq FROM sqlite_sequence")
            before = cursor.fetchall()
            cursor.execute("DELETE FROM sqlite_sequence")
            cursor.executemany(
                "INSERT INTO sqlite_sequence (name, seq) VALUES (%s, %s)",
                [(table, (index + 1) * ID_RANGE) for index, (table, _) in enumerate(tables)],
            )
        elif connection.vendor == "postgresql":
            before = []
            for index, (table, column) in enumerate(tables):
                cursor.execute("SELECT pg_get_serial_sequence(%s, %s)", [table, column])
                (sequence,) = cursor.fetchone()
                cursor.execute(f"SELECT last_value, is_called FROM {sequence}")
                before.append((sequence, *cursor.fetchone()))
                cursor.execute("SELECT setval(%s, %s)", [sequence, (index + 1) * ID_RANGE])
        else:
            raise NotImplementedError(f"ids_set_apart knows SQLite and PostgreSQL, not {connection.vendor}")
    try:
        yield
    finally:
        with connection.cursor() as cursor:
            if connection.vendor == "sqlite":
                cursor.execute("DELETE FROM sqlite_sequence")
                cursor.executemany("INSERT INTO sqlite_sequence (name, seq) VALUES (%s, %s)", before)
            else:
                for sequence, last_value, is_called in before:
                    cursor.execute("SELECT setval(%s, %s, %s)", [sequence, last_value, is_called])


def paths_to_campaign(model: type[models.Model], _through: frozenset[Any] = frozenset()) -> list[str]:
    """Every chain of foreign keys from `model` to a campaign, as a lookup ("turn__campaign"),
    never through the same model twice. A campaign's own chain is "pk"."""
    if model is Campaign:
        return ["pk"]
    found = []
    for field in model._meta.concrete_fields:
        target = field.related_model if field.is_relation else None
        if target is None or target in _through or target is model:
            continue
        for rest in paths_to_campaign(target, _through | {model}):
            found.append(field.name if rest == "pk" else f"{field.name}__{rest}")
    return found


def campaign_models() -> dict[str, list[str]]:
    """The models a campaign's rows are in, with their chains to it; the others are listed in
    NOT_CAMPAIGN_DATA (an error names a model that is neither, or both)."""
    related = {model._meta.label: paths_to_campaign(model) for model in all_models()}
    unexplained = sorted(label for label, paths in related.items() if not paths and label not in NOT_CAMPAIGN_DATA)
    assert not unexplained, f"Models neither related to a campaign nor listed in NOT_CAMPAIGN_DATA: {unexplained}"
    wrongly_listed = sorted(label for label in NOT_CAMPAIGN_DATA if related.get(label))
    assert not wrongly_listed, f"Listed in NOT_CAMPAIGN_DATA but related to a campaign: {wrongly_listed}"
    unknown = sorted(set(NOT_CAMPAIGN_DATA) - set(related))
    assert not unknown, f"Listed in NOT_CAMPAIGN_DATA but not a model: {unknown}"
    fields = {f"{label}.{f.name}" for label in related for f in apps.get_model(label)._meta.concrete_fields}
    unknown = sorted(set(IDS_IN_TEXT_KEPT) - fields)
    assert not unknown, f"Listed in IDS_IN_TEXT_KEPT but not a field: {unknown}"
    not_related = sorted(label for label in NOT_IN_THE_DOCUMENT if not related.get(label))
    assert not not_related, f"Listed in NOT_IN_THE_DOCUMENT but not related to a campaign: {not_related}"
    return {label: paths for label, paths in related.items() if paths and label not in NOT_IN_THE_DOCUMENT}


class CampaignRows:
    """The comparable rows of one campaign, by model label."""

    def __init__(self, campaign: Campaign) -> None:
        self.campaign = campaign
        self.by_range = {index + 1: model for index, model in enumerate(_numbered_models())}
        self.identities: dict[tuple[str, Any], Any] = {}
        self.resolving: set[tuple[str, Any]] = set()

    def all(self) -> dict[str, Counter[Any]]:
        rows: dict[str, Counter[Any]] = {}
        for label, paths in campaign_models().items():
            model = apps.get_model(label)
            ids: set[Any] = set()
            for path in paths:
                ids |= set(model._base_manager.filter(**{path: self.campaign.pk}).values_list("pk", flat=True))
            rows[label] = Counter(self.row(row) for row in model._base_manager.filter(pk__in=ids))
        return rows

    def row(self, instance: models.Model) -> tuple[Any, ...]:
        """The row's fields, but its own auto id: references as identities, bytes as digests."""
        return tuple(
            (field.name, self.value(instance, field))
            for field in instance._meta.concrete_fields
            if not (field.primary_key and isinstance(field, models.AutoField))
            and f"{instance._meta.label}.{field.name}" not in NOT_COMPARED
        )

    def value(self, instance: models.Model, field: models.Field) -> Any:  # type: ignore[type-arg]
        raw = getattr(instance, field.attname)
        if raw is None:
            return None
        if field.is_relation:
            return self.identity(field.related_model, raw)
        if isinstance(field, models.BinaryField):
            return ("bytes", hashlib.sha256(bytes(raw)).hexdigest())
        if isinstance(field, models.JSONField):
            return self.json(raw)
        if isinstance(raw, str):
            return raw if f"{instance._meta.label}.{field.name}" in IDS_IN_TEXT_KEPT else self.text(raw)
        return raw

    def json(self, value: Any) -> Any:
        if isinstance(value, dict):
            return ("{}", tuple(sorted(((self.json_key(k), self.json(v)) for k, v in value.items()), key=repr)))
        if isinstance(value, list):
            return tuple(self.json(item) for item in value)
        if isinstance(value, int) and not isinstance(value, bool):
            return self.maybe_id(value)
        if isinstance(value, str):
            return self.text(value)
        return value

    def text(self, value: str) -> Any:
        """Text with its ids as the rows they name: a number standing alone between colons (an
        email's key, "orders-receipt:<id>", "report:<id>:<address>") in a model's range of ids."""
        segments = value.split(":")
        if len(segments) == 1:
            return value
        found = []
        for segment in segments:
            number = int(segment) if segment.isascii() and segment.isdigit() else None
            named = None if number is None else self.maybe_id(number)
            found.append(segment if named is None or named == number else named)
        return value if found == segments else ("text with ids", tuple(found))

    def json_key(self, key: str) -> Any:
        return self.maybe_id(int(key)) if key.isdigit() else key

    def maybe_id(self, number: int) -> Any:
        """A number in a model's range of ids is that model's id (see ids_set_apart)."""
        model = self.by_range.get(number // ID_RANGE)
        if model is None or number % ID_RANGE == 0:
            return number
        if not model._base_manager.filter(pk=number).exists():
            return ("an id of no row", model._meta.label, number)
        return self.identity(model, number)

    def identity(self, model: type[models.Model], pk: Any) -> Any:
        """What a reference to this row compares as: the campaign itself, a user's username, the
        row's natural key (its first unique set of fields with no null), else its whole row."""
        if model is Campaign:
            return "this campaign" if pk == self.campaign.pk else ("another campaign", pk)
        if model is User:
            return ("user", model._base_manager.get(pk=pk).get_username())
        key = (model._meta.label, pk)
        if key in self.identities:
            return self.identities[key]
        assert key not in self.resolving, f"{key}: rows that refer to each other have no natural key"
        self.resolving.add(key)
        instance = model._base_manager.get(pk=pk)
        for names in _unique_sets(model):
            fields = [model._meta.get_field(name) for name in names]
            if all(getattr(instance, field.attname) is not None for field in fields):
                identity = (model._meta.label, tuple((f.name, self.value(instance, f)) for f in fields))
                break
        else:
            identity = (model._meta.label, self.row(instance))
        self.resolving.discard(key)
        self.identities[key] = identity
        return identity


def _unique_sets(model: type[models.Model]) -> list[tuple[str, ...]]:
    """The model's unique sets of fields: unique fields, then unconditional unique constraints."""
    sets = [(f.name,) for f in model._meta.concrete_fields if f.unique and not f.primary_key]
    sets += [
        tuple(constraint.fields)
        for constraint in model._meta.constraints
        if isinstance(constraint, models.UniqueConstraint) and constraint.fields and constraint.condition is None
    ]
    sets += [tuple(names) for names in model._meta.unique_together]
    return sets


def differences(original: dict[str, Counter[Any]], copy: dict[str, Counter[Any]]) -> dict[str, Any]:
    """Model by model, the rows only one campaign has (at most three of each side, and counts)."""
    found = {}
    for label in sorted(set(original) | set(copy)):
        only_original = original.get(label, Counter()) - copy.get(label, Counter())
        only_copy = copy.get(label, Counter()) - original.get(label, Counter())
        if only_original or only_copy:
            found[label] = {
                "only in the original": (sum(only_original.values()), list(only_original)[:3]),
                "only in the copy": (sum(only_copy.values()), list(only_copy)[:3]),
            }
    return found
