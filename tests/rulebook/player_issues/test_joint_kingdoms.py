"""Joint kingdoms, the check of what a kingdom gives a co-player who declares independence
(rulebook/player_issues/joint_kingdoms.py, pure, no database). Rulebook: Player Issues, "Player joins
mid-campaign / joint kingdoms"; decisions 225-227."""

from __future__ import annotations

from rulebook.player_issues.joint_kingdoms import independence_check
from rulebook.tables import ArmyType
from rulebook.warlord.succession import HeirCandidate
from tests import world_builders as wb

# A 4 x 4 grid. Kingdom 1 (Empire) holds 1 (its capitol), 2 (a city with an Elite Defense Force),
# 3 (a town), 5 and 6; kingdom 2 holds 16.
CONTROL = {1: 1, 2: 1, 3: 1, 5: 1, 6: 1, 16: 2}
SETTLEMENTS = {1: "city", 2: "city", 3: "town"}
LORDS, WARDENS, RANGERS, HOMEGUARD, GUARD = 10, 11, 12, 13, 20


def world():
    return wb.world(
        provinces=[
            wb.province(n, "plains", SETTLEMENTS.get(n, "none"), controller=CONTROL.get(n)) for n in range(1, 17)
        ],
        kingdoms=[
            wb.kingdom(1, "Ostland", ArmyType.EMPIRE, capitol=1),
            wb.kingdom(2, "Tor Anlec", ArmyType.HIGH_ELVES),
        ],
        armies=[
            wb.army(LORDS, 1, 1, name="Lords"),  # the Warlord's army, in the capitol
            wb.army(WARDENS, 1, 2, name="Wardens"),
            wb.army(RANGERS, 1, 5, name="Rangers"),
            wb.army(HOMEGUARD, 1, 6, name="Homeguard"),
        ],
        garrisons=[wb.garrison(GUARD, 1, 2)],
        adjacency=wb.grid(4),
    )


GENERALS = [
    HeirCandidate(101, "Captain Aldric", WARDENS, "Wardens", 40),
    HeirCandidate(102, "Captain Brandt", RANGERS, "Rangers", 75),
    HeirCandidate(103, "Captain Corwin", HOMEGUARD, "Homeguard", 90),  # stays: his army is not given
]


def check(provinces, armies):
    return independence_check(world(), 1, provinces, armies, warlord_army=LORDS, generals=GENERALS)


def test_a_city_a_town_and_the_armies_on_them_pass_with_the_elite_defense_force_and_a_warlord():
    """Towns and cities may be given (unlike Land Sales); the city given is the new capitol; the
    Elite Defense Force goes with its city; the most experienced General of the armies given is
    the new Warlord (decisions 226, 227)."""
    problems, gift = check([2, 3, 5], [WARDENS, RANGERS])
    assert problems == []
    assert (gift.provinces, gift.armies, gift.garrisons, gift.capitol) == ((2, 3, 5), (WARDENS, RANGERS), (GUARD,), 2)
    assert gift.warlord is not None and gift.warlord.name == "Captain Brandt"


def test_a_province_alone_makes_a_kingdom_without_capitol_or_warlord():
    problems, gift = check([3], [])
    assert problems == [] and (gift.capitol, gift.warlord, gift.armies) == (None, None, ())


def test_the_capitol_the_warlord_s_army_and_another_kingdom_s_land_are_not_given():
    problems, _ = check([1, 16], [LORDS])
    assert problems == [
        "1 P1 is Ostland's capitol: the parent kingdom keeps it (Joint kingdoms; decision 226).",
        "Province 16 is not Ostland's to give (Joint kingdoms).",
        "Lords carries Ostland's Warlord, who stays with the parent kingdom (Warlord; decision 227).",
    ]


def test_an_army_goes_with_the_land_it_stands_on():
    """Decision 225: a given army stands in a given province, and an army the parent keeps does not
    stand in one; no land, no kingdom."""
    problems, _ = check([2], [RANGERS, 99])
    assert problems == [
        "Rangers stands in 5 P5, which is not given: an army goes with the land it stands on (decision 225).",
        "Army 99 is not one of Ostland's field armies (Joint kingdoms).",
        "Wardens stands in 2 P2, which is given: give the army too, or move it out first (decision 225).",
    ]
    problems, _ = check([], [])
    assert problems == [
        "Give the new kingdom at least one of Ostland's provinces: an independent kingdom holds land (Joint kingdoms)."
    ]
