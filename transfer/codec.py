"""How one layout's rows are written and read, decided once per layout from the Layout and its
model's fields (`_meta`): the export encodes each row by it (export.py), the import decodes each
object by it (reading.py). Nothing here is worked out again for each row."""

from __future__ import annotations

from functools import cache

from django.db import models

from .campaign_models import User
from .kinds import Kind, bytes_text, of_version, time_text
from .layout import ALLIANCES, BATTLES, CAPTIVES, MISSION_EFFECTS, Layout, as_text
from .references import (
    ALLIANCE,
    ARMY,
    BATTLE,
    CAPTIVE_PLACE,
    CHARACTER,
    DROPPED,
    EFFECT_PLACE,
    EMAIL_KEY_ID,
    KINGDOM,
    PROVINCE,
    REPORT,
    STREAM_ID,
    TURN,
    UNIT,
    USERNAME,
)

# How each kind of reference is named both ways: by the method of export.py's _Names that encodes a
# row's id and the method of reading.py's Reading that decodes the document's value back into the
# row; or, for a row named by its place in a list of the document, that list's layout (both sides'
# `placed`: the export's place among the rows written, the import's among the rows read).
NAMING: dict[str, tuple[str, str] | Layout] = {
    USERNAME: ("", "actor"),  # the export reads a username by a join (Codec.columns)
    PROVINCE: ("province", "province"),
    KINGDOM: ("kingdom", "kingdom_named"),
    ARMY: ("army", "army_named"),
    CHARACTER: ("character", "character_named"),  # by his unit
    UNIT: ("unit", "bearer"),
    TURN: ("turn", "turn_numbered"),
    REPORT: ("report", "report"),
    STREAM_ID: ("stream", "stream"),
    EMAIL_KEY_ID: ("email_key", "email_key"),
    DROPPED: ("dropped", "dropped"),
    ALLIANCE: ALLIANCES,
    BATTLE: BATTLES,  # among the battles of the row's turn, written and read before its reports
    # The campaign's effects and captives are written and read first (export.campaign_export).
    EFFECT_PLACE: MISSION_EFFECTS,
    CAPTIVE_PLACE: CAPTIVES,
}


class Codec:
    """One layout's codec. The export reads the columns and converts only the few fields that need
    it (a reference by natural key, a time or bytes as text); every other value passes through as
    read. The import checks every key by its kind and names the rows the references name."""

    def __init__(self, layout: Layout) -> None:
        self.layout = layout
        written = layout.fields()
        fields = [f for f in written if not f.many_to_many]
        names = layout.names
        # The export's: the document's keys of the fields but many-to-many ones, the columns read for
        # them (a username by a join) and what the errors (Layout.what) name beyond them.
        self.keys = tuple(f.name for f in fields)
        self.columns = tuple(f"{f.name}__username" if names.get(f.name) == USERNAME else f.attname for f in fields)
        self.lookups = tuple(layout.what_lookups())
        # (key, how it names its row), but a username (read by a join); the keys that hold one.
        self.named = tuple((f.name, names[f.name]) for f in fields if names.get(f.name, USERNAME) != USERNAME)
        self.usernames = tuple(f.name for f in fields if names.get(f.name) == USERNAME)
        # A time as ISO 8601, bytes as base64.
        self.as_text = tuple(
            (f.name, bytes_text if isinstance(f, models.BinaryField) else time_text) for f in fields if as_text(f)
        )
        self.many = tuple(f for f in written if f.many_to_many)
        # The keys in the model's order, when a many-to-many field sits among them.
        self.order = tuple(f.name for f in written) if self.many else None
        # The import's: every key with its kind (retired ones too), those a document may lack, and
        # the fields read as they are (no reference, no JSON holding ids, no text).
        self.kinds: dict[str, Kind] = {**layout.keys(), **layout.retired}
        self.optional = (*layout.optional(), *layout.retired)
        special = {*layout.references, *layout.entries}
        self.own = tuple(f.name for f in written if not (f.is_relation or as_text(f) or f.name in special))
        # The references resolved as the row is read, and once every kingdom is read (Layout.late):
        # (key, how it names its row, whether its problems are reported at the row: the key that
        # names the row is named by its where already).
        labels = (layout.label,) if isinstance(layout.label, str) else layout.label or ()
        at_row = {*labels, *layout.named_at_row}
        self.now = tuple(
            (f.name, names[f.name], f.name in at_row) for f in fields if f.is_relation and f.name not in layout.late
        )
        self.late = tuple(
            (f.name, names[f.name], f.name in layout.named_at_row) for f in fields if f.name in layout.late
        )

    def kinds_of(self, version: int) -> dict[str, Kind]:
        """The keys as a document of `version` has them: without those added later."""
        return of_version(self.kinds, self.layout.added, version) if self.layout.added else self.kinds


_CODECS: dict[int, Codec] = {}


def codec(layout: Layout) -> Codec:
    """`layout`'s codec, made the first time it is asked for (the layouts are the module's constants)."""
    if id(layout) not in _CODECS:
        _CODECS[id(layout)] = Codec(layout)
    return _CODECS[id(layout)]


class Checked:
    """What the import's check of a model's rows (reading.Reading.instance) needs of its fields, worked
    out once per model rather than for each row."""

    def __init__(self, model: type[models.Model]) -> None:
        fields = model._meta.concrete_fields
        self.times = frozenset(f.name for f in fields if as_text(f))  # times and bytes, read from text
        # Not checked by the model: relations (the reader resolves them), a user's password (set unusable).
        self.unchecked = frozenset(f.name for f in fields if f.is_relation) | ({"password"} if model is User else set())
        self.json = tuple(f.name for f in fields if isinstance(f, models.JSONField))
        self.inherited = frozenset(f.name for f in fields if f.model is not model)  # a parent model's


@cache
def checked(model: type[models.Model]) -> Checked:
    return Checked(model)
