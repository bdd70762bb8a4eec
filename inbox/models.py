"""Mail coming in (issue 36): one row per message received at the orders address, whichever way it
came (the IMAP mailbox, the provider's webhook, the local mail drop), recorded before anything is
done with it, so that a crash loses nothing (the row stays "received" and is processed again by
`manage.py inbox_reprocess`) and a message is processed once (its Message-ID is unique: a replay
finds the row and changes nothing).

The inbox stands above reports and below the turn cycle; it names the campaign, the users and the
answer (an outbox email) by foreign key."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone


class InboundMessage(models.Model):
    class Status(models.TextChoices):
        RECEIVED = "received", "Received, not processed yet"
        ACCEPTED = "accepted", "Sheet filed"
        REFUSED = "refused", "Refused (answered)"
        IGNORED = "ignored", "Ignored (not answered)"
        FAILED = "failed", "Failed (kept to process again)"

    class Source(models.TextChoices):
        IMAP = "imap", "IMAP mailbox"
        WEBHOOK = "webhook", "Email provider's webhook"
        MAILDROP = "maildrop", "Local mail drop"
        COMMAND = "command", "Management command"

    # The Message-ID header (a digest of the bytes for a message without one): processed once.
    message_id = models.CharField(max_length=998, unique=True)
    sender = models.CharField("From", max_length=998, blank=True)
    # Its address alone, lowercased: what the throttle counts by.
    sender_address = models.CharField(max_length=320, blank=True)
    to = models.TextField("To", blank=True)
    subject = models.TextField(blank=True)
    # When the campaign's mail server received it (IMAP INTERNALDATE, the drop file's delivery, the
    # provider's timestamp or the webhook request's arrival), never its Date header: the deadline is
    # decided by it.
    received_at = models.DateTimeField()
    recorded_at = models.DateTimeField(default=timezone.now, db_index=True)
    source = models.CharField(max_length=16, choices=Source.choices)
    size = models.PositiveIntegerField()
    # The message itself (for a message over INBOX_MAX_BYTES: its headers only), kept to be processed again.
    raw = models.BinaryField()
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.RECEIVED)
    reason = models.TextField(blank=True)
    # The account whose secret the address carries; for a mail without one, the account registered
    # with its From address (who is answered, and whose organizers see it), if any.
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    sender_user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    campaign = models.ForeignKey(
        "kingdoms.Campaign", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    answer = models.ForeignKey("outbox.Email", null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    processed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-recorded_at", "-id"]
        indexes = [
            models.Index(fields=["sender_address", "recorded_at"], name="inbox_sender_recorded"),
            models.Index(fields=["user", "recorded_at"], name="inbox_user_recorded"),
            models.Index(fields=["campaign", "recorded_at"], name="inbox_campaign_recorded"),
        ]

    def __str__(self) -> str:
        return f"Mail from {self.sender} ({self.status})"
