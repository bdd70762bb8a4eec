"""Reads of turns and order sheets, with visibility: a player sees only their own kingdom's
sheets; the organizer sees every sheet and who has not submitted. Anything else is 404."""

from __future__ import annotations

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


def order_sheet_kingdom_get(*, user: AnyUser, turn: Turn, kingdom_id: int | None = None) -> Kingdom:
    """The kingdom whose sheet the user asks for: their own, or any for the organizer."""
    if kingdom_id is None:
        kingdom = kingdom_of(user=user, campaign=turn.campaign)
    elif is_organizer(user, turn.campaign):
        kingdom = turn.campaign.kingdoms.filter(pk=kingdom_id).first()
    else:
        own = kingdom_of(user=user, campaign=turn.campaign)
        kingdom = own if own is not None and own.pk == kingdom_id else None
    if kingdom is None:
        raise Http404("No such order sheet.")
    return kingdom


def order_sheets_overview(*, user: AnyUser, turn: Turn) -> list[tuple[Kingdom, OrderSheet | None]]:
    """Organizer only: every kingdom with its sheet (None when it has filed nothing)."""
    if not is_organizer(user, turn.campaign):
        raise Http404("No such page.")
    sheets = {s.kingdom_id: s for s in OrderSheet.objects.filter(turn=turn)}
    return [(k, sheets.get(k.id)) for k in turn.campaign.kingdoms.order_by("id")]
