"""Battles scheduled by a turn: who fights where, with which supports and garrisons; each battle's
scenario; the players' turn summary sheets; and the aftermath's outcome."""

from __future__ import annotations

from django.conf import settings
from django.db import models

from kingdoms.models import Alliance, Army, Kingdom, Province

# The ladder of results a turn summary sheet reports, from the filing side's point of view
# (rulebook.turn.aftermath.results.BattleResult holds the same values).
RESULT_CHOICES = [
    ("massacre", "Massacre (massacred the opponent)"),
    ("major-victory", "Major victory"),
    ("minor-victory", "Minor victory"),
    ("draw", "Draw"),
    ("minor-loss", "Minor loss"),
    ("major-loss", "Major loss"),
    ("massacred", "Massacred"),
]


# A Tomb Raid's result on the raiding kingdom's sheet (rulebook.ruins_and_tomb_raiders.tomb_raid.RaidResult).
RAID_RESULT_CHOICES = [("success", "Success"), ("draw", "Draw"), ("failure", "Failure")]


class Battle(models.Model):
    class Status(models.TextChoices):
        SCHEDULED = "scheduled", "Scheduled"
        REPORTED = "reported", "Results reported"
        RESOLVED = "resolved", "Resolved"

    turn = models.ForeignKey("turns.Turn", on_delete=models.CASCADE, related_name="battles")
    province = models.ForeignKey(Province, on_delete=models.CASCADE, related_name="battles")
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.SCHEDULED)
    attacker_kingdom = models.ForeignKey(Kingdom, on_delete=models.CASCADE, related_name="battles_attacking")
    # Empty only for a Reconnaissance or Sabotage: the spying kingdom's Tomb Raiders go without an army.
    attacker_army = models.ForeignKey(
        Army, null=True, blank=True, on_delete=models.CASCADE, related_name="battles_attacking"
    )
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
    # The kingdom whose town's garrison fights beside its ally's army defending it (rules decision
    # 580; rulebook.turn.state.BattleS.garrison_kingdom): its garrison is on the table, so the battle
    # is among its battles and its scenario sheet reaches it; it files no sheet (the ally's reports
    # the side's result, decision 585). Empty: the garrison fighting, if any, is the defender's own.
    garrison_kingdom = models.ForeignKey(
        Kingdom,
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="battles_garrisoned",
        help_text="Its town's garrison fights beside its ally's army defending it (decision 580).",
    )
    both_moved = models.BooleanField(default=False, help_text="Both armies moved in: neither defends.")
    assault = models.BooleanField(default=False, help_text="Over a town, city or capitol: always an Assault.")
    skirmish = models.BooleanField(
        default=False,
        help_text="Rogue Kingdom, scouting forces: a ruins style battle for control, the entering kingdom's Tomb "
        "Raiders against a 150-point warband; its army does not fight.",
    )
    # The Tomb Raiders' mission this skirmish plays (rulebook.ruins_and_tomb_raiders.tomb_raid.MissionKind's
    # values); empty for every other battle and for the Rogue Kingdom's scouting forces.
    mission = models.CharField(
        max_length=16,
        blank=True,
        choices=[("tomb-raid", "Tomb Raid"), ("reconnaissance", "Reconnaissance"), ("sabotage", "Sabotage")],
        help_text="Using Tomb Raiders: the mission this skirmish plays (a Tomb Raid: the army waits on it).",
    )
    # Reconnaissance and Sabotage: the mission as sent (rulebook.turn.state.BattleS.mission_detail):
    # desired, target_army, target_character, defender ("raiders": the rival's own Tomb Raiders, or
    # "guard": a generic 150-point guard). The attacker is the spying kingdom, the defender its target.
    mission_detail = models.JSONField(default=dict, blank=True)
    garrison_points = models.PositiveIntegerField(default=0)
    garrison_defenses = models.PositiveSmallIntegerField(default=0)
    fortified_points = models.PositiveIntegerField(default=0)
    ancient_dead_points = models.PositiveIntegerField(
        null=True,
        blank=True,
        help_text="The Ancient Dead's army's size in this battle: its opponent's after supports, less 250.",
    )
    defended_obstacles = models.PositiveSmallIntegerField(null=True, blank=True)
    guerrilla = models.JSONField(null=True, blank=True)
    notes = models.JSONField(default=list, blank=True)
    scenario = models.JSONField(null=True, blank=True, help_text="The Scenario Generator's results (rulebook).")
    # Old Battle Wound, rolled when the battle is posted: [{"character": id, "name": str, "army": id,
    # "rolls": [faces], "out": bool}]; on a 1 the character cannot take part.
    old_wounds = models.JSONField(default=list, blank=True)
    scenario_sent_at = models.DateTimeField(null=True, blank=True, help_text="The scenario sheet was emailed.")
    # The organizer's ruling, when the two sheets disagree (or to overrule them): the result read
    # from the attacker's side, and who withdrew.
    ruling_result = models.CharField(max_length=16, choices=RESULT_CHOICES, blank=True)
    ruling_attacker_withdrew = models.BooleanField(default=False)
    ruling_defender_withdrew = models.BooleanField(default=False)
    ruling_note = models.CharField(max_length=300, blank=True)
    ruled_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    # Written by the aftermath.
    result = models.CharField(max_length=16, choices=RESULT_CHOICES, blank=True, help_text="Final, attacker's side.")
    defender_result = models.CharField(
        max_length=16,
        choices=RESULT_CHOICES,
        blank=True,
        help_text="Final, defender's side: the mirror of the attacker's unless a sheet was missing (8. End of Turn).",
    )
    victor = models.CharField(max_length=8, blank=True, help_text="attacker, defender, or empty: no victor.")

    class Meta:
        ordering = ["turn", "province__number", "id"]

    def __str__(self) -> str:
        return f"Turn {self.turn.number}: battle in {self.province}"

    def involves(self, kingdom_id: int) -> bool:
        """The kingdoms with a force on the table: the two sides', their supports', and the kingdom
        whose garrison fights beside its ally's army (decisions 580, 585)."""
        return kingdom_id in (self.attacker_kingdom_id, self.defender_kingdom_id, self.garrison_kingdom_id) or any(
            s.kingdom_id == kingdom_id for s in self.supports.all()
        )

    def filing_kingdom_ids(self) -> list[int]:
        """The kingdoms that file a sheet for the battle: the attacker, and the defender when a player
        commands it (a neutral or Ancient Dead garrison files none). Supports come from the side's
        own kingdom, so its sheet covers their detachments. A Reconnaissance or Sabotage: the spy, and
        the target only when its own Tomb Raiders defended (their losses); a guard's are no one's."""
        ids = [self.attacker_kingdom_id]
        if self.mission in ("reconnaissance", "sabotage") and (self.mission_detail or {}).get("defender") != "raiders":
            return ids
        if self.defender_kingdom_id is not None and self.defender_kingdom_id != self.attacker_kingdom_id:
            ids.append(self.defender_kingdom_id)
        return ids


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

    @property
    def allied(self) -> bool:
        """An ally's detachment (Allies): its kingdom fights on neither side itself."""
        return self.kingdom_id not in (self.battle.attacker_kingdom_id, self.battle.defender_kingdom_id)

    @property
    def delayed(self) -> bool:
        """Unexpected Delay: 1-2 on Support Arrival; 1-3 (after -1 for Distrusted) on Alliance Support
        Arrival, whose result is stored."""
        return self.arrival is not None and self.arrival <= (3 if self.allied else 2)


class TurnSummarySheet(models.Model):
    """One kingdom's Turn Summary Sheet for one battle (Appendix: Turn Summary Sheet)."""

    class Status(models.TextChoices):
        DRAFT = "draft", "Draft"
        SUBMITTED = "submitted", "Submitted"

    class Loot(models.TextChoices):
        LOOT = "loot", "Loot"
        SACK = "sack", "Sack"

    battle = models.ForeignKey(Battle, on_delete=models.CASCADE, related_name="summary_sheets")
    kingdom = models.ForeignKey(Kingdom, on_delete=models.CASCADE, related_name="summary_sheets")
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.DRAFT)
    result = models.CharField(max_length=16, choices=RESULT_CHOICES)
    withdrew = models.BooleanField(default=False, help_text="This side withdrew (Withdrawal).")
    opponent_withdrew = models.BooleanField(default=False)
    # [{"unit": id, "models_lost": n, "champion": bool, "standard": bool, "musician": bool, "one_use_used": bool}]
    casualties = models.JSONField(default=list, blank=True)
    characters_lost = models.JSONField(default=list, blank=True, help_text="Ids of characters removed as casualties.")
    loot_choice = models.CharField(max_length=8, choices=Loot.choices, blank=True)
    negotiation_gold = models.PositiveIntegerField(default=0, help_text="Gold this kingdom pays its opponent.")
    negotiation_note = models.CharField(max_length=500, blank=True)
    story = models.TextField(blank=True, help_text="An optional battle report (Stories Are Nice).")
    story_bonus = models.BooleanField(
        default=False,
        help_text="Stories Are Nice: the player gives the turn's story experience to this battle's army.",
    )
    story_army = models.ForeignKey(
        Army,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        help_text="Stories Are Nice: the army, any of the kingdom's, that takes the experience of a Tomb Raiders' "
        "story (empty: the skirmish's army).",
    )
    story_private = models.BooleanField(
        default=False,
        help_text="Stories Are Nice: kept out of the bulletin; only the kingdom and the organizer read it.",
    )
    # Spending Experience: {"<character id>": "dead" | "harmed"}: spend 25 experience to reroll a
    # Dead result, or any result that harms him, on the Character Injury Chart (the second stands).
    injury_rerolls = models.JSONField(default=dict, blank=True)
    backstab = models.BooleanField(
        default=False,
        help_text="Skaven Backstabbers: force the opponent to reroll one unharmed injury test of its army.",
    )
    warlord_heir = models.ForeignKey(
        "kingdoms.Character",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        help_text="Warlord: the General who succeeds if the Warlord dies and Generals tie on experience.",
    )
    # Allies, "Withdraw of support": the parent armies of an ally's detachments on this side that
    # withdrew their support in the battle (the alliance is broken in the aftermath).
    support_withdrawn = models.JSONField(default=list, blank=True)
    # Supply Depot: the opponent's carts this side captured, [{"army": id, "by": id}] (the army whose
    # cart, the army of this side that took it; once per cart); and this side's armies whose cart
    # friendly forces recaptured before the game ended, [id] (decisions 395, 397).
    depots_captured = models.JSONField(default=list, blank=True)
    carts_recaptured = models.JSONField(default=list, blank=True)
    # The Campaign Must Go On: who played the battle for an absent player (the organizer says so on
    # the sheet it files): another player of the campaign, or a guest by name.
    played_by_player = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    played_by_guest = models.CharField(max_length=100, blank=True)
    # Tomb Raid: the raid's result, reported by the raiding kingdom (a plain ruin's skirmish has it for
    # its result on the ladder, decision 430); empty for every other battle.
    raid_result = models.CharField(
        max_length=8,
        choices=RAID_RESULT_CHOICES,
        blank=True,
        help_text="Tomb Raid: the raid's result (success, draw or failure); a draw is no success.",
    )
    # The Tomb Raiders' skirmish (a raid, the scouting forces): the models of each entry of the kingdom's
    # force killed (off the list) and removed as injured (they roll on Recovery), [{"entry": name,
    # "killed": n, "injured": n}] (Maintaining / Changing Tomb Raiders; Recovery).
    raiders = models.JSONField(default=list, blank=True)
    entered_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    by_organizer = models.BooleanField(default=False)
    updated_at = models.DateTimeField(auto_now=True)
    submitted_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["battle", "kingdom"]
        constraints = [models.UniqueConstraint(fields=["battle", "kingdom"], name="summary_sheet_unique")]

    def __str__(self) -> str:
        return f"{self.kingdom}: sheet for {self.battle}"


class ResultsReminder(models.Model):
    """A reminder sent 24 hours before the results deadline; one per kingdom and turn."""

    turn = models.ForeignKey("turns.Turn", on_delete=models.CASCADE, related_name="results_reminders")
    kingdom = models.ForeignKey(Kingdom, on_delete=models.CASCADE, related_name="+")
    sent_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["turn", "kingdom"], name="results_reminder_unique")]

    def __str__(self) -> str:
        return f"Results reminder to {self.kingdom} for {self.turn}"


class BattleMessage(models.Model):
    """A message a player of a battle sent its other side through the site (rules decision 321):
    the email itself is an outbox row; this records who wrote about which battle and when, which
    the rate limit counts (rules decision 363)."""

    battle = models.ForeignKey(Battle, on_delete=models.CASCADE, related_name="messages")
    sender = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    sent_at = models.DateTimeField(db_index=True)

    class Meta:
        ordering = ["battle", "sent_at", "id"]

    def __str__(self) -> str:
        return f"A message about {self.battle} at {self.sent_at:%Y-%m-%d %H:%M}"


class AllianceEndAnnouncement(models.Model):
    """Allies, Announcement: a kingdom announces, during the End of Turn, that its alliance is over
    (decision 385). Made on any of its turn summary sheets or, with no battle to report, on the
    turn's battles page; one per kingdom and turn (a kingdom has one alliance), withdrawn until the
    results deadline. Private until the aftermath, which ends the alliance with the turn: then the
    events and the bulletin make it public."""

    turn = models.ForeignKey("turns.Turn", on_delete=models.CASCADE, related_name="alliance_end_announcements")
    kingdom = models.ForeignKey(Kingdom, on_delete=models.CASCADE, related_name="+")
    alliance = models.ForeignKey(Alliance, on_delete=models.CASCADE, related_name="end_announcements")
    entered_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    by_organizer = models.BooleanField(default=False)
    announced_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["turn", "kingdom"]
        constraints = [
            models.UniqueConstraint(fields=["turn", "kingdom"], name="alliance_end_announcement_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.kingdom} announces the end of {self.alliance} ({self.turn})"
