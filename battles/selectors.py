"""Reads of battles with visibility: a battle, its scenario and its sheets are seen by the kingdoms
that fight in it (supports included, and a garrison beside its ally's army: decision 585) and the
organizer; to anyone else it is not found. A player sees only their own kingdom's turn summary
sheet, never the opponent's. The players' battle stories (Stories Are Nice) are read by everyone in
the campaign once the turn is reported, a private one by its kingdom and the organizer only (rules
decisions 360-361)."""

from __future__ import annotations

from django.db.models import Q, QuerySet
from django.db.models.functions import Trim
from django.http import Http404

from kingdoms.models import Campaign, Character, Kingdom
from kingdoms.selectors import AnyUser, campaigns_visible, is_organizer, kingdom_of
from turns.models import Turn

from .models import Battle, TurnSummarySheet

BATTLE_RELATED = (
    "turn__campaign",
    "province",
    "attacker_kingdom",
    "attacker_army",
    "defender_kingdom",
    "defender_army",
    "garrison_kingdom",
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
    campaign = battle.turn.campaign
    if kingdom_id is not None and is_organizer(user, campaign):
        kingdom = campaign.kingdoms.filter(pk=kingdom_id).first()
    else:
        kingdom = kingdom_of(user=user, campaign=campaign)
        if kingdom_id is not None and (kingdom is None or kingdom.pk != kingdom_id):
            kingdom = None
    if kingdom is None or kingdom.pk not in battle.filing_kingdom_ids():
        raise Http404("No such sheet.")
    return kingdom


def end_of_turn_kingdom_get(*, user: AnyUser, turn: Turn, kingdom_id: int | None = None) -> Kingdom:
    """The kingdom whose End of Turn announcement the user asks for: their own, or any player's
    kingdom for the organizer (?kingdom=). Anything else is not found."""
    campaign = turn.campaign
    own = kingdom_of(user=user, campaign=campaign)
    if kingdom_id is not None and is_organizer(user, campaign):
        kingdom = campaign.kingdoms.filter(pk=kingdom_id).first()
    else:
        kingdom = own if own is not None and kingdom_id in (None, own.pk) else None
    if kingdom is None or kingdom.is_ancient_dead:
        raise Http404("No such kingdom.")
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


def _stories(campaign: Campaign) -> QuerySet[TurnSummarySheet]:
    """The campaign's stories that may be read at all (rules decision 360): written on a submitted
    sheet (the one the aftermath read; a draft counts for nothing) of a battle whose turn is
    reported, so its result is public, as the bulletin that prints them. Newest first."""
    return (
        TurnSummarySheet.objects.filter(
            battle__turn__campaign=campaign,
            battle__turn__status=Turn.Status.REPORTED,
            status=TurnSummarySheet.Status.SUBMITTED,
        )
        .annotate(story_text=Trim("story"))
        .exclude(story_text="")
        .select_related(
            "kingdom",
            "entered_by",
            "battle__turn",
            "battle__province",
            "battle__attacker_kingdom",
            "battle__defender_kingdom",
        )
        .prefetch_related("kingdom__players", "battle__supports")
        .order_by("-battle__turn__number", "-submitted_at", "-id")
    )


def stories_visible(*, user: AnyUser, campaign: Campaign, public_only: bool = False) -> QuerySet[TurnSummarySheet]:
    """The campaign's battle stories the user may read, newest first: every public one, and a private
    one for its own kingdom's players and the organizer (rules decision 361); `public_only`: the
    public ones alone (the campaign page, which everyone sees alike). The campaign must be one the
    user may see (kingdoms.selectors.campaign_get)."""
    stories = _stories(campaign)
    if public_only:
        return stories.filter(story_private=False)
    if is_organizer(user, campaign):
        return stories
    own = kingdom_of(user=user, campaign=campaign)
    return stories.filter(Q(story_private=False) | Q(kingdom=own)) if own else stories.filter(story_private=False)


def battle_stories(*, user: AnyUser, battle: Battle) -> list[TurnSummarySheet]:
    """The battle's stories the user may read (the battle itself read through battle_get)."""
    return list(stories_visible(user=user, campaign=battle.turn.campaign).filter(battle=battle).order_by("kingdom_id"))
