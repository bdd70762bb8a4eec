"""Painting Counts: "the painted army gets +1 to the die roll for first turn and picking table
sides". The rules with scripted dice (rulebook/scenario/generator.py), the organizer marking an army
painted (battles/services/rewards.py, its page and API), and the scenario the battle then gets."""

from __future__ import annotations

import pytest

from battles.models import Battle
from battles.services.rewards import army_painted_set
from battles.services.scenarios import general_abilities, scenario_setup
from kernel.event_codes import EventCode
from kingdoms.models import Army
from rulebook.scenario.generator import ScenarioSide
from rulebook.scenario.sheet import scenario_lines
from tests.clients import api_as as _api
from tests.clients import pages_as as _page
from tests.rulebook.scenario.test_generator import ATTACKER, DEFENDER, roll, script
from turns.models import TurnEvent
from turns.services.cycle import orders_phase_run

PAINTED_ATTACKER = ScenarioSide(name="Avalon: Host", kingdom=1, army=10, painted=True)
PAINTED_DEFENDER = ScenarioSide(name="Brython: Guard", kingdom=2, army=20, painted=True)


def test_a_painted_army_adds_one_to_choose_sides_and_to_go_first():
    """Painting Counts: both armies moved in (no other modifier); the painted attacker's 4+1 beats
    the defender's 4 for table sides, and its 3+1 beats 3 for first turn. The sheet says why."""
    scenario = roll(script(sides=(4, 4), first=(3, 3)), attacker=PAINTED_ATTACKER, defending=False)[0]
    sides, first = scenario.sides["roll_off"], scenario.first_turn["roll_off"]
    assert (sides["attacker_modifier"], sides["defender_modifier"], sides["winner"]) == (1, 0, "attacker")
    assert (first["attacker_modifier"], first["defender_modifier"], first["winner"]) == (1, 0, "attacker")
    assert "Avalon: Host is a painted army: +1 to choose sides (Painting Counts)." in scenario.sides["text"]
    assert (
        "Avalon: Host is a painted army: +1 to its roll for first turn (Painting Counts)."
        in scenario.first_turn["notes"]
    )
    sheet = " ".join(p for section in scenario_lines(scenario) for p in section.paragraphs)
    assert sheet.count("Painting Counts") == 2


def test_an_unpainted_army_rolls_as_before():
    """Without the mark the same dice tie and are rolled again (no modifier)."""
    scenario = roll(script(sides=(4, 4, 2, 5), first=(3, 3, 6, 1)), attacker=ATTACKER, defending=False)[0]
    assert scenario.sides["roll_off"]["attacker_modifier"] == 0
    assert scenario.sides["winner"] == DEFENDER.name
    assert scenario.first_turn["winner"] == ATTACKER.name
    assert "Painting Counts" not in scenario.sides["text"]


def test_painting_adds_to_the_other_modifiers_and_two_painted_armies_both_add_one():
    """6. Fight Battles: the modifiers are cumulative. The attacked defender (+1 to choose sides)
    that is painted has +2; when both armies are painted each adds 1."""
    scenario = roll(script(sides=(6, 5)), defender=PAINTED_DEFENDER)[0]
    sides = scenario.sides["roll_off"]
    assert (sides["attacker_modifier"], sides["defender_modifier"], sides["winner"]) == (0, 2, "defender")

    scenario = roll(
        script(sides=(4, 4, 5, 2), first=(2, 2, 1, 3)),
        attacker=PAINTED_ATTACKER,
        defender=PAINTED_DEFENDER,
        defending=False,
    )[0]
    first = scenario.first_turn["roll_off"]
    assert (first["attacker_modifier"], first["defender_modifier"], first["winner"]) == (1, 1, "defender")
    assert scenario.sides["roll_off"]["attacker_rolls"] == [4, 5]


def test_a_painted_attacker_of_a_fortified_army_has_plus_two_to_go_first_but_no_side_roll():
    """Fortify: the fortified army chooses its table side with no roll, so the attacker's paint
    cannot help it there (rules decision 67); for first turn its +1 adds to Fortify's +1."""
    fortified = ScenarioSide(name="Brython: Guard", kingdom=2, army=20, fortified=True)
    scenario = roll(script(sides=(), first=(2, 3)), attacker=PAINTED_ATTACKER, defender=fortified)[0]
    assert scenario.sides["roll_off"] is None and scenario.sides["winner"] == "Brython: Guard"
    off = scenario.first_turn["roll_off"]
    assert (off["attacker_modifier"], off["winner"]) == (2, "attacker")


def test_the_organizer_marks_an_army_painted_and_its_next_scenario_uses_it(demo_campaign, turn, battles_filed):
    """The organizer marks the Raiders painted before the battles are posted: an event of the turn
    says so, and Hartwood's scenario sheet gives the Raiders +1 to both rolls."""
    raiders = Army.objects.get(kingdom__campaign=demo_campaign, name="Raiders")
    response = _api("organizer").post(f"/api/armies/{raiders.pk}/painted/", {"painted": True}, format="json")
    assert response.status_code == 200 and response.json() == {"army": raiders.pk, "painted": True}
    event = TurnEvent.objects.get(turn=turn, code=EventCode.ARMY_PAINTED)
    assert event.army_id == raiders.pk and event.data == {"painted": True}
    assert "painted army" in event.text

    assert orders_phase_run(turn_id=turn.pk).resolved
    hartwood = Battle.objects.get(turn=turn, province__number=62)
    assert hartwood.attacker_army_id == raiders.pk
    assert hartwood.scenario["first_turn"]["roll_off"]["attacker_modifier"] >= 1
    assert any("painted army" in n for n in hartwood.scenario["first_turn"]["notes"])
    scenario = hartwood.scenario
    if scenario["engagement"]["name"] == "Assault" and scenario["deployment"]["roll"] in (1, 3):
        assert scenario["sides"]["roll_off"] is None  # the Defender chooses his edge: no roll (decision 628)
    else:
        assert "painted army" in scenario["sides"]["text"]
    setup = scenario_setup(hartwood, general_abilities([raiders.pk]))
    assert setup.attacker.painted and not setup.defender.painted


def test_only_the_organizer_marks_an_army_painted(demo_campaign, turn):
    """A player, even for his own army, gets 404 from the page and the API; nothing changes."""
    wardens = Army.objects.get(kingdom__campaign=demo_campaign, kingdom__name="Ostland", name="1st Army")
    assert _api("alice").post(f"/api/armies/{wardens.pk}/painted/", {"painted": True}, format="json").status_code == 404
    assert _page("alice").post(f"/armies/{wardens.pk}/painted/", {"painted": "1"}).status_code == 404
    assert _page("bob").post(f"/armies/{wardens.pk}/painted/", {"painted": "1"}).status_code == 404
    wardens.refresh_from_db()
    assert not wardens.painted
    assert not TurnEvent.objects.filter(code=EventCode.ARMY_PAINTED).exists()

    response = _page("organizer").post(f"/armies/{wardens.pk}/painted/", {"painted": "1"})
    assert response.status_code == 302
    wardens.refresh_from_db()
    assert wardens.painted
    page = _page("alice").get(f"/armies/{wardens.pk}/").content.decode()
    assert "a painted army" in page and "painted-form" not in page  # the player sees it, not the form


def test_taking_the_mark_back_is_an_event_and_marking_twice_changes_nothing(demo_campaign, turn):
    wardens = Army.objects.get(kingdom__campaign=demo_campaign, kingdom__name="Ostland", name="1st Army")
    army_painted_set(army=wardens, painted=True)
    army_painted_set(army=wardens, painted=True)
    army_painted_set(army=wardens, painted=False)
    events = list(TurnEvent.objects.filter(code=EventCode.ARMY_PAINTED).order_by("sequence"))
    assert [e.data["painted"] for e in events] == [True, False]
    wardens.refresh_from_db()
    assert not wardens.painted


@pytest.mark.parametrize("painted", [True, False])
def test_the_army_api_says_whether_the_army_is_painted(demo_campaign, painted):
    wardens = Army.objects.get(kingdom__campaign=demo_campaign, kingdom__name="Ostland", name="1st Army")
    Army.objects.filter(pk=wardens.pk).update(painted=painted)
    assert _api("alice").get(f"/api/armies/{wardens.pk}/").json()["painted"] is painted
