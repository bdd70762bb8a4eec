"""API serializers of the campaign world: output shapes, and the army-list input."""

from __future__ import annotations

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from briternia.fields import IntegerSerializerField
from rulebook.archetypes.character_record import character_record
from rulebook.armies.army_lists import CATEGORIES, CharacterEntry, ItemEntry, UnitEntry
from rulebook.ruins_and_tomb_raiders.force import (
    FORCE_POINTS,
    MAX_LEADERSHIP,
    Base,
    Command,
    ModelKind,
    RaiderEntry,
    Role,
    TroopCategory,
    raider_entry,
)
from rulebook.tables import ARCHETYPE_LABELS

from .models import Alliance, ArmoryItem, Army, Campaign, Character, Delivery, Kingdom, Province, TreasuryEntry, Unit
from .people import display_name


class CampaignSerializer(serializers.ModelSerializer):
    organizer = serializers.SerializerMethodField(help_text="The organizer's display name.")

    class Meta:
        model = Campaign
        fields = ["id", "name", "organizer", "player_count", "current_turn", "time_zone", "status", "map_name"]

    def get_organizer(self, campaign: Campaign) -> str:
        return display_name(campaign.organizer)


class ProvinceSerializer(serializers.ModelSerializer):
    """The public map: what every player may know of a province."""

    neighbours = serializers.SerializerMethodField()
    controller = serializers.PrimaryKeyRelatedField(
        read_only=True, allow_null=True, help_text="The controlling kingdom's id; null: neutral."
    )
    # Ruins: public, as the map draws them (decision 442): how many times raided, never by whom.
    ruin_raids = IntegerSerializerField(
        read_only=True, help_text="Tomb Raid: how many times the province's ruins were raided successfully."
    )
    ruin_sacked = serializers.BooleanField(
        read_only=True, help_text="The Ancient Dead: Deserts: ruins of a town or city the desert sacked."
    )

    class Meta:
        model = Province
        fields = [
            "number",
            "name",
            "terrain",
            "settlement",
            "capitol_site",
            "pyramid",
            "col",
            "row",
            "razed",
            "fortified",
            "controller",
            "rogue",
            "ruin_raids",
            "ruin_sacked",
            "neighbours",
        ]

    def get_neighbours(self, province: Province) -> list[int]:
        return sorted(n.number for n in province.neighbours.all())


class KingdomPublicSerializer(serializers.ModelSerializer):
    players = serializers.SerializerMethodField()
    capitol = serializers.SerializerMethodField()
    province_count = IntegerSerializerField(read_only=True)

    class Meta:
        model = Kingdom
        fields = ["id", "name", "army_type", "players", "capitol", "province_count", "rogue_turn"]

    @extend_schema_field(serializers.ListField(child=serializers.CharField()))
    def get_players(self, kingdom: Kingdom) -> list[str]:
        """The players' display names (never their email addresses)."""
        return [display_name(p) for p in kingdom.players.all()]

    def get_capitol(self, kingdom: Kingdom) -> int | None:
        return kingdom.capitol.number if kingdom.capitol else None


class ExperienceRowSerializer(serializers.Serializer):
    turn = IntegerSerializerField()
    amount = IntegerSerializerField()
    reason = serializers.CharField(help_text="The reason in words.")
    note = serializers.CharField()
    balance = IntegerSerializerField(help_text="The army's experience after this row.")


class ExperienceLedgerSerializer(serializers.Serializer):
    earned = IntegerSerializerField()
    spent = IntegerSerializerField()
    balance = IntegerSerializerField()
    rows = ExperienceRowSerializer(many=True)


class ExperienceAdjustInputSerializer(serializers.Serializer):
    amount = IntegerSerializerField(help_text="Signed: positive adds experience, negative takes it away.")
    reason = serializers.CharField(max_length=300, allow_blank=True, help_text="Why: it goes into the army's ledger.")


class TreasuryEntrySerializer(serializers.ModelSerializer):
    class Meta:
        model = TreasuryEntry
        fields = ["turn", "amount", "reason", "note", "created_at"]


class CharacterSerializer(serializers.ModelSerializer):
    name = serializers.CharField(source="unit.name")
    army = IntegerSerializerField(source="unit.army_id")
    record = serializers.SerializerMethodField(
        help_text="His injuries with their effects, battles still to miss (Deep Wound), Old Battle Wounds."
    )

    @extend_schema_field(OpenApiTypes.OBJECT)
    def get_record(self, character: Character) -> dict[str, object]:
        return character_record(character.injuries).as_json()

    class Meta:
        model = Character
        fields = [
            "id",
            "name",
            "army",
            "rank",
            "role",
            "archetype",
            "abilities",
            "ability_choice_pending",
            "monstrous_mount",
            "wizard",
            "magic_level",
            "rune_smith",
            "immune_to_psychology",
            "potential_used",
            "battles_survived",
            "injuries",
            "record",
            "alive",
        ]


class ItemSerializer(serializers.ModelSerializer):
    bearer = serializers.CharField(source="bearer.name", default="")

    class Meta:
        model = ArmoryItem
        fields = ["name", "points", "common", "bearer", "destroyed"]


class UnitSerializer(serializers.ModelSerializer):
    models = IntegerSerializerField(source="models_count")
    character = CharacterSerializer(read_only=True, default=None, allow_null=True)

    class Meta:
        model = Unit
        fields = [
            "id",
            "name",
            "category",
            "models",
            "points_per_model",
            "equipment_points",
            "veteran_level",
            "one_use",
            "living",
            "dogs_of_war",
            "special_character",
            "champion_points",
            "standard_points",
            "musician_points",
            "models_lost",
            "points",
            "character",
        ]


class DeliverySerializer(serializers.ModelSerializer):
    """A purchase with experience on its way (Spending Experience: a one Turn Delay)."""

    class Meta:
        model = Delivery
        fields = ["kind", "what", "cost", "ordered_turn", "arrives_turn"]


class ArmySerializer(serializers.ModelSerializer):
    province = IntegerSerializerField(source="province.number", default=None)
    units = UnitSerializer(many=True, read_only=True)
    items = serializers.SerializerMethodField()
    on_the_way = serializers.SerializerMethodField(
        help_text="What the army bought with experience and has not received: it arrives at the start of "
        "`arrives_turn`."
    )
    points = serializers.SerializerMethodField()

    class Meta:
        model = Army
        fields = [
            "id",
            "name",
            "kind",
            "province",
            "size",
            "points",
            "supply_depot",
            "spare_carts",
            "experience",
            "painted",
            "status",
            "created_turn",
            "upgraded_turn",
            "units",
            "items",
            "on_the_way",
        ]

    @extend_schema_field(DeliverySerializer(many=True))
    def get_on_the_way(self, army: Army) -> list[dict]:
        on_the_way = [d for d in army.deliveries.all() if d.status == Delivery.Status.ON_THE_WAY]
        return DeliverySerializer(on_the_way, many=True).data

    def get_items(self, army: Army) -> list[dict]:
        return ItemSerializer([i for u in army.units.all() for i in u.items.all()], many=True).data

    def get_points(self, army: Army) -> int:
        from .selectors import army_points

        return army_points(army)


class KingdomNameSerializer(serializers.Serializer):
    id = IntegerSerializerField()
    name = serializers.CharField()


class AllianceSerializer(serializers.ModelSerializer):
    """An alliance (Allies): public once made (decision 130)."""

    kingdoms = serializers.SerializerMethodField()
    trust_label = serializers.CharField(source="get_trust_display")
    broken_by = IntegerSerializerField(source="broken_by_id", allow_null=True)

    class Meta:
        model = Alliance
        fields = ["id", "kingdoms", "trust", "trust_label", "formed_turn", "ended_turn", "ended_how", "broken_by"]

    @extend_schema_field(KingdomNameSerializer(many=True))
    def get_kingdoms(self, alliance: Alliance) -> list[dict[str, object]]:
        return [{"id": k.id, "name": k.name} for k in (alliance.first, alliance.second)]


class KingdomPrivateSerializer(serializers.ModelSerializer):
    treasury = IntegerSerializerField(source="treasury_balance")
    capitol = IntegerSerializerField(source="capitol.number", default=None)
    alliance = serializers.SerializerMethodField(help_text="The kingdom's alliance in force (Allies), or null.")

    class Meta:
        model = Kingdom
        fields = ["id", "name", "army_type", "capitol", "treasury", "alliance"]

    @extend_schema_field(AllianceSerializer(allow_null=True))
    def get_alliance(self, kingdom: Kingdom) -> dict[str, object] | None:
        from .selectors import alliance_in_force

        alliance = alliance_in_force(kingdom)
        return dict(AllianceSerializer(alliance).data) if alliance else None


class UnitInputSerializer(serializers.Serializer):
    id = IntegerSerializerField(required=False, allow_null=True, help_text="A stored unit's id, to keep it.")
    name = serializers.CharField(max_length=100)
    category = serializers.ChoiceField(choices=CATEGORIES)
    models = IntegerSerializerField(min_value=1)
    points_per_model = IntegerSerializerField(min_value=0)
    equipment_points = IntegerSerializerField(min_value=0, default=0)
    veteran_level = IntegerSerializerField(min_value=0, max_value=3, default=0)
    one_use = serializers.BooleanField(default=False)
    living = serializers.BooleanField(
        default=False,
        help_text="A living unit of a Tomb Kings or Vampire Counts army (mercenaries and the like): it may become "
        "a Veteran; their other units are undead (Curse of the Dead).",
    )
    dogs_of_war = serializers.BooleanField(
        default=False,
        help_text="A Dogs of War unit hired into another kingdom's army: mercenaries pay no town discount "
        "(3. Create / Upgrade Armies).",
    )
    champion_points = IntegerSerializerField(
        min_value=0, default=0, help_text="Its champion's points, part of `equipment_points` (0: none)."
    )
    standard_points = IntegerSerializerField(
        min_value=0, default=0, help_text="Its standard bearer's points, part of `equipment_points` (0: none)."
    )
    musician_points = IntegerSerializerField(
        min_value=0, default=0, help_text="Its musician's points, part of `equipment_points` (0: none)."
    )
    special_character = serializers.BooleanField(
        default=False,
        help_text="A special character of the army book: refused unless the organizer allows them (Army Restrictions).",
    )
    rank = serializers.ChoiceField(choices=["lord", "hero"], default="hero")
    role = serializers.ChoiceField(choices=["warlord", "general", "hero"], default="hero")
    archetype = serializers.ChoiceField(choices=list(ARCHETYPE_LABELS), required=False, allow_null=True)
    monstrous_mount = serializers.BooleanField(default=False)
    wizard = serializers.BooleanField(default=False)
    magic_level = IntegerSerializerField(
        min_value=0, max_value=5, default=0, help_text="A Wizard's magic level (0: not entered, counts as 1)."
    )
    rune_smith = serializers.BooleanField(default=False, help_text="A Dwarf or Chaos Dwarf rune smith.")
    immune_to_psychology = serializers.BooleanField(
        default=False,
        help_text="A character Immune to Psychology: a psychology Archetype Ability rolled for him is rolled again.",
    )

    def entry(self, data: dict) -> UnitEntry:
        character = None
        if data["category"] == "character":
            character = CharacterEntry(
                rank=data["rank"],
                role=data["role"],
                archetype=data.get("archetype"),
                monstrous_mount=data["monstrous_mount"],
                wizard=data["wizard"],
                magic_level=data["magic_level"],
                rune_smith=data["rune_smith"],
                immune_to_psychology=data["immune_to_psychology"],
            )
        return UnitEntry(
            key=data.get("id"),
            name=data["name"],
            category=data["category"],
            models=data["models"],
            points_per_model=data["points_per_model"],
            equipment_points=data["equipment_points"],
            veteran_level=data["veteran_level"],
            one_use=data["one_use"],
            living=data["living"],
            dogs_of_war=data["dogs_of_war"],
            special_character=data["special_character"],
            champion_points=data["champion_points"],
            standard_points=data["standard_points"],
            musician_points=data["musician_points"],
            character=character,
        )


class ItemInputSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=100)
    points = IntegerSerializerField(min_value=0)
    common = serializers.BooleanField(default=False)
    bearer = serializers.CharField(max_length=100)


class ArmyListInputSerializer(serializers.Serializer):
    units = UnitInputSerializer(many=True)
    items = ItemInputSerializer(many=True, default=list)
    correction = serializers.CharField(
        max_length=300,
        required=False,
        default="",
        allow_blank=True,
        help_text="Organizer only: why the list is corrected beyond what is paid for (recorded). Once a list is "
        "entered and the campaign runs, an edit that adds models, units, equipment, items, Veteran levels or "
        "points is refused with what it costs on the order sheet (Spending Experience).",
    )

    def entries(self) -> tuple[list[UnitEntry], list[ItemEntry]]:
        unit_input = UnitInputSerializer()
        units = [unit_input.entry(u) for u in self.validated_data["units"]]
        items = [ItemEntry(**i) for i in self.validated_data["items"]]
        return units, items


class HomePickInputSerializer(serializers.Serializer):
    province = IntegerSerializerField()
    kingdom = IntegerSerializerField(required=False, help_text="Organizer only: pick for this kingdom.")


class AdjacentPickInputSerializer(serializers.Serializer):
    provinces = serializers.ListField(child=IntegerSerializerField())
    kingdom = IntegerSerializerField(required=False, help_text="Organizer only: pick for this kingdom.")


class TombRaiderEntrySerializer(serializers.Serializer):
    """One entry of a Tomb Raider force: models of one unit type with the same equipment, marked
    with what the check needs (Tomb Raiders: Creating Tomb Raiders)."""

    name = serializers.CharField(max_length=100)
    unit_type = serializers.CharField(
        max_length=100, required=False, default="", allow_blank=True, help_text="The army book's unit it is from."
    )
    models = IntegerSerializerField(min_value=1, max_value=FORCE_POINTS)
    points_per_model = IntegerSerializerField(min_value=0, max_value=FORCE_POINTS)
    category = serializers.ChoiceField(choices=[c.value for c in TroopCategory], default=TroopCategory.CORE.value)
    base = serializers.ChoiceField(choices=[b.value for b in Base], default=Base.MM_25.value)
    kind = serializers.ChoiceField(choices=[k.value for k in ModelKind], default=ModelKind.FOOT.value)
    role = serializers.ChoiceField(choices=[r.value for r in Role], default=Role.TROOPER.value)
    command = serializers.ChoiceField(choices=[c.value for c in Command], default=Command.NONE.value)
    missile_weapon = serializers.BooleanField(default=False)
    magic_item = serializers.BooleanField(default=False)
    magic_user = serializers.BooleanField(default=False)
    leadership = IntegerSerializerField(
        min_value=0, max_value=MAX_LEADERSHIP, default=0, help_text="The army book's Ld (0: not entered)."
    )
    wounds = IntegerSerializerField(min_value=1, max_value=10, default=1)
    promoted = serializers.BooleanField(default=False, help_text="A Lieutenant promoted Captain (no bonus wound).")
    out_of_action = IntegerSerializerField(
        read_only=True, help_text="Of its models, those out of action this turn (Recovery: a 2); set by the recovery."
    )
    points = IntegerSerializerField(read_only=True)

    def entry(self, data: dict) -> RaiderEntry:
        return raider_entry(data)


class TombRaidersInputSerializer(serializers.Serializer):
    entries = TombRaiderEntrySerializer(many=True, max_length=FORCE_POINTS)

    def raider_entries(self) -> list[RaiderEntry]:
        entry = TombRaiderEntrySerializer()
        return [entry.entry(e) for e in self.validated_data["entries"]]


class ProfileSerializer(serializers.Serializer):
    leadership = IntegerSerializerField()
    wounds = IntegerSerializerField()


class TombRaiderProblemSerializer(serializers.Serializer):
    code = serializers.CharField()
    message = serializers.CharField()
    entries = serializers.ListField(child=serializers.CharField())
    rule = serializers.CharField()


class TombRaiderCaptiveSerializer(serializers.Serializer):
    """A captured Tomb Raider the kingdom holds, or one of its own models another kingdom holds
    (Reconnaissance, Sabotage: failure, 1-2; decisions 453 and 491). Known to its captor and its owner only."""

    id = IntegerSerializerField(help_text="The captive's id, as a captive order on the captor's sheet names it.")
    entry = serializers.CharField(help_text="The Tomb Raider entry the model was taken from (one model).")
    held = serializers.BooleanField(help_text="True: this kingdom holds it; false: one of its own models, held.")
    captor = serializers.CharField(help_text="The kingdom that holds it.")
    owner = serializers.CharField(help_text="The kingdom whose Tomb Raiders it is.")
    captured_turn = IntegerSerializerField(help_text="Held since the aftermath of this turn.")
    fate = serializers.ChoiceField(choices=["held", "released", "executed"])
    fate_turn = IntegerSerializerField(allow_null=True, help_text="The turn whose sheet decided its fate.")


class TombRaidersSerializer(serializers.Serializer):
    """A kingdom's Tomb Raider force: its entries, total of the 150, the Captain as he fights, the
    points added in the turn it last changed (5 gold a point to go on a mission that turn), and what
    the check says of it now (a promotion may leave it over 150, rules decision 404)."""

    entries = TombRaiderEntrySerializer(many=True, source="force.entries")
    points = IntegerSerializerField()
    points_limit = IntegerSerializerField()
    points_unused = IntegerSerializerField()
    captain_profile = ProfileSerializer(allow_null=True)
    changed_turn = IntegerSerializerField(allow_null=True)
    points_added = IntegerSerializerField()
    change_fee = IntegerSerializerField(help_text="Gold to let the force changed this turn go on a mission.")
    models_available = IntegerSerializerField(
        help_text="The models able to go on a mission this turn: all but those out of action (Recovery)."
    )
    problems = TombRaiderProblemSerializer(many=True)
    captives = TombRaiderCaptiveSerializer(many=True)
