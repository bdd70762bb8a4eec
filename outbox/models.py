"""Every email the site sends is one row, rendered when it is queued (a submission's receipt: by the
worker, before its first try, from what the row names; outbox.services.email_queue_for_worker): the
unit of delivery, claimed before it is sent (nothing goes out twice), retried on temporary errors
for a day, and shown to the organizer if it fails. A row knows when it may be tried again
(retry_at) and when the deadline sweep hands it to a worker if no task has taken it by then
(take_up_at).

This app stands below kingdoms in the layers, so that every app can queue an email; it imports none
of them. It names the campaign and the turn an email belongs to by lazy references ("app.Model"),
which the organizer's pages filter on."""

from __future__ import annotations

import datetime as dt

from django.db import models
from django.utils import timezone

# A queued row that no task has taken this long after it was queued (or handed to a worker) lost its
# task: the deadline sweep hands it to a worker again.
STALE_AFTER = dt.timedelta(minutes=5)


class Email(models.Model):
    class Status(models.TextChoices):
        QUEUED = "queued", "Queued"
        SENDING = "sending", "Sending"
        SENT = "sent", "Sent"
        FAILED = "failed", "Failed"

    class Kind(models.TextChoices):
        INVITATION = "invitation", "Invitation"
        ORDERS_RECEIPT = "orders-receipt", "Orders receipt"
        ANNOUNCEMENT = "announcement", "Deadline or schedule announcement"
        ORDERS_REMINDER = "orders-reminder", "Orders reminder"
        RESULTS_REMINDER = "results-reminder", "Results reminder"
        KINGDOM_REPORT = "kingdom-report", "Turn report"
        BULLETIN = "bulletin", "Bulletin"
        SCENARIO_SHEET = "scenario-sheet", "Scenario sheet"
        ORGANIZER_ALERT = "organizer-alert", "Alert to the organizer"
        SETUP = "setup", "Setup step"
        BATTLE_MESSAGE = "battle-message", "Message to a battle's opponent"
        CO_PLAYER_REMOVED = "co-player-removed", "A co-player removed from a joint kingdom"
        SUMMARY_RECEIPT = "summary-receipt", "Turn summary sheet receipt"
        BATTLE_RULING = "battle-ruling", "Battle's sheets disagree, or the organizer's ruling"
        KINGDOM_MESSAGE = "kingdom-message", "Message between kingdoms, or the organizer's announcement"
        MESSAGE_DIGEST = "message-digest", "The day's messages between kingdoms"
        SHEET_ANSWER = "sheet-answer", "Answer to a sheet filed by email"

    # Sent in bulk when a turn's reports go out, with their PDFs: behind every other email, which a
    # person is waiting for (a receipt, an invitation, a reminder, a deadline change); see
    # outbox.tasks and the queues in settings (CELERY_TASK_ROUTES).
    BULK_KINDS = frozenset({Kind.KINGDOM_REPORT, Kind.BULLETIN, Kind.SCENARIO_SHEET})

    kind = models.CharField(max_length=32, choices=Kind.choices)
    campaign = models.ForeignKey("kingdoms.Campaign", null=True, blank=True, on_delete=models.CASCADE, related_name="+")
    turn = models.ForeignKey("turns.Turn", null=True, blank=True, on_delete=models.CASCADE, related_name="+")
    # Queuing the same email again (a task run twice, the sweep taking up a report) finds this row.
    key = models.CharField(max_length=200, blank=True)
    # The addresses, one message to all (an announcement goes to every player of the campaign).
    to = models.JSONField(default=list)
    # Where a reply goes: the sender of a message between players; blank, the campaign's organizer.
    reply_to = models.EmailField(blank=True)
    # What was rendered when the email was queued (a receipt: by the worker, from the receipt
    # written at acceptance): a receipt says what was accepted then.
    subject = models.TextField()
    text = models.TextField()
    html = models.TextField()
    attachment_name = models.CharField(max_length=200, blank=True)
    attachment_type = models.CharField(max_length=100, blank=True)
    # Dropped once the email is sent: the PDF stays on the site, as its report.
    attachment = models.BinaryField(null=True, blank=True)
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.QUEUED)
    attempts = models.PositiveSmallIntegerField(default=0)
    last_error = models.TextField(blank=True)
    created_at = models.DateTimeField(default=timezone.now)
    claimed_at = models.DateTimeField(null=True, blank=True)
    sent_at = models.DateTimeField(null=True, blank=True)
    # After a temporary failure: no try starts before this (a duplicate message, or the sweep's,
    # finds the email not due and leaves it), so the backoff is never cut short.
    retry_at = models.DateTimeField(null=True, blank=True)
    # While queued: when the deadline sweep hands the email to a worker if no task has taken it by
    # then (a lost task, a retry left to the sweep); none: STALE_AFTER after it was created (a new
    # email's task has that long). Cleared once sent or failed.
    take_up_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [models.UniqueConstraint(fields=["key"], condition=~models.Q(key=""), name="one_email_per_key")]
        indexes = [
            models.Index(fields=["campaign", "status"], name="outbox_email_campaign_status"),
            models.Index(fields=["status", "created_at"], name="outbox_email_status_created"),
            models.Index(fields=["status", "take_up_at"], name="outbox_email_status_take_up"),
        ]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} to {self.to_line} ({self.status})"

    @property
    def to_line(self) -> str:
        return ", ".join(self.to)

    @property
    def rendered(self) -> bool:
        """False for an email the worker renders before its first try (a submission's receipt:
        outbox.services.email_queue_for_worker; its text holds the address for its links until
        then), and for a report email carried over from before the outbox (reports migration 0002)
        and not yet sent: its report renders it (reports.services.deliveries)."""
        return bool(self.subject)

    @property
    def bulk(self) -> bool:
        """A turn's report, bulletin or scenario sheet: sent behind the email people wait for."""
        return self.kind in self.BULK_KINDS
