"""Order sheets: what each entry may do, and the check of a whole sheet (pure Python).

Rulebook sections: 3. Create / Upgrade Armies, Supply Depot, 4. Write Orders, 5. Executing
Orders (what each order may do), Army-Specific Rules (forced march), Army Restrictions.
Every message names the army (or entry) and the rule.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from enum import StrEnum

from kingdoms.rules.setup import army_limit
from kingdoms.rules.tables import ARMY_MAX_POINTS, ARMY_MIN_POINTS, ArmyType
from kingdoms.rules.world import ArmyState, ProvinceState, World

from .tables import ELITE_DEFENSE_FORCE_GOLD, SUPPLY_DEPOT_GOLD, creation_cost, forced_march_terrain


class OrderKind(StrEnum):
    HOLD = "hold"
    RAZE_HOLD = "raze-hold"
    RAZE_MOVE = "raze-move"
    MOVE = "move"
    SUPPORT = "support"
    FORCED_MARCH = "forced-march"
    FORTIFY = "fortify"
    RECOVER = "recover"

    @property
    def label(self) -> str:
        return ORDER_LABELS[self]


ORDER_LABELS: dict[OrderKind, str] = {
    OrderKind.HOLD: "Hold",
    OrderKind.RAZE_HOLD: "Raze and Hold",
    OrderKind.RAZE_MOVE: "Raze and Move",
    OrderKind.MOVE: "Move",
    OrderKind.SUPPORT: "Support",
    OrderKind.FORCED_MARCH: "Forced March",
    OrderKind.FORTIFY: "Fortify",
    OrderKind.RECOVER: "Recover",
}
MOVING_ORDERS = frozenset({OrderKind.MOVE, OrderKind.RAZE_MOVE, OrderKind.FORCED_MARCH})
DISASTER_CHOICES = ("casualties", "disband")  # Foraging Table, 2: Disaster


@dataclass(frozen=True)
class ArmyOrder:
    """One army's order. `target` for moves; `support` for Support (alone or with Move);
    `path` (two provinces) for a Forced March. The standing choices answer the Foraging Table."""

    army: int
    kind: OrderKind = OrderKind.HOLD
    target: int | None = None
    support: int | None = None
    path: tuple[int, ...] = ()
    disaster_choice: str = "casualties"
    pay_for_depot: bool = True

    @property
    def destination(self) -> int | None:
        if self.kind is OrderKind.FORCED_MARCH:
            return self.path[-1] if self.path else None
        return self.target if self.kind in MOVING_ORDERS else None


@dataclass(frozen=True)
class CreateArmy:
    name: str
    points: int
    province: int


@dataclass(frozen=True)
class UpgradeArmy:
    army: int
    points: int  # the new size


@dataclass(frozen=True)
class BuySupplyDepot:
    army: int


@dataclass(frozen=True)
class ReinforceGarrison:
    province: int


@dataclass(frozen=True)
class SheetEntries:
    orders: tuple[ArmyOrder, ...] = ()
    creations: tuple[CreateArmy, ...] = ()
    upgrades: tuple[UpgradeArmy, ...] = ()
    depots: tuple[BuySupplyDepot, ...] = ()
    garrisons: tuple[ReinforceGarrison, ...] = ()


@dataclass(frozen=True)
class SheetContext:
    """What the check needs to know: the world as the kingdom finds it (the public map, its own
    treasury and capitol) with the kingdom's own field armies and every name it has given an army.
    Made by `sheet_context`, so the form, the API and the turn's normalisation see the same state."""

    world: World
    kingdom: int
    armies: dict[int, ArmyState]  # the kingdom's own field armies
    army_names: frozenset[str] = frozenset()  # every army name the kingdom has used (names stay unique)

    @property
    def army_type(self) -> ArmyType:
        return self.world.kingdoms[self.kingdom].army_type

    @property
    def turn(self) -> int:
        return self.world.turn

    @property
    def treasury(self) -> int:
        return self.world.kingdoms[self.kingdom].treasury

    @property
    def player_count(self) -> int:
        return self.world.player_count

    @property
    def capitol(self) -> int | None:
        return self.world.kingdoms[self.kingdom].capitol

    @property
    def provinces(self) -> dict[int, ProvinceState]:
        return self.world.provinces

    def adjacent(self, a: int, b: int) -> bool:
        return self.world.adjacent(a, b)

    def province(self, number: int) -> ProvinceState | None:
        return self.world.provinces.get(number)


def sheet_context(world: World, kingdom: int, *, army_names: frozenset[str] = frozenset()) -> SheetContext:
    """The sheet check's view of `world` for `kingdom`. Its armies are the kingdom's field armies in
    the world; a turn's working copy may hold some disbanded this turn, whose orders are then checked
    as written."""
    return SheetContext(
        world=world,
        kingdom=kingdom,
        armies={a.id: a for a in world.armies.values() if a.kingdom == kingdom},
        army_names=army_names,
    )


@dataclass
class SheetCheck:
    errors: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    costs: list[tuple[str, int]] = field(default_factory=list)

    @property
    def gold(self) -> int:
        return sum(amount for _, amount in self.costs)

    @property
    def ok(self) -> bool:
        return not self.errors


def sheet_check(entries: SheetEntries, ctx: SheetContext) -> SheetCheck:
    """Check a whole sheet: errors refuse it, warnings point at orders that are legal but
    probably mistaken, costs list the gold it spends."""
    check = SheetCheck()
    upgraded = {u.army for u in entries.upgrades}
    _check_orders(entries, ctx, upgraded, check)
    _check_creations(entries, ctx, check)
    _check_upgrades(entries, ctx, check)
    _check_depots(entries, ctx, check)
    _check_garrisons(entries, ctx, check)
    if check.gold > ctx.treasury:
        check.errors.append(
            f"The sheet spends {check.gold:,} gold but the treasury holds {ctx.treasury:,}: "
            f"{check.gold - ctx.treasury:,} gold short (Treasury; 3. Create / Upgrade Armies)."
        )
    _warnings(entries, ctx, check)
    return check


def _where(ctx: SheetContext, number: int | None) -> str:
    province = ctx.province(number) if number is not None else None
    return str(province) if province else f"province {number}"


def _check_orders(entries: SheetEntries, ctx: SheetContext, upgraded: set[int], check: SheetCheck) -> None:
    counts = Counter(o.army for o in entries.orders)
    for army_id, count in counts.items():
        if count > 1:
            name = ctx.armies[army_id].name if army_id in ctx.armies else f"Army {army_id}"
            check.errors.append(f"{name} has {count} orders; an army receives one order a turn (4. Write Orders).")
    for order in entries.orders:
        army = ctx.armies.get(order.army)
        if army is None:
            check.errors.append(f"Army {order.army} is not one of your active armies.")
            continue
        check.errors += _order_errors(order, army, ctx, army.id in upgraded)


def _order_errors(order: ArmyOrder, army: ArmyState, ctx: SheetContext, upgrading: bool) -> list[str]:
    a = army.name
    here = ctx.province(army.province)
    errors: list[str] = []
    if order.disaster_choice not in DISASTER_CHOICES:
        errors.append(f"{a}: on a foraging Disaster choose casualties or disbanding (Foraging Table).")
    fresh = army.created_turn == ctx.turn or army.upgraded_turn == ctx.turn or upgrading
    if fresh and (order.kind in MOVING_ORDERS or order.kind is OrderKind.SUPPORT or order.support is not None):
        why = "is upgraded in this sheet" if upgrading else "was created or upgraded this turn"
        errors.append(
            f"{a} {why}: newly made or upgraded armies may not move or support the turn they are created or "
            "upgraded (3. Create / Upgrade Armies)."
        )
        return errors

    if order.kind in (OrderKind.MOVE, OrderKind.RAZE_MOVE):
        if order.target is None:
            errors.append(f"{a}: {order.kind.label} needs a province to move into.")
        elif order.target not in ctx.provinces:
            errors.append(f"{a}: province {order.target} is not on the map.")
        elif order.target == army.province:
            errors.append(f"{a}: the army is already in {_where(ctx, order.target)}.")
        elif not ctx.adjacent(army.province, order.target):
            errors.append(
                f"{a}: {_where(ctx, order.target)} is not adjacent to {here}; an army moves into a single adjacent "
                "province (5. Executing Orders: Move)."
            )
    if order.kind in (OrderKind.RAZE_HOLD, OrderKind.RAZE_MOVE) and here and here.razed:
        errors.append(f"{a}: {here} is already razed (Raze).")
    if order.kind is OrderKind.SUPPORT and order.support is None:
        errors.append(f"{a}: Support needs the province of the battle to support.")
    if order.support is not None:
        if order.kind not in (OrderKind.SUPPORT, OrderKind.MOVE):
            errors.append(f"{a}: only Move or Support orders may support a battle (4. Write Orders).")
        elif order.support not in ctx.provinces:
            errors.append(f"{a}: province {order.support} is not on the map.")
        elif order.support == army.province or not ctx.adjacent(army.province, order.support):
            errors.append(
                f"{a}: {_where(ctx, order.support)} does not border {here}; an army supports battles in provinces "
                "bordering its own (6. Fight Battles: Support)."
            )
    if order.kind is OrderKind.FORCED_MARCH:
        errors += _forced_march_errors(order, army, ctx)
    if order.kind is OrderKind.FORTIFY and here and here.razed:
        errors.append(f"{a}: {here} is razed; razed provinces cannot be fortified until they are recovered (Fortify).")
    if order.kind is OrderKind.RECOVER and here and not here.razed:
        errors.append(f"{a}: {here} is not razed; Recover is for razed provinces (Recover).")
    return errors


def _forced_march_errors(order: ArmyOrder, army: ArmyState, ctx: SheetContext) -> list[str]:
    a = army.name
    allowed = forced_march_terrain(ctx.army_type)
    if not allowed:
        return [f"{a}: the Ancient Dead can never attempt a Forced March (The Ancient Dead: Movement)."]
    if len(order.path) != 2:
        return [f"{a}: a Forced March names its two provinces, the one passed through and the one it ends in."]
    first, second = order.path
    errors: list[str] = []
    if any(p not in ctx.provinces for p in order.path):
        return [f"{a}: the Forced March path {first} -> {second} leaves the map."]
    if not ctx.adjacent(army.province, first):
        errors.append(f"{a}: {_where(ctx, first)} is not adjacent to {_where(ctx, army.province)} (Forced March).")
    if not ctx.adjacent(first, second) or second == army.province:
        errors.append(f"{a}: {_where(ctx, second)} is not adjacent to {_where(ctx, first)} (Forced March).")
    names = {t: "woods" if t == "forest" else "marshes" if t == "marshland" else t for t in allowed}
    for number in order.path:
        province = ctx.provinces[number]
        if province.terrain == "desert":
            errors.append(f"{a}: no army may Forced March through desert ({province}) (Deserts).")
        elif province.terrain not in allowed:
            errors.append(
                f"{a}: {ctx.army_type.label} may Forced March only through "
                f"{' and '.join(sorted(names.values()))}; {province} is {province.terrain} (Army-Specific Rules)."
            )
    return errors


def _check_creations(entries: SheetEntries, ctx: SheetContext, check: SheetCheck) -> None:
    occupied = {a.province for a in ctx.armies.values()}
    names = Counter(c.name.strip().lower() for c in entries.creations)
    used = {n.lower() for n in ctx.army_names}
    placed: set[int] = set()
    for creation in entries.creations:
        label = f"New army '{creation.name.strip()}'" if creation.name.strip() else "A new army"
        province = ctx.province(creation.province)
        if not creation.name.strip():
            check.errors.append(f"{label} needs a name.")
        elif creation.name.strip().lower() in used or names[creation.name.strip().lower()] > 1:
            check.errors.append(f"{label}: the kingdom already has an army of that name.")
        if not ARMY_MIN_POINTS <= creation.points <= ARMY_MAX_POINTS:
            check.errors.append(
                f"{label}: an army of {creation.points:,} points cannot be created; armies are "
                f"{ARMY_MIN_POINTS:,} to {ARMY_MAX_POINTS:,} points (Army Restrictions)."
            )
        if province is None:
            check.errors.append(f"{label}: province {creation.province} is not on the map.")
            continue
        if province.controller != ctx.kingdom:
            check.errors.append(
                f"{label}: {province} is not yours; new armies are placed in a province you control "
                "(3. Create / Upgrade Armies)."
            )
        elif province.looted_in(ctx.turn):
            check.errors.append(
                f"{label}: {province} was looted and cannot create armies until the start of the next full "
                "turn (Looting)."
            )
        elif province.number in occupied or province.number in placed:
            check.errors.append(
                f"{label}: {province} is occupied; new armies are placed in an unoccupied province "
                "(3. Create / Upgrade Armies)."
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
            check.errors.append(
                f"Creating {len(entries.creations)} army(ies) would give the kingdom {total} armies; with "
                f"{controlled} provinces and {ctx.player_count} players the Army Table allows {allowed}."
            )


def _in_own_settlement(army: ArmyState, ctx: SheetContext) -> ProvinceState | None:
    province = ctx.province(army.province)
    if province and province.settlement in ("town", "city") and province.controller == ctx.kingdom:
        return province
    return None


def _check_upgrades(entries: SheetEntries, ctx: SheetContext, check: SheetCheck) -> None:
    for army_id, count in Counter(u.army for u in entries.upgrades).items():
        if count > 1 and army_id in ctx.armies:
            check.errors.append(f"{ctx.armies[army_id].name} is upgraded twice in one sheet.")
    for upgrade in entries.upgrades:
        army = ctx.armies.get(upgrade.army)
        if army is None:
            check.errors.append(f"Army {upgrade.army} is not one of your active armies.")
            continue
        where = _in_own_settlement(army, ctx)
        if where is None:
            check.errors.append(
                f"{army.name}: an army is upgraded in a town or city you control; it stands in "
                f"{_where(ctx, army.province)} (3. Create / Upgrade Armies)."
            )
        elif where.looted_in(ctx.turn):
            check.errors.append(
                f"{army.name}: {where} was looted and cannot upgrade armies until the start of the next full "
                "turn (Looting)."
            )
        if upgrade.points <= army.size:
            check.errors.append(f"{army.name}: an upgrade raises the army above its {army.size:,} points.")
        elif upgrade.points > ARMY_MAX_POINTS:
            check.errors.append(
                f"{army.name}: {upgrade.points:,} points is above the maximum army size of "
                f"{ARMY_MAX_POINTS:,} (Army Restrictions)."
            )
        else:
            check.costs.append(
                (f"Upgrade {army.name} from {army.size:,} to {upgrade.points:,} points", upgrade.points - army.size)
            )


def _check_depots(entries: SheetEntries, ctx: SheetContext, check: SheetCheck) -> None:
    for army_id, count in Counter(d.army for d in entries.depots).items():
        if count > 1 and army_id in ctx.armies:
            check.errors.append(f"{ctx.armies[army_id].name}: one supply depot at a time.")
    for depot in entries.depots:
        army = ctx.armies.get(depot.army)
        if army is None:
            check.errors.append(f"Army {depot.army} is not one of your active armies.")
            continue
        if army.supply_depot:
            check.errors.append(f"{army.name} already has a supply depot.")
        elif _in_own_settlement(army, ctx) is None:
            check.errors.append(
                f"{army.name}: a replacement supply depot is bought in a town or city; the army stands in "
                f"{_where(ctx, army.province)} (Supply Depot)."
            )
        else:
            check.costs.append((f"Supply depot for {army.name}", SUPPLY_DEPOT_GOLD))


def _check_garrisons(entries: SheetEntries, ctx: SheetContext, check: SheetCheck) -> None:
    for number, count in Counter(g.province for g in entries.garrisons).items():
        if count > 1:
            check.errors.append(f"{_where(ctx, number)} is reinforced twice in one sheet.")
    for garrison in entries.garrisons:
        province = ctx.province(garrison.province)
        if province is None:
            check.errors.append(f"Province {garrison.province} is not on the map.")
            continue
        if ctx.army_type is ArmyType.ANCIENT_DEAD:
            check.errors.append("The Ancient Dead's garrisons cannot take an Elite Defense Force (The Ancient Dead).")
        elif province.controller != ctx.kingdom or province.settlement not in ("town", "city"):
            check.errors.append(
                f"{province}: an Elite Defense Force reinforces the garrison of a town or city you control "
                "(Battle for Towns, Cities, and Capitols)."
            )
        elif province.elite_defense:
            check.errors.append(f"{province}: its garrison already has an Elite Defense Force.")
        else:
            check.costs.append((f"Elite Defense Force for {province}", ELITE_DEFENSE_FORCE_GOLD))


def _warnings(entries: SheetEntries, ctx: SheetContext, check: SheetCheck) -> None:
    orders = {o.army: o for o in entries.orders if o.army in ctx.armies}
    end: dict[int, int] = {}  # army -> province it means to end the turn in
    for army in ctx.armies.values():
        order = orders.get(army.id)
        end[army.id] = order.destination if order and order.destination is not None else army.province

    by_province: dict[int, list[str]] = {}
    for army_id, province in end.items():
        by_province.setdefault(province, []).append(ctx.armies[army_id].name)
    for province, names in sorted(by_province.items()):
        if len(names) > 1:
            check.warnings.append(
                f"{' and '.join(sorted(names))} would end in {_where(ctx, province)}: a province holds one army; "
                "a D6 decides which moves and the others hold (Occupied Province)."
            )

    stands_or_attacks = set(end.values()) | {a.province for a in ctx.armies.values()}
    for order in orders.values():
        if order.support is not None and order.support not in stands_or_attacks:
            check.warnings.append(
                f"{ctx.armies[order.army].name} supports a battle in {_where(ctx, order.support)}, where none of "
                "your armies attacks or stands: the support helps only if a battle is fought there."
            )

    if ctx.capitol is not None:
        at_capitol = [a for a in ctx.armies.values() if a.province == ctx.capitol]
        if at_capitol and all(end[a.id] != ctx.capitol for a in at_capitol):
            check.warnings.append(
                f"Every army leaves your capitol {_where(ctx, ctx.capitol)}; only its garrison will defend it."
            )
