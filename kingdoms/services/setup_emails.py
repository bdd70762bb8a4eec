"""The emails of the campaign's setup, one per step, so that a player learns what to do next from
their inbox alone: the home selection rolls, "your turn to pick" (a capitol site, then adjacent
provinces), "enter your army list". Each is queued inside the transaction of the step it announces
(it is sent once that commits). The start of turn 1 is announced by the turn cycle
(turns.services.cycle), which opens it."""

from __future__ import annotations

from typing import Any

from django.urls import reverse

from briternia.site import site_url
from outbox.models import Email
from outbox.services import email_queue
from rulebook.setup import homes as setup_rules

from ..models import Army, Campaign, Kingdom


def kingdom_players_email(*, template: str, kingdom: Kingdom, **context: Any) -> None:
    """Queue a setup email to the kingdom's players (each gets their own message)."""
    email_queue(
        template=template,
        kind=Email.Kind.SETUP,
        to=[player.email for player in kingdom.players.all()],
        context={"campaign": kingdom.campaign, "kingdom": kingdom, **context},
        campaign_id=kingdom.campaign_id,
    )


def campaign_link(campaign: Campaign) -> str:
    return site_url() + reverse("campaign", args=[campaign.pk])


def home_rolls_announce(*, campaign: Campaign, kingdoms: list[Kingdom]) -> None:
    """Each player learns their roll and the order of picking (highest roll first)."""
    order = sorted(kingdoms, key=lambda k: -(k.home_roll or 0))
    for kingdom in kingdoms:
        kingdom_players_email(template="setup-rolls", kingdom=kingdom, order=order, link=campaign_link(campaign))


def next_pick_announce(*, campaign: Campaign, picking: Kingdom | None) -> None:
    """The kingdom whose turn it now is to pick is told so (nothing when nobody picks now)."""
    if picking is None:
        return
    kingdom_players_email(
        template="setup-your-pick",
        kingdom=picking,
        homes=campaign.status == Campaign.Status.HOMES,
        adjacent_count=setup_rules.provinces_to_pick(campaign.player_count),
        link=campaign_link(campaign),
    )


def army_lists_announce(*, campaign: Campaign, kingdoms: list[Kingdom]) -> None:
    """Every player is asked for their starting army's list, with a link to its editor."""
    for kingdom in kingdoms:
        army = Army.objects.filter(kingdom=kingdom, status=Army.Status.ACTIVE).order_by("pk").first()
        if army is None:
            continue
        link = site_url() + reverse("army-edit", args=[army.pk])
        kingdom_players_email(template="setup-army-list", kingdom=kingdom, army=army, link=link)
