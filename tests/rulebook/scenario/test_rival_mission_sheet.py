"""The scenario sheet of a Reconnaissance or Sabotage (rulebook/scenario/sheet.py::rival_mission_lines):
who comes, who defends, Tomb Raider Scenario & Terrain, who files what; the mission desired on the spy's
copy alone. Rulebook: Reconnaissance; Sabotage; Generic Opponents; Tomb Raider Scenario & Terrain.
Decisions 463-464. No database."""

from __future__ import annotations

from rulebook.scenario.sheet import RivalMissionSheet, scenario_lines
from tests.rulebook.scenario.test_tomb_raider_skirmish import ruins, skirmish

SPY_COPY = RivalMissionSheet(
    kind="sabotage",
    spy="Avalon",
    target="Brython",
    target_book="Dwarfs",
    defender="guard",
    desired="Theft: Steal money from your rival's treasury: 1-2: 150 gold, 3-4: 200 gold, 5-6: 250 gold.",
)


def _section(sheet: RivalMissionSheet | None, mission: str = "sabotage") -> list[str]:
    scenario = skirmish(ruins(), mission=mission)
    sections = {s.title: s.paragraphs for s in scenario_lines(scenario, sheet)}
    assert "Tomb Raider Scenario & Terrain" in sections
    return sections.get("Sabotage" if mission == "sabotage" else "Reconnaissance", [])


def test_the_spy_s_copy_names_the_mission_desired_and_the_guard_its_target_builds():
    """Sabotage: "The enemy warband represents the guard of the city, magic college, master engineer, etc.
    and will be a generic force of 150pts built from the player's Army book"; Generic Opponents: "no
    Lieutenant is selected and all models must be chosen from only 2 Core troop types max"."""
    lines = _section(SPY_COPY)
    assert lines[0] == (
        "Sabotage by Avalon's Tomb Raiders against Brython: a Tomb Raider match of the two forces; no army fights on "
        "either side, and it is not a battle for a town: its engagement type is rolled (1. Determine Engagement Type)."
    )
    assert lines[1].startswith(
        "Brython's player builds the guard that defends: a generic force of 150 points from Brython's army book "
        "(Dwarfs), chosen as Tomb Raiders are, but no Lieutenant is selected and all models come from 2 Core troop "
        "types at most (Generic Opponents)."
    )
    assert "more dwellings for Recon & Sabotage games" in lines[2] and "until one side withdraws" in lines[2]
    assert lines[3] == f"The mission Avalon desires: {SPY_COPY.desired}"
    assert lines[4].endswith("and its Tomb Raiders' losses; Brython files nothing.")


def test_the_target_s_copy_says_who_comes_and_who_defends_never_what_is_desired():
    """Decision 463: the copy both sides read (the PDF, the email, the target's page) leaves the mission
    desired out; the target's own Tomb Raiders defend and it files their losses (decision 464)."""
    target_copy = RivalMissionSheet(
        kind="reconnaissance", spy="Avalon", target="Brython", target_book="Dwarfs", defender="raiders"
    )
    lines = _section(target_copy, mission="reconnaissance")
    text = "\n".join(lines)
    assert lines[1].startswith(
        "Brython's own Tomb Raiders defend: they are not on a mission this turn (Reconnaissance). Their Captain counts "
        "as the Army General."
    )
    assert lines[3] == "What the raiders desire is Avalon's to know: this copy does not say (decision 463)."
    assert "Theft" not in text and "Treasury" not in text
    assert lines[4].endswith("and its Tomb Raiders' losses; Brython files its own Tomb Raiders' losses.")


def test_without_the_battle_s_words_no_section_is_printed():
    """The section needs the battle (who comes, who defends): the scenario alone has no kingdoms."""
    assert _section(None) == []


def test_the_target_s_raiders_defend_or_its_player_fields_a_guard():
    """Reconnaissance: "Alternatively, the player may use his own Tomb Raiders to defend if they are not being
    used for a mission this turn": the sheet names the raiders, and says the target's player may field the
    150-point guard instead, its sheet then reporting no losses of its raiders (decision 460)."""
    copy = RivalMissionSheet(kind="sabotage", spy="Avalon", target="Brython", target_book="Dwarfs", defender="raiders")
    (line,) = [line for line in _section(copy) if line.startswith("Brython's own Tomb Raiders defend")]
    assert "Brython's player may field a generic 150-point guard instead" in line
    assert "its sheet reports no losses of its Tomb Raiders" in line


def test_a_rolled_assault_is_not_denied_by_the_mission_s_words():
    """Tomb Raider Scenario & Terrain: "Use the Scenario Generator in the Appendix section": a Reconnaissance
    or Sabotage is not a battle for a town (decision 466: never the forced Assault), so 1. Determine Engagement
    Type's D6 is rolled and a 5 or 6 is an Assault. The mission's section must not say "never an Assault" on
    a sheet whose step 1 reads "Assault (rolled 5)"."""
    scenario = skirmish(ruins(engagement=(5,), deploy=(), first=(3, 3, 1)), mission="sabotage")
    sections = {s.title: s.paragraphs for s in scenario_lines(scenario, SPY_COPY)}
    assert "1. Engagement type: Assault" in sections
    mission = " ".join(sections["Sabotage"])
    assert "never an Assault" not in mission
    assert "not a battle for a town: its engagement type is rolled (1. Determine Engagement Type)" in mission
