"""Random small campaigns played through the real services, turn after turn, for test_phase_fuzz.py: what the
pure turn fuzz (tests/rulebook/turn_fuzz.py) cannot see, the rules' results written back to the database
(kingdoms/services/world_write.py, the orders' and the aftermath's own rows, the next turn's opening) and the
database's constraints (one army of each name, one magic item of each name, one living Warlord a kingdom...).

One seed builds a world of rows (tests/kingdoms/builders.py's, no rule's work: a grid of provinces with towns,
cities and ruins, two to four kingdoms with capitols, armies with lists, characters and magic items, Elite
Defense Forces in force or perished, Tomb Raider forces, treasury gold, sometimes an alliance, sometimes the
Ancient Dead as setup makes them, their pyramid, deserts and armies), then for each turn:
- each player files an order sheet through orders.services.sheets.order_sheet_save, as the API does: entries
  drafted at random (the pure fuzz's drafts, and names chosen to meet the constraints: a new army named as a
  town's Elite Defense Force, or as a disbanded army, an item bought of a destroyed one's name), kept when the
  sheet check of the real context (order_sheet_context_load) accepts them: Tomb Raids, Reconnaissances and
  Sabotages naming what their mission names, land deals between players, the captives' fates, the effects
  earned used; some players file nothing;
- the real orders phase (turns.services.cycle.orders_phase_run), which must resolve;
- each side's player files a turn summary sheet through battles.services.summaries.summary_sheet_save (its own
  validation: casualties up to its units' models, characters of its army, depots, looting, a heir, money
  negotiations, an alliance's end announced...), sometimes none, sometimes one that conflicts; the organizer
  rules (battle_rule) on what the sheets leave open;
- the real aftermath (aftermath_phase_run) after the results deadline, which must resolve and open the next
  turn.

`resolved_tally` counts what the phases really resolved (missions sent and their skirmishes read, raiders
captured and their fates, land deals, the Ancient Dead's moves and battles): the bounded test asserts each
is played, so a draft the check always refuses does not pass for coverage.

A phase that raises, or does not resolve, is a campaign that stops: the finding names the seed, turn and
phase with the exception."""

from __future__ import annotations

import datetime as dt
import random
import traceback
from collections import Counter
from dataclasses import dataclass, replace
from typing import Any

from django.db import models, transaction

from battles.models import Battle
from battles.services.summaries import battle_rule, battle_standing, summary_sheet_form, summary_sheet_save
from briternia.errors import DomainError
from kernel.event_codes import EventCode
from kingdoms.models import (
    Alliance,
    ArmoryItem,
    Army,
    ArmyMovement,
    Campaign,
    Kingdom,
    Province,
)
from kingdoms.services.ancient_dead import ancient_dead_setup
from kingdoms.services.world import world_kept_forget, world_load
from orders.services.ancient_dead import ancient_dead_sheet_draft
from orders.services.sheets import order_sheet_context_load, order_sheet_save
from rulebook.allies.chart import TrustLevel, trust_level
from rulebook.ruins_and_tomb_raiders.reconnaissance import Reconnaissance
from rulebook.ruins_and_tomb_raiders.rival_mission_orders import listed_mission
from rulebook.ruins_and_tomb_raiders.rival_missions import MissionTarget
from rulebook.ruins_and_tomb_raiders.sabotage import Sabotage
from rulebook.ruins_and_tomb_raiders.tomb_raid import MissionKind
from rulebook.tables import ArmyType
from rulebook.turn.aftermath.results import Outcome
from rulebook.turn.write_orders.check import order_sheet_check
from rulebook.turn.write_orders.context import SheetContext
from rulebook.turn.write_orders.missions import known_armies, known_characters
from rulebook.turn.write_orders.records import (
    ArmyOrder,
    BuySupplyDepot,
    CreateArmy,
    DeclareAlliance,
    OrderKind,
    Purchase,
    ReinforceGarrison,
    SheetEntries,
    TombRaiderMission,
    TransferGold,
    UpgradeArmy,
)
from rulebook.world import World
from tests.kingdoms.builders import (
    army_built,
    campaign_built,
    character_built,
    item_built,
    kingdom_built,
    province_built,
    raiders_force_built,
    unit_built,
)
from tests.rulebook import turn_fuzz as pure
from tests.rulebook import turn_fuzz_campaign as drafts
from tests.turns.builders import turn_built
from turns.models import Turn, TurnEvent
from turns.services.cycle import aftermath_phase_run, orders_phase_run

ARMY_TYPES = ("empire", "dwarfs", "bretonnians", "high-elves", "orcs-and-goblins", "skaven", "wood-elves")
TERRAINS = ("plains", "plains", "plains", "forest", "mountains", "marshland")
UNIT_NAMES = ("Spearmen", "Halberdiers", "Archers", "Knights", "Crossbowmen", "Swordsmen")
GOLD = (0, 400, 1500, 3000, 8000)


@dataclass(frozen=True)
class Finding:
    """A seed whose campaign stopped: the turn and phase, and what raised (or why it did not resolve)."""

    seed: int
    turn: int
    phase: str
    problem: str

    def __str__(self) -> str:
        return f"seed {self.seed}, turn {self.turn}, {self.phase}: {self.problem}"


class _Rollback(Exception):
    """Leaves nothing of a seed's campaign behind for the next seed."""


def seed_run(seed: int, turns: int, tally: Counter[str] | None = None) -> Finding | None:
    """Play the seed's campaign for `turns` turns through the services, in a transaction rolled back after;
    `tally` (when given) adds what the phases resolved (`resolved_tally`), before it is rolled back."""
    world_kept_forget()  # a rolled-back campaign's id comes again with the next seed
    found: list[Finding] = []
    try:
        with transaction.atomic():
            campaign = _play(seed, turns, found)
            if tally is not None and not found:
                tally.update(resolved_tally(campaign))
            raise _Rollback
    except _Rollback:
        pass
    world_kept_forget()
    return found[0] if found else None


def _play(seed: int, turns: int, found: list[Finding]) -> Campaign:
    rng = random.Random(seed)
    campaign = campaign_built_at_random(rng, seed)
    turn = campaign.turns.get(number=1)
    for _ in range(turns):
        phase = "filing the order sheets"
        try:
            sheets_filed(rng, turn)
            phase = "orders phase"
            if not orders_phase_run(turn_id=turn.pk).resolved:
                found.append(Finding(seed, turn.number, phase, "the orders phase did not resolve the turn"))
                return campaign
            turn.refresh_from_db()
            phase = "filing the turn summary sheets"
            summaries_filed(rng, turn)
            phase = "aftermath"
            outcome = aftermath_phase_run(turn_id=turn.pk, now=turn.results_deadline + dt.timedelta(seconds=1))
        except Exception as exc:  # any failure is the finding: the campaign stops here
            found.append(Finding(seed, turn.number, phase, f"{type(exc).__name__}: {exc}\n{traceback.format_exc()}"))
            return campaign
        if not outcome.resolved or outcome.next_turn is None:
            found.append(Finding(seed, turn.number, "aftermath", "the aftermath did not resolve the turn"))
            return campaign
        turn = outcome.next_turn
        if turn.status != Turn.Status.ORDERS_OPEN:
            found.append(Finding(seed, turn.number, "opening", f"the next turn is {turn.status}, not open"))
            return campaign
        # The next turn's dice seeded by the fuzz's seed (turn_open draws a fresh one): a finding reproduces.
        Turn.objects.filter(pk=turn.pk).update(seed=f"phase-fuzz-{seed}-{turn.number}")
        turn.refresh_from_db()
    return campaign


# -- what the phases resolved ----------------------------------------------------------------------------


def resolved_tally(campaign: Campaign) -> Counter[str]:
    """What the phases really resolved in the campaign, from its turns' events and battles (not what the
    sheets asked): the Tomb Raids, Reconnaissances and Sabotages sent and their skirmishes' results read,
    the Tomb Raiders captured and their fates, the land deals done, the Ancient Dead's battles, moves and
    risings. The bounded test asserts each is played over its seeds: a draft the check always refuses
    exercises nothing."""
    events = TurnEvent.objects.filter(turn__campaign=campaign)
    dead = Kingdom.objects.filter(campaign=campaign, army_type="ancient-dead").values_list("pk", flat=True).first()
    tally: Counter[str] = Counter()
    for code, data, kingdom in events.values_list("code", "data", "kingdom_id"):
        if code == EventCode.TOMB_RAID_SENT:
            tally["tomb raid sent"] += 1
        elif code in (EventCode.TOMB_RAID_SUCCESS, EventCode.TOMB_RAID_FAILED):
            tally["tomb raid resolved"] += 1
        elif code == EventCode.RIVAL_MISSION_SENT:
            tally[f"{data.get('mission')} sent"] += 1
        elif code == EventCode.RIVAL_MISSION_RESULT:
            tally[f"{str(data.get('section', '')).lower()} resolved"] += 1
        elif code == EventCode.RAIDER_CAPTURED:
            tally["raider captured"] += 1
        elif code == EventCode.CAPTIVE_FATE:
            tally["captive fate"] += 1
        elif code == EventCode.LAND_DEAL:
            tally["land deal side"] += 1
        elif code in (EventCode.INTELLIGENCE, EventCode.THEFT, EventCode.SABOTAGE_APPLIED):
            tally[f"effect: {code}"] += 1  # what a mission earned, on its moment
        elif code == EventCode.ARMY_ORDERS_RESPONSE:
            tally["effect used: army orders"] += 1
        elif code == EventCode.ANCIENT_DEAD_RISEN:
            tally["ancient dead risen"] += 1
        elif code == EventCode.MOVED and dead is not None and kingdom == dead:
            tally["ancient dead moved"] += 1
    if dead is not None:
        tally["ancient dead campaign"] += 1
        tally["ancient dead battle"] += (
            Battle.objects.filter(turn__campaign=campaign)
            .filter(models.Q(attacker_kingdom_id=dead) | models.Q(defender_kingdom_id=dead))
            .count()
        )
    return tally


# -- the world --------------------------------------------------------------------------------------------


def campaign_built_at_random(rng: random.Random, seed: int) -> Campaign:
    """A running campaign on turn 1: a grid of 6 to 12 provinces (some towns, cities, ruins), 2 to 4
    kingdoms each with a capitol city, 1 to 3 armies with lists, a Warlord and some Generals and heroes,
    magic items borne, in the armory or destroyed with an army, Elite Defense Forces in some towns, and
    sometimes an alliance the Alliance Chart allows. No two unallied kingdoms' armies share a province."""
    cols, rows = rng.choice([(4, 3), (4, 4), (5, 4)])
    count = rng.randint(2, 4)
    campaign = campaign_built(name=f"Fuzz {seed}", organizer="fuzz-organizer", player_count=count, provinces=0)
    numbers = list(range(1, cols * rows + 1))
    capitols = rng.sample(numbers, count)
    for number in numbers:
        col, row = (number - 1) % cols, (number - 1) // cols
        near = [
            n for n in range(1, number) if abs((n - 1) % cols - col) <= 1 and abs((n - 1) // cols - row) <= 1
        ]  # a grid, corner to corner included (Move)
        settlement = "city" if number in capitols else rng.choices(["none", "town", "city", "ruins"], [6, 2, 1, 1])[0]
        province_built(
            campaign,
            number,
            terrain=rng.choice(TERRAINS) if settlement != "city" else "plains",
            settlement=settlement,
            neighbours=near,
        )
    kingdoms = []
    for i, capitol in enumerate(capitols):
        kingdom = kingdom_built(
            campaign,
            f"K{i + 1}",
            player=f"fuzz-{seed}-{i + 1}",
            army_type=rng.choice(ARMY_TYPES),
            capitol=capitol,
            gold=rng.choice(GOLD),
        )
        kingdoms.append(kingdom)

    # The provinces around: most held by the kingdom whose capitol is nearest (a frontier between them,
    # enough provinces for the Army Table to allow a new army), some free.
    def distance(a: int, b: int) -> int:
        return max(abs((a - 1) % cols - (b - 1) % cols), abs((a - 1) // cols - (b - 1) // cols))

    for number in numbers:
        if number not in capitols and rng.random() < 0.85:
            nearest = min(kingdoms, key=lambda k: (distance(number, k.capitol.number), rng.random()))
            Province.objects.filter(campaign=campaign, number=number).update(controller=nearest)
    holders: dict[int, int] = {}  # province number -> the kingdom whose armies stand there
    dead = ancient_dead_built(rng, campaign, [n for n in numbers if n not in capitols], cols)
    if dead is not None:
        holders.update({p: dead.pk for p in dead.provinces.values_list("number", flat=True)})
    allies: dict[int, int] = {}
    if rng.random() < 0.35:
        a, b = sorted(rng.sample(kingdoms, 2), key=lambda k: k.pk)
        trust = trust_level(ArmyType(a.army_type), ArmyType(b.army_type))
        if trust is not TrustLevel.DISALLOWED:
            Alliance.objects.create(campaign=campaign, first=a, second=b, trust=trust.value, formed_turn=1)
            allies = {a.pk: b.pk, b.pk: a.pk}
    for kingdom in kingdoms:
        armies = []
        for n in range(rng.choice([1, 1, 2, 3])):
            free = [
                p
                for p in numbers
                if holders.get(p) in (None, kingdom.pk, allies.get(kingdom.pk))
                and (n > 0 or p == kingdom.capitol.number or rng.random() < 0.3)
            ]
            if not free:
                continue
            where = kingdom.capitol.number if n == 0 else rng.choice(free)
            holders.setdefault(where, kingdom.pk)
            army = army_built(
                kingdom,
                name=rng.choice([f"Army {n + 1}", f"{kingdom.name} Host {n + 1}"]),
                province=where,
                experience=rng.choice([0, 0, 40, 150]),
                supply_depot=rng.random() < 0.75,
                co_occupying=any(a.province_id == army_province_id(campaign, where) for a in armies),
            )
            for name in rng.sample(UNIT_NAMES, rng.randint(2, 4)):
                unit_built(army, name, models_count=rng.randint(10, 25), points_per_model=rng.choice([6, 8, 10, 15]))
            armies.append(army)
        if not armies:
            continue
        warlord = character_built(armies[0], "Warlord", points=150, role="warlord", rank="lord")
        heroes = [warlord]
        for i in range(rng.randint(0, 3)):
            role = rng.choice(["general", "hero"])
            heroes.append(
                character_built(
                    rng.choice(armies), f"{role.title()} {i + 1}", points=rng.choice([60, 100]), role=role,
                    rank="lord" if role == "general" else "hero", wizard=rng.random() < 0.2,
                )
            )  # fmt: skip
        for name in rng.sample(drafts.ITEM_NAMES, rng.randint(0, 3)):
            kind = rng.random()
            if kind < 0.6:
                item_built(kingdom, name, 25, bearer=rng.choice(heroes))
            else:
                # In the armory, or lost with an army long ago (Armory: "your kingdom does not get another one").
                item_built(kingdom, name, 25, destroyed=kind > 0.85)
        # Tomb Raiders (Creating Tomb Raiders): the rulebook's sample list, kept since setup, for the
        # missions (Tomb Raid, Reconnaissance, Sabotage) and their skirmishes' losses.
        if rng.random() < 0.6:
            raiders_force_built(kingdom)
        # A disbanded army of long ago: its name stays the kingdom's (names stay unique).
        if rng.random() < 0.3:
            army_built(kingdom, name="Lost Host", province=kingdom.capitol.number, status=Army.Status.DISBANDED)
    # Elite Defense Forces in some towns and cities (Battle for Towns, Cities, and Capitols).
    for province in Province.objects.filter(
        campaign=campaign, settlement__in=["town", "city"], controller__isnull=False
    ):
        roll = rng.random()
        if roll < 0.45:
            # In force, or perished to the last man when the town was lost and since retaken (its row stays).
            Army.objects.create(
                kingdom_id=province.controller_id,
                name=f"Elite Defense Force of {province.name}",
                kind=Army.Kind.GARRISON,
                province=province,
                size=500,
                status=Army.Status.ACTIVE if roll < 0.3 else Army.Status.DISBANDED,
            )
    turn = turn_built(campaign)
    Turn.objects.filter(pk=turn.pk).update(seed=f"phase-fuzz-{seed}-1")
    if dead is not None:
        ancient_dead_sheet_draft(turn=turn)  # as turn_open drafts it for every turn after the first
    return campaign


def ancient_dead_built(rng: random.Random, campaign: Campaign, places: list[int], cols: int) -> Kingdom | None:
    """Sometimes the Ancient Dead, as setup makes them (kingdoms.services.campaigns._ancient_dead_create,
    The Ancient Dead: Setup): their pyramid, a desert of no settlement, is their capitol with its Capitol
    Garrison and their Warlord; some deserts of theirs around it; their First Host at the pyramid, and the
    armies their Army Table raises (kingdoms.services.ancient_dead.ancient_dead_setup, the real service).
    The organizer's is their sheet: the engine drafts it when each next turn opens."""
    bare = [n for n in places if Province.objects.filter(campaign=campaign, number=n, settlement="none").exists()]
    if not bare or rng.random() < 0.5:
        return None
    pyramid_number = rng.choice(bare)
    pyramid = Province.objects.get(campaign=campaign, number=pyramid_number)
    kingdom = Kingdom.objects.create(
        campaign=campaign, name="The Ancient Dead", army_type=ArmyType.ANCIENT_DEAD, capitol=pyramid
    )
    kingdom.players.add(campaign.organizer)
    deserts = [pyramid_number] + [
        n for n in pyramid.neighbours.values_list("number", flat=True) if n in bare and rng.random() < 0.6
    ]
    Province.objects.filter(campaign=campaign, number__in=deserts).update(
        terrain="desert", controller=kingdom, settlement="none"
    )
    Province.objects.filter(pk=pyramid.pk).update(pyramid=True)
    garrison = army_built(kingdom, name="Capitol Garrison", kind=Army.Kind.GARRISON, province=pyramid_number)
    host = army_built(kingdom, name="First Host", province=pyramid_number, list_due=True)
    ArmyMovement.objects.bulk_create(
        ArmyMovement(army=army, turn=0, step=0, province_id=pyramid.pk) for army in (garrison, host)
    )
    character_built(garrison, "Tomb King", points=150, role="warlord", rank="lord", archetype="noble")
    ancient_dead_setup(campaign=campaign)
    return kingdom


def army_province_id(campaign: Campaign, number: int) -> int:
    return Province.objects.values_list("id", flat=True).get(campaign=campaign, number=number)


# -- the order sheets -------------------------------------------------------------------------------------


def sheets_filed(rng: random.Random, turn: Turn) -> None:
    """Each player's order sheet, as the sheet check of its real context accepts it, filed through the
    service (a submission; a refusal is a finding: the check and the service disagree). Some file none."""
    campaign = turn.campaign
    world = world_load(campaign=campaign, turn_number=turn.number)
    kingdoms = list(
        Kingdom.objects.filter(campaign=campaign, rogue_turn__isnull=True).exclude(army_type="ancient-dead")
    )
    declarations: dict[int, int] = {}
    free = [k.pk for k in kingdoms if world.alliance_of(k.pk) is None]
    if len(free) >= 2 and rng.random() < 0.3:
        a, b = rng.sample(free, 2)
        declarations = {a: b, b: a}
    land_deals = drafts.land_deals_draft(rng, world) or drafts.land_deals_draft(rng, world)  # Land Sales, often
    for kingdom in kingdoms:
        if rng.random() < 0.08:
            continue  # Missed Orders
        ctx = order_sheet_context_load(kingdom=kingdom, turn=turn)
        entries = sheet_drafted(rng, world, ctx, kingdom, declarations.get(kingdom.pk), land_deals.get(kingdom.pk))
        order_sheet_save(kingdom=kingdom, turn=turn, entries=entries, submitted_by=kingdom.players.first(), submit=True)


def _names_to_meet(world: World, kingdom: Kingdom) -> list[str]:
    """Names a player may give a new army that meet a constraint: a town's Elite Defense Force's, a
    disbanded army's (in another case), one of the longest a name may be."""
    towns = [p.name for p in world.provinces.values() if p.settlement.value in ("town", "city")]
    used = list(Army.objects.filter(kingdom=kingdom).values_list("name", flat=True))
    return [
        *(f"Elite Defense Force of {t}" for t in towns),
        *(n.upper() for n in used),
        *(n.lower() for n in used),
        "X" * 100,
        "New Host",
    ]


def sheet_drafted(
    rng: random.Random, world: World, ctx: SheetContext, kingdom: Kingdom, ally: int | None, land_deal: Any
) -> SheetEntries:
    k = kingdom.pk
    own = [a for a in world.armies.values() if a.kingdom == k]
    orders = []
    for army in own:
        if rng.random() < 0.1:
            continue  # left out: it holds
        order = _order_drafted(rng, world, army)
        for candidate in (order, replace(order, defend_with="army"), replace(order.held(), defend_with="army")):
            if _accepted(SheetEntries(orders=(candidate,)), ctx):
                orders.append(candidate)
                break
    creations = []
    if rng.random() < 0.35:
        free = [p.number for p in world.provinces.values() if p.controller == k and not world.armies_in(p.number)]
        if free:
            creations.append(
                CreateArmy(rng.choice(_names_to_meet(world, kingdom)), rng.choice([1000, 1500]), rng.choice(free))
            )
    upgrades, depots = [], []
    for army in own:
        here = world.provinces[army.province]
        if here.controller == k and here.settlement.value in ("town", "city") and rng.random() < 0.3:
            upgrades.append(UpgradeArmy(army.id, min(2000, army.points + rng.choice([100, 500, 800]))))
        if not army.supply_depot and rng.random() < 0.3:
            depots.append(BuySupplyDepot(army.id))
    garrisons = [
        ReinforceGarrison(p.number)
        for p in world.provinces.values()
        if p.controller == k and p.settlement.value in ("town", "city") and not p.elite_defense and rng.random() < 0.4
    ]
    transfers = []
    if rng.random() < 0.15:
        others = [x for x in world.kingdoms if x != k]
        transfers.append(TransferGold(rng.choice(others), rng.choice([10, 100, 500])))
    # Using Tomb Raiders: a kingdom with a force may send it (a Tomb Raid moves one of its armies into the ruin).
    mission, orders = drafts.mission_draft(rng, world, k, orders) if ctx.raiders is not None else (None, orders)
    if ctx.raiders is not None and (mission is None or mission.kind != MissionKind.TOMB_RAID) and rng.random() < 0.8:
        mission = rival_mission_drafted(rng, ctx, k)  # the pure draft's target rarely fits its mission
    purchases = drafts.purchases_draft(rng, world, k, ctx.roster)
    # An item bought of a name the kingdom holds, or lost with an army (Armory: one of each).
    held = list(ArmoryItem.objects.filter(kingdom=kingdom).values_list("name", flat=True))
    characters = [c for c in ctx.roster.characters]
    if held and characters and rng.random() < 0.3:
        hero = rng.choice(characters)
        name = rng.choice(held)
        purchases.append(Purchase(hero.army, "item", unit=hero.name, name=rng.choice([name, name.upper()]), points=25))
    parts: dict[str, tuple[Any, ...]] = {
        "creations": tuple(creations),
        "upgrades": tuple(upgrades),
        "depots": tuple(depots),
        "garrisons": tuple(garrisons),
        "gold_transfers": tuple(transfers),
        "losses": tuple(drafts.losses_draft(rng, world, own)),
        "purchases": tuple(purchases),
        "item_transfers": tuple(drafts.item_transfers_draft(rng, world, k, ctx.roster)),
        "land_deals": (land_deal,) if land_deal is not None else (),
        "capitol_moves": tuple(drafts.capitol_moves_draft(rng, world, k)),
        "mission_uses": tuple(drafts.mission_uses_draft(rng, world, k)),
        "captive_orders": tuple(
            drafts.captive_orders_draft(rng, world, k) or drafts.captive_orders_draft(rng, world, k)
        ),
        "missions": (mission,) if mission is not None else (),
    }
    alliances = (DeclareAlliance(ally),) if ally is not None else ()
    kept = {
        part: tuple(e for e in entries if _accepted(SheetEntries(orders=tuple(orders), **{part: (e,)}), ctx))
        for part, entries in parts.items()
    }
    entries = SheetEntries(orders=tuple(orders), alliances=alliances, **kept)
    # More than the treasury holds refuses the sheet: its parts dropped one at a time.
    for part in parts:
        if not _accepted(entries, ctx):
            entries = replace(entries, **{part: ()})
    for fallback in (
        entries,
        SheetEntries(orders=tuple(orders), alliances=alliances),
        SheetEntries(orders=tuple(orders)),
    ):
        if _accepted(fallback, ctx):
            return fallback
    return SheetEntries()


def rival_mission_drafted(rng: random.Random, ctx: SheetContext, k: int) -> TombRaiderMission | None:
    """A Reconnaissance or Sabotage (Using Tomb Raiders) the check may accept: a rival player kingdom, a
    desired mission of its list, and the army or character that mission names ("any one army", "any 1
    character") among those the spy may name (decision 455); sometimes an unfitting one (the check refuses
    it, and the sheet goes without)."""
    for _ in range(4):
        mission = _rival_mission_tried(rng, ctx, k)
        if mission is not None:
            return mission
    return None


def _rival_mission_tried(rng: random.Random, ctx: SheetContext, k: int) -> TombRaiderMission | None:
    rivals = sorted(x for x, kingdom in ctx.world.kingdoms.items() if x != k and not kingdom.ancient_dead)
    if not rivals:
        return None
    target = rng.choice(rivals)
    kind = rng.choice([MissionKind.RECONNAISSANCE, MissionKind.SABOTAGE])
    desired = rng.choice([m.value for m in (Reconnaissance if kind is MissionKind.RECONNAISSANCE else Sabotage)])
    listed = listed_mission(kind.value, desired)
    armies = known_armies(ctx.world)
    characters = known_characters(ctx.world, armies, ctx.rival_characters)
    their_armies = sorted(a for a, known in armies.items() if known.kingdom == target)
    theirs = sorted(c for c, known in characters.items() if known.kingdom == target)
    wants = listed.target if listed is not None else None
    if wants is MissionTarget.ARMY and not their_armies or wants is MissionTarget.CHARACTER and not theirs:
        return None  # nothing of theirs the spy may name yet: another mission is tried
    return TombRaiderMission(
        kind=kind.value,
        target_kingdom=target,
        desired=desired,
        target_army=rng.choice(their_armies) if wants is MissionTarget.ARMY else None,
        target_character=rng.choice(theirs) if wants is MissionTarget.CHARACTER else None,
    )


def _order_drafted(rng: random.Random, world: World, army: Any) -> ArmyOrder:
    """Any order the army could be given (the pure fuzz's), most often a move into a rival's army or
    town next to it: the battles, and the towns changing hands, are what write the most back."""
    targets = sorted(
        n
        for n in world.adjacency[army.province]
        if any(a.kingdom != army.kingdom for a in world.armies_in(n))
        or (world.provinces[n].controller not in (None, army.kingdom) and world.provinces[n].settlement.value != "none")
    )
    if targets and rng.random() < 0.6:
        kind = rng.choice([OrderKind.MOVE, OrderKind.MOVE, OrderKind.RAZE_MOVE])
        return ArmyOrder(army.id, kind, target=rng.choice(targets), take_control=rng.random() < 0.3)
    return pure.order_random(rng, world, army)


def _accepted(entries: SheetEntries, ctx: SheetContext) -> bool:
    return not order_sheet_check(entries, ctx, warnings=False).error_problems


# -- the turn summary sheets -------------------------------------------------------------------------------


def summaries_filed(rng: random.Random, turn: Turn) -> None:
    """Each side's player files a turn summary sheet through the service, as its form allows (a sheet
    the service refuses is drafted again more plainly: a player reads the refusal and fixes it); some
    never file; the organizer rules on the battles the sheets leave open."""
    organizer = turn.campaign.organizer
    for battle in Battle.objects.filter(turn=turn).select_related("attacker_kingdom", "defender_kingdom"):
        results: dict[str, str] = {}
        for side, kingdom in (("attacker", battle.attacker_kingdom), ("defender", battle.defender_kingdom)):
            if kingdom is None or kingdom.is_ancient_dead or kingdom.is_rogue or rng.random() < 0.12:
                continue
            form = summary_sheet_form(battle=battle, kingdom=kingdom)
            other = results.get("attacker")
            for plain in (False, True):
                data = summary_drafted(rng, form, agree_with=other, plain=plain)
                try:
                    summary_sheet_save(battle=battle, kingdom=kingdom, data=data, entered_by=kingdom.players.first())
                except DomainError:
                    if plain:
                        raise
                    continue
                results[side] = data.get("result", "")
                break
        battle.refresh_from_db()
        standing = battle_standing(
            Battle.objects.prefetch_related("summary_sheets").get(pk=battle.pk), deadline_passed=True
        )
        if not isinstance(standing, Outcome) or rng.random() < 0.05:
            battle_rule(
                battle=battle,
                result=rng.choice(list(RESULTS)),
                attacker_withdrew=rng.random() < 0.1,
                defender_withdrew=rng.random() < 0.1,
                note="Ruled by the fuzz.",
                ruled_by=organizer,
            )


RESULTS = {
    "major-victory": "major-loss",
    "minor-victory": "minor-loss",
    "draw": "draw",
    "minor-loss": "minor-victory",
    "major-loss": "major-victory",
}


def summary_drafted(rng: random.Random, form: Any, *, agree_with: str | None, plain: bool) -> dict[str, Any]:
    """A sheet as the kingdom's player could fill in its form: its result (mostly the mirror of the
    attacker's), its casualties, characters lost, depots captured, looting, money negotiations; `plain`:
    its result alone."""
    result = RESULTS[agree_with] if agree_with and rng.random() < 0.85 else rng.choice(list(RESULTS))
    data: dict[str, Any] = {"result": result}
    if form.raid:
        data["raid_result"] = rng.choice(["success", "draw", "failure"])
    if plain:
        return data
    data["casualties"] = [
        {"unit": u.id, "models_lost": rng.randint(0, u.models_count), "champion": rng.random() < 0.1}
        for u in form.units
        if rng.random() < 0.6
    ]
    lost = [c.id for c in form.characters if rng.random() < 0.3]
    data["characters_lost"] = lost
    data["injury_rerolls"] = {str(c): rng.choice(["dead", "harmed"]) for c in lost if rng.random() < 0.3}
    if form.heirs and rng.random() < 0.3:
        data["warlord_heir"] = rng.choice(form.heirs).id
    if form.may_loot and result in ("major-victory", "minor-victory") and rng.random() < 0.5:
        data["loot_choice"] = rng.choice(["loot", "sack"])
    if form.enemy_carts and form.captors and rng.random() < 0.4:
        data["depots_captured"] = [{"army": rng.choice(list(form.enemy_carts)), "by": rng.choice(list(form.captors))}]
    if rng.random() < 0.1:
        data["negotiation_gold"] = rng.choice([10, 100, 500])
    if form.ally and rng.random() < 0.2:
        data["announce_alliance_end"] = True
    if form.raiders and rng.random() < 0.5:
        entry = rng.choice(form.raiders)
        killed = rng.randint(0, entry.models_count)
        data["raiders"] = [
            {"entry": entry.name, "killed": killed, "injured": rng.randint(0, entry.models_count - killed)}
        ]
    if rng.random() < 0.1:
        data["story"] = "They fought."
        data["story_bonus"] = True
    return data
