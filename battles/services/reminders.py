"""Reminder emails 24 hours before the results deadline, to kingdoms that still owe a turn
summary sheet (8. End of Turn: a missing sheet makes the battle a major loss)."""

from __future__ import annotations

import datetime as dt
from collections import defaultdict

from django.db import IntegrityError, transaction

from kingdoms.models import Kingdom
from orders.models import CampaignSchedule
from orders.services.emails import kingdom_email_queue
from outbox.models import Email
from rulebook.campaign_schedule import REMINDER_BEFORE, deadline_text, time_left_text
from turns.models import Turn

from ..models import Battle, ResultsReminder, TurnSummarySheet


def results_reminders_queue(*, now: dt.datetime) -> list[Kingdom]:
    """Queue each due reminder once: turns waiting for battle results whose deadline is within 24
    hours and not passed (campaign not paused); kingdoms with a battle and no submitted sheet. The
    reminder's record and its email commit together; the email is sent by its own task."""
    paused = CampaignSchedule.objects.filter(paused=True).values("campaign_id")
    turns = (
        Turn.objects.filter(
            status=Turn.Status.BATTLES, results_deadline__gt=now, results_deadline__lte=now + REMINDER_BEFORE
        )
        .exclude(campaign_id__in=paused)
        .select_related("campaign")
    )
    reminded: list[Kingdom] = []
    for turn in turns:
        owed: dict[int, list[Battle]] = defaultdict(list)
        battles = Battle.objects.filter(turn=turn).select_related("province").prefetch_related("summary_sheets")
        for battle in battles:
            submitted = {
                s.kingdom_id for s in battle.summary_sheets.all() if s.status == TurnSummarySheet.Status.SUBMITTED
            }
            for kingdom_id in battle.filing_kingdom_ids():
                if kingdom_id not in submitted:
                    owed[kingdom_id].append(battle)
        already = set(turn.results_reminders.values_list("kingdom_id", flat=True))
        for kingdom in Kingdom.objects.filter(id__in=set(owed) - already).prefetch_related("players"):
            try:
                with transaction.atomic():
                    reminder = ResultsReminder.objects.create(turn=turn, kingdom=kingdom)
                    kingdom_email_queue(
                        template="results-reminder",
                        kind=Email.Kind.RESULTS_REMINDER,
                        kingdom=kingdom,
                        turn=turn,
                        key=f"results-reminder:{reminder.pk}",
                        battles=owed[kingdom.id],
                        deadline=deadline_text(turn.results_deadline, turn.campaign.time_zone),
                        time_left=time_left_text(turn.results_deadline, now),
                    )
            except IntegrityError:
                continue  # another sweep got there first
            reminded.append(kingdom)
    return reminded
