"""The Tomb Raider force and its check (Tomb Raiders: Creating Tomb Raiders; Sample Tomb Raider List).
Rule cases TR1 and TR2; rules decisions 400-401. No database."""

from __future__ import annotations

from dataclasses import replace

import pytest

from rulebook.ruins_and_tomb_raiders.force import (
    SAMPLE_HIGH_ELVES,
    Base,
    Command,
    ForceProblemCode,
    ModelKind,
    Profile,
    RaiderEntry,
    Role,
    TombRaiders,
    TroopCategory,
    force_problems,
    missile_limit,
    officer_profile,
    raider_entry,
)
from rulebook.tables import ArmyType

CAPTAIN = RaiderEntry("Captain", 1, 20, role=Role.CAPTAIN, command=Command.CHAMPION, leadership=7, wounds=1)


def force(*entries: RaiderEntry, army_type: ArmyType = ArmyType.EMPIRE) -> TombRaiders:
    return TombRaiders(army_type, (CAPTAIN, *entries))


def codes(raiders: TombRaiders) -> dict[ForceProblemCode, tuple[str, ...]]:
    return {p.code: p.entries for p in force_problems(raiders)}


def test_case_TR1_a_150_point_force_with_its_core_captain_is_accepted_and_151_refused() -> None:
    """Creating Tomb Raiders: "You have 150 points ... upgrade him to champion status ... This champion is
    your Tomb Raider Captain ... an extra wound ... Ld by +1 up to a max of 10"."""
    accepted = force(RaiderEntry("Swordsmen", 13, 10))
    assert accepted.points == 150
    assert force_problems(accepted) == []
    assert officer_profile(CAPTAIN) == Profile(leadership=7 + 1, wounds=1 + 1)
    assert officer_profile(replace(CAPTAIN, leadership=10)).leadership == 10

    refused = force(RaiderEntry("Swordsmen", 13, 10), RaiderEntry("Halberdier", 1, 1))
    problems = force_problems(refused)
    assert [p.code for p in problems] == [ForceProblemCode.OVER_POINTS]
    assert "151 points" in problems[0].message and "Creating Tomb Raiders" in problems[0].message


def test_case_TR1_a_second_special_or_rare_model_is_refused() -> None:
    """Creating Tomb Raiders: one Lieutenant "from either your Special or Rare selection";
    Maintaining / Changing: "you can never have more than one model from your Special or Rare selection"."""
    lieutenant = RaiderEntry("Greatsword", 1, 12, category=TroopCategory.SPECIAL, role=Role.LIEUTENANT)
    assert force_problems(force(lieutenant)) == []

    second = RaiderEntry("Outrider", 1, 14, category=TroopCategory.RARE)
    found = codes(force(lieutenant, second))
    assert found[ForceProblemCode.TOO_MANY_SPECIAL_OR_RARE] == ("Outrider",)
    assert found[ForceProblemCode.NOT_CORE] == ("Outrider",)
    two = codes(force(replace(lieutenant, models=2)))
    assert two[ForceProblemCode.TOO_MANY_SPECIAL_OR_RARE] == ("Greatsword",)


@pytest.mark.parametrize(
    ("entry", "code"),
    [
        (RaiderEntry("Standard bearer", 1, 12, command=Command.STANDARD), ForceProblemCode.STANDARD),
        (RaiderEntry("Enchanted", 1, 30, magic_item=True), ForceProblemCode.MAGIC_ITEM),
        (RaiderEntry("Marked", 1, 20, magic_user=True), ForceProblemCode.MAGIC_USER),
        (RaiderEntry("Knight", 1, 23, kind=ModelKind.MOUNTED), ForceProblemCode.NOT_ON_FOOT),
        (RaiderEntry("Ogre", 1, 35, kind=ModelKind.LARGE, base=Base.OTHER), ForceProblemCode.NOT_ON_FOOT),
        (RaiderEntry("Cannon", 1, 100, kind=ModelKind.WAR_MACHINE), ForceProblemCode.NOT_ON_FOOT),
        (RaiderEntry("Swarm", 1, 40, base=Base.OTHER), ForceProblemCode.NOT_STANDARD_BASE),
    ],
)
def test_case_TR1_standards_magic_and_mounted_models_are_refused_naming_the_entry(
    entry: RaiderEntry, code: ForceProblemCode
) -> None:
    """Creating Tomb Raiders: "Standards are not used ... No magic items ... No magic users ... no mounted,
    large models like ogres, chariots, warmachines", on "standard 20mm or 25 mm bases"."""
    problems = [p for p in force_problems(force(entry)) if p.code is code]
    assert len(problems) == 1
    assert problems[0].entries == (entry.name,)
    assert entry.name in problems[0].message and "Creating Tomb Raiders" in problems[0].message


def test_case_TR1_two_musicians_are_refused_one_is_accepted() -> None:
    """Creating Tomb Raiders: "your Tomb Raiders may include one musician"."""
    drummer = RaiderEntry("Drummer", 1, 12, command=Command.MUSICIAN)
    piper = RaiderEntry("Piper", 1, 12, command=Command.MUSICIAN)
    assert force_problems(force(drummer)) == []
    assert codes(force(drummer, piper)) == {ForceProblemCode.TOO_MANY_MUSICIANS: ("Drummer", "Piper")}


def test_case_TR2_a_third_of_12_models_may_carry_missile_weapons_half_for_elves() -> None:
    """Creating Tomb Raiders: "a max of 1/3 of your force (round down) with missile weapons of any kind.
    However, Elves may have up to 50%" (decision 401: High, Dark and Wood Elves)."""
    assert missile_limit(12, ArmyType.EMPIRE) == 4
    assert missile_limit(12, ArmyType.HIGH_ELVES) == 6
    assert missile_limit(11, ArmyType.EMPIRE) == 3
    assert [missile_limit(12, t) for t in (ArmyType.DARK_ELVES, ArmyType.WOOD_ELVES, ArmyType.DOGS_OF_WAR)] == [6, 6, 4]

    def twelve(archers: int, army_type: ArmyType) -> TombRaiders:
        return force(
            RaiderEntry("Archers", archers, 8, missile_weapon=True),
            RaiderEntry("Spearmen", 11 - archers, 8),
            army_type=army_type,
        )

    assert force_problems(twelve(4, ArmyType.EMPIRE)) == []
    refused = force_problems(twelve(5, ArmyType.EMPIRE))
    assert [(p.code, p.entries) for p in refused] == [(ForceProblemCode.TOO_MANY_MISSILES, ("Archers",))]
    assert "5 of the force's 12 models" in refused[0].message and "at most 4" in refused[0].message
    assert force_problems(twelve(6, ArmyType.HIGH_ELVES)) == []
    assert codes(twelve(7, ArmyType.HIGH_ELVES)) == {ForceProblemCode.TOO_MANY_MISSILES: ("Archers",)}


def test_the_rulebook_s_sample_high_elf_list_is_accepted() -> None:
    """Sample Tomb Raider List, High Elves: 149 points; 4 of its 11 models shoot, allowed to Elves only."""
    assert SAMPLE_HIGH_ELVES.points == 149 and SAMPLE_HIGH_ELVES.models == 11
    assert force_problems(SAMPLE_HIGH_ELVES) == []
    as_empire = replace(SAMPLE_HIGH_ELVES, army_type=ArmyType.EMPIRE)
    assert set(codes(as_empire)) == {ForceProblemCode.TOO_MANY_MISSILES}


def test_the_force_needs_one_captain_of_one_core_model() -> None:
    """Creating Tomb Raiders: "you must select one core troop model and upgrade him to champion status"."""
    no_captain = TombRaiders(ArmyType.EMPIRE, (RaiderEntry("Swordsmen", 5, 10),))
    assert codes(no_captain) == {ForceProblemCode.NO_CAPTAIN: ()}
    special = TombRaiders(ArmyType.EMPIRE, (replace(CAPTAIN, category=TroopCategory.SPECIAL),))
    assert ForceProblemCode.CAPTAIN_NOT_CORE in codes(special)
    assert ForceProblemCode.CAPTAIN_NOT_CORE not in codes(
        TombRaiders(ArmyType.EMPIRE, (replace(CAPTAIN, category=TroopCategory.SPECIAL, promoted=True),))
    )
    assert codes(force(replace(CAPTAIN, name="Second captain"))) == {
        ForceProblemCode.TWO_CAPTAINS: ("Captain", "Second captain")
    }
    assert codes(TombRaiders(ArmyType.EMPIRE, (replace(CAPTAIN, models=2),))) == {
        ForceProblemCode.OFFICER_ONE_MODEL: ("Captain",)
    }


def test_at_most_one_lieutenant_who_may_be_core() -> None:
    """Creating Tomb Raiders: "Alternately you may select a Core model as a Lieutenant"."""
    core = RaiderEntry("Sergeant", 1, 10, role=Role.LIEUTENANT)
    assert force_problems(force(core)) == []
    assert codes(force(core, replace(core, name="Other"))) == {ForceProblemCode.TWO_LIEUTENANTS: ("Sergeant", "Other")}


def test_the_captain_is_the_force_s_one_champion() -> None:
    """Decision 400: a champion upgrade elsewhere is refused; the Captain is not also the musician."""
    assert codes(force(RaiderEntry("Champion", 1, 16, command=Command.CHAMPION))) == {
        ForceProblemCode.CHAMPION_NOT_CAPTAIN: ("Champion",)
    }
    musician_captain = TombRaiders(ArmyType.EMPIRE, (replace(CAPTAIN, command=Command.MUSICIAN),))
    assert ForceProblemCode.OFFICER_COMMAND in codes(musician_captain)


def test_the_ancient_dead_keep_no_tomb_raiders_and_names_are_unique() -> None:
    assert ForceProblemCode.NO_TOMB_RAIDERS in codes(force(army_type=ArmyType.ANCIENT_DEAD))
    doubled = force(RaiderEntry("Spearmen", 2, 8), RaiderEntry("spearmen ", 2, 8))
    assert codes(doubled) == {ForceProblemCode.DUPLICATE_NAME: ("Spearmen",)}


def test_an_entered_entry_reads_the_kinds_as_text_and_never_sets_the_models_out_of_action():
    """Maintaining / Changing Tomb Raiders: the page and the API map an entry the same way; blank
    values take the entry's defaults, and the models out of action are the Recovery's (decision 413)."""
    entry = raider_entry(
        {
            "name": "Spearmen",
            "models": 6,
            "points_per_model": 9,
            "category": "special",
            "role": "lieutenant",
            "leadership": None,
            "wounds": "",
            "out_of_action": 3,
            "DELETE": False,
        }
    )
    assert entry == RaiderEntry(
        name="Spearmen", models=6, points_per_model=9, category=TroopCategory.SPECIAL, role=Role.LIEUTENANT
    )
    assert entry.out_of_action == 0 and entry.wounds == 1 and entry.leadership == 0
