"""The players' battle stories in a real browser (Stories Are Nice; issue 18, "What would delight
them"): Dave writes the story of Hartwood on his turn summary sheet, Alice keeps hers private; once
the aftermath has run, Carol, who fought in neither battle, finds Dave's story on the campaign page
(escaped, its paragraphs kept), follows it to the stories page, and never sees Alice's.

The demo campaign is the setting (tests/battle_setup.py): Tor Anlec's Raiders (dave) attack
Ostland's Wardens (alice) in Hartwood; Da Red Fang (bob) assaults Ostland's Eldenhall."""

from __future__ import annotations

from playwright.sync_api import Page, expect

from battles.models import Battle
from battles.services.summaries import summary_sheet_save
from demo.campaign import DEMO_PASSWORD
from kingdoms.models import Kingdom
from tests.clients import user_named
from turns.models import Turn
from turns.services.cycle import aftermath_phase_run

from .conftest import login, on_commit_work_left_out

DAVE_STORY = "The <em>Silver Helms</em> broke the Halberdiers at the ford.\n\nThe river ran red till dusk."
ALICE_STORY = "Our Greatswords hid in the mill: the elves never knew."


def _sheet(battle: Battle, kingdom: str, player: str, **data: object) -> None:
    summary_sheet_save(
        battle=battle,
        kingdom=Kingdom.objects.get(campaign=battle.turn.campaign, name=kingdom),
        data=data,
        entered_by=user_named(player),
    )


def test_a_story_written_on_the_sheet_is_read_on_the_campaign_page_after_the_aftermath(
    posted: Turn, open_page, live_server
) -> None:
    hartwood = Battle.objects.get(turn=posted, province__number=62)
    eldenhall = Battle.objects.get(turn=posted, province__number=61)

    dave: Page = open_page()
    login(dave, live_server, "dave", DEMO_PASSWORD)
    dave.goto(f"{live_server.url}/battles/{hartwood.pk}/sheet/")
    dave.get_by_label("Battle result (your side)").select_option("minor-victory")
    dave.get_by_label("The story of the battle").fill(DAVE_STORY)
    dave.get_by_role("button", name="Submit the sheet").click()
    expect(dave.locator("ul.messages")).to_contain_text("is saved")
    # Before the aftermath the story is nobody's to read on the campaign page, not even its author's.
    dave.goto(f"{live_server.url}/campaigns/{posted.campaign_id}/")
    expect(dave.locator("#stories")).to_contain_text("No stories yet: write one on your turn summary sheet")

    _sheet(hartwood, "Ostland", "alice", result="minor-loss", story=ALICE_STORY, story_private=True)
    _sheet(eldenhall, "Da Red Fang", "bob", result="minor-loss")
    _sheet(eldenhall, "Ostland", "alice", result="minor-victory")
    with on_commit_work_left_out():  # the turn's reports stay queued: the stories are read on the pages
        assert aftermath_phase_run(turn_id=posted.pk).resolved

    carol: Page = open_page()
    login(carol, live_server, "carol", DEMO_PASSWORD)
    carol.get_by_role("link", name="Demo: The Awakening of the Ancients").click()
    stories = carol.locator("#stories")
    expect(stories.get_by_role("heading", name="Battle stories")).to_be_visible()
    story = stories.locator("article.story")
    expect(story).to_have_count(1)
    expect(story).to_contain_text("Tor Anlec against Ostland · Tor Anlec won")
    expect(story).to_contain_text("By dave (Tor Anlec)")
    # The HTML Dave typed is shown as he typed it, never run; his two paragraphs stay two.
    expect(story.locator(".story-text p")).to_have_text(
        ["The <em>Silver Helms</em> broke the Halberdiers at the ford.", "The river ran red till dusk."]
    )
    expect(story.locator("em")).to_have_count(0)
    expect(carol.locator("body")).not_to_contain_text(ALICE_STORY)

    carol.get_by_role("link", name="Turn 1: the battle in 62 Hartwood").click()
    expect(carol.get_by_role("heading", level=1)).to_have_text("Demo: The Awakening of the Ancients: battle stories")
    sheet_id = hartwood.summary_sheets.get(kingdom__name="Tor Anlec").pk
    assert carol.url.endswith(f"/stories/#story-{sheet_id}")
    expect(carol.locator(f"#story-{sheet_id}")).to_contain_text("The river ran red till dusk.")
    expect(carol.locator("#stories-are-nice")).to_contain_text("3 bonus experience")
    expect(carol.locator("body")).not_to_contain_text(ALICE_STORY)

    # Alice reads her own private story on the stories page, marked so; Dave does not.
    alice: Page = open_page()
    login(alice, live_server, "alice", DEMO_PASSWORD)
    alice.goto(f"{live_server.url}/campaigns/{posted.campaign_id}/stories/")
    expect(alice.locator("article.story")).to_have_count(2)
    expect(alice.locator("body")).to_contain_text("private: only Ostland and the organizer read it")
    dave.goto(f"{live_server.url}/campaigns/{posted.campaign_id}/stories/")
    expect(dave.locator("article.story")).to_have_count(1)
    expect(dave.locator("body")).not_to_contain_text(ALICE_STORY)
