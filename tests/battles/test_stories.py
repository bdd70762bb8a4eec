"""Stories Are Nice, through the services, the pages and the API: the story on the turn summary
sheet earns its army 3 experience in the aftermath; it is printed in the turn's bulletin unless
the player keeps it private; the organizer, the story in front of him, adds 1 or 2 for a good one
(once per kingdom and turn), an event of the current turn and a row of the army's ledger. The
turn report shows each army's experience earned and spent in the turn (the experience ledger)."""

from __future__ import annotations

import pytest
from django.core import mail

from battles.models import Battle
from battles.services.rewards import story_bonus_award
from battles.services.summaries import summary_sheet_save
from briternia.errors import DomainError
from kernel.event_codes import EventCode
from kingdoms.models import Army, Campaign, ExperienceEntry, Kingdom, Unit
from kingdoms.services.experience import experience_ledger_total
from reports.models import TurnReport
from reports.services.reports import bulletin_context, kingdom_report_context
from tests.battle_setup import file_battle_orders
from tests.clients import api_as as _api
from tests.clients import error_details
from tests.clients import pages_as as _page
from tests.conftest import DEMO
from tests.reports.test_reports import pdf_text
from tests.shared_rows import Layer
from turns.models import Turn, TurnEvent
from turns.services.cycle import aftermath_phase_run, orders_phase_run

PUBLIC_STORY = "The Silver Helms broke the Halberdiers at the ford of Hartwood."
PRIVATE_STORY = "Our Greatswords hid in the mill: the elves never knew."


def _save(battle, kingdom, **data):
    return summary_sheet_save(battle=battle, kingdom=kingdom, data=data, entered_by=kingdom.players.first())


def _posted_build(campaign: Campaign, capture) -> dict[int, Battle]:
    turn = campaign.turns.get(number=1)
    file_battle_orders(campaign, turn)
    with capture(execute=True):
        assert orders_phase_run(turn_id=turn.pk).resolved
    return {b.province.number: b for b in Battle.objects.filter(turn=turn)}


def _storied_build(posted: dict[int, Battle], capture) -> dict[int, Battle]:
    """Both sides of Hartwood write a story; Ostland keeps its own private."""
    k = {x.name: x for x in Kingdom.objects.filter(campaign_id=posted[62].turn.campaign_id)}
    halberdiers = Unit.objects.get(army__name="Wardens", name="Halberdiers")
    _save(posted[62], k["Tor Anlec"], result="minor-victory", story=PUBLIC_STORY)
    _save(
        posted[62],
        k["Ostland"],
        result="minor-loss",
        casualties=[{"unit": halberdiers.id, "models_lost": 10}],
        story=PRIVATE_STORY,
        story_private=True,
    )
    _save(posted[61], k["Da Red Fang"], result="minor-loss")
    _save(posted[61], k["Ostland"], result="minor-victory")
    return posted


def _reported_build(storied: dict[int, Battle], capture) -> Turn:
    turn = Turn.objects.get(pk=storied[62].turn_id)
    mail.outbox.clear()
    with capture(execute=True):
        assert aftermath_phase_run(turn_id=turn.pk).resolved
    return turn


POSTED = Layer("demo campaign, turn 1 resolved into its battles (stories)", _posted_build, parent=DEMO)
STORIED = Layer("Hartwood's stories written (stories)", _storied_build, parent=POSTED)
REPORTED = Layer("the stories' turn reported (stories)", _reported_build, parent=STORIED, clears_outbox=True)


# Each built once per run (tests/shared_rows.py).
@pytest.fixture
def posted(demo_campaign, shared_layers) -> dict[int, Battle]:
    return shared_layers.take(POSTED)


@pytest.fixture
def storied(posted, k, shared_layers):
    """Both sides of Hartwood write a story; Ostland keeps its own private."""
    return shared_layers.take(STORIED)


@pytest.fixture
def reported(demo_campaign, storied, shared_layers) -> Turn:
    return shared_layers.take(REPORTED)


def test_the_bulletin_prints_the_stories_except_a_private_one(storied, demo_campaign):
    """Stories Are Nice: the stories appear in the turn's bulletin; a story the player marked
    private is not in it."""
    stories = bulletin_context(turn=demo_campaign.turns.get(number=1))["stories"]
    assert [(s["kingdom"], s["text"]) for s in stories] == [("Tor Anlec", PUBLIC_STORY)]


def test_the_bulletin_pdf_every_player_gets_has_the_public_story_only(reported, k):
    bulletin = TurnReport.objects.get(turn=reported, kind=TurnReport.Kind.BULLETIN)
    text = " ".join(pdf_text(bytes(bulletin.pdf)).split())
    assert "Stories" in text and "Silver Helms broke the Halberdiers" in text
    assert "Greatswords hid in the mill" not in text


def test_a_private_story_is_read_by_its_kingdom_and_the_organizer_only(storied, k):
    url = f"/api/battles/{storied[62].pk}/sheet/"
    assert _api("alice").get(url).json()["story_private"] is True
    assert _api("alice").get(url).json()["story"] == PRIVATE_STORY
    assert _api("organizer").get(f"{url}?kingdom={k['Ostland'].pk}").json()["story"] == PRIVATE_STORY
    # Tor Anlec's player asking for Ostland's sheet gets his own; never Ostland's story.
    theirs = _api("dave").get(f"{url}?kingdom={k['Ostland'].pk}")
    assert theirs.status_code == 404 and PRIVATE_STORY not in theirs.content.decode()
    page = _page("dave").get(f"/battles/{storied[62].pk}/").content.decode()
    assert "Greatswords hid in the mill" not in page


def test_both_stories_earn_their_armies_3_experience_private_or_not(reported):
    """The story experience does not depend on publishing it."""
    for name in ("Raiders", "Wardens"):
        row = ExperienceEntry.objects.get(army__name=name, reason=EventCode.STORY)
        assert (row.turn, row.amount) == (1, 3)


def test_the_organizer_adds_2_for_a_good_story_once_per_turn_through_the_api(reported, storied, k):
    """Stories Are Nice: "possibly one or two additional bonus Experience Points"; the extra goes to
    the army that got the story's 3, as an event of the turn it is given (turn 2) and a row of the
    army's ledger; a second extra for the same turn's stories is refused naming the rule."""
    raiders = Army.objects.get(name="Raiders")
    before = raiders.experience
    url = f"/api/battles/{storied[62].pk}/sheet/{k['Tor Anlec'].pk}/story-bonus/"
    response = _api("organizer").post(url, {"experience": 2}, format="json")
    assert response.status_code == 200, response.content
    raiders.refresh_from_db()
    assert raiders.experience == before + 2 == experience_ledger_total(raiders)
    row = ExperienceEntry.objects.get(army=raiders, reason=EventCode.STORY_BONUS)
    assert (row.turn, row.amount) == (2, 2)
    event = TurnEvent.objects.get(code=EventCode.STORY_BONUS)
    assert (event.turn.number, event.army_id, event.data["story_turn"]) == (2, raiders.pk, 1)

    again = _api("organizer").post(url, {"experience": 1}, format="json")
    assert again.status_code == 400
    assert "once per turn (Stories Are Nice)" in error_details(again)[0]
    raiders.refresh_from_db()
    assert raiders.experience == before + 2


@pytest.mark.parametrize("amount", [0, 3, -1])
def test_the_extra_is_1_or_2(reported, storied, k, amount):
    url = f"/api/battles/{storied[62].pk}/sheet/{k['Tor Anlec'].pk}/story-bonus/"
    response = _api("organizer").post(url, {"experience": amount}, format="json")
    assert response.status_code == 400
    assert "Tor Anlec: the organizer may add 1 or 2 experience" in error_details(response)[0]
    assert not ExperienceEntry.objects.filter(reason=EventCode.STORY_BONUS).exists()


def test_a_player_cannot_give_himself_the_extra(reported, storied, k):
    url = f"/api/battles/{storied[62].pk}/sheet/{k['Tor Anlec'].pk}/story-bonus/"
    assert _api("dave").post(url, {"experience": 2}, format="json").status_code == 404
    page = f"/battles/{storied[62].pk}/sheet/{k['Tor Anlec'].pk}/story-bonus/"
    assert _page("dave").post(page, {"experience": "2"}).status_code == 404
    assert not ExperienceEntry.objects.filter(reason=EventCode.STORY_BONUS).exists()


def test_no_extra_without_a_story_or_before_the_aftermath(storied, k, demo_campaign):
    with pytest.raises(DomainError, match="the story's 3 experience come with the turn's aftermath"):
        story_bonus_award(sheet=storied[62].summary_sheets.get(kingdom=k["Tor Anlec"]), amount=1)
    with pytest.raises(DomainError, match="has no story to reward"):
        story_bonus_award(sheet=storied[61].summary_sheets.get(kingdom=k["Da Red Fang"]), amount=1)


def test_the_organizer_gives_the_extra_from_the_sheet_page(reported, storied, k):
    sheet_url = f"/battles/{storied[62].pk}/sheet/{k['Ostland'].pk}/"
    organizer = _page("organizer")
    assert "A good story?" in organizer.get(sheet_url).content.decode()
    assert "A good story?" not in _page("alice").get(f"/battles/{storied[62].pk}/sheet/").content.decode()
    response = organizer.post(f"/battles/{storied[62].pk}/sheet/{k['Ostland'].pk}/story-bonus/", {"experience": "1"})
    assert response.status_code == 302
    wardens = Army.objects.get(name="Wardens")
    assert ExperienceEntry.objects.get(army=wardens, reason=EventCode.STORY_BONUS).amount == 1
    assert "A good story?" not in organizer.get(sheet_url).content.decode()  # once per turn


def test_the_turn_report_shows_experience_earned_and_spent_this_turn(reported, k):
    """The PDF turn report lists each of the kingdom's armies with the experience earned and spent
    in the turn (its ledger rows of the turn) and the balance."""
    context = kingdom_report_context(turn=reported, kingdom=k["Ostland"])
    wardens = next(a for a in context["armies"] if a["name"] == "Wardens")
    assert (wardens["experience_earned"], wardens["experience_spent"], wardens["experience"]) == (53, 0, 53)
    report = TurnReport.objects.get(turn=reported, kingdom=k["Ostland"], kind=TurnReport.Kind.KINGDOM)
    text = " ".join(pdf_text(bytes(report.pdf)).split())
    assert "Wardens" in text and "earned 53, spent 0 this turn" in text
    # Another kingdom's armies are not in Ostland's report.
    assert "Raiders" not in [a["name"] for a in context["armies"]]
