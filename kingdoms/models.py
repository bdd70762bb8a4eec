"""The campaign world: campaigns, the map, kingdoms, the treasury ledger and armies (the dice rolls
are the turn cycle's records, turns/models.py).

State and database constraints only; the rules live in rulebook/, the writes in
kingdoms/services/.
"""

from __future__ import annotations

import zoneinfo

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import Q, Sum
from django.db.models.functions import Lower

from rulebook.allies.chart import BREAK_LABELS, TRUST_LEVEL_LABELS, TrustLevel
from rulebook.armies.army_lists import CATEGORIES
from rulebook.ruins_and_tomb_raiders.force import (
    FORCE_POINTS,
    MAX_LEADERSHIP,
    Base,
    Command,
    ModelKind,
    Role,
    TroopCategory,
)
from rulebook.ruins_and_tomb_raiders.rival_missions import CaptiveFate, EffectStatus
from rulebook.setup.maps import SETTLEMENTS, TERRAINS
from rulebook.tables import ARCHETYPE_LABELS, ARMY_TYPE_LABELS, ArmyType


def _validate_time_zone(value: str) -> None:
    if value not in zoneinfo.available_timezones():
        raise ValidationError(f"'{value}' is not a time zone name (for example Europe/London).")


class Campaign(models.Model):
    class Status(models.TextChoices):
        INVITING = "inviting", "Inviting players"
        HOMES = "homes", "Home selection"
        PROVINCES = "provinces", "Adjacent province selection"
        ARMY_LISTS = "army-lists", "Army lists"
        RUNNING = "running", "Running"

    name = models.CharField(max_length=100)
    organizer = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="organized")
    player_count = models.PositiveSmallIntegerField(help_text="Number of player kingdoms (the Ancient Dead excluded).")
    current_turn = models.PositiveIntegerField(default=0, help_text="0 while the campaign is being set up.")
    time_zone = models.CharField(max_length=64, default="Europe/London", validators=[_validate_time_zone])
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.INVITING)
    map_name = models.CharField(max_length=100)
    setup_seed = models.CharField(max_length=32, help_text="Seed of the setup dice (home selection, free rolls).")
    # Army Restrictions: "NO special characters may be used, unless specified by the campaign organizer."
    special_characters = models.BooleanField(
        "Special characters allowed",
        default=False,
        help_text="Army Restrictions: no special characters unless the organizer allows them.",
    )
    created_at = models.DateTimeField(auto_now_add=True)
    # Counts the changes to the campaign's world made outside a kingdom's own order sheet (every
    # phase of the turn, the admin, a restore): the order-sheet check keeps the world it loaded
    # while this stands (kingdoms/services/world.py, world_for_kingdom).
    world_version = models.PositiveIntegerField(default=0, editable=False)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return self.name


class Province(models.Model):
    Terrain = models.TextChoices("Terrain", [(t.upper(), t) for t in TERRAINS])
    Settlement = models.TextChoices("Settlement", [(s.upper(), s) for s in SETTLEMENTS])

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="provinces")
    number = models.PositiveIntegerField()
    name = models.CharField(max_length=100)
    terrain = models.CharField(max_length=16, choices=Terrain.choices)
    settlement = models.CharField(max_length=16, choices=Settlement.choices, default="none")
    capitol_site = models.BooleanField(default=False)
    pyramid = models.BooleanField(default=False)
    col = models.PositiveIntegerField()
    row = models.PositiveIntegerField()
    razed = models.BooleanField(default=False)
    fortified = models.BooleanField(default=False)
    incantation = models.BooleanField(
        default=False,
        help_text="The Ancient Dead's incantations turned it to plains: desert next turn if they stay.",
    )
    looted_turn = models.PositiveIntegerField(
        null=True, blank=True, help_text="Looted at the end of this turn: no armies raised here until turn + 2."
    )
    controller = models.ForeignKey(
        "Kingdom", null=True, blank=True, on_delete=models.SET_NULL, related_name="provinces"
    )
    land_sale_turn = models.PositiveIntegerField(
        null=True, blank=True, help_text="Land Sales: given, sold or traded in this turn (Civil Unrest the next)."
    )
    rogue = models.BooleanField(
        default=False, help_text="Civil Unrest: a Rogue Kingdom province of no kingdom, until an army takes it."
    )
    ruin_sacked = models.BooleanField(
        default=False,
        help_text="The Ancient Dead: Deserts: ruins of a town or city sacked by the desert (a 150-point garrison, "
        "no Scarab Amulet).",
    )
    ruin_raids = models.PositiveSmallIntegerField(
        default=0,
        help_text="Tomb Raid: how many times its ruins were raided successfully (the first finds the amulet).",
    )
    # Symmetric: adjacency is stored once per map, corner-to-corner neighbours included for grids.
    neighbours = models.ManyToManyField("self", symmetrical=True, blank=True)

    class Meta:
        ordering = ["campaign", "number"]
        constraints = [
            models.UniqueConstraint(fields=["campaign", "number"], name="province_number_unique"),
            models.CheckConstraint(condition=~Q(razed=True, fortified=True), name="province_razed_not_fortified"),
        ]

    def __str__(self) -> str:
        return f"{self.number} {self.name}"


class KingdomQuerySet(models.QuerySet["Kingdom"]):
    def filing_orders(self) -> KingdomQuerySet:
        """The kingdoms whose players file order sheets: not the Ancient Dead (the organizer's) and not
        a Rogue Kingdom (no leader: it files none and never misses its orders)."""
        return self.exclude(army_type=ArmyType.ANCIENT_DEAD).filter(rogue_turn__isnull=True)


class Kingdom(models.Model):
    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="kingdoms")
    name = models.CharField(max_length=100)
    army_type = models.CharField(max_length=32, choices=[(t.value, ARMY_TYPE_LABELS[t]) for t in ArmyType])
    players = models.ManyToManyField(settings.AUTH_USER_MODEL, blank=True, related_name="kingdoms")
    capitol = models.ForeignKey(Province, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    home_roll = models.PositiveSmallIntegerField(null=True, blank=True, help_text="Final 2D6 for home selection.")
    picked_provinces = models.BooleanField(default=False, help_text="Picked its adjacent provinces at setup.")
    # Rogue Kingdom: its player dropped out (the organizer marked it, or the capitol was not regained)
    # when this turn was open; empty while a player leads it (again: New Player Option).
    rogue_turn = models.PositiveIntegerField(null=True, blank=True, help_text="A Rogue Kingdom since this turn.")
    # Loss of the Capitol: lost in this turn's aftermath; three turns to crown the Warlord in a city.
    capitol_lost_turn = models.PositiveIntegerField(null=True, blank=True, help_text="Lost its capitol in this turn.")
    # New Player Option: given to a new player with no living Warlord, the kingdom's new leader creates
    # one as at Setup, in the first army it raises (decision 603); cleared when his list is entered.
    warlord_to_create = models.BooleanField(
        default=False, help_text="A new leader's Warlord is still to be created, in the first army it raises."
    )
    created_at = models.DateTimeField(auto_now_add=True)

    objects = KingdomQuerySet.as_manager()

    class Meta:
        ordering = ["campaign", "id"]
        constraints = [
            models.UniqueConstraint(fields=["campaign", "name"], name="kingdom_name_unique"),
            models.UniqueConstraint(
                fields=["campaign"], condition=Q(army_type="ancient-dead"), name="one_ancient_dead_per_campaign"
            ),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def is_ancient_dead(self) -> bool:
        return self.army_type == ArmyType.ANCIENT_DEAD

    @property
    def is_rogue(self) -> bool:
        return self.rogue_turn is not None

    @property
    def army_type_enum(self) -> ArmyType:
        return ArmyType(self.army_type)

    def treasury_balance(self) -> int:
        """The treasury is derived from the ledger, never stored."""
        return self.ledger.aggregate(total=Sum("amount"))["total"] or 0


class Alliance(models.Model):
    """An alliance between two kingdoms (Allies): formed when both declared it on the order sheets
    of the same turn, in force until it is broken or cancelled (`ended_turn`). Public: every player
    sees who is allied with whom and the trust level."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="alliances")
    first = models.ForeignKey(Kingdom, on_delete=models.CASCADE, related_name="+")
    second = models.ForeignKey(Kingdom, on_delete=models.CASCADE, related_name="+")
    trust = models.CharField(max_length=1, choices=[(t.value, TRUST_LEVEL_LABELS[t]) for t in TrustLevel])
    formed_turn = models.PositiveIntegerField()
    ended_turn = models.PositiveIntegerField(null=True, blank=True)
    ended_how = models.CharField(max_length=16, blank=True, choices=[(k.value, v) for k, v in BREAK_LABELS.items()])
    broken_by = models.ForeignKey(Kingdom, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")

    class Meta:
        ordering = ["campaign", "formed_turn", "id"]
        constraints = [
            models.CheckConstraint(condition=Q(first__lt=models.F("second")), name="alliance_first_before_second"),
        ]

    def __str__(self) -> str:
        return f"{self.first} and {self.second} ({self.get_trust_display()})"

    @property
    def in_force(self) -> bool:
        return self.ended_turn is None

    def other(self, kingdom: Kingdom) -> Kingdom:
        return self.second if kingdom.id == self.first_id else self.first


class TreasuryEntry(models.Model):
    """One gold movement in a kingdom's treasury: the ledger is the treasury."""

    class Reason(models.TextChoices):
        STARTING_GOLD = "starting-gold", "Starting gold (Setup)"
        TAXES = "taxes", "Taxes"
        IMPERIAL_TAXATION = "imperial-taxation", "Imperial taxation"
        ARMY_CREATED = "army-created", "Army created"
        ARMY_UPGRADED = "army-upgraded", "Army upgraded"
        SUPPLY_DEPOT = "supply-depot", "Supply depot"
        ELITE_DEFENSE_FORCE = "elite-defense-force", "Elite Defense Force"
        LOOT = "loot", "Looting and sacking"
        VICTORY = "victory", "Victory gold"
        ALLIANCE = "alliance", "Alliance"
        TRANSFER = "transfer", "Transfer of gold"
        LAND_SALE = "land-sale", "Land sale"
        CAPITOL_MOVED = "capitol-moved", "Capitol moved"
        TOMB_RAIDERS = "tomb-raiders", "Tomb Raiders' mission"
        RUINS = "ruins", "Treasure from the Ruins"
        THEFT = "theft", "Theft (Sabotage)"
        RETIREMENT = "retirement", "A retired character's items kept"
        ADJUSTMENT = "adjustment", "Organizer's adjustment"

    kingdom = models.ForeignKey(Kingdom, on_delete=models.CASCADE, related_name="ledger")
    turn = models.PositiveIntegerField()
    amount = models.IntegerField(help_text="Positive in, negative out.")
    reason = models.CharField(max_length=32, choices=Reason.choices)
    note = models.CharField(max_length=200, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["kingdom", "turn", "id"]
        verbose_name_plural = "treasury entries"

    def __str__(self) -> str:
        return f"{self.kingdom}: {self.amount:+} ({self.get_reason_display()}, turn {self.turn})"

    @property
    def description(self) -> str:
        """The reason and the note in one line, the reason said once (many notes open with it)."""
        reason = str(self.get_reason_display())
        if not self.note:
            return reason
        if self.note.lower().startswith(reason.lower()):
            return self.note
        return f"{reason}: {self.note}"


class Army(models.Model):
    class Kind(models.TextChoices):
        FIELD = "field", "Army"
        GARRISON = "garrison", "Garrison"

    class Status(models.TextChoices):
        ACTIVE = "active", "Active"
        DISBANDED = "disbanded", "Disbanded"

    kingdom = models.ForeignKey(Kingdom, on_delete=models.CASCADE, related_name="armies")
    name = models.CharField(max_length=100)
    kind = models.CharField(max_length=16, choices=Kind.choices, default=Kind.FIELD)
    province = models.ForeignKey(Province, null=True, blank=True, on_delete=models.SET_NULL, related_name="armies")
    size = models.PositiveIntegerField(help_text="The points the army was raised (or upgraded) at.")
    supply_depot = models.BooleanField(default=True)
    spare_carts = models.PositiveSmallIntegerField(
        default=0,
        help_text="Supply Depot: carts captured from enemy armies, on its roster (decision 396). A capture takes "
        "one of them first, with no penalty; they do not stand for its own depot.",
    )
    experience = models.PositiveIntegerField(default=0)
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.ACTIVE)
    created_turn = models.PositiveIntegerField(default=0)
    upgraded_turn = models.PositiveIntegerField(null=True, blank=True)
    last_battle_turn = models.PositiveIntegerField(null=True, blank=True, help_text="Fortify: not after a battle.")
    recover_streak = models.PositiveSmallIntegerField(
        default=0, help_text="Consecutive earlier turns spent recovering (Recover: +1 each)."
    )
    co_occupying = models.BooleanField(
        default=False,
        help_text="Shares a friendly army's province (a failed forced march, Occupied Province); must move out.",
    )
    fortified_in = models.ForeignKey(
        Province,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        help_text="Fortify: the province it fortified; the bonuses are its own and lost when it moves away.",
    )
    list_due = models.BooleanField(
        default=False,
        help_text="Raised or upgraded and its list not entered since: it counts at the points paid for it.",
    )
    losses_before_list = models.PositiveIntegerField(
        default=0,
        help_text="Points lost (foraging, guerrilla) while its list was due: the list, when entered, leaves them out.",
    )
    painted = models.BooleanField(
        default=False,
        help_text="Painting Counts: marked by the organizer; +1 to its rolls for first turn and table sides.",
    )

    class Meta:
        ordering = ["kingdom", "id"]
        verbose_name_plural = "armies"
        constraints = [models.UniqueConstraint(fields=["kingdom", "name"], name="army_name_unique")]

    def __str__(self) -> str:
        return f"{self.kingdom}: {self.name}"


class ExperienceEntry(models.Model):
    """One change of an army's experience points (Experience Points, Spending Experience): earned in
    battle, for a story, by Press the Advantage; spent on recruits, items, Veteran Status, rolls;
    lost by an upgrade; corrected by the organizer. The ledger is the army's experience:
    `Army.experience` is its balance, written only together with its rows."""

    CARRIED_OVER = "carried-over"  # the balance an army had before the ledger (and on import)
    ADJUSTMENT = "adjustment"  # the organizer's correction, with its reason in the note

    army = models.ForeignKey("Army", on_delete=models.CASCADE, related_name="experience_ledger")
    turn = models.PositiveIntegerField()
    amount = models.IntegerField(help_text="Positive earned, negative spent or lost.")
    reason = models.CharField(
        max_length=40, help_text="The code of the event that moved it (or carried-over, adjustment)."
    )
    note = models.CharField(max_length=300, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["army", "turn", "id"]
        verbose_name_plural = "experience entries"

    def __str__(self) -> str:
        return f"{self.army}: {self.amount:+} experience ({self.reason}, turn {self.turn})"


class ArmyMovement(models.Model):
    """The record of provinces an army passed through each turn (Armies)."""

    # Without a constraint in the database, as the turn's other logs (turns/models.py, TurnEvent).
    army = models.ForeignKey(Army, on_delete=models.CASCADE, related_name="movements", db_constraint=False)
    turn = models.PositiveIntegerField()
    step = models.PositiveSmallIntegerField()
    province = models.ForeignKey(Province, on_delete=models.CASCADE, related_name="+", db_constraint=False)

    class Meta:
        ordering = ["army", "turn", "step"]
        constraints = [models.UniqueConstraint(fields=["army", "turn", "step"], name="army_movement_step_unique")]

    def __str__(self) -> str:
        return f"{self.army} turn {self.turn} step {self.step}: {self.province}"


class Unit(models.Model):
    Category = models.TextChoices("Category", [(c.upper(), c) for c in CATEGORIES])

    army = models.ForeignKey(Army, on_delete=models.CASCADE, related_name="units")
    position = models.PositiveSmallIntegerField(default=0)
    name = models.CharField(max_length=100)
    category = models.CharField(max_length=16, choices=Category.choices)
    models_count = models.PositiveIntegerField("models")
    points_per_model = models.PositiveIntegerField()
    equipment_points = models.PositiveIntegerField(default=0, help_text="Command, mundane equipment, upgrades.")
    # Casualty Recovery: a champion, standard or musician that fails its 4+ leaves the list. Their
    # points are part of equipment_points; 0: the unit has none (or its list does not say).
    champion_points = models.PositiveIntegerField(default=0, help_text="Its champion's points (in equipment).")
    standard_points = models.PositiveIntegerField(default=0, help_text="Its standard bearer's points (in equipment).")
    musician_points = models.PositiveIntegerField(default=0, help_text="Its musician's points (in equipment).")
    veteran_level = models.PositiveSmallIntegerField(default=0)
    veteran_eligible = models.BooleanField(
        default=False, help_text="Kept more than half its models in its last battle: may buy the next level."
    )
    one_use = models.BooleanField(default=False, help_text="One-use troops (Night Goblin Fanatics and the like).")
    # Curse of the Dead: "the undead units in the army cannot spend experience points on Veteran
    # Status". A unit of a Tomb Kings or Vampire Counts army is undead unless its list says it lives.
    living = models.BooleanField(
        default=False,
        help_text="A living unit of an undead army (Tomb Kings, Vampire Counts): mercenaries and the like, "
        "not under the Curse of the Dead.",
    )
    # 3. Create / Upgrade Armies: "Dogs of War units are not subject to the 10% discount as they are
    # mercenaries after all": a unit hired into another kingdom's army says so on its list.
    dogs_of_war = models.BooleanField(
        default=False,
        help_text="A Dogs of War unit hired into this army: mercenaries pay no town discount.",
    )
    special_character = models.BooleanField(
        default=False, help_text="A special character of the army book: only when the campaign allows them."
    )
    models_lost = models.PositiveIntegerField(default=0, help_text="Casualties over the campaign, after recovery.")

    class Meta:
        ordering = ["army", "position", "id"]
        constraints = [models.CheckConstraint(condition=Q(veteran_level__lte=3), name="unit_veteran_level_max_3")]

    def __str__(self) -> str:
        return self.name

    @property
    def points(self) -> int:
        return self.models_count * self.points_per_model + self.equipment_points


class Character(models.Model):
    """A character is a unit of one model with a rank, a role and, for a General, an Archetype."""

    class Rank(models.TextChoices):
        LORD = "lord", "Lord"
        HERO = "hero", "Hero"

    class Role(models.TextChoices):
        WARLORD = "warlord", "Warlord"
        GENERAL = "general", "General"
        HERO = "hero", "Hero"

    unit = models.OneToOneField(Unit, on_delete=models.CASCADE, related_name="character")
    kingdom = models.ForeignKey(Kingdom, on_delete=models.CASCADE, related_name="characters")
    rank = models.CharField(max_length=8, choices=Rank.choices, default=Rank.HERO)
    role = models.CharField(max_length=8, choices=Role.choices, default=Role.HERO)
    archetype = models.CharField(max_length=16, choices=list(ARCHETYPE_LABELS.items()), blank=True)
    abilities = models.JSONField(default=list, blank=True, help_text="Starting Ability first, then advancements.")
    ability_choice_pending = models.BooleanField(
        default=False, help_text="Rolled a 6 (Choose) on the advancement table and has not chosen yet."
    )
    monstrous_mount = models.BooleanField(default=False)
    wizard = models.BooleanField(default=False)
    magic_level = models.PositiveSmallIntegerField(
        default=0, help_text="A Wizard's magic level (0: not entered, counts as 1). Deserts: +1 a level."
    )
    rune_smith = models.BooleanField(
        default=False, help_text="A Dwarf or Chaos Dwarf rune smith: with a Scarab Amulet he may turn a desert."
    )
    immune_to_psychology = models.BooleanField(
        default=False,
        help_text="Immune to Psychology by his army book: a psychology Archetype Ability rolled for him is rolled "
        "again (undead characters are, without the flag).",
    )
    potential_used = models.BooleanField(
        default=False, help_text="Magician, Potential: he bought his extra magic level (once per campaign)."
    )
    battles_survived = models.PositiveIntegerField(default=0)
    battles_at_last_ability = models.PositiveIntegerField(
        default=0,
        help_text="battles_survived when he last gained an ability: he rolls again three battles later.",
    )
    injuries = models.JSONField(default=list, blank=True)
    alive = models.BooleanField(default=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["kingdom"], condition=Q(role="warlord", alive=True), name="one_living_warlord_per_kingdom"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.unit.name} ({self.get_role_display()})"


class ArmoryItem(models.Model):
    """A magic item of the kingdom's armory: one of each per kingdom, common items exempt."""

    kingdom = models.ForeignKey(Kingdom, on_delete=models.CASCADE, related_name="items")
    name = models.CharField(max_length=100)
    points = models.PositiveIntegerField()
    common = models.BooleanField(default=False)
    bearer = models.ForeignKey(Unit, null=True, blank=True, on_delete=models.SET_NULL, related_name="items")
    destroyed = models.BooleanField(default=False, help_text="Lost with a disbanded army; never replaced.")

    class Meta:
        ordering = ["kingdom", "name"]
        constraints = [
            models.UniqueConstraint(
                "kingdom", Lower("name"), condition=Q(common=False), name="armory_item_unique_per_kingdom"
            ),
        ]

    def __str__(self) -> str:
        return self.name


class Delivery(models.Model):
    """A purchase with experience on its way (Spending Experience, Supply Depot: "a one Turn Delay"):
    bought in `ordered_turn`, it is put on the army's list at the beginning of `arrives_turn`."""

    class Status(models.TextChoices):
        ON_THE_WAY = "on-the-way", "On the way"
        ARRIVED = "arrived", "Arrived"
        LOST = "lost", "Lost (its army disbanded, or an armory item the kingdom holds already)"

    army = models.ForeignKey(Army, on_delete=models.CASCADE, related_name="deliveries")
    kind = models.CharField(max_length=16, help_text="recruits, equipment, item or supply-depot")
    what = models.CharField(max_length=200, help_text="In words, e.g. 10 Spearmen (60 points).")
    unit = models.CharField(max_length=100, blank=True, help_text="The unit or character it is for.")
    models_count = models.PositiveIntegerField("models", default=0)
    points = models.PositiveIntegerField(default=0, help_text="The points it adds to the army.")
    points_per_model = models.PositiveIntegerField(default=0, help_text="A new unit's, or the unit's.")
    name = models.CharField(max_length=100, blank=True, help_text="A new unit's or the item's name.")
    category = models.CharField(max_length=16, blank=True, help_text="A new unit's category.")
    common = models.BooleanField(default=False)
    cost = models.PositiveIntegerField(help_text="The experience paid.")
    ordered_turn = models.PositiveIntegerField()
    arrives_turn = models.PositiveIntegerField()
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.ON_THE_WAY)

    class Meta:
        ordering = ["army", "arrives_turn", "id"]
        verbose_name_plural = "deliveries"

    def __str__(self) -> str:
        return f"{self.army}: {self.what} (turn {self.arrives_turn}, {self.get_status_display()})"


class RosterAdjustment(models.Model):
    """The organizer's correction of an army's list beyond what the player may do for free (XP7),
    with its reason: the list before and after, so the roster stays a ledger."""

    army = models.ForeignKey(Army, on_delete=models.CASCADE, related_name="roster_adjustments")
    turn = models.PositiveIntegerField()
    reason = models.CharField(max_length=300)
    points_before = models.IntegerField()
    points_after = models.IntegerField()
    changes = models.JSONField(default=list, help_text="What the list gained, in words.")
    made_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["army", "turn", "id"]

    def __str__(self) -> str:
        return f"{self.army}: list corrected in turn {self.turn} ({self.reason})"


class DraftedArmyList(models.Model):
    """An army list as its player left it in the editor, saved without being entered: the rows as
    posted, complete or not. Nothing counts it: the army's list is its units, which only a valid
    list replaces (kingdoms.services.armies.army_list_save); the campaign's Start reads those."""

    army = models.OneToOneField(Army, on_delete=models.CASCADE, related_name="drafted_list")
    rows = models.JSONField(help_text="The editor's fields as posted: name -> value.")
    updated_at = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"{self.army}: drafted list"


class TombRaiderForce(models.Model):
    """A kingdom's Tomb Raider force (Tomb Raiders: Creating Tomb Raiders): one per kingdom, never the
    Ancient Dead's (kingdoms.services.tomb_raiders refuses it). Its entries are the list; what the
    list held as the turn it was last changed opened, and the points added since, are kept for the
    5 gold a point that lets a force changed this turn go on a mission (Maintaining / Changing)."""

    kingdom = models.OneToOneField(Kingdom, on_delete=models.CASCADE, related_name="tomb_raiders")
    changed_turn = models.PositiveIntegerField(default=0, help_text="The turn the list was last changed (0: setup).")
    points_added = models.PositiveSmallIntegerField(
        default=0,
        validators=[MaxValueValidator(FORCE_POINTS)],
        help_text="Points added to the list since the changed turn opened (5 gold a point to go on a mission).",
    )
    opening_points = models.JSONField(
        default=dict, blank=True, help_text="The list as the changed turn opened: entry name (lower case) -> points."
    )
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [
            models.CheckConstraint(
                condition=Q(points_added__lte=FORCE_POINTS), name="tomb_raiders_points_added_max_force_points"
            )
        ]

    def __str__(self) -> str:
        return f"Tomb Raiders of {self.kingdom}"


class TombRaiderEntry(models.Model):
    """Models of one unit type with the same equipment in a Tomb Raider force: what the check
    (rulebook.ruins_and_tomb_raiders.force.RaiderEntry) needs, as the player marks it."""

    Category = models.TextChoices("Category", [(c.name, c.value) for c in TroopCategory])
    BaseSize = models.TextChoices("BaseSize", [(b.name, b.value) for b in Base])
    Kind = models.TextChoices("Kind", [(k.name, k.value) for k in ModelKind])
    RoleChoice = models.TextChoices("RoleChoice", [(r.name, r.value) for r in Role])
    CommandChoice = models.TextChoices("CommandChoice", [(c.name, c.value) for c in Command])

    force = models.ForeignKey(TombRaiderForce, on_delete=models.CASCADE, related_name="entries")
    position = models.PositiveSmallIntegerField(default=0)
    name = models.CharField(max_length=100)
    unit_type = models.CharField(max_length=100, blank=True, help_text="The army book's unit it is chosen from.")
    models_count = models.PositiveSmallIntegerField(
        "models", validators=[MinValueValidator(1), MaxValueValidator(FORCE_POINTS)]
    )
    points_per_model = models.PositiveSmallIntegerField(validators=[MaxValueValidator(FORCE_POINTS)])
    category = models.CharField(max_length=16, choices=Category.choices, default=TroopCategory.CORE.value)
    base = models.CharField(max_length=8, choices=BaseSize.choices, default=Base.MM_25.value)
    kind = models.CharField(max_length=16, choices=Kind.choices, default=ModelKind.FOOT.value)
    role = models.CharField(max_length=16, choices=RoleChoice.choices, default=Role.TROOPER.value)
    command = models.CharField(max_length=16, choices=CommandChoice.choices, default=Command.NONE.value)
    missile_weapon = models.BooleanField(default=False)
    magic_item = models.BooleanField(default=False)
    magic_user = models.BooleanField(default=False)
    leadership = models.PositiveSmallIntegerField(
        default=0, validators=[MaxValueValidator(MAX_LEADERSHIP)], help_text="The army book's Ld (0: not entered)."
    )
    wounds = models.PositiveSmallIntegerField(default=1, validators=[MinValueValidator(1), MaxValueValidator(10)])
    promoted = models.BooleanField(default=False, help_text="A Lieutenant promoted Captain: never the bonus wound.")
    out_of_action = models.PositiveSmallIntegerField(
        default=0, help_text="Of its models, those out of action for this turn (Recovery: a 2)."
    )

    class Meta:
        ordering = ["force", "position", "id"]
        constraints = [
            models.CheckConstraint(
                condition=Q(models_count__gte=1, models_count__lte=FORCE_POINTS), name="tomb_raider_entry_models"
            ),
            models.CheckConstraint(
                condition=Q(points_per_model__lte=FORCE_POINTS), name="tomb_raider_entry_points_per_model_max"
            ),
            models.CheckConstraint(
                condition=Q(leadership__lte=MAX_LEADERSHIP, wounds__gte=1, wounds__lte=10),
                name="tomb_raider_entry_profile",
            ),
            models.CheckConstraint(
                condition=Q(out_of_action__lte=models.F("models_count")), name="tomb_raider_entry_out_of_action"
            ),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def points(self) -> int:
        return self.models_count * self.points_per_model


class MissionEffect(models.Model):
    """What a Reconnaissance or Sabotage earned (rulebook.ruins_and_tomb_raiders.rival_missions.
    MissionEffectState): `kingdom` earned it against `target` and keeps it until its moment comes (the
    next battle, the next army created, the next turn's orders) or it expires (decision 450). Only
    `kingdom`'s players and the organizer ever read `data` (what a Reconnaissance learned)."""

    Status = models.TextChoices("Status", [(s.name, s.value) for s in EffectStatus])

    campaign = models.ForeignKey("Campaign", on_delete=models.CASCADE, related_name="mission_effects")
    kingdom = models.ForeignKey(Kingdom, on_delete=models.CASCADE, related_name="mission_effects")
    target = models.ForeignKey(Kingdom, on_delete=models.CASCADE, related_name="mission_effects_against")
    mission = models.CharField(max_length=40, help_text="The Reconnaissance or Sabotage mission gained.")
    earned_turn = models.PositiveIntegerField()
    target_army = models.ForeignKey(Army, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    target_character = models.ForeignKey(
        "Character", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    data = models.JSONField(default=dict, blank=True)
    status = models.CharField(max_length=16, choices=Status.choices, default=EffectStatus.PENDING.value)
    used_turn = models.PositiveIntegerField(null=True, blank=True)
    expires_turn = models.PositiveIntegerField(null=True, blank=True)

    class Meta:
        ordering = ["campaign", "earned_turn", "id"]
        indexes = [models.Index(fields=["campaign", "status"])]

    def __str__(self) -> str:
        return f"{self.mission} of {self.kingdom} against {self.target} (turn {self.earned_turn})"


class CapturedRaider(models.Model):
    """A Tomb Raider model captured on a failed Reconnaissance or Sabotage
    (rulebook.ruins_and_tomb_raiders.rival_missions.CaptiveState): held by `captor` until it decides its
    fate on a later sheet. `record` is the entry it was taken from, one model, to give it back."""

    Fate = models.TextChoices("Fate", [(f.name, f.value) for f in CaptiveFate])

    campaign = models.ForeignKey("Campaign", on_delete=models.CASCADE, related_name="captured_raiders")
    captor = models.ForeignKey(Kingdom, on_delete=models.CASCADE, related_name="captives")
    owner = models.ForeignKey(Kingdom, on_delete=models.CASCADE, related_name="raiders_captured")
    entry = models.CharField(max_length=100, help_text="The Tomb Raider entry the model was taken from.")
    record = models.JSONField(default=dict, blank=True, help_text="The entry's record, one model.")
    captured_turn = models.PositiveIntegerField()
    fate = models.CharField(max_length=16, choices=Fate.choices, default=CaptiveFate.HELD.value)
    fate_turn = models.PositiveIntegerField(null=True, blank=True)

    class Meta:
        ordering = ["campaign", "captured_turn", "id"]

    def __str__(self) -> str:
        return f"{self.entry} of {self.owner}, captive of {self.captor}"


class ReportPreferences(models.Model):
    """How a player receives the turn reports: the address, and the PDF attached or a link."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="report_preferences")
    report_email = models.EmailField(blank=True, help_text="Empty: the account's own address.")
    attach_pdf = models.BooleanField(default=True, help_text="Off: the email carries a link to the report instead.")

    class MessageEmails(models.TextChoices):
        EACH = "each", "An email for each message"
        DIGEST = "digest", "One email a day with the day's messages"
        NONE = "none", "No email: I read them on the site"

    # Diplomacy (issue 37): how the player hears of the messages other kingdoms send them.
    message_emails = models.CharField(max_length=8, choices=MessageEmails.choices, default=MessageEmails.EACH)
    # The last daily digest sent (diplomacy.services.digests): the next one tells what came after.
    messages_digest_at = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return f"Report preferences of {self.user}"


class PlayerMailSecret(models.Model):
    """The secret in a player's orders address (`orders+<secret>@example.org`, issue 36): a mail to
    the orders address is filed for the account whose secret its address carries, never for whoever
    its From header names (a header anyone can write). One per account, not per campaign: it is a
    credential of the person, like the API token (one thing to replace when it leaks), and the sheet
    in the mail names its campaign itself. Replaced by its owner on the "Orders by email" page; shown
    to nobody else (kingdoms.services.mail_addresses)."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="mail_secret")
    # Lowercase letters and digits only: a plus-address survives mail servers that fold case.
    secret = models.CharField(max_length=40, unique=True)
    created_at = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"Orders address secret of {self.user}"
