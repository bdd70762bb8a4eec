"""Mail from an email provider's inbound webhook (django-anymail): Postmark's, at
/anymail/postmark/inbound/ (README, "Orders by email"). The view is anymail's, with two changes: it
refuses every request until ANYMAIL_WEBHOOK_SECRET is set (HTTP basic auth: an open webhook would let
anyone post mail), and it stamps each message with the request's arrival (briternia/arrival.py) when
the provider gives no timestamp of its own (Postmark gives none). Anymail's `inbound` signal then
hands the message to the inbox's one service."""

from __future__ import annotations

import datetime as dt

from anymail.exceptions import AnymailWebhookValidationFailure
from anymail.signals import inbound
from anymail.webhooks.postmark import PostmarkInboundWebhookView
from django.dispatch import receiver

from briternia.arrival import arrived_at

from .models import InboundMessage
from .services.receive import message_receive


class PostmarkInboundView(PostmarkInboundWebhookView):
    warn_if_no_basic_auth = False  # refused instead (validate_request)

    def validate_request(self, request):  # type: ignore[no-untyped-def]
        if not self.basic_auth:
            raise AnymailWebhookValidationFailure("ANYMAIL_WEBHOOK_SECRET is not set: the inbound webhook is closed.")
        super().validate_request(request)

    def parse_events(self, request):  # type: ignore[no-untyped-def]
        events = super().parse_events(request)
        for event in events:
            if event.timestamp is None:
                event.timestamp = arrived_at(request)
        return events


@receiver(inbound, sender=PostmarkInboundView, dispatch_uid="inbox-postmark-inbound")
def postmark_inbound_received(sender, event, esp_name, **kwargs) -> None:  # type: ignore[no-untyped-def]
    received_at = event.timestamp if isinstance(event.timestamp, dt.datetime) else None
    message_receive(
        event.message.as_bytes(),
        received_at=received_at or dt.datetime.now(tz=dt.UTC),
        source=InboundMessage.Source.WEBHOOK,
    )
