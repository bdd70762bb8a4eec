"""manage.py resolve_turn <campaign id> [--dry-run]: resolve the campaign's open turn now."""

from typing import Any

from django.core.management.base import BaseCommand, CommandError

from kingdoms.models import Campaign
from orders.services.resolution import turn_preview
from orders.services.turns import current_turn
from turns.services.cycle import orders_phase_run


class Command(BaseCommand):
    help = "Resolve the open turn of a campaign (or preview it with --dry-run)."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("campaign", type=int)
        parser.add_argument("--dry-run", action="store_true", help="Show the events; write nothing.")

    def handle(self, *args: Any, campaign: int, dry_run: bool, **options: Any) -> None:
        found = Campaign.objects.filter(pk=campaign).first()
        if found is None:
            raise CommandError(f"No campaign {campaign}.")
        turn = current_turn(found)
        if turn is None:
            raise CommandError(f"{found.name} has not started.")
        if dry_run:
            resolution = turn_preview(turn=turn)
            for event in resolution.events:
                self.stdout.write(f"[{event.phase}] {event.text}")
            self.stdout.write(f"{len(resolution.battles)} battle(s) would be fought. Nothing was written.")
            return
        outcome = orders_phase_run(turn_id=turn.pk)
        if not outcome.resolved:
            self.stdout.write(f"Turn {turn.number} is not open for resolution ({turn.get_status_display()}).")
            return
        assert outcome.resolution is not None
        self.stdout.write(
            self.style.SUCCESS(
                f"Turn {turn.number} resolved: {len(outcome.resolution.events)} events, "
                f"{len(outcome.resolution.battles)} battle(s)."
            )
        )
