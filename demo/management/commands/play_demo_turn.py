"""manage.py play_demo_turn: a fresh demo campaign, and its turn 1 played through headless (make demo)."""

import logging
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand
from django.db.models import Count, Sum

from battles.models import Battle
from demo.campaign import demo_campaign_create
from demo.turn import demo_turn_play
from kernel.event_codes import EventCode
from kingdoms.models import TreasuryEntry
from reports.models import ReportEmail, TurnReport
from rulebook.campaign_schedule import deadline_text
from rulebook.tables import ArmyType
from turns.models import Turn, TurnEvent


class Command(BaseCommand):
    help = "Create a demo campaign and play its first turn: orders, battles, sheets, aftermath, reports."

    def handle(self, *args: Any, **options: Any) -> None:
        # The tasks run in-process here; their "Task ... succeeded" lines would bury the summary.
        logging.getLogger("celery.app.trace").setLevel(logging.WARNING)
        campaign = demo_campaign_create()
        demo_turn_play(campaign)
        turn = Turn.objects.get(campaign=campaign, number=1)
        out = self.stdout.write
        out(self.style.SUCCESS(f"{campaign.name} (campaign {campaign.pk}): turn 1 is {turn.get_status_display()}."))
        out("Battles:")
        for b in Battle.objects.filter(turn=turn).select_related("province", "attacker_kingdom", "defender_kingdom"):
            engagement = (b.scenario or {}).get("engagement", {}).get("name", "?")
            defender = b.defender_kingdom.name if b.defender_kingdom else "neutral garrison"
            defender += "'s army" if b.defender_army_id else "'s garrison"
            # The settlement fought for (a sacked one is gone from the province since).
            kind = f"for the {(b.scenario or {}).get('settlement', 'settlement')}" if b.assault else "in the field"
            out(
                f"  {b.province}, a battle {kind} (engagement: {engagement}): {b.attacker_kingdom.name} against "
                f"{defender}: "
                f"{b.get_result_display()} for the attacker, {b.victor or 'no'} victor"
            )
        out("The Ancient Dead (their orders computed by the engine):")
        ancient = TurnEvent.objects.filter(turn=turn, kingdom__army_type=ArmyType.ANCIENT_DEAD).filter(
            code__in=[
                EventCode.MOVED,
                EventCode.ANCIENT_DEAD_RISEN,
                EventCode.INCANTATION,
                EventCode.DESERT_SPREAD,
                EventCode.DESERT_RUINS,
                EventCode.ANCIENT_DEAD_SIZE,
            ]
        )
        for e in ancient.order_by("sequence"):
            out(f"  {e.text}")
        out("Alliances made and ended:")
        for e in TurnEvent.objects.filter(
            turn=turn, code__in=[EventCode.ALLIANCE_FORMED, EventCode.ALLIANCE_BROKEN, EventCode.ALLIANCE_CANCELLED]
        ).order_by("sequence"):
            out(f"  {e.text}")
        out("What changed hands:")
        for e in TurnEvent.objects.filter(
            turn=turn,
            code__in=[
                EventCode.PROVINCE_CLAIMED,
                EventCode.PROVINCE_CONQUERED,
                EventCode.LOOTED,
                EventCode.SACKED,
                EventCode.RETREATED,
            ],
        ):
            out(f"  {e.text}")
        out("Treasuries after the turn:")
        for row in (
            TreasuryEntry.objects.filter(kingdom__campaign=campaign)
            .values("kingdom__name")
            .annotate(gold=Sum("amount"))
            .order_by("kingdom__name")
        ):
            out(f"  {row['kingdom__name']}: {row['gold']:,} gold")
        reports = TurnReport.objects.filter(turn=turn, status=TurnReport.Status.READY)
        emails = ReportEmail.objects.filter(report__turn=turn).values("status").annotate(n=Count("id"))
        out(
            f"Reports rendered: {reports.filter(kind=TurnReport.Kind.SCENARIO).count()} scenario sheets, "
            f"{reports.exclude(kind=TurnReport.Kind.SCENARIO).count()} turn reports (bulletin included); emails: "
            + ", ".join(f"{r['n']} {r['status']}" for r in emails)
        )
        next_turn = Turn.objects.get(campaign=campaign, number=2)
        out(f"Turn 2 is open for orders until {deadline_text(next_turn.orders_deadline, campaign.time_zone)}.")
        if settings.EMAIL_BACKEND == "briternia.mail.EmlFileBackend":
            out(
                self.style.SUCCESS(
                    f"The emails (scenarios, reports, bulletin) are .eml files in {settings.EMAIL_OUTBOX_DIR}/"
                )
            )
        out(
            f"On the site (make run): /campaigns/{campaign.pk}/history/ (log in as alice, bob, carol, dave or "
            "organizer; password briternia)."
        )
