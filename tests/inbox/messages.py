"""Mails as a mail server hands them over: bytes, built with Python's email package."""

from __future__ import annotations

from email.message import EmailMessage
from email.utils import make_msgid

from kingdoms.services.mail_addresses import orders_address_for


def mail(
    *,
    to: str,
    sender: str = "Player <p1@example.org>",
    subject: str = "Re: orders",
    text: str | None = "Campaign: Test Campaign\n",
    html: str | None = None,
    headers: dict[str, str] | None = None,
    message_id: str | None = None,
    attachments: tuple[tuple[str, bytes, str], ...] = (),
    charset: str = "utf-8",
) -> bytes:
    message = EmailMessage()
    message["From"], message["To"], message["Subject"] = sender, to, subject
    message["Message-ID"] = message_id or make_msgid(domain="example.org")
    message["Date"] = "Mon, 1 Jan 2001 00:00:00 +0000"  # never the arrival: a sender writes what it likes
    for name, value in (headers or {}).items():
        message[name] = value
    if text is not None:
        message.set_content(text, charset=charset)
        if html is not None:
            message.add_alternative(html, subtype="html", charset=charset)
    elif html is not None:
        message.set_content(html, subtype="html", charset=charset)
    for name, content, mimetype in attachments:
        maintype, subtype = mimetype.split("/")
        message.add_attachment(content, maintype=maintype, subtype=subtype, filename=name)
    return message.as_bytes()


def to_player(user) -> str:  # type: ignore[no-untyped-def]
    """The player's own orders address (their secret in its plus part)."""
    return orders_address_for(user, None)
