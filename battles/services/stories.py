"""The players' battle stories as the site shows them (Stories Are Nice; issue 18, "What would
delight them"): each story with its battle (province, turn, the two kingdoms and the victor, all
public once the turn is reported, as in the bulletin), its author by display name and its text,
shortened on the campaign page with a link to the stories page where it is read in full.

Which stories a user may read is battles.selectors' (stories_visible); this module only shapes
them."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from django.urls import reverse

from kingdoms.models import Kingdom
from kingdoms.people import display_name

from ..models import Battle, TurnSummarySheet

STORIES_PER_PAGE = 10
STORIES_ON_CAMPAIGN_PAGE = 3
EXCERPT_MAX = 500  # characters of a story on the campaign page; the rest on the stories page


@dataclass(frozen=True)
class Story:
    """One story as a page shows it. `text` and `excerpt` are plain text (the template escapes them
    and keeps their paragraphs)."""

    id: int
    battle_id: int
    turn_number: int
    province: str
    attacker: str
    defender: str
    victor: str
    kingdom: str
    author: str
    text: str
    excerpt: str
    private: bool
    may_open_battle: bool  # the reader fights in the battle or runs the campaign: its page opens
    link: str  # where it is read in full: its anchor on the stories page

    @property
    def shortened(self) -> bool:
        return self.excerpt != self.text

    @property
    def anchor(self) -> str:
        return f"story-{self.id}"


def story_excerpt(text: str, limit: int = EXCERPT_MAX) -> str:
    """The story's beginning, at most `limit` characters cut at a word, with an ellipsis; the whole
    story when it is short enough."""
    text = text.strip()
    if len(text) <= limit:
        return text
    cut = text[:limit]
    space = max(cut.rfind(" "), cut.rfind("\n"))
    # A story without spaces (one long word) is cut where the limit falls.
    return (cut[:space] if space > limit // 2 else cut).rstrip() + "…"


def story_author(sheet: TurnSummarySheet) -> str:
    """Who wrote the story, by display name (rules decision 362): the player who entered the sheet;
    a sheet the organizer entered for the kingdom (a story sent by email) names the kingdom's
    players, whose story it is."""
    if sheet.entered_by is not None and not sheet.by_organizer:
        return display_name(sheet.entered_by)
    names = [display_name(p) for p in sorted(sheet.kingdom.players.all(), key=lambda p: p.pk)]
    return ", ".join(names) or f"The players of {sheet.kingdom.name}"


def _kingdom_name(kingdom: Kingdom | None) -> str:
    # The bulletin's public names: kingdoms, never their armies (reports.services.reports).
    return kingdom.name if kingdom is not None else "the neutral garrison"


def _victor(battle: Battle) -> str:
    if battle.victor == "attacker":
        return f"{_kingdom_name(battle.attacker_kingdom)} won"
    if battle.victor == "defender":
        return f"{_kingdom_name(battle.defender_kingdom)} won"
    return "No victor"


def _may_open(battle: Battle, *, organizer: bool, own: Kingdom | None) -> bool:
    return organizer or (own is not None and battle.involves(own.pk))


def story_of(sheet: TurnSummarySheet, *, organizer: bool, own: Kingdom | None, link: str) -> Story:
    battle = sheet.battle
    return Story(
        id=sheet.pk,
        battle_id=battle.pk,
        turn_number=battle.turn.number,
        province=str(battle.province),
        attacker=_kingdom_name(battle.attacker_kingdom),
        defender=_kingdom_name(battle.defender_kingdom),
        victor=_victor(battle),
        kingdom=sheet.kingdom.name,
        author=story_author(sheet),
        text=sheet.story.strip(),
        excerpt=story_excerpt(sheet.story),
        private=sheet.story_private,
        may_open_battle=_may_open(battle, organizer=organizer, own=own),
        link=link,
    )


def stories_of(
    sheets: Iterable[TurnSummarySheet], *, organizer: bool, own: Kingdom | None, order: list[int]
) -> list[Story]:
    """The sheets' stories for one reader; `order`: the ids of every story the reader sees on the
    stories page, newest first (where each is read in full)."""
    return [
        story_of(
            sheet,
            organizer=organizer,
            own=own,
            link=story_link(campaign_id=sheet.battle.turn.campaign_id, story_id=sheet.pk, order=order),
        )
        for sheet in sheets
    ]


def story_link(*, campaign_id: int, story_id: int, order: list[int]) -> str:
    """Where a story is read in full: its anchor on the page of the stories page that holds it.
    `order`: the ids of the stories the reader sees there, newest first."""
    position = order.index(story_id) if story_id in order else 0
    page = position // STORIES_PER_PAGE + 1
    base = reverse("campaign-stories", args=[campaign_id])
    return f"{base}?page={page}#story-{story_id}" if page > 1 else f"{base}#story-{story_id}"
