"""Process again the mail whose processing failed (or was cut short by a crash), or one message by
its row id; or read a message from a file (a .eml) as if it had just arrived."""

from __future__ import annotations

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError
from django.utils import timezone

from inbox.models import InboundMessage
from inbox.services.receive import message_process, message_receive


class Command(BaseCommand):
    help = "Process again the mail received that failed or was left unprocessed (or one, by id; or a .eml file)."

    def add_arguments(self, parser):  # type: ignore[no-untyped-def]
        parser.add_argument("ids", nargs="*", type=int, help="Row ids (default: every failed or unprocessed one).")
        parser.add_argument("--file", help="A message file (.eml) to receive now.")

    def handle(self, *args, ids: list[int], file: str | None, **options) -> None:  # type: ignore[no-untyped-def]
        if file:
            path = Path(file)
            if not path.is_file():
                raise CommandError(f"No such file: {file}")
            row = message_receive(path.read_bytes(), received_at=timezone.now(), source=InboundMessage.Source.COMMAND)
            self.stdout.write(f"{row.pk}: {row.status} {row.reason}")
            return
        again = (InboundMessage.Status.FAILED, InboundMessage.Status.RECEIVED)
        rows = InboundMessage.objects.filter(status__in=again)
        if ids:
            rows = rows.filter(pk__in=ids)
        for row_id in rows.order_by("pk").values_list("pk", flat=True):
            row = message_process(row_id=row_id)
            self.stdout.write(f"{row.pk}: {row.status} {row.reason}")
