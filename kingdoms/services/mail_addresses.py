"""Where a player sends their sheets by email (issue 36). The mail transport's helper replaces this
with a per-player address carrying the player's secret; until then, the campaign's one orders
address (settings.ORDERS_EMAIL_ADDRESS)."""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser

from kingdoms.models import Campaign


def orders_address_for(user: AbstractBaseUser, campaign: Campaign) -> str:
    """The address `user` sends their sheets of `campaign` to."""
    return settings.ORDERS_EMAIL_ADDRESS
