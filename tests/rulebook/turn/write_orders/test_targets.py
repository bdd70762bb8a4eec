"""The targets the order sheet offers (rulebook/turn/write_orders/targets.py): what the sheet check accepts, put to
it province by province. 5. Executing Orders: Move; 6. Fight Battles: Support; Forced March and
Army-Specific Rules; Deserts; 3. Create / Upgrade Armies. The map of tests/rulebook/turn/write_orders/test_sheets.py:

     1 city   2 town    3 forest    4 mountains
     5        6         7 marsh     8 desert
     9       10 town   11 forest   12 forest
    13       14        15 theirs   16 theirs     (mine: 1, 2, 5, 6; adjacency corner to corner)
"""

from rulebook.tables import ArmyType
from rulebook.turn.write_orders.check import order_sheet_check
from rulebook.turn.write_orders.records import ArmyOrder, CreateArmy, OrderKind, SheetEntries
from rulebook.turn.write_orders.targets import army_targets, creation_provinces, sheet_targets
from tests.rulebook.turn.write_orders.test_sheets import context, own_army


def test_move_and_support_offer_the_adjacent_provinces_only():
    """Move: a single adjacent province; Support: provinces bordering the army's own."""
    ctx = context(armies=(own_army(id=10, name="1st Army", province=6, size=2000),))
    targets = army_targets(10, ctx)
    assert targets.province == 6
    assert targets.move == (1, 2, 3, 5, 7, 9, 10, 11)
    assert targets.support == (1, 2, 3, 5, 7, 9, 10, 11)


def test_forced_march_offers_only_the_terrain_and_steps_the_rules_allow():
    """Forced March: two adjacent steps, never back to where the army stands, never through desert
    (Deserts), only through the terrain the army type may march through (Army-Specific Rules).
    The Empire marches through plains only: forest 3, 11, marsh 7, mountains 4, desert 8 are out."""
    ctx = context(armies=(own_army(id=10, name="1st Army", province=6, size=2000),))
    march = army_targets(10, ctx).march
    assert sorted(march) == [1, 2, 5, 9, 10]
    assert march[1] == (2, 5)  # 6 is where it stands
    assert march[10] == (5, 9, 13, 14, 15)
    assert all(p not in (3, 4, 7, 8, 11, 12) for seconds in march.values() for p in seconds)
    # Every path offered is one the check accepts.
    for first, seconds in march.items():
        for second in seconds:
            order = ArmyOrder(army=10, kind=OrderKind.FORCED_MARCH, path=(first, second))
            assert order_sheet_check(SheetEntries(orders=(order,)), ctx).ok


def test_wood_elves_may_march_through_forest_the_ancient_dead_never():
    """Army-Specific Rules: the Wood Elves march through woods; The Ancient Dead: Movement: no
    Forced March at all."""
    wood_elves = context(
        armies=(own_army(id=10, name="1st Army", province=6, size=2000),), army_type=ArmyType.WOOD_ELVES
    )
    assert 3 in army_targets(10, wood_elves).march
    dead = context(armies=(own_army(id=10, name="1st Army", province=6, size=2000),), army_type=ArmyType.ANCIENT_DEAD)
    assert army_targets(10, dead).march == {}


def test_a_new_army_may_neither_move_nor_support():
    """3. Create / Upgrade Armies: newly made armies may not move or support the turn they are made."""
    ctx = context(armies=(own_army(id=10, name="1st Army", province=6, size=2000, created_turn=3),))
    targets = army_targets(10, ctx)
    assert (targets.move, targets.support, targets.march) == ((), (), {})


def test_new_armies_are_offered_the_kingdoms_unoccupied_provinces():
    """3. Create / Upgrade Armies: a new army is placed in an unoccupied province you control."""
    ctx = context(armies=(own_army(id=10, name="1st Army", province=6, size=2000),))
    assert creation_provinces(ctx) == (1, 2, 5)
    assert order_sheet_check(SheetEntries(creations=(CreateArmy("2nd", 1000, 6),)), ctx).error_problems[0].creation == 0


def test_the_page_data_lists_every_army():
    ctx = context(armies=(own_army(id=10, name="1st Army", province=6, size=2000),))
    data = sheet_targets(ctx).as_data()
    assert data["armies"]["10"]["province"] == 6
    assert data["armies"]["10"]["march"]["1"] == [2, 5]
    assert data["creation_provinces"] == [1, 2, 5]


def test_only_the_orders_the_rules_allow_the_army_here_are_offered():
    """Issue 37, order kinds offered only where legal. Recover is for razed provinces (Recover); the
    Scarab Amulet is the Ancient Dead's, in a desert (The Ancient Dead: Deserts); a new army neither
    moves nor supports (3. Create / Upgrade Armies). Hold is always offered."""
    ctx = context(armies=(own_army(id=10, name="1st Army", province=6, size=2000),))
    kinds = army_targets(10, ctx).kinds
    assert OrderKind.HOLD in kinds and OrderKind.MOVE in kinds and OrderKind.SUPPORT in kinds
    assert OrderKind.FORCED_MARCH in kinds and OrderKind.FORTIFY in kinds
    assert OrderKind.RECOVER not in kinds and OrderKind.SCARAB_AMULET not in kinds
    razed = context(armies=(own_army(id=10, name="1st Army", province=6, size=2000),), razed=(6,))
    assert OrderKind.RECOVER in army_targets(10, razed).kinds
    new = context(armies=(own_army(id=10, name="1st Army", province=6, size=2000, created_turn=3),))
    new_kinds = army_targets(10, new).kinds
    assert OrderKind.MOVE not in new_kinds and OrderKind.SUPPORT not in new_kinds and OrderKind.HOLD in new_kinds
    # Every kind offered is one the check accepts with some target (or none, for those without).
    for kind in kinds:
        t = army_targets(10, ctx)
        target = {OrderKind.MOVE: t.move, OrderKind.RAZE_MOVE: t.move}.get(kind)
        order = ArmyOrder(
            army=10,
            kind=kind,
            target=target[0] if target else None,
            support=t.support[0] if kind == OrderKind.SUPPORT else None,
            path=(next(iter(t.march)), t.march[next(iter(t.march))][0]) if kind == OrderKind.FORCED_MARCH else (),
        )
        if kind != OrderKind.RAZE_MOVE:
            assert order_sheet_check(SheetEntries(orders=(order,)), ctx).ok, kind
