"""The Rogue Kingdom (D6) table as data (rulebook/player_issues/rogue_kingdom.py), checked against the rulebook row by
row. Rulebook: Player Issues > Rogue Kingdom."""

import re
from pathlib import Path

import pytest

from rulebook.player_issues.rogue_kingdom import ROGUE_KINGDOM_TABLE, RogueForce, rogue_kingdom_roll

RULEBOOK = Path(__file__).resolve().parents[3] / "shared" / "rules" / "briternia-rules.md"

# The rulebook's table as printed: the faces, the name, and the army's points when it names one.
RULEBOOK_ROWS = [
    ("1", "Empty", None),
    ("2-3", "Scouting forces", None),
    ("4", "Small Army", 1000),
    ("5", "Medium Army", 1500),
    ("6", "Large Army", 2000),
]


@pytest.mark.skipif(not RULEBOOK.exists(), reason="the shared rulebook is not next to this checkout")
def test_the_copy_of_the_table_is_the_rulebook_s():
    text = RULEBOOK.read_text(encoding="utf-8")
    table = text[text.index("### **Rogue Kingdom (D6)**") : text.index("These battles may be fought")]
    rows = re.findall(r"^- (\S+)\s+\*\*([^.]+)\.\*\*(.*)$", table, flags=re.M)
    printed = [(faces, name, int(m[0]) if (m := re.findall(r"(\d{4})", rest)) else None) for faces, name, rest in rows]

    assert printed == RULEBOOK_ROWS


def test_the_rogue_kingdom_table_is_the_rulebook_s_row_by_row():
    for faces, name, points in RULEBOOK_ROWS:
        low, _, high = faces.partition("-")
        for face in range(int(low), int(high or low) + 1):
            row = ROGUE_KINGDOM_TABLE[face]
            assert (row.label, row.points or None) == (name, points), face
    assert sorted(ROGUE_KINGDOM_TABLE) == [1, 2, 3, 4, 5, 6]
    assert rogue_kingdom_roll(1).force is RogueForce.EMPTY
    assert {rogue_kingdom_roll(f).force for f in (2, 3)} == {RogueForce.SCOUTING}
