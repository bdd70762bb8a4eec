"""Write a campaign as one JSON document (transfer/export.py)."""

import json
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from briternia.errors import DomainError
from kingdoms.models import Campaign
from transfer.export import campaign_export


class Command(BaseCommand):
    help = "Export a campaign, everything in it, as one JSON document (to stdout unless -o is given)."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("campaign_id", type=int, help="The id of the campaign to export.")
        parser.add_argument("-o", "--output", type=Path, help="Write the document to this file instead of stdout.")

    def handle(self, *args: Any, campaign_id: int, output: Path | None, **options: Any) -> None:
        campaign = Campaign.objects.filter(pk=campaign_id).first()
        if campaign is None:
            raise CommandError(f"There is no campaign {campaign_id}.")
        try:
            document = campaign_export(campaign=campaign)
        except DomainError as error:
            raise CommandError("\n".join(error.messages)) from error
        text = json.dumps(document, indent=2, ensure_ascii=False) + "\n"
        if output is None:
            self.stdout.write(text, ending="")
        else:
            output.write_text(text, encoding="utf-8")
            self.stderr.write(f"Exported campaign {campaign.pk} '{campaign.name}' to {output}.")
