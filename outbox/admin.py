"""Every email the site sent or will send, for the staff: read only (the organizer resends a failed
one from the campaign's "Emails" page)."""

from django.contrib import admin

from briternia.admin import CampaignScopedAdmin

from .models import Email


@admin.register(Email)
class EmailAdmin(CampaignScopedAdmin):
    campaign_path = "campaign"
    list_display = ["created_at", "kind", "to_line", "subject", "status", "attempts", "campaign"]
    list_filter = ["status", "kind"]
    search_fields = ["subject", "key"]
    exclude = ["attachment"]
    list_select_related = ["campaign"]

    def has_add_permission(self, request, obj=None) -> bool:  # type: ignore[no-untyped-def]
        return False

    def has_change_permission(self, request, obj=None) -> bool:  # type: ignore[no-untyped-def]
        return False
