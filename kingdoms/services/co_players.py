"""Joint kingdoms (Player Issues, "Player joins mid-campaign / joint kingdoms"): the organizer adds
a co-player to a kingdom through the site. A co-player is one more of the kingdom's players: it
sees and files for the kingdom like the others ("A shared kingdom has two or more players who run
that kingdom's armies and provinces")."""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction

from briternia.errors import DomainError

from ..models import Kingdom
from .campaigns import invited_user


@transaction.atomic
def co_player_add(*, kingdom: Kingdom, email: str) -> AbstractBaseUser:
    """Add the person with the address to the kingdom's players and invite them by email (a link to
    set a password, as for any invited player). Any time in the campaign, the Ancient Dead (the
    organizer's) excepted; a person plays one kingdom of a campaign (decision 224)."""
    from .invitations import invitation_queue  # late import: emails depend on the sites' URLs

    kingdom = Kingdom.objects.select_for_update().select_related("campaign").get(pk=kingdom.pk)
    campaign = kingdom.campaign
    email = email.strip().lower()
    errors: list[str] = []
    if kingdom.is_ancient_dead:
        errors.append("The Ancient Dead are the organizer's: they take no co-player (Joint kingdoms).")
    if "@" not in email or len(email) > 254:
        errors.append(f"'{email[:60]}' is not an email address.")
    elif (playing := campaign.kingdoms.filter(players__email__iexact=email).first()) is not None:
        errors.append(f"{email} already plays {playing.name} in this campaign: a person plays one kingdom of it.")
    elif campaign.organizer.email.lower() == email:
        errors.append(f"{email} is the organizer, who runs the Ancient Dead: not a co-player of a kingdom.")
    if errors:
        raise DomainError(errors)
    user = invited_user(email=email, kingdom_name=kingdom.name)
    kingdom.players.add(user)
    invitation_queue(user=user, kingdom=kingdom, joint=True)
    return user
