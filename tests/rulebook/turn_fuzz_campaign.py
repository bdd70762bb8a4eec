"""The campaign's parts beyond armies and alliances, for the turn fuzz (tests/rulebook/turn_fuzz.py):
characters (the Warlord, Generals, heroes, wizards) and their magic items, the Ancient Dead, ruins, the Tomb Raider
forces and their missions (Tomb Raid, Reconnaissance, Sabotage, the effects earned and the captives
taken), land deals, capitol moves and purchases with experience; and what a turn summary sheet reports
of them (characters lost, injury rerolls, the Warlord's heir, Tomb Raiders killed and injured).

Each generator makes only what a player can file or what the rules can leave: the entries are drafted
at random and the sheet check (turn_fuzz._sheet) keeps those it accepts; the summary sheets' entries
stay within what battles/services/summaries.py accepts (a character of the side's army in the battle,
a reroll only for a character removed as a casualty, Tomb Raiders lost among the models that went)."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable
from dataclasses import replace
from typing import TypeVar

from rulebook.experience.spending import CharacterRecord, ItemRecord, PurchaseKind, SpendingRoster, UnitRecord
from rulebook.ruins_and_tomb_raiders.force import RaiderEntry, Role, TombRaiders, force_problems
from rulebook.ruins_and_tomb_raiders.reconnaissance import Reconnaissance
from rulebook.ruins_and_tomb_raiders.rival_missions import CaptiveFate, MissionEffectState
from rulebook.ruins_and_tomb_raiders.sabotage import DESTROY_COMMUNICATION_TURNS, Sabotage
from rulebook.ruins_and_tomb_raiders.tomb_raid import MissionKind
from rulebook.tables import Archetype, ArmyKind, ArmyType, Settlement, Terrain
from rulebook.turn.aftermath.character_injuries import REROLL_DEAD, REROLL_HARMED
from rulebook.turn.aftermath.mislabeled_goods import FOUND_ITEM
from rulebook.turn.aftermath.sheets import RaidersLost
from rulebook.turn.write_orders.records import (
    ArmyOrder,
    CaptiveOrder,
    LandDeal,
    LossesFrom,
    MissionUse,
    MoveCapitol,
    OrderKind,
    Purchase,
    TombRaiderMission,
    TransferItem,
)
from rulebook.world import ArmyState, CharacterState, ItemState, KingdomState, UnitState, World, counted_points
from tests.rulebook.turn_fuzz_arrivals import OnTheWay

# Armory items by name (one of each a kingdom: Armory), the ruins' own among them (Treasure from the
# Ruins: Power Stones, Staff of Sorcery, War Banner), and a common one (any number).
ITEM_NAMES = ("Talisman of Protection", "Dispel Scroll", "Power Stones", "Staff of Sorcery", "War Banner")
COMMON_ITEM = "Potion of Strength"
T = TypeVar("T")
CHARACTER_ROLES = ("general", "general", "hero", "hero")  # besides the one Warlord a kingdom may have


# -- the world -------------------------------------------------------------------------------------


def characters_add(rng: random.Random, world: World) -> World:
    """Characters in the armies' lists, as the lists' pages enter them: a Warlord for most kingdoms (in
    one of its armies: Warlord), Generals and heroes, some of them wizards (the army's magic level,
    Deserts), and some magic items borne by them. Each is a one-model unit of its army (category
    "character"), and the army counts its items' points (kingdoms.services.world)."""
    units = dict(world.units)
    characters: dict[int, CharacterState] = {}
    items: dict[int, ItemState] = {}
    kingdoms = dict(world.kingdoms)
    next_unit = max([0, *(u.id for listed in units.values() for u in listed)]) + 1
    for army in sorted(world.armies.values(), key=lambda a: a.id):
        if army.id not in units:
            continue
        roles = [rng.choice(CHARACTER_ROLES) for _ in range(rng.choice([0, 1, 1, 2]))]
        if kingdoms[army.kingdom].warlord_army is None and rng.random() < 0.7:
            roles.insert(0, "warlord")
            kingdoms[army.kingdom] = replace(kingdoms[army.kingdom], warlord_army=army.id)
        for role in roles:
            unit = UnitState(
                next_unit, army.id, f"{role.title()} {next_unit}", "character", 1, rng.choice([60, 90, 140])
            )
            next_unit += 1
            units[army.id] = (*units[army.id], unit)
            character_id = len(characters) + 1
            characters[character_id] = CharacterState(
                character_id,
                army.kingdom,
                unit.id,
                unit.name,
                role,
                abilities=tuple(rng.sample(["tactician", "inspiring", "stubborn"], rng.randint(0, 1))),
                battles_survived=rng.randint(0, 3),
            )
            if rng.random() < 0.4:
                item_id = len(items) + 1
                name = rng.choice([*ITEM_NAMES, COMMON_ITEM])
                taken = {i.name for i in items.values() if i.kingdom == army.kingdom}
                if name != COMMON_ITEM and name in taken:
                    continue  # Armory: one of each
                common = name == COMMON_ITEM
                items[item_id] = ItemState(
                    item_id, name, rng.choice([25, 50]), unit.id, kingdom=army.kingdom, common=common
                )
    # Armory: items of no bearer (arrived by a transfer, kept from a hero gone), and items lost with an
    # army before this turn ("your kingdom does not get another one": their rows stay, destroyed).
    for k in sorted(kingdoms):
        for lost in (False, True):
            if rng.random() < 0.25:
                name = rng.choice([*ITEM_NAMES, COMMON_ITEM])
                taken = {i.name for i in items.values() if i.kingdom == k}
                if name == COMMON_ITEM or name not in taken:
                    item_id = len(items) + 1
                    items[item_id] = ItemState(
                        item_id, name, rng.choice([25, 50]), None, destroyed=lost, kingdom=k, common=name == COMMON_ITEM
                    )
    world = replace(world, units=units, characters=characters, items=items, kingdoms=kingdoms)
    return replace(world, armies={i: army_counted(world, a) for i, a in world.armies.items()})


def army_counted(world: World, army: ArmyState) -> ArmyState:
    """The army's points as kingdoms.services.world loads them: its list's units and the magic items
    they bear, or while its list is due the points paid for it, less its losses since."""
    listed = world.units.get(army.id, ())
    borne = {u.id for u in listed}
    items = sum(i.points for i in world.items.values() if i.bearer in borne and not i.destroyed)
    due = army.list_due or (army.kind is ArmyKind.FIELD and not listed)
    points = counted_points(
        size=army.size,
        list_points=sum(u.points for u in listed) + items,
        list_due=due,
        losses_before_list=army.losses_before_list,
    )
    return replace(army, points=points, list_due=due)


def ancient_dead_add(rng: random.Random, world: World) -> World:
    """Sometimes the Ancient Dead, as Setup (2) places them: their pyramid (their capitol, with its
    2,000-point Capitol Garrison) in a desert of no settlement and no army, some deserts of theirs
    around it, and their starting army at the pyramid. They are no player: they file no sheet of
    their own (the organizer's draft of their computed orders stands: The Ancient Dead: Movement)."""
    taken = {a.province for a in world.armies.values()}
    places = sorted(
        p.number
        for p in world.provinces.values()
        if p.number not in taken and p.settlement is Settlement.NONE and p.controller is None
    )
    if not places or rng.random() < 0.7:
        return world
    dead = max(world.kingdoms) + 1
    pyramid = rng.choice(places)
    provinces = dict(world.provinces)
    for number in [pyramid, *sorted(world.adjacency[pyramid])]:
        here = provinces[number]
        if number == pyramid or (number in places and rng.random() < 0.6):
            provinces[number] = replace(
                here, terrain=Terrain.DESERT, controller=dead, pyramid=number == pyramid, razed=False, fortified=False
            )
            if number != pyramid and rng.random() < 0.35:
                # Ruins: a town or city the desert sacked before the campaign's first turn played here.
                provinces[number] = replace(
                    provinces[number], settlement=Settlement.RUINS, ruin_sacked=True, ruin_raids=rng.choice([0, 0, 1])
                )
    host = max([0, *world.armies]) + 1
    return replace(
        world,
        provinces=provinces,
        kingdoms={
            **world.kingdoms,
            dead: KingdomState(dead, "The Ancient Dead", ArmyType.ANCIENT_DEAD, capitol=pyramid),
        },
        armies={
            **world.armies,
            host: ArmyState(host, dead, "Host", pyramid, size=2000, points=2000, list_due=True),
        },
        garrisons={
            **world.garrisons,
            900: ArmyState(900, dead, "Capitol Garrison", pyramid, size=2000, points=2000, kind=ArmyKind.GARRISON),
        },
    )


def rogue_kingdom_out(world: World, kingdom: int) -> World:
    """Rogue Kingdom: the player is out (kingdoms.services.rogue.rogue_rows_write): its armies and Elite
    Defense Forces leave the map (the items they bear destroyed with them), its fortifications and its
    alliance end; its provinces, towns, cities, capitol and treasury stay."""
    gone = {a for a, army in world.armies.items() if army.kingdom == kingdom}
    bearers = {u.id for a in gone for u in world.units.get(a, ())}
    return replace(
        world,
        kingdoms={**world.kingdoms, kingdom: replace(world.kingdoms[kingdom], rogue=True, warlord_army=None)},
        armies={a: army for a, army in world.armies.items() if a not in gone},
        garrisons={g: army for g, army in world.garrisons.items() if army.kingdom != kingdom},
        units={a: listed for a, listed in world.units.items() if a not in gone},
        characters={i: c for i, c in world.characters.items() if c.unit not in bearers},
        items={i: replace(x, destroyed=True) if x.bearer in bearers else x for i, x in world.items.items()},
        alliances={i: x for i, x in world.alliances.items() if kingdom not in x.members},
        provinces={
            n: replace(p, fortified=False, elite_defense=False) if p.controller == kingdom else p
            for n, p in world.provinces.items()
        },
    )


def rogue_kingdom_given(world: World, kingdom: int) -> World:
    """New Player Option: the Rogue Kingdom is a player's again ("the lands return as they were with towns,
    cities, and treasury restored (but not the armies)")."""
    return replace(world, kingdoms={**world.kingdoms, kingdom: replace(world.kingdoms[kingdom], rogue=False)})


def players_change(rng: random.Random, world: World) -> World:
    """Between two turns the organizer may mark a player out (Rogue Kingdom), or give a Rogue Kingdom to
    a new player (New Player Option)."""
    players = [k for k, x in world.kingdoms.items() if not x.rogue and not x.ancient_dead]
    rogues = [k for k, x in world.kingdoms.items() if x.rogue]
    roll = rng.random()
    if roll < 0.04 and len(players) > 2:
        return rogue_kingdom_out(world, rng.choice(players))
    if roll < 0.1 and rogues:
        return rogue_kingdom_given(world, rng.choice(rogues))
    return world


def civil_unrest_add(rng: random.Random, world: World) -> World:
    """Some provinces of no kingdom that rose in Civil Unrest after a land sale (Land Sales: "the province
    becomes a Rogue Kingdom"): plain provinces (towns and cities are never sold), no army in them."""
    taken = {a.province for a in world.armies.values()}
    provinces = dict(world.provinces)
    for number, p in world.provinces.items():
        if (
            number not in taken
            and p.settlement is Settlement.NONE
            and not p.pyramid
            and p.terrain is not Terrain.DESERT
            and rng.random() < 0.08
        ):
            provinces[number] = replace(p, controller=None, rogue=True, fortified=False)
    capitols = {k.capitol for k in world.kingdoms.values()}
    provinces = {n: p if n not in capitols else world.provinces[n] for n, p in provinces.items()}
    return replace(world, provinces=provinces)


# The effects a Reconnaissance or Sabotage leaves pending for a later turn (decision 450).
PENDING_EFFECTS = (
    Reconnaissance.ARMY_ORDERS,
    Reconnaissance.ARMY_ORDERS,
    Reconnaissance.ARMY_CONSTRUCTION_INFO,
    Sabotage.DESTROY_COMMUNICATION,
    Sabotage.DESTROY_COMMUNICATION,
    Sabotage.MISLABELED_GOODS,
    Sabotage.POISON_WELL,
    Sabotage.ASSASSINATE_SPIRITUAL_LEADER,
    Sabotage.SAPPERS,
    Sabotage.MISDIRECTION,
)


def mission_effects_add(rng: random.Random, world: World) -> World:
    """Effects earned by earlier turns' missions and still pending (mission_effects_load reads only
    those): Army Orders and Misdirection naming one of the target's armies, Destroy Communication
    within its two turns, the others waiting for their moment."""
    players = [k for k, x in world.kingdoms.items() if not x.rogue and not x.ancient_dead]
    if len(players) < 2 or rng.random() < 0.5:
        return world
    effects = {}
    for number in range(1, rng.randint(1, 4) + 1):
        spy, target = rng.sample(players, 2)
        mission = rng.choice(PENDING_EFFECTS)
        earned = world.turn - rng.choice([1, 1, 2])
        theirs = sorted(a.id for a in world.armies.values() if a.kingdom == target)
        named = mission in (Reconnaissance.ARMY_ORDERS, Sabotage.MISDIRECTION)
        effects[number] = MissionEffectState(
            number,
            spy,
            target,
            mission.value,
            earned,
            target_army=rng.choice(theirs) if named and theirs else None,
            data={"battle": 0, "how": "success"},
            expires_turn=earned + DESTROY_COMMUNICATION_TURNS if mission == Sabotage.DESTROY_COMMUNICATION else None,
        )
    # An expired Destroy Communication is no longer pending: not loaded.
    effects = {i: e for i, e in effects.items() if e.expires_turn is None or e.expires_turn >= world.turn}
    return replace(world, mission_effects=effects)


def raiders_generate(rng: random.Random, world: World) -> dict[int, TombRaiders]:
    """Most kingdoms' Tomb Raider forces, as Creating Tomb Raiders allows them (150 points at most, a
    Captain, maybe a Lieutenant, troopers): checked with the page's own check (force_problems)."""
    forces: dict[int, TombRaiders] = {}
    for k, kingdom in world.kingdoms.items():
        if kingdom.ancient_dead or rng.random() < 0.25:
            continue
        entries = [RaiderEntry("Captain", 1, rng.choice([15, 20, 25]), role=Role.CAPTAIN, leadership=8)]
        if rng.random() < 0.6:
            entries.append(RaiderEntry("Lieutenant", 1, rng.choice([10, 15]), role=Role.LIEUTENANT, leadership=7))
        entries.append(RaiderEntry("Spearmen", rng.randint(3, 8), rng.choice([6, 8, 10])))
        if rng.random() < 0.5:
            entries.append(RaiderEntry("Swordsmen", rng.randint(1, 4), rng.choice([6, 8])))
        force = TombRaiders(kingdom.army_type, tuple(entries))
        if not force_problems(force):
            forces[k] = force
    return forces


def roster_of(world: World, kingdom: int, on_the_way: Iterable[OnTheWay] = ()) -> SpendingRoster:
    """The kingdom's SpendingRoster as kingdoms.services.spending loads it from the lists: its units,
    its characters (a Warlord is a lord, the others heroes), the names of the non-common items it holds
    (wherever they are, those lost with an army too, and those on the way), the items it holds (the
    armory's, then its armies'), and the purchases on their way to its armies."""
    own = {a.id for a in world.armies.values() if a.kingdom == kingdom and not a.disbanded}
    units = tuple(
        UnitRecord(a, u.name, u.category, u.models, u.points_per_model, u.veteran_level, u.veteran_eligible, u.living)
        for a in sorted(own)
        for u in world.units.get(a, ())
    )
    army_of_unit = {u.id: a for a in own for u in world.units.get(a, ())}
    characters = tuple(
        CharacterRecord(
            army=army_of_unit[c.unit],
            name=c.name,
            role=c.role,
            rank="lord" if c.role == "warlord" else "hero",
            points=next(u.points_per_model for u in world.units[army_of_unit[c.unit]] if u.id == c.unit),
            archetype=Archetype.VETERAN.value if c.id % 3 else Archetype.MAGICIAN.value,
            abilities=c.abilities,
            battles_survived=c.battles_survived,
            wizard=c.id % 3 == 0,
        )
        for c in sorted(world.characters.values(), key=lambda c: c.id)
        if c.alive and c.unit in army_of_unit
    )
    theirs = [i for i in sorted(world.items.values(), key=lambda i: i.id) if i.kingdom == kingdom]
    held = [i for i in theirs if not i.destroyed and (i.bearer is None or i.bearer in army_of_unit)]
    coming = [d for d in on_the_way if d.army in own]
    names = {i.name.strip().lower() for i in theirs if not i.common}
    names |= {
        str(d.data["name"]).strip().lower() for d in coming if d.kind == PurchaseKind.ITEM and not d.data["common"]
    }
    points: dict[int, int] = {}
    for d in coming:
        if d.army is not None and d.kind != FOUND_ITEM:
            points[d.army] = points.get(d.army, 0) + int(d.data["points"])
    return SpendingRoster(
        units=units,
        characters=characters,
        items=frozenset(names),
        on_the_way_points=points,
        depots_on_the_way=frozenset(
            d.army for d in coming if d.army is not None and d.kind == PurchaseKind.SUPPLY_DEPOT
        ),
        armory=tuple(
            sorted(
                (ItemRecord(i.id, i.name, i.points, i.common, army_of_unit.get(i.bearer or 0)) for i in held),
                key=lambda i: (i.army is not None, i.army or 0, i.id),
            )
        ),
    )


def rival_characters(world: World) -> dict[int, CharacterState]:
    """The Warlords and Generals a spy's Character Bio may name (decision 455; spied_characters_load)."""
    return {i: c for i, c in world.characters.items() if c.alive and c.role in ("warlord", "general")}


def held_items(items: Iterable[ItemState]) -> dict[int, frozenset[str]]:
    """The non-common items each kingdom holds, borne or in its armory, as the aftermath's loader reads
    them (battles/services/aftermath_state.py::_held_items: its rows, the destroyed ones too: "If the army
    containing that item is destroyed, your kingdom does not get another one", Armory; decision 431)."""
    held: dict[int, set[str]] = {}
    for item in items:
        if item.kingdom is not None and not item.common:
            held.setdefault(item.kingdom, set()).add(item.name.strip().lower())
    return {k: frozenset(names) for k, names in held.items()}


def armory_problems(world: World, items: Iterable[ItemState]) -> list[str]:
    """What the database refuses of a kingdom's magic items: two that are not common with one name
    (kingdoms.models.ArmoryItem's armory_item_unique_per_kingdom, its destroyed rows counted: Armory,
    "If the army containing that item is destroyed, your kingdom does not get another one")."""
    seen: dict[tuple[int, str], int] = {}
    for item in items:
        if item.kingdom is not None and not item.common:
            key = (item.kingdom, item.name.strip().lower())
            seen[key] = seen.get(key, 0) + 1
    return [
        f"{world.kingdoms[k].name} would hold {count} magic items named {name} (destroyed ones counted)."
        for (k, name), count in sorted(seen.items())
        if count > 1
    ]


# -- the order sheet ----------------------------------------------------------------------------------


def mission_draft(
    rng: random.Random, world: World, k: int, orders: list[ArmyOrder]
) -> tuple[TombRaiderMission | None, list[ArmyOrder]]:
    """A Tomb Raiders' mission (Using Tomb Raiders): a Tomb Raid on a ruin next to one of the kingdom's
    armies, that army ordered into it (Tomb Raid: "Provided one of your armies is moving into a province
    containing a ruin"), or a Reconnaissance or Sabotage against a rival, naming one of its armies or
    characters at random (the check refuses what the desired mission does not take)."""
    roll = rng.random()
    if roll < 0.3:
        ruins = {p.number for p in world.provinces.values() if p.settlement is Settlement.RUINS}
        for index, order in enumerate(orders):
            army = world.armies[order.army]
            near = sorted(world.adjacency[army.province] & ruins)
            if near:
                ruin = rng.choice(near)
                order_kind = rng.choice([OrderKind.MOVE, OrderKind.MOVE, OrderKind.RAZE_MOVE])
                moved = replace(order.held(), kind=order_kind, target=ruin, take_control=rng.random() < 0.2)
                mission = TombRaiderMission(province=ruin, pay_change_fee=rng.random() < 0.2)
                return mission, [*orders[:index], moved, *orders[index + 1 :]]
        return None, orders
    if roll < 0.75:
        rivals = [r for r in world.kingdoms if r != k]
        target = rng.choice(rivals)
        mission_kind = rng.choice([MissionKind.RECONNAISSANCE, MissionKind.SABOTAGE])
        listed = Reconnaissance if mission_kind is MissionKind.RECONNAISSANCE else Sabotage
        desired = rng.choice([m.value for m in listed])
        their_armies = sorted(a.id for a in world.armies.values() if a.kingdom == target)
        theirs = sorted(c.id for c in rival_characters(world).values() if c.kingdom == target)
        return (
            TombRaiderMission(
                kind=mission_kind.value,
                target_kingdom=target,
                desired=desired,
                target_army=rng.choice(their_armies) if their_armies and rng.random() < 0.8 else None,
                target_character=rng.choice(theirs) if theirs and rng.random() < 0.6 else None,
            ),
            orders,
        )
    return None, orders


def mission_uses_draft(rng: random.Random, world: World, k: int) -> list[MissionUse]:
    """The effects the kingdom earned and has not used (decision 450), some used on this sheet: Army
    Orders with one of its own armies (to hold), Destroy Communication naming another kingdom's army (the
    target's, an ally's, any), or none; sometimes the wrong one, which the check refuses."""
    uses = []
    own = sorted(a.id for a in world.armies.values() if a.kingdom == k)
    others = sorted(a.id for a in world.armies.values() if a.kingdom != k)
    for effect in sorted(world.mission_effects.values(), key=lambda e: e.id):
        if effect.kingdom != k or effect.used_turn is not None or rng.random() < 0.3:
            continue
        fitting = own if effect.mission == Reconnaissance.ARMY_ORDERS else [*others, 999]
        pool = fitting if rng.random() < 0.85 else [*own, *others]
        uses.append(MissionUse(effect.id, rng.choice(pool) if pool and rng.random() < 0.85 else None))
    return uses


def captive_orders_draft(rng: random.Random, world: World, k: int) -> list[CaptiveOrder]:
    """A fate for some of the Tomb Raiders the kingdom holds captive ("A kingdom may do anything it
    wishes with a captured Tomb Raider")."""
    return [
        CaptiveOrder(c.id, rng.choice([CaptiveFate.RELEASED, CaptiveFate.EXECUTED]).value)
        for c in sorted(world.captives.values(), key=lambda c: c.id)
        if c.captor == k and c.fate is CaptiveFate.HELD and rng.random() < 0.5
    ]


def land_deals_draft(rng: random.Random, world: World) -> dict[int, LandDeal]:
    """Land Sales: a deal two kingdoms write on their sheets, a gift, a sale or a trade, each side
    naming a province of its own or none and the gold it pays; sometimes one side's only (the other
    player did not agree)."""
    players = [k for k, kingdom in world.kingdoms.items() if not kingdom.rogue and not kingdom.ancient_dead]
    if len(players) < 2 or rng.random() < 0.7:
        return {}
    a, b = rng.sample(players, 2)

    def side(k: int, gives: bool) -> LandDeal:
        own = sorted(p.number for p in world.provinces.values() if p.controller == k)
        province = rng.choice(own) if gives and own else None
        return LandDeal(a if k == b else b, province, rng.choice([0, 0, 50, 300]))

    kind = rng.choice(["gift", "sale", "trade"])
    deals = {a: side(a, True), b: side(b, kind == "trade")}
    if kind == "gift":
        deals[b] = replace(deals[b], gold=0)
    if rng.random() < 0.15:
        del deals[b]
    return deals


def capitol_moves_draft(rng: random.Random, world: World, k: int) -> list[MoveCapitol]:
    """Loss of the Capitol: the Warlord moves the capitol to the city he stands in (1,000 gold), or
    is crowned there after the capitol fell."""
    warlord = world.kingdoms[k].warlord_army
    if warlord is None or warlord not in world.armies or rng.random() < 0.6:
        return []
    return [MoveCapitol(world.armies[warlord].province)]


def purchases_draft(rng: random.Random, world: World, k: int, roster: SpendingRoster) -> list[Purchase]:
    """Purchases with an army's experience (Spending Experience), of every kind, for the army's units
    and characters as its roster names them."""
    purchases: list[Purchase] = []
    for army in sorted((a for a in world.armies.values() if a.kingdom == k and a.experience), key=lambda a: a.id):
        if rng.random() < 0.5:
            continue
        units = [u for u in roster.units if u.army == army.id and u.category != "character"]
        characters = [c for c in roster.characters if c.army == army.id]
        kind = rng.choice(PurchaseKind.ALL)
        unit = rng.choice(units).name if units else ""
        hero = rng.choice(characters).name if characters else ""
        purchases.append(
            {
                PurchaseKind.RECRUITS: Purchase(army.id, kind, unit=unit, models=rng.randint(1, 5)),
                PurchaseKind.EQUIPMENT: Purchase(army.id, kind, unit=unit, points=rng.choice([10, 20, 50])),
                PurchaseKind.ITEM: Purchase(
                    army.id, kind, unit=hero, name=rng.choice([*ITEM_NAMES, COMMON_ITEM]), points=25
                ),
                PurchaseKind.SUPPLY_DEPOT: Purchase(army.id, kind),
                PurchaseKind.VETERAN: Purchase(army.id, kind, unit=unit),
                PurchaseKind.ADVANCEMENT: Purchase(army.id, kind, unit=hero),
                PurchaseKind.PROMOTION: Purchase(army.id, kind, unit=hero, points=rng.choice([100, 160])),
                PurchaseKind.POTENTIAL: Purchase(army.id, kind, unit=hero),
            }[kind]
        )
    return purchases


def losses_draft(rng: random.Random, world: World, own: Iterable[ArmyState]) -> list[LossesFrom]:
    """The unit named to take an army's losses first (Foraging Table, Guerrilla Tactics)."""
    return [
        LossesFrom(a.id, rng.choice(world.units[a.id]).name)
        for a in own
        if world.units.get(a.id) and rng.random() < 0.2
    ]


def item_transfers_draft(rng: random.Random, world: World, k: int, roster: SpendingRoster) -> list[TransferItem]:
    """Transfer of Gold (and items): one of the kingdom's magic items sent to another kingdom."""
    others = [x for x in world.kingdoms if x != k]
    if not roster.armory or not others or rng.random() < 0.75:
        return []
    return [TransferItem(rng.choice(others), rng.choice(roster.armory).name) for _ in range(rng.choice([1, 1, 2]))]


# -- the turn summary sheets --------------------------------------------------------------------------


def characters_lost(
    rng: random.Random, world: World, army: int | None
) -> tuple[tuple[int, ...], tuple[tuple[int, str], ...]]:
    """The side's characters removed as casualties (its army's, in the battle), and the injury rerolls
    bought for some of them (Spending Experience: a Dead result, or any that harms him)."""
    if army is None:
        return (), ()
    listed = {u.id for u in world.units.get(army, ())}
    present = sorted(c.id for c in world.characters.values() if c.alive and c.unit in listed)
    lost = tuple(c for c in present if rng.random() < 0.35)
    rerolls = tuple((c, rng.choice([REROLL_DEAD, REROLL_HARMED])) for c in lost if rng.random() < 0.3)
    return lost, rerolls


def warlord_heir(rng: random.Random, world: World, kingdom: int | None) -> int | None:
    """The General the player names for a tie in the Warlord's succession (one of its living Generals)."""
    generals = sorted(
        c.id for c in world.characters.values() if c.kingdom == kingdom and c.alive and c.role == "general"
    )
    return rng.choice(generals) if generals and rng.random() < 0.3 else None


def raiders_lost(rng: random.Random, force: TombRaiders | None) -> tuple[RaidersLost, ...]:
    """The skirmish's cost to a force, per entry: killed and injured among the models that went (those
    out of action stayed home: Recovery; battles/services/summaries.py)."""
    if force is None:
        return ()
    lost = []
    for entry in force.entries:
        went = entry.models - entry.out_of_action
        if went <= 0 or rng.random() < 0.4:
            continue
        killed = rng.randint(0, went)
        injured = rng.randint(0, went - killed)
        if killed or injured:
            lost.append(RaidersLost(entry.name, killed=killed, injured=injured))
    return tuple(lost)


# -- the next turn ------------------------------------------------------------------------------------


def renumbered(world: World) -> World:
    """The records the rules made with negative ids (magic items found, mission effects earned,
    captives taken) get their database ids, and what the next turn's world_load reads again from them:
    the living characters of the armies on the map, the Warlord's army, and each army's points from its
    list and items. The kingdoms' items are all kept, in the armory or destroyed (the rows stay): the
    items borne in an army gone from the map are destroyed with it (world_write)."""
    items = _ids(world.items, lambda i, new: replace(i, id=new))
    effects = _ids(world.mission_effects, lambda e, new: replace(e, id=new))
    captives = _ids(world.captives, lambda c, new: replace(c, id=new))
    army_of_unit = {u.id: a for a, listed in world.units.items() if a in world.armies for u in listed}
    characters = {i: c for i, c in world.characters.items() if c.alive and c.unit in army_of_unit}
    items = {
        i: replace(x, destroyed=True) if x.bearer is not None and x.bearer not in army_of_unit else x
        for i, x in items.items()
    }
    warlords = {c.kingdom: army_of_unit[c.unit] for c in characters.values() if c.role == "warlord"}
    kingdoms = {k: replace(kingdom, warlord_army=warlords.get(k)) for k, kingdom in world.kingdoms.items()}
    world = replace(
        world, items=items, mission_effects=effects, captives=captives, characters=characters, kingdoms=kingdoms
    )
    return replace(world, armies={i: army_counted(world, a) for i, a in world.armies.items()})


def _ids(records: dict[int, T], renumber: Callable[[T, int], T]) -> dict[int, T]:
    """The records with a negative id (made by a phase) renumbered after the stored ones."""
    next_id = max([0, *records]) + 1
    out: dict[int, T] = {}
    for record_id, record in sorted(records.items()):
        if record_id < 0:
            record_id, next_id = next_id, next_id + 1
            record = renumber(record, record_id)
        out[record_id] = record
    return out
