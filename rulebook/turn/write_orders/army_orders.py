"""The army orders of the sheet (4. Write Orders, 5. Executing Orders): what each order may do,
one order an army a turn, with the standing choices of its row (the Foraging Table's, the unit that
takes the losses first, who defends its town), the Forced March (Army-Specific Rules, Deserts) and
the Scarab Amulet (The Ancient Dead: Deserts); and the warnings about orders that are legal but
probably mistaken (Occupied Province, Fortify, Support, the capitol left) (pure Python).
"""

from __future__ import annotations

from collections import Counter

from rulebook.turn.tables import forced_march_terrain
from rulebook.turn.write_orders.context import SheetContext, where
from rulebook.turn.write_orders.garrisons import garrisoned_by
from rulebook.turn.write_orders.problems import (
    SheetCheck,
    SheetProblem,
    SheetProblemCode,
    armies_named_twice,
    each_army,
    no_such_army,
)
from rulebook.turn.write_orders.records import (
    DEFEND_CHOICES,
    DEFEND_WITH_GARRISON,
    DISASTER_CHOICES,
    MOVING_ORDERS,
    SUPPORTING_ORDERS,
    ArmyOrder,
    OrderKind,
    SheetEntries,
)
from rulebook.world import ArmyState


def check_orders(entries: SheetEntries, ctx: SheetContext, upgraded: set[int], check: SheetCheck) -> None:
    counts = Counter(o.army for o in entries.orders)
    for army_id, count in counts.items():
        if count > 1:
            check.error_problems.append(
                SheetProblem(
                    SheetProblemCode.SEVERAL_ORDERS,
                    f"has {count} orders; an army receives one order a turn (4. Write Orders).",
                    army_id,
                    subject=True,
                )
            )
    for order, army in each_army(entries.orders, ctx, check):
        check.error_problems += _order_errors(order, army, ctx, army.id in upgraded)


def army_order_problems(order: ArmyOrder, ctx: SheetContext) -> list[SheetProblem]:
    """What the check finds wrong with one army's order alone (no other entry of the sheet): the
    legal targets the sheet offers are the ones it accepts (rulebook.turn.write_orders.targets)."""
    army = ctx.armies.get(order.army)
    return [no_such_army(order.army)] if army is None else _order_errors(order, army, ctx, upgrading=False)


def _order_errors(order: ArmyOrder, army: ArmyState, ctx: SheetContext, upgrading: bool) -> list[SheetProblem]:
    def problem(code: SheetProblemCode, text: str) -> SheetProblem:
        return SheetProblem(code, text, army.id)

    here = ctx.province(army.province)
    errors: list[SheetProblem] = []
    if order.disaster_choice not in DISASTER_CHOICES:
        errors.append(
            problem(
                SheetProblemCode.DISASTER_CHOICE,
                "on a foraging Disaster choose casualties or disbanding (Foraging Table).",
            )
        )
    fresh = army.created_turn == ctx.turn or army.upgraded_turn == ctx.turn or upgrading
    if fresh and (order.kind in MOVING_ORDERS or order.kind is OrderKind.SUPPORT or order.support is not None):
        why = (
            "is upgraded in this sheet"
            if upgrading
            else "was created this turn"
            if army.created_turn == ctx.turn
            else "was upgraded this turn"
        )
        errors.append(
            SheetProblem(
                SheetProblemCode.NEW_ARMY_MOVES,
                f"{why}: newly made or upgraded armies may not move or support the turn they are created or "
                "upgraded (3. Create / Upgrade Armies).",
                army.id,
                subject=True,
            )
        )
        return errors

    if order.take_control and order.kind not in MOVING_ORDERS:
        errors.append(
            problem(
                SheetProblemCode.TAKE_CONTROL,
                f"{order.kind.label} moves into no province, so it takes control of none; an army takes an ally's "
                "province by moving into it with orders that say so (Allies, Invasion).",
            )
        )
    if order.kind in (OrderKind.MOVE, OrderKind.RAZE_MOVE):
        if order.target is None:
            errors.append(problem(SheetProblemCode.NO_TARGET, f"{order.kind.label} needs a province to move into."))
        elif order.target not in ctx.provinces:
            errors.append(problem(SheetProblemCode.NOT_ON_MAP, f"province {order.target} is not on the map."))
        elif order.target == army.province:
            errors.append(
                problem(SheetProblemCode.ALREADY_THERE, f"the army is already in {where(ctx, order.target)}.")
            )
        elif not ctx.adjacent(army.province, order.target):
            errors.append(
                problem(
                    SheetProblemCode.NOT_ADJACENT,
                    f"{where(ctx, order.target)} is not adjacent to {here}; an army moves into a single adjacent "
                    "province (5. Executing Orders: Move).",
                )
            )
    if order.kind in (OrderKind.RAZE_HOLD, OrderKind.RAZE_MOVE) and here and here.razed:
        errors.append(problem(SheetProblemCode.ALREADY_RAZED, f"{here} is already razed (Raze)."))
    if order.kind is OrderKind.SUPPORT and order.support is None:
        errors.append(
            problem(SheetProblemCode.NO_SUPPORT_PROVINCE, "Support needs the province of the battle to support.")
        )
    if order.support is not None:
        if order.kind not in SUPPORTING_ORDERS:
            errors.append(
                problem(
                    SheetProblemCode.SUPPORT_WRONG_ORDER,
                    "only Move (a Forced March included) or Support orders may support a battle (4. Write Orders).",
                )
            )
        elif order.support not in ctx.provinces:
            errors.append(problem(SheetProblemCode.NOT_ON_MAP, f"province {order.support} is not on the map."))
        elif order.support == army.province:
            errors.append(
                problem(
                    SheetProblemCode.SUPPORT_NOT_BORDERING,
                    f"the army stands in {here} itself; an army supports battles in the provinces bordering its "
                    "own (6. Fight Battles: Support).",
                )
            )
        elif not ctx.adjacent(army.province, order.support):
            errors.append(
                problem(
                    SheetProblemCode.SUPPORT_NOT_BORDERING,
                    f"{where(ctx, order.support)} does not border {here}; an army supports battles in provinces "
                    "bordering its own (6. Fight Battles: Support).",
                )
            )
    if order.kind is OrderKind.FORCED_MARCH:
        errors += _forced_march_errors(order, army, ctx)
    if order.kind is OrderKind.FORTIFY and here and here.razed:
        errors.append(
            problem(
                SheetProblemCode.FORTIFY_RAZED,
                f"{here} is razed; razed provinces cannot be fortified until they are recovered (Fortify).",
            )
        )
    if order.kind is OrderKind.RECOVER and here and not here.razed:
        errors.append(
            problem(
                SheetProblemCode.RECOVER_NOT_RAZED, f"{here} is not razed; Recover is for razed provinces (Recover)."
            )
        )
    if order.kind is OrderKind.SCARAB_AMULET:
        errors += _scarab_amulet_errors(army, ctx)
    errors += _defend_with_errors(order, army, ctx)
    return errors


def _scarab_amulet_errors(army: ArmyState, ctx: SheetContext) -> list[SheetProblem]:
    """The Ancient Dead: Deserts: "A Desert province may be converted to a Plains province with the
    presence of a Scarab Amulet ... and a mage / rune smith": the army stands in the desert when the
    sheet is written (it stays there while it tries), a Scarab Amulet on its list and a mage or rune
    smith alive in it (rules decisions 109, 110, 112)."""

    def problem(code: SheetProblemCode, text: str) -> SheetProblem:
        return SheetProblem(code, text, army.id)

    here = ctx.province(army.province)
    if ctx.world.kingdoms[ctx.kingdom].ancient_dead:
        return [
            problem(
                SheetProblemCode.SCARAB_ANCIENT_DEAD,
                "the Ancient Dead make deserts; they never turn them back to plains (The Ancient Dead: Deserts).",
            )
        ]
    errors: list[SheetProblem] = []
    if here is None or here.terrain != "desert":
        errors.append(
            problem(
                SheetProblemCode.SCARAB_NOT_DESERT,
                f"{where(ctx, army.province)} is not a desert; a Scarab Amulet turns the Desert the army stands "
                "in back to Plains (The Ancient Dead: Deserts).",
            )
        )
    if army.scarab_amulets < 1:
        errors.append(
            problem(
                SheetProblemCode.SCARAB_NO_AMULET,
                "carries no Scarab Amulet on its list; turning a Desert to Plains needs one (The Ancient Dead: "
                "Deserts).",
            )
        )
    if army.magic_level is None:
        errors.append(
            problem(
                SheetProblemCode.SCARAB_NO_MAGE,
                "has no mage or rune smith; turning a Desert to Plains needs one with the Scarab Amulet "
                "(The Ancient Dead: Deserts).",
            )
        )
    return errors


def _defend_with_errors(order: ArmyOrder, army: ArmyState, ctx: SheetContext) -> list[SheetProblem]:
    """Battle for Towns, Cities, and Capitols: the choice of the garrison is for an army that ends
    its order in a town, city or capitol of its kingdom (where it stands, or the one it moves into)."""
    if order.defend_with not in DEFEND_CHOICES:
        return [
            SheetProblem(
                SheetProblemCode.DEFEND_WITH,
                "if attacked in your town, city or capitol, choose the army or the garrison to fight "
                "(Battle for Towns, Cities, and Capitols).",
                army.id,
            )
        ]
    if order.defend_with != DEFEND_WITH_GARRISON:
        return []
    end = order.destination if order.destination is not None else army.province
    if end in ctx.provinces and garrisoned_by(ctx.world, end, ctx.kingdom):
        return []
    return [
        SheetProblem(
            SheetProblemCode.DEFEND_WITH_NO_GARRISON,
            f"{where(ctx, end)} is not a town, city or capitol of yours: no garrison there can fight "
            "instead of the army (Battle for Towns, Cities, and Capitols).",
            army.id,
        )
    ]


def _forced_march_errors(order: ArmyOrder, army: ArmyState, ctx: SheetContext) -> list[SheetProblem]:
    def problem(code: SheetProblemCode, text: str) -> SheetProblem:
        return SheetProblem(code, text, army.id)

    allowed = forced_march_terrain(ctx.army_type)
    if not allowed:
        return [
            problem(
                SheetProblemCode.FORCED_MARCH_ANCIENT_DEAD,
                "the Ancient Dead can never attempt a Forced March (The Ancient Dead: Movement).",
            )
        ]
    if len(order.path) != 2:
        return [
            problem(
                SheetProblemCode.FORCED_MARCH_PATH,
                "a Forced March names its two provinces, the one passed through and the one it ends in.",
            )
        ]
    first, second = order.path
    errors: list[SheetProblem] = []
    if any(p not in ctx.provinces for p in order.path):
        return [problem(SheetProblemCode.NOT_ON_MAP, f"the Forced March path {first} -> {second} leaves the map.")]
    if not ctx.adjacent(army.province, first):
        errors.append(
            problem(
                SheetProblemCode.FORCED_MARCH_NOT_ADJACENT,
                f"{where(ctx, first)} is not adjacent to {where(ctx, army.province)} (Forced March).",
            )
        )
    if second == army.province:
        errors.append(
            problem(
                SheetProblemCode.FORCED_MARCH_NOT_ADJACENT,
                f"the path ends in {where(ctx, second)}, where the army stands; a Forced March moves it two "
                "provinces (Forced March).",
            )
        )
    elif not ctx.adjacent(first, second):
        errors.append(
            problem(
                SheetProblemCode.FORCED_MARCH_NOT_ADJACENT,
                f"{where(ctx, second)} is not adjacent to {where(ctx, first)} (Forced March).",
            )
        )
    names = {t: "woods" if t == "forest" else "marshes" if t == "marshland" else t for t in allowed}
    for number in order.path:
        province = ctx.provinces[number]
        if province.terrain == "desert":
            errors.append(
                problem(
                    SheetProblemCode.FORCED_MARCH_DESERT,
                    f"no army may Forced March through desert ({province}) (Deserts).",
                )
            )
        elif province.terrain not in allowed:
            errors.append(
                problem(
                    SheetProblemCode.FORCED_MARCH_TERRAIN,
                    f"{ctx.army_type.label} may Forced March only through "
                    f"{' and '.join(sorted(names.values()))}; {province} is {province.terrain} (Army-Specific Rules).",
                )
            )
    return errors


def check_losses(entries: SheetEntries, ctx: SheetContext, check: SheetCheck) -> None:
    """The unit named to take an army's losses first: one of its list's rank and file (a character
    never takes them), one choice per army."""
    for army_id in armies_named_twice(entries.losses, ctx):
        check.error_problems.append(
            SheetProblem(
                SheetProblemCode.LOSSES_FROM,
                "names more than one unit to take its losses first.",
                army_id,
                subject=True,
            )
        )
    for choice, army in each_army(entries.losses, ctx, check):
        units = {u.name.strip().lower(): u for u in ctx.world.units.get(army.id, ())}
        unit = units.get(choice.unit.strip().lower())
        if unit is None or unit.character:
            what = "a character" if unit is not None else "not a unit of its list"
            check.error_problems.append(
                SheetProblem(
                    SheetProblemCode.LOSSES_FROM,
                    f"{choice.unit.strip() or 'the unit named'} is {what}; losses are taken from the rank and "
                    "file of the army's list (Foraging Table, Guerrilla Tactics).",
                    army.id,
                )
            )


def check_warnings(entries: SheetEntries, ctx: SheetContext, check: SheetCheck) -> None:
    orders = {o.army: o for o in entries.orders if o.army in ctx.armies}
    end: dict[int, int] = {}  # army -> province it means to end the turn in
    for army in ctx.armies.values():
        order = orders.get(army.id)
        end[army.id] = order.destination if order and order.destination is not None else army.province

    by_province: dict[int, list[int]] = {}
    for army_id, province in end.items():
        by_province.setdefault(province, []).append(army_id)
    for province, ids in sorted(by_province.items()):
        if len(ids) > 1:
            first, *others = sorted(ids)
            check.warning_problems.append(
                SheetProblem(
                    SheetProblemCode.SAME_DESTINATION,
                    f"would end in {where(ctx, province)}: a province supports one army at a time; each rolls a "
                    "D6, the highest may move in and the others hold (Occupied Province).",
                    first,
                    others=tuple(others),
                    subject=True,
                )
            )

    for order in orders.values():
        army = ctx.armies[order.army]
        if (
            order.kind is OrderKind.FORTIFY
            and army.last_battle_turn is not None
            and army.last_battle_turn == ctx.turn - 1
        ):
            # Legal, but it acts as Hold. Only last turn's battle counts: whether the army will be
            # attacked this turn the sheet cannot know, and it fortifies all the same (R12).
            check.warning_problems.append(
                SheetProblem(
                    SheetProblemCode.FORTIFY_AFTER_BATTLE,
                    f"was in a battle last turn (turn {army.last_battle_turn}): its Fortify acts as Hold this turn "
                    "(Fortify).",
                    army.id,
                    subject=True,
                )
            )

    stands_or_attacks = set(end.values()) | {a.province for a in ctx.armies.values()}
    for order in orders.values():
        if order.support is not None and order.support not in stands_or_attacks:
            check.warning_problems.append(
                SheetProblem(
                    SheetProblemCode.SUPPORT_WITHOUT_BATTLE,
                    f"supports a battle in {where(ctx, order.support)}, where none of "
                    "your armies attacks or stands: the support helps only if a battle is fought there.",
                    order.army,
                    subject=True,
                )
            )

    if ctx.capitol is not None:
        at_capitol = [a for a in ctx.armies.values() if a.province == ctx.capitol]
        if at_capitol and all(end[a.id] != ctx.capitol for a in at_capitol):
            check.warning_problems.append(
                SheetProblem(
                    SheetProblemCode.CAPITOL_LEFT,
                    f"Every army leaves your capitol {where(ctx, ctx.capitol)}; only its garrison will defend it.",
                )
            )
