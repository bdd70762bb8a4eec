from django.contrib import admin

from .models import InboundMessage


@admin.register(InboundMessage)
class InboundMessageAdmin(admin.ModelAdmin):
    list_display = ["recorded_at", "received_at", "source", "sender", "subject", "status", "reason"]
    list_filter = ["status", "source"]
    search_fields = ["sender", "subject", "message_id"]
    exclude = ["raw"]
    readonly_fields = ["message_id", "sender", "sender_address", "to", "subject", "received_at", "source", "size"]
