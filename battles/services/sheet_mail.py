"""A sheet filed by email: the one entry point the mail transport calls with a mail's text (already
stripped of quoted text and signatures). The text's header says what it is: an order sheet
("Campaign:", "Turn:", "Kingdom:") goes to the orders' service, a turn summary sheet ("Turn summary
sheet: battle <id>") to the battles'; both file through the services the site uses, so the same check
runs, and the answer is what the site would say: the receipt, or every problem by line, army and rule."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass

from django.contrib.auth.models import AbstractBaseUser

from orders.services.sheet_mail import TextFiling, order_sheet_text_file
from orders.sheet_text import SUMMARY_KEY, normalized, sheet_text_header

from .summary_text import summary_sheet_text_file


@dataclass(frozen=True)
class MailFiling:
    accepted: bool  # True when the sheet was saved (submitted or draft)
    subject: str  # the answer's subject
    text: str  # the answer's text (receipt, or every problem naming the line, the army and the rule)
    email_id: int | None  # the outbox Email queued as the answer (to the user's REGISTERED address), if any


def sheet_text_file(
    *, user: AbstractBaseUser, text: str, arrived_at: dt.datetime, subject: str = "", notes: Sequence[str] = ()
) -> MailFiling:
    """File the sheet the mail's `text` holds for `user`, as arrived at `arrived_at` (when the mail
    server received it: the deadline's arrival). A draft keyword in `subject` ("DRAFT") or a "Draft:
    yes" line saves without submitting; `notes` are added to the answer. Nothing is saved unless the
    whole sheet is; bad input is answered, never raised."""
    text = text.replace("\ufeff", "")  # a byte-order mark some mail clients leave before the first line
    header = sheet_text_header(text)
    if normalized(SUMMARY_KEY) in header:
        filing = summary_sheet_text_file(
            user=user, header=header, text=text, arrived_at=arrived_at, subject=subject, notes=notes
        )
    else:
        filing = order_sheet_text_file(
            user=user, header=header, text=text, arrived_at=arrived_at, subject=subject, notes=notes
        )
    return _mail_filing(filing)


def _mail_filing(filing: TextFiling) -> MailFiling:
    return MailFiling(
        accepted=filing.accepted,
        subject=filing.subject,
        text="\n".join(filing.lines),
        email_id=filing.email.pk if filing.email is not None else None,
    )
