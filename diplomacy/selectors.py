"""Who may read which message: the one rule every page, the API and the emails follow.

A kingdom's players read what their kingdom sent and what was sent to it, announcements included;
a third kingdom reads nothing of it. The organizer, as the game master who sees every order and
army, may read every message of the campaign (the messages page says so to the players)."""

from __future__ import annotations

from django.db.models import Q, QuerySet

from kingdoms.models import Campaign, Kingdom
from kingdoms.selectors import AnyUser, is_organizer

from .models import Message


def own_kingdoms(*, user: AnyUser, campaign: Campaign) -> list[Kingdom]:
    """The kingdoms of the campaign the user plays (a joint kingdom's co-players share it)."""
    if not user.is_authenticated:
        return []
    return list(campaign.kingdoms.filter(players=user).order_by("id"))


def messages_visible(*, user: AnyUser, campaign: Campaign) -> QuerySet[Message]:
    """The campaign's messages the user may read, newest first, with their senders and recipients."""
    messages = Message.objects.filter(campaign=campaign).select_related("sender", "sender_kingdom")
    if not is_organizer(user, campaign):
        kingdoms = own_kingdoms(user=user, campaign=campaign)
        if not kingdoms:
            return messages.none()
        messages = messages.filter(Q(sender_kingdom__in=kingdoms) | Q(recipients__in=kingdoms)).distinct()
    return messages.prefetch_related("recipients").order_by("-sent_at", "-id")


def correspondents(*, campaign: Campaign, exclude: list[Kingdom]) -> list[Kingdom]:
    """The kingdoms a message may go to: every kingdom of the campaign with a player, but the sender's."""
    return list(
        campaign.kingdoms.filter(players__isnull=False)
        .exclude(pk__in=[k.pk for k in exclude])
        .distinct()
        .order_by("name")
    )
