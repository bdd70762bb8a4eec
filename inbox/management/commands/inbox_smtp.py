"""`make stack`'s mail server (deploy/Procfile.stack): a real SMTP server (aiosmtpd) on this machine
that accepts mail for the orders address and delivers it into the local mail drop (INBOX_MAILDROP_DIR,
a Maildir the worker's beat reads), and keeps every other email (the site's own: receipts, reports)
in a Maildir of its own for a person to read (var/stack/mailbox/). Each message is delivered as an
MTA does: with a Return-Path (the envelope's sender, "<>" for a bounce) and a Delivered-To (the
envelope's recipient, the player's plus-address)."""

from __future__ import annotations

import mailbox
import time
from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand

from kingdoms.services.mail_addresses import is_orders_address


class OrdersMailHandler:
    """aiosmtpd's handler: mail to the orders address into `maildrop`, any other into `other`."""

    def __init__(self, *, maildrop: Path, other: Path) -> None:
        self.maildrop = mailbox.Maildir(maildrop, create=True)
        self.other = mailbox.Maildir(other, create=True)

    async def handle_DATA(self, server, session, envelope):  # type: ignore[no-untyped-def]  # noqa: N802 (aiosmtpd's hook)
        content = envelope.original_content or envelope.content
        data = content if isinstance(content, bytes) else content.encode("utf-8")
        sender = envelope.mail_from or ""
        others = [r for r in envelope.rcpt_tos if not is_orders_address(r)]
        for recipient in envelope.rcpt_tos:
            if is_orders_address(recipient):
                stamp = f"Return-Path: <{sender}>\r\nDelivered-To: {recipient}\r\n".encode()
                self.maildrop.add(stamp + data)
        if others:
            self.other.add(f"Return-Path: <{sender}>\r\n".encode() + data)
        return "250 Message accepted for delivery"


class Command(BaseCommand):
    help = "Run a local SMTP server: mail to the orders address into the mail drop, any other into a Maildir."

    def add_arguments(self, parser):  # type: ignore[no-untyped-def]
        parser.add_argument("--host", default="127.0.0.1")
        parser.add_argument("--port", type=int, default=1025)
        parser.add_argument("--mailbox", required=True, help="The Maildir for every other email.")

    def handle(self, *args, host: str, port: int, mailbox: str, **options) -> None:  # type: ignore[no-untyped-def]
        from aiosmtpd.controller import Controller  # a development requirement: `make stack` installs it

        handler = OrdersMailHandler(maildrop=Path(settings.INBOX_MAILDROP_DIR), other=Path(mailbox))
        controller = Controller(handler, hostname=host, port=port)
        controller.start()
        self.stdout.write(
            f"SMTP on {host}:{port}: mail to {settings.ORDERS_EMAIL_ADDRESS} (and its plus-addresses) into "
            f"{settings.INBOX_MAILDROP_DIR}, any other into {mailbox}"
        )
        try:
            while True:
                time.sleep(3600)
        except KeyboardInterrupt:
            pass
        finally:
            controller.stop()
