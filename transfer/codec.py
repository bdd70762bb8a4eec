"""How one layout's rows are written and read, decided once per layout from the Layout and its
model's fields (`_meta`): the export encodes each row by it (export.py), the import decodes each
object by it (reading.py). Nothing here is worked out again for each row."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.db import models

from .kinds import Kind, bytes_text, of_version, time_text
from .layout import Layout, as_text
from .references import USERNAME


@dataclass(frozen=True)
class Codec:
    """One layout's codec. The export reads the columns and converts only the few fields that need
    it (a reference by natural key, a time or bytes as text); every other value passes through as
    read. The import checks every key by its kind and names the rows the references name."""

    layout: Layout
    keys: tuple[str, ...]  # the fields written but many-to-many ones, by name: the document's keys
    columns: tuple[str, ...]  # what the export reads for them (a username by a join)
    lookups: tuple[str, ...]  # what the export's errors (Layout.what) name beyond the row's own fields
    named: tuple[tuple[str, str], ...]  # (key, how it names its row), but a username (read by a join)
    usernames: tuple[str, ...]  # the keys that hold one
    as_text: tuple[tuple[str, Callable[[Any], Any]], ...]  # a time as ISO 8601, bytes as base64
    many: tuple[Any, ...]  # the many-to-many fields
    order: tuple[str, ...] | None  # the keys in the model's order, when a many-to-many field sits among them
    kinds: dict[str, Kind]  # every key the import reads with its kind, retired ones too
    optional: tuple[str, ...]  # the keys a document may lack
    own: tuple[str, ...]  # the fields read as they are: no reference, no JSON holding ids, no text
    # The references the import resolves as it reads the row, and once every kingdom is read
    # (Layout.late): (key, how it names its row, whether its problems are reported at the row).
    now: tuple[tuple[str, str, bool], ...]
    late: tuple[tuple[str, str, bool], ...]

    def kinds_of(self, version: int) -> dict[str, Kind]:
        """The keys as a document of `version` has them: without those added later."""
        return of_version(self.kinds, self.layout.added, version) if self.layout.added else self.kinds


_CODECS: dict[int, Codec] = {}


def codec(layout: Layout) -> Codec:
    """`layout`'s codec, made the first time it is asked for (the layouts are the module's constants)."""
    if id(layout) not in _CODECS:
        _CODECS[id(layout)] = _codec(layout)
    return _CODECS[id(layout)]


def _codec(layout: Layout) -> Codec:
    written = layout.fields()
    fields = [f for f in written if not f.many_to_many]
    many = tuple(f for f in written if f.many_to_many)
    names = layout.names
    labels = (layout.label,) if isinstance(layout.label, str) else layout.label or ()
    return Codec(
        layout=layout,
        keys=tuple(f.name for f in fields),
        columns=tuple(f"{f.name}__username" if names.get(f.name) == USERNAME else f.attname for f in fields),
        lookups=tuple(layout.what_lookups()),
        named=tuple((f.name, names[f.name]) for f in fields if names.get(f.name, USERNAME) != USERNAME),
        usernames=tuple(f.name for f in fields if names.get(f.name) == USERNAME),
        as_text=tuple((f.name, _text_of(f)) for f in fields if as_text(f)),
        many=many,
        order=tuple(f.name for f in written) if many else None,
        kinds={**layout.keys(), **layout.retired},
        optional=(*layout.optional(), *layout.retired),
        own=tuple(
            f.name
            for f in written
            if not (f.is_relation or as_text(f) or f.name in layout.references or f.name in layout.entries)
        ),
        # The key that names the row is named by its where already.
        now=tuple(
            (f.name, names[f.name], f.name in labels or f.name in layout.named_at_row)
            for f in fields
            if f.is_relation and f.name not in layout.late
        ),
        late=tuple(
            (f.name, names[f.name], f.name in layout.named_at_row)
            for f in fields
            if f.is_relation and f.name in layout.late
        ),
    )


def _text_of(field: models.Field) -> Callable[[Any], Any]:  # type: ignore[type-arg]
    """How a time or bytes field's value is written: ISO 8601, base64."""
    return bytes_text if isinstance(field, models.BinaryField) else time_text
