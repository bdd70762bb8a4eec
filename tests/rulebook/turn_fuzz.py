"""Random small campaigns played through the pure turn rules, phase after phase, with the sanity check
the services run after each phase (rulebook/sanity.py, issue 17). Used by test_turn_fuzz.py.

One seed makes a world (a grid of provinces, 2-5 kingdoms, alliances the Alliance Chart allows,
armies with unit lists, garrisons, towns, cities and capitols, armies sharing a province), then for
each turn: order sheets the sheet check accepts, `resolve_orders` with seeded dice, the sanity check
with the battles' provinces, the aftermath's state as battles/services/aftermath_state.py loads it
with random settled outcomes and casualties, `resolve_aftermath`, and the sanity check again. The
services roll a phase back when its check finds a problem, so any problem found here is a campaign
that cannot go on."""

from __future__ import annotations

import random
import traceback
from collections import defaultdict
from dataclasses import dataclass, replace
from typing import Any

from kernel.dice import SeededDice
from kernel.event_codes import EventCode
from kernel.events import Event
from rulebook.allies.chart import ENDED_AFTER_THE_BATTLES, AllianceState, BreakKind, TrustLevel, trust_level
from rulebook.ancient_dead.movement import ancient_dead_orders
from rulebook.ruins_and_tomb_raiders.force import FORCE_POINTS, TombRaiders
from rulebook.ruins_and_tomb_raiders.tomb_raid import RaidResult
from rulebook.sanity import world_problems
from rulebook.tables import ArmyType, Settlement
from rulebook.turn.aftermath.results import (
    BattleResult,
    Conflict,
    Outcome,
    Pending,
    SideReport,
    battle_outcome,
    mirror,
)
from rulebook.turn.aftermath.run import resolve_aftermath
from rulebook.turn.aftermath.sheets import BattleA, Casualty, SideA
from rulebook.turn.aftermath.state import AftermathState
from rulebook.turn.aftermath.tomb_raids import TOMB_RAID, raid_result_of
from rulebook.turn.pipeline import Resolution, resolve_orders
from rulebook.turn.state import TurnState
from rulebook.turn.tables import transfer_fee
from rulebook.turn.write_orders.check import order_sheet_check
from rulebook.turn.write_orders.context import order_sheet_context
from rulebook.turn.write_orders.missions import is_rival_mission
from rulebook.turn.write_orders.records import (
    ArmyOrder,
    BuySupplyDepot,
    CreateArmy,
    DeclareAlliance,
    LandDeal,
    OrderKind,
    ReinforceGarrison,
    SheetEntries,
    TransferGold,
    UpgradeArmy,
)
from rulebook.world import ArmyState, KingdomState, ProvinceState, UnitState, World
from tests import world_builders as wb
from tests.rulebook import turn_fuzz_arrivals as arrivals
from tests.rulebook import turn_fuzz_campaign as campaign
from tests.rulebook.turn_fuzz_arrivals import OnTheWay

# The players' army books; the Ancient Dead are no player's (turn_fuzz_campaign.ancient_dead_add).
ARMY_TYPES = (
    ArmyType.EMPIRE,
    ArmyType.DWARFS,
    ArmyType.BRETONNIANS,
    ArmyType.HIGH_ELVES,
    ArmyType.ORCS_AND_GOBLINS,
    ArmyType.SKAVEN,
    ArmyType.LIZARDMEN,
    ArmyType.WOOD_ELVES,
    ArmyType.HORDES_OF_CHAOS,
    ArmyType.DOGS_OF_WAR,
)
TERRAINS = ("plains", "plains", "plains", "forest", "marshland", "mountains", "desert")
TREASURIES = (0, 10, 150, 400, 900, 1000, 2500)  # from broke to rich: purchases refused and accepted
ORDER_KINDS = (
    "hold",
    "move",
    "move",
    "move",
    "raze-move",
    "raze-hold",
    "support",
    "move-support",
    "forced",
    "forced",
    "fortify",
    "recover",
)
SETTLED = (Settlement.TOWN, Settlement.CITY)
# A sheet's parts drawn one entry at a time and kept when the check accepts it beside the orders; the
# sheet as a whole must then fit the treasury, or loses its purchases part by part (`_sheet`).
CHECKED_ONE_BY_ONE = (
    "creations",
    "upgrades",
    "depots",
    "garrisons",
    "gold_transfers",
    "losses",
    "purchases",
    "item_transfers",
    "land_deals",
    "capitol_moves",
    "missions",
    "mission_uses",
    "captive_orders",
)


@dataclass(frozen=True)
class Finding:
    """A seed whose campaign cannot go on: the turn of the chain (1 is the first) and the phase where
    the sanity check (or an exception, or a unit left with fewer than no models) stopped it."""

    seed: int
    turn: int
    phase: str  # "orders" or "aftermath"
    problems: tuple[str, ...]
    story: str  # the world at the start of that turn, the orders, the battles (and an exception's traceback)

    def __str__(self) -> str:
        return f"seed {self.seed}, turn {self.turn}, {self.phase} phase: " + " | ".join(self.problems)


def world_generate(rng: random.Random) -> World:
    """A small world the sanity check accepts: no two unallied kingdoms share a province. Its armies'
    lists hold characters, some bearing magic items (turn_fuzz_campaign.characters_add)."""
    cols, rows = rng.choice([3, 3, 4, 4, 5]), rng.choice([3, 4])
    count = cols * rows
    kingdom_count = rng.randint(2, min(5, count // 2))
    kingdoms = {
        k: wb.kingdom(k, f"K{k}", rng.choice(ARMY_TYPES), treasury=rng.choice(TREASURIES))
        for k in range(1, kingdom_count + 1)
    }
    provinces = {p: _province(rng, p, cols, list(kingdoms)) for p in range(1, count + 1)}
    for k in kingdoms:
        cities = [p.number for p in provinces.values() if p.controller == k and p.settlement == Settlement.CITY]
        if cities and rng.random() < 0.8:
            kingdoms[k] = replace(kingdoms[k], capitol=rng.choice(cities))
    alliances = _alliances(rng, kingdoms)
    adjacency = wb.grid(cols, rows)
    armies, units = _armies(rng, World(1, kingdom_count, provinces, adjacency, kingdoms, {}, {}, alliances=alliances))
    # Fortify: some armies start fortified where they stand, never one co-occupying or in a razed province.
    for army in list(armies.values()):
        here = provinces[army.province]
        if not army.co_occupying and not here.razed and rng.random() < 0.15 and not here.fortified:
            provinces[army.province] = replace(here, fortified=True)
            armies[army.id] = replace(army, fortified_in=army.province)
    garrisons: dict[int, ArmyState] = {}
    for p in provinces.values():
        if p.settlement in SETTLED and p.controller is not None and rng.random() < 0.3:
            provinces[p.number] = replace(p, elite_defense=True)
            garrison_id = 1000 + len(garrisons)
            garrisons[garrison_id] = wb.garrison(garrison_id, p.controller, p.number)
    world = World(
        turn=rng.randint(2, 6),
        player_count=kingdom_count,
        provinces=provinces,
        adjacency=adjacency,
        kingdoms=kingdoms,
        armies=armies,
        garrisons=garrisons,
        units=units,
        alliances=alliances,
    )
    # Loss of the Capitol: a kingdom with no capitol lost it some turns ago (its Warlord has three to be
    # crowned in a city; past them its player is out and it becomes a Rogue Kingdom as the turn begins).
    world = replace(
        world,
        kingdoms={
            k: x
            if x.capitol is not None or rng.random() < 0.75
            else replace(x, capitol_lost_turn=world.turn - rng.randint(1, 4))
            for k, x in world.kingdoms.items()
        },
    )
    world = campaign.ancient_dead_add(rng, campaign.characters_add(rng, world))
    # Rogue Kingdom: a player out before this turn (its armies gone), and provinces in Civil Unrest.
    if kingdom_count >= 3 and rng.random() < 0.25:
        world = campaign.rogue_kingdom_out(world, rng.choice(list(kingdoms)))
    world = campaign.civil_unrest_add(rng, world)
    return campaign.mission_effects_add(rng, world)


def _province(rng: random.Random, number: int, cols: int, kingdoms: list[int]) -> ProvinceState:
    terrain = rng.choice(TERRAINS)
    # Ruins: a map's ruins (raided successfully before, or not); a sacked town's ruin is the desert's
    # and waits for the Ancient Dead.
    settlement = rng.choices(["none", "town", "city", "ruins"], [6, 2, 1, 1])[0]
    controller = rng.choice([None, *kingdoms]) if rng.random() < 0.8 else None
    return wb.province(
        number,
        terrain,
        settlement,
        controller=controller,
        razed=rng.random() < 0.1,
        col=(number - 1) % cols,
        row=(number - 1) // cols,
        ruin_raids=rng.choice([0, 0, 1, 3]) if settlement == "ruins" else 0,
        # Ruins: a desert's ruin may be a town or city the desert sacked (The Ancient Dead: Deserts).
        ruin_sacked=settlement == "ruins" and terrain == "desert" and rng.random() < 0.6,
    )


def _alliances(rng: random.Random, kingdoms: dict[int, KingdomState]) -> dict[int, AllianceState]:
    """Some pairs of kingdoms allied, as the Alliance Chart allows (a kingdom has one ally at most)."""
    shuffled = list(kingdoms)
    rng.shuffle(shuffled)
    alliances: dict[int, AllianceState] = {}
    for i in range(0, len(shuffled) - 1, 2):
        first, second = sorted(shuffled[i : i + 2])
        trust = trust_level(kingdoms[first].army_type, kingdoms[second].army_type)
        if trust is TrustLevel.DISALLOWED or rng.random() < 0.4:
            continue
        alliance_id = len(alliances) + 1
        alliances[alliance_id] = AllianceState(alliance_id, first, second, trust, formed_turn=1)
    return alliances


def _armies(rng: random.Random, world: World) -> tuple[dict[int, ArmyState], dict[int, tuple[UnitState, ...]]]:
    """One to three armies a kingdom, each with a list of over 500 points (Army Restrictions), never
    beside an unallied kingdom's; a kingdom's second army in a province co-occupies it (Occupied
    Province), as a fatigued Forced March leaves it."""
    armies: dict[int, ArmyState] = {}
    units: dict[int, tuple[UnitState, ...]] = {}
    kingdoms_in: dict[int, set[int]] = defaultdict(set)
    standing: set[tuple[int, int]] = set()  # (kingdom, province) with an army that is not co-occupying
    for k in world.kingdoms:
        for _ in range(rng.randint(1, 3)):
            for _try in range(20):
                number = rng.randint(1, len(world.provinces))
                if any(not world.allied(k, other) for other in kingdoms_in[number] - {k}):
                    continue
                co_occupying = (k, number) in standing
                if co_occupying and rng.random() < 0.5:
                    continue
                break
            else:
                continue
            army_id = len(armies) + 1
            first_unit = sum(len(u) for u in units.values()) + 1
            listed = [
                UnitState(
                    unit,
                    army_id,
                    f"U{unit}",
                    "core",
                    rng.randint(10, 30),
                    rng.choice([6, 8, 10, 15, 20, 30]),
                    veteran_level=rng.choice([0, 0, 1]),
                    veteran_eligible=rng.random() < 0.3,
                )
                for unit in range(first_unit, first_unit + rng.randint(2, 5))
            ]
            if sum(u.points for u in listed) <= 500:
                listed.append(UnitState(first_unit + len(listed), army_id, "Spearmen", "core", 60, 10))
            points = sum(u.points for u in listed)
            last_battle_turn = rng.choice([None, None, 0])  # Fortify: a battle long ago, or none
            armies[army_id] = wb.army(
                army_id,
                k,
                number,
                points,
                supply_depot=rng.random() < 0.7,
                co_occupying=co_occupying,
                experience=rng.choice([0, 0, 30, 100]),
                last_battle_turn=last_battle_turn,
                recover_streak=rng.choice([0, 0, 1]) if world.provinces[number].razed else 0,
            )
            units[army_id] = tuple(listed)
            if not co_occupying:
                standing.add((k, number))
            kingdoms_in[number].add(k)
    return armies, units


def order_random(rng: random.Random, world: World, army: ArmyState) -> ArmyOrder:
    """Any order the army could be given, not yet checked against the sheet check."""
    around = sorted(world.adjacency[army.province])
    kind = rng.choice(ORDER_KINDS)
    order = ArmyOrder(
        army.id,
        disaster_choice=rng.choice(["casualties", "disband"]),
        pay_for_depot=rng.random() < 0.7,
        defend_with=rng.choice(["army", "army", "garrison"]),
    )
    # Allies, Invasion: only an order that says so takes an ally's province, so some moves say so.
    take_control = rng.random() < 0.25
    if kind in ("move", "raze-move"):
        order_kind = OrderKind.MOVE if kind == "move" else OrderKind.RAZE_MOVE
        return replace(order, kind=order_kind, target=rng.choice(around), take_control=take_control)
    if kind == "move-support":
        target, support = rng.choice(around), rng.choice(around)
        return replace(order, kind=OrderKind.MOVE, target=target, support=support, take_control=take_control)
    if kind == "support":
        return replace(order, kind=OrderKind.SUPPORT, support=rng.choice(around))
    if kind == "forced":
        first = rng.choice(around)
        path = (first, rng.choice(sorted(world.adjacency[first] - {army.province})))
        # Move and / or Support: a Forced March may support a battle as a Move does (decision 588).
        support = rng.choice(around) if rng.random() < 0.3 else None
        return replace(order, kind=OrderKind.FORCED_MARCH, path=path, support=support, take_control=take_control)
    staying = {
        "hold": OrderKind.HOLD,
        "raze-hold": OrderKind.RAZE_HOLD,
        "fortify": OrderKind.FORTIFY,
        "recover": OrderKind.RECOVER,
    }
    return replace(order, kind=staying[kind])


def turn_state(
    rng: random.Random, world: World, raiders: dict[int, TombRaiders], on_the_way: list[OnTheWay] | None = None
) -> TurnState:
    """The turn's state as orders/services/resolution.py loads it: the world with the living characters
    of the armies on the map and the magic items they bear (world_load's), the sheets, the kingdoms that
    missed their orders, and what the sheets' purchases and missions read besides (the rosters, the Tomb
    Raider forces of the kingdoms that send them and of their targets, the rivals' characters a Character
    Bio may name)."""
    standing = live(world)
    standing_ids = {*standing.armies, *standing.garrisons}
    on_map = {u.id for a, units in world.units.items() for u in units if a in standing_ids}
    orders_world = replace(
        world,
        characters={i: c for i, c in world.characters.items() if c.alive and c.unit in on_map},
        items={i: x for i, x in world.items.items() if not x.destroyed and x.bearer in on_map},
    )
    on_the_way = on_the_way or []
    sheets, missed = sheets_generate(rng, world, raiders, on_the_way)
    missions = [s.missions[0] for s in sheets.values() if s.missions]
    loaded = {k for k, s in sheets.items() if s.missions}
    loaded |= {m.target_kingdom for m in missions if is_rival_mission(m) and m.target_kingdom is not None}
    return TurnState(
        world=orders_world,
        orders={o.army: o for s in sheets.values() for o in s.orders},
        sheets=sheets,
        missed_orders=missed,
        rosters={k: campaign.roster_of(world, k, on_the_way) for k in world.kingdoms}
        if any(s.purchases or s.item_transfers for s in sheets.values())
        else {},
        raiders={k: raiders[k] for k in sorted(loaded) if k in raiders},
        rival_characters=campaign.rival_characters(world)
        if any(m.target_character is not None for m in missions)
        else {},
    )


def sheets_generate(
    rng: random.Random, world: World, raiders: dict[int, TombRaiders], on_the_way: list[OnTheWay] | None = None
) -> tuple[dict[int, SheetEntries], frozenset[int]]:
    """Each kingdom's order sheet, as the sheet check accepts it (a refused order held instead, a
    refused purchase left out), and the kingdoms that filed none (Missed Orders). A Rogue Kingdom
    files none and does not miss one (it has no leader)."""
    declarations: dict[int, int] = {}
    if rng.random() < 0.3:
        free = [k for k in world.kingdoms if world.alliance_of(k) is None]
        rng.shuffle(free)
        if len(free) >= 2:
            a, b = free[:2]
            if trust_level(world.kingdoms[a].army_type, world.kingdoms[b].army_type) is not TrustLevel.DISALLOWED:
                declarations = {a: b, b: a}
    land_deals = campaign.land_deals_draft(rng, world)
    sheets: dict[int, SheetEntries] = {}
    missed: set[int] = set()
    for k, kingdom in world.kingdoms.items():
        if kingdom.ancient_dead:
            # Their computed orders, drafted when the turn opened (orders/services/ancient_dead.py).
            sheets[k] = SheetEntries(orders=ancient_dead_orders(replace(world, characters={}, items={})))
            continue
        if kingdom.rogue:
            continue
        if rng.random() < 0.08:
            missed.add(k)
            continue
        entries = _sheet(rng, world, k, declarations.get(k), land_deals.get(k), raiders.get(k), on_the_way or [])
        if entries is None:
            missed.add(k)
        else:
            sheets[k] = entries
    return sheets, frozenset(missed)


def _sheet(
    rng: random.Random,
    world: World,
    k: int,
    ally: int | None,
    land_deal: LandDeal | None,
    raiders: TombRaiders | None,
    on_the_way: list[OnTheWay],
) -> SheetEntries | None:
    own = [a for a in world.armies.values() if a.kingdom == k]
    drafted = [order_random(rng, world, a) for a in own if rng.random() < 0.95]
    # Using Tomb Raiders: a kingdom with a force may send it, a Tomb Raid moving one of its armies into the ruin.
    mission, drafted = campaign.mission_draft(rng, world, k, drafted) if raiders is not None else (None, drafted)
    creations = []
    if rng.random() < 0.2:
        free = [p.number for p in world.provinces.values() if p.controller == k and not world.armies_in(p.number)]
        if free:
            creations.append(CreateArmy(f"New{k}", rng.choice([1000, 1500]), rng.choice(free)))
    upgrades, depots = [], []
    for army in own:
        here = world.provinces[army.province]
        if here.controller == k and here.settlement in SETTLED and rng.random() < 0.3:
            upgrades.append(UpgradeArmy(army.id, min(2000, army.points + rng.choice([100, 500, 800]))))
        if not army.supply_depot and rng.random() < 0.3:
            depots.append(BuySupplyDepot(army.id))
    garrisons = [
        ReinforceGarrison(p.number)
        for p in world.provinces.values()
        if p.controller == k and p.settlement in SETTLED and not p.elite_defense and rng.random() < 0.2
    ]
    transfers = []
    if rng.random() < 0.15:
        other = rng.choice([x for x in world.kingdoms if x != k])
        transfers.append(TransferGold(other, rng.choice([10, 100, 500])))
    roster = campaign.roster_of(world, k, on_the_way)
    drafts: dict[str, list[Any]] = {
        "creations": creations,
        "upgrades": upgrades,
        "depots": depots,
        "garrisons": garrisons,
        "gold_transfers": transfers,
        "losses": campaign.losses_draft(rng, world, own),
        "purchases": campaign.purchases_draft(rng, world, k, roster),
        "item_transfers": campaign.item_transfers_draft(rng, world, k, roster),
        "land_deals": [land_deal] if land_deal is not None else [],
        "capitol_moves": campaign.capitol_moves_draft(rng, world, k),
        "missions": [mission] if mission is not None else [],
        "mission_uses": campaign.mission_uses_draft(rng, world, k),
        "captive_orders": campaign.captive_orders_draft(rng, world, k),
    }

    # The check as orders/services/sheets.py builds it for the kingdom: the world as world_load reads
    # it for a sheet (no characters, no items), its armies' names taken, its roster and its force.
    ctx = order_sheet_context(
        replace(world, characters={}, items={}),
        k,
        army_names=frozenset(a.name for a in own),
        roster=roster,
        raiders=raiders,
        rival_characters=campaign.rival_characters(world),
    )

    def accepted(entries: SheetEntries) -> bool:
        return not order_sheet_check(entries, ctx, warnings=False).error_problems

    orders = []
    for order in drafted:
        # The garrison may not be able to defend, the move may be refused: then the army defends, or holds.
        for candidate in (order, replace(order, defend_with="army"), replace(order.held(), defend_with="army")):
            if accepted(SheetEntries(orders=(candidate,))):
                orders.append(candidate)
                break
    alliances = (DeclareAlliance(ally),) if ally is not None else ()
    # A Tomb Raid needs its army's move into the ruin: each entry is checked beside all the orders.
    kept = {
        part: tuple(e for e in entries if accepted(SheetEntries(orders=tuple(orders), **{part: (e,)})))
        for part, entries in drafts.items()
    }
    entries = SheetEntries(orders=tuple(orders), alliances=alliances, **kept)
    # Spending more than the treasury holds refuses the sheet: drop the purchases one kind at a time.
    for part in CHECKED_ONE_BY_ONE:
        if not accepted(entries):
            entries = replace(entries, **{part: ()})
    for fallback in (
        entries,
        SheetEntries(orders=tuple(orders), alliances=alliances),
        SheetEntries(orders=tuple(orders)),
    ):
        if accepted(fallback):
            return fallback
    return None


def live(world: World) -> World:
    """The world as kingdoms.services.world loads it: armies disbanded during the phase are gone."""
    return replace(
        world,
        armies={i: a for i, a in world.armies.items() if not a.disbanded},
        garrisons={i: a for i, a in world.garrisons.items() if not a.disbanded},
    )


def outcome_random(
    rng: random.Random, attacker_files: bool, defender_files: bool
) -> tuple[Outcome, SideReport | None, SideReport | None]:
    """A settled outcome and the two sides' turn summary sheets as filed (None: none came): most often
    agreeing, some missing (the deadline has passed, so a missing sheet that was owed counts as a major
    loss, A7), a side that owes none (a garrison of no player, the Ancient Dead: 8. End of Turn) filing
    rarely (the organizer enters one); a conflict, or a battle no sheet settles, the organizer rules on
    with any result and withdrawals (battles/services/summaries.py::battle_standing), the sheets as
    they were filed."""

    def sheet(owes: bool) -> SideReport | None:
        if rng.random() < (0.15 if owes else 0.9):
            return None
        return SideReport(rng.choice(list(BattleResult)), withdrew=rng.random() < 0.1)

    attacker = sheet(attacker_files)
    defender: SideReport | None = None
    if attacker is not None and rng.random() < (0.8 if defender_files else 0.05):
        defender = SideReport(
            mirror(attacker.result), withdrew=attacker.opponent_withdrew, opponent_withdrew=attacker.withdrew
        )
    else:
        defender = sheet(defender_files)
    standing = battle_outcome(
        attacker, defender, attacker_files=attacker_files, defender_files=defender_files, deadline_passed=True
    )
    if isinstance(standing, (Pending, Conflict)) or rng.random() < 0.05:
        ruling = SideReport(
            rng.choice(list(BattleResult)), withdrew=rng.random() < 0.1, opponent_withdrew=rng.random() < 0.1
        )
        standing = battle_outcome(ruling, None, defender_files=False, deadline_passed=True)
    assert isinstance(standing, Outcome)
    return standing, attacker, defender


def _may_loot(world: World, province: int, side: str, kingdom: int | None, both_moved: bool, skirmish: bool) -> bool:
    """battles/services/summaries.py::may_loot: the attacker (or a defender that moved in too) of a battle
    in another kingdom's town or city."""
    here = world.provinces[province]
    if skirmish or kingdom is None or here.settlement not in SETTLED or here.controller == kingdom:
        return False
    return side == "attacker" or both_moved


def _negotiation_gold(rng: random.Random, world: World, kingdom: int | None) -> int:
    """Money negotiations as the sheet takes them: at most what the treasury can pay with the fee."""
    if kingdom is None:
        return 0
    gold = rng.choice([0, 0, 0, 50, 500, 5000])
    return gold if gold + transfer_fee(gold) <= world.kingdoms[kingdom].treasury else 0


def aftermath_state(
    rng: random.Random, resolution: Resolution, before: World, raiders: dict[int, TombRaiders]
) -> AftermathState:
    """The aftermath's state as the services leave it after the orders phase: the armies that fight
    marked for Fortify (orders/services/resolution.py; not a skirmish's), the disbanded gone, the per-turn flags not
    stored, the characters and items of the armies on the map (`before`'s, as the orders left them:
    world_load's), every kingdom's Tomb Raiders (`raiders`) and the items it
    holds; each battle with random turn summary sheets (casualties up to each unit's stored models,
    characters of its army lost, the Tomb Raiders' losses, as battles/services/summaries.py allows per
    sheet), and sometimes an alliance's end announced."""
    fought = [b for b in resolution.battles if not b.skirmish]  # a skirmish's army waits (decision 619)
    fighting = {b.attacker_army for b in fought} | {b.defender_army for b in fought}
    after_orders = resolution.state.world
    on_map = {u.id for a, listed in after_orders.units.items() for u in listed if a in live(after_orders).armies}
    world = live(
        replace(
            after_orders,
            # As the orders left them: a foraging disband's characters gone, its Warlord succeeded (decision 591).
            characters={
                i: c
                for i, c in {**before.characters, **after_orders.characters}.items()
                if c.alive and c.unit in on_map
            },
            # Those of `before` alone: an item the sheets sent left the database with the orders phase.
            items={
                i: x
                for i, x in ((i, after_orders.items.get(i, x)) for i, x in before.items.items())
                if not x.destroyed and x.bearer in on_map
            },
            armies={
                i: replace(
                    a,
                    last_battle_turn=after_orders.turn if i in fighting else a.last_battle_turn,
                    no_forced_march=False,
                    veteran_status_lost=False,
                )
                for i, a in after_orders.armies.items()
            },
        )
    )
    came_from = {
        e.army: int(e.data["from"]) for e in resolution.events if e.code == EventCode.MOVED and e.army is not None
    }
    both_moved = {c.province for c in resolution.contacts if c.both_moved}
    battles = []
    for number, battle in enumerate(resolution.battles, start=1):
        both = battle.province in both_moved
        owes = {
            side: kingdom is not None and not world.kingdoms[kingdom].ancient_dead
            for side, kingdom in (("attacker", battle.attacker_kingdom), ("defender", battle.defender_kingdom))
        }
        if battle.mission_detail:
            owes["defender"] = False  # a Reconnaissance or Sabotage: the spy's sheet alone gives the result
        outcome, attacker_sheet, defender_sheet = outcome_random(rng, owes["attacker"], owes["defender"])
        sheets = {
            "attacker": attacker_sheet,
            "defender": defender_sheet if battle.defender_kingdom is not None else None,  # no kingdom: no sheet
        }
        sides = {}
        for side, army, kingdom in (
            ("attacker", battle.attacker_army, battle.attacker_kingdom),
            ("defender", battle.defender_army, battle.defender_kingdom),
        ):
            report = sheets[side]
            if report is None:
                # No sheet: nothing reported (battles/services/aftermath_state.py::_side).
                sides[side] = SideA(
                    kingdom=kingdom,
                    army=army,
                    supports=tuple(s.army for s in battle.supports if s.side == side),
                    points_faced=rng.choice([0, 1000, 1500]),
                )
                continue
            # A Tomb Raiders' skirmish: no army fought it, so none loses models or characters, or loots
            # (decision 231); the raiders that went report their losses, the attacker's and a rival
            # mission's target's own when they defended (decisions 464-465).
            fought = army if not battle.skirmish else None
            casualties = tuple(
                Casualty(u.id, models_lost=rng.randint(0, u.models))
                for u in (world.units.get(fought, ()) if fought is not None else ())
                if rng.random() < 0.5
            )
            lost, rerolls = campaign.characters_lost(rng, world, fought)
            # A sacked town's ruin's raid goes with the battle against its Ancient Dead garrison (decision 409).
            went = battle.skirmish or battle.mission == TOMB_RAID
            raided = (went and side == "attacker") or (
                side == "defender" and battle.mission_detail.get("defender") == "raiders"
            )
            # Allies, Withdraw of support: only an ally's detachment may withdraw.
            allied = [s.army for s in battle.supports if s.side == side and s.kingdom != kingdom]
            # Looting: only the victor (by its own sheet) that takes the town or city loots or sacks it.
            loots = report.result.is_victory and _may_loot(world, battle.province, side, kingdom, both, battle.skirmish)
            sides[side] = SideA(
                kingdom=kingdom,
                army=army,
                supports=tuple(s.army for s in battle.supports if s.side == side),
                casualties=casualties,
                characters_lost=lost,
                injury_rerolls=rerolls,
                warlord_heir=campaign.warlord_heir(rng, world, kingdom) if lost else None,
                withdrawn=tuple(a for a in allied if rng.random() < 0.3),
                loot_choice=rng.choice(["", "loot", "sack"]) if loots else "",
                points_faced=rng.choice([0, 1000, 1500]),
                negotiation_gold=_negotiation_gold(rng, world, kingdom),
                story=rng.random() < 0.2,
                raiders=campaign.raiders_lost(rng, raiders.get(kingdom)) if raided and kingdom is not None else (),
            )
        # The raid's result: a skirmish's, read off its settled result (decisions 430, 470); beside a
        # sacked town's ruin's battle, the raiding kingdom's sheet says it, or says none.
        raid_result: RaidResult | None = None
        if battle.skirmish and (battle.mission == TOMB_RAID or battle.mission_detail):
            raid_result = raid_result_of(outcome.attacker.result)
        elif battle.mission == TOMB_RAID:
            # The raiding kingdom's sheet says it (none filed: no success).
            raid_result = rng.choice([None, *RaidResult]) if sheets["attacker"] is not None else None
        battles.append(
            BattleA(
                id=number,
                province=battle.province,
                attacker=sides["attacker"],
                defender=sides["defender"],
                outcome=outcome,
                both_moved=both,
                skirmish=battle.skirmish,
                mission=battle.mission,
                mission_detail=battle.mission_detail,
                raid_result=raid_result,
            )
        )
    announced: tuple[tuple[int, int], ...] = ()
    # Allies, Announcement (decision 385): one side announces the end, or both (cancelled by mutual consent).
    if world.alliances and rng.random() < 0.3:
        alliance = rng.choice(list(world.alliances.values()))
        pair = (alliance.first, alliance.second)
        announced = (pair,) if rng.random() < 0.7 else (pair, (alliance.second, alliance.first))
    return AftermathState(
        world=world,
        battles=battles,
        came_from=came_from,
        announced_ends=announced,
        tomb_raiders=dict(raiders),
        held_items=campaign.held_items(before.items.values()),
    )


def next_turn_world(world: World, on_the_way: list[OnTheWay]) -> tuple[World, list[OnTheWay]]:
    """The world as the next turn loads it: armies raised and alliances formed this turn get their
    database ids (the rules gave them negative ones; a new army has its list due, so no units), the
    per-turn flags are gone, what is due at the beginning of the turn arrives (gold, items, purchases:
    turn_fuzz_arrivals.arrive), and the items, mission effects and captives get their ids too
    (turn_fuzz_campaign.renumbered). Also what is still on its way."""
    world = live(world)
    next_id = max([0, *world.armies, *world.garrisons]) + 1
    armies = {}
    for army_id, army in sorted(world.armies.items()):
        if army_id < 0:
            army_id, next_id = next_id, next_id + 1
        armies[army_id] = replace(army, id=army_id, no_forced_march=False, veteran_status_lost=False)
    next_alliance = max([0, *world.alliances]) + 1
    alliances = {}
    for alliance_id, alliance in sorted(world.alliances.items()):
        if alliance_id < 0:
            alliance_id, next_alliance = next_alliance, next_alliance + 1
        alliances[alliance_id] = replace(alliance, id=alliance_id)
    world = replace(world, turn=world.turn + 1, armies=armies, alliances=alliances)
    world, on_the_way = arrivals.arrive(world, on_the_way)
    return campaign.renumbered(world), on_the_way


def phase_problems(
    world: World,
    battle_provinces: frozenset[int] = frozenset(),
    events: list[Event] | None = None,
    raiders: dict[int, TombRaiders] | None = None,
) -> list[str]:
    """The services' sanity check of the world a phase leaves, and what the database would refuse
    to store: a unit with fewer than no models (Unit.models_count is a PositiveIntegerField), an army
    with less than no experience, size, spare cart or losses before its list (Army's fields), a Tomb
    Raider entry of no model or more than 150 (kingdoms.models.TombRaiderEntry's constraint: the
    writer keeps every entry the aftermath's force holds). After
    the aftermath (`events`: the turn's), the allies whose alliance it ended may still stand together
    until the next turn's orders, as turns/services/sanity.py reads them off the ended alliances
    (decision 570)."""
    ended = {
        frozenset((e.kingdom, int(e.data["ally"])))
        for e in events or []
        if e.code in (EventCode.ALLIANCE_BROKEN, EventCode.ALLIANCE_CANCELLED)
        and e.kingdom is not None
        and BreakKind(e.data["how"]) in ENDED_AFTER_THE_BATTLES
    }
    problems = world_problems(live(world), battle_provinces=battle_provinces, ended_after_the_battles=ended)
    problems += [
        f"{u.name} of army {u.army} has {u.models} models."
        for listed in world.units.values()
        for u in listed
        if u.models < 0
    ]
    problems += [
        f"{a.name} of {world.kingdoms[a.kingdom].name} has {name} {value}."
        for a in [*world.armies.values(), *world.garrisons.values()]
        for name, value in (
            ("experience", a.experience),
            ("size", a.size),
            ("spare carts", a.spare_carts),
            ("losses before its list", a.losses_before_list),
        )
        if value < 0
    ]
    problems += [
        f"{world.kingdoms[k].name}'s Tomb Raider entry {e.name} has {e.models} models."
        for k, force in sorted((raiders or {}).items())
        for e in force.entries
        if not 1 <= e.models <= FORCE_POINTS
    ]
    return problems


def seed_run(seed: int, turns: int) -> Finding | None:
    """Play `turns` turns of the seed's campaign; the first problem, or None."""
    rng = random.Random(seed)
    world = world_generate(rng)
    raiders = campaign.raiders_generate(rng, world)  # the kingdoms' Tomb Raiders, as each aftermath leaves them
    on_the_way: list[OnTheWay] = []  # gold, items and purchases sent, arriving at the beginning of a later turn
    assert world_problems(world) == [], f"seed {seed}: the generated world is not sound"
    for turn in range(1, turns + 1):
        start, state = world, turn_state(rng, world, raiders, on_the_way)
        phase, resolution, aftermath, failure = "orders", None, None, ""
        # An exception is a finding too: the service's phase fails, and the campaign is stuck all the same.
        try:
            resolution = resolve_orders(
                state,
                SeededDice(seed=f"{seed}-{turn}", stream="turn-resolution"),
                SeededDice(seed=f"{seed}-{turn}", stream="ancient-dead"),
            )
            world = resolution.state.world
            problems = phase_problems(world, battle_provinces=frozenset(b.province for b in resolution.battles))
            if not problems:
                phase = "aftermath"
                # Transfer of Gold: the items the sheets sent left their bearers (the writer deletes their rows).
                gone = arrivals.items_sent(resolution.events)
                kept = replace(start, items={i: x for i, x in start.items.items() if i not in gone})
                aftermath = aftermath_state(rng, resolution, kept, raiders)
                result = resolve_aftermath(aftermath, SeededDice(seed=f"{seed}-{turn}", stream="aftermath"))
                # The kingdoms' items the aftermath did not load (in the armory, destroyed) are still theirs.
                world = replace(result.state.world, items={**kept.items, **result.state.world.items})
                raiders = result.state.tomb_raiders
                problems = phase_problems(world, events=[*resolution.events, *result.events], raiders=raiders)
                problems += campaign.armory_problems(world, world.items.values())
                on_the_way += arrivals.sent([*resolution.events, *result.events])
                if not problems:
                    # The next turn opens: what is due arrives (orders/services/deliveries.py, transfers.py).
                    phase = "deliveries"
                    world, on_the_way = next_turn_world(world, on_the_way)
                    problems = campaign.armory_problems(world, world.items.values())
                    world = campaign.players_change(rng, world)
        except Exception as error:
            where = traceback.extract_tb(error.__traceback__)[-1]
            problems = [f"{type(error).__name__}: {error} (raised at {where.filename}:{where.lineno})"]
            failure = "\n" + "".join(traceback.format_exception(error))
        if problems:
            told = story(state, resolution, aftermath, world if world is not start else None)
            return Finding(seed, turn, phase, tuple(problems), told + failure)
    return None


def story(
    state: TurnState, resolution: Resolution | None, aftermath: AftermathState | None, after: World | None
) -> str:
    """The failing turn in a few lines: kingdoms and alliances, armies and their orders, the battles
    and their outcomes, and where the armies that moved or were disbanded stand `after` the phase."""
    world = state.world
    lines = [f"campaign turn {world.turn}; kingdoms that missed their orders: {sorted(state.missed_orders)}"]
    lines += [
        f"K{k.id} {k.army_type.label}, {k.treasury} gold"
        + (f", capitol {k.capitol}" if k.capitol is not None else "")
        + (", rogue" if k.rogue else "")
        for k in world.kingdoms.values()
    ]
    lines += [f"alliance {a.id}: K{a.first} and K{a.second}" for a in world.alliances.values()]
    lines += [f"K{k} declares an alliance with K{d.kingdom}" for k, s in state.sheets.items() for d in s.alliances]
    lines += [
        f"army {a.id} of K{a.kingdom} in {a.province} ({a.points} pts{', co-occupying' if a.co_occupying else ''})"
        f": {_order_text(state.orders.get(a.id))}"
        for a in sorted(world.armies.values(), key=lambda a: a.id)
    ]
    settled = aftermath.battles if aftermath is not None else []
    for number, b in enumerate(resolution.battles if resolution is not None else []):
        line = f"battle in {b.province}: army {b.attacker_army} (K{b.attacker_kingdom}) attacks"
        line += f" army {b.defender_army} (K{b.defender_kingdom})"
        if b.supports:
            line += ", supported by " + ", ".join(f"army {s.army} ({s.side})" for s in b.supports)
        if number < len(settled):
            outcome = settled[number].outcome
            line += f"; attacker's {outcome.attacker.result.value}, victor {outcome.victor}"
            withdrawn = [*settled[number].attacker.withdrawn, *settled[number].defender.withdrawn]
            line += f", withdrawn {withdrawn}" if withdrawn else ""
        lines.append(line)
    if aftermath is not None:
        lines += [f"announced: K{a} ends its alliance with K{b}" for a, b in aftermath.announced_ends]
    if after is not None:
        lines += [
            f"after the phase: army {a.id} of K{a.kingdom} " + ("disbanded" if a.disbanded else f"in {a.province}")
            for a in sorted(after.armies.values(), key=lambda a: a.id)
            if a.id not in world.armies or a.disbanded or a.province != world.armies[a.id].province
        ]
        lines.append(
            "alliances after the phase: "
            + (", ".join(f"K{a.first} and K{a.second}" for a in after.alliances.values()) or "none")
        )
    return "\n".join(lines)


def _order_text(order: ArmyOrder | None) -> str:
    if order is None:
        return "no order"
    parts = [order.kind.value]
    if order.target is not None:
        parts.append(f"to {order.target}")
    if order.path:
        parts.append(f"via {order.path}")
    if order.support is not None:
        parts.append(f"supporting {order.support}")
    if order.take_control:
        parts.append("taking control")
    if order.defend_with != "army":
        parts.append(f"defended by its {order.defend_with}")
    return " ".join(parts)
