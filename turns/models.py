"""What the turn cycle keeps of its own: when the deadline sweep last ran (for the health endpoint)."""

from __future__ import annotations

from django.db import models


class SweepRecord(models.Model):
    """One row: the last run of the deadline sweep, so the health endpoint can tell a stopped beat
    from a quiet week. Overwritten by each run, never a history (the sweep runs every minute)."""

    ran_at = models.DateTimeField()
    report = models.JSONField(default=dict)

    def __str__(self) -> str:
        return f"deadline sweep at {self.ran_at:%Y-%m-%d %H:%M:%S}"
