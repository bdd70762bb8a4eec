"""The rules decisions and rule cases are held by tests that exist.

docs/rules-decisions.md names, for every point of the rulebook it settles, the test that holds it;
the rule cases (../shared/rules/rule-cases.md, next to the project on a developer's machine) must
each exist as a test named `test_case_<ID>_...`. A renamed or deleted test would otherwise leave a
decision pointing at nothing."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DECISIONS = ROOT / "docs" / "rules-decisions.md"
RULE_CASES = ROOT.parent / "shared" / "rules" / "rule-cases.md"
# Rule cases whose issue is still open, by prefix: the issue that brings their tests. Remove a
# prefix when its issue lands.
AWAITING_THEIR_ISSUE: dict[str, str] = {}


def _test_names() -> set[str]:
    names: set[str] = set()
    for path in (ROOT / "tests").rglob("test_*.py"):
        names.update(re.findall(r"^\s*def (test_\w+)", path.read_text(encoding="utf-8"), flags=re.M))
    return names


def _missing(cited: set[str], names: set[str]) -> list[str]:
    """The cited names no test has; `test_case_A5_*` stands for every test of that prefix."""
    missing = []
    for name in sorted(cited):
        if name.endswith("*"):
            if not any(n.startswith(name[:-1]) for n in names):
                missing.append(name)
        elif name not in names:
            missing.append(name)
    return missing


def test_every_test_a_rules_decision_names_exists() -> None:
    cited = set(re.findall(r"::(test_\w+\*?)", DECISIONS.read_text(encoding="utf-8")))

    assert len(cited) > 100  # the decisions do name their tests
    assert _missing(cited, _test_names()) == []


def test_the_check_names_a_test_that_does_not_exist() -> None:
    names = {"test_case_A5_retreats", "test_there"}

    assert _missing({"test_there", "test_case_A5_*", "test_gone", "test_case_B9_*"}, names) == [
        "test_case_B9_*",
        "test_gone",
    ]


@pytest.mark.skipif(not RULE_CASES.exists(), reason="the shared rule cases are not next to this checkout")
def test_every_rule_case_has_its_test() -> None:
    ids = re.findall(r"^- \*\*([A-Z]+[0-9]+)\*\*", RULE_CASES.read_text(encoding="utf-8"), flags=re.M)
    names = _test_names()

    due = [i for i in ids if i.rstrip("0123456789") not in AWAITING_THEIR_ISSUE]

    assert "R12" in due
    assert [i for i in due if not any(n.startswith(f"test_case_{i}_") for n in names)] == []
