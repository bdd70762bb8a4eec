"""Stories Are Nice for a Tomb Raid through the site (issue 31; decision 444): the raid's turn summary
sheet (a Battle with mission="tomb-raid", its army did not fight) takes a story and the army, any of
the kingdom's, that earns its 3 experience, on the service, the API and the page; another kingdom's
army, or a battle's sheet naming one, is refused naming the rule; the aftermath reads the choice and
gives the 3 to that army."""

from __future__ import annotations

import datetime as dt

import pytest
from django.utils import timezone

from battles.models import Battle, TurnSummarySheet
from battles.services.aftermath_state import aftermath_state_load
from battles.services.summaries import summary_sheet_save
from briternia.errors import DomainError
from demo.turn import army_with_list
from kernel.dice import SeededDice
from kernel.event_codes import EventCode
from kingdoms.models import Army, Kingdom, Province
from rulebook.turn.aftermath.run import resolve_aftermath
from tests.battle_setup import raid_posted
from tests.clients import api_as, pages_as, user_named
from turns.models import Turn

pytestmark = pytest.mark.django_db

STORY = "Captain Ulric's band crept into the crypt by moonlight and came out with the Scarab Amulet."


@pytest.fixture
def raid(turn, k) -> Battle:
    """Turn 1 in its battles: Ostland's 1st Army waits on its Tomb Raiders' raid of a ruin next to it."""
    ostland = k["Ostland"]
    army = Army.objects.get(kingdom=ostland, name="1st Army")
    ruin = army.province.neighbours.filter(armies__isnull=True).order_by("number").first()
    Province.objects.filter(pk=ruin.pk).update(settlement="ruins", controller=None)
    Turn.objects.filter(pk=turn.pk).update(
        status=Turn.Status.BATTLES, results_deadline=timezone.now() + dt.timedelta(days=3)
    )
    turn.refresh_from_db()
    return raid_posted(turn, ruin, ostland, army)


def _other_army(kingdom: Kingdom) -> Army:
    """The kingdom's Wardens, far from the raid (raised for the test when it has none)."""
    army = Army.objects.filter(kingdom=kingdom, name="Wardens").first()
    return army or army_with_list(kingdom, "Wardens", kingdom.capitol, [("Swordsmen", 20, 6)])


def test_the_raid_s_story_gives_its_3_to_the_army_the_player_names(turn, k, raid) -> None:
    ostland = k["Ostland"]
    wardens = _other_army(ostland)
    summary_sheet_save(
        battle=raid,
        kingdom=ostland,
        data={"raid_result": "success", "story": STORY, "story_army": wardens.pk},
        entered_by=user_named("alice"),
    )
    sheet = TurnSummarySheet.objects.get(battle=raid, kingdom=ostland)
    assert sheet.story_army == wardens

    result = resolve_aftermath(aftermath_state_load(turn, now=timezone.now()), SeededDice(seed="s", stream="t"))
    (story,) = [e for e in result.events if e.code == EventCode.STORY]
    assert story.army == wardens.pk and story.experience == 3
    assert "story of the Tomb Raiders' skirmish" in story.text
    assert result.state.armies[wardens.pk].experience == wardens.experience + 3


def test_another_kingdom_s_army_or_a_battle_s_sheet_naming_one_is_refused(turn, k, raid) -> None:
    ostland, karak = k["Ostland"], k["Karak Dumn"]
    foreign = Army.objects.filter(kingdom=karak, kind=Army.Kind.FIELD).order_by("id").first()
    with pytest.raises(DomainError) as refused:
        summary_sheet_save(
            battle=raid,
            kingdom=ostland,
            data={"raid_result": "success", "story": STORY, "story_army": foreign.pk},
            entered_by=user_named("alice"),
        )
    assert refused.value.messages == [
        f"Battle report: army {foreign.pk!r} is not one of Ostland's armies; the Tomb Raiders' story gives its "
        "experience to one of them (Stories Are Nice)."
    ]
    with pytest.raises(DomainError, match="write the Tomb Raiders' story"):
        summary_sheet_save(
            battle=raid,
            kingdom=ostland,
            data={"raid_result": "success", "story_army": _other_army(ostland).pk},
            entered_by=user_named("alice"),
        )
    assert not TurnSummarySheet.objects.filter(battle=raid).exists()

    battle = Battle.objects.create(
        turn=turn,
        province=Province.objects.filter(campaign=turn.campaign).exclude(pk=raid.province_id).first(),
        attacker_kingdom=ostland,
        attacker_army=_other_army(ostland),
    )
    with pytest.raises(DomainError, match="only a Tomb Raiders' story goes to any army"):
        summary_sheet_save(
            battle=battle,
            kingdom=ostland,
            data={"result": "minor-victory", "story": STORY, "story_army": raid.attacker_army_id},
            entered_by=user_named("alice"),
        )


def test_the_api_and_the_page_take_the_army_named(turn, k, raid) -> None:
    ostland = k["Ostland"]
    wardens = _other_army(ostland)
    page = pages_as("alice").get(f"/battles/{raid.pk}/sheet/").content.decode()
    assert 'name="story_army"' in page and f'<option value="{wardens.pk}">{wardens.name}</option>' in page
    response = pages_as("alice").post(
        f"/battles/{raid.pk}/sheet/",
        {"raid_result": "success", "story": STORY, "story_army": str(wardens.pk), "action": "submit"},
    )
    assert response.status_code == 302
    assert TurnSummarySheet.objects.get(battle=raid, kingdom=ostland).story_army == wardens

    client = api_as("alice")
    url = f"/api/battles/{raid.pk}/sheet/"
    saved = client.put(url, {"raid_result": "success", "story": STORY, "story_army": None}, format="json")
    assert saved.status_code == 200, saved.json()
    assert saved.json()["story_army"] is None
    refused = client.put(url, {"raid_result": "success", "story": STORY, "story_army": 987654}, format="json")
    assert refused.status_code == 400
