"""The experience ledger where people look (kingdoms/views.py army_page, kingdoms/api.py): the
army's page and API show its experience with every row (turn, reason in words, what happened),
what it earned and spent; the organizer corrects it with a reason (page and API); a player gets
404 for the correction and for another kingdom's army. Rulebook: Experience Points, Spending
Experience."""

from __future__ import annotations

import pytest

from kernel.event_codes import EventCode
from kernel.events import Event
from kingdoms.models import Army, ExperienceEntry
from kingdoms.services.experience import experience_adjust, experience_award, experience_ledger_total
from tests.clients import api_as as _api
from tests.clients import pages_as as _page


@pytest.fixture
def first_army(demo_campaign) -> Army:
    """Ostland's 1st Army with a ledger: 75 for a battle (turn 1), 3 for a story, -10 corrected."""
    army = Army.objects.get(kingdom__campaign=demo_campaign, kingdom__name="Ostland", name="1st Army")
    experience_award(
        turn=1,
        event=Event("aftermath", EventCode.EXPERIENCE, "1st Army gains 75 experience.", army=army.id, experience=75),
    )
    experience_award(
        turn=1, event=Event("aftermath", EventCode.STORY, "1st Army: a story.", army=army.id, experience=3)
    )
    experience_adjust(army=army, turn=1, amount=-10, reason="Counted twice on the sheet")
    army.refresh_from_db()
    return army


def test_an_award_is_one_row_and_moves_the_balance_with_it(first_army):
    assert first_army.experience == 68 == experience_ledger_total(first_army)
    assert list(first_army.experience_ledger.values_list("reason", "amount")) == [
        ("experience", 75),
        ("story", 3),
        ("adjustment", -10),
    ]


def test_the_army_page_shows_the_ledger_in_words(first_army):
    page = _page("alice").get(f"/armies/{first_army.pk}/").content.decode()
    assert "Earned 78 · spent 10 · balance 68." in page
    for words in ("Battle (Experience Points)", "Story (Stories Are Nice)", "Organizer&#x27;s correction"):
        assert words in page
    assert "Counted twice on the sheet" in page
    assert "experience-adjust-form" not in page  # the player sees no correction form
    assert "experience-adjust-form" in _page("organizer").get(f"/armies/{first_army.pk}/").content.decode()
    # The kingdom's page links to it.
    kingdom_page = _page("alice").get(f"/kingdoms/{first_army.kingdom_id}/").content.decode()
    assert f"/armies/{first_army.pk}/" in kingdom_page


def test_the_army_api_carries_the_ledger(first_army):
    data = _api("alice").get(f"/api/armies/{first_army.pk}/").json()
    ledger = data["experience_ledger"]
    assert (data["experience"], ledger["earned"], ledger["spent"], ledger["balance"]) == (68, 78, 10, 68)
    assert [(r["turn"], r["amount"], r["reason"], r["balance"]) for r in ledger["rows"]] == [
        (1, 75, "Battle (Experience Points)", 75),
        (1, 3, "Story (Stories Are Nice)", 78),
        (1, -10, "Organizer's correction", 68),
    ]
    assert _api("alice").get(f"/api/armies/{first_army.pk}/experience/").json() == ledger


def test_another_kingdom_s_ledger_is_never_shown(first_army):
    """Secrecy: Da Red Fang's player gets 404 for Ostland's army, its page and its ledger."""
    bob = _api("bob")
    assert bob.get(f"/api/armies/{first_army.pk}/").status_code == 404
    assert bob.get(f"/api/armies/{first_army.pk}/experience/").status_code == 404
    assert _page("bob").get(f"/armies/{first_army.pk}/").status_code == 404
    kingdom = _api("bob").get(f"/api/kingdoms/{first_army.kingdom_id}/armies/")
    assert kingdom.status_code == 404


def test_the_organizer_corrects_an_army_s_experience_through_the_api(first_army):
    url = f"/api/armies/{first_army.pk}/experience/"
    response = _api("organizer").post(url, {"amount": 5, "reason": "A story posted on the forum"}, format="json")
    assert response.status_code == 200
    assert response.json()["balance"] == 73
    assert response.json()["rows"][-1]["reason"] == "Organizer's correction"
    first_army.refresh_from_db()
    assert first_army.experience == 73 == experience_ledger_total(first_army)


@pytest.mark.parametrize(
    "data, message",
    [
        ({"amount": 5, "reason": "  "}, "Say why the experience of 1st Army is corrected"),
        ({"amount": -100, "reason": "Too much"}, "1st Army has 68 experience; it cannot lose 100."),
        ({"amount": 0, "reason": "Nothing"}, "1st Army: a correction of 0 experience changes nothing."),
    ],
)
def test_a_correction_the_ledger_cannot_take_is_refused_whole(first_army, data, message):
    response = _api("organizer").post(f"/api/armies/{first_army.pk}/experience/", data, format="json")
    assert response.status_code == 400
    assert message in " ".join(str(v) for v in response.json().values())
    first_army.refresh_from_db()
    assert first_army.experience == 68 and first_army.experience_ledger.count() == 3


def test_a_player_cannot_correct_experience(first_army):
    """Organizer only: the player of the army gets 404 from the API and the page; nothing changes."""
    assert (
        _api("alice")
        .post(f"/api/armies/{first_army.pk}/experience/", {"amount": 50, "reason": "I deserve it"}, format="json")
        .status_code
        == 404
    )
    assert (
        _page("alice")
        .post(f"/armies/{first_army.pk}/experience/", {"amount": "50", "reason": "I deserve it"})
        .status_code
        == 404
    )
    first_army.refresh_from_db()
    assert first_army.experience == 68


def test_the_organizer_corrects_from_the_army_page(first_army):
    organizer = _page("organizer")
    response = organizer.post(f"/armies/{first_army.pk}/experience/", {"amount": "-8", "reason": "Spent at the table"})
    assert response.status_code == 302
    assert ExperienceEntry.objects.filter(army=first_army, amount=-8, note="Spent at the table").exists()
    refused = organizer.post(f"/armies/{first_army.pk}/experience/", {"amount": "many", "reason": "?"}, follow=True)
    assert "1st Army: the correction is a whole number of experience" in refused.content.decode()
    first_army.refresh_from_db()
    assert first_army.experience == 60
