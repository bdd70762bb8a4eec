"""The turn cycle's records: the turns, what happened in each (the events every report is written
from), the dice rolled, and when the deadline sweep last ran (for the health endpoint).

The other apps hang their rows from these (an order sheet, a battle, a report names its turn), so
this module stands below them all in the import contract (pyproject.toml): it imports no other
app's models, and names them by label ("kingdoms.Campaign"). Turn, TurnEvent and DiceRoll keep the
tables they had when the orders and kingdoms apps held them."""

from __future__ import annotations

import datetime as dt

from django.db import models


class SweepRecord(models.Model):
    """One row: the last run of the deadline sweep, so the health endpoint can tell a stopped beat
    from a quiet week. Overwritten by each run, never a history (the sweep runs every minute)."""

    ran_at = models.DateTimeField()
    report = models.JSONField(default=dict)

    def __str__(self) -> str:
        return f"deadline sweep at {self.ran_at:%Y-%m-%d %H:%M:%S}"


class Turn(models.Model):
    class Status(models.TextChoices):
        ORDERS_OPEN = "orders-open", "Orders open"
        RESOLVING_ORDERS = "resolving-orders", "Resolving orders"
        BATTLES = "battles", "Battles"
        RESOLVING_AFTERMATH = "resolving-aftermath", "Resolving aftermath"
        REPORTED = "reported", "Reported"

    campaign = models.ForeignKey("kingdoms.Campaign", on_delete=models.CASCADE, related_name="turns")
    number = models.PositiveIntegerField()
    status = models.CharField(max_length=24, choices=Status.choices, default=Status.ORDERS_OPEN)
    orders_deadline = models.DateTimeField()
    results_deadline = models.DateTimeField()
    seed = models.CharField(max_length=32, help_text="Seed of the turn's dice.")
    opened_at = models.DateTimeField(auto_now_add=True)
    resolved_at = models.DateTimeField(null=True, blank=True)
    resolution_error = models.TextField(blank=True, help_text="Why the last resolution failed (it changed nothing).")
    # The organizer asked for a phase (Resolve, Run the aftermath): recorded with the request, so a
    # lost task (a worker that died, a broker that was down) is taken up by the deadline sweep.
    # Cleared when the phase runs, or when it is refused (the organizer reads why and asks again).
    orders_requested_at = models.DateTimeField(null=True, blank=True)
    aftermath_requested_at = models.DateTimeField(null=True, blank=True)
    held_at = models.DateTimeField(
        null=True, blank=True, help_text="The deadline passed with too many orders missing: it waits for the organizer."
    )
    # The phase waiting on this turn failed (an error, or a refusal of the rules' sanity check):
    # tries in a row, since when, the last, and when the deadline sweep tries again (backed off:
    # phase_retry_delay). All cleared when the phase runs; the organizer's Retry runs it at once.
    phase_failures = models.PositiveIntegerField(default=0, help_text="Failed tries in a row of the waiting phase.")
    phase_failed_since = models.DateTimeField(
        null=True, blank=True, help_text="The first failed try of this run of failures."
    )
    phase_failed_at = models.DateTimeField(null=True, blank=True, help_text="The last failed try.")
    phase_retry_at = models.DateTimeField(
        null=True, blank=True, help_text="The deadline sweep does not try the failed phase again before this."
    )

    class Meta:
        db_table = "orders_turn"  # the table it had when the orders app held it: no row moved
        ordering = ["campaign", "number"]
        constraints = [models.UniqueConstraint(fields=["campaign", "number"], name="turn_number_unique")]

    def __str__(self) -> str:
        return f"{self.campaign}: turn {self.number}"

    @property
    def phase_failed(self) -> bool:
        """The waiting phase's last try failed, and no request of the organizer's came since."""
        if self.phase_failed_at is None or self.status not in (self.Status.ORDERS_OPEN, self.Status.BATTLES):
            return False
        requested = self.orders_requested_at if self.status == self.Status.ORDERS_OPEN else self.aftermath_requested_at
        return requested is None or requested <= self.phase_failed_at

    @property
    def phase_failed_name(self) -> str:
        """The phase that failed, in words: the orders phase or the aftermath."""
        return "orders phase" if self.status == self.Status.ORDERS_OPEN else "aftermath"


# The deadline sweep's wait before it tries a failed phase again: 1, 2, 4 ... minutes, an hour at
# most, so a failure that repeats is not tried every minute for ever (a crash-looping job pushed aside).
PHASE_RETRY_FIRST = dt.timedelta(minutes=1)
PHASE_RETRY_LONGEST = dt.timedelta(hours=1)


def phase_retry_delay(failures: int) -> dt.timedelta:
    """The wait after the `failures`-th failed try in a row (1 -> a minute, doubling, capped)."""
    return min(PHASE_RETRY_FIRST * 2 ** min(max(failures - 1, 0), 16), PHASE_RETRY_LONGEST)


# What a phase that ran (or a restore to before it) leaves of the failures: none.
PHASE_FAILURE_CLEARED: dict[str, object] = {
    "phase_failures": 0,
    "phase_failed_since": None,
    "phase_failed_at": None,
    "phase_retry_at": None,
}


def phase_not_backed_off(now: dt.datetime) -> models.Q:
    """The turns the sweep may try now: no failed phase waiting out its backoff."""
    return models.Q(phase_retry_at__isnull=True) | models.Q(phase_retry_at__lte=now)


# The logs a phase writes by the thousand (a turn's events, dice rolls and movements) keep their
# foreign keys without a constraint in the database (`db_constraint=False`): on PostgreSQL each
# row's keys were checked one by one at the phase's commit (Django's keys are DEFERRABLE INITIALLY
# DEFERRED): 0.22-0.32 s of checks at the largest campaign's commit, 0.04-0.07 s without these. Django still deletes and
# nulls them with what they hang from (on_delete is the ORM's, not the database's), the columns
# keep their indexes, and the phase's sanity check asserts in one set-based query that none of the
# turn's rows names a kingdom, army or province outside the campaign
# (turns/services/log_references.py), which the constraint did not even check.
class TurnEvent(models.Model):
    """What happened in a turn, in order: the single source of every report of it."""

    turn = models.ForeignKey(Turn, on_delete=models.CASCADE, related_name="events", db_constraint=False)
    sequence = models.PositiveIntegerField()
    phase = models.CharField(max_length=32)
    code = models.CharField(max_length=40)
    text = models.TextField()
    kingdom = models.ForeignKey(
        "kingdoms.Kingdom", null=True, blank=True, on_delete=models.CASCADE, related_name="+", db_constraint=False
    )
    army = models.ForeignKey(
        "kingdoms.Army", null=True, blank=True, on_delete=models.SET_NULL, related_name="+", db_constraint=False
    )
    province = models.PositiveIntegerField(null=True, blank=True, help_text="Province number.")
    gold = models.IntegerField(default=0)
    data = models.JSONField(default=dict, blank=True)

    class Meta:
        db_table = "orders_turnevent"
        ordering = ["turn", "sequence"]
        constraints = [models.UniqueConstraint(fields=["turn", "sequence"], name="turn_event_sequence_unique")]

    def __str__(self) -> str:
        return f"{self.turn} #{self.sequence} {self.code}"


class DiceRoll(models.Model):
    """A roll of the dice kernel, kept with its purpose and whom it concerns."""

    # Not indexed by itself: the index below leads with the campaign and serves its lookups too.
    campaign = models.ForeignKey(
        "kingdoms.Campaign",
        on_delete=models.CASCADE,
        related_name="dice_rolls",
        db_constraint=False,
        db_index=False,
    )
    turn = models.PositiveIntegerField(help_text="0 for setup.")
    stream = models.CharField(max_length=100)
    sequence = models.PositiveIntegerField()
    expression = models.CharField(max_length=16)
    faces = models.JSONField()
    total = models.IntegerField()
    purpose = models.CharField(max_length=200)
    kingdoms = models.JSONField(default=list, blank=True)
    armies = models.JSONField(default=list, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        db_table = "kingdoms_diceroll"  # the table it had when the kingdoms app held it
        ordering = ["campaign", "turn", "id"]
        # A phase counts each stream's rolls of its turn before it adds more, and the reports read a
        # turn's rolls: by the campaign alone, that read every roll of the campaign's history,
        # thousands a turn (issue 35).
        indexes = [models.Index(fields=["campaign", "turn", "stream"], name="diceroll_turn_stream")]

    def __str__(self) -> str:
        return f"{self.expression} = {self.total} ({self.purpose})"
