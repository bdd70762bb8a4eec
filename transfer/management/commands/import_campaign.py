"""Create a new campaign from a JSON document written by export_campaign."""

import json
import sys
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from briternia.errors import DomainError
from transfer.importer import campaign_import


class Command(BaseCommand):
    help = "Import a campaign exported with export_campaign, as a new campaign. Prints its id and name."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("file", help="The JSON document, or - to read it from stdin.")

    def handle(self, *args: Any, file: str, **options: Any) -> None:
        try:
            text = sys.stdin.read() if file == "-" else Path(file).read_text(encoding="utf-8")
        except OSError as error:
            raise CommandError(f"Cannot read {file}: {error.strerror}.") from error
        try:
            document = json.loads(text)
        except json.JSONDecodeError as error:
            raise CommandError(f"{file} is not JSON: {error}.") from error
        try:
            campaign = campaign_import(document=document)
        except DomainError as error:
            raise CommandError(
                "The document was refused, nothing was imported:\n" + "\n".join(f"- {m}" for m in error.messages)
            ) from error
        self.stdout.write(f"Imported campaign {campaign.pk}: {campaign.name}")
