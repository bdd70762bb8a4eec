"""The Scenario Generator (rulebook/scenario/generator.py), with scripted dice: rule cases SG1-SG4 and
every table at its edges. Rulebook: Appendix, Scenario Generator (steps 1-8); 6. Fight Battles
(choosing sides, first turn); Fortify; Character Archetypes and Advancement. No database."""

from __future__ import annotations

from dataclasses import replace

import pytest

from kernel.dice import ScriptedDice
from rulebook.scenario.generator import Scenario, ScenarioSetup, ScenarioSide, scenario_generate
from rulebook.scenario.sheet import scenario_lines
from rulebook.scenario.tables import (
    DESCRIPTION_OF_OBJECTIVES,
    ENGAGEMENT_TYPE,
    GAME_LENGTH,
    MAJOR_EVENTS_TABLE,
    MINOR_EVENTS_TABLE,
    OR_ELSE_MIN,
    OR_ELSE_OBJECTIVES,
    SCENARIO_OBJECTIVE_TABLE,
    SETTLEMENT_MODIFIER,
    TERRAIN_MODIFIERS,
    TERRAIN_PIECE,
    TERRAIN_PIECES_COUNT,
)

ATTACKER = ScenarioSide(name="Avalon: Host", kingdom=1, army=10)
DEFENDER = ScenarioSide(name="Brython: Guard", kingdom=2, army=20)


def setup(terrain="plains", settlement="none", attacker=ATTACKER, defender=DEFENDER, defending=True):
    return ScenarioSetup(
        terrain=terrain, settlement=settlement, attacker=attacker, defender=defender, defending=defending
    )


def script(
    *,
    engagement=(1,),
    objective=(3, 4),
    or_else=(),
    terrain=(1, 2, 4, 5),
    deployment=(2,),
    special=(1, 2),
    sides=(2, 5),
    deploy=(6, 1),
    first=(3, 4),
    length=(3,),
):
    """Faces in the order the generator rolls them: plains, three pieces (forest, hill, hill) by default."""
    return [*engagement, *objective, *or_else, *terrain, *deployment, *special, *sides, *deploy, *first, *length]


def roll(faces, **kw):
    dice = ScriptedDice(faces=faces)
    scenario = scenario_generate(setup(**kw), dice)
    assert dice.unused == [], "the scenario rolled fewer dice than scripted"
    return scenario, dice


@pytest.mark.parametrize("settlement", ["town", "city", "capitol"])
def test_case_SG1_a_battle_for_a_town_city_or_capitol_is_always_an_assault(settlement):
    """SG1 (Battle for Towns, Cities, and Capitols): no engagement roll; the town's D2 buildings come first."""
    faces = script(engagement=(), objective=(6, 1), terrain=(1, 2, 4), deploy=(), first=(3, 3, 1), length=(2,))
    scenario, dice = roll(faces, settlement=settlement)
    assert scenario.engagement == {"name": "Assault", "roll": None, "forced": True}
    assert scenario.objective["name"] == "Advance"  # 7 on the Assault column
    assert not any("engagement type" in r.purpose for r in dice.rolls)
    assert scenario.terrain_pieces["pieces"] == ["Building", "Building", "Hill"]


@pytest.mark.parametrize(
    "face, kind",
    [
        (1, "Pitched Battle"),
        (2, "Pitched Battle"),
        (3, "Meeting Engagement"),
        (4, "Meeting Engagement"),
        (5, "Assault"),
        (6, "Assault"),
    ],
)
def test_engagement_type_table(face, kind):
    deploy = () if kind == "Assault" else (6, 1)
    first = (3, 3, 1) if kind == "Assault" else (3, 4)
    scenario, _ = roll(script(engagement=(face,), deploy=deploy, first=first))
    assert scenario.engagement["name"] == kind and scenario.engagement["roll"] == face


def test_case_SG2_a_seven_is_conquest_conquest_and_advance():
    """SG2: 2D6 = 7 gives Conquest in a Pitched Battle and a Meeting Engagement, Advance in an Assault."""
    assert roll(script(engagement=(1,), objective=(3, 4)))[0].objective["name"] == "Conquest"
    assert roll(script(engagement=(3,), objective=(3, 4)))[0].objective["name"] == "Conquest"
    assault = roll(script(engagement=(5,), objective=(3, 4), deploy=(), first=(3, 3, 1)))[0]
    assert assault.objective["name"] == "Advance" and assault.objective["or_else"] is None


def test_case_SG2_capture_in_a_meeting_engagement_or_else_on_4_plus():
    """SG2: 2D6 = 5 in a Meeting Engagement is Capture; a further D6 of 4+ makes it "Or Else!"."""
    or_else = roll(script(engagement=(3,), objective=(2, 3), or_else=(4,)))[0]
    assert or_else.objective["name"] == "Capture" and or_else.objective["or_else"] is True
    plain = roll(script(engagement=(3,), objective=(2, 3), or_else=(3,)))[0]
    assert plain.objective["name"] == "Capture" and plain.objective["or_else"] is False


EXPECTED_OBJECTIVES = {
    "Pitched Battle": [
        "Do as you see fit.",
        "Kill them all!",
        "Capture",
        "Capture",
        "Conquest",
        "Conquest",
        "Conquest",
        "Advance",
        "Advance",
        "Vengeance",
        "Bring me victory!",
    ],
    "Meeting Engagement": [
        "Do as you see fit.",
        "Kill them all!",
        "Capture",
        "Capture",
        "Capture",
        "Conquest",
        "Conquest",
        "Advance",
        "Advance",
        "Vengeance",
        "Bring me victory!",
    ],
    "Assault": [
        "Do as you see fit.",
        "Kill them all!",
        "Kill them all!",
        "Capture",
        "Conquest",
        "Advance",
        "Advance",
        "Advance",
        "Vengeance",
        "Vengeance",
        "Bring me victory!",
    ],
}


@pytest.mark.parametrize("kind", list(EXPECTED_OBJECTIVES))
def test_scenario_objective_table_every_total(kind):
    """The Scenario Objective Table, every 2D6 total of each column, as printed in the rulebook."""
    assert [SCENARIO_OBJECTIVE_TABLE[kind][n] for n in range(2, 13)] == EXPECTED_OBJECTIVES[kind]


def test_secret_objectives_are_left_to_the_players():
    scenario = roll(script(objective=(1, 1)))[0]  # 2: Do as you see fit.
    assert scenario.objective["secret"] and "secret choice" in scenario.objective["notes"][0]
    bring = roll(script(objective=(6, 6)))[0]
    assert bring.objective["name"] == "Bring me victory!" and bring.objective["or_else"] is True


def test_case_SG3_special_circumstances():
    """SG3: a double between the players' D6 reads the Major Events table (double 3: Storm
    Clouds); a total of 7 the Minor Events table (2 and 5: Plague); anything else, none."""
    assert roll(script(special=(3, 3)))[0].special["name"] == "Storm Clouds"
    plague = roll(script(special=(2, 5)))[0].special
    assert (plague["kind"], plague["name"]) == ("minor", "Plague")
    assert roll(script(special=(1, 3)))[0].special["kind"] == "none"
    assert [MAJOR_EVENTS_TABLE[n][0] for n in range(1, 7)] == [
        "Fog",
        "Boggy Ground",
        "Storm Clouds",
        "Magical Flux",
        "Unsteady Footing",
        "Foreboding!",
    ]
    assert [MINOR_EVENTS_TABLE[n][0] for n in (1, 2, 3)] == ["Unstable Magic", "Plague", "Pride"]
    assert roll(script(special=(6, 1)))[0].special["name"] == "Unstable Magic"
    assert roll(script(special=(4, 3)))[0].special["name"] == "Pride"


@pytest.mark.parametrize("face, turns", [(1, 5), (2, 6), (5, 6), (6, 0)])
def test_case_SG4_game_length_of_a_pitched_battle(face, turns):
    """SG4: Pitched Battle, D6 1 gives 5 turns, 2-5 give 6, 6 a random length (0 = Random)."""
    scenario = roll(script(length=(face,)))[0]
    assert scenario.game_length == {"roll": face, "turns": turns}
    text = " ".join(p for s in scenario_lines(scenario) for p in s.paragraphs)
    assert ("Roll a D6 at the end of the fifth turn" in text) is (turns == 0)


def test_game_length_rows_of_the_other_engagements():
    assert [GAME_LENGTH["Meeting Engagement"][n] for n in range(1, 7)] == [5, 6, 6, 6, 0, 0]
    assert [GAME_LENGTH["Assault"][n] for n in range(1, 7)] == [5, 6, 6, 0, 0, 0]


@pytest.mark.parametrize("face, count", [(1, 3), (2, 3), (3, 4), (4, 4), (5, 5), (6, 5)])
def test_number_of_terrain_pieces(face, count):
    pieces = (2,) * count  # forests
    scenario = roll(script(terrain=(face, *pieces)))[0]
    assert scenario.terrain_pieces["count"] == count and len(scenario.terrain_pieces["pieces"]) == count


def test_each_piece_face_and_only_one_river():
    """Terrain (D6): 1 building, 2-3 forest, 4-5 hill, 6 river (only 1, re-roll if unavailable)."""
    scenario = roll(script(terrain=(5, 1, 3, 4, 6, 6, 2)))[0]
    assert scenario.terrain_pieces["pieces"] == ["Building", "Forest piece", "Hill", "River", "Forest piece"]


def test_province_modifiers_place_their_pieces_first():
    forest = roll(script(terrain=(1, 2, 4)), terrain="forest")[0]  # 3 pieces, D3 = 2 forests, then a hill
    assert forest.terrain_pieces["pieces"] == ["Forest piece", "Forest piece", "Hill"]
    marsh = roll(script(terrain=(1, 3)), terrain="marshland")[0]  # D3 = 3 marshfields fill all three
    assert marsh.terrain_pieces["pieces"] == ["Marshfield"] * 3
    mountains = roll(script(terrain=(1, 1, 1, 1, 2)), terrain="mountains")[0]  # D2 = 1 hill, 2 pieces, D2 = 2 rocks
    assert mountains.terrain_pieces["pieces"] == ["Hill", "Building", "Building", *["Impassable rocks or hill"] * 2]
    ruins = roll(script(terrain=()), settlement="ruins")[0]
    assert ruins.terrain_pieces["pieces"] == [] and "Raid Scenario Standards" in ruins.terrain_pieces["notes"][0]


def test_a_town_in_a_forest_bridges_its_river():
    faces = script(engagement=(), objective=(3, 4), terrain=(3, 1, 1, 6, 2), deploy=(), first=(3, 3, 1))
    scenario = roll(faces, terrain="forest", settlement="town")[0]
    assert scenario.terrain_pieces["pieces"] == ["Building", "Forest piece", "River", "Forest piece"]
    assert "A bridge crosses the river." in scenario.terrain_pieces["notes"]


def test_choosing_sides_the_defender_that_did_not_move_adds_one_and_ties_reroll():
    """6. Fight Battles: an army that did not move and is attacked gets +1 to choose sides.
    5 against 4+1 is a tie, rerolled; then 3 against 3+1: the defender chooses."""
    scenario = roll(script(sides=(5, 4, 3, 3)))[0]
    off = scenario.sides["roll_off"]
    assert (off["attacker_rolls"], off["defender_rolls"], off["defender_modifier"]) == ([5, 3], [4, 3], 1)
    assert scenario.sides["winner"] == "Brython: Guard"


def test_fortified_defender_chooses_sides_and_the_attacker_adds_one_to_go_first():
    """Fortify: the fortified army chooses its table side (no roll); the attacker adds +1 to go
    first, so its 4 beats the defender's 4."""
    fortified = ScenarioSide(name="Brython: Guard", kingdom=2, army=20, fortified=True)
    scenario = roll(script(sides=(), first=(4, 4)), defender=fortified)[0]
    assert scenario.sides["roll_off"] is None and scenario.sides["winner"] == "Brython: Guard"
    first = scenario.first_turn["roll_off"]
    assert first["attacker_modifier"] == 1 and first["winner"] == "attacker"


def test_supported_against_unsupported_when_both_moved():
    """6. Fight Battles: both moved in; the supported army has +1 to choose sides (its 4 beats 4)
    and the unsupported army +1 to go first (its 2 beats 2)."""
    supported = ScenarioSide(name="Avalon: Host", kingdom=1, army=10, supported=True)
    scenario = roll(script(sides=(4, 4), first=(2, 2)), attacker=supported, defending=False)[0]
    assert scenario.sides["winner"] == "Avalon: Host"
    assert scenario.first_turn["roll_off"]["defender_modifier"] == 1
    assert scenario.first_turn["winner"] == "Brython: Guard"


def test_case_R5_the_blundered_side_has_plus_1_on_its_roll_for_first_turn():
    """Guerrilla Tactics, Blundered!: "+1 to your roll for first turn", for the smaller army whose
    saboteurs rolled (rule case R5; here the defender). Its 3+1 beats 3."""
    smaller = ScenarioSide(name="Brython: Guard", kingdom=2, army=20, blunder_bonus=True)
    scenario = roll(script(first=(3, 3)), defender=smaller)[0]
    off = scenario.first_turn["roll_off"]
    assert (off["attacker_modifier"], off["defender_modifier"], off["winner"]) == (0, 1, "defender")
    assert scenario.first_turn["winner"] == "Brython: Guard"
    assert (
        "Brython: Guard: +1 to its roll for first turn (Guerrilla Tactics: Blundered!)." in scenario.first_turn["notes"]
    )
    assert any("Blundered!" in p for section in scenario_lines(scenario) for p in section.paragraphs)


def test_first_turn_modifiers_are_cumulative():
    """6. Fight Battles: "These are cumulative with any other modifier": attacking a fortified army
    (+1, Fortify) and Blundered! against the attacker (+1) make +2; both moved in, the unsupported
    army's +1 adds to its Blundered! +1."""
    fortified = ScenarioSide(name="Brython: Guard", kingdom=2, army=20, fortified=True)
    attacker = ScenarioSide(name="Avalon: Host", kingdom=1, army=10, blunder_bonus=True)
    scenario = roll(script(sides=(), first=(1, 4)), attacker=attacker, defender=fortified)[0]
    off = scenario.first_turn["roll_off"]
    assert (off["attacker_modifier"], off["defender_modifier"], off["winner"]) == (2, 0, "defender")

    supported = ScenarioSide(name="Avalon: Host", kingdom=1, army=10, supported=True)
    blundered = ScenarioSide(name="Brython: Guard", kingdom=2, army=20, blunder_bonus=True)
    scenario = roll(script(sides=(4, 4), first=(4, 3)), attacker=supported, defender=blundered, defending=False)[0]
    off = scenario.first_turn["roll_off"]
    assert (off["attacker_modifier"], off["defender_modifier"], off["winner"]) == (0, 2, "defender")


def test_the_assault_attacker_rolls_2d6_for_the_first_turn_and_the_defender_deploys_first():
    scenario, dice = roll(script(engagement=(5,), deploy=(), first=(1, 1, 3)))
    assert (
        scenario.first_turn["roll_off"]["attacker_rolls"] == [2] and scenario.first_turn["winner"] == "Brython: Guard"
    )
    assert scenario.deploy["first"] == "defender"
    assert any(r.expression == "2D6" and r.purpose.startswith("Scenario: first turn") for r in dice.rolls)


def test_noblesse_oblige_removes_or_else():
    """Noble: Noblesse Oblige: if "Or Else!" is generated, it is disregarded."""
    noble = ScenarioSide(name="Brython: Guard", kingdom=2, army=20, general_abilities=frozenset({"Noblesse Oblige"}))
    scenario = roll(script(engagement=(3,), objective=(2, 3), or_else=(6,)), defender=noble)[0]
    assert scenario.objective["name"] == "Capture" and scenario.objective["or_else"] is False
    assert any("Noblesse Oblige" in n for n in scenario.objective["notes"])


def test_the_same_ability_on_both_sides_cancels():
    """Character Archetypes: both Generals with Lay of the Land (or two abilities with the same
    effect) cancel each other out. Dictate Terms and Choose Your Ground share one effect, the
    choice of map: that cancels, and the rest of each stands (go first; the deployment zone)."""
    lay = frozenset({"Lay of the Land"})
    a = ScenarioSide(name="Avalon: Host", general_abilities=lay)
    d = ScenarioSide(name="Brython: Guard", general_abilities=lay)
    scenario = roll(script(), attacker=a, defender=d)[0]
    assert scenario.abilities == [
        "Both Generals have Lay of the Land: the abilities cancel each other out (setting up the terrain)."
    ]
    assert not scenario.terrain_pieces["notes"][1:]
    terms = ScenarioSide(name="Avalon: Host", general_abilities=frozenset({"Dictate Terms"}))
    ground = ScenarioSide(name="Brython: Guard", general_abilities=frozenset({"Choose Your Ground"}))
    cancelled = roll(script(), attacker=terms, defender=ground)[0]
    assert cancelled.abilities[0] == (
        "Both Generals have Choose Your Ground, Dictate Terms: the abilities cancel each other out "
        "(the choice of Deployment Map)."
    )
    assert cancelled.deployment["notes"] == [
        "Brython: Guard may choose which deployment zone to take (Choose Your Ground)."
    ]
    assert "Avalon: Host may choose to go first (Dictate Terms)." in cancelled.first_turn["notes"]


def test_dictate_terms_shows_the_rolled_map_and_the_players_choice():
    terms = ScenarioSide(name="Avalon: Host", general_abilities=frozenset({"Dictate Terms"}))
    scenario = roll(script(deployment=(3,)), attacker=terms)[0]
    assert scenario.deployment["map"] == "Pitched Battle 3"
    assert scenario.deployment["notes"] == [
        "Rolled 3; Avalon: Host may choose the Deployment Map instead (Dictate Terms)."
    ]


def test_json_round_trip_and_every_roll_has_a_purpose():
    scenario, dice = roll(script(engagement=(3,), objective=(2, 3), or_else=(4,)))

    assert Scenario.from_json(scenario.as_json()) == scenario
    assert all(r.purpose.startswith("Scenario: ") for r in dice.rolls)
    assert {r.kingdoms for r in dice.rolls if "engagement" in r.purpose} == {(1, 2)}
    titles = [s.title for s in scenario_lines(scenario)]
    assert titles[0] == "1. Engagement type: Meeting Engagement"
    assert titles[1] == '2. Objective: Capture — "Or Else!"'


def test_a_desert_reads_as_plains():
    """Deserts are not in the Scenario Generator: open ground, no modifiers (rules decision 42)."""
    scenario = roll(script(terrain=(1, 2, 4, 5)), terrain="desert")[0]
    assert scenario.terrain_pieces["pieces"] == ["Forest piece", "Hill", "Hill"]
    assert scenario.terrain_pieces["notes"] == ["Desert: open ground, read as Plains; no modifiers."]


def sheet_text(scenario):
    return "\n".join(p for section in scenario_lines(scenario) for p in section.paragraphs)


def general(name, *abilities):
    return ScenarioSide(name=name, general_abilities=frozenset(abilities))


def test_a_meeting_engagement_winner_chooses_an_entry_point_and_moves_on_first():
    """6. Deploy Armies, Meeting Engagement: the player who scores highest chooses an entry point
    and moves a unit onto the table first, then the players alternate; he does not choose to
    deploy first or second (that is the Pitched Battle rule)."""
    scenario = roll(script(engagement=(3,), deploy=(2, 5)))[0]
    assert scenario.deploy["first"] == "defender"
    assert scenario.deploy["text"] == (
        "Brython: Guard scores highest, chooses an entry point and moves a unit onto the table first; "
        "then the players alternate, a unit at a time, the other player from the other entry point."
    )
    assert "deploy first or second" not in sheet_text(scenario)


def test_a_pitched_battle_winner_chooses_to_deploy_first_or_second():
    """6. Deploy Armies, Pitched Battle: "The player who wins the roll can choose to deploy either
    first or second."""
    scenario = roll(script(engagement=(1,), deploy=(6, 1)))[0]
    assert scenario.deploy["first"] is None
    assert scenario.deploy["text"] == "Avalon: Host wins the roll and chooses to deploy first or second."


def test_the_meeting_engagement_deployment_is_printed_in_the_rulebook_s_words():
    """6. Deploy Armies, Meeting Engagement, in full: moving on as if pursuing off the table, the
    other special movement rules, Animosity, Unruly and Stupidity."""
    text = sheet_text(roll(script(engagement=(4,)))[0])
    for words in (
        "The unit moves on from within the entry point as if it had pursued an enemy off the table in a previous "
        "turn. Therefore, no charges may be declared.",
        "All other special movement rules apply (such as random movement distances, activating Night Goblin "
        "Fanatics, etc).",
        "Note that Orc and Goblin units not on the table do not test for Animosity, and Unruly Beastmen units do "
        "not have to test before moving on.",
        "Creatures suffering from Stupidity must test and, if they become Stupid, will only move at half their "
        "normal speed.",
        "No units may use special deployment rules (except for hidden models, such as Fanatics and Assassins).",
    ):
        assert words in text


@pytest.mark.parametrize("face, noted", [(1, True), (2, False), (3, True)])
def test_assault_deployments_1_and_3_let_the_defender_choose_the_long_edge_once(face, noted):
    """4. Determine Deployment (D3) and 6. Deploy Armies, Assault: "In Assault deployments 1 and 3,
    the Defender chooses which long table edge he is defending" — printed once, with those maps only."""
    sides = () if noted else (2, 5)  # Assault 1 and 3: no roll for sides (decision 628)
    scenario = roll(script(engagement=(5,), deployment=(face,), sides=sides, deploy=(), first=(3, 3, 1)))[0]
    text = sheet_text(scenario)
    assert text.count("the Defender chooses which long table edge he is defending") == (1 if noted else 0)
    if noted:
        assert f"In Assault {face} the Defender chooses which long table edge he is defending." in text


def test_an_assault_map_chosen_by_ability_still_tells_the_defender_about_the_long_edge():
    """4. Determine Deployment: map 2 was rolled but Dictate Terms may choose Assault 1 or 3, where
    the Defender chooses the long table edge (6. Deploy Armies, Assault)."""
    scenario = roll(
        script(engagement=(5,), deployment=(2,), deploy=(), first=(3, 3, 1)),
        attacker=general("Avalon: Host", "Dictate Terms"),
    )[0]
    text = sheet_text(scenario)
    assert text.count("the Defender chooses which long table edge he is defending") == 1
    assert "If Assault 1 or Assault 3 is chosen instead, the Defender chooses which long table edge" in text


def test_dictate_terms_may_choose_to_go_first_and_choose_your_ground_may_not():
    """Intellectual: Dictate Terms "can choose which Deployment Map to use ... and may choose to go
    first"; Noble: Choose Your Ground chooses the map and the deployment zone, not the first turn."""
    terms = roll(script(), attacker=general("Avalon: Host", "Dictate Terms"))[0]
    assert "Avalon: Host may choose to go first (Dictate Terms)." in terms.first_turn["notes"]
    ground = roll(script(), attacker=general("Avalon: Host", "Choose Your Ground"))[0]
    assert not any("go first" in note for note in ground.first_turn["notes"])
    assert "may choose to go first" not in sheet_text(ground)
    assert ground.deployment["notes"] == [
        "Rolled 2; Avalon: Host may choose the Deployment Map instead (Choose Your Ground).",
        "Avalon: Host may choose which deployment zone to take (Choose Your Ground).",
    ]


def test_dictate_terms_on_both_generals_cancels_the_choice_to_go_first():
    """Character Archetypes: the same ability on both sides cancels: neither may choose to go first."""
    scenario = roll(
        script(), attacker=general("Avalon: Host", "Dictate Terms"), defender=general("Brython: Guard", "Dictate Terms")
    )[0]
    assert not any("go first" in note for note in scenario.first_turn["notes"])
    assert scenario.deployment["notes"] == []
    assert scenario.abilities == [
        "Both Generals have Dictate Terms: the abilities cancel each other out (the choice of Deployment Map).",
        "Both Generals have Dictate Terms: the abilities cancel each other out (the choice to go first).",
    ]


def test_even_the_odds_shows_the_players_choice_of_army_size():
    """Rogue / Trickster: Even the Odds chooses one size for both armies, not below 1,000 points nor
    above the smaller army; models left behind are not casualties and rejoin after the battle."""
    scenario = roll(script(), defender=general("Brython: Guard", "Even the Odds"))[0]
    assert scenario.abilities == [
        "Brython: Guard (Even the Odds) may choose the size of the armies for the battle, one size for both "
        "armies, not below 1,000 points nor above the smaller army's size; models left behind do not count as "
        "casualties and rejoin their armies after the battle."
    ]
    assert scenario.abilities[0] in sheet_text(scenario)


def test_even_the_odds_on_both_generals_cancels():
    """Character Archetypes: both Generals with Even the Odds cancel; the armies fight as they are."""
    scenario = roll(
        script(), attacker=general("Avalon: Host", "Even the Odds"), defender=general("Brython: Guard", "Even the Odds")
    )[0]
    assert scenario.abilities == [
        "Both Generals have Even the Odds: the abilities cancel each other out (the choice of army size)."
    ]


@pytest.mark.parametrize("face, or_else", [(3, False), (4, True)])
def test_vengeance_is_or_else_on_4_plus(face, or_else):
    """2. Determine Objective: 11 in a Pitched Battle is Vengeance; "On a roll of a 4+ this objective
    becomes an 'Or Else!' objective": 3 is not, 4 is."""
    scenario = roll(script(objective=(5, 6), or_else=(face,)))[0]
    assert scenario.objective["name"] == "Vengeance"
    assert (scenario.objective["or_else_roll"], scenario.objective["or_else"]) == (face, or_else)
    expected = "4+: it is an Or Else! objective" if or_else else "no Or Else!"
    assert f'"Or Else!" roll: {face} ({expected}).' in sheet_text(scenario)


@pytest.mark.parametrize("ability", ["Pick Your Fights", "Chain of Command"])
def test_pick_your_fights_and_chain_of_command_may_choose_the_objective(ability):
    """Rogue / Trickster: Pick Your Fights; Veteran: Chain of Command: "may always choose the
    scenario objective"; the rolled objective is still shown."""
    scenario = roll(script(), attacker=general("Avalon: Host", ability))[0]
    assert scenario.objective["name"] == "Conquest"
    assert f"Avalon: Host may choose the scenario objective instead ({ability})." in scenario.objective["notes"]


def test_pick_your_fights_and_chain_of_command_on_opposite_sides_cancel():
    """Character Archetypes: two different abilities with the same effect cancel each other out."""
    scenario = roll(
        script(),
        attacker=general("Avalon: Host", "Pick Your Fights"),
        defender=general("Brython: Guard", "Chain of Command"),
    )[0]
    assert scenario.objective["notes"] == []
    assert "cancel each other out (the choice of scenario objective)" in scenario.abilities[0]


def test_raider_may_replace_the_objective_with_advance():
    """Intimidator: Raider: "After randomly determining the scenario's objective, ... may replace the
    objective with Advance instead"."""
    scenario = roll(script(), attacker=general("Avalon: Host", "Raider"))[0]
    assert scenario.objective["notes"] == ["Avalon: Host may replace the objective with Advance (Raider)."]


def test_murderous_may_replace_the_objective_with_kill_them_all():
    """Psychopath / Zealot: Murderous: "may always replace the objective with Kill Them All instead"."""
    scenario = roll(script(), defender=general("Brython: Guard", "Murderous"))[0]
    assert scenario.objective["notes"] == ["Brython: Guard may replace the objective with Kill them all! (Murderous)."]


def test_raider_and_murderous_on_opposite_sides_do_not_cancel():
    """Character Archetypes: only the same ability or the same effect cancels; Raider (Advance) and
    Murderous (Kill them all!) are different effects, so both choices stand."""
    scenario = roll(
        script(), attacker=general("Avalon: Host", "Raider"), defender=general("Brython: Guard", "Murderous")
    )[0]
    assert scenario.objective["notes"] == [
        "Avalon: Host may replace the objective with Advance (Raider).",
        "Brython: Guard may replace the objective with Kill them all! (Murderous).",
    ]
    assert not any("cancel" in note for note in scenario.abilities)


def test_the_remaining_tables_read_as_the_rulebook_prints_them():
    """Appendix, Scenario Generator: 1. Engagement Type (D6 1-2, 3-4, 5-6); 2. "Or Else!" on 4+ for
    Capture and Vengeance; 3. Determine Terrain (pieces 1-2: 3, 3-4: 4, 5-6: 5; each piece 1
    building, 2-3 forest, 4-5 hill, 6 river; the province and town modifiers' dice)."""
    engagements = [ENGAGEMENT_TYPE[n] for n in range(1, 7)]
    assert engagements == [*["Pitched Battle"] * 2, *["Meeting Engagement"] * 2, *["Assault"] * 2]
    assert sorted(OR_ELSE_OBJECTIVES) == ["Capture", "Vengeance"]
    assert OR_ELSE_MIN == 4
    assert [TERRAIN_PIECES_COUNT[n] for n in range(1, 7)] == [3, 3, 4, 4, 5, 5]
    assert [TERRAIN_PIECE[n] for n in range(1, 7)] == ["Building", *["Forest piece"] * 2, *["Hill"] * 2, "River"]
    dice = {name: (m.piece, m.dice, m.extra, m.extra_dice) for name, m in TERRAIN_MODIFIERS.items()}
    assert dice["forest"] == ("Forest piece", "D3", None, "")
    assert dice["mountains"] == ("Hill", "D2", "Impassable rocks or hill", "D2")
    assert dice["marshland"] == ("Marshfield", "D3", None, "")
    assert dice["plains"][0] is None and dice["desert"][0] is None
    assert (SETTLEMENT_MODIFIER.piece, SETTLEMENT_MODIFIER.dice) == ("Building", "D2")


def test_raider_has_nothing_to_replace_when_advance_is_rolled():
    """Intimidator: Raider replaces the rolled objective with Advance: 10 in a Pitched Battle is
    already Advance, so the sheet offers no replacement."""
    scenario = roll(script(objective=(4, 6)), attacker=general("Avalon: Host", "Raider"))[0]
    assert scenario.objective["name"] == "Advance" and scenario.objective["notes"] == []


def test_supply_depot_the_scenario_sheet_counts_a_captured_depot_150_victory_points():
    """Supply Depot: "In games where Victory Points determine the outcome, captured Supply Depots count
    for 150 points"; the sheet also says how a depot is captured and recaptured, and to report it on the
    turn summary sheet. The Tomb Raiders' skirmish brings no cart (decision 398)."""
    scenario = roll(script())[0]
    section = next(s for s in scenario_lines(scenario) if s.title == "Supply Depots")
    text = " ".join(section.paragraphs)
    assert "captured Supply Depots count for 150 Victory Points" in text
    assert "unattended cart is touched by any enemy unit" in text
    assert "friendly forces recapture the cart" in text
    assert "turn summary sheet" in text
    assert [s.title for s in scenario_lines(scenario)][-2:] == ["Supply Depots", "8. Begin the Battle!"]
    skirmish = replace(scenario, skirmish=True)
    assert "Supply Depots" not in [s.title for s in scenario_lines(skirmish)]


@pytest.mark.parametrize("settlement", ["none", "town", "city", "capitol", "ruins"])
def test_the_stored_scenario_is_what_asdict_gives(settlement):
    """`as_json` builds the stored scenario by hand (speed): the same dicts, lists and values as
    `dataclasses.asdict`, for scenarios of every kind of settlement and seeded rolls."""
    from dataclasses import asdict

    from kernel.dice import SeededDice

    generals = ScenarioSide(name="A", kingdom=1, army=2, general_abilities=frozenset({"Raider", "Dictate Terms"}))
    for stream in range(20):
        scenario = scenario_generate(
            setup(settlement=settlement, attacker=generals), SeededDice(seed="x", stream=str(stream))
        )
        stored = scenario.as_json()
        assert stored == asdict(scenario)
        assert repr(stored) == repr(asdict(scenario))  # the same types too: lists stay lists, tuples tuples


@pytest.mark.parametrize("skirmish", [False, True])
def test_ruins_terrain_is_the_raid_standards_generous_terrain_not_none(skirmish):
    """3. Determine Terrain: "Ruins: as Raid Scenario Standards", whose terrain is Tomb Raider Scenario &
    Terrain's rule 1: "a generous amount of terrain. Woods & ruins are best for Ruins games". No piece is
    rolled, so the sheet must say what to set up, never "Pieces: none." (an army's battle at a ruin and
    the Tomb Raiders' skirmish alike)."""
    faces = script(terrain=())
    dice = ScriptedDice(faces=faces)
    scenario = scenario_generate(replace(setup(settlement="ruins"), skirmish=skirmish), dice)
    assert dice.unused == []
    (terrain,) = [s for s in scenario_lines(scenario) if s.title.startswith("3. Terrain")]
    text = " ".join(terrain.paragraphs)
    assert "Pieces: none." not in text
    assert "a generous amount of terrain; woods & ruins are best (Tomb Raider Scenario & Terrain, 1.)" in text


def _described(text: str, name: str) -> bool:
    """The objective's Description of Objectives (its victory conditions and special rules) is in the text."""
    description = DESCRIPTION_OF_OBJECTIVES[name]
    return f"{name}: {description.victory} Special rules: {description.special}" in text


def test_bring_me_victory_prints_capture_and_vengeance_for_the_players_to_choose():
    """2. Determine Objective, 12: Bring me victory!: "Each player secretly chooses either "Capture" or
    "Vengeance" objectives ... Special Rules. Per chosen objective." The Description of Objectives "details
    the victory conditions for each of the various objectives": the sheet prints the two a player chooses
    from, so the players have the 500 Victory Points of each at the table."""
    scenario = roll(script(objective=(6, 6)))[0]
    text = sheet_text(scenario)
    assert _described(text, "Capture") and _described(text, "Vengeance")
    assert not _described(text, "Conquest") and not _described(text, "Advance")
    stored = scenario.as_json()
    del stored["objective"]["may_choose"]  # a scenario stored before the field was kept
    assert sheet_text(Scenario.from_json(stored)) == text


def test_do_as_you_see_fit_prints_every_objective_a_player_may_select():
    """2. Determine Objective, 2: Do as you see fit.: "Each player selects one of the objectives" (decision
    627: any other objective of the table); the sheet prints each one's Description of Objectives."""
    text = sheet_text(roll(script(objective=(1, 1)))[0])
    for name in ("Kill them all!", "Capture", "Conquest", "Advance", "Vengeance", "Bring me victory!"):
        assert _described(text, name), name
    assert "Do as you see fit.: " not in text


def test_an_ability_s_objective_is_described_and_a_plain_roll_prints_no_other():
    """Intimidator: Raider "may replace the objective with Advance"; Rogue / Trickster: Pick Your Fights "may
    always choose the scenario objective": the objectives they may take are described on the sheet. A rolled
    Conquest with no such ability prints no other objective's conditions."""
    raider = sheet_text(roll(script(), attacker=general("Avalon: Host", "Raider"))[0])
    assert _described(raider, "Advance") and not _described(raider, "Capture")
    picks = sheet_text(roll(script(), attacker=general("Avalon: Host", "Pick Your Fights"))[0])
    for name in ("Kill them all!", "Capture", "Advance", "Vengeance", "Bring me victory!"):
        assert _described(picks, name), name
    plain = sheet_text(roll(script())[0])
    assert not any(_described(plain, n) for n in ("Kill them all!", "Capture", "Advance", "Vengeance"))


@pytest.mark.parametrize("face", [1, 3])
def test_in_assault_1_and_3_the_defender_chooses_the_edge_with_no_roll_for_sides(face):
    """6. Deploy Armies, Assault: "In Assault deployments 1 and 3, the Defender chooses which long table edge
    he is defending" (decision 628): no roll for sides is made (the script has none), so the sheet never
    says the Attacker, winning a roll, "chooses the table side"; a painted Attacker's +1 for picking table
    sides (Painting Counts) has no roll to add to."""
    painted = ScenarioSide(name="Avalon: Host", kingdom=1, army=10, painted=True)
    faces = script(engagement=(5,), deployment=(face,), sides=(), deploy=(), first=(3, 3, 1))
    scenario = roll(faces, attacker=painted)[0]
    assert scenario.sides["roll_off"] is None and scenario.sides["winner"] == "Brython: Guard"
    text = sheet_text(scenario)
    assert "Avalon: Host chooses the table side" not in text and "to choose sides" not in text
    assert (
        "Brython: Guard (the Defender) chooses the table edge he defends (see 4. Deployment; 6. Deploy Armies, "
        "Assault): no roll for sides." in text
    )
    assert text.count("the Defender chooses which long table edge he is defending") == 1  # decision 64


def test_in_assault_2_the_roll_for_sides_stands():
    """6. Fight Battles: "roll for set up ... as normal"; Assault 2 has no note giving the Defender the edge."""
    scenario = roll(script(engagement=(5,), deployment=(2,), sides=(6, 1), deploy=(), first=(3, 3, 1)))[0]
    assert scenario.sides["roll_off"] is not None and scenario.sides["winner"] == "Avalon: Host"


def test_the_stand_alone_sides_named_defender_are_not_named_twice():
    """The stand-alone generator names its sides "Attacker" and "Defender": 6. Deploy Armies, Assault reads
    "The Defender deploys first", not "Defender (the Defender) deploys first"; a battle's sheet names the army."""
    sides = {"attacker": ScenarioSide(name="Attacker"), "defender": ScenarioSide(name="Defender")}
    faces = script(engagement=(5,), deployment=(1,), sides=(), deploy=(), first=(3, 3, 1))
    text = sheet_text(roll(faces, **sides)[0])
    assert "The Defender deploys first." in text and "The Defender chooses the table edge he defends" in text
    assert "(the Defender)" not in text
    named = sheet_text(roll(faces)[0])
    assert "Brython: Guard (the Defender) deploys first." in named


# Decision 625: the Attacker of an Assault both armies moved into. Faces: the engagement (5: Assault),
# then, with no holder, the roll-off for who attacks, then the scenario as scripted; an Assault has no
# deployment roll-off, and the Attacker rolls 2D6 for the first turn.
def test_an_assault_both_armies_moved_into_is_defended_by_the_side_that_holds_the_province():
    """6. Fight Battles: "If both armies move into the province at the same time, then roll for set up
    and first turn as normal"; Scenario Generator, Assault: "One army attacks the other in a defended
    position". The province is Avalon's (listed first, the lower id): Avalon's Host defends it, so
    Brython's Guard is the Attacker: it rolls 2D6 for the first turn, Avalon deploys first and, in
    Assault 1, chooses the edge it defends (decision 625)."""
    dice = ScriptedDice(faces=script(engagement=(5,), deployment=(1,), sides=(), deploy=(), first=(1, 1, 3)))
    both = replace(setup(defending=False), holder="attacker")
    scenario = scenario_generate(both, dice)
    assert dice.unused == []
    assert (scenario.attacker, scenario.defender) == ("Brython: Guard", "Avalon: Host")
    assert scenario.deploy["text"] == "Avalon: Host (the Defender) deploys first."
    assert scenario.sides["winner"] == "Avalon: Host"
    assert any(r.expression == "2D6" and r.purpose == "Scenario: first turn: Brython: Guard" for r in dice.rolls)
    assert scenario.first_turn["winner"] == "Avalon: Host"  # Brython's 1+1 against Avalon's 3
    why = scenario_lines(scenario)[0].paragraphs
    assert any("Avalon: Host holds the province" in p and "Brython: Guard is the Attacker" in p for p in why)


def test_an_assault_both_armies_moved_into_a_province_neither_holds_is_decided_by_a_roll_off():
    """6. Fight Battles and the Scenario Generator, Assault: in a province neither side holds, a
    roll-off (a D6 each, ties rerolled) decides who attacks; its winner is the Attacker. Here a tie
    (3, 3) is rerolled and the Guard's 5 beats the Host's 2: the Guard attacks, the Host deploys first
    and the sheet shows the rolls (decision 625)."""
    faces = [5, 3, 3, 2, 5, *script(deployment=(2,), sides=(4, 4, 2, 5), deploy=(), first=(6, 6, 1))[1:]]
    dice = ScriptedDice(faces=faces)
    scenario = scenario_generate(replace(setup(defending=False), holder="none"), dice)
    assert dice.unused == []
    assert (scenario.attacker, scenario.defender) == ("Brython: Guard", "Avalon: Host")
    roles = scenario.assault_roles
    assert roles is not None and roles["roll_off"]["attacker_rolls"] == [3, 2]
    assert roles["roll_off"]["defender_rolls"] == [3, 5]
    assert scenario.deploy["first"] == "defender" and "Avalon: Host (the Defender)" in scenario.deploy["text"]
    assert scenario.first_turn["winner"] == "Brython: Guard"  # its 2D6 of 12 against 1
    why = " ".join(scenario_lines(scenario)[0].paragraphs)
    assert "Avalon: Host 3, Brython: Guard 3; tie, rerolled: Avalon: Host 2, Brython: Guard 5." in why
    assert "Brython: Guard scores highest and is the Attacker" in why


def test_the_holder_s_side_named_defender_stays_so_and_no_roll_is_made_outside_an_assault():
    """Decision 625 names the Assault's Attacker only: the holder already the Defender (a town's side,
    decision 584) stays so and the sheet says why; a Pitched Battle both moved into rolls no extra
    die and says nothing of it."""
    dice = ScriptedDice(faces=script(engagement=(6,), deployment=(2,), sides=(2, 5), deploy=(), first=(3, 3, 1)))
    scenario = scenario_generate(replace(setup(defending=False), holder="defender"), dice)
    assert dice.unused == []
    assert (scenario.attacker, scenario.defender) == ("Avalon: Host", "Brython: Guard")
    assert scenario.assault_roles is not None and scenario.assault_roles["roll_off"] is None
    assert "Brython: Guard holds the province" in scenario.assault_roles["text"]

    dice = ScriptedDice(faces=script())
    pitched = scenario_generate(replace(setup(defending=False), holder="none"), dice)
    assert dice.unused == [] and pitched.assault_roles is None
