"""The organizer's back office for the schedules and order sheets (the turns' pages are the turn cycle's,
turns/admin.py)."""

from django.contrib import admin

from briternia.admin import CampaignScopedAdmin, CampaignScopedInline

from .models import CampaignSchedule, OrderSheet, OrdersReminder, OrderSubmission


@admin.register(CampaignSchedule)
class CampaignScheduleAdmin(CampaignScopedAdmin):
    campaign_path = "campaign"
    list_display = ["campaign", "__str__", "paused"]


class OrderSubmissionInline(CampaignScopedInline, admin.TabularInline):
    model = OrderSubmission
    extra = 0
    readonly_fields = ["submitted_by", "submitted_at", "entries", "gold", "warnings", "for_record"]


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
