"""The turns' deadlines and schedule, and the kingdoms' order sheets (the turns themselves are the turn
cycle's, turns/models.py)."""

from __future__ import annotations

import datetime as dt

from django.conf import settings
from django.core.validators import MaxValueValidator
from django.db import models
from django.utils import timezone

from kingdoms.models import Campaign, Kingdom
from turns.models import Turn

WEEKDAYS = [
    (0, "Monday"),
    (1, "Tuesday"),
    (2, "Wednesday"),
    (3, "Thursday"),
    (4, "Friday"),
    (5, "Saturday"),
    (6, "Sunday"),
]


class CampaignSchedule(models.Model):
    """The weekly rhythm of a campaign (Appendix: Campaign Schedule), in the campaign's time zone."""

    campaign = models.OneToOneField(Campaign, on_delete=models.CASCADE, related_name="schedule")
    orders_weekday = models.PositiveSmallIntegerField(choices=WEEKDAYS, default=6)
    orders_time = models.TimeField(default=dt.time(20, 0))
    results_weekday = models.PositiveSmallIntegerField(choices=WEEKDAYS, default=2)
    results_time = models.TimeField(default=dt.time(21, 0))
    paused = models.BooleanField(default=False, help_text="While paused no deadline passes and nothing is resolved.")
    hold_when_missing = models.PositiveSmallIntegerField(
        "hold when this many percent of the orders are missing",
        default=0,
        validators=[MaxValueValidator(100)],
        help_text=(
            "When the orders deadline passes with at least this share of the kingdoms' orders missing, the turn "
            "is not resolved by itself: you are told, and resolve it or extend the deadline. 0: never hold."
        ),
    )

    def __str__(self) -> str:
        return (
            f"orders {self.get_orders_weekday_display()} {self.orders_time:%H:%M}, "
            f"results {self.get_results_weekday_display()} {self.results_time:%H:%M}"
        )


class DeadlineChange(models.Model):
    """Every change to a deadline or to the pause, kept and announced to the players."""

    class Kind(models.TextChoices):
        ORDERS = "orders", "Orders deadline"
        RESULTS = "results", "Results deadline"
        PAUSED = "paused", "Campaign paused"
        RESUMED = "resumed", "Campaign resumed"
        SCHEDULE = "schedule", "Weekly schedule"

    turn = models.ForeignKey(Turn, on_delete=models.CASCADE, related_name="deadline_changes")
    kind = models.CharField(max_length=16, choices=Kind.choices)
    old_value = models.CharField(max_length=100, blank=True)
    new_value = models.CharField(max_length=100, blank=True)
    reason = models.CharField(max_length=200, blank=True)
    changed_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    changed_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["turn", "changed_at", "id"]

    def __str__(self) -> str:
        return f"{self.turn}: {self.get_kind_display()} {self.old_value} -> {self.new_value}"


class OrderSheet(models.Model):
    """A kingdom's orders for a turn. `entries` holds the sheet as the player wrote it (the
    schema of rulebook.turn.write_orders.records.SheetEntries, see orders/entries.py); the last submission stands."""

    class Status(models.TextChoices):
        DRAFT = "draft", "Draft"
        SUBMITTED = "submitted", "Submitted"

    turn = models.ForeignKey(Turn, on_delete=models.CASCADE, related_name="sheets")
    kingdom = models.ForeignKey(Kingdom, on_delete=models.CASCADE, related_name="order_sheets")
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.DRAFT)
    entries = models.JSONField(default=dict)
    updated_at = models.DateTimeField(auto_now=True)
    submitted_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["turn", "kingdom"]
        constraints = [models.UniqueConstraint(fields=["turn", "kingdom"], name="one_sheet_per_kingdom_per_turn")]

    def __str__(self) -> str:
        return f"{self.kingdom}: turn {self.turn.number} ({self.get_status_display()})"


class OrderSubmission(models.Model):
    """Each submission kept as received: who, when, what. `submitted_at` is the time the request
    arrived, the one time that decided it was in time (it is what the receipt states); the last
    submission by that time stands (`standing_submission`), a submission kept for the record never."""

    sheet = models.ForeignKey(OrderSheet, on_delete=models.CASCADE, related_name="submissions")
    submitted_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    submitted_at = models.DateTimeField(default=timezone.now)
    entries = models.JSONField()
    gold = models.IntegerField(default=0)
    warnings = models.JSONField(default=list)
    # The gold the sheet was checked against (1. Tally Gold comes before 3. Create / Upgrade Armies):
    # the treasury and this turn's taxes as they stood then. Unknown (null) for older submissions.
    treasury = models.IntegerField(null=True, blank=True)
    taxes = models.IntegerField(null=True, blank=True)
    # The receipt as written when the sheet was accepted (orders/services/emails.py::receipt_content):
    # the orders in words with where each army stood then, the deadline, the lists due. The receipt
    # page and the email show it; neither is written again later. Empty for older submissions.
    receipt = models.JSONField(default=dict, blank=True)
    # Kept for the record, never resolved (issue 34; rules decision 520): a sheet that arrived in time
    # while the turn's orders phase was already running (the organizer resolved before the
    # deadline). It never stands, is never resolved and never counts as orders in; its receipt
    # (`receipt["record"]`) says when it arrived, since when the turn was being resolved and which
    # submission the resolution used.
    for_record = models.BooleanField(
        "kept for the record, not resolved",
        default=False,
        help_text="Arrived in time while the turn was already being resolved: kept, never resolved.",
    )

    class Meta:
        ordering = ["sheet", "submitted_at", "id"]

    def __str__(self) -> str:
        return f"{self.sheet} at {self.submitted_at:%Y-%m-%d %H:%M}"


class OrdersReminder(models.Model):
    """A reminder sent to a kingdom for a turn's orders deadline, so it is sent once."""

    turn = models.ForeignKey(Turn, on_delete=models.CASCADE, related_name="reminders")
    kingdom = models.ForeignKey(Kingdom, on_delete=models.CASCADE, related_name="+")
    sent_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["turn", "kingdom"], name="one_orders_reminder")]

    def __str__(self) -> str:
        return f"{self.kingdom}: reminder for {self.turn}"
