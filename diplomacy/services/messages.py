"""Sending a message between kingdoms (diplomacy), or the organizer's announcement to all, and the
email that tells each reader who chose "an email for each message" (the others: the day's digest,
diplomacy.services.digests, or the site alone)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.urls import reverse
from django.utils import timezone

from briternia.errors import DomainError
from briternia.site import site_url
from kingdoms.models import Campaign, Kingdom, ReportPreferences
from kingdoms.people import display_name
from kingdoms.selectors import is_organizer
from outbox.models import Email
from outbox.services import email_queue
from rulebook.campaign_schedule import moment_text

from ..models import MESSAGE_MAX, Message
from ..selectors import correspondents, own_kingdoms

# A player writes to many, but a script or a stuck button must not flood every inbox of the campaign.
MESSAGES_PER_HOUR = 20
HOUR = dt.timedelta(hours=1)


def message_send(
    *,
    campaign: Campaign,
    sender: AbstractBaseUser,
    kingdom: Kingdom | None,
    to: Sequence[int],
    text: str,
    announcement: bool = False,
    now: dt.datetime | None = None,
) -> Message:
    """Send `text` from `kingdom` (played by `sender`) to the kingdoms `to` (ids), or, with
    `announcement`, from the organizer to every kingdom. Refused whole, nothing saved nor emailed:
    a sender who does not play `kingdom`, an announcement by anyone but the organizer, an empty or
    too long text, no recipient, a recipient that is no other kingdom of the campaign with a player,
    the hour's limit reached."""
    now = now or timezone.now()
    text = text.strip()
    errors = []
    if announcement:
        if not is_organizer(sender, campaign):
            errors.append("Only the organizer makes announcements to every kingdom.")
        kingdom = None
        recipients = correspondents(campaign=campaign, exclude=[])
    else:
        mine = own_kingdoms(user=sender, campaign=campaign)
        if kingdom is None or kingdom.pk not in [k.pk for k in mine]:
            raise DomainError("You write for a kingdom you play in this campaign.")
        allowed = {k.pk: k for k in correspondents(campaign=campaign, exclude=[kingdom])}
        unknown = [str(pk) for pk in to if pk not in allowed]
        if unknown:
            errors.append(
                f"Kingdom {', '.join(unknown)}: not another kingdom of {campaign.name} with a player to read it."
            )
        recipients = sorted((allowed[pk] for pk in set(to) if pk in allowed), key=lambda k: k.name)
        if not to:
            errors.append("Choose the kingdoms to write to.")
    if not text:
        errors.append("Write a message.")
    elif len(text) > MESSAGE_MAX:
        errors.append(f"The message is {len(text):,} characters; at most {MESSAGE_MAX:,}.")
    if errors:
        raise DomainError(errors)
    with transaction.atomic():
        # The campaign's row locked: two messages sent at once are counted one after the other.
        Campaign.objects.select_for_update().filter(pk=campaign.pk).first()
        sent = Message.objects.filter(campaign=campaign, sender=sender, sent_at__gt=now - HOUR).order_by("sent_at")
        if sent.count() >= MESSAGES_PER_HOUR:
            free_at = sent[sent.count() - MESSAGES_PER_HOUR].sent_at + HOUR
            raise DomainError(
                f"You have sent {MESSAGES_PER_HOUR} messages in this campaign in the last hour, the most the site "
                f"sends; you may write again from {moment_text(free_at, campaign.time_zone)}."
            )
        message = Message.objects.create(
            campaign=campaign,
            turn_number=campaign.current_turn,
            sender=sender,
            sender_kingdom=kingdom,
            announcement=announcement,
            text=text,
            sent_at=now,
        )
        message.recipients.set(recipients)
        _notify(message, recipients)
    return message


def message_from_text(message: Message) -> str:
    """Who a message is from, as its readers see it: the kingdom and the player who wrote it."""
    if message.announcement:
        return "The organizer (to every kingdom)"
    who = display_name(message.sender) if message.sender else "a former player"
    return f"{message.sender_kingdom.name if message.sender_kingdom else 'a kingdom'} ({who})"


def reader_addresses(kingdoms: Sequence[Kingdom], *, mode: str, exclude: Any = None) -> list[str]:
    """The addresses of the kingdoms' players whose choice for messages is `mode` (by default: an
    email for each), at the address their report preferences name."""
    users = {u.pk: u for k in kingdoms for u in k.players.all() if exclude is None or u.pk != exclude.pk}
    preferences = {p.user_id: p for p in ReportPreferences.objects.filter(user__in=list(users))}
    addresses = []
    for pk, user in sorted(users.items()):
        preference = preferences.get(pk)
        chosen = preference.message_emails if preference else ReportPreferences.MessageEmails.EACH
        address = (preference.report_email if preference and preference.report_email else user.email) or ""
        if chosen == mode and address:
            addresses.append(address)
    return addresses


def _notify(message: Message, recipients: list[Kingdom]) -> None:
    campaign = message.campaign
    to = reader_addresses(recipients, mode=ReportPreferences.MessageEmails.EACH, exclude=message.sender)
    email_queue(
        template="kingdom-message",
        kind=Email.Kind.KINGDOM_MESSAGE,
        to=to,
        context={
            "campaign": campaign,
            "message": message,
            "sender": message_from_text(message),
            "recipients": ", ".join(k.name for k in recipients),
            "link": site_url() + reverse("campaign-messages", args=[campaign.pk]),
        },
        campaign_id=campaign.pk,
    )
