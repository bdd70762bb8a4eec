"""The day's digest of messages, for the players who chose it (report preferences): once a day
(the beat's `message-digests`), one email per campaign with the messages their kingdoms received
since the last digest. A player who writes a message does not get it back in the digest."""

from __future__ import annotations

import datetime as dt

from django.db import transaction
from django.urls import reverse
from django.utils import timezone

from briternia.site import site_url
from kingdoms.models import Campaign, ReportPreferences
from outbox.models import Email
from outbox.services import email_queue
from rulebook.campaign_schedule import moment_text

from ..models import Message
from .messages import message_from_text

FIRST_DIGEST_COVERS = dt.timedelta(days=1)


@transaction.atomic
def message_digests_send(*, now: dt.datetime | None = None) -> int:
    """Queue every digest due (how many emails). Each player's mark moves to `now` in the same
    transaction, so a digest is never sent twice nor a message left out."""
    now = now or timezone.now()
    queued = 0
    preferences = ReportPreferences.objects.select_for_update().select_related("user")
    for preference in preferences.filter(message_emails=ReportPreferences.MessageEmails.DIGEST):
        user = preference.user
        since = preference.messages_digest_at or now - FIRST_DIGEST_COVERS
        address = preference.report_email or user.email
        received = (
            Message.objects.filter(recipients__players=user, sent_at__gt=since, sent_at__lte=now)
            .exclude(sender=user)
            .select_related("campaign", "sender", "sender_kingdom")
            .prefetch_related("recipients")
            .distinct()
            .order_by("campaign_id", "sent_at", "id")
        )
        by_campaign: dict[int, list[Message]] = {}
        for message in received:
            by_campaign.setdefault(message.campaign_id, []).append(message)
        for messages in by_campaign.values() if address else ():
            campaign = messages[0].campaign
            queued += _digest_queue(campaign, user, address, messages, since)
        preference.messages_digest_at = now
        preference.save(update_fields=["messages_digest_at"])
    return queued


def _digest_queue(campaign: Campaign, user, address: str, messages: list[Message], since: dt.datetime) -> int:  # type: ignore[no-untyped-def]
    kingdoms = sorted({k.name for m in messages for k in m.recipients.all() if k.players.filter(pk=user.pk).exists()})
    email = email_queue(
        template="message-digest",
        kind=Email.Kind.MESSAGE_DIGEST,
        to=[address],
        context={
            "campaign": campaign,
            "kingdoms": " and ".join(kingdoms),
            "since": moment_text(since, campaign.time_zone),
            "messages": [
                {
                    "sent": moment_text(m.sent_at, campaign.time_zone),
                    "sender": message_from_text(m),
                    "recipients": ", ".join(k.name for k in m.recipients.all()),
                    "text": m.text,
                }
                for m in messages
            ],
            "link": site_url() + reverse("campaign-messages", args=[campaign.pk]),
        },
        campaign_id=campaign.pk,
    )
    return 1 if email is not None else 0
