"""The organizer's back office over every model of the campaign world.

The treasury is a ledger: entries are added (an adjustment with a note), never edited.
"""

from django.contrib import admin

from briternia.admin import CampaignScopedAdmin, CampaignScopedInline

from .models import ArmoryItem, Army, ArmyMovement, Campaign, Character, Kingdom, Province, TreasuryEntry, Unit


class ProvinceInline(CampaignScopedInline, admin.TabularInline):
    model = Province
    fields = ["number", "name", "terrain", "settlement", "capitol_site", "pyramid", "razed", "fortified", "controller"]
    extra = 0
    show_change_link = True


@admin.register(Campaign)
class CampaignAdmin(CampaignScopedAdmin):
    campaign_path = ""
    list_display = ["name", "organizer", "player_count", "status", "current_turn", "special_characters", "created_at"]
    list_filter = ["status"]
    search_fields = ["name"]


@admin.register(Province)
class ProvinceAdmin(CampaignScopedAdmin):
    campaign_path = "campaign"
    list_display = ["number", "name", "campaign", "terrain", "settlement", "controller", "razed", "fortified"]
    list_filter = [("campaign", admin.RelatedOnlyFieldListFilter), "terrain", "settlement", "razed", "fortified"]
    search_fields = ["name"]
    # A province's neighbours are a plain multiple select, as a kingdom's players are (below): Django's
    # two-box chooser carries search icons with an aria-label axe-core refuses (aria-prohibited-attr).


class TreasuryEntryInline(CampaignScopedInline, admin.TabularInline):
    model = TreasuryEntry
    extra = 1
    fields = ["turn", "amount", "reason", "note"]

    def has_change_permission(self, request, obj=None) -> bool:
        return False  # ledger rows are history: add a correcting row instead


@admin.register(Kingdom)
class KingdomAdmin(CampaignScopedAdmin):
    campaign_path = "campaign"
    list_display = ["name", "campaign", "army_type", "capitol", "home_roll"]
    list_filter = [("campaign", admin.RelatedOnlyFieldListFilter), "army_type"]
    # A kingdom has a player or a few: the plain multiple select, labelled, rather than Django's
    # two-box chooser, whose search icons carry an aria-label axe-core refuses (aria-prohibited-attr).
    inlines = [TreasuryEntryInline]


@admin.register(TreasuryEntry)
class TreasuryEntryAdmin(CampaignScopedAdmin):
    campaign_path = "kingdom__campaign"
    list_display = ["kingdom", "turn", "amount", "reason", "note", "created_at"]
    list_filter = [("kingdom__campaign", admin.RelatedOnlyFieldListFilter), "reason"]

    def has_change_permission(self, request, obj=None) -> bool:
        return False


class UnitInline(CampaignScopedInline, admin.TabularInline):
    model = Unit
    extra = 0
    fields = [
        "position",
        "name",
        "category",
        "models_count",
        "points_per_model",
        "equipment_points",
        "veteran_level",
        "one_use",
        "living",
        "dogs_of_war",
        "special_character",
        "models_lost",
    ]
    show_change_link = True


@admin.register(Army)
class ArmyAdmin(CampaignScopedAdmin):
    campaign_path = "kingdom__campaign"
    list_display = ["name", "kingdom", "kind", "province", "size", "supply_depot", "experience", "status"]
    list_filter = [("kingdom__campaign", admin.RelatedOnlyFieldListFilter), "kind", "status"]
    inlines = [UnitInline]


@admin.register(Unit)
class UnitAdmin(CampaignScopedAdmin):
    campaign_path = "army__kingdom__campaign"
    list_display = ["name", "army", "category", "models_count", "points_per_model", "veteran_level"]


@admin.register(Character)
class CharacterAdmin(CampaignScopedAdmin):
    campaign_path = "kingdom__campaign"
    list_display = ["__str__", "kingdom", "rank", "role", "archetype", "monstrous_mount", "alive"]
    list_filter = [("kingdom__campaign", admin.RelatedOnlyFieldListFilter), "role", "alive"]


@admin.register(ArmoryItem)
class ArmoryItemAdmin(CampaignScopedAdmin):
    campaign_path = "kingdom__campaign"
    list_display = ["name", "kingdom", "points", "common", "bearer", "destroyed"]


@admin.register(ArmyMovement)
class ArmyMovementAdmin(CampaignScopedAdmin):
    campaign_path = "army__kingdom__campaign"
    list_display = ["army", "turn", "step", "province"]
