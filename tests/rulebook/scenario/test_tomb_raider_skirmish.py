"""The Tomb Raiders' skirmish on the Scenario Generator (rulebook/scenario/generator.py), with scripted
dice. Rulebook: Tomb Raider Scenario & Terrain ("Use the Scenario Generator in the Appendix section
but with the following rules": 1. a 4x4 table, the Deployment Zones modified to it; 2. any objective
that rolls for "Or Else!" automatically becomes an "Or Else!" objective; 3. the Tomb Raider Captain
counts as the Army General for scenario objective purposes; 4. games last until one side withdraws
or the Game Length ends); Player Issues > Rogue Kingdom, Scouting forces (decision 231).
Decisions 351 and 352. No database."""

from __future__ import annotations

from dataclasses import replace

import pytest

from kernel.dice import ScriptedDice
from rulebook.scenario.deployment_svg import deployment_diagram
from rulebook.scenario.generator import Scenario, ScenarioSetup, ScenarioSide, scenario_generate
from rulebook.scenario.sheet import scenario_lines
from rulebook.scenario.tables import TOMB_RAIDER_RULES, TOMB_RAIDER_SECTION
from tests.rulebook.scenario.test_generator import ATTACKER, DEFENDER, script


def skirmish(faces: list[int], **kw) -> Scenario:
    setup = ScenarioSetup(
        terrain="plains", settlement="ruins", attacker=ATTACKER, defender=DEFENDER, skirmish=True, **kw
    )
    dice = ScriptedDice(faces=faces)
    scenario = scenario_generate(setup, dice)
    assert dice.unused == [], "the scenario rolled fewer dice than scripted"
    return scenario


def ruins(**kw) -> list[int]:
    """Ruins: no terrain rolls ("as Raid Scenario Standards")."""
    return script(terrain=(), **kw)


def sheet_text(scenario: Scenario) -> str:
    return "\n".join(f"{s.title}\n" + "\n".join(s.paragraphs) for s in scenario_lines(scenario))


@pytest.mark.parametrize("objective, name", [((2, 2), "Capture"), ((5, 6), "Vengeance")])
def test_an_objective_that_rolls_for_or_else_is_or_else_without_the_roll(objective, name):
    """2.: Capture and Vengeance roll a D6 for "Or Else!" in a battle; in a skirmish no die is
    rolled (the script has none) and the objective is an "Or Else!" one."""
    scenario = skirmish(ruins(objective=objective))
    assert scenario.objective["name"] == name
    assert (scenario.objective["or_else"], scenario.objective["or_else_roll"]) == (True, None)
    text = sheet_text(scenario)
    assert f'2. Objective: {name} — "Or Else!"' in text
    assert 'automatically becomes an "Or Else!" objective' in text
    assert '"Or Else!" roll' not in text


def test_do_as_you_see_fit_chosen_capture_or_vengeance_is_or_else():
    scenario = skirmish(ruins(objective=(1, 1)))  # 2: Do as you see fit.
    assert scenario.objective["or_else"] is None
    assert any('chooses Capture or Vengeance plays it as an "Or Else!"' in n for n in scenario.objective["notes"])


def test_an_objective_without_or_else_stays_without():
    scenario = skirmish(ruins(objective=(3, 4)))  # 7: Conquest
    assert scenario.objective["name"] == "Conquest" and scenario.objective["or_else"] is None


def test_the_sheet_prints_the_tomb_raider_rules_first_and_the_game_length_rule():
    """The four rules printed on the sheet, first; the game length step says the game also ends
    when one side withdraws (4.); the deployment step says the table is 4x4 (1.)."""
    scenario = skirmish(ruins())
    sections = scenario_lines(scenario)
    assert (sections[0].title, sections[0].paragraphs) == (TOMB_RAIDER_SECTION, list(TOMB_RAIDER_RULES))
    captain = "3. The Tomb Raider Captain counts as the Army General for scenario objective purposes."
    assert captain in sections[0].paragraphs
    length = next(s for s in sections if s.title.startswith("7. First turn and game length"))
    assert length.paragraphs[-1] == (
        "Tomb Raider Scenario & Terrain: the game lasts until one side withdraws or until the Game Length ends."
    )
    deployment = next(s for s in sections if s.title.startswith("4. Deployment"))
    assert deployment.diagram
    assert any("a 4x4 table" in p for p in deployment.paragraphs)
    assert scenario.skirmish and Scenario.from_json(scenario.as_json()) == scenario


def test_a_battle_of_armies_prints_none_of_it():
    scenario = scenario_generate(
        ScenarioSetup(terrain="plains", settlement="none", attacker=ATTACKER, defender=DEFENDER),
        ScriptedDice(faces=script()),
    )
    assert not scenario.skirmish
    assert TOMB_RAIDER_SECTION not in sheet_text(scenario)
    assert "6 by 4 foot table" in deployment_diagram(scenario).title


def test_assault_1_on_the_square_table_the_defender_chooses_any_edge():
    """6. Deploy Armies, Assault ("which long table edge") on the 4x4 table, where no edge is longer."""
    scenario = skirmish(ruins(engagement=(5,), deployment=(1,), sides=(), deploy=(), first=(3, 3, 1)))
    text = sheet_text(scenario)
    assert "In Assault 1 the Defender chooses which table edge he is defending (on the 4x4 table every edge" in text
    assert "long table edge" not in text
    assert "(the Defender) chooses the table edge he defends" in text  # no roll for sides (decision 628)
    assert "4 by 4 foot table" in deployment_diagram(scenario).title


def test_a_scenario_stored_before_it_kept_skirmish_reads_as_a_battle():
    """Scenarios stored before the field existed load; the battle's own flag draws the 4x4 table."""
    data = skirmish(ruins()).as_json()
    del data["skirmish"]
    old = Scenario.from_json(data)
    assert old.skirmish is False
    assert "4 by 4 foot table" in deployment_diagram(old, skirmish=True).title
    assert "6 by 4 foot table" in deployment_diagram(replace(old)).title


def test_the_warband_of_the_ruins_has_the_defenders_plus_one_to_choose_sides_in_a_tomb_raid():
    """Decision 613 (Tomb Raid; 6. Fight Battles: "If an army did not move and is attacked, it is
    considered the defender and gets +1 to choose sides"): the warband of the ruins, at home there
    ("Ruins attract many dangerous creatures"), is attacked where it stands by the Tomb Raiders who
    come to it: +1 to its roll for sides. 5 against 4+1 ties and is rerolled; 4 against 3+1 ties
    again; 2 against 5+1: the warband chooses."""
    raiders = ScenarioSide(name="Avalon: Tomb Raiders", kingdom=1, army=None)
    warband = ScenarioSide(name="The warband of the ruins", kingdom=None, army=None)
    setup = ScenarioSetup(
        terrain="plains", settlement="ruins", attacker=raiders, defender=warband, skirmish=True, mission="tomb-raid"
    )
    dice = ScriptedDice(faces=ruins(sides=(5, 4, 4, 3, 2, 5)))
    scenario = scenario_generate(setup, dice)
    assert dice.unused == []
    off = scenario.sides["roll_off"]
    assert (off["attacker_modifier"], off["defender_modifier"]) == (0, 1)
    assert scenario.sides["winner"] == "The warband of the ruins"
    assert "The warband of the ruins did not move and is attacked: +1 to choose sides." in scenario.sides["text"]
