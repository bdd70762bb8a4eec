"""Reminder emails 24 hours before the orders deadline, to kingdoms that have not submitted."""

from __future__ import annotations

import datetime as dt

from django.db import IntegrityError, transaction

from kingdoms.models import Kingdom
from outbox.models import Email
from rulebook.campaign_schedule import REMINDER_BEFORE, deadline_text, time_left_text
from turns.models import Turn

from ..models import CampaignSchedule, OrderSheet, OrdersReminder
from .opening_emails import kingdom_sheet_email_queue


def orders_reminders_queue(*, now: dt.datetime) -> list[Kingdom]:
    """Queue each due reminder once: turns with orders open, deadline within 24 hours and not yet
    passed, campaign not paused; kingdoms (the Ancient Dead aside) without a submitted sheet. The
    reminder's record and its email commit together; the email is sent by its own task."""
    paused = CampaignSchedule.objects.filter(paused=True).values("campaign_id")
    turns = (
        Turn.objects.filter(
            status=Turn.Status.ORDERS_OPEN, orders_deadline__gt=now, orders_deadline__lte=now + REMINDER_BEFORE
        )
        .exclude(campaign_id__in=paused)
        .select_related("campaign")
    )
    reminded: list[Kingdom] = []
    for turn in turns:
        submitted = OrderSheet.objects.filter(turn=turn, status=OrderSheet.Status.SUBMITTED).values("kingdom_id")
        already = turn.reminders.values("kingdom_id")
        kingdoms = (
            turn.campaign.kingdoms.filing_orders()
            .exclude(id__in=submitted)
            .exclude(id__in=already)
            .prefetch_related("players")
        )
        for kingdom in kingdoms:
            try:
                with transaction.atomic():
                    reminder = OrdersReminder.objects.create(turn=turn, kingdom=kingdom)
                    kingdom_sheet_email_queue(
                        template="orders-reminder",
                        kind=Email.Kind.ORDERS_REMINDER,
                        kingdom=kingdom,
                        turn=turn,
                        key=f"orders-reminder:{reminder.pk}",
                        deadline=deadline_text(turn.orders_deadline, turn.campaign.time_zone),
                        time_left=time_left_text(turn.orders_deadline, now),
                    )
            except IntegrityError:
                continue  # another sweep got there first
            reminded.append(kingdom)
    return reminded
