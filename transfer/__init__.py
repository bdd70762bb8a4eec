"""A whole campaign as one JSON document, and back again as a new campaign.

The document names everything by natural keys, never by database ids, so it can be read,
diffed and imported into another database:

- users by username (with email, first and last name, and their report preferences);
- provinces by number; kingdoms by name; armies by (kingdom name, army name);
- units by their place in their army's "units" list (0-based; the list is in the army's own
  order, `position` then creation, so the place equals `position` for lists the services saved);
- battles by their place in their turn's "battles" list (by province number, then creation);
- reports by their turn, kind and kingdom name or battle place;
- order submissions by their turn, kingdom and place in their sheet's list, deadline changes by
  their turn and place in its list, reminders by their turn and kingdom (an email's key names them).

Top-level keys: "format", "version", "campaign", "users", "provinces", "adjacency",
"kingdoms" (each with its "treasury" ledger, "armies" with their "movements" and "units" with
their "character", and its "armory"), "dice_rolls", and the orders app's "schedule" (null when
the campaign has none yet) and "turns" (each with its "deadline_changes", its "sheets" by
kingdom name with their "submissions", its "reminders", and what its resolution recorded: its
"events" in sequence order and its "battles" by province number, each with its "supports"
and "summary_sheets"; and what the end of the turn made of it: the public "map" it ended with
and its "reports", the kingdoms' reports, the bulletin and the battles' scenario sheets, each with
its PDF), and the "emails": every email of the campaign (outbox.Email: invitations, receipts,
announcements, orders and results reminders, the reports'), in the order they were queued, each as
it was rendered (subject, text, HTML, attachment) and as far as its delivery went (status, tries,
last error, times); a report's email (reports.ReportEmail) names its report, its reader and
whether the PDF was attached; and the "alliances" (Allies: each by its two kingdoms' names, its
trust level, the turns it was formed and ended, how and by whom; a version 5 document written before
them has none, and sheets' "alliances" and "alliance_ends" name a kingdom by name).
Reconnaissance and Sabotage (issue 32, within version 5: a document written before has none) add the
"mission_effects" (each effect earned by its kingdom and target by name, the army and character it
names by army key and by the character's unit, its status and turns; in the order earned) and the
"captives" (each Tomb Raider model captured, by captor and owner name, with the entry's record; in the
order captured). A sheet names an effect (mission_uses[].effect) or a captive
(captive_orders[].captive) by its place in these lists, and a mission's rival, army and character
(missions[].target_kingdom, target_army, target_character) like any other kingdom, army and character.
A rival mission's battle has no attacker army (null), its "mission_detail" names its target army and
character by their keys, and its scenario's stream names no army ("army": null).
Timestamps are ISO 8601 strings in UTC, times of day "HH:MM:SS", bytes (a report's PDF, the
map's picture, an email's attachment) base64; whoever changed a deadline, submitted a sheet or was
sent a report is named by username (null once the account is gone).

An email's key (queuing twice sends once) holds the id of the row the email was queued for
("orders-receipt:<submission id>", "report:<report id>:<address>"): the document holds its prefix,
that row by natural key and the text after the id, and the import writes the key again with the
id of the row it creates, so the copy's keys name the copy's rows and never clash with the keys of
the campaign it came from (imported beside it). A key of another shape, or naming a row outside
the campaign, stops the export. What an email says is kept as it was written: the links in its
text and HTML name the pages (ids) of the site and campaign it was written for, and an email the
copy has not sent yet (queued) is sent by the importing site's deadline sweep.

A dice roll's stream names what it rolled for and is kept as written ("home-selection",
"turn-resolution", ...), but for the two kinds that hold ids (references.STREAM_REFERENCES):
"warlord-free-roll:<kingdom id>" is {"prefix": "warlord-free-roll", "kingdom": <name>} in the
document and "scenario:<province>:<attacker army id>" {"prefix": "scenario", "province": <number>,
"army": [kingdom name, army name]} (schema.STREAM_KEYS); the import writes them again with the ids
of the rows it creates, so the copy's streams name the copy's kingdoms and armies. Such a stream
naming a row outside the campaign stops the export.

A user's report preferences (kingdoms.ReportPreferences) are the account's, not the campaign's:
they travel in the user's object, and the import gives them to the accounts it creates; an
existing account is reused as it is, its own preferences kept.

An order sheet's "entries" are written as the sheet's one codec writes them (orders/entries.py:
every part, every key; the import's keys for them, schema.ENTRY_SECTIONS, are read from its
SECTIONS), but for the armies and kingdoms they name (orders[].army, upgrades[].army, ...,
gold_transfers[].kingdom, ...): database ids there, [kingdom name, army name] and the kingdom's
name in the document, like a dice roll's armies. Stored entries the codec cannot read stop the
export, naming the sheet and the field. The import keeps a document's entries as written (an
older sheet without a later key stays without it; the codec reads it with the record's default).
The province numbers in entries are kept as written, valid or not: a draft may hold any number,
and the sheet check reports it.

A turn event's "data", a battle's "guerrilla" and "mission_detail", an effect's "data" and a report's
"snapshot" are kept as they are too, but for the values that hold ids (references.py: the keys the
resolution, the services and the reports write): a kingdom name, [kingdom name, army name], a
character's unit, an effect's or captive's place in the document's lists; null for an id nothing
reads whose row the document names by no key there (references.DROPPED: a delivery, a turn summary
sheet, the Battle id the aftermath writes). Province numbers there (an event's "province",
data["battle"] outside the aftermath, data["path"]) stay as they are. tests/transfer/
test_event_data_ids.py reads the code for every key an event's data may hold and holds each to
those tables or to its list of plain data.

Version 2 added "schedule" and "turns". A version 1 document (written before) is still read,
as a campaign without a schedule or turns. A turn's "events" and "battles" came later within
version 2 and are optional: a turn without them is read as one without events or battles.
Version 3 added the reports: a turn's "map" and "reports", the users' "report_preferences" and
the "emails". A version 2 document is still read, as a campaign whose turns have no reports.
Version 4 made the "emails" every email of the campaign (version 3's were the reports' alone, each
to one address, with no text kept). A version 3 document's emails are read as the site's own
migration carried such rows into the outbox (reports/migrations/0002): an email of its report's
kind and turn, keyed by the copy's report and its address, with no subject or text yet; a ready
report with an email not sent yet is left for the deadline sweep to render and send it (its
"emails_queued_at" cleared).
Version 5 wrote the streams that hold ids by natural key (above). Before, they held the ids of
the site the document came from: the import translates a Warlord's free roll's by the roll's one
kingdom ("kingdoms") and a scenario's by the attacker of the one battle of the roll's turn in its
province, and keeps any other as written, naming ids of no row of the copy (its export then
refuses it).
Version 6 named the ids an event's or an effect's data held that version 5 kept as its site wrote
them (references.py, Since: a land deal's other kingdom, the Rogue Kingdom entered, the armies on a
Tomb Raid, the effects used, an Intelligence's character and armies, a purchase's army, ...), or
wrote null for those nothing reads. A version 5 document holds its site's ids there, read as written
(a snapshot taken before restores into its own database, where its kingdoms' and armies' still name
their rows); such an id naming no row of the campaign is written null by the export.

Every list is in a fixed order (the models' own orderings, ties broken by creation), so
exporting the same campaign twice gives the same JSON; the import creates rows in document
order, so exporting an imported campaign gives back the document it came from.

The package, by concern: kinds.py (the JSON types a key may hold), layout.py (the engine's
models: each one's keys and kinds derived from its fields, where its rows sit, how it names what
it refers to and its natural key), schema.py (format, version, the top level's and the users' keys,
the objects inside JSON and version 3's emails), exceptions.py (what the document
deliberately leaves out, with the reasons), references.py (ids kept inside stored JSON and their
names in the document), campaign_models.py (every model the document carries, imported once),
export.py (campaign_export: the engine's rows, one query per model; the users and the adjacency by
hand), and the import: reader.py (the document's sections into a plan of unsaved rows,
every problem collected) on reading.py (checking an object key by key, the engine's rows among
them, finding what it names by natural key), plan.py, writer.py (the plan into rows) and
importer.py (campaign_import: read, then write or refuse). The commands export_campaign and
import_campaign are in management/commands.
"""
