"""The Alliance Chart and the Alliance Support Arrival table as data (rulebook/allies/chart.py),
checked against the rulebook's table cell by cell. Rulebook: Allies (Alliance Chart, Alliance Trust
Level, Alliance Support Arrival)."""

from pathlib import Path

import pytest

from rulebook.allies.chart import (
    ALLIANCE_CHART,
    ALLIANCE_CHART_KINGDOMS,
    CHART_KINGDOM_OF,
    TrustLevel,
    chart_row,
    support_arrival,
    trust_level,
)
from rulebook.tables import ArmyType

RULEBOOK = Path(__file__).resolve().parents[3] / "shared" / "rules" / "briternia-rules.md"

# The rulebook's Alliance Chart exactly as printed (tabs between the cells).
RULEBOOK_CHART = "\n".join(
    (
        "\t(E)\t(O)\t(L)\t(S)\t(C)\t(TK)\t(VC)\t(DE)\t(HE)\t(WE)\t(CD)\t(B)\t(D)\t(DoW)\t(OK)",
        "Empire (E)\tB\tX\tT\tX\tX\tD\tX\tX\tT\tD\tX\tT\tT\tT\tD",
        "Orcs & Goblins (O)\tX\tB\tX\tT\tT\tX\tD\tD\tX\tX\tD\tX\tX\tT\tD",
        "Lizardmen (L)\tT\tX\tB\tX\tX\tD\tX\tX\tT\tT\tX\tT\tT\tT\tD",
        "Skaven (S)\tX\tT\tX\tB\tT\tD\tX\tD\tX\tX\tD\tX\tX\tT\tD",
        "Chaos (C)\tX\tT\tX\tT\tB\tD\tD\tD\tX\tX\tT\tX\tX\tT\tD",
        "Tomb Kings (TK)\tD\tX\tD\tD\tD\tB\tX\tD\tD\tD\tD\tX\tD\tT\tD",
        "Vampire Counts (VC)\tX\tD\tX\tX\tD\tX\tB\tD\tX\tX\tD\tX\tX\tT\tD",
        "Dark Elves (DE)\tX\tD\tX\tD\tD\tD\tD\tB\tX\tX\tD\tX\tX\tT\tD",
        "High Elves (HE)\tT\tX\tT\tX\tX\tD\tX\tX\tB\tT\tX\tT\tD\tT\tD",
        "Wood Elves (WE)\tD\tX\tT\tX\tX\tD\tX\tX\tT\tB\tX\tT\tD\tT\tD",
        "Chaos Dwarves (CD)\tX\tD\tX\tD\tT\tD\tD\tD\tX\tX\tB\tX\tX\tT\tD",
        "Bretonnians (B)\tT\tX\tT\tX\tX\tX\tX\tX\tT\tT\tX\tB\tT\tT\tD",
        "Dwarves (D)\tT\tX\tT\tX\tX\tD\tX\tX\tD\tD\tX\tT\tB\tT\tD",
        "Dogs of War (DoW)\tT\tT\tT\tT\tT\tT\tT\tT\tT\tT\tT\tT\tT\tB\tT",
        "Ogre Kingdoms (OK)\tD\tD\tD\tD\tD\tD\tD\tD\tD\tD\tD\tD\tD\tT\tB",
    )
)


def _parsed() -> tuple[list[str], dict[str, list[str]]]:
    header, *rows = RULEBOOK_CHART.split("\n")
    columns = [c.strip("()") for c in header.split("\t") if c.strip()]
    cells = {}
    for row in rows:
        label, *letters = row.split("\t")
        cells[label[label.rindex("(") + 1 : -1]] = letters
    return columns, cells


@pytest.mark.skipif(not RULEBOOK.exists(), reason="the shared rulebook is not next to this checkout")
def test_the_copy_of_the_chart_is_the_rulebook_s():
    assert RULEBOOK_CHART in RULEBOOK.read_text(encoding="utf-8")


def test_the_alliance_chart_is_the_rulebook_s_cell_by_cell():
    columns, cells = _parsed()

    assert tuple(columns) == ALLIANCE_CHART_KINGDOMS
    assert list(cells) == list(ALLIANCE_CHART)
    for row, letters in cells.items():
        ours = chart_row(ALLIANCE_CHART[row])
        assert len(ours) == len(letters) == 15
        for column, theirs, mine in zip(columns, letters, ours, strict=True):
            assert mine == TrustLevel(theirs), f"{row} x {column}"


def test_every_player_army_type_reads_a_cell_of_the_chart_and_the_ancient_dead_ally_with_no_one():
    assert set(CHART_KINGDOM_OF) == {t for t in ArmyType if t is not ArmyType.ANCIENT_DEAD}
    assert trust_level(ArmyType.EMPIRE, ArmyType.DWARFS) is TrustLevel.TRUSTED
    assert trust_level(ArmyType.EMPIRE, ArmyType.ORCS_AND_GOBLINS) is TrustLevel.DISALLOWED
    assert trust_level(ArmyType.HIGH_ELVES, ArmyType.DWARFS) is TrustLevel.DISTRUSTED
    assert trust_level(ArmyType.EMPIRE, ArmyType.EMPIRE) is TrustLevel.BATTLE_BROTHERS
    # Beasts of Chaos read as Chaos (C) (decision 131)
    assert trust_level(ArmyType.BEASTS_OF_CHAOS, ArmyType.SKAVEN) is TrustLevel.TRUSTED
    assert trust_level(ArmyType.ANCIENT_DEAD, ArmyType.DOGS_OF_WAR) is TrustLevel.DISALLOWED
    for a in CHART_KINGDOM_OF:
        for b in CHART_KINGDOM_OF:
            assert trust_level(a, b) is trust_level(b, a)  # the chart is symmetric


def test_alliance_support_arrival_1_to_3_delayed_4_to_6_on_time_distrusted_minus_1():
    assert [support_arrival(r, TrustLevel.TRUSTED)[1].code for r in range(1, 7)] == ["unexpected-delay"] * 3 + [
        "on-time"
    ] * 3
    assert support_arrival(4, TrustLevel.DISTRUSTED) == (3, support_arrival(1, TrustLevel.TRUSTED)[1])
    assert support_arrival(1, TrustLevel.DISTRUSTED)[1].code == "unexpected-delay"
    assert support_arrival(5, TrustLevel.DISTRUSTED)[1].code == "on-time"
