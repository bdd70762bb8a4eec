"""Diplomacy (issue 37): letters between kingdoms, one to one or to several, and the organizer's
announcements to all. A message belongs to its campaign and is kept for good (the campaign's history
and export); who may read it is diplomacy.selectors' one rule."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone

MESSAGE_MAX = 2000  # characters: a letter, not a rulebook


class Message(models.Model):
    campaign = models.ForeignKey("kingdoms.Campaign", on_delete=models.CASCADE, related_name="messages")
    # The campaign's turn when it was sent: the history groups messages by turn.
    turn_number = models.PositiveIntegerField()
    # Who wrote it (null once the account is gone: the kingdom still signs it).
    sender = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    # The kingdom it speaks for; null for the organizer's announcement to every kingdom.
    sender_kingdom = models.ForeignKey(
        "kingdoms.Kingdom", null=True, blank=True, on_delete=models.CASCADE, related_name="messages_sent"
    )
    announcement = models.BooleanField(default=False)
    recipients = models.ManyToManyField("kingdoms.Kingdom", related_name="messages_received", blank=True)
    text = models.TextField()
    sent_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["-sent_at", "-id"]
        indexes = [models.Index(fields=["campaign", "sent_at"])]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(announcement=True, sender_kingdom__isnull=True)
                | models.Q(announcement=False, sender_kingdom__isnull=False),
                name="message_from_a_kingdom_or_an_announcement",
            )
        ]

    def __str__(self) -> str:
        who = "the organizer" if self.announcement else str(self.sender_kingdom)
        return f"Message from {who} ({self.sent_at:%Y-%m-%d %H:%M})"
