"""Allies, Announcement: "During the End of Campaign Turn, a player can announce that an alliance is
broken. During the next Campaign Turn, the rules for allies cease to apply for the two realms in
question" (decision 385).

The End of Turn is the turn's battles phase, until its results deadline (the organizer's until the
aftermath). A kingdom makes one announcement a turn, on any of its turn summary sheets or on the
turn's battles page (a kingdom without a battle files no sheet); the aftermath reads it and ends
the alliance with the turn (rulebook.turn.aftermath.end_of_turn.alliances_announced_over)."""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils import timezone

from briternia.errors import DomainError
from kingdoms.models import Kingdom
from kingdoms.selectors import alliance_in_force
from turns.models import Turn

from ..models import AllianceEndAnnouncement

RULE = "Allies, Announcement"


def _open_for_announcements(turn: Turn, *, by_organizer: bool) -> None:
    if turn.status != Turn.Status.BATTLES:
        raise DomainError(
            f"Turn {turn.number} is {turn.get_status_display().lower()}: the end of an alliance is announced during "
            f"the End of Turn, while the turn's battles are played ({RULE})."
        )
    if not by_organizer and timezone.now() > turn.results_deadline:
        raise DomainError(
            f"The results deadline has passed: the End of Turn is over; ask the organizer to enter it ({RULE})."
        )


def alliance_end_announced(*, kingdom: Kingdom, turn: Turn) -> AllianceEndAnnouncement | None:
    """The kingdom's announcement of this turn, if it made one (private to it and the organizer)."""
    return AllianceEndAnnouncement.objects.filter(turn=turn, kingdom=kingdom).select_related("alliance").first()


@transaction.atomic
def alliance_end_announce(
    *,
    kingdom: Kingdom,
    turn: Turn,
    ally_id: int | None = None,
    entered_by: AbstractBaseUser | None,
    by_organizer: bool = False,
) -> AllianceEndAnnouncement:
    """Announce the end of the kingdom's alliance (with the kingdom `ally_id`, when named: it must be
    the kingdom's ally). Refused, nothing saved, outside the End of Turn or when the kingdom has no
    such alliance. Announcing it again changes nothing."""
    turn = Turn.objects.select_for_update().get(pk=turn.pk)
    _open_for_announcements(turn, by_organizer=by_organizer)
    alliance = alliance_in_force(kingdom)
    if alliance is None or (ally_id is not None and ally_id not in (alliance.first_id, alliance.second_id)):
        ally = Kingdom.objects.filter(pk=ally_id, campaign_id=kingdom.campaign_id).first() if ally_id else None
        whom = f" with {ally.name if ally is not None else f'kingdom {ally_id}'}" if ally_id is not None else ""
        raise DomainError(
            f"{kingdom.name} is in no alliance{whom}: there is no alliance to announce the end of ({RULE})."
        )
    announcement, _ = AllianceEndAnnouncement.objects.update_or_create(
        turn=turn,
        kingdom=kingdom,
        defaults={"alliance": alliance, "entered_by": entered_by, "by_organizer": by_organizer},
    )
    return announcement


@transaction.atomic
def alliance_end_withdraw(*, kingdom: Kingdom, turn: Turn, by_organizer: bool = False) -> bool:
    """Take the kingdom's announcement of this turn back (before the results deadline; the
    organizer's until the aftermath). Returns whether there was one."""
    turn = Turn.objects.select_for_update().get(pk=turn.pk)
    _open_for_announcements(turn, by_organizer=by_organizer)
    deleted, _ = AllianceEndAnnouncement.objects.filter(turn=turn, kingdom=kingdom).delete()
    return deleted > 0


def announced_ends(turn: Turn) -> tuple[tuple[int, int], ...]:
    """The aftermath's input: (kingdom, ally) for each announcement of the turn whose alliance is in
    force."""
    rows = AllianceEndAnnouncement.objects.filter(turn=turn, alliance__ended_turn__isnull=True).select_related(
        "alliance"
    )
    return tuple(
        sorted(
            (a.kingdom_id, a.alliance.second_id if a.kingdom_id == a.alliance.first_id else a.alliance.first_id)
            for a in rows
        )
    )
