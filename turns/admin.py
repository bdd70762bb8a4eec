"""The organizer's back office for the turn cycle's records: the turns (with their deadlines'
changes) and the dice rolled."""

from django.contrib import admin

from briternia.admin import CampaignScopedAdmin, CampaignScopedInline
from orders.models import DeadlineChange

from .models import DiceRoll, Turn


class DeadlineChangeInline(CampaignScopedInline, admin.TabularInline):
    model = DeadlineChange
    extra = 0
    readonly_fields = ["kind", "old_value", "new_value", "reason", "changed_by", "changed_at"]


@admin.register(Turn)
class TurnAdmin(CampaignScopedAdmin):
    campaign_path = "campaign"
    list_display = ["campaign", "number", "status", "orders_deadline", "results_deadline"]
    list_filter = [("campaign", admin.RelatedOnlyFieldListFilter), "status"]
    inlines = [DeadlineChangeInline]


@admin.register(DiceRoll)
class DiceRollAdmin(CampaignScopedAdmin):
    campaign_path = "campaign"
    list_display = ["campaign", "turn", "stream", "expression", "total", "purpose", "created_at"]
    # A roll's turn is its number (0 for setup), not a relation: filtered by its values.
    list_filter = [("campaign", admin.RelatedOnlyFieldListFilter), "turn"]
