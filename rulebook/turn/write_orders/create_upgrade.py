"""The new and upgraded armies of the sheet (3. Create / Upgrade Armies, Army Restrictions, the
Army Table, Looting) (pure Python).
"""

from __future__ import annotations

from collections import Counter

from rulebook.setup.homes import army_limit
from rulebook.tables import ARMY_MAX_POINTS, ARMY_MIN_POINTS
from rulebook.turn.tables import creation_cost
from rulebook.turn.write_orders.context import SheetContext, where
from rulebook.turn.write_orders.problems import (
    SheetCheck,
    SheetProblem,
    SheetProblemCode,
    armies_named_twice,
    each_army,
)
from rulebook.turn.write_orders.records import CreateArmy, SheetEntries
from rulebook.world import ArmyState, ProvinceState


def check_creations(entries: SheetEntries, ctx: SheetContext, check: SheetCheck) -> None:
    occupied = {a.province for a in ctx.armies.values()}
    names = Counter(c.name.strip().lower() for c in entries.creations)
    used = {n.lower() for n in ctx.army_names}
    placed: set[int] = set()
    for index, creation in enumerate(entries.creations):
        # A new army has no id to be placed by: its label is part of the words, its index says
        # which entry of the sheet it is (the page puts the problem beside that row).
        label = f"New army '{creation.name.strip()}'" if creation.name.strip() else "A new army"
        province = ctx.province(creation.province)

        def problem(code: SheetProblemCode, text: str, index: int = index) -> SheetProblem:
            return SheetProblem(code, text, creation=index)

        if not creation.name.strip():
            check.error_problems.append(problem(SheetProblemCode.NO_NAME, f"{label} needs a name."))
        elif creation.name.strip().lower() in used or names[creation.name.strip().lower()] > 1:
            check.error_problems.append(
                problem(SheetProblemCode.NAME_TAKEN, f"{label}: the kingdom already has an army of that name.")
            )
        if not ARMY_MIN_POINTS <= creation.points <= ARMY_MAX_POINTS:
            check.error_problems.append(
                problem(
                    SheetProblemCode.ARMY_SIZE,
                    f"{label}: an army of {creation.points:,} points cannot be created; armies are "
                    f"{ARMY_MIN_POINTS:,} to {ARMY_MAX_POINTS:,} points (Army Restrictions).",
                )
            )
        if province is None:
            check.error_problems.append(
                problem(SheetProblemCode.NOT_ON_MAP, f"{label}: province {creation.province} is not on the map.")
            )
            continue
        if province.controller != ctx.kingdom:
            check.error_problems.append(
                problem(
                    SheetProblemCode.NOT_YOURS,
                    f"{label}: {province} is not yours; new armies are placed in a province you control "
                    "(3. Create / Upgrade Armies).",
                )
            )
        elif province.looted_in(ctx.turn):
            check.error_problems.append(
                problem(
                    SheetProblemCode.LOOTED,
                    f"{label}: {province} was looted and cannot create armies until the start of the next full "
                    "turn (Looting).",
                )
            )
        elif province.number in occupied or province.number in placed:
            check.error_problems.append(
                problem(
                    SheetProblemCode.OCCUPIED,
                    f"{label}: {province} is occupied; new armies are placed in an unoccupied province "
                    "(3. Create / Upgrade Armies).",
                )
            )
        placed.add(province.number)
        check.costs.append(
            (
                f"Create {creation.name.strip() or 'an army'} ({creation.points:,} points) in {province}",
                creation_cost(creation.points, ctx.army_type, province.settlement),
            )
        )
    if entries.creations:
        controlled = sum(1 for p in ctx.provinces.values() if p.controller == ctx.kingdom)
        allowed = army_limit(player_count=ctx.player_count, provinces_controlled=controlled)
        total = len(ctx.armies) + len(entries.creations)
        if total > allowed:
            created = len(entries.creations)
            check.error_problems.append(
                SheetProblem(
                    SheetProblemCode.ARMY_LIMIT,
                    f"Creating {created} {'army' if created == 1 else 'armies'} would give the kingdom {total} "
                    f"armies; with {controlled} province{'' if controlled == 1 else 's'} and {ctx.player_count} "
                    f"players the Army Table allows {allowed} (Army Table).",
                    creation=len(entries.creations) - 1,  # placed on the last new army's line
                )
            )


def creation_problems(creation: CreateArmy, ctx: SheetContext) -> list[SheetProblem]:
    """What the check finds wrong with one new army alone (the sheet's other entries aside)."""
    check = SheetCheck()
    check_creations(SheetEntries(creations=(creation,)), ctx, check)
    return check.error_problems


def in_own_settlement(army: ArmyState, ctx: SheetContext) -> ProvinceState | None:
    province = ctx.province(army.province)
    if province and province.settlement in ("town", "city") and province.controller == ctx.kingdom:
        return province
    return None


def check_upgrades(entries: SheetEntries, ctx: SheetContext, check: SheetCheck) -> None:
    for army_id in armies_named_twice(entries.upgrades, ctx):
        check.error_problems.append(
            SheetProblem(SheetProblemCode.UPGRADED_TWICE, "is upgraded twice in one sheet.", army_id, subject=True)
        )
    for upgrade, army in each_army(entries.upgrades, ctx, check):
        on_the_way = ctx.roster.on_the_way_points.get(army.id, 0)
        town = in_own_settlement(army, ctx)
        if town is None:
            check.error_problems.append(
                SheetProblem(
                    SheetProblemCode.UPGRADE_NOT_IN_SETTLEMENT,
                    "an army is upgraded in a town or city you control; it stands in "
                    f"{where(ctx, army.province)} (3. Create / Upgrade Armies).",
                    army.id,
                )
            )
        elif town.looted_in(ctx.turn):
            check.error_problems.append(
                SheetProblem(
                    SheetProblemCode.LOOTED,
                    f"{town} was looted and cannot upgrade armies until the start of the next full turn (Looting).",
                    army.id,
                )
            )
        # "Pay the gold difference and recreate it at a higher point value": the difference from what
        # the army counts now (its list, after its losses), not from the points it was raised at.
        if upgrade.points <= army.points:
            check.error_problems.append(
                SheetProblem(
                    SheetProblemCode.UPGRADE_NOT_LARGER,
                    f"an upgrade to {upgrade.points:,} points does not raise the army above its {army.points:,} "
                    "points (3. Create / Upgrade Armies).",
                    army.id,
                )
            )
        elif upgrade.points > ARMY_MAX_POINTS:
            check.error_problems.append(
                SheetProblem(
                    SheetProblemCode.ARMY_SIZE,
                    f"{upgrade.points:,} points is above the maximum army size of {ARMY_MAX_POINTS:,} "
                    "(Army Restrictions).",
                    army.id,
                )
            )
        elif upgrade.points < ARMY_MIN_POINTS:
            # "Recreate it at a higher point value": the army is created again, at 1,000 to 2,000
            # points, and the minimum army size is 1,000 (Army Restrictions; decision 606).
            check.error_problems.append(
                SheetProblem(
                    SheetProblemCode.ARMY_SIZE,
                    f"an upgrade recreates the army at {upgrade.points:,} points, below the minimum army size of "
                    f"{ARMY_MIN_POINTS:,}; an army is created or recreated at {ARMY_MIN_POINTS:,} to "
                    f"{ARMY_MAX_POINTS:,} points (Army Restrictions; 3. Create / Upgrade Armies).",
                    army.id,
                )
            )
        elif upgrade.points + on_the_way > ARMY_MAX_POINTS:
            # What it bought with experience arrives on top of the list recreated at the new size
            # (Spending Experience; decisions 72 and 608).
            check.error_problems.append(
                SheetProblem(
                    SheetProblemCode.ARMY_SIZE,
                    f"an upgrade to {upgrade.points:,} points with {on_the_way:,} points on the way would take it "
                    f"past the maximum army size of {ARMY_MAX_POINTS:,} points once they arrive (Army Restrictions).",
                    army.id,
                )
            )
        else:
            check.costs.append(
                (
                    f"Upgrade {army.name} from {army.points:,} to {upgrade.points:,} points",
                    upgrade.points - army.points,
                )
            )
