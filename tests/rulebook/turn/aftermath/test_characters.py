"""Characters through the battles (rulebook/turn/aftermath/run.py, rulebook/warlord/succession.py) with
scripted dice: rule cases XP5 (a reroll on the Character Injury Chart for 25 experience) and XP6
(the Warlord's succession on a tie), Resilient, the Skaven "Backstabbers", and battles survived.
No database."""

from __future__ import annotations

from dataclasses import replace

from rulebook.tables import ArmyType
from rulebook.turn.aftermath.results import BattleResult as R
from rulebook.warlord.succession import HeirCandidate, warlord_heir
from rulebook.world import CharacterState, UnitState
from tests.rulebook.turn.aftermath.test_aftermath import (
    AVALON,
    BRYTHON,
    GUARD,
    HOST,
    Scene,
    _characters,
    field_battle,
    outcome,
)

DAGOBERT = 8  # a General of the Host


def _host_with_general(world: Scene, **character) -> None:
    _characters(world)
    world.units[108] = UnitState(108, HOST, "Captain Dagobert", "character", 1, 90)
    world.characters[DAGOBERT] = CharacterState(DAGOBERT, AVALON, 108, "Captain Dagobert", "general", **character)


def _codes(result) -> list[str]:
    return [e.code for e in result.events]


def test_case_XP5_a_dead_general_rerolled_for_25_experience_the_second_roll_stands():
    """XP5 (Spending Experience: "25 Experience Points = 1 reroll; the second roll stands regardless
    of the result"): Dagobert rolls 11, Dead; the sheet spends 25 experience on a Dead result; the
    reroll, 12, is Dead again and stands. The army pays 25 of the 50 the minor loss earned, as an
    event with both rolls."""
    world = Scene()
    field_battle(
        world, R.MINOR_LOSS, attacker={"characters_lost": (DAGOBERT,), "injury_rerolls": ((DAGOBERT, "dead"),)}
    )
    _host_with_general(world)
    result = world.run([1, 1, 1, 2])
    assert not result.state.characters[DAGOBERT].alive
    assert result.state.armies[HOST].experience == 50 - 25
    reroll = next(e for e in result.events if e.code == "injury-reroll")
    assert reroll.experience == -25 and reroll.army == HOST
    assert reroll.data["first"][0]["roll"] == 11 and reroll.data["second"][0]["roll"] == 12
    assert "11 (Dead)" in reroll.text and "12 (Dead)" in reroll.text and "second roll stands" in reroll.text


def test_case_XP5_the_reroll_saves_him_and_only_the_second_roll_is_on_his_record():
    world = Scene()
    field_battle(
        world, R.MINOR_LOSS, attacker={"characters_lost": (DAGOBERT,), "injury_rerolls": ((DAGOBERT, "dead"),)}
    )
    _host_with_general(world)
    result = world.run([1, 1, 5, 5])  # 11 Dead, then 55 Full Recovery
    dagobert = result.state.characters[DAGOBERT]
    assert dagobert.alive and [i["code"] for i in dagobert.injuries] == ["full-recovery"]
    assert result.state.armies[HOST].experience == 25


def test_case_XP5_a_dead_only_choice_does_not_pay_for_a_lasting_injury_the_harmed_choice_does():
    """The sheet offers two choices (docs/rules-decisions.md 76): a Dead result only, or any result
    that harms him (everything but Full Recovery and Survives Against the Odds)."""
    world = Scene()
    field_battle(
        world, R.MINOR_LOSS, attacker={"characters_lost": (DAGOBERT,), "injury_rerolls": ((DAGOBERT, "dead"),)}
    )
    _host_with_general(world)
    leg = world.run([2, 2])  # 22 Leg Wound: no reroll
    assert "injury-reroll" not in _codes(leg) and leg.state.armies[HOST].experience == 50
    world = Scene()
    field_battle(
        world, R.MINOR_LOSS, attacker={"characters_lost": (DAGOBERT,), "injury_rerolls": ((DAGOBERT, "harmed"),)}
    )
    _host_with_general(world)
    healed = world.run([2, 2, 6, 1])  # 22 Leg Wound, rerolled: 61 Full Recovery
    assert [i["code"] for i in healed.state.characters[DAGOBERT].injuries] == ["full-recovery"]
    assert healed.state.armies[HOST].experience == 25


def test_case_XP5_an_army_that_cannot_pay_does_not_reroll():
    """No experience (no sheet from the opponent? here the experience was denied): the reroll is
    refused with an event that says why, and the Dead result stands."""
    world = Scene()
    field_battle(
        world, R.MINOR_LOSS, attacker={"characters_lost": (DAGOBERT,), "injury_rerolls": ((DAGOBERT, "dead"),)}
    )
    world.battles[0] = replace(world.battles[0], outcome=outcome(R.MINOR_LOSS, experience=False))
    _host_with_general(world)
    result = world.run([1, 1])
    assert not result.state.characters[DAGOBERT].alive
    assert "injury-reroll-refused" in _codes(result) and "injury-reroll" not in _codes(result)
    assert result.state.armies[HOST].experience == 0


def test_resilient_rerolls_a_dead_result_for_free_when_the_player_is_silent():
    """Psychopath / Zealot, 4 Resilient: "may reroll any result on the Character Injury Table. The
    second result stands." With no choice on the sheet, a Dead result is rerolled for free (76); the
    event names the archetype the ability is on (it said Noble, which has no such ability)."""
    world = Scene()
    field_battle(world, R.MINOR_LOSS, attacker={"characters_lost": (DAGOBERT,)})
    _host_with_general(world, abilities=("Resilient",))
    result = world.run([1, 3, 2, 2])  # 13 Dead, then 22 Leg Wound
    assert result.state.characters[DAGOBERT].alive
    assert result.state.armies[HOST].experience == 50
    reroll = next(e for e in result.events if e.code == "injury-reroll")
    assert reroll.experience == 0 and reroll.data["rule"] == "Resilient"
    assert "free, he is Resilient (Psychopath / Zealot)" in reroll.text


def test_resilient_is_lost_with_amnesia():
    world = Scene()
    field_battle(world, R.MINOR_LOSS, attacker={"characters_lost": (DAGOBERT,)})
    _host_with_general(world, abilities=("Resilient",), injuries=({"code": "amnesia"},))
    result = world.run([1, 3])
    assert not result.state.characters[DAGOBERT].alive and "injury-reroll" not in _codes(result)


def _skaven_guard(world: Scene, names: list[str]) -> None:
    world.kingdoms[BRYTHON] = replace(world.kingdoms[BRYTHON], army_type=ArmyType.SKAVEN)
    for n, name in enumerate(names):
        world.units[300 + n] = UnitState(300 + n, GUARD, name, "character", 1, 90)
        world.characters[30 + n] = CharacterState(30 + n, BRYTHON, 300 + n, name, "general" if n == 0 else "hero")


def test_backstabbers_the_opponent_forces_one_reroll_of_an_unharmed_result():
    """Skaven "Backstabbers": more than one character, one an Assassin; Avalon's sheet forces ONE
    reroll: the first injury test of the Guard that left its character unharmed (77). The second
    character's Full Recovery stands: only one test is rerolled."""
    world = Scene()
    field_battle(world, R.MINOR_VICTORY, attacker={"backstab": True}, defender={"characters_lost": (30, 31)})
    _skaven_guard(world, ["Warlord Skrittch", "Assassin Snikch"])
    result = world.run([5, 5, 1, 1, 6, 1])  # 55 Full Recovery, forced: 11 Dead; then 61 Full Recovery
    assert not result.state.characters[30].alive and result.state.characters[31].alive
    reroll = next(e for e in result.events if e.code == "injury-reroll")
    assert reroll.data["rule"] == "Backstabbers" and reroll.experience == 0 and reroll.kingdom == BRYTHON


def test_backstabbers_needs_an_assassin_among_more_than_one_character():
    world = Scene()
    field_battle(world, R.MINOR_VICTORY, attacker={"backstab": True}, defender={"characters_lost": (30,)})
    _skaven_guard(world, ["Warlord Skrittch", "Warlock Engineer"])
    result = world.run([5, 5])
    assert "injury-reroll" not in _codes(result)


def test_battles_survived_count_the_living_who_fought_after_the_injuries():
    """Each living character of the army that fought counts one more battle survived, after the
    injury rolls: the dead do not, nor one a Deep Wound kept out, nor one an Old Battle Wound kept
    out (79); the Generals of other armies do not."""
    world = Scene()
    field_battle(world, R.MINOR_LOSS, attacker={"characters_lost": (1,), "sitting_out": (9,)})
    _host_with_general(world, battles_survived=2)
    world.units[107] = UnitState(107, HOST, "Captain Wounded", "character", 1, 90)
    world.characters[7] = CharacterState(
        7, AVALON, 107, "Captain Wounded", "hero", injuries=({"code": "deep-wound", "misses_battles": 1},)
    )
    world.units[106] = UnitState(106, HOST, "Captain Limp", "character", 1, 90)
    world.characters[9] = CharacterState(9, AVALON, 106, "Captain Limp", "hero")
    result = world.run([1, 1])  # the Warlord dies
    survived = {c.id: c.battles_survived for c in result.state.characters.values()}
    assert survived == {1: 0, 2: 0, 3: 0, DAGOBERT: 3, 7: 0, 9: 0}
    assert any(e.code == "old-wound-out" and "Captain Limp" in e.text for e in result.events)


def test_case_XP6_the_player_chooses_among_tied_generals_else_the_oldest_army():
    """XP6 (Warlord: "If there is a tie for a replacement Warlord, the player may choose which
    General becomes the Warlord"): Brand and Corwin's armies tie on 40 experience; the sheet names
    Corwin, who succeeds; silent, the oldest army's General (Brand, army 11) does (78). The event
    tells the kingdom the promotion to Lord level is bought with experience."""
    world = Scene()
    field_battle(world, R.MINOR_LOSS, attacker={"characters_lost": (1,), "warlord_heir": 3})
    _characters(world)
    world.armies[12] = replace(world.armies[12], experience=40)
    chosen = world.run([1, 1])
    assert chosen.state.characters[3].role == "warlord" and chosen.state.characters[2].role == "general"
    event = next(e for e in chosen.events if e.code == "warlord-succession")
    assert "chosen by the player" in event.text and "promoted to Lord level" in event.text
    world = Scene()
    field_battle(world, R.MINOR_LOSS, attacker={"characters_lost": (1,)})
    _characters(world)
    world.armies[12] = replace(world.armies[12], experience=40)
    silent = world.run([1, 1])
    assert silent.state.characters[2].role == "warlord"
    assert "oldest army" in next(e for e in silent.events if e.code == "warlord-succession").text


def test_case_XP6_a_choice_that_is_not_tied_changes_nothing():
    pool = [HeirCandidate(2, "Brand", 11, "North", 40), HeirCandidate(3, "Corwin", 12, "South", 90)]
    heir = warlord_heir(pool, choice=2)
    assert heir is not None and heir.candidate.name == "Corwin" and heir.how == "most"
    assert warlord_heir([], choice=None) is None
