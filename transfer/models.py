"""The safeguards around each turn (issue 17): a snapshot of the campaign before each phase, and a
record of every restore.

Both are the site's record of what it did to a campaign, not the campaign's state: a restore
replaces the campaign's state with a snapshot's and must not replace the snapshots or the record
of itself, so neither travels in the campaign's document (transfer/exceptions.py NOT_CAMPAIGN_DATA).
They name the turn by its number, not by a foreign key: a restore writes the turns anew.
"""

from __future__ import annotations

import json
import zlib
from typing import Any

from django.conf import settings
from django.db import models


class Snapshot(models.Model):
    """The campaign's export document (transfer.export.campaign_export) as it stood once a phase had
    claimed its turn and before it changed anything, compressed. Stored in the database, not as a
    file under the var dir: it is written in the phase's transaction, so a phase rolled back leaves
    no snapshot behind, and it is backed up with the rows it restores."""

    class Phase(models.TextChoices):
        ORDERS = "orders phase", "the orders phase"
        AFTERMATH = "aftermath", "the aftermath"

    campaign = models.ForeignKey("kingdoms.Campaign", on_delete=models.CASCADE, related_name="snapshots")
    turn_number = models.PositiveIntegerField()
    phase = models.CharField(max_length=32, choices=Phase.choices)
    taken_at = models.DateTimeField()
    document = models.BinaryField(help_text="The export document as JSON, zlib-compressed.")
    size = models.PositiveIntegerField(help_text="The document's JSON size in bytes, before compression.")

    class Meta:
        ordering = ["-taken_at", "-id"]

    def __str__(self) -> str:
        return f"turn {self.turn_number} before {self.get_phase_display()}"

    @staticmethod
    def packed(document: dict[str, Any]) -> tuple[bytes, int]:
        text = json.dumps(document).encode()  # the export's order is fixed already: no need to sort
        return zlib.compress(text, 6), len(text)

    def unpacked(self) -> dict[str, Any]:
        document: dict[str, Any] = json.loads(zlib.decompress(bytes(self.document)))
        return document


class RestoreRecord(models.Model):
    """Who restored which turn to its state before which phase, and when. The snapshot may be
    pruned later; what it was stays here."""

    campaign = models.ForeignKey("kingdoms.Campaign", on_delete=models.CASCADE, related_name="restores")
    snapshot = models.ForeignKey(Snapshot, null=True, blank=True, on_delete=models.SET_NULL, related_name="restores")
    turn_number = models.PositiveIntegerField()
    phase = models.CharField(max_length=32, choices=Snapshot.Phase.choices)
    snapshot_taken_at = models.DateTimeField()
    restored_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    restored_at = models.DateTimeField()

    class Meta:
        ordering = ["-restored_at", "-id"]

    def __str__(self) -> str:
        return f"turn {self.turn_number} restored to before {self.get_phase_display()}"
