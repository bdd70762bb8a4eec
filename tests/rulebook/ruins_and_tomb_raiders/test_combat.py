"""Combat with Tomb Raiders: Modifications 6 and 7 (decision 411)."""

from __future__ import annotations

from dataclasses import replace

from rulebook.ruins_and_tomb_raiders.combat import (
    COMBAT_RULES,
    break_test_due,
    break_test_leadership,
    withdraw_gets_away,
)
from rulebook.ruins_and_tomb_raiders.force import SAMPLE_HIGH_ELVES, Command, RaiderEntry, Role


def test_the_force_tests_at_a_quarter_of_its_models_lost() -> None:
    """Modification 7: "Once a Tomb Raider force suffers 25% casualties, it must make a Ld test"."""
    assert not break_test_due(11, 2)
    assert break_test_due(11, 3)
    assert break_test_due(12, 3)
    assert not break_test_due(0, 0)


def test_the_test_is_off_the_captain_then_the_lieutenant_then_the_best_ld_left() -> None:
    """Modification 7: "off its Captain's Ld, or Lieutenant's if the Captain is removed. If both officers are
    removed, then off the highest Ld remaining in the force"."""
    captain = RaiderEntry("Captain", 1, 20, role=Role.CAPTAIN, leadership=8)
    lieutenant = RaiderEntry("Lieutenant", 1, 15, role=Role.LIEUTENANT, leadership=9)
    troopers = (RaiderEntry("Spearmen", 4, 9, leadership=8), RaiderEntry("Archers", 2, 11, leadership=7))
    assert break_test_leadership((captain, lieutenant, *troopers)) == 9  # 8 + 1
    assert break_test_leadership((lieutenant, *troopers)) == 9
    assert break_test_leadership(troopers) == 8
    assert break_test_leadership((replace(troopers[0], models=0),)) is None


def test_a_withdrawal_gets_away_only_when_higher_a_musician_helps_the_whole_force() -> None:
    """Modification 6: "If the withdrawing model scores equal or less than the attacker, he can not get
    away"; 7: "If your Tomb Raiders contain a musician ... you may roll +2 to all your withdraw rolls"."""
    assert not withdraw_gets_away(7, 7)
    assert withdraw_gets_away(8, 7)
    entries = SAMPLE_HIGH_ELVES.entries
    assert any(e.command is Command.MUSICIAN for e in entries)
    assert withdraw_gets_away(6, 7, whole_force=True, entries=entries)
    assert not withdraw_gets_away(6, 7, whole_force=False, entries=entries)
    assert len(COMBAT_RULES) == 10 and '12"' in COMBAT_RULES[1]
