"""Battles scheduled by a turn: who fights where, with which supports and garrisons."""

from __future__ import annotations

from django.db import models

from kingdoms.models import Army, Kingdom, Province


class Battle(models.Model):
    class Status(models.TextChoices):
        SCHEDULED = "scheduled", "Scheduled"
        REPORTED = "reported", "Results reported"
        RESOLVED = "resolved", "Resolved"

    turn = models.ForeignKey("orders.Turn", on_delete=models.CASCADE, related_name="battles")
    province = models.ForeignKey(Province, on_delete=models.CASCADE, related_name="battles")
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.SCHEDULED)
    attacker_kingdom = models.ForeignKey(Kingdom, on_delete=models.CASCADE, related_name="battles_attacking")
    attacker_army = models.ForeignKey(Army, on_delete=models.CASCADE, related_name="battles_attacking")
    defender_kingdom = models.ForeignKey(
        Kingdom, null=True, blank=True, on_delete=models.CASCADE, related_name="battles_defending"
    )
    defender_army = models.ForeignKey(
        Army,
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="battles_defending",
        help_text="Empty: the province's garrison defends.",
    )
    both_moved = models.BooleanField(default=False, help_text="Both armies moved in: neither defends.")
    assault = models.BooleanField(default=False, help_text="Over a town, city or capitol: always an Assault.")
    garrison_points = models.PositiveIntegerField(default=0)
    garrison_defenses = models.PositiveSmallIntegerField(default=0)
    fortified_points = models.PositiveIntegerField(default=0)
    defended_obstacles = models.PositiveSmallIntegerField(null=True, blank=True)
    guerrilla = models.JSONField(null=True, blank=True)
    notes = models.JSONField(default=list, blank=True)

    class Meta:
        ordering = ["turn", "province__number", "id"]

    def __str__(self) -> str:
        return f"Turn {self.turn.number}: battle in {self.province}"

    def involves(self, kingdom_id: int) -> bool:
        return kingdom_id in (self.attacker_kingdom_id, self.defender_kingdom_id) or any(
            s.kingdom_id == kingdom_id for s in self.supports.all()
        )


class BattleSupport(models.Model):
    """A detachment of at most 200 points of core troops sent by an adjacent army (Support)."""

    battle = models.ForeignKey(Battle, on_delete=models.CASCADE, related_name="supports")
    army = models.ForeignKey(Army, on_delete=models.CASCADE, related_name="supports_sent")
    kingdom = models.ForeignKey(Kingdom, on_delete=models.CASCADE, related_name="+")
    side = models.CharField(max_length=8, choices=[("attacker", "Attacker"), ("defender", "Defender")])
    points = models.PositiveIntegerField()
    arrival = models.PositiveSmallIntegerField(null=True, blank=True, help_text="Support Arrival D6.")

    class Meta:
        ordering = ["battle", "id"]

    def __str__(self) -> str:
        return f"{self.army} supports {self.battle}"
