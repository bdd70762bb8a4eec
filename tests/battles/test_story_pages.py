"""The players' battle stories on the site (Stories Are Nice; issue 18, "What would delight them"):
the campaign page shows the newest public stories, shortened; the stories page has them all in
full, newest first, a page at a time; the battle page its own. A story is read once the turn is
reported (its result public, as the bulletin that prints it: rules decision 360); a private one by
its kingdom and the organizer only (decision 361); its author by display name, never an address
(decision 362); its text escaped, its paragraphs kept."""

from __future__ import annotations

import pytest
from django.core import mail
from django.test import Client

from battles.models import Battle
from battles.services.summaries import summary_sheet_save
from kingdoms.models import Campaign, Kingdom, Unit
from tests.battle_setup import file_battle_orders
from tests.clients import pages_as, user_named
from tests.conftest import DEMO
from tests.shared_rows import Layer
from turns.models import Turn
from turns.services.cycle import aftermath_phase_run, orders_phase_run

PUBLIC_STORY = "The Silver Helms broke the Halberdiers at the ford of Hartwood."
PRIVATE_STORY = "Our Greatswords hid in the mill: the elves never knew."


def _save(battle: Battle, kingdom, entered_by: str, **data):  # type: ignore[no-untyped-def]
    return summary_sheet_save(battle=battle, kingdom=kingdom, data=data, entered_by=user_named(entered_by))


def _posted_build(campaign: Campaign, capture) -> dict[int, Battle]:
    turn = campaign.turns.get(number=1)
    file_battle_orders(campaign, turn)
    with capture(execute=True):
        assert orders_phase_run(turn_id=turn.pk).resolved
    return {b.province.number: b for b in Battle.objects.filter(turn=turn)}


def _storied_build(posted: dict[int, Battle], capture) -> dict[int, Battle]:
    _file_sheets(posted, {x.name: x for x in Kingdom.objects.filter(campaign_id=posted[62].turn.campaign_id)})
    return posted


def _reported_build(storied: dict[int, Battle], capture) -> dict[int, Battle]:
    _aftermath(storied[62].turn, capture)
    return storied


POSTED = Layer("demo campaign, turn 1 resolved into its battles (story pages)", _posted_build, parent=DEMO)
STORIED = Layer("the battles' sheets filed with their stories (story pages)", _storied_build, parent=POSTED)
REPORTED = Layer("the stories' turn reported (story pages)", _reported_build, parent=STORIED, clears_outbox=True)


@pytest.fixture
def posted(demo_campaign, turn, shared_layers) -> dict[int, Battle]:
    """Turn 1 resolved into its battles: Tor Anlec (dave) attacks Ostland (alice) in 62 Hartwood; Da
    Red Fang (bob) fights Ostland in 61. Karak Dumn (carol) fights in neither. (This and the next
    two are built once per run: tests/shared_rows.py.)"""
    return shared_layers.take(POSTED)


def _file_sheets(posted: dict[int, Battle], k, *, dave_story: str = PUBLIC_STORY) -> None:
    halberdiers = Unit.objects.get(army__name="Wardens", name="Halberdiers")
    _save(posted[62], k["Tor Anlec"], "dave", result="minor-victory", story=dave_story)
    _save(
        posted[62],
        k["Ostland"],
        "alice",
        result="minor-loss",
        casualties=[{"unit": halberdiers.id, "models_lost": 10}],
        story=PRIVATE_STORY,
        story_private=True,
    )
    _save(posted[61], k["Da Red Fang"], "bob", result="minor-loss")
    _save(posted[61], k["Ostland"], "alice", result="minor-victory")


def _aftermath(turn: Turn, capture) -> None:  # type: ignore[no-untyped-def]
    """The aftermath, its reports queued but not rendered: the pages under test read the turn, its
    battles and sheets, never the reports' PDFs (rendering them cost about 10 s a test)."""
    with capture(execute=False):
        assert aftermath_phase_run(turn_id=turn.pk).resolved
    mail.outbox.clear()


@pytest.fixture
def storied(posted, k, shared_layers) -> dict[int, Battle]:
    return shared_layers.take(STORIED)


@pytest.fixture
def reported(storied, turn, shared_layers) -> dict[int, Battle]:
    return shared_layers.take(REPORTED)


def _html(name: str, path: str) -> str:
    response = pages_as(name).get(path)
    assert response.status_code == 200, (name, path, response.status_code)
    return response.content.decode()


def _section(html: str, marker: str) -> str:
    return html.split(marker)[1].split("</section>")[0]


def test_no_story_shows_before_the_aftermath_and_the_empty_state_invites_one(storied, demo_campaign):
    """Decision 360: the stories are filed, but the turn is not reported: nobody reads them yet,
    not even the organizer (who reads the sheets on the battle page)."""
    for name in ("alice", "bob", "carol", "dave", "organizer"):
        campaign_page = _html(name, f"/campaigns/{demo_campaign.pk}/")
        stories = _section(campaign_page, 'id="stories"')
        assert PUBLIC_STORY not in stories and PRIVATE_STORY not in stories
        assert "No stories yet: write one on your turn summary sheet for 3 experience" in stories
        assert f"/campaigns/{demo_campaign.pk}/stories/#stories-are-nice" in stories
        stories_page = _html(name, f"/campaigns/{demo_campaign.pk}/stories/")
        assert PUBLIC_STORY not in stories_page and PRIVATE_STORY not in stories_page
        assert "Stories Are Nice." in stories_page and "3 bonus experience" in stories_page
    # Alice has sheets to write in this turn: the rule's panel links to them.
    assert "Turn 1's battles and their turn summary sheets" in _html("alice", f"/campaigns/{demo_campaign.pk}/stories/")


def test_a_story_filed_on_a_sheet_is_on_the_campaign_page_and_the_stories_page_after_the_aftermath(
    reported, demo_campaign
):
    """Every player of the campaign reads the public story, whether they fought or not; the
    private one nobody but Ostland's player and the organizer."""
    for name in ("carol", "bob", "dave", "alice", "organizer"):
        stories = _section(_html(name, f"/campaigns/{demo_campaign.pk}/"), 'id="stories"')
        assert "Turn 1: the battle in 62 Hartwood</a>" in stories
        assert "Tor Anlec against Ostland · Tor Anlec won" in stories
        assert "By <strong>dave</strong> (Tor Anlec)" in stories
        assert PUBLIC_STORY in stories
        # The campaign page shows public stories only, to everyone alike.
        assert PRIVATE_STORY not in stories and "No stories yet" not in stories
        assert "@" not in stories  # never an address
        assert "All the campaign's battle stories" in stories

        page = _html(name, f"/campaigns/{demo_campaign.pk}/stories/")
        assert PUBLIC_STORY in page
        assert (PRIVATE_STORY in page) == (name in ("alice", "organizer")), name
    alice_page = _html("alice", f"/campaigns/{demo_campaign.pk}/stories/")
    assert "By <strong>alice</strong> (Ostland)" in alice_page
    assert "private: only Ostland and the organizer read it" in alice_page
    # Carol fought in neither battle: the story names it, but its page is not hers to open.
    carol = _html("carol", f"/campaigns/{demo_campaign.pk}/")
    assert f"/battles/{reported[62].pk}/" not in carol
    assert f"/battles/{reported[62].pk}/" in _section(_html("dave", f"/campaigns/{demo_campaign.pk}/"), 'id="stories"')


def test_the_battle_page_shows_its_stories_to_whom_may_read_them(reported):
    hartwood = f"/battles/{reported[62].pk}/"
    alice = _section(_html("alice", hartwood), 'id="battle-stories"')
    assert PUBLIC_STORY in alice and PRIVATE_STORY in alice
    dave = _section(_html("dave", hartwood), 'id="battle-stories"')
    assert PUBLIC_STORY in dave and PRIVATE_STORY not in dave
    organizer = _section(_html("organizer", hartwood), 'id="battle-stories"')
    assert PUBLIC_STORY in organizer and PRIVATE_STORY in organizer
    # The battle in 61 has no story: no section.
    assert 'id="battle-stories"' not in _html("bob", f"/battles/{reported[61].pk}/")
    # Secrecy: the battle page is its players' and the organizer's.
    assert pages_as("carol").get(hartwood).status_code == 404


def test_the_stories_pages_are_the_campaign_s_players_and_organizer_s(reported, demo_campaign, django_user_model):
    path = f"/campaigns/{demo_campaign.pk}/stories/"
    anonymous = Client().get(path)
    assert anonymous.status_code == 302 and anonymous["Location"].startswith("/accounts/login/")
    stranger = django_user_model.objects.create_user("stranger", "stranger@example.org", "pw")
    client = Client()
    client.force_login(stranger)
    assert client.get(path).status_code == 404
    assert client.get(f"/campaigns/{demo_campaign.pk}/").status_code == 404


def test_html_in_a_story_is_escaped_and_its_paragraphs_kept(
    posted, k, turn, demo_campaign, django_capture_on_commit_callbacks
):
    story = '<script>alert("x")</script> The <b>Raiders</b> charged.\n\nThe ford ran red.\nNobody fled.'
    _file_sheets(posted, k, dave_story=story)
    _aftermath(turn, django_capture_on_commit_callbacks)
    for path in (
        f"/campaigns/{demo_campaign.pk}/",
        f"/campaigns/{demo_campaign.pk}/stories/",
        f"/battles/{posted[62].pk}/",
    ):
        html = _html("dave", path)
        assert "<script>alert" not in html and "<b>Raiders</b>" not in html
        assert "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; The &lt;b&gt;Raiders&lt;/b&gt; charged.</p>" in html
        assert "<p>The ford ran red.<br>Nobody fled.</p>" in html


def test_a_long_story_is_shortened_on_the_campaign_page_with_a_link_to_read_it_all(
    posted, k, turn, demo_campaign, django_capture_on_commit_callbacks
):
    ending = "And so the Silver Helms rode home to Tor Anlec."
    story = "The Raiders crossed at dawn. " * 40 + ending
    _file_sheets(posted, k, dave_story=story)
    _aftermath(turn, django_capture_on_commit_callbacks)
    sheet_id = posted[62].summary_sheets.get(kingdom=k["Tor Anlec"]).pk
    stories = _section(_html("carol", f"/campaigns/{demo_campaign.pk}/"), 'id="stories"')
    assert "The Raiders crossed at dawn." in stories and ending not in stories and "…" in stories
    assert f'href="/campaigns/{demo_campaign.pk}/stories/#story-{sheet_id}"' in stories
    assert "Read all of dave's story" in stories
    page = _html("carol", f"/campaigns/{demo_campaign.pk}/stories/")
    assert f'id="story-{sheet_id}"' in page and ending in page


def test_the_stories_page_goes_a_page_at_a_time_newest_first(reported, demo_campaign, monkeypatch):
    """Two stories alice may read (Tor Anlec's and her own private one), one a page: the newest
    (hers, filed last) first, the older on page 2, where the campaign page's link leads."""
    import battles.services.stories
    import battles.views

    monkeypatch.setattr(battles.views, "STORIES_PER_PAGE", 1)
    monkeypatch.setattr(battles.services.stories, "STORIES_PER_PAGE", 1)
    path = f"/campaigns/{demo_campaign.pk}/stories/"
    first = _html("alice", path)
    assert PRIVATE_STORY in first and PUBLIC_STORY not in first
    assert "Page 1 of 2" in first and 'href="?page=2"' in first
    second = _html("alice", path + "?page=2")
    assert PUBLIC_STORY in second and PRIVATE_STORY not in second and 'href="?page=1"' in second
    # The campaign page's link to the public story leads to its page of alice's stories page.
    stories = _section(_html("alice", f"/campaigns/{demo_campaign.pk}/"), 'id="stories"')
    sheet_id = reported[62].summary_sheets.get(kingdom__name="Tor Anlec").pk
    assert f'href="{path}?page=2#story-{sheet_id}"' in stories
    # A page past the end shows the last one.
    assert PUBLIC_STORY in _html("alice", path + "?page=9")


def test_a_story_the_organizer_entered_is_signed_by_the_kingdom_s_players(
    posted, k, turn, demo_campaign, django_capture_on_commit_callbacks
):
    """Decision 362: a sheet the organizer entered for a kingdom (its player sent it by email)
    names the kingdom's players, whose story it is, not the organizer."""
    summary_sheet_save(
        battle=posted[62],
        kingdom=k["Tor Anlec"],
        data={"result": "minor-victory", "story": PUBLIC_STORY},
        entered_by=user_named("organizer"),
        by_organizer=True,
    )
    _save(posted[62], k["Ostland"], "alice", result="minor-loss")
    _save(posted[61], k["Da Red Fang"], "bob", result="minor-loss")
    _save(posted[61], k["Ostland"], "alice", result="minor-victory")
    _aftermath(turn, django_capture_on_commit_callbacks)
    stories = _section(_html("bob", f"/campaigns/{demo_campaign.pk}/"), 'id="stories"')
    assert "By <strong>dave</strong> (Tor Anlec)" in stories and "organizer" not in stories


def test_the_campaign_page_shows_the_three_newest_stories_and_the_stories_page_all(
    posted, k, turn, demo_campaign, django_capture_on_commit_callbacks
):
    """Four public stories of one turn, filed one after the other: the campaign page has the three
    filed last, newest first; the stories page all four."""
    stories = [f"Story {n}: the dice were kind." for n in range(1, 5)]
    _save(posted[62], k["Tor Anlec"], "dave", result="minor-victory", story=stories[0])
    _save(posted[62], k["Ostland"], "alice", result="minor-loss", story=stories[1])
    _save(posted[61], k["Da Red Fang"], "bob", result="minor-loss", story=stories[2])
    _save(posted[61], k["Ostland"], "alice", result="minor-victory", story=stories[3])
    _aftermath(turn, django_capture_on_commit_callbacks)
    section = _section(_html("carol", f"/campaigns/{demo_campaign.pk}/"), 'id="stories"')
    assert stories[0] not in section
    assert [section.index(s) for s in reversed(stories[1:])] == sorted(section.index(s) for s in stories[1:])
    assert "All the campaign's battle stories (4)" in section
    page = _html("carol", f"/campaigns/{demo_campaign.pk}/stories/")
    assert [page.index(s) for s in reversed(stories)] == sorted(page.index(s) for s in stories)
