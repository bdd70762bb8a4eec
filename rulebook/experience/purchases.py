"""The order sheet's purchases with experience: each one priced and checked (pure Python).

Rulebook sections: Spending Experience, Veteran Status, Character Archetypes and Advancement,
Warlord, Armory, Army Restrictions, Supply Depot, Army-Specific Rules. The costs and the single
refusals are rulebook.experience.spending's; this module reads a purchase against the army, its list
and the rest of the sheet. The sheet check (SheetProblem per refusal, naming the army and the rule)
and the turn's spending phase (an event per purchase) both price through `purchase_priced`.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, replace

from rulebook.ancient_dead.deserts import is_scarab_amulet
from rulebook.armies.army_lists import CATEGORIES
from rulebook.army_specific.origins import is_runic
from rulebook.experience.spending import (
    POTENTIAL_EXPERIENCE,
    SUPPLY_DEPOT_EXPERIENCE,
    PurchaseKind,
    SpendingRoster,
    advancement_cost,
    advancement_refusal,
    delivery_turn,
    equipment_cost,
    item_cost,
    potential_refusal,
    promotion_cost,
    promotion_refusal,
    recruits_cost,
    veteran_refusal,
)
from rulebook.tables import ARMY_MAX_POINTS, ArmyKind, ArmyType
from rulebook.turn.tables import UPGRADE_LOSES_EXPERIENCE_AT
from rulebook.turn.write_orders.context import SheetContext
from rulebook.turn.write_orders.problems import SheetCheck, SheetProblem, SheetProblemCode
from rulebook.turn.write_orders.records import Purchase, SheetEntries, entry_at
from rulebook.world import ArmyState, World

TROOP_CATEGORIES = tuple(c for c in CATEGORIES if c != "character")


@dataclass(frozen=True)
class PricedPurchase:
    purchase: Purchase
    cost: int  # experience
    words: str  # what is bought, e.g. "10 Spearmen (60 points)"
    points: int = 0  # the points it adds to the army (recruits, equipment, items)
    refusal: str = ""  # why the rules refuse it ("" when they do not)

    @property
    def delivered(self) -> bool:
        return self.purchase.kind in PurchaseKind.DELIVERED


def purchase_words(purchase: Purchase, army_name: str) -> str:
    """A purchase as the receipt lists it (its cost is the check's, at the turn's resolution)."""
    kind, unit = purchase.kind, purchase.unit.strip()
    if kind == PurchaseKind.RECRUITS and unit:
        what = f"{purchase.models} recruits for {unit}"
    elif kind == PurchaseKind.RECRUITS:
        name, each = purchase.name.strip(), f"{purchase.category}, {purchase.points} points each"
        what = f"a new unit of {purchase.models} {name} ({each})"
    elif kind == PurchaseKind.EQUIPMENT:
        what = f"{purchase.points} points of equipment for {unit}"
    elif kind == PurchaseKind.ITEM:
        flags = ", ".join(f for f, on in (("common", purchase.common), ("runic", purchase.runic)) if on)
        what = f"{purchase.name.strip()} ({purchase.points} points{', ' + flags if flags else ''}) for {unit}"
    elif kind == PurchaseKind.SUPPLY_DEPOT:
        what = "a supply depot"
    elif kind == PurchaseKind.VETERAN:
        what = f"the next Veteran level for {unit}"
    elif kind == PurchaseKind.ADVANCEMENT:
        what = f"a roll on {unit}'s Archetype Advancement Table"
    elif kind == PurchaseKind.PROMOTION:
        what = f"{unit} promoted to a Lord of {purchase.points} points"
    elif kind == PurchaseKind.POTENTIAL:
        what = f"{unit}'s Potential, one more magic level"
    else:
        what = kind
    return f"{army_name} spends experience on {what}"


# Battle for Towns, Cities, and Capitols: "The composition of the Elite Defense Force cannot change and is
# treated as an army in the field in all manners": it spends its experience as an army does, on what leaves
# its composition as it is (decision 620): its units' Veteran Status, its General's Archetype roll and his
# Potential. Recruits, equipment and magic items would change it; it never leaves its town, so it needs no
# supply depot; its hero is no Warlord to be promoted.
ELITE_DEFENSE_FORCE_PURCHASES = frozenset({PurchaseKind.VETERAN, PurchaseKind.ADVANCEMENT, PurchaseKind.POTENTIAL})


def purchase_priced(
    purchase: Purchase, army: ArmyState, army_type: ArmyType, world: World, roster: SpendingRoster
) -> PricedPurchase:
    """The purchase's cost in experience, in words, and what the rules say against it on its own
    (what it does beside the sheet's other purchases is `check_purchases`'s)."""
    priced = _priced(purchase, army, army_type, world, roster)
    if (
        army.kind is ArmyKind.GARRISON
        and purchase.kind in PurchaseKind.ALL
        and purchase.kind not in ELITE_DEFENSE_FORCE_PURCHASES
    ):
        return replace(
            priced,
            refusal=(
                "the composition of an Elite Defense Force cannot change: it spends its experience on Veteran "
                "Status, its General's Archetype roll or his Potential (Battle for Towns, Cities, and Capitols)."
            ),
        )
    return priced


def _priced(
    purchase: Purchase, army: ArmyState, army_type: ArmyType, world: World, roster: SpendingRoster
) -> PricedPurchase:
    kind = purchase.kind
    if kind == PurchaseKind.RECRUITS:
        return _recruits(purchase, roster)
    if kind == PurchaseKind.EQUIPMENT:
        unit = roster.unit(army.id, purchase.unit)
        words = f"{purchase.points} points of equipment for {purchase.unit.strip() or 'a unit'}"
        refusal = "" if unit else _not_listed(purchase)
        if purchase.points <= 0:
            refusal = refusal or "equipment is bought by its points, more than 0 (Spending Experience)."
        return PricedPurchase(purchase, equipment_cost(purchase.points), words, purchase.points, refusal)
    if kind == PurchaseKind.ITEM:
        return _item(purchase, army, army_type, world, roster)
    if kind == PurchaseKind.SUPPLY_DEPOT:
        refusal = ""
        if army.supply_depot:
            refusal = "already has a supply depot (Supply Depot)."
        elif army.id in roster.depots_on_the_way:
            refusal = "already has a supply depot on the way (Supply Depot)."
        return PricedPurchase(purchase, SUPPLY_DEPOT_EXPERIENCE, "a supply depot", 0, refusal)
    if kind == PurchaseKind.VETERAN:
        unit = roster.unit(army.id, purchase.unit)
        if unit is None:
            return PricedPurchase(purchase, 10, f"Veteran Status for {purchase.unit}", 0, _not_listed(purchase))
        words = f"{unit.name} to +{unit.veteran_level + 1} Veteran"
        return PricedPurchase(purchase, 10, words, 0, veteran_refusal(unit, army_type))
    if kind == PurchaseKind.ADVANCEMENT:
        character = roster.character(army.id, purchase.unit)
        cost = advancement_cost(army_type)
        words = f"a roll on {purchase.unit.strip() or 'the General'}'s Archetype Advancement Table"
        if character is None:
            return PricedPurchase(purchase, cost, words, 0, _not_a_character(purchase))
        return PricedPurchase(purchase, cost, words, 0, advancement_refusal(character))
    if kind == PurchaseKind.PROMOTION:
        character = roster.character(army.id, purchase.unit)
        words = f"{purchase.unit.strip() or 'the Warlord'} promoted to Lord level ({purchase.points} points)"
        if character is None:
            return PricedPurchase(purchase, 0, words, 0, _not_a_character(purchase))
        cost = promotion_cost(character, purchase.points)
        # His model costs the Lord's points from then on: the army grows by the difference.
        return PricedPurchase(purchase, cost, words, cost, promotion_refusal(character, purchase.points))
    if kind == PurchaseKind.POTENTIAL:
        character = roster.character(army.id, purchase.unit)
        words = f"{purchase.unit.strip() or 'the Magician'}'s Potential (one more magic level)"
        if character is None:
            return PricedPurchase(purchase, POTENTIAL_EXPERIENCE, words, 0, _not_a_character(purchase))
        return PricedPurchase(purchase, POTENTIAL_EXPERIENCE, words, 0, potential_refusal(character))
    return PricedPurchase(
        purchase, 0, kind, 0, f"'{kind}' is not a purchase; use one of {', '.join(PurchaseKind.ALL)}."
    )


def _not_listed(purchase: Purchase) -> str:
    return f"{purchase.unit.strip() or 'the unit named'} is not a unit of its list (Spending Experience)."


def _not_a_character(purchase: Purchase) -> str:
    who = purchase.unit.strip() or "the character named"
    return f"{who} is not a living character of the army (Spending Experience)."


def _recruits(purchase: Purchase, roster: SpendingRoster) -> PricedPurchase:
    if purchase.unit.strip():
        unit = roster.unit(purchase.army, purchase.unit)
        if unit is None:
            return PricedPurchase(purchase, 0, f"recruits for {purchase.unit}", 0, _not_listed(purchase))
        points = purchase.models * unit.points_per_model
        words = f"{purchase.models} {unit.name} ({points} points)"
        refusal = ""
        if unit.category == "character":
            refusal = f"{unit.name} is a character, one model; recruits join units (Spending Experience)."
        elif purchase.models <= 0:
            refusal = "recruits are bought by the model, at least one (Spending Experience)."
        return PricedPurchase(purchase, recruits_cost(points), words, points, refusal)
    points = purchase.models * purchase.points
    name = purchase.name.strip()
    words = f"a new unit of {purchase.models} {name or '(no name)'} ({points} points)"
    refusal = ""
    if not name:
        refusal = "a new unit of recruits needs a name (Spending Experience)."
    elif roster.unit(purchase.army, name) is not None:
        refusal = f"the list already has a unit named {name}; buy recruits for it by naming it as the unit."
    elif purchase.category not in TROOP_CATEGORIES:
        refusal = f"{name}: a new unit is core, special or rare; characters are not recruited (Spending Experience)."
    elif purchase.models <= 0 or purchase.points <= 0:
        refusal = f"{name}: say how many models and their points each (Spending Experience)."
    return PricedPurchase(purchase, recruits_cost(points), words, points, refusal)


def _item(
    purchase: Purchase, army: ArmyState, army_type: ArmyType, world: World, roster: SpendingRoster
) -> PricedPurchase:
    province = world.provinces.get(army.province)
    in_town_or_city = province is not None and province.settlement.town_or_city
    runic = purchase.runic or is_runic(purchase.name)  # a rune in the name is runic, ticked or not
    cost = item_cost(purchase.points, runic=runic, army_type=army_type, in_town_or_city=in_town_or_city)
    name = purchase.name.strip()
    words = f"{name or 'a magic item'} ({purchase.points} points) for {purchase.unit.strip() or 'a character'}"
    refusal = ""
    if not name:
        refusal = "a magic item needs its name (Armory)."
    elif is_scarab_amulet(name):
        refusal = (
            "a Scarab Amulet is not bought; it is found in ruins (Ruins: Treasure from the Ruins; Tomb Raiders) "
            "and the organizer adds it to the list (rules decision 110)."
        )
    elif purchase.points < 0:
        refusal = f"{name} cannot cost negative points."
    elif roster.character(army.id, purchase.unit) is None:
        refusal = f"{name} is carried by a character: {_not_a_character(purchase)}"
    elif not purchase.common and name.lower() in roster.items:
        refusal = (
            f"the kingdom already has {name} (in an army, its armory or on the way), or lost it with an army "
            '("your kingdom does not get another one"); it has only one of each magic item that is not common '
            "(Armory)."
        )
    return PricedPurchase(purchase, cost, words, purchase.points, refusal)


def check_purchases(entries: SheetEntries, ctx: SheetContext, check: SheetCheck) -> None:
    """Each purchase priced and checked; then each army's purchases together: one Veteran level and
    one roll per unit or General a sheet, one supply depot, one of each armory item, the experience
    it has, and never past 2,000 points counting what is on the way (Army Restrictions)."""
    if not entries.purchases:
        return
    arrives = delivery_turn(ctx.turn)
    by_army: dict[int, list[PricedPurchase]] = {}
    by_army_state: dict[int, ArmyState] = {}
    rows: dict[int, int] = {}  # id(priced) -> its entry: a problem stands beside the row that mends it
    for index, purchase in enumerate(entries.purchases):
        army = ctx.spender(purchase.army)  # an army, or an Elite Defense Force (decision 620)
        if army is None or army.disbanded:
            check.error_problems.append(
                SheetProblem(
                    SheetProblemCode.NO_SUCH_ARMY,
                    "is not one of your active armies; only an army spends its experience (Spending Experience).",
                    purchase.army,
                    subject=True,
                    **entry_at("purchases", index, "army"),
                )
            )
            continue
        priced = purchase_priced(purchase, army, ctx.army_type, ctx.world, ctx.roster)
        by_army.setdefault(army.id, []).append(priced)
        by_army_state[army.id] = army
        rows[id(priced)] = index
        if priced.refusal:
            check.error_problems.append(
                SheetProblem(
                    SheetProblemCode.PURCHASE,
                    priced.refusal,
                    army.id,
                    **entry_at("purchases", index, refused_field(purchase)),
                )
            )
            continue
        when = f", arriving at the start of turn {arrives}" if priced.delivered else ""
        check.experience_costs.setdefault(army.id, []).append((f"{priced.words}{when}", priced.cost))

    gold_depots = {d.army for d in entries.depots}
    # 3. Create / Upgrade Armies comes first, with the gold: the sheet's upgrades (those that raise the
    # army) set the size its purchases are counted on, and one of 500 points or more leaves it no
    # experience to spend (decisions 608, 609).
    upgraded = {
        u.army: u.points for u in entries.upgrades if u.army in ctx.armies and u.points > ctx.armies[u.army].points
    }
    items = [
        (index, p.name.strip().lower())
        for index, p in enumerate(entries.purchases)
        if p.kind == PurchaseKind.ITEM and not p.common
    ]
    counts = Counter(name for _, name in items)
    for name, count in counts.items():
        if count > 1:
            second = [index for index, bought in items if bought == name][1]
            check.error_problems.append(
                SheetProblem(
                    SheetProblemCode.PURCHASE,
                    f"The sheet buys {name} {count} times; the kingdom has only one of each magic item that is not "
                    "common (Armory).",
                    **entry_at("purchases", second, "name"),
                )
            )
    for army_id, bought in sorted(by_army.items()):
        army = by_army_state[army_id]
        _once_each(army, bought, gold_depots, check, rows, ctx.roster)
        # The army's purchases together: beside the last of them, the one that tips it over.
        last = entry_at("purchases", rows[id(bought[-1])], "army")
        size = upgraded.get(army_id)
        if size is not None and size - army.points >= UPGRADE_LOSES_EXPERIENCE_AT:
            check.error_problems.append(
                SheetProblem(
                    SheetProblemCode.PURCHASE,
                    f"is upgraded from {army.points:,} to {size:,} points on this sheet: adding "
                    f"{UPGRADE_LOSES_EXPERIENCE_AT} points or more, it loses all its experience points and veteran "
                    "status (3. Create / Upgrade Armies), before its purchases with experience are made "
                    "(Spending Experience, after the gold); buy them on an earlier sheet, or upgrade by less.",
                    army_id,
                    subject=True,
                    **entry_at("purchases", rows[id(bought[0])], "army"),
                )
            )
            continue
        spent = check.experience_spent(army_id)
        if spent > army.experience:
            check.error_problems.append(
                SheetProblem(
                    SheetProblemCode.EXPERIENCE_SHORT,
                    f"spends {spent} experience on its purchases but has {army.experience} (Spending Experience).",
                    army_id,
                    subject=True,
                    **last,
                )
            )
        added = sum(p.points for p in bought if not p.refusal)
        on_the_way = ctx.roster.on_the_way_points.get(army_id, 0)
        # An army the sheet upgrades is recreated at its new size before its purchases arrive.
        base = army.points if size is None else size
        if added and base + on_the_way + added > ARMY_MAX_POINTS:
            way = f" with {on_the_way} points on the way" if on_the_way else ""
            now = f"counts {army.points:,} points" if size is None else f"is upgraded to {size:,} points on this sheet"
            check.error_problems.append(
                SheetProblem(
                    SheetProblemCode.ARMY_SIZE,
                    f"{now}{way}; buying {added:,} more would take it past the maximum army "
                    f"size of {ARMY_MAX_POINTS:,} points (Army Restrictions).",
                    army_id,
                    **last,
                )
            )


def refused_field(purchase: Purchase) -> str:
    """The field of a purchase its refusal on its own is about, for the row that shows it: the unit
    or character it is for, the new unit's or item's name, or what is bought."""
    if purchase.kind == PurchaseKind.ITEM or (purchase.kind == PurchaseKind.RECRUITS and not purchase.unit.strip()):
        return "name"
    if purchase.kind == PurchaseKind.SUPPLY_DEPOT or purchase.kind not in PurchaseKind.ALL:
        return "kind"
    return "unit"


def _once_each(
    army: ArmyState,
    priced: list[PricedPurchase],
    gold_depots: set[int],
    check: SheetCheck,
    rows: dict[int, int],
    roster: SpendingRoster,
) -> None:
    """One Veteran level and one roll a unit or General, one supply depot: each problem beside the
    purchase that makes it two (`rows`: id(priced) -> its entry)."""

    def second(kinds: tuple[str, ...], name: str) -> int:
        same = [p for p in priced if p.purchase.kind in kinds and p.purchase.unit.strip().lower() == name]
        return rows[id(same[1])]

    def named(kinds: tuple[str, ...], key: str) -> str:
        # The purchases are matched case aside ("halberdiers"); the message names the unit or
        # character as its list does, else as the sheet first wrote it.
        found = roster.unit(army.id, key) or roster.character(army.id, key)
        if found is not None:
            return found.name
        return next(
            p.purchase.unit.strip()
            for p in priced
            if p.purchase.kind in kinds and p.purchase.unit.strip().lower() == key
        )

    veterans = Counter(p.purchase.unit.strip().lower() for p in priced if p.purchase.kind == PurchaseKind.VETERAN)
    for name, count in veterans.items():
        if count > 1:
            check.error_problems.append(
                SheetProblem(
                    SheetProblemCode.PURCHASE,
                    f"{named((PurchaseKind.VETERAN,), name)} is raised {count} Veteran levels in one sheet; a unit "
                    "goes up one level per battle (Veteran Status).",
                    army.id,
                    **entry_at("purchases", second((PurchaseKind.VETERAN,), name), "unit"),
                )
            )
    roll_kinds = (PurchaseKind.ADVANCEMENT, PurchaseKind.PROMOTION, PurchaseKind.POTENTIAL)
    rolls = Counter(p.purchase.unit.strip().lower() for p in priced if p.purchase.kind in roll_kinds)
    for name, count in rolls.items():
        if count > 1:
            check.error_problems.append(
                SheetProblem(
                    SheetProblemCode.PURCHASE,
                    f"{named(roll_kinds, name)} is named for more than one roll, promotion or Potential in one sheet; "
                    "one at a time (Character Archetypes and Advancement, Warlord).",
                    army.id,
                    **entry_at("purchases", second(roll_kinds, name), "unit"),
                )
            )
    depots = [p for p in priced if p.purchase.kind == PurchaseKind.SUPPLY_DEPOT]
    if len(depots) > 1 or (depots and army.id in gold_depots):
        # The second depot of the purchases, or the one beside the gold depot the army's row buys.
        check.error_problems.append(
            SheetProblem(
                SheetProblemCode.DEPOT_TWICE,
                "a supply depot is bought twice in one sheet; an army has one supply depot at a time (Supply Depot).",
                army.id,
                **entry_at("purchases", rows[id(depots[1 if len(depots) > 1 else 0])], "kind"),
            )
        )
