"""The order sheet's entries (Appendix: Order Sheet; 4. Write Orders): an order for each army and
what else the sheet buys, sends and declares, one frozen record per kind of entry, all of a sheet in
`SheetEntries` (pure Python). The checks of each part of the sheet sit beside this module, one
module per section of the rulebook; `check.order_sheet_check` runs them all.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Any


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
# 4. Write Orders: "Move and / or Support". A Forced March is the special way an army moves ("when an
# Orc & Goblin army moves, it may use its special Forced March ability"), so it may support as a Move
# does (decision 588); Raze and Move is the Raze order and names no battle.
SUPPORTING_ORDERS = frozenset({OrderKind.SUPPORT, OrderKind.MOVE, OrderKind.FORCED_MARCH})
DISASTER_CHOICES = ("casualties", "disband")  # Foraging Table, 2: Disaster
# Battle for Towns, Cities, and Capitols: "you may use either the local garrison force or the army".
# The army fights when the sheet is silent (docs/rules-decisions.md).
DEFEND_WITH_ARMY = "army"  # the army fights; the garrison supports it within the 500-point cap
DEFEND_WITH_GARRISON = "garrison"  # the garrison fights; the army supports it with a detachment
DEFEND_CHOICES = (DEFEND_WITH_ARMY, DEFEND_WITH_GARRISON)


@dataclass(frozen=True)
class ArmyOrder:
    """One army's order. `target` for moves; `support` for Support (alone, or with a Move or Forced March);
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
    """Allies, Announcement: an order sheet's announcement that the alliance with `kingdom` is over.
    Refused by the sheet check: the rulebook has the end announced "during the End of Campaign
    Turn", which the turn summary sheet and the end-of-turn announcement carry (decision 385); kept
    so that sheets stored before can still be read."""

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
class TombRaiderMission:
    """Using Tomb Raiders: "Tomb Raiders may do ONE of the following missions each turn. To send the
    Tomb Raiders on a mission costs 100 gold from your Treasury." `kind` is one of
    rulebook.ruins_and_tomb_raiders.tomb_raid.MissionKind's values; a Tomb Raid names the ruin's
    `province` (one of the kingdom's armies must be ordered into it). `pay_change_fee`: the force
    was changed this turn and the kingdom pays 5 gold a point added to send it all the same
    (Maintaining / Changing Tomb Raiders). Reconnaissance and Sabotage name the rival kingdom
    (`target_kingdom`, an id), the `desired` mission of their list (a value of
    rulebook.ruins_and_tomb_raiders.reconnaissance.Reconnaissance or .sabotage.Sabotage) and, where
    that mission names one, the rival's army (`target_army`) or character (`target_character`)."""

    kind: str = "tomb-raid"
    province: int | None = None
    pay_change_fee: bool = False
    target_kingdom: int | None = None
    desired: str = ""
    target_army: int | None = None
    target_character: int | None = None


@dataclass(frozen=True)
class MissionUse:
    """An effect a Reconnaissance or Sabotage earned, used on this sheet (decision 450): `effect` is the
    id of the kingdom's MissionEffect; `army` what it acts on: for Army Orders, one of the kingdom's own
    armies to "hold" in response; for Destroy Communication, the army whose support is cancelled."""

    effect: int
    army: int | None = None


@dataclass(frozen=True)
class CaptiveOrder:
    """ "A kingdom may do anything it wishes with a captured Tomb Raider": the fate the captor gives the
    captive `captive` (a CapturedRaider id), a value of rulebook.ruins_and_tomb_raiders.rival_missions.
    CaptiveFate (released or executed; a ransom is agreed between the players and paid by a Transfer of
    Gold, decision 453)."""

    captive: int
    fate: str


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
    missions: tuple[TombRaiderMission, ...] = ()
    mission_uses: tuple[MissionUse, ...] = ()
    captive_orders: tuple[CaptiveOrder, ...] = ()

    def losses_first(self, army: int) -> str:
        """The unit named to take the army's losses first ("" when none is)."""
        return next((choice.unit for choice in self.losses if choice.army == army), "")


def entry_at(part: str, entry: int, entry_field: str) -> dict[str, Any]:
    """A problem's place: the entry of the sheet's `part` it is about, and the entry's field."""
    return {"part": part, "entry": entry, "entry_field": entry_field}
