"""Every heading of the rulebook leads to the module that holds its rules in one step
(rulebook.SECTIONS), and that module exists. The rulebook sits next to the project on a developer's
machine (../shared/rules/briternia-rules.md); the check is skipped where it does not."""

from __future__ import annotations

import importlib
import re
from collections import Counter
from pathlib import Path

import pytest

from rulebook import SECTIONS

RULEBOOK = Path(__file__).resolve().parents[3] / "shared" / "rules" / "briternia-rules.md"


def headings(text: str) -> list[str]:
    """The rulebook's headings as SECTIONS names them: emphasis and a trailing colon dropped, a
    heading met again named with " (2)", " (3)"."""
    seen: Counter[str] = Counter()
    names = []
    for match in re.finditer(r"^#{1,6}\s+(.*?)\s*$", text, flags=re.M):
        title = re.sub(r"[*_]", "", match.group(1)).strip().rstrip(":").strip()
        seen[title] += 1
        names.append(title if seen[title] == 1 else f"{title} ({seen[title]})")
    return names


def test_headings_are_named_as_sections_names_them() -> None:
    text = "# BRITERNIA\n## ***Setup***\ntext\n### **Deserts**\n#### Modifications:\n## Setup\n"
    assert headings(text) == ["BRITERNIA", "Setup", "Deserts", "Modifications", "Setup (2)"]


@pytest.mark.skipif(not RULEBOOK.exists(), reason="the shared rulebook is not next to this checkout")
def test_every_heading_of_the_rulebook_is_mapped_to_a_module() -> None:
    names = headings(RULEBOOK.read_text(encoding="utf-8"))

    assert "Guerrilla Tactics" in names and len(names) > 100
    assert [name for name in names if name not in SECTIONS] == []
    assert [name for name in SECTIONS if name not in names] == []  # nothing stale


def test_every_mapped_module_exists_in_the_rulebook() -> None:
    for module in sorted(set(SECTIONS.values())):
        assert module == "rulebook" or module.startswith("rulebook."), module
        importlib.import_module(module)
