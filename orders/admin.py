"""The organizer's back office for turns, deadlines and order sheets."""

from django.contrib import admin

from briternia.admin import CampaignScopedAdmin, CampaignScopedInline

from .models import CampaignSchedule, DeadlineChange, OrderSheet, OrdersReminder, OrderSubmission, Turn


@admin.register(CampaignSchedule)
class CampaignScheduleAdmin(CampaignScopedAdmin):
    campaign_path = "campaign"
    list_display = ["campaign", "__str__", "paused"]


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


class OrderSubmissionInline(CampaignScopedInline, admin.TabularInline):
    model = OrderSubmission
    extra = 0
    readonly_fields = ["submitted_by", "submitted_at", "entries", "gold", "warnings"]


@admin.register(OrderSheet)
class OrderSheetAdmin(CampaignScopedAdmin):
    campaign_path = "turn__campaign"
    list_display = ["kingdom", "turn", "status", "submitted_at", "updated_at"]
    list_filter = [("turn__campaign", admin.RelatedOnlyFieldListFilter), "status"]
    inlines = [OrderSubmissionInline]


@admin.register(OrdersReminder)
class OrdersReminderAdmin(CampaignScopedAdmin):
    campaign_path = "turn__campaign"
    list_display = ["turn", "kingdom", "sent_at"]
