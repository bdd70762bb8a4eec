"""A campaign's turn, built directly (issue 30): the row the turn cycle opens, without its opening's
work (the Ancient Dead's orders, the announcements, the reminders). For a test that needs a turn to
stand on; a test of the opening itself opens it through turns.services."""

from __future__ import annotations

import datetime as dt

from django.utils import timezone

from kingdoms.models import Campaign
from tests.kingdoms.builders import army_built, campaign_built, kingdom_built, unit_built
from turns.models import Turn


def turn_built(
    campaign: Campaign, number: int = 1, *, status: str = Turn.Status.ORDERS_OPEN, days_to_deadline: int = 7
) -> Turn:
    """Turn `number` of the campaign, open for orders until `days_to_deadline` from now (its results
    a week after), its dice seeded by its number."""
    deadline = timezone.now() + dt.timedelta(days=days_to_deadline)
    return Turn.objects.create(
        campaign=campaign,
        number=number,
        status=status,
        orders_deadline=deadline,
        results_deadline=deadline + dt.timedelta(days=7),
        seed=f"built-{number}",
    )


def campaign_of_two_built(name: str) -> Campaign:
    """A running campaign of two kingdoms ("<name> 1" and "<name> 4", led by the users <name>-a and
    <name>-b), each with an army of one unit at its capitol, on turn 1 open for orders for a week:
    enough for the turn cycle to resolve a turn and end it, in a tenth of the demo campaign's time."""
    campaign = campaign_built(name=name)
    turn_built(campaign)
    for capitol, player in ((1, f"{name.lower()}-a"), (4, f"{name.lower()}-b")):
        kingdom = kingdom_built(campaign, f"{name} {capitol}", player=player, capitol=capitol)
        unit_built(army_built(kingdom, province=capitol), "Halberdiers")
    return campaign
