"""Joint kingdoms (Player Issues, "Player joins mid-campaign / joint kingdoms"): the organizer adds
a co-player to a kingdom through the site. A co-player is one more of the kingdom's players: it
sees and files for the kingdom like the others ("A shared kingdom has two or more players who run
that kingdom's armies and provinces"). The organizer removes one the same way (decision 229)."""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction

from briternia.errors import DomainError
from briternia.fields import address_problem
from outbox.models import Email
from outbox.services import email_queue

from ..models import Kingdom
from ..people import display_name
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
    if (problem := address_problem(email)) is not None:
        errors.append(problem)
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


@transaction.atomic
def co_player_remove(*, kingdom: Kingdom, user_id: int) -> AbstractBaseUser:
    """Remove a co-player from the kingdom's players: from now on they see and file nothing of it
    (every page and the API ask the kingdom's players at each request), and they are told by email.
    What they filed stands as the kingdom's. A kingdom keeps at least one player: a kingdom's last
    player is marked out on the leader page (Rogue Kingdom), not removed (decision 229)."""
    kingdom = Kingdom.objects.select_for_update().select_related("campaign").get(pk=kingdom.pk)
    players = list(kingdom.players.order_by("id"))
    user = next((p for p in players if p.pk == user_id), None)
    if user is None:
        raise DomainError(f"That person is not a player of {kingdom.name}: there is nobody to remove.")
    if len(players) < 2:
        raise DomainError(
            f"{display_name(user)} is {kingdom.name}'s only player: a kingdom keeps one. Mark the player out on "
            "the leader page instead (Rogue Kingdom)."
        )
    kingdom.players.remove(user)
    email_queue(
        template="co-player-removed",
        kind=Email.Kind.CO_PLAYER_REMOVED,
        to=[user.email],
        context={"user": user, "kingdom": kingdom, "campaign": kingdom.campaign},
        campaign_id=kingdom.campaign_id,
    )
    return user
