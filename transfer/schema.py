"""The document's shape: its format and version, the keys of each object with the JSON type
each holds (the import checks every one), and which keys hold a model's own fields as they are.

The module docstring of transfer/__init__.py describes the document as a whole. The versions:
1, the world (campaign, users, provinces, kingdoms, dice rolls); 2, the orders ("schedule",
"turns"); 3, the reports (a turn's "map" and "reports", the users' "report_preferences") and the
reports' emails (EMAIL_V3_KEYS: one address each, nothing rendered kept); 4, every email of the
campaign as the outbox keeps it (layout.py EMAILS, its key by the row it names: EMAIL_KEY_ROWS); 5, a
dice roll's stream that holds ids written with natural keys (STREAM_KEYS); 6, the ids an event's data
and an effect's data hold that version 5 kept as its site wrote them (references.py, Since) named by
natural key, or null for those nothing reads (references.DROPPED). Every earlier version is still
read. The models' keys are layout.py's; what is left here is the document's top level, the users'
(accounts are the site's, not a campaign's), the objects inside JSON and version 3's emails.

Version 5 is a version, not a compatible change within 4: a version 4 reader would take such a
stream for a string it keeps as written, or refuse the object, so it must refuse the document. So is
6: a version 5 reader would keep a kingdom's name where its data held an id, or a place for an
effect's id; a version 6 reader keeps a version 5 document's ids there as written (a snapshot taken
before restores into its own database, where they still name their rows).
"""

from __future__ import annotations

from orders import entries as codec

from .kinds import (
    ARMY_KEY,
    BOOL,
    INT,
    INT_LIST,
    LIST,
    OBJECT,
    STR,
    TIMESTAMP,
    Kind,
)
from .layout import CAMPAIGN, DOCUMENT, Layout
from .references import (
    ARMY,
    CAPTIVE_PLACE,
    CHARACTER,
    EFFECT_PLACE,
    KINGDOM,
    PROVINCE,
    REFERENCE_KINDS,
    STREAM_REFERENCES,
)

FORMAT = "briternia-campaign"
VERSION = 6
READABLE_VERSIONS = (1, 2, 3, 4, 5, 6)

# A unit (an item's bearer, a character's unit) by its army's key and its place in the army's list.
BEARER_KEYS = {"kingdom": STR, "army": STR, "unit": INT}
# A dice roll's stream (what it rolled for, seeding its dice) is written as it is, but for the
# streams that hold ids (references.STREAM_REFERENCES): an object with the prefix and, by its keys
# below, the kingdom by name, the army by [kingdom name, army name], the province by number; the
# import writes the stream again with the ids of the rows it creates. Since version 5: an older
# document's streams are all strings (the reader translates those it can, references.py).
# A stream's parts (references.STREAM_REFERENCES) as the document names them; an army null for a
# Reconnaissance or Sabotage's skirmish ("scenario:<province>:None": no attacker army, issue 32).
STREAM_PART_KINDS = {PROVINCE: INT, KINGDOM: STR, ARMY: ARMY_KEY.or_null()}
STREAM_KEYS: dict[str, dict[str, Kind]] = {
    prefix: {"prefix": STR, **{part: STREAM_PART_KINDS[part] for part in parts}}
    for prefix, parts in STREAM_REFERENCES.items()
}
# An email's key (queuing twice sends once) holds the id of the row the email was queued for:
# "<prefix>:<id>", and a report's email the address after it (":<address>"). The document holds
# the prefix, that row by its natural key and the text after the id; the import writes the key
# again with the id of the row it created (references.py: email_key_parts). Null: no key (an
# invitation). The prefixes and the rows they name: layout.py EMAIL_KEY_ROWS.
EMAIL_KEY_KEYS = {"prefix": STR, "row": OBJECT, "suffix": STR}
# Version 3's "emails" were the reports' emails alone, one address each (read into the shape above).
EMAIL_V3_KEYS = {
    "report": OBJECT,
    "user": STR.or_null(),
    "to": STR,
    "attach_pdf": BOOL,
    "status": STR,
    "attempts": INT,
    "last_error": STR,
    "created_at": TIMESTAMP,
    "claimed_at": TIMESTAMP.or_null(),
    "sent_at": TIMESTAMP.or_null(),
}
# An order sheet's entries, as the sheet's codec writes them (orders/entries.py: its SECTIONS, read
# from the records), but for the references (ENTRY_REFERENCES): an army by [kingdom name, army name], a
# kingdom by its name, a character by his unit, an effect or a captive by its place in the document's
# "mission_effects" or "captives". A section may be missing (a sheet never saved by the services holds
# {}); the objects in a section have all their keys but ENTRY_OPTIONAL_KEYS. Sections were added within
# version 5: purchases (issue 14, Spending Experience), alliances, alliance_ends, gold_transfers,
# item_transfers, land_deals and capitol_moves (issue 15), missions (issue 31), mission_uses and
# captive_orders (issue 32): a sheet written before has none.
ENTRY_KINDS = {
    codec.INT: INT,
    codec.INT_OR_NULL: INT.or_null(),
    codec.STR: STR,
    codec.BOOL: BOOL,
    codec.INT_LIST: INT_LIST,
}
# The entries' keys that hold ids, by key, with what they name.
ENTRY_REFERENCES = {
    "army": ARMY,
    "kingdom": KINGDOM,
    # Reconnaissance and Sabotage (issue 32): the rival a mission is sent against, the effect used, the
    # captive whose fate is given.
    "target_kingdom": KINGDOM,
    "target_army": ARMY,
    "target_character": CHARACTER,
    "effect": EFFECT_PLACE,
    "captive": CAPTIVE_PLACE,
}


def _entry_kind(field: codec.EntryField) -> Kind:
    reference = ENTRY_REFERENCES.get(field.name)
    if reference is None:
        return ENTRY_KINDS[field.kind]
    kind = REFERENCE_KINDS[reference]
    return kind.or_null() if field.kind == codec.INT_OR_NULL else kind


ENTRY_SECTIONS = {section.name: {f.name: _entry_kind(f) for f in section.fields} for section in codec.SECTIONS.values()}
ENTRIES_KEYS = dict.fromkeys(ENTRY_SECTIONS, LIST)
# Added within version 5 (who defends a town, city or capitol: Battle for Towns, Cities, and
# Capitols): a sheet written before it is still read, and means the army defends.
# The same for an army taking an ally's province (Allies, Invasion: issue 15), and for a mission's
# rival, desired mission, army and character (Reconnaissance and Sabotage, issue 32).
ENTRY_OPTIONAL_KEYS: dict[str, tuple[str, ...]] = {
    "orders": ("defend_with", "take_control"),
    "missions": ("target_kingdom", "desired", "target_army", "target_character"),
}


def _top_kind(layout: Layout | None) -> Kind:
    if layout is None:
        return LIST  # the adjacency: pairs of province numbers
    if not layout.single:
        return LIST
    return OBJECT if layout is CAMPAIGN else OBJECT.or_null()


TOP_KEYS = {"format": STR, "version": INT} | {
    ("adjacency" if layout is None else layout.key): _top_kind(layout) for layout in DOCUMENT
}
# Added within version 5 (issue 15, Allies): a document written before has no alliances.
# And within version 5 (issue 32, Reconnaissance and Sabotage): the effects earned and the Tomb
# Raiders captured; a document written before has none.
# And with issue 37 (diplomacy): the messages between kingdoms; a document written before has none.
TOP_OPTIONAL_KEYS = ("alliances", "mission_effects", "captives", "messages")
# The keys added with a version, by key: a document of an earlier version has none of them, and they
# are refused there rather than ignored (kinds.of_version; a layout's own: Layout.added).
TOP_ADDED = {"schedule": 2, "turns": 2, "emails": 3}
