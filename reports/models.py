"""Turn reports: the PDFs (each kingdom's report, the bulletin, the scenario sheets), the public
map of every turn, and the emails that deliver them."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone

from kingdoms.models import Kingdom
from outbox.models import Email
from turns.models import Turn


class TurnMap(models.Model):
    """The public map at the end of a turn, kept for the campaign's history."""

    turn = models.OneToOneField(Turn, on_delete=models.CASCADE, related_name="public_map")
    svg = models.TextField()
    png = models.BinaryField(null=True, blank=True, help_text="The same map as a picture, for the PDF reports.")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        db_table = "orders_turnmap"  # the table it had when the orders app held the reports

    def __str__(self) -> str:
        return f"Map of {self.turn}"


class TurnReport(models.Model):
    """A turn's report as a PDF, rendered once from the stored state and events: one private
    report per kingdom, and the public bulletin (no kingdom)."""

    class Status(models.TextChoices):
        QUEUED = "queued", "Queued"
        RENDERING = "rendering", "Rendering"
        READY = "ready", "Ready"
        FAILED = "failed", "Failed"

    class Kind(models.TextChoices):
        KINGDOM = "kingdom", "Kingdom report"
        BULLETIN = "bulletin", "Bulletin"
        SCENARIO = "scenario", "Scenario sheet"

    turn = models.ForeignKey(Turn, on_delete=models.CASCADE, related_name="reports")
    kind = models.CharField(max_length=16, choices=Kind.choices, default=Kind.KINGDOM)
    kingdom = models.ForeignKey(Kingdom, null=True, blank=True, on_delete=models.CASCADE, related_name="reports")
    battle = models.OneToOneField(
        "battles.Battle", null=True, blank=True, on_delete=models.CASCADE, related_name="scenario_report"
    )
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.QUEUED)
    # What the report shows that the next turn will change (the kingdom's armies, drawn and
    # listed), kept when the turn ends so that a report rendered again later says the same.
    snapshot = models.JSONField(default=dict, blank=True)
    pdf = models.BinaryField(null=True, blank=True)
    created_at = models.DateTimeField(default=timezone.now)
    render_started_at = models.DateTimeField(null=True, blank=True)
    rendered_at = models.DateTimeField(null=True, blank=True)
    render_seconds = models.FloatField(null=True, blank=True)
    emails_queued_at = models.DateTimeField(null=True, blank=True)
    error = models.TextField(blank=True)

    class Meta:
        db_table = "orders_turnreport"
        ordering = ["turn", "kind", "id"]
        constraints = [
            models.UniqueConstraint(fields=["turn", "kingdom"], name="one_report_per_kingdom_and_turn"),
            models.UniqueConstraint(fields=["turn"], condition=models.Q(kind="bulletin"), name="one_bulletin_per_turn"),
            models.CheckConstraint(
                condition=(
                    models.Q(kind="kingdom", kingdom__isnull=False, battle__isnull=True)
                    | models.Q(kind="bulletin", kingdom__isnull=True, battle__isnull=True)
                    | models.Q(kind="scenario", kingdom__isnull=True, battle__isnull=False)
                ),
                name="report_kind_matches_its_subject",
            ),
        ]

    def __str__(self) -> str:
        if self.kind == self.Kind.SCENARIO:
            return f"{self.turn}: scenario sheet of battle {self.battle_id}"
        return f"{self.turn}: {'bulletin' if self.kingdom_id is None else self.kingdom}"

    @property
    def is_bulletin(self) -> bool:
        return self.kind == self.Kind.BULLETIN

    @property
    def is_scenario(self) -> bool:
        return self.kind == self.Kind.SCENARIO

    @property
    def title(self) -> str:
        if self.kind == self.Kind.SCENARIO:
            return f"Scenario sheet: battle in {self.battle.province}"
        return "Bulletin" if self.kingdom_id is None else f"{self.kingdom.name}'s report"

    @property
    def filename(self) -> str:
        if self.kind == self.Kind.SCENARIO:
            name = f"scenario-turn{self.turn.number}-{self.battle.province.number}"
        elif self.kingdom_id is None:
            name = f"turn{self.turn.number}-bulletin"
        else:
            name = f"turn{self.turn.number}-{self.kingdom.name}"
        return name.replace(" ", "-") + ".pdf"


class ReportEmail(Email):
    """One report sent to one address: an outbox email (every field of its delivery, and the same
    sender as every other email) that knows the report it delivers, so the organizer's page groups
    the emails by report. The outbox cannot name the report itself: it stands below this app."""

    report = models.ForeignKey(TurnReport, on_delete=models.CASCADE, related_name="emails")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    attach_pdf = models.BooleanField(default=True)

    class Meta:
        ordering = ["report", "pk"]

    def __str__(self) -> str:
        return f"{self.report} to {self.to_line} ({self.status})"
