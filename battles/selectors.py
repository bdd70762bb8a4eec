"""Reads of battles with visibility: a battle, its scenario and its sheets are seen by the kingdoms
that fight in it (supports included) and the organizer; to anyone else it is not found. A player
sees only their own kingdom's turn summary sheet, never the opponent's."""

from __future__ import annotations

from django.db.models import QuerySet
from django.http import Http404

from kingdoms.models import Character, Kingdom
from kingdoms.selectors import AnyUser, campaigns_visible, is_organizer, kingdom_of

from .models import Battle, TurnSummarySheet

BATTLE_RELATED = (
    "turn__campaign",
    "province",
    "attacker_kingdom",
    "attacker_army",
    "defender_kingdom",
    "defender_army",
)


def _battles() -> QuerySet[Battle]:
    return Battle.objects.select_related(*BATTLE_RELATED).prefetch_related(
        "supports__army", "supports__kingdom", "summary_sheets"
    )


def battle_get(*, user: AnyUser, battle_id: int) -> Battle:
    battle = _battles().filter(pk=battle_id, turn__campaign__in=campaigns_visible(user)).first()
    if battle is None:
        raise Http404("No such battle.")
    if is_organizer(user, battle.turn.campaign):
        return battle
    own = kingdom_of(user=user, campaign=battle.turn.campaign)
    if own is None or not battle.involves(own.id):
        raise Http404("No such battle.")
    return battle


def turn_battles(*, user: AnyUser, turn) -> list[Battle]:  # type: ignore[no-untyped-def]
    """The turn's battles the user may see: all for the organizer, their own kingdom's otherwise."""
    battles = list(_battles().filter(turn=turn))
    if is_organizer(user, turn.campaign):
        return battles
    own = kingdom_of(user=user, campaign=turn.campaign)
    if own is None:
        raise Http404("No such turn.")
    return [b for b in battles if b.involves(own.id)]


def summary_sheet_kingdom_get(*, user: AnyUser, battle: Battle, kingdom_id: int | None = None) -> Kingdom:
    """Whose sheet the user asks for: their own kingdom's, or any filing kingdom's for the organizer."""
    from .services.summaries import filing_kingdoms

    campaign = battle.turn.campaign
    if kingdom_id is not None and is_organizer(user, campaign):
        kingdom = campaign.kingdoms.filter(pk=kingdom_id).first()
    else:
        kingdom = kingdom_of(user=user, campaign=campaign)
        if kingdom_id is not None and (kingdom is None or kingdom.pk != kingdom_id):
            kingdom = None
    if kingdom is None or kingdom.pk not in filing_kingdoms(battle):
        raise Http404("No such sheet.")
    return kingdom


def summary_sheets_visible(*, user: AnyUser, battle: Battle) -> list[TurnSummarySheet]:
    """The organizer sees both sheets; a player only their own."""
    sheets = list(battle.summary_sheets.all())
    if is_organizer(user, battle.turn.campaign):
        return sheets
    own = kingdom_of(user=user, campaign=battle.turn.campaign)
    return [s for s in sheets if own is not None and s.kingdom_id == own.pk]


def own_character_get(*, user: AnyUser, character_id: int) -> Character:
    """A living or dead character of a kingdom the user plays: retiring him is the player's, and
    anyone else (another kingdom's player, the organizer who does not play it) gets a 404."""
    character = Character.objects.select_related("unit__army", "kingdom__campaign").filter(pk=character_id).first()
    if character is None or not user.is_authenticated or not character.kingdom.players.filter(pk=user.pk).exists():
        raise Http404("No such character.")
    return character
