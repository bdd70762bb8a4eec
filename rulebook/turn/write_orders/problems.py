"""What the sheet check finds: a stable code per rule (`SheetProblemCode`), each problem
(`SheetProblem`) and the check's whole answer (`SheetCheck`: errors, warnings, the gold and experience
the sheet spends) (pure Python).

Every problem carries a stable code, the army it belongs to by id, and words that name the rule but
not the army: whoever shows a problem out of its army's row adds the name once
(SheetProblem.message), so no reader has to find an army by matching names in a message.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Protocol, TypeVar

from rulebook.turn.write_orders.context import SheetContext
from rulebook.world import ArmyState


class SheetProblemCode(StrEnum):
    """What is wrong with a sheet, one stable code per rule (like the illegal-order codes of the
    Diplomacy adjudicators), for API clients and stored events; never reworded once released."""

    # The whole sheet
    OVER_BUDGET = "over-budget"  # Treasury: the sheet spends more than the treasury and this turn's taxes
    TEXT_TOO_LONG = "text-too-long"  # a name longer than the campaign's records keep (text_lengths.py)
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
    SUPPORT_WRONG_ORDER = "support-wrong-order"  # only Move, Forced March or Support orders may support
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
    # Allies, Announcement: the end is announced during the End of Turn (the turn summary sheet or the
    # end-of-turn announcement), never on the order sheet (decision 385)
    ALLIANCE_END_AT_END_OF_TURN = "alliance-end-at-end-of-turn"
    TAKE_CONTROL = "take-control"  # Invasion: only a move into a province takes it
    TRANSFER = "transfer"  # Transfer of Gold: to another player's kingdom, a positive amount
    ITEM_TRANSFER = "item-transfer"  # Transfer of Gold (items): an item the kingdom holds, to another player's
    LAND_SALE_TWICE = "land-sale-twice"  # Land Sales: one province per turn per receiving kingdom
    CAPITOL = "capitol"  # Loss of the Capitol: the Warlord in another of the kingdom's cities, 1,000 gold
    LAND_SALE = "land-sale"  # Land Sales: another player's kingdom, one's own province, not a town or city
    # Using Tomb Raiders, Tomb Raid: the same values as
    # rulebook.ruins_and_tomb_raiders.tomb_raid.MissionProblemCode, whose words name the rule
    MISSION_ANCIENT_DEAD = "mission-ancient-dead"
    MISSION_NO_FORCE = "mission-no-force"
    MISSION_FORCE_INVALID = "mission-force-invalid"
    MISSION_CHANGED_NOT_PAID = "mission-changed-not-paid"
    MISSION_NO_MODELS_AVAILABLE = "mission-no-models-available"
    MISSION_ONE_A_TURN = "mission-one-a-turn"
    MISSION_NOT_ENOUGH_GOLD = "mission-not-enough-gold"
    MISSION_NOT_RUINS = "mission-not-ruins"
    MISSION_NO_ARMY_MOVING_IN = "mission-no-army-moving-in"
    # Reconnaissance, Sabotage: a captured Tomb Raider's fate (rulebook.ruins_and_tomb_raiders.captives)
    CAPTIVE_NOT_HELD = "captive-not-held"  # only the captor decides, once
    CAPTIVE_TWICE = "captive-twice"  # one order a captive
    # Reconnaissance and Sabotage: an effect earned, used on the sheet (write_orders/mission_uses.py)
    MISSION_USE_NO_EFFECT = "mission-use-no-effect"  # not the kingdom's own pending effect
    MISSION_USE_NOT_USABLE = "mission-use-not-usable"  # not an effect a sheet uses, or not this turn
    MISSION_USE_TWICE = "mission-use-twice"  # an effect is used once
    MISSION_USE_ARMY = "mission-use-army"  # the army named does not fit the effect
    MISSION_NO_RIVAL = "mission-no-rival"
    MISSION_NOT_A_RIVAL = "mission-not-a-rival"
    MISSION_UNKNOWN_DESIRED = "mission-unknown-desired"
    MISSION_TARGET_MISSING = "mission-target-missing"
    MISSION_TARGET_NOT_WANTED = "mission-target-not-wanted"
    MISSION_TARGET_NOT_KNOWN = "mission-target-not-known"
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
    # "capitol_moves", "missions"), `entry` the entry's place in it, `entry_field` the entry's field ("gold").
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


def no_such_army(army_id: int) -> SheetProblem:
    # Named by id: it is none of the kingdom's armies, so the message says "Army <id>".
    return SheetProblem(SheetProblemCode.NO_SUCH_ARMY, "is not one of your active armies.", army_id, subject=True)


class ArmyEntry(Protocol):
    """An entry of the sheet for one of the kingdom's armies (an order, a losses choice, an upgrade, a depot)."""

    @property
    def army(self) -> int: ...


Entry = TypeVar("Entry", bound=ArmyEntry)


def armies_named_twice(entries: Iterable[ArmyEntry], ctx: SheetContext) -> list[int]:
    """The kingdom's armies that more than one of `entries` names, in the order they are first named."""
    return [army for army, count in Counter(e.army for e in entries).items() if count > 1 and army in ctx.armies]


def each_army(entries: Iterable[Entry], ctx: SheetContext, check: SheetCheck) -> Iterator[tuple[Entry, ArmyState]]:
    """Each entry with the army it names, in the sheet's order; an entry that names none of the
    kingdom's armies is refused (NO_SUCH_ARMY) in its place instead, once for each army it names
    (2,000 orders for one unknown army are one problem, not 2,000)."""
    refused: set[int] = set()
    for entry in entries:
        army = ctx.armies.get(entry.army)
        if army is None:
            if entry.army not in refused:
                refused.add(entry.army)
                check.error_problems.append(no_such_army(entry.army))
            continue
        yield entry, army
