"""Turn Summary Sheets (battles/services/summaries.py, the API): a sheet is checked as a whole and
refused with messages naming the unit and the rule; the two sides' sheets are compared; the
organizer decides conflicts and may enter any sheet; the results deadline; the reminder.
Rulebook: Appendix (Turn Summary Sheet, Campaign Schedule), 8. End of Turn, Withdrawal, Looting."""

from __future__ import annotations

import datetime as dt

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from freezegun import freeze_time
from rest_framework.test import APIClient

from battles.models import Battle, ResultsReminder, TurnSummarySheet
from battles.services.reminders import results_reminders_queue
from battles.services.summaries import battle_rule, battle_standing, summary_sheet_save
from briternia.errors import DomainError
from kingdoms.models import Unit
from rulebook.turn.aftermath.results import Conflict, Outcome, Pending
from tests.clients import error_details


def _user(name):
    return get_user_model().objects.get(username=name)


def _api(name) -> APIClient:
    client = APIClient()
    client.force_authenticate(_user(name))
    return client


@pytest.fixture
def hartwood(turn, battles_posted):
    return Battle.objects.get(turn=turn, province__number=62)


@pytest.fixture
def eldenhall(turn, battles_posted):
    return Battle.objects.get(turn=turn, province__number=61)


def _save(battle, kingdom, **data):
    return summary_sheet_save(battle=battle, kingdom=kingdom, data=data, entered_by=kingdom.players.first())


def test_a_sheet_with_errors_is_refused_whole_naming_the_unit_and_the_rule(hartwood, k):
    halberdiers = Unit.objects.get(army__name="Wardens", name="Halberdiers")
    spearmen = Unit.objects.get(army__name="Raiders", name="Spearmen")
    with pytest.raises(DomainError) as refused:
        _save(
            hartwood,
            k["Ostland"],
            result="minor-victory",
            casualties=[
                {"unit": halberdiers.id, "models_lost": 61},
                {"unit": spearmen.id, "models_lost": 3},  # the enemy's unit
            ],
            loot_choice="sack",
        )
    messages = refused.value.messages
    assert "Casualties: Halberdiers (Wardens) has 60 models; it cannot lose 61 (Casualty Recovery)." in messages
    assert any(f"unit {spearmen.id}" in m and "not one of Ostland's units" in m for m in messages)
    assert any(m.startswith("Looting: only a side that would take the town or city") for m in messages)
    assert not TurnSummarySheet.objects.exists()
    assert Battle.objects.get(pk=hartwood.pk).status == Battle.Status.SCHEDULED


def test_the_supporting_army_s_units_are_on_the_defender_s_sheet(hartwood, k):
    """Support: the detachment is treated separately after the battle, so its losses are reported."""
    gunners = Unit.objects.filter(army__name="1st Army", army__kingdom=k["Ostland"]).first()
    sheet = _save(hartwood, k["Ostland"], result="draw", casualties=[{"unit": gunners.id, "models_lost": 1}])
    assert sheet.casualties[0]["unit"] == gunners.id and sheet.status == TurnSummarySheet.Status.SUBMITTED


def test_the_two_sheets_are_compared(hartwood, k):
    assert isinstance(battle_standing(hartwood, deadline_passed=False), Pending)
    _save(hartwood, k["Tor Anlec"], result="major-victory")
    assert isinstance(battle_standing(hartwood, deadline_passed=False), Pending)
    _save(hartwood, k["Ostland"], result="minor-loss")
    conflict = battle_standing(hartwood, deadline_passed=False)
    assert isinstance(conflict, Conflict)
    _save(hartwood, k["Ostland"], result="major-loss")  # Ostland corrects its sheet
    agreed = battle_standing(hartwood, deadline_passed=False)
    assert isinstance(agreed, Outcome) and agreed.victor == "attacker"


def test_a_withdrawal_reported_by_both_makes_the_result_one_level_worse(hartwood, k):
    """Withdrawal (A8): the Wardens were winning a minor victory but withdrew: a draw."""
    _save(hartwood, k["Tor Anlec"], result="minor-loss", opponent_withdrew=True)
    _save(hartwood, k["Ostland"], result="minor-victory", withdrew=True)
    outcome = battle_standing(hartwood, deadline_passed=False)
    assert isinstance(outcome, Outcome)
    assert outcome.attacker.result.value == "draw" and outcome.victor is None


def test_the_organizer_decides_a_conflict(hartwood, k, organizer_user):
    _save(hartwood, k["Tor Anlec"], result="major-victory")
    _save(hartwood, k["Ostland"], result="draw")
    battle_rule(
        battle=hartwood,
        result="minor-victory",
        attacker_withdrew=False,
        defender_withdrew=False,
        note="Agreed at the table",
        ruled_by=organizer_user,
    )
    outcome = battle_standing(Battle.objects.get(pk=hartwood.pk), deadline_passed=False)
    assert isinstance(outcome, Outcome) and outcome.victor == "attacker"
    with pytest.raises(DomainError):
        battle_rule(
            battle=hartwood,
            result="won",
            attacker_withdrew=False,
            defender_withdrew=False,
            note="",
            ruled_by=organizer_user,
        )


@pytest.fixture
def organizer_user(demo_campaign):
    return demo_campaign.organizer


def test_after_the_results_deadline_only_the_organizer_enters_sheets(hartwood, k, organizer_user):
    with freeze_time(hartwood.turn.results_deadline + dt.timedelta(minutes=1)):
        with pytest.raises(DomainError, match="results deadline has passed"):
            _save(hartwood, k["Ostland"], result="draw")
        sheet = summary_sheet_save(
            battle=hartwood, kingdom=k["Ostland"], data={"result": "draw"}, entered_by=organizer_user, by_organizer=True
        )
    assert sheet.by_organizer


def test_the_api_takes_a_sheet_and_refuses_a_bad_one_with_the_messages(hartwood, k):
    halberdiers = Unit.objects.get(army__name="Wardens", name="Halberdiers")
    url = f"/api/battles/{hartwood.pk}/sheet/"
    refused = _api("alice").put(
        url, {"result": "draw", "casualties": [{"unit": halberdiers.id, "models_lost": 99}]}, format="json"
    )
    assert refused.status_code == 400
    assert "Casualties: Halberdiers (Wardens) has 60 models; it cannot lose 99 (Casualty Recovery)." in error_details(
        refused
    )
    ok = _api("alice").put(
        url,
        {
            "result": "draw",
            "casualties": [{"unit": halberdiers.id, "models_lost": 9, "standard": True}],
            "story": "Rain.",
        },
        format="json",
    )
    assert ok.status_code == 200 and ok.json()["casualties"][0]["standard"] is True
    assert _api("alice").get(url).json()["story"] == "Rain."


def test_a_player_never_reads_the_opponent_s_sheet(hartwood, k):
    """Secrecy: dave (Tor Anlec) cannot read or write Ostland's sheet, nor see it on the battle."""
    _save(hartwood, k["Ostland"], result="draw", story="Our secret plan")
    url = f"/api/battles/{hartwood.pk}/sheet/?kingdom={k['Ostland'].pk}"
    assert _api("dave").get(url).status_code == 404
    assert _api("dave").put(url, {"result": "massacred"}, format="json").status_code == 404
    assert _api("carol").get(f"/api/battles/{hartwood.pk}/sheet/").status_code == 404
    from django.test import Client

    dave = Client()
    dave.force_login(_user("dave"))
    page = dave.get(f"/battles/{hartwood.pk}/").content.decode()
    assert "Our secret plan" not in page and "No sheet yet." in page  # not even that Ostland filed
    assert TurnSummarySheet.objects.get(kingdom=k["Ostland"]).result == "draw"


def test_the_reminder_goes_once_24_hours_before_to_players_who_owe_a_sheet(
    hartwood, eldenhall, k, django_capture_on_commit_callbacks
):
    _save(hartwood, k["Tor Anlec"], result="draw")
    deadline = hartwood.turn.results_deadline
    mail.outbox.clear()
    assert results_reminders_queue(now=deadline - dt.timedelta(hours=25)) == []
    with django_capture_on_commit_callbacks(execute=True):  # queued, then sent once committed
        reminded = results_reminders_queue(now=deadline - dt.timedelta(hours=23))
    assert sorted(x.name for x in reminded) == ["Da Red Fang", "Ostland"]
    assert results_reminders_queue(now=deadline - dt.timedelta(hours=22)) == []
    assert ResultsReminder.objects.count() == 2
    ostland_mail = next(m for m in mail.outbox if "alice@briternia.local" in m.to)
    assert "61 Eldenhall" in ostland_mail.body and "62 Hartwood" in ostland_mail.body
    assert "major loss" in ostland_mail.body


def test_a_defender_that_moved_in_too_may_choose_to_sack_or_loot_on_its_sheet(hartwood, k):
    """Looting and 7. Aftermath ("The victor will keep the province"): when both armies moved into a
    town, the defender that wins takes it as much as the attacker would, so its sheet may choose to
    sack or loot it: on the page, through the service and through the API. A defender that stood
    its ground takes nothing, and its sheet is refused the choice."""
    from django.test import Client

    province = hartwood.province
    province.settlement, province.controller = "town", None
    province.save(update_fields=["settlement", "controller"])
    hartwood.both_moved = True
    hartwood.save(update_fields=["both_moved"])
    alice = Client()
    alice.force_login(_user("alice"))
    page = alice.get(f"/battles/{hartwood.pk}/sheet/").content.decode()
    assert 'name="loot_choice" value="sack"' in page
    assert _save(hartwood, k["Ostland"], result="minor-victory", loot_choice="sack").loot_choice == "sack"
    url = f"/api/battles/{hartwood.pk}/sheet/"
    ok = _api("alice").put(url, {"result": "minor-victory", "loot_choice": "loot"}, format="json")
    assert ok.status_code == 200 and ok.json()["loot_choice"] == "loot"

    hartwood.both_moved = False
    hartwood.save(update_fields=["both_moved"])
    refused = _api("alice").put(url, {"result": "minor-victory", "loot_choice": "sack"}, format="json")
    assert refused.status_code == 400
    assert any(m.startswith("Looting: only a side that would take the town") for m in error_details(refused))
    assert TurnSummarySheet.objects.get(battle=hartwood, kingdom=k["Ostland"]).loot_choice == "loot"
    assert 'name="loot_choice"' not in alice.get(f"/battles/{hartwood.pk}/sheet/").content.decode()


def test_the_sheet_gives_the_story_bonus_only_with_a_story(hartwood, k):
    """Stories Are Nice: the player decides which army takes the story's experience; the sheet
    offering it must tell the story of its battle, else it is refused naming the rule."""
    with pytest.raises(DomainError) as refused:
        _save(hartwood, k["Ostland"], result="draw", story_bonus=True)
    assert refused.value.messages == [
        "Battle report: the story's bonus experience goes to the army written about; write the story of this "
        "battle to give it to this army (Stories Are Nice)."
    ]
    ok = _api("alice").put(
        f"/api/battles/{hartwood.pk}/sheet/", {"result": "draw", "story": "Rain.", "story_bonus": True}, format="json"
    )
    assert ok.status_code == 200 and ok.json()["story_bonus"] is True
