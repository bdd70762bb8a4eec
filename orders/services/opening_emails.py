"""The emails that open a turn and remind of its orders carry the kingdom's order sheet as text (issue
36): each player may reply with it, edited, to their orders address (kingdoms.services.mail_addresses),
and the sheet is filed as the site files it (orders.services.sheet_mail)."""

from __future__ import annotations

from typing import Any

from django.urls import reverse

from briternia.site import site_url
from kingdoms.models import Kingdom
from kingdoms.services.mail_addresses import orders_address_for
from outbox.models import Email
from rulebook.campaign_schedule import deadline_text
from rulebook.tables import ArmyType
from turns.models import Turn

from .emails import kingdom_email_queue
from .sheet_text import order_sheet_text


def kingdom_sheet_email_queue(
    *, template: str, kind: str, kingdom: Kingdom, turn: Turn, key: str, **context: Any
) -> None:
    """`kingdom_email_queue` with the kingdom's order sheet for `turn` as text (`sheet_text`, pre-filled
    with its draft or standing submission) and the address to send it back to (`orders_address`, where
    a reply goes). Players whose orders addresses differ (each carries its player's secret) get an
    email each: no player sees another's address."""
    players = [p for p in kingdom.players.all() if p.email]
    if not players:
        return
    groups: dict[str, list[Any]] = {}
    for player in players:
        groups.setdefault(orders_address_for(player, turn.campaign), []).append(player)
    text = order_sheet_text(kingdom=kingdom, turn=turn)
    for address, group in groups.items():
        kingdom_email_queue(
            template=template,
            kind=kind,
            kingdom=kingdom,
            turn=turn,
            # Each player's email its own key, by username: a database id would travel in the export.
            key=f"{key}:{group[0].get_username()}" if key and len(groups) > 1 else key,
            players=group,
            reply_to=address,
            sheet_text=text,
            orders_address=address,
            **context,
        )


def campaign_started_announce(*, turn: Turn) -> None:
    """The campaign has started: each player kingdom is told that turn 1 is open, with the link to
    its order sheet, the orders deadline and the sheet to reply with (the last email of the setup)."""
    campaign = turn.campaign
    orders_deadline = deadline_text(turn.orders_deadline, campaign.time_zone)
    campaign_link = site_url() + reverse("campaign", args=[campaign.pk])
    for kingdom in campaign.kingdoms.exclude(army_type=ArmyType.ANCIENT_DEAD).prefetch_related("players"):
        kingdom_sheet_email_queue(
            template="campaign-started",
            kind=Email.Kind.SETUP,
            kingdom=kingdom,
            turn=turn,
            key="",
            orders_deadline=orders_deadline,
            link=site_url() + reverse("order-sheet-kingdom", args=[turn.pk, kingdom.pk]),
            campaign_link=campaign_link,
        )
