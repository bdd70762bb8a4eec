"""The organizer's back office for turns, deadlines and order sheets."""

from django.contrib import admin

from .models import CampaignSchedule, DeadlineChange, OrderSheet, OrdersReminder, OrderSubmission, Turn


@admin.register(CampaignSchedule)
class CampaignScheduleAdmin(admin.ModelAdmin):
    list_display = ["campaign", "__str__", "paused"]


class DeadlineChangeInline(admin.TabularInline):
    model = DeadlineChange
    extra = 0
    readonly_fields = ["kind", "old_value", "new_value", "reason", "changed_by", "changed_at"]


@admin.register(Turn)
class TurnAdmin(admin.ModelAdmin):
    list_display = ["campaign", "number", "status", "orders_deadline", "results_deadline"]
    list_filter = ["campaign", "status"]
    inlines = [DeadlineChangeInline]


class OrderSubmissionInline(admin.TabularInline):
    model = OrderSubmission
    extra = 0
    readonly_fields = ["submitted_by", "submitted_at", "entries", "gold", "warnings"]


@admin.register(OrderSheet)
class OrderSheetAdmin(admin.ModelAdmin):
    list_display = ["kingdom", "turn", "status", "submitted_at", "updated_at"]
    list_filter = ["turn__campaign", "status"]
    inlines = [OrderSubmissionInline]


@admin.register(OrdersReminder)
class OrdersReminderAdmin(admin.ModelAdmin):
    list_display = ["turn", "kingdom", "sent_at"]
