"""Where mail comes from, each read into the one service (inbox/services/receive.py), each giving the
time the campaign's mail server received the message as its arrival:

- the production mailbox over IMAP (imap-tools): each unseen message fetched with its INTERNALDATE
  (when the server took it in), recorded, and only then marked seen, so a crash in between reads it
  again and its Message-ID makes that harmless;
- the local mail drop, a Maildir (INBOX_MAILDROP_DIR, var/maildrop/ by default): each file in new/
  is a message delivered at its modification time (`make stack`'s SMTP receiver writes there, and a
  player can save a .eml there by hand); it is moved to cur/ once recorded.

The provider's webhook is the third source (inbox/webhooks.py).
"""

from __future__ import annotations

import datetime as dt
import imaplib
import logging
import os
import time
from pathlib import Path

from django.conf import settings
from django.utils import timezone
from imap_tools import AND, MailBox, MailBoxUnencrypted, MailMessageFlags

from ..models import InboundMessage
from .receive import message_process, message_record

logger = logging.getLogger(__name__)

# A message recorded but not processed this long after (its process crashed) is taken up again.
STUCK_AFTER = dt.timedelta(minutes=5)


def _fetched(data: list) -> tuple[bytes, dt.datetime | None]:  # type: ignore[type-arg]
    """The message's bytes and INTERNALDATE from an IMAP FETCH response."""
    for item in data:
        if isinstance(item, tuple) and len(item) == 2 and isinstance(item[1], bytes):
            stamp = imaplib.Internaldate2tuple(item[0])
            when = dt.datetime.fromtimestamp(time.mktime(stamp), tz=dt.UTC) if stamp else None
            return item[1], when
    raise ValueError("the FETCH response holds no message")


def imap_poll() -> int:
    """Read the unseen messages of the IMAP mailbox (INBOX_IMAP_*): how many were new."""
    if not settings.INBOX_IMAP_HOST:
        return 0
    box_class = MailBox if settings.INBOX_IMAP_SSL else MailBoxUnencrypted
    new = 0
    with box_class(settings.INBOX_IMAP_HOST, settings.INBOX_IMAP_PORT, timeout=30).login(
        settings.INBOX_IMAP_USER, settings.INBOX_IMAP_PASSWORD, initial_folder=settings.INBOX_IMAP_FOLDER
    ) as mailbox:
        for uid in mailbox.uids(AND(seen=False)):
            status, data = mailbox.client.uid("fetch", uid, "(INTERNALDATE BODY.PEEK[])")
            if status != "OK" or not data or data[0] is None:
                continue  # gone in the meantime (another client moved it)
            raw, internal_date = _fetched(data)
            row, created = message_record(
                raw, received_at=internal_date or timezone.now(), source=InboundMessage.Source.IMAP
            )
            mailbox.flag(uid, MailMessageFlags.SEEN, True)  # only once recorded
            if created:
                new += 1
                message_process(row_id=row.pk)
    return new


def maildrop_poll(directory: str | os.PathLike[str] | None = None) -> int:
    """Read the files in the mail drop's new/ (a Maildir): how many were new messages."""
    folder = Path(directory or settings.INBOX_MAILDROP_DIR or "")
    if not str(folder) or not (folder / "new").is_dir():
        return 0
    (folder / "cur").mkdir(exist_ok=True)
    new = 0
    for path in sorted((folder / "new").iterdir()):
        if path.name.startswith(".") or not path.is_file():
            continue
        delivered = dt.datetime.fromtimestamp(path.stat().st_mtime, tz=dt.UTC)
        row, created = message_record(path.read_bytes(), received_at=delivered, source=InboundMessage.Source.MAILDROP)
        path.rename(folder / "cur" / f"{path.name.split(':')[0]}:2,S")  # only once recorded
        if created:
            new += 1
            message_process(row_id=row.pk)
    return new


def mail_read() -> dict[str, int]:
    """Read every source of mail now: the local mail drop, the messages a crash left unprocessed, and
    the IMAP mailbox (unreachable: logged, read at the next poll). How many messages each gave. The
    beat's poll (inbox.tasks.inbox_poll), and the deadline sweep before it resolves a due turn (a
    sheet the mail server took in before the deadline is filed before the turn is claimed)."""
    counts = {"imap": 0, "maildrop": maildrop_poll(), "stuck": stuck_messages_process()}
    try:
        counts["imap"] = imap_poll()
    except OSError as exc:  # the mailbox unreachable: the next poll tries again
        logger.warning(
            "The orders mailbox could not be read (%s: %s); trying again at the next poll", type(exc).__name__, exc
        )
    return counts


def stuck_messages_process() -> int:
    """Process again the messages recorded but left unprocessed by a crash (STUCK_AFTER ago)."""
    stuck = InboundMessage.objects.filter(
        status=InboundMessage.Status.RECEIVED, recorded_at__lt=timezone.now() - STUCK_AFTER
    ).values_list("pk", flat=True)
    ids = list(stuck[:100])
    for row_id in ids:
        message_process(row_id=row_id)
    return len(ids)
