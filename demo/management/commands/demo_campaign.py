"""Load the demo campaign: four player kingdoms and the Ancient Dead on the default map."""

from typing import Any

from django.core.management.base import BaseCommand

from demo.campaign import DEMO_PASSWORD, demo_campaign_create
from kingdoms.models import Campaign


class Command(BaseCommand):
    help = "Create the demo campaign (organizer and four players), set up and ready on turn 1."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--if-empty", action="store_true", help="Do nothing when a campaign exists already.")

    def handle(self, *args: Any, if_empty: bool, **options: Any) -> None:
        if if_empty and Campaign.objects.exists():
            self.stdout.write("The database has a campaign already; the demo is not loaded again.")
        else:
            campaign = demo_campaign_create()
            self.stdout.write(self.style.SUCCESS(f"Created the demo campaign '{campaign.name}'."))
        self.stdout.write(
            f"Demo logins (password for all: {DEMO_PASSWORD}):\n"
            "  organizer  (runs the campaign and the Ancient Dead; staff, can use /admin/)\n"
            "  alice      (Empire: Ostland)\n"
            "  bob        (Orcs & Goblins: Da Red Fang)\n"
            "  carol      (Dwarfs: Karak Dumn)\n"
            "  dave       (High Elves: Tor Anlec)"
        )
