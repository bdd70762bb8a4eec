"""Order sheets: what each entry may do, and the check of a whole sheet (pure Python).

Rulebook sections: 3. Create / Upgrade Armies, Supply Depot, 4. Write Orders, 5. Executing
Orders (what each order may do), Army-Specific Rules (forced march), Army Restrictions.
Every problem carries a stable code (SheetProblemCode), the army it belongs to by id, and words
that name the rule but not the army: whoever shows a problem out of its army's row adds the name
once (SheetProblem.message), so no reader has to find an army by matching names in a message.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from enum import StrEnum
from functools import cached_property
from typing import Any

from rulebook.allies.chart import ALLIANCE_GOLD, TrustLevel, trust_level
from rulebook.experience.spending import SpendingRoster
from rulebook.setup.homes import army_limit
from rulebook.tables import ARMY_MAX_POINTS, ARMY_MIN_POINTS, ArmyType
from rulebook.turn.tables import (
    ELITE_DEFENSE_FORCE_GOLD,
    SUPPLY_DEPOT_GOLD,
    TRANSFER_ARRIVES_AFTER,
    creation_cost,
    forced_march_terrain,
    item_transfer_fee,
    transfer_fee,
)
from rulebook.turn.tally_gold import tax_tally
from rulebook.world import ArmyState, KingdomState, ProvinceState, World


class OrderKind(StrEnum):
    HOLD = "hold"
    RAZE_HOLD = "raze-hold"
    RAZE_MOVE = "raze-move"
    MOVE = "move"
    SUPPORT = "support"
    FORCED_MARCH = "forced-march"
    FORTIFY = "fortify"
    RECOVER = "recover"
    # The Ancient Dead: Deserts: the army stays and tries to turn its desert back to plains
    SCARAB_AMULET = "scarab-amulet"

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
    OrderKind.SCARAB_AMULET: "Scarab Amulet: turn the desert to plains",
}
MOVING_ORDERS = frozenset({OrderKind.MOVE, OrderKind.RAZE_MOVE, OrderKind.FORCED_MARCH})
DISASTER_CHOICES = ("casualties", "disband")  # Foraging Table, 2: Disaster
# Battle for Towns, Cities, and Capitols: "you may use either the local garrison force or the army".
# The army fights when the sheet is silent (docs/rules-decisions.md).
DEFEND_WITH_ARMY = "army"  # the army fights; the garrison supports it within the 500-point cap
DEFEND_WITH_GARRISON = "garrison"  # the garrison fights; the army supports it with a detachment
DEFEND_CHOICES = (DEFEND_WITH_ARMY, DEFEND_WITH_GARRISON)


@dataclass(frozen=True)
class ArmyOrder:
    """One army's order. `target` for moves; `support` for Support (alone or with Move);
    `path` (two provinces) for a Forced March. The standing choices answer the Foraging Table, and
    `defend_with` says who fights if the army is attacked in a town, city or capitol of its kingdom."""

    army: int
    kind: OrderKind = OrderKind.HOLD
    target: int | None = None
    support: int | None = None
    path: tuple[int, ...] = ()
    disaster_choice: str = "casualties"
    pay_for_depot: bool = True
    defend_with: str = DEFEND_WITH_ARMY
    # Allies, Invasion: "The backstabber must note this in their orders or the organizer will assume
    # armies moving through allied provinces do not intend to take control of those provinces."
    take_control: bool = False

    def held(self) -> ArmyOrder:
        """The army holds instead (an order refused, a raze that took too long): its standing
        choices (the Foraging Table's, who defends its town) still answer for it this turn."""
        return replace(self, kind=OrderKind.HOLD, target=None, support=None, path=(), take_control=False)

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
class LossesFrom:
    """A standing choice: the unit of the army's list that takes the army's losses first this turn
    (Foraging Table, Guerrilla Tactics), by its name in the list. Without one, or for what it
    cannot take, the rank and file take them (rulebook.armies.losses)."""

    army: int
    unit: str


@dataclass(frozen=True)
class Purchase:
    """What an army buys with its experience (Spending Experience). `kind` is one of
    rulebook.experience.spending.PurchaseKind: `recruits` (`models` for the unit `unit`, or a new unit
    `name`/`category` at `points` a model), `equipment` (`points` for the unit `unit`), `item` (the
    magic item `name` of `points` for the character `unit`; `common`, `runic`), `supply-depot`,
    `veteran` (the unit `unit` to its next level), `advancement` (a roll for the General `unit`),
    `promotion` (the Warlord `unit` to a Lord of `points` base points)."""

    army: int
    kind: str
    unit: str = ""
    models: int = 0
    points: int = 0
    name: str = ""
    category: str = ""
    common: bool = False
    runic: bool = False


@dataclass(frozen=True)
class DeclareAlliance:
    """Allies: "Players must declare an alliance at the beginning of a turn when they submit their
    orders. Both players MUST declare their alliance": the kingdom (id) this sheet allies with."""

    kingdom: int


@dataclass(frozen=True)
class EndAlliance:
    """Allies, Announcement: the sheet announces that the alliance with `kingdom` is over. Both
    allies announcing it in the same turn cancel it (no gold back)."""

    kingdom: int


@dataclass(frozen=True)
class TransferGold:
    """Transfer of Gold: `gold` sent to the kingdom `kingdom` (id); the sender pays 10% more, the
    gold arrives at the beginning of the turn after next."""

    kingdom: int
    gold: int


@dataclass(frozen=True)
class TransferItem:
    """Transfer of Gold (and items): the magic item named `item` sent to the kingdom `kingdom` (id);
    the sender pays 10% of its gold cost (double its points), it arrives at the beginning of the
    turn after next in the receiver's armory. Of several of that name, the armory's goes first,
    then the one of the army with the lowest id (rules decision 143)."""

    kingdom: int
    item: str


@dataclass(frozen=True)
class LandDeal:
    """Land Sales: this kingdom's side of a deal with the kingdom `kingdom` (id): the province it gives
    (a number; none when it only receives) and the gold it pays. Both kingdoms declare their side on
    the same turn's sheets: a gift (one gives, the other pays nothing), a sale (one gives, the other
    pays) or a trade (both give)."""

    kingdom: int
    province: int | None = None
    gold: int = 0


@dataclass(frozen=True)
class MoveCapitol:
    """Loss of the Capitol: "A Warlord may move the capitol to another city ... even if the current
    capitol still stands, but will cost 1,000 gold": the city (number) the Warlord stands in."""

    province: int


@dataclass(frozen=True)
class SheetEntries:
    orders: tuple[ArmyOrder, ...] = ()
    creations: tuple[CreateArmy, ...] = ()
    upgrades: tuple[UpgradeArmy, ...] = ()
    depots: tuple[BuySupplyDepot, ...] = ()
    garrisons: tuple[ReinforceGarrison, ...] = ()
    losses: tuple[LossesFrom, ...] = ()
    purchases: tuple[Purchase, ...] = ()
    alliances: tuple[DeclareAlliance, ...] = ()
    alliance_ends: tuple[EndAlliance, ...] = ()
    gold_transfers: tuple[TransferGold, ...] = ()
    item_transfers: tuple[TransferItem, ...] = ()
    land_deals: tuple[LandDeal, ...] = ()
    capitol_moves: tuple[MoveCapitol, ...] = ()

    def losses_first(self, army: int) -> str:
        """The unit named to take the army's losses first ("" when none is)."""
        return next((choice.unit for choice in self.losses if choice.army == army), "")


@dataclass(frozen=True)
class SheetContext:
    """What the check needs to know: the world as the kingdom finds it (the public map, its own
    treasury and capitol) with the kingdom's own field armies and every name it has given an army.
    Made by `order_sheet_context`, so the form, the API and the turn's normalisation see the same state."""

    world: World
    kingdom: int
    armies: dict[int, ArmyState]  # the kingdom's own field armies
    army_names: frozenset[str] = frozenset()  # every army name the kingdom has used (names stay unique)
    roster: SpendingRoster = field(default_factory=SpendingRoster)  # its lists, characters, items, on the way

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

    @cached_property
    def taxes(self) -> int:
        """What this turn's 1. Tally Gold will bring the kingdom (net of Imperial Taxation), which
        its sheet may spend: reckoned once per context (the turn's normalisation checks each order
        on its own against one context)."""
        return tax_tally(self.world, self.kingdom).net

    @property
    def lists_due(self) -> list[ArmyState]:
        """The kingdom's armies whose list is due (raised or upgraded, not entered since): each
        counts at the points paid for it until it is."""
        return sorted((a for a in self.armies.values() if a.list_due), key=lambda a: a.id)


def order_sheet_context(
    world: World,
    kingdom: int,
    *,
    army_names: frozenset[str] = frozenset(),
    roster: SpendingRoster | None = None,
) -> SheetContext:
    """The sheet check's view of `world` for `kingdom`. Its armies are the kingdom's field armies in
    the world; a turn's working copy may hold some disbanded this turn, whose orders are then checked
    as written."""
    return SheetContext(
        world=world,
        kingdom=kingdom,
        armies={a.id: a for a in world.armies.values() if a.kingdom == kingdom},
        army_names=army_names,
        roster=roster or SpendingRoster(),
    )


class SheetProblemCode(StrEnum):
    """What is wrong with a sheet, one stable code per rule (like the illegal-order codes of the
    Diplomacy adjudicators), for API clients and stored events; never reworded once released."""

    # The whole sheet
    OVER_BUDGET = "over-budget"  # Treasury: the sheet spends more than the treasury and this turn's taxes
    # 4. Write Orders / 5. Executing Orders
    NO_SUCH_ARMY = "no-such-army"  # an entry names an army that is not one of the kingdom's active ones
    SEVERAL_ORDERS = "several-orders"  # an army receives one order a turn
    DISASTER_CHOICE = "disaster-choice"  # Foraging Table: casualties or disbanding
    NEW_ARMY_MOVES = "new-army-moves"  # 3. Create / Upgrade: no move or support the turn it is made
    NO_TARGET = "no-target"  # a Move without a province to move into
    NOT_ON_MAP = "not-on-map"  # a province number the map does not have
    ALREADY_THERE = "already-there"  # a Move into the province the army stands in
    NOT_ADJACENT = "not-adjacent"  # Move: a single adjacent province
    ALREADY_RAZED = "already-razed"  # Raze
    NO_SUPPORT_PROVINCE = "no-support-province"  # Support without the battle's province
    SUPPORT_WRONG_ORDER = "support-wrong-order"  # only Move or Support orders may support
    SUPPORT_NOT_BORDERING = "support-not-bordering"  # Support: provinces bordering the army's own
    FORTIFY_RAZED = "fortify-razed"  # Fortify: not a razed province
    # Battle for Towns, Cities, and Capitols: the garrison or the army defends
    DEFEND_WITH = "defend-with"  # choose the army or the garrison
    DEFEND_WITH_NO_GARRISON = "defend-with-no-garrison"  # the garrison defends only its own settlement
    RECOVER_NOT_RAZED = "recover-not-razed"  # Recover: razed provinces only
    # The Ancient Dead: Deserts: a Scarab Amulet and a mage / rune smith in the army, standing in a desert
    SCARAB_NOT_DESERT = "scarab-not-desert"
    SCARAB_NO_AMULET = "scarab-no-amulet"
    SCARAB_NO_MAGE = "scarab-no-mage"
    SCARAB_ANCIENT_DEAD = "scarab-ancient-dead"
    # Forced March (Army-Specific Rules, Deserts)
    FORCED_MARCH_ANCIENT_DEAD = "forced-march-ancient-dead"
    FORCED_MARCH_PATH = "forced-march-path"  # it names two provinces
    FORCED_MARCH_NOT_ADJACENT = "forced-march-not-adjacent"  # each step into an adjacent province
    FORCED_MARCH_DESERT = "forced-march-desert"
    FORCED_MARCH_TERRAIN = "forced-march-terrain"  # the terrain the army type may march through
    # 3. Create / Upgrade Armies, Army Restrictions, Looting
    NO_NAME = "no-name"
    NAME_TAKEN = "name-taken"
    ARMY_SIZE = "army-size"  # 1,000 to 2,000 points
    NOT_YOURS = "not-yours"  # a new army is placed in a province you control
    OCCUPIED = "occupied"  # ... that is unoccupied
    LOOTED = "looted"  # a looted settlement creates and upgrades no armies until the next full turn
    ARMY_LIMIT = "army-limit"  # the Army Table
    UPGRADED_TWICE = "upgraded-twice"
    UPGRADE_NOT_IN_SETTLEMENT = "upgrade-not-in-settlement"
    UPGRADE_NOT_LARGER = "upgrade-not-larger"
    # Supply Depot
    DEPOT_TWICE = "depot-twice"
    DEPOT_HELD = "depot-held"
    DEPOT_NOT_IN_SETTLEMENT = "depot-not-in-settlement"
    # Elite Defense Force (Battle for Towns, Cities, and Capitols)
    GARRISON_TWICE = "garrison-twice"
    GARRISON_ANCIENT_DEAD = "garrison-ancient-dead"
    GARRISON_NOT_OWN_SETTLEMENT = "garrison-not-own-settlement"
    GARRISON_REINFORCED = "garrison-reinforced"
    # Losses (Foraging Table, Guerrilla Tactics): the unit that takes them first
    LOSSES_FROM = "losses-from"
    # Spending Experience (Veteran Status, Character Archetypes and Advancement, Warlord, Armory)
    PURCHASE = "purchase"  # a purchase the rules do not allow (the words say which rule)
    EXPERIENCE_SHORT = "experience-short"  # the army's purchases cost more than its experience
    # Allies (Alliance Chart)
    ALLIANCE_NO_SUCH_KINGDOM = "alliance-no-such-kingdom"  # not another player's kingdom of the campaign
    ALLIANCE_DISALLOWED = "alliance-disallowed"  # X on the Alliance Chart
    ALLIANCE_FULL = "alliance-full"  # two kingdoms to an alliance: one of them is allied already
    ALLIANCE_TWICE = "alliance-twice"  # one alliance declared a turn
    ALLIANCE_NOT_ALLIED = "alliance-not-allied"  # an end announced to a kingdom that is no ally
    TAKE_CONTROL = "take-control"  # Invasion: only a move into a province takes it
    TRANSFER = "transfer"  # Transfer of Gold: to another player's kingdom, a positive amount
    ITEM_TRANSFER = "item-transfer"  # Transfer of Gold (items): an item the kingdom holds, to another player's
    LAND_SALE_TWICE = "land-sale-twice"  # Land Sales: one province per turn per receiving kingdom
    CAPITOL = "capitol"  # Loss of the Capitol: the Warlord in another of the kingdom's cities, 1,000 gold
    LAND_SALE = "land-sale"  # Land Sales: another player's kingdom, one's own province, not a town or city
    # Warnings: legal, but probably mistaken
    SAME_DESTINATION = "same-destination"  # Occupied Province: a D6 for each army decides which moves
    FORTIFY_AFTER_BATTLE = "fortify-after-battle"  # Fortify: in a battle last turn, it acts as Hold
    SUPPORT_WITHOUT_BATTLE = "support-without-battle"
    CAPITOL_LEFT = "capitol-left"  # every army leaves the capitol


@dataclass(frozen=True)
class SheetProblem:
    """One error or warning. `army` is the army whose row it belongs to; `text` never names it
    (a new army, which has no id yet, is named in the text). `others` are further armies it
    concerns (the Occupied Province warning). `subject`: the army's name begins the sentence
    ("1st Army has 2 orders") rather than labelling it ("1st Army: 3 P3 is not adjacent ...")."""

    code: SheetProblemCode
    text: str
    army: int | None = None
    others: tuple[int, ...] = ()
    subject: bool = False
    creation: int | None = None  # a new army's entry, by its place among the sheet's creations
    # The entry of another part of the sheet it is about (the row that mends it): `part` names the
    # SheetEntries field ("purchases", "gold_transfers", "item_transfers", "land_deals",
    # "capitol_moves"), `entry` the entry's place in it, `entry_field` the entry's field ("gold").
    part: str = ""
    entry: int | None = None
    entry_field: str = ""

    @property
    def armies(self) -> tuple[int, ...]:
        """Every army the problem concerns, the one whose row it belongs to first."""
        return () if self.army is None else (self.army, *self.others)

    def message(self, names: Mapping[int, str]) -> str:
        """The problem in words out of its army's row: the army's name once, then the text."""
        if self.army is None:
            return self.text
        who = " and ".join(sorted(names.get(a, f"Army {a}") for a in self.armies))
        return f"{who} {self.text}" if self.subject else f"{who}: {self.text}"


@dataclass
class SheetCheck:
    error_problems: list[SheetProblem] = field(default_factory=list)
    warning_problems: list[SheetProblem] = field(default_factory=list)
    costs: list[tuple[str, int]] = field(default_factory=list)
    names: dict[int, str] = field(default_factory=dict)  # the kingdom's armies, to word problems
    treasury: int = 0  # as it stands now
    taxes: int = 0  # what this turn's 1. Tally Gold will bring (net of Imperial Taxation)
    # Spending Experience: army -> each purchase's words and its cost in experience
    experience_costs: dict[int, list[tuple[str, int]]] = field(default_factory=dict)
    experience: dict[int, int] = field(default_factory=dict)  # each army's experience as it stands

    def experience_spent(self, army: int) -> int:
        return sum(cost for _, cost in self.experience_costs.get(army, ()))

    def experience_rows(self) -> list[dict[str, Any]]:
        """Each army's experience, with what the sheet spends of it (Spending Experience)."""
        return [
            {
                "army": army,
                "name": self.names.get(army, f"Army {army}"),
                "experience": balance,
                "spent": self.experience_spent(army),
                "left": balance - self.experience_spent(army),
                "purchases": [{"what": what, "cost": cost} for what, cost in self.experience_costs.get(army, ())],
            }
            for army, balance in sorted(self.experience.items())
        ]

    @property
    def available(self) -> int:
        """What the sheet may spend: 1. Tally Gold comes before 3. Create / Upgrade Armies."""
        return self.treasury + self.taxes

    @property
    def errors(self) -> list[str]:
        return [p.message(self.names) for p in self.error_problems]

    @property
    def warnings(self) -> list[str]:
        return [p.message(self.names) for p in self.warning_problems]

    @property
    def gold(self) -> int:
        return sum(amount for _, amount in self.costs)

    @property
    def ok(self) -> bool:
        return not self.error_problems


def order_sheet_check(entries: SheetEntries, ctx: SheetContext) -> SheetCheck:
    """Check a whole sheet: errors refuse it, warnings point at orders that are legal but
    probably mistaken, costs list the gold it spends."""
    check = SheetCheck(
        names={a.id: a.name for a in ctx.armies.values()},
        treasury=ctx.treasury,
        taxes=ctx.taxes,
        experience={a.id: a.experience for a in ctx.armies.values()},
    )
    upgraded = {u.army for u in entries.upgrades}
    _check_orders(entries, ctx, upgraded, check)
    _check_losses(entries, ctx, check)
    _check_creations(entries, ctx, check)
    _check_upgrades(entries, ctx, check)
    _check_depots(entries, ctx, check)
    _check_garrisons(entries, ctx, check)
    from rulebook.experience.purchases import check_purchases  # it reads this module's records: imported when used

    check_purchases(entries, ctx, check)
    _check_alliances(entries, ctx, check)
    _check_transfers(entries, ctx, check)
    _check_land_deals(entries, ctx, check)
    _check_capitol_moves(entries, ctx, check)
    if check.gold > check.available:
        check.error_problems.append(
            SheetProblem(
                SheetProblemCode.OVER_BUDGET,
                f"The sheet spends {check.gold:,} gold but the treasury holds {check.treasury:,} and this turn's "
                f"taxes bring {check.taxes:,}: {check.gold - check.available:,} gold short (Treasury; 1. Tally Gold "
                "comes before 3. Create / Upgrade Armies).",
            )
        )
    _warnings(entries, ctx, check)
    return check


def entry_at(part: str, entry: int, entry_field: str) -> dict[str, Any]:
    """A problem's place: the entry of the sheet's `part` it is about, and the entry's field."""
    return {"part": part, "entry": entry, "entry_field": entry_field}


def _where(ctx: SheetContext, number: int | None) -> str:
    province = ctx.province(number) if number is not None else None
    return str(province) if province else f"province {number}"


def _no_such_army(army_id: int) -> SheetProblem:
    # Named by id: it is none of the kingdom's armies, so the message says "Army <id>".
    return SheetProblem(SheetProblemCode.NO_SUCH_ARMY, "is not one of your active armies.", army_id, subject=True)


def _check_orders(entries: SheetEntries, ctx: SheetContext, upgraded: set[int], check: SheetCheck) -> None:
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
    for order in entries.orders:
        army = ctx.armies.get(order.army)
        if army is None:
            check.error_problems.append(_no_such_army(order.army))
            continue
        check.error_problems += _order_errors(order, army, ctx, army.id in upgraded)


def army_order_problems(order: ArmyOrder, ctx: SheetContext) -> list[SheetProblem]:
    """What the check finds wrong with one army's order alone (no other entry of the sheet): the
    legal targets the sheet offers are the ones it accepts (rulebook.turn.write_orders.targets)."""
    army = ctx.armies.get(order.army)
    return [_no_such_army(order.army)] if army is None else _order_errors(order, army, ctx, upgrading=False)


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
                problem(SheetProblemCode.ALREADY_THERE, f"the army is already in {_where(ctx, order.target)}.")
            )
        elif not ctx.adjacent(army.province, order.target):
            errors.append(
                problem(
                    SheetProblemCode.NOT_ADJACENT,
                    f"{_where(ctx, order.target)} is not adjacent to {here}; an army moves into a single adjacent "
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
        if order.kind not in (OrderKind.SUPPORT, OrderKind.MOVE):
            errors.append(
                problem(
                    SheetProblemCode.SUPPORT_WRONG_ORDER,
                    "only Move or Support orders may support a battle (4. Write Orders).",
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
                    f"{_where(ctx, order.support)} does not border {here}; an army supports battles in provinces "
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
                f"{_where(ctx, army.province)} is not a desert; a Scarab Amulet turns the Desert the army stands "
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


def garrisoned_by(world: World, number: int, kingdom: int) -> bool:
    """Battle for Towns, Cities, and Capitols: province `number` has a garrison that fights for
    `kingdom`: a town or city it controls, or its capitol (the Ancient Dead's is the pyramid)."""
    province = world.provinces.get(number)
    if province is None or province.controller != kingdom:
        return False
    return province.settlement.town_or_city or world.kingdoms[kingdom].capitol == number


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
            f"{_where(ctx, end)} is not a town, city or capitol of yours: no garrison there can fight "
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
                f"{_where(ctx, first)} is not adjacent to {_where(ctx, army.province)} (Forced March).",
            )
        )
    if second == army.province:
        errors.append(
            problem(
                SheetProblemCode.FORCED_MARCH_NOT_ADJACENT,
                f"the path ends in {_where(ctx, second)}, where the army stands; a Forced March moves it two "
                "provinces (Forced March).",
            )
        )
    elif not ctx.adjacent(first, second):
        errors.append(
            problem(
                SheetProblemCode.FORCED_MARCH_NOT_ADJACENT,
                f"{_where(ctx, second)} is not adjacent to {_where(ctx, first)} (Forced March).",
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


def _check_alliances(entries: SheetEntries, ctx: SheetContext, check: SheetCheck) -> None:
    """Allies: an alliance is declared with another player's kingdom the Alliance Chart lets the
    kingdom ally with, one a turn, neither of the two allied already ("only a total of two kingdoms
    per alliance"), for 1,000 gold; an end is announced to an ally."""
    world = ctx.world
    own = world.kingdoms[ctx.kingdom]
    if len(entries.alliances) > 1:
        check.error_problems.append(
            SheetProblem(
                SheetProblemCode.ALLIANCE_TWICE,
                f"The sheet declares {len(entries.alliances)} alliances; there can be only a total of two kingdoms "
                "per alliance, so a kingdom declares one (Allies).",
            )
        )
    for declared in entries.alliances:
        other = world.kingdoms.get(declared.kingdom)
        if other is None or other.id == ctx.kingdom or other.ancient_dead:
            check.error_problems.append(
                SheetProblem(
                    SheetProblemCode.ALLIANCE_NO_SUCH_KINGDOM,
                    f"Kingdom {declared.kingdom} is not another player's kingdom of this campaign: an alliance is "
                    "declared with one (Allies).",
                )
            )
            continue
        trust = trust_level(own.army_type, other.army_type)
        if trust is TrustLevel.DISALLOWED:
            check.error_problems.append(
                SheetProblem(
                    SheetProblemCode.ALLIANCE_DISALLOWED,
                    f"{own.army_type.label} and {other.army_type.label} cannot ally: the Alliance Chart marks them "
                    f"X ({other.name}; Allies).",
                )
            )
            continue
        if world.allied(ctx.kingdom, other.id):
            check.error_problems.append(
                SheetProblem(
                    SheetProblemCode.ALLIANCE_FULL,
                    f"You are already allied with {other.name} (Allies).",
                )
            )
            continue
        busy = [k for k in (own, other) if world.alliance_of(k.id) is not None]
        if busy:
            check.error_problems.append(
                SheetProblem(
                    SheetProblemCode.ALLIANCE_FULL,
                    f"{' and '.join(k.name for k in busy)} {'is' if len(busy) == 1 else 'are'} already in an alliance: "
                    "there can be only a total of two kingdoms per alliance (Allies).",
                )
            )
            continue
        check.costs.append((f"Alliance with {other.name} ({trust.label})", ALLIANCE_GOLD))
    for ended in entries.alliance_ends:
        other = world.kingdoms.get(ended.kingdom)
        if other is None or not world.allied(ctx.kingdom, other.id):
            name = other.name if other is not None else f"Kingdom {ended.kingdom}"
            check.error_problems.append(
                SheetProblem(
                    SheetProblemCode.ALLIANCE_NOT_ALLIED,
                    f"{name} is not your ally: there is no alliance to announce the end of (Allies, Announcement).",
                )
            )


def _receiver(ctx: SheetContext, kingdom: int) -> KingdomState | None:
    """Transfer of Gold: the other player's kingdom of the campaign a transfer goes to (None: not one)."""
    other = ctx.world.kingdoms.get(kingdom)
    return None if other is None or other.id == ctx.kingdom or other.ancient_dead else other


def _check_transfers(entries: SheetEntries, ctx: SheetContext, check: SheetCheck) -> None:
    """Transfer of Gold: to another player's kingdom of the campaign, a positive amount, the 10%
    fee paid on top by the sender (counted in what the sheet spends)."""
    _check_item_transfers(entries, ctx, check)
    for index, transfer in enumerate(entries.gold_transfers):
        other = _receiver(ctx, transfer.kingdom)
        if other is None:
            check.error_problems.append(
                SheetProblem(
                    SheetProblemCode.TRANSFER,
                    f"Kingdom {transfer.kingdom} is not another player's kingdom of this campaign: gold is "
                    "transferred to one (Transfer of Gold).",
                    **entry_at("gold_transfers", index, "kingdom"),
                )
            )
            continue
        if transfer.gold <= 0:
            check.error_problems.append(
                SheetProblem(
                    SheetProblemCode.TRANSFER,
                    f"A transfer to {other.name} of {transfer.gold:,} gold: transfer a positive amount "
                    "(Transfer of Gold).",
                    **entry_at("gold_transfers", index, "gold"),
                )
            )
            continue
        fee = transfer_fee(transfer.gold)
        check.costs.append(
            (
                f"Transfer {transfer.gold:,} gold to {other.name} (+{fee:,} transportation fee; arrives at the "
                f"beginning of turn {ctx.turn + TRANSFER_ARRIVES_AFTER})",
                transfer.gold + fee,
            )
        )


def _check_item_transfers(entries: SheetEntries, ctx: SheetContext, check: SheetCheck) -> None:
    """Transfer of Gold: "Kingdoms may transfer gold and items between each other ... An item's gold
    cost is double its point value": an item the kingdom holds (as many of a name as it holds), to
    another player's kingdom; the sender pays 10% of the item's gold cost (counted in what the sheet
    spends). Decision 143."""
    sent: Counter[str] = Counter()
    for index, transfer in enumerate(entries.item_transfers):
        other = _receiver(ctx, transfer.kingdom)
        name = transfer.item.strip()
        if other is None:
            check.error_problems.append(
                SheetProblem(
                    SheetProblemCode.ITEM_TRANSFER,
                    f"Kingdom {transfer.kingdom} is not another player's kingdom of this campaign: {name or 'an item'} "
                    "is transferred to one (Transfer of Gold).",
                    **entry_at("item_transfers", index, "kingdom"),
                )
            )
            continue
        held = ctx.roster.held_items(name)
        sent[name.lower()] += 1
        if len(held) < sent[name.lower()]:
            have = f"holds {len(held)}" if held else "holds no magic item of that name"
            check.error_problems.append(
                SheetProblem(
                    SheetProblemCode.ITEM_TRANSFER,
                    f"The transfer of {name or 'an item'} to {other.name}: the kingdom {have}, in its armies or its "
                    "armory (Transfer of Gold).",
                    **entry_at("item_transfers", index, "item"),
                )
            )
            continue
        item = held[sent[name.lower()] - 1]
        fee = item_transfer_fee(item.points)
        check.costs.append(
            (
                f"Transfer {item.name} ({item.points} points, {item.points * 2:,} gold) to {other.name} (+{fee:,} "
                f"transportation fee; arrives at the beginning of turn {ctx.turn + TRANSFER_ARRIVES_AFTER})",
                fee,
            )
        )


def _check_land_deals(entries: SheetEntries, ctx: SheetContext, check: SheetCheck) -> None:
    """Land Sales: "Provinces may be given away, bought, or traded at the rate of one province per turn
    per player receiving the land ... Towns or cities may not be given away or sold": one deal per
    other kingdom a turn, the province given one's own and neither a town, a city nor the capitol;
    the gold paid is counted in what the sheet spends."""
    world = ctx.world
    seen: set[int] = set()
    given: set[int] = set()
    for index, deal in enumerate(entries.land_deals):
        other = world.kingdoms.get(deal.kingdom)
        if other is None or other.id == ctx.kingdom or other.ancient_dead or other.rogue:
            check.error_problems.append(
                SheetProblem(
                    SheetProblemCode.LAND_SALE,
                    f"Kingdom {deal.kingdom} is not another player's kingdom of this campaign: land is given, sold "
                    "or traded to one (Land Sales).",
                    **entry_at("land_deals", index, "kingdom"),
                )
            )
            continue
        if other.id in seen:
            check.error_problems.append(
                SheetProblem(
                    SheetProblemCode.LAND_SALE_TWICE,
                    f"A second land deal with {other.name} this turn: provinces change hands at the rate of one "
                    "province per turn per player receiving the land (Land Sales).",
                    **entry_at("land_deals", index, "kingdom"),
                )
            )
            continue
        seen.add(other.id)
        if deal.gold < 0:
            check.error_problems.append(
                SheetProblem(
                    SheetProblemCode.LAND_SALE,
                    f"The land deal with {other.name} pays {deal.gold:,} gold: pay 0 or more (Land Sales).",
                    **entry_at("land_deals", index, "gold"),
                )
            )
        if deal.province is not None:
            province = world.provinces.get(deal.province)
            why = ""
            if province is None or province.controller != ctx.kingdom:
                why = f"province {deal.province} is not yours to give"
            elif province.settlement in ("town", "city") or world.kingdoms[ctx.kingdom].capitol == province.number:
                held = province.settlement if province.settlement in ("town", "city") else "capitol"
                why = f"{province} holds a {held}: towns or cities may not be given away or sold"
            elif province.number in given:
                why = f"{province} is given twice"
            if why:
                check.error_problems.append(
                    SheetProblem(
                        SheetProblemCode.LAND_SALE,
                        f"The land deal with {other.name}: {why} (Land Sales).",
                        **entry_at("land_deals", index, "province"),
                    )
                )
                continue
            given.add(deal.province)
        if deal.gold > 0:
            check.costs.append((f"Land deal with {other.name}: {deal.gold:,} gold", deal.gold))


def _check_capitol_moves(entries: SheetEntries, ctx: SheetContext, check: SheetCheck) -> None:
    """Loss of the Capitol: the capitol moves to another city of the kingdom where its Warlord stands,
    for 1,000 gold (once a turn); after the capitol was lost, the coronation is free (decision 159)."""
    for index, move in enumerate(entries.capitol_moves):
        why = capitol_move_refusal(ctx.world, ctx.kingdom, move.province)
        if why:
            check.error_problems.append(
                SheetProblem(
                    SheetProblemCode.CAPITOL,
                    f"{why} (Loss of the Capitol).",
                    **entry_at("capitol_moves", index, "province"),
                )
            )
            continue
        check.costs.append((f"Move the capitol to {ctx.world.provinces[move.province]}", CAPITOL_MOVE_GOLD))
    if len(entries.capitol_moves) > 1:
        check.error_problems.append(
            SheetProblem(
                SheetProblemCode.CAPITOL,
                "The capitol moves once a turn (Loss of the Capitol).",
                **entry_at("capitol_moves", 1, "province"),
            )
        )


CAPITOL_MOVE_GOLD = 1000  # Loss of the Capitol: "will cost 1,000 gold pieces"


def capitol_move_refusal(world: World, kingdom: int, number: int) -> str:
    """Why the kingdom's capitol cannot move to province `number` now ("" when it can): another city
    of the kingdom's, with the Warlord's army standing in it."""
    province = world.provinces.get(number)
    own = world.kingdoms[kingdom]
    if own.capitol_lost_turn is not None:
        return "Your capitol is lost: your Warlord is crowned in a city of yours it stands in, with no order or gold"
    if province is None or province.controller != kingdom or province.settlement != "city":
        return f"Province {number} is not a city of yours: the capitol moves to another of your cities"
    if own.capitol == number:
        return f"{province} is your capitol already"
    warlord = world.armies.get(own.warlord_army) if own.warlord_army is not None else None
    if warlord is None or warlord.province != number:
        return f"Your Warlord does not stand in {province}: the Warlord moves the capitol to the city it is in"
    return ""


def _check_losses(entries: SheetEntries, ctx: SheetContext, check: SheetCheck) -> None:
    """The unit named to take an army's losses first: one of its list's rank and file (a character
    never takes them), one choice per army."""
    for army_id, count in Counter(c.army for c in entries.losses).items():
        if count > 1 and army_id in ctx.armies:
            check.error_problems.append(
                SheetProblem(
                    SheetProblemCode.LOSSES_FROM,
                    "names more than one unit to take its losses first.",
                    army_id,
                    subject=True,
                )
            )
    for choice in entries.losses:
        army = ctx.armies.get(choice.army)
        if army is None:
            check.error_problems.append(_no_such_army(choice.army))
            continue
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


def _check_creations(entries: SheetEntries, ctx: SheetContext, check: SheetCheck) -> None:
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
            check.error_problems.append(
                SheetProblem(
                    SheetProblemCode.ARMY_LIMIT,
                    f"Creating {len(entries.creations)} army(ies) would give the kingdom {total} armies; with "
                    f"{controlled} provinces and {ctx.player_count} players the Army Table allows {allowed}.",
                )
            )


def creation_problems(creation: CreateArmy, ctx: SheetContext) -> list[SheetProblem]:
    """What the check finds wrong with one new army alone (the sheet's other entries aside)."""
    check = SheetCheck()
    _check_creations(SheetEntries(creations=(creation,)), ctx, check)
    return check.error_problems


def _in_own_settlement(army: ArmyState, ctx: SheetContext) -> ProvinceState | None:
    province = ctx.province(army.province)
    if province and province.settlement in ("town", "city") and province.controller == ctx.kingdom:
        return province
    return None


def _check_upgrades(entries: SheetEntries, ctx: SheetContext, check: SheetCheck) -> None:
    for army_id, count in Counter(u.army for u in entries.upgrades).items():
        if count > 1 and army_id in ctx.armies:
            check.error_problems.append(
                SheetProblem(SheetProblemCode.UPGRADED_TWICE, "is upgraded twice in one sheet.", army_id, subject=True)
            )
    for upgrade in entries.upgrades:
        army = ctx.armies.get(upgrade.army)
        if army is None:
            check.error_problems.append(_no_such_army(upgrade.army))
            continue
        where = _in_own_settlement(army, ctx)
        if where is None:
            check.error_problems.append(
                SheetProblem(
                    SheetProblemCode.UPGRADE_NOT_IN_SETTLEMENT,
                    "an army is upgraded in a town or city you control; it stands in "
                    f"{_where(ctx, army.province)} (3. Create / Upgrade Armies).",
                    army.id,
                )
            )
        elif where.looted_in(ctx.turn):
            check.error_problems.append(
                SheetProblem(
                    SheetProblemCode.LOOTED,
                    f"{where} was looted and cannot upgrade armies until the start of the next full turn (Looting).",
                    army.id,
                )
            )
        if upgrade.points <= army.size:
            check.error_problems.append(
                SheetProblem(
                    SheetProblemCode.UPGRADE_NOT_LARGER,
                    f"an upgrade to {upgrade.points:,} points does not raise the army above its {army.size:,} "
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
        else:
            check.costs.append(
                (f"Upgrade {army.name} from {army.size:,} to {upgrade.points:,} points", upgrade.points - army.size)
            )


def _check_depots(entries: SheetEntries, ctx: SheetContext, check: SheetCheck) -> None:
    for army_id, count in Counter(d.army for d in entries.depots).items():
        if count > 1 and army_id in ctx.armies:
            check.error_problems.append(
                SheetProblem(
                    SheetProblemCode.DEPOT_TWICE,
                    "a supply depot is bought twice in one sheet; an army has one supply depot at a time.",
                    army_id,
                )
            )
    for depot in entries.depots:
        army = ctx.armies.get(depot.army)
        if army is None:
            check.error_problems.append(_no_such_army(depot.army))
            continue
        if army.supply_depot:
            check.error_problems.append(
                SheetProblem(SheetProblemCode.DEPOT_HELD, "already has a supply depot.", army.id, subject=True)
            )
        elif _in_own_settlement(army, ctx) is None:
            check.error_problems.append(
                SheetProblem(
                    SheetProblemCode.DEPOT_NOT_IN_SETTLEMENT,
                    "a replacement supply depot is bought in a town or city; the army stands in "
                    f"{_where(ctx, army.province)} (Supply Depot).",
                    army.id,
                )
            )
        else:
            check.costs.append((f"Supply depot for {army.name}", SUPPLY_DEPOT_GOLD))


def _check_garrisons(entries: SheetEntries, ctx: SheetContext, check: SheetCheck) -> None:
    for number, count in Counter(g.province for g in entries.garrisons).items():
        if count > 1:
            check.error_problems.append(
                SheetProblem(
                    SheetProblemCode.GARRISON_TWICE, f"{_where(ctx, number)} is reinforced twice in one sheet."
                )
            )
    for garrison in entries.garrisons:
        province = ctx.province(garrison.province)
        if province is None:
            check.error_problems.append(
                SheetProblem(SheetProblemCode.NOT_ON_MAP, f"Province {garrison.province} is not on the map.")
            )
            continue
        if ctx.army_type is ArmyType.ANCIENT_DEAD:
            check.error_problems.append(
                SheetProblem(
                    SheetProblemCode.GARRISON_ANCIENT_DEAD,
                    "The Ancient Dead's garrisons cannot take an Elite Defense Force (The Ancient Dead).",
                )
            )
        elif province.controller != ctx.kingdom or province.settlement not in ("town", "city"):
            check.error_problems.append(
                SheetProblem(
                    SheetProblemCode.GARRISON_NOT_OWN_SETTLEMENT,
                    f"{province}: an Elite Defense Force reinforces the garrison of a town or city you control "
                    "(Battle for Towns, Cities, and Capitols).",
                )
            )
        elif province.elite_defense:
            check.error_problems.append(
                SheetProblem(
                    SheetProblemCode.GARRISON_REINFORCED,
                    f"{province}: its garrison already has an Elite Defense Force.",
                )
            )
        else:
            check.costs.append((f"Elite Defense Force for {province}", ELITE_DEFENSE_FORCE_GOLD))


def _warnings(entries: SheetEntries, ctx: SheetContext, check: SheetCheck) -> None:
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
                    f"would end in {_where(ctx, province)}: a province supports one army at a time; each rolls a "
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
                    f"supports a battle in {_where(ctx, order.support)}, where none of "
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
                    f"Every army leaves your capitol {_where(ctx, ctx.capitol)}; only its garrison will defend it.",
                )
            )
