"""The reads of mail received: the organizer's list for a campaign."""

from __future__ import annotations

from typing import Any

from django.db.models import Q
from django.http import Http404

from kingdoms.models import Campaign, Kingdom
from kingdoms.selectors import AnyUser, is_organizer
from kingdoms.services.mail_addresses import orders_address_masked

from .models import InboundMessage

LISTED = 300


def campaign_mail_received(*, user: AnyUser, campaign: Campaign) -> list[dict[str, Any]]:
    """The mail received for the campaign, newest first: mail filed (or refused) for it, and mail
    from one of its players that names no campaign (no valid secret, a sheet naming none, mail not
    answered). Only its organizer reads it (anyone else: 404), and never a player's secret: the
    orders plus-address is shown as orders+…@domain."""
    if not is_organizer(user, campaign):
        raise Http404("No such page.")
    players = Kingdom.objects.filter(campaign=campaign).exclude(players=None).values("players")
    rows = InboundMessage.objects.filter(
        Q(campaign=campaign) | Q(campaign=None) & (Q(user__in=players) | Q(user=None, sender_user__in=players))
    ).select_related("user", "sender_user")
    return [
        {
            "row": row,
            "to": orders_address_masked(row.to),
            "subject": orders_address_masked(row.subject),
            "reason": orders_address_masked(row.reason),
        }
        for row in rows.defer("raw")[:LISTED]
    ]
