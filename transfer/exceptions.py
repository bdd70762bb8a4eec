"""What the document deliberately does not carry, each with its reason: declared once, here.

Every model that a chain of foreign keys relates to a campaign travels in the document, every
concrete field of it (tests/transfer/test_every_field.py fills each with a value other than its
default, exports, imports and compares row for row; tests/transfer/rows.py finds the models).
What is left out is named below, and nowhere else:

- NOT_CAMPAIGN_DATA: models no chain relates to a campaign (the site's, the accounts');
- NOT_IN_THE_DOCUMENT: models related to a campaign whose rows are not its state (the safeguards'
  records, the transport's log), which an export leaves out and a restore must not replace;
- NOT_COMPARED: fields carried, but not equal after an import by design.
"""

from __future__ import annotations

# Models that hold no campaign's data, each with the reason.
NOT_CAMPAIGN_DATA: dict[str, str] = {
    "admin.LogEntry": "the admin's log of edits",
    "auth.Group": "permission groups of the site",
    "auth.Group_permissions": "permission groups of the site",
    "auth.Permission": "permissions of the site",
    "auth.User": "accounts are the site's, shared by campaigns: a campaign's rows name them by username",
    "auth.User_groups": "an account's permissions",
    "auth.User_user_permissions": "an account's permissions",
    "contenttypes.ContentType": "the site's table of models",
    "sessions.Session": "logins",
    "authtoken.Token": "an account's API token: the site's, not a campaign's",
    "authtoken.TokenProxy": "the admin's view of the API tokens",
    "axes.AccessAttempt": "the site's failed logins (django-axes' lockout), by username and address",
    "axes.AccessAttemptExpiration": "when a failed login stops counting (django-axes)",
    "axes.AccessFailureLog": "the site's log of failed logins (django-axes)",
    "axes.AccessLog": "the site's log of logins (django-axes)",
    "kingdoms.PlayerMailSecret": (
        "the secret of a player's orders address: a credential of the account, like its API token, never "
        "written into a document the organizer downloads"
    ),
    "turns.SweepRecord": "the site's deadline sweep, shared by every campaign (the health endpoint reads it)",
    "kingdoms.ReportPreferences": (
        "a user's own settings: they travel with the account in the document's users, and the import gives "
        "them to the accounts it creates (tests/transfer/test_importer.py)"
    ),
}

# Models related to a campaign whose rows are not its state and do not travel in its document, each
# with the reason: the safeguards' records, which a restore (transfer/snapshots.py) must not replace.
NOT_IN_THE_DOCUMENT: dict[str, str] = {
    "inbox.InboundMessage": (
        "the transport's record of the mail received (issue 36), the site's log like the deadline sweep's: "
        "what a mail filed travels as its order sheet, submission and answer email; a restore must not "
        "forget which Message-IDs were processed, or a replayed mail would be filed again"
    ),
    "transfer.Snapshot": "a copy of the campaign's own document, taken before a phase; the site's safeguard",
    "transfer.RestoreRecord": "the site's record of a restore, which the restore itself must not undo",
    "battles.BattleMessage": (
        "the record of who wrote to a battle's other side and when, which only the hour's rate limit reads "
        "(rules decision 363); the message itself is an email, which travels"
    ),
    "kingdoms.DraftedArmyList": (
        "a player's army list as left in the editor, never entered: nothing counts it (the army's list is "
        "its units, which travel); rows as posted, naming the units by database id (docs/architecture.md)"
    ),
}

# Fields carried but not equal after an import, by "app.Model.field", each with the reason.
NOT_COMPARED: dict[str, str] = {
    "kingdoms.Campaign.world_version": (
        "the count of the world's changes (the order sheets' kept world, kingdoms/services/world.py): a "
        "restore moves it on, so it never equals the snapshot's"
    ),
}
