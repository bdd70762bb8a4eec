"""Reads of turns and order sheets, with visibility: a player sees only their own kingdom's
sheets; the organizer sees every sheet and who has not submitted. Anything else is 404."""

from __future__ import annotations

from django.db.models import Count, Q
from django.http import Http404

from kingdoms.models import Kingdom
from kingdoms.selectors import AnyUser, campaigns_visible, is_organizer, kingdom_of
from turns.models import Turn

from .models import OrderSheet


def turn_get(*, user: AnyUser, turn_id: int) -> Turn:
    turn = Turn.objects.select_related("campaign").filter(pk=turn_id, campaign__in=campaigns_visible(user)).first()
    if turn is None:
        raise Http404("No such turn.")
    return turn


def order_sheet_kingdom_get(
    *, user: AnyUser, turn: Turn, kingdom_id: int | None = None, own: Kingdom | None = None
) -> Kingdom:
    """The kingdom whose sheet the user asks for: their own, or any for the organizer. `own`: the
    user's own kingdom in the turn's campaign, if the caller has read it (`order_sheet_turn_get`)."""
    if kingdom_id is None:
        kingdom = own or kingdom_of(user=user, campaign=turn.campaign)
    elif is_organizer(user, turn.campaign):
        kingdom = turn.campaign.kingdoms.filter(pk=kingdom_id).first()
    else:
        own = own or kingdom_of(user=user, campaign=turn.campaign)
        kingdom = own if own is not None and own.pk == kingdom_id else None
    if kingdom is None:
        raise Http404("No such order sheet.")
    return kingdom


def order_sheet_turn_get(*, user: AnyUser, turn_id: int) -> tuple[Turn, Kingdom | None]:
    """`turn_get` for the order sheet's API, with the user's own kingdom in the campaign (None for
    its organizer, whose sheet is named: `order_sheet_kingdom_get`). The turn (with its campaign) is
    read by its id alone and its visibility told by the kingdom's read that follows (a user sees the
    campaigns they organize or play in, and one who plays in one has a kingdom there), not by a
    subquery of the visible campaigns: every submission of the weekly rush asks (issue 35)."""
    # By its id alone: not in Turn's default order (by its campaign's date), which joins for nothing.
    found = Turn.objects.select_related("campaign").filter(pk=turn_id).order_by()[:1] if user.is_authenticated else []
    turn = next(iter(found), None)
    if turn is None:
        raise Http404("No such turn.")
    if is_organizer(user, turn.campaign):
        return turn, None
    own = kingdom_of(user=user, campaign=turn.campaign)
    if own is None:
        raise Http404("No such turn.")  # the campaign is not the user's: neither is the turn
    return turn, own


def order_sheets_overview(*, user: AnyUser, turn: Turn) -> list[tuple[Kingdom, OrderSheet | None]]:
    """Organizer only: every kingdom with its sheet (None when it has filed nothing)."""
    if not is_organizer(user, turn.campaign):
        raise Http404("No such page.")
    # With how many submissions may resolve and how many are kept for the record (never resolved).
    sheets = {
        s.kingdom_id: s
        for s in OrderSheet.objects.filter(turn=turn).annotate(
            resolving=Count("submissions", filter=Q(submissions__for_record=False)),
            kept_for_record=Count("submissions", filter=Q(submissions__for_record=True)),
        )
    }
    return [(k, sheets.get(k.id)) for k in turn.campaign.kingdoms.order_by("id")]
