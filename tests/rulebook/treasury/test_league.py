"""The league table's gold rank bands (rules decision 341): treasuries are secret (The Treasury),
so the campaign page ranks them in thirds and never shows a figure."""

from __future__ import annotations

from rulebook.treasury.league import GoldBand, gold_bands


def test_three_kingdoms_fall_one_in_each_third():
    """The Treasury is secret: the richest, the middle and the poorest third, never the gold."""
    assert gold_bands({1: 6000, 2: 4500, 3: 7200}) == {
        1: GoldBand.MIDDLE,
        2: GoldBand.POOREST,
        3: GoldBand.RICHEST,
    }


def test_equal_treasuries_share_a_band_so_a_tie_tells_nothing():
    """Decision 341: a kingdom's rank is one plus the kingdoms strictly richer."""
    bands = gold_bands({1: 6000, 2: 6000, 3: 6000, 4: 100})
    assert bands == {1: GoldBand.RICHEST, 2: GoldBand.RICHEST, 3: GoldBand.RICHEST, 4: GoldBand.POOREST}


def test_six_kingdoms_two_in_each_third_and_a_lone_kingdom_is_richest():
    bands = gold_bands({1: 600, 2: 500, 3: 400, 4: 300, 5: 200, 6: 100})
    assert [bands[k] for k in range(1, 7)] == [GoldBand.RICHEST] * 2 + [GoldBand.MIDDLE] * 2 + [GoldBand.POOREST] * 2
    assert gold_bands({9: -50}) == {9: GoldBand.RICHEST}
    assert gold_bands({}) == {}


def test_two_kingdoms_the_poorer_is_the_middle_not_the_poorest_third():
    """Decision 341: half of a field of two is not its poorest third."""
    assert gold_bands({1: 100, 2: 200}) == {1: GoldBand.MIDDLE, 2: GoldBand.RICHEST}
