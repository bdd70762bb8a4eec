"""7. Aftermath and 8. End of Turn over a copy of the state (pure Python).

Per battle, in a fixed order (province number, then battle id): the victor keeps the province and
the loser retreats (or is wiped out); looting or sacking; victory gold; money negotiations;
experience; casualty recovery (one-use troops included); character injuries (and the Warlord's
succession); veteran status; Press the Advantage. Then, over every army that fought, Army
Restrictions: 500 points or less is disbanded.

Rulebook: 7. Aftermath (Looting, Casualty Recovery, Rank and File Recovery, Character Injury
Chart), 8. End of Turn, Experience Points, Spending Experience (one-use troops), Veteran Status,
Army Restrictions, Warlord, Orcs & Goblins "Savages", Stories Are Nice, Battle for Towns, Cities,
and Capitols (the Elite Defense Force perishes with its town), Rogue / Trickster (Press the
Advantage). Rule cases A1-A8.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field, replace

from kernel.dice import Dice
from kernel.event_codes import EventCode
from kernel.events import Event
from kernel.ledger import LedgerReason
from rulebook.allies.chart import BreakKind
from rulebook.allies.declarations import alliance_break
from rulebook.archetypes.character_record import abilities_kept, deep_wound_battles_left
from rulebook.experience.spending import CURSE_OF_THE_DEAD
from rulebook.tables import ARMY_DISBANDED_AT_OR_BELOW, ARMY_MIN_POINTS, ArmyKind, ArmyType, Settlement
from rulebook.turn.aftermath.casualty_recovery import (
    COMMAND_MODELS,
    COMMAND_RECOVERY_MIN,
    ONE_USE_RECOVERY_MIN,
    models_recovered,
    rank_and_file_roll,
)
from rulebook.turn.aftermath.injury_chart import AGAINST_THE_ODDS, FULL, Injury, injury_roll
from rulebook.turn.aftermath.results import BASE_EXPERIENCE, BattleResult, Outcome, SideOutcome, victory_gold
from rulebook.turn.tables import TRANSFER_ARRIVES_AFTER, transfer_affordable, transfer_fee
from rulebook.warlord.succession import HeirCandidate, succession_text, warlord_heir
from rulebook.world import LOOTED_TURNS, ArmyState, OnTheWorld, ProvinceState, World, lose_fortifications

PHASE = "aftermath"
# Ledger reasons (kingdoms.models.TreasuryEntry.Reason values) of the aftermath's gold.

# Looting: gold for a sacked or looted settlement.
SACK_GOLD: dict[Settlement, int] = {Settlement.TOWN: 1000, Settlement.CITY: 2000}
LOOT_GOLD: dict[Settlement, int] = {Settlement.TOWN: 500, Settlement.CITY: 1000}
SAVAGES_MUST_SACK_MAX = 2  # Orcs & Goblins "Savages": on a 1 or 2 they MUST sack it
STORY_EXPERIENCE = 3  # Stories Are Nice: once per turn, to the army written about
VETERAN_LEVEL_MAX = 3
# Rogue / Trickster: "Press the Advantage": 25 more experience for a victory or massacre, if the
# General survives the battle.
PRESS_THE_ADVANTAGE = "Press the Advantage"
PRESS_THE_ADVANTAGE_EXPERIENCE = 25
GENERAL_ROLES = ("warlord", "general")  # the Warlord leads the army he is in
# Spending Experience: "To reroll a result on the Character Injury Table (25 Experience Points =
# 1 reroll; the second roll stands regardless of the result)". What the player asks for on the
# turn summary sheet: a reroll of a Dead result only, or of any result that harms him.
INJURY_REROLL_EXPERIENCE = 25
REROLL_DEAD = "dead"
REROLL_HARMED = "harmed"
INJURY_REROLL_CHOICES = (REROLL_DEAD, REROLL_HARMED)
RESILIENT = "Resilient"  # Noble: "may reroll any result on the Character Injury Table"
# Skaven "Backstabbers": "If your army includes more than one character and at least one of them is
# an assassin, your opponent can force you to reroll the results of ONE character injury test."
BACKSTABBERS_ASSASSIN = "assassin"  # a character whose unit's name says Assassin
UNHARMED = frozenset({FULL.code, AGAINST_THE_ODDS.code})


def _possessive(name: str) -> str:
    return f"{name}'" if name.endswith("s") else f"{name}'s"


@dataclass
class UnitA:
    id: int
    army: int
    name: str
    models_count: int
    points_per_model: int
    equipment_points: int = 0
    one_use: bool = False
    living: bool = False  # a living unit of an undead army (Curse of the Dead)
    veteran_level: int = 0
    veteran_eligible: bool = False
    character: bool = False  # a character's one-model unit: not a regiment, no Veteran Status

    @property
    def points(self) -> int:
        return self.models_count * self.points_per_model + (self.equipment_points if self.models_count else 0)


@dataclass
class CharacterA:
    id: int
    kingdom: int
    unit: int
    name: str
    role: str  # warlord, general, hero
    injuries: list[dict[str, object]] = field(default_factory=list)
    alive: bool = True
    abilities: tuple[str, ...] = ()  # Archetype Abilities: the Starting Ability, then advancements
    battles_survived: int = 0


@dataclass
class ItemA:
    id: int
    name: str
    points: int
    bearer: int | None  # unit id
    destroyed: bool = False


@dataclass(frozen=True)
class Casualty:
    unit: int
    models_lost: int = 0
    champion: bool = False
    standard: bool = False
    musician: bool = False
    one_use_used: bool = False


@dataclass(frozen=True)
class SideA:
    """One side of a battle and what its turn summary sheet reported."""

    kingdom: int | None
    army: int | None  # None: the garrison fought
    supports: tuple[int, ...] = ()  # parent armies of its support detachments
    casualties: tuple[Casualty, ...] = ()
    characters_lost: tuple[int, ...] = ()
    loot_choice: str = ""  # "loot", "sack" or "" (not chosen: looted)
    negotiation_gold: int = 0  # paid to the opponent
    story: bool = False
    story_bonus: bool = False  # the player gives the turn's story experience to this battle's army
    points_faced: int = 0  # the opposing army, its detachments, garrison and fortification
    injury_rerolls: tuple[tuple[int, str], ...] = ()  # (character, REROLL_DEAD or REROLL_HARMED): 25 experience
    backstab: bool = False  # forces the opponent's Skaven army to reroll one injury test (Backstabbers)
    warlord_heir: int | None = None  # the General the player names for a tie in the succession (Warlord)
    sitting_out: tuple[int, ...] = ()  # characters an Old Battle Wound kept out of the battle (rolled a 1)
    # Allies, "Withdraw of support": parent armies of an ally's detachments on this side that withdrew
    # their support in the battle, as this side's sheet reports (decision 220).
    withdrawn: tuple[int, ...] = ()


@dataclass(frozen=True)
class BattleA:
    id: int
    province: int
    attacker: SideA
    defender: SideA
    outcome: Outcome
    both_moved: bool = False
    # Rogue Kingdom, scouting forces: the attacker's Tomb Raiders skirmished, its army did not fight
    skirmish: bool = False


@dataclass(frozen=True)
class AftermathState(OnTheWorld):
    """The world the battles were fought in, with what the aftermath needs besides: the units,
    characters and items of the kingdoms that fought, the battles with their settled outcomes, and
    where each army moved from this turn (its retreat goes back there)."""

    world: World  # every active army of the campaign is in it: retreats must see them all
    units: dict[int, UnitA]  # the units of the armies that fought
    characters: dict[int, CharacterA]  # the living characters of the kingdoms that fought
    items: dict[int, ItemA]  # magic items borne by those units
    battles: list[BattleA]
    came_from: dict[int, int] = field(default_factory=dict)  # army id -> province it moved from this turn

    def working_copy(self) -> AftermathState:
        """A copy the rules may change: the world's working copy, and copies of the units,
        characters and items (which the rules change in place). The battles and where the
        armies came from are never changed, so they are shared."""
        return AftermathState(
            world=self.world.working_copy(),
            units={u: copy.copy(v) for u, v in self.units.items()},
            characters={c: copy.deepcopy(v) for c, v in self.characters.items()},
            items={i: copy.copy(v) for i, v in self.items.items()},
            battles=list(self.battles),
            came_from=self.came_from,
        )

    def army_points(self, army_id: int) -> int:
        """The army's list points: its units and the items they bear. While its list is due it has
        none to count: it counts at the points paid for it, less its losses since, as the world does."""
        army = self.world.army(army_id)
        if army.list_due:
            return army.points
        units = [u for u in self.units.values() if u.army == army_id]
        ids = {u.id for u in units}
        items = sum(i.points for i in self.items.values() if i.bearer in ids and not i.destroyed)
        return sum(u.points for u in units) + items


@dataclass(frozen=True)
class BattleSettled:
    battle: int
    result: BattleResult  # the attacker's final result
    defender_result: BattleResult  # the defender's: not its mirror when a sheet was missing (8. End of Turn)
    victor: str | None


@dataclass(frozen=True)
class AftermathResult:
    state: AftermathState
    events: list[Event]
    battles: list[BattleSettled]


class _AftermathRun:
    def __init__(self, state: AftermathState, dice: Dice) -> None:
        self.state = state
        self.dice = dice
        self.events: list[Event] = []
        self.story_battles = _story_battles(state.battles)  # kingdom -> the battle its story bonus goes to
        self.fought: set[int] = set()
        self.missed: set[int] = set()  # characters who missed the battle being settled (Deep Wound)
        # Warlord: the General each kingdom's player named for a tie, on any of its sheets of the turn.
        self.heir_choice: dict[int, int] = {}
        for b in sorted(state.battles, key=lambda b: (b.province, b.id)):
            for side in (b.attacker, b.defender):
                if side.kingdom is not None and side.warlord_heir is not None:
                    self.heir_choice.setdefault(side.kingdom, side.warlord_heir)

    def event(self, code: EventCode, text: str, **kw: object) -> None:
        self.events.append(Event(PHASE, code, text, **kw))  # type: ignore[arg-type]

    def army_name(self, army_id: int | None) -> str:
        return self.state.world.army(army_id).name if army_id is not None else "the garrison"

    def _put(self, army: ArmyState) -> ArmyState:
        """Replace the army's record in the working copy (a field army or an Elite Defense Force)."""
        armies = self.state.garrisons if army.kind is ArmyKind.GARRISON else self.state.armies
        armies[army.id] = army
        return army

    def _perished(self, army_id: int) -> bool:
        """An Elite Defense Force (or Capitol Garrison) whose town was conquered: "perished to the
        last man and no recovery rolls are to be made" (Battle for Towns, Cities, and Capitols)."""
        army = self.state.world.army(army_id)
        return army.kind is ArmyKind.GARRISON and army.disbanded

    def _disband(self, army: ArmyState) -> ArmyState:
        """The army is gone, and the magic items its units carried are destroyed with it."""
        self._destroy_items(army.id)
        return self._put(replace(army, disbanded=True))

    def _add_experience(self, army_id: int, points: int) -> ArmyState:
        army = self.state.world.army(army_id)
        return self._put(replace(army, experience=army.experience + points))

    # -- per battle ----------------------------------------------------------------------------

    def battle(self, battle: BattleA) -> BattleSettled:
        if battle.skirmish:
            return self._skirmish(battle)
        state = self.state
        province = state.provinces[battle.province]
        outcome = battle.outcome
        sides = {"attacker": battle.attacker, "defender": battle.defender}
        results = {"attacker": outcome.attacker, "defender": outcome.defender}
        victor = outcome.victor
        for side in sides.values():
            if side.army is not None:
                self.fought.add(side.army)
            self.fought.update(side.supports)
        self._result_events(battle, province)
        self._withdrawals(battle)
        self.missed = set()
        for side in sides.values():
            self._deep_wounds(side, province)
            self._old_wounds(side, province)
        self._province_and_retreats(battle, province, victor)
        if victor is not None:
            winner = sides[victor]
            if winner.kingdom is not None:
                gold = victory_gold(results[victor].result, winner.points_faced)
                if gold:
                    self._gold(
                        winner.kingdom,
                        gold,
                        LedgerReason.VICTORY,
                        EventCode.VICTORY_GOLD,
                        f"Victory gold for the {results[victor].result.label.lower()} in {province}: {gold:,} "
                        f"({winner.points_faced:,} points faced; Looting).",
                        army=winner.army,
                        province=battle.province,
                    )
        self._negotiations(battle, province)
        for side_name, side in sides.items():
            self._experience(battle, side, results[side_name].result, results[side_name].experience_allowed, province)
        # The Generals who led the battle with Press the Advantage, taken before the injury rolls:
        # a Warlord's succession must not hand it to a General who did not lead the battle, and
        # Amnesia rolled now does not undo what he did in it.
        pressing = {side_name: self._pressing_general(side.army) for side_name, side in sides.items()}
        for side_name, side in sides.items():
            opponent = sides["defender" if side_name == "attacker" else "attacker"]
            self._recovery(side, results[side_name].result.is_victory, province)
            self._injuries(side, province, forced=opponent.backstab)
            self._survived(side)
            self._press_the_advantage(side, results[side_name], pressing[side_name], province)
        for side in sides.values():
            for army_id in side.supports:
                army = state.armies[army_id]
                if not army.disbanded:
                    # Support: the detachment returns to its parent army after the battle.
                    self.event(
                        EventCode.DETACHMENT_RETURNED,
                        f"{army.name}'s detachment returns from {province}.",
                        kingdom=army.kingdom,
                        army=army_id,
                        province=battle.province,
                    )
        return BattleSettled(
            battle=battle.id, result=outcome.attacker.result, defender_result=outcome.defender.result, victor=victor
        )

    def _result_events(self, battle: BattleA, province: ProvinceState) -> None:
        """Each side's result in its kingdom's log."""
        outcome = battle.outcome
        sides = {"attacker": battle.attacker, "defender": battle.defender}
        results = {"attacker": outcome.attacker, "defender": outcome.defender}
        for side_name, side in sides.items():
            result = results[side_name]
            other = results["defender" if side_name == "attacker" else "attacker"]
            label = self._side_label(side)
            if battle.skirmish:  # Rogue Kingdom, scouting forces (decision 231)
                kingdom = self.state.kingdoms[side.kingdom].name if side.kingdom is not None else "a Rogue Kingdom"
                label = f"{kingdom}'s Tomb Raiders" if side is battle.attacker else f"the scouting forces of {kingdom}"
            text = f"Battle in {province}: {result.result.label.lower()} for {label}"
            # 8. End of Turn (R2): a missing sheet is a major loss for that side only; the other
            # side's result stands as its sheet reported it, so the two need not mirror.
            if not result.filed:
                text += ", for want of a turn summary sheet by the deadline (8. End of Turn)"
            elif not other.filed:
                text += " (the opponent filed no turn summary sheet by the deadline; 8. End of Turn)"
            self.event(
                EventCode.BATTLE_RESULT,
                text + ".",
                kingdom=side.kingdom,
                army=side.army,
                province=battle.province,
                data={"result": result.result.value, "side": side_name, "filed": result.filed},
            )

    def _skirmish(self, battle: BattleA) -> BattleSettled:
        """Rogue Kingdom, scouting forces (decision 231): "Fight a ruins style battle for control";
        in a ruins battle "the player uses their Tomb Raider force ... If the player loses the
        skirmish, their army may not move into to the province this turn". The army did not fight:
        no casualties, recovery, injuries, experience or victory gold (what the Tomb Raiders lose is
        their own: Maintaining / Changing Tomb Raiders). Won: the army takes the province as any
        victor that moved in (Army Restrictions; a Rogue Kingdom's town gives nothing, decision
        151). Otherwise it goes back where it came from: it never entered."""
        state = self.state
        province = state.provinces[battle.province]
        outcome = battle.outcome
        self._result_events(battle, province)
        side = battle.attacker
        assert side.army is not None
        army = state.armies[side.army]
        if outcome.victor == "attacker" and self._may_claim(side, province):
            self._conquer(province, side)
        elif not army.disbanded:
            back = state.came_from.get(army.id)
            if back is None or back == battle.province or self._occupied(back, army.id):
                self._retreat(army.id, battle.province)  # nowhere to go back to: the retreat's choices
            else:
                self._put(replace(army, province=back))
                self.event(
                    EventCode.SKIRMISH_LOST,
                    f"{state.kingdoms[army.kingdom].name}'s Tomb Raiders did not win the skirmish for {province}: "
                    f"{army.name} may not move into it this turn and stays in {state.provinces[back]} (Ruins).",
                    kingdom=army.kingdom,
                    army=army.id,
                    province=back,
                    data={"back_to": back, "from": battle.province},
                )
        return BattleSettled(
            battle=battle.id,
            result=outcome.attacker.result,
            defender_result=outcome.defender.result,
            victor=outcome.victor,
        )

    def _withdrawals(self, battle: BattleA) -> None:
        """Allies, "Withdraw of support": an ally whose detachment withdrew its support in the battle
        breaks the alliance (the betrayed receives 2,000 gold; decision 220). Reported on the
        supported side's sheet; an alliance already ended (announced over this turn, or broken by
        another withdrawal) is not broken twice."""
        for side in (battle.attacker, battle.defender):
            for army_id in side.withdrawn:
                ally = self.state.world.army(army_id).kingdom
                alliance = self.state.world.alliance_between(side.kingdom, ally)
                if alliance is not None:
                    alliance_break(
                        self.state,
                        alliance,
                        by=ally,
                        how=BreakKind.WITHDRAWAL,
                        phase=PHASE,
                        events=self.events,
                        province=battle.province,
                    )

    def _side_label(self, side: SideA) -> str:
        if side.kingdom is None:
            return "the neutral garrison"
        kingdom = self.state.kingdoms[side.kingdom].name
        return f"{kingdom}: {self.army_name(side.army)}" if side.army is not None else f"{kingdom} (garrison)"

    def _gold(self, kingdom: int, amount: int, reason: str, code: EventCode, text: str, **kw: object) -> None:
        record = self.state.kingdoms[kingdom]
        self.state.kingdoms[kingdom] = replace(record, treasury=record.treasury + amount)
        self.event(code, text, kingdom=kingdom, gold=amount, ledger_reason=reason, **kw)

    # -- the province and the retreats -----------------------------------------------------------

    def _province_and_retreats(self, battle: BattleA, province: ProvinceState, victor: str | None) -> None:
        attacker, defender = battle.attacker, battle.defender
        retreating: list[int] = []
        if victor is not None:
            winner, loser = (attacker, defender) if victor == "attacker" else (defender, attacker)
            if loser.army is not None:
                retreating.append(loser.army)
            # An army of the loser's that stood where its garrison fought (Battle for Towns, Cities,
            # and Capitols) was on the side that lost: it cannot stay beside the victor.
            retreating += [
                a.id
                for a in sorted(self.state.armies.values(), key=lambda a: a.id)
                if a.province == battle.province and a.kingdom == loser.kingdom and not a.disbanded
                if a.id != loser.army
            ]
            # The victor keeps the province: the attacker moved in and takes it; so does a defender
            # that moved in as well (both moved). A defender that stood its ground keeps what it held.
            if (victor == "attacker" or battle.both_moved) and self._may_claim(winner, province):
                self._conquer(province, winner)
        else:
            # No victor: the province stays as it was; an army that moved in goes back, a
            # defender that stood its ground stays (docs/rules-decisions.md).
            if attacker.army is not None:
                retreating.append(attacker.army)
            if defender.army is not None and (battle.both_moved or battle.outcome.defender.result.is_loss):
                retreating.append(defender.army)
            self.event(
                EventCode.NO_VICTOR,
                f"Nobody won the battle in {province}: it stays "
                + (f"with {self.state.kingdoms[province.controller].name}." if province.controller else "neutral."),
                province=battle.province,
            )
        for army_id in retreating:
            self._retreat(army_id, battle.province)

    def _may_claim(self, side: SideA, province: ProvinceState) -> bool:
        """Army Restrictions: "Armies less than 1000 points cannot claim provinces" (R1). The army
        counts as it fought the battle: its points when the victor keeps the province, the first
        step of 7. Aftermath, before Casualty Recovery applies the battle's losses (the same count a
        move's claim uses). Its support detachments return to their parents and do not count."""
        if side.army is None or side.kingdom is None or province.controller == side.kingdom:
            return True
        army = self.state.world.army(side.army)
        if army.points >= ARMY_MIN_POINTS:
            return True
        holder = self.state.kingdoms[province.controller].name if province.controller is not None else None
        stays = f"with {holder}" if holder else "neutral"
        # Looting follows the capture (Orcs & Goblins: "When they capture a city or town"; a looted
        # town "becomes under the control of the conquerors"): no claim, no looting or sacking.
        untouched = (
            f"; its {province.settlement} is neither looted nor sacked" if province.settlement in SACK_GOLD else ""
        )
        self.event(
            EventCode.TOO_SMALL_TO_CLAIM,
            f"{army.name} won with {army.points:,} points, fewer than {ARMY_MIN_POINTS:,}: it cannot claim "
            f"{province}, which stays {stays}{untouched} (Army Restrictions).",
            kingdom=army.kingdom,
            army=army.id,
            province=province.number,
            data={"points": army.points},
        )
        return False

    def _conquer(self, province: ProvinceState, side: SideA) -> None:
        """The winning side takes the province: the Elite Defense Force there perishes, a town or
        city is looted or sacked, control changes. Its own province it simply keeps."""
        state = self.state
        winner = side.kingdom
        assert winner is not None  # only a neutral garrison has no kingdom, and it never moves in
        loser = province.controller
        if loser == winner:
            # Nothing to conquer: a kingdom does not loot its own town.
            return
        for army in sorted(state.garrisons.values(), key=lambda a: a.id):
            # Battle for Towns, Cities, and Capitols: should the town or city be conquered, its
            # Elite Defense Force has perished to the last man.
            if army.province == province.number and not army.disbanded and army.kingdom != winner:
                self._disband(army)
                state.provinces[province.number] = replace(state.provinces[province.number], elite_defense=False)
                self.event(
                    EventCode.ELITE_DEFENSE_FORCE_PERISHED,
                    f"The Elite Defense Force of {province.name} perished to the last man.",
                    kingdom=army.kingdom,
                    army=army.id,
                    province=province.number,
                )
        rogue = loser is not None and state.kingdoms[loser].rogue
        abandoned = ""
        if rogue and province.settlement in SACK_GOLD:
            # Rogue Kingdom: "taking these from a Rogue Kingdom will not give the attacking player a
            # town or city or a chance to loot" (decision 151).
            abandoned = (
                f"; its {province.settlement} is abandoned, without wealth or supplies: no town or city and nothing "
                "to loot (Rogue Kingdom)"
            )
            state.provinces[province.number] = state.provinces[province.number].abandoned()
        elif province.settlement in SACK_GOLD:
            self._loot(province, side)
        state.provinces[province.number] = state.provinces[province.number].taken_by(winner)
        self.event(
            EventCode.PROVINCE_CONQUERED,
            f"{state.kingdoms[winner].name} takes {province} with {self.army_name(side.army)}{abandoned}.",
            kingdom=winner,
            army=side.army,
            province=province.number,
            data={"from_kingdom": loser},
        )
        if loser is not None and loser != winner:
            self.event(
                EventCode.PROVINCE_LOST,
                f"{province} is lost to {state.kingdoms[winner].name}.",
                kingdom=loser,
                province=province.number,
            )
            if state.kingdoms[loser].capitol == province.number and state.kingdoms[loser].ancient_dead:
                # Return to the Tomb: the capitol destroyed and the Warlord, who must remain with
                # its garrison, laid to rest with it: they advance no more (rules decision 108).
                self.event(
                    EventCode.RETURN_TO_THE_TOMB,
                    f"The pyramid {province} has fallen to {state.kingdoms[winner].name} and the Warlord of the "
                    "Ancient Dead is laid to permanent rest with its garrison: the Ancient Dead return to the tomb. "
                    "Their armies rise and advance no more; the campaign goes on (Return to the Tomb).",
                    kingdom=loser,
                    province=province.number,
                )
            elif state.kingdoms[loser].capitol == province.number and not rogue:
                self.event(
                    EventCode.CAPITOL_LOST,
                    f"{state.kingdoms[loser].name} has lost its capitol {province}: the Warlord has 3 turns to reach "
                    "another of its cities for a coronation (Loss of the Capitol).",
                    kingdom=loser,
                    province=province.number,
                )

    def _loot(self, province: ProvinceState, side: SideA) -> None:
        """Looting: the winning side's choice on its sheet (loot when none), unless its Orcs &
        Goblins go savage."""
        winner = side.kingdom
        assert winner is not None
        kingdom = self.state.kingdoms[winner]
        choice = side.loot_choice or "loot"
        if kingdom.army_type is ArmyType.ORCS_AND_GOBLINS:
            roll = self.dice.d6(
                purpose=f'Orcs & Goblins "Savages": {province}',
                kingdoms=[winner],
                armies=[a for a in [side.army] if a is not None],
            )
            if roll <= SAVAGES_MUST_SACK_MAX:
                choice = "sack"
                self.event(
                    EventCode.SAVAGES,
                    f"Rolled {roll}: the Orcs & Goblins go savage on {province} and MUST sack it "
                    '(Orcs & Goblins "Savages").',
                    kingdom=winner,
                    province=province.number,
                    data={"roll": roll},
                )
            else:
                self.event(
                    EventCode.SAVAGES,
                    f'Rolled {roll}: the Orcs & Goblins keep their heads in {province} (Orcs & Goblins "Savages").',
                    kingdom=winner,
                    province=province.number,
                    data={"roll": roll},
                )
        settlement = province.settlement
        if choice == "sack":
            gold = SACK_GOLD[settlement]
            self.state.provinces[province.number] = replace(
                self.state.provinces[province.number], settlement=Settlement.NONE
            )
            self._gold(
                winner,
                gold,
                LedgerReason.LOOT,
                EventCode.SACKED,
                f"{kingdom.name} ({self.army_name(side.army)}) sacks the {settlement} of {province}: it is "
                f"destroyed (+{gold:,} gold; Looting).",
                army=side.army,
                province=province.number,
            )
        else:
            gold = LOOT_GOLD[settlement]
            self.state.provinces[province.number] = replace(
                self.state.provinces[province.number], looted_turn=self.state.turn
            )
            self._gold(
                winner,
                gold,
                LedgerReason.LOOT,
                EventCode.LOOTED,
                f"{kingdom.name} ({self.army_name(side.army)}) loots the {settlement} of {province} "
                f"(+{gold:,} gold); it cannot create or upgrade armies until turn "
                f"{self.state.turn + LOOTED_TURNS} (Looting).",
                army=side.army,
                province=province.number,
            )

    def _occupied(self, number: int, moving: int) -> bool:
        return any(a.province == number and not a.disbanded and a.id != moving for a in self.state.armies.values())

    def _retreat(self, army_id: int, battle_province: int) -> None:
        """7. Aftermath: back where it came from if it can; else (or if it did not move) to an
        adjacent province without an army: a home territory first, then neutral, then allied
        (Allies: "Armies may retreat into allied provinces. Control of the province does not change
        hands"), then another kingdom's; the lowest number within each. Nowhere: wiped out."""
        state = self.state
        if army_id in state.garrisons:
            return  # an Elite Defense Force cannot leave its town (Battle for Towns, Cities, and Capitols)
        army = state.armies[army_id]
        if army.disbanded:
            return
        target: int | None = None
        how = ""
        came_from = state.came_from.get(army_id)
        if came_from is not None and came_from != battle_province and not self._occupied(came_from, army_id):
            target, how = came_from, "back where it came from"
        else:

            def rank(number: int) -> int:
                controller = state.provinces[number].controller
                if controller == army.kingdom:
                    return 0
                if controller is None:
                    return 1
                return 2 if state.allied(army.kingdom, controller) else 3

            free = [
                n
                for n in sorted(state.adjacency.get(battle_province, frozenset()))
                if n != battle_province and n in state.provinces and not self._occupied(n, army_id)
            ]
            if free:
                target = min(free, key=lambda n: (rank(n), n))
                how = ("to its own", "to the neutral", "to the allied", "to the foreign")[rank(target)] + " province"
        if target is None:
            self._disband(army)
            self.event(
                EventCode.WIPED_OUT,
                f"{army.name} has nowhere to retreat from {state.provinces[battle_province]} and is wiped out "
                "(7. Aftermath); its magic items are lost.",
                kingdom=army.kingdom,
                army=army_id,
                province=battle_province,
            )
            return
        army = self._put(replace(army, province=target))
        self.event(
            EventCode.RETREATED,
            f"{army.name} retreats from {state.provinces[battle_province]} {how} {state.provinces[target]}"
            + (" (it does not claim it)." if state.provinces[target].controller not in (army.kingdom,) else "."),
            kingdom=army.kingdom,
            army=army_id,
            province=target,
            data={"from": battle_province},
        )

    # -- gold, experience --------------------------------------------------------------------------

    def _negotiations(self, battle: BattleA, province: ProvinceState) -> None:
        """Money negotiations follow Transfer of Gold (rules decision 142): the payer's treasury pays
        the gold and its 10% transportation fee now (at most what it holds); the gold arrives in the
        payee's treasury at the beginning of the turn after next (orders/services/transfers.py reads
        the NEGOTIATION_PAID event's `to`, `gold` and `arrives`)."""
        for payer, payee in ((battle.attacker, battle.defender), (battle.defender, battle.attacker)):
            if not payer.negotiation_gold or payer.kingdom is None or payee.kingdom is None:
                continue
            treasury = self.state.kingdoms[payer.kingdom].treasury
            amount = transfer_affordable(payer.negotiation_gold, treasury)
            fee = transfer_fee(amount)
            arrives = self.state.turn + TRANSFER_ARRIVES_AFTER
            names = self.state.kingdoms[payer.kingdom].name, self.state.kingdoms[payee.kingdom].name
            short = (
                f" (of the {payer.negotiation_gold:,} agreed, all its treasury could send with the fee)"
                if amount < payer.negotiation_gold
                else ""
            )
            if amount:
                self._gold(
                    payer.kingdom,
                    -(amount + fee),
                    LedgerReason.TRANSFER,
                    EventCode.NEGOTIATION_PAID,
                    f"{names[0]} pays {names[1]} {amount:,} gold after the battle in {province}{short}, and "
                    f"{fee:,} in transportation fees ({amount + fee:,} in all); it arrives at the beginning of "
                    f"turn {arrives} (Transfer of Gold).",
                    province=province.number,
                    data={"to": payee.kingdom, "gold": amount, "fee": fee, "arrives": arrives},
                )
                self.event(
                    EventCode.NEGOTIATION_RECEIVED,
                    f"{names[0]} pays {names[1]} {amount:,} gold after the battle in {province}: it arrives in "
                    f"the treasury at the beginning of turn {arrives} (Transfer of Gold).",
                    kingdom=payee.kingdom,
                    province=province.number,
                    data={"from_kingdom": payer.kingdom, "gold": amount, "arrives": arrives},
                )

    def _ancient_dead(self, kingdom: int | None) -> bool:
        return kingdom is not None and self.state.kingdoms[kingdom].ancient_dead

    def _experience(
        self, battle: BattleA, side: SideA, result: BattleResult, allowed: bool, province: ProvinceState
    ) -> None:
        if side.army is None or self._perished(side.army):
            return
        army = self.state.world.army(side.army)
        if self._ancient_dead(army.kingdom):
            # The Ancient Dead, Setup: "the armies do not gain experience points": none for the
            # battle, none for a story.
            self.event(
                EventCode.NO_EXPERIENCE,
                f"{army.name} gains no experience for the battle in {province}: the armies of the Ancient Dead "
                "do not gain experience points (The Ancient Dead).",
                kingdom=army.kingdom,
                army=army.id,
                province=province.number,
            )
            return
        if not allowed:
            # The result line already says why (no turn summary sheet).
            self.event(
                EventCode.NO_EXPERIENCE,
                f"{army.name} gains no experience for the battle in {province} (8. End of Turn).",
                kingdom=army.kingdom,
                army=army.id,
                province=province.number,
            )
        else:
            points = BASE_EXPERIENCE[result]
            army = self._add_experience(army.id, points)
            self.event(
                EventCode.EXPERIENCE,
                f"{army.name} gains {points} experience for the {result.label.lower()} in "
                f"{province} (Experience Points).",
                kingdom=army.kingdom,
                army=army.id,
                province=province.number,
                experience=points,
                data={"experience": points},
            )
        if side.kingdom is not None and self.story_battles.get(side.kingdom) == battle.id:
            army = self._add_experience(army.id, STORY_EXPERIENCE)
            self.event(
                EventCode.STORY,
                f"{army.name} gains {STORY_EXPERIENCE} experience for the story of the battle in "
                f"{province} (Stories Are Nice).",
                kingdom=army.kingdom,
                army=army.id,
                province=province.number,
                experience=STORY_EXPERIENCE,
                data={"experience": STORY_EXPERIENCE},
            )

    # -- casualty recovery and veteran status ------------------------------------------------------

    def _recovery(self, side: SideA, won: bool, province: ProvinceState) -> None:
        state = self.state
        by_unit = {c.unit: c for c in side.casualties if c.unit in state.units}
        armies = [a for a in ([side.army] if side.army is not None else []) + list(side.supports)]
        for army_id in dict.fromkeys(armies):
            army = state.world.army(army_id)
            units = [u for u in state.units.values() if u.army == army_id]
            # The units that fought: the whole army; of a detachment's parent, the units on the sheet.
            fought = units if army_id == side.army else [u for u in units if u.id in by_unit]
            # One-use troops recover by their own D6 roll below, whatever became of them, so
            # their losses are not in the Rank and File roll.
            losses = [(u, by_unit[u.id]) for u in units if u.id in by_unit and not u.one_use]
            start = {u.id: u.models_count for u in units}
            if army.disbanded:
                continue
            if any(c.models_lost for _, c in losses):
                total, band = rank_and_file_roll(self.dice, kingdom=army.kingdom, army=army_id, army_name=army.name)
                lines = []
                for unit, casualty in losses:
                    if not casualty.models_lost:
                        continue
                    back = models_recovered(casualty.models_lost, band.fraction, won=won)
                    unit.models_count -= casualty.models_lost - back
                    lines.append(f"{unit.name} {back} of {casualty.models_lost}")
                self.event(
                    EventCode.CASUALTY_RECOVERY,
                    f"{army.name} rolls {total} for Casualty Recovery ({band.label}, rounded "
                    f"{'up: it won' if won else 'down'}): " + "; ".join(lines) + ".",
                    kingdom=army.kingdom,
                    army=army_id,
                    province=province.number,
                    data={
                        "roll": total,
                        "recovered": [
                            [u.name, models_recovered(c.models_lost, band.fraction, won=won)]
                            for u, c in losses
                            if c.models_lost
                        ],
                    },
                )
            self._command_recovery(army, losses, province)
            for unit in fought:
                if unit.one_use and start[unit.id] > 0:
                    self._one_use_recovery(army, unit, start[unit.id], by_unit.get(unit.id), province)
            # Veteran Status, judged after recovery, for regiments only: a character is a unit of
            # one model, not a regiment.
            self._veterans(army, [(u, start[u.id]) for u in fought if not u.character], province)

    def _command_recovery(self, army: ArmyState, losses: list[tuple[UnitA, Casualty]], province: ProvinceState) -> None:
        """Casualty Recovery: "Champions, Standards, and Musicians that are casualties may each be
        recovered on a D6 roll of a 4+". A D6 each; one line for the army."""
        rolled = []
        for unit, casualty in losses:
            for model in COMMAND_MODELS:
                if getattr(casualty, model):
                    roll = self.dice.d6(
                        purpose=f"Casualty Recovery: {_possessive(unit.name)} {model}",
                        kingdoms=[army.kingdom],
                        armies=[army.id],
                    )
                    rolled.append(
                        {"unit": unit.name, "model": model, "roll": roll, "recovered": roll >= COMMAND_RECOVERY_MIN}
                    )
        if not rolled:
            return
        self.event(
            EventCode.COMMAND_RECOVERY,
            f"{_possessive(army.name)} command models lost in the battle roll a D6 each, 4+ recovers (Casualty "
            "Recovery): "
            + "; ".join(
                f"{_possessive(str(r['unit']))} {r['model']} {r['roll']}, "
                + ("recovered" if r["recovered"] else "lost (remove it from the list)")
                for r in rolled
            )
            + ".",
            kingdom=army.kingdom,
            army=army.id,
            province=province.number,
            data={"rolls": rolled},
        )

    def _one_use_recovery(
        self, army: ArmyState, unit: UnitA, began: int, casualty: Casualty | None, province: ProvinceState
    ) -> None:
        """Spending Experience, NOTE: "regardless of the status of these models at the game's end,
        they must make a Casualty Recovery roll (D6 roll of a 4+)": every one-use unit that fought
        rolls, released or not, a D6 for each model it began the battle with; each 4+ is a model
        back, the others are gone. The sheet's tick only records that the player released them."""
        released = casualty is not None and casualty.one_use_used
        faces = self.dice.roll(
            f"{began}D6",
            purpose=f"Casualty Recovery: one-use {unit.name}, a D6 per model",
            kingdoms=[army.kingdom],
            armies=[army.id],
        ).faces
        back = sum(1 for face in faces if face >= ONE_USE_RECOVERY_MIN)
        unit.models_count = back
        if back == began:
            outcome = "they all return" if began > 1 else "it returns"
        elif back == 0:
            outcome = ("none returns" if began > 1 else "it is gone") + "; remove them from the list"
        else:
            outcome = f"{back} of {began} return; remove the other {began - back} from the list"
        self.event(
            EventCode.ONE_USE_RECOVERY,
            f"{unit.name} ({army.name}), one-use troops {'released' if released else 'not released'} in the "
            f"battle, roll a D6 for each of {began} model{'s' if began > 1 else ''}, 4+ returns (Spending "
            f"Experience): {', '.join(map(str, faces))}: {outcome}.",
            kingdom=army.kingdom,
            army=army.id,
            province=province.number,
            data={
                "unit": unit.name,
                "rolls": list(faces),
                "released": released,
                "models": began,
                "recovered": back,
            },
        )

    def _veterans(self, army: ArmyState, regiments: list[tuple[UnitA, int]], province: ProvinceState) -> None:
        """Veteran Status, judged after Casualty Recovery: a unit that kept more than half of the
        models it began the battle with is eligible for its next level; a veteran unit that lost
        half or more drops a level. One line for each, per army. Curse of the Dead (Tomb Kings,
        Vampire Counts, and so the Ancient Dead): their undead units cannot spend experience on
        Veteran Status, so none is made eligible; a unit the list marks living (XP8) is."""
        army_type = self.state.kingdoms[army.kingdom].army_type
        cursed = army_type in CURSE_OF_THE_DEAD
        eligible: list[tuple[str, str]] = []  # (unit, what the line says of it)
        dropped: list[tuple[str, str]] = []
        for unit, began in regiments:
            if began <= 0:
                continue
            kept = unit.models_count
            if kept * 2 > began:
                undead = cursed and not unit.living
                if not undead and unit.veteran_level < VETERAN_LEVEL_MAX and not unit.veteran_eligible:
                    unit.veteran_eligible = True
                    eligible.append((unit.name, f"kept {kept} of {began}, to +{unit.veteran_level + 1}"))
            else:
                unit.veteran_eligible = False
                if unit.veteran_level > 0:
                    unit.veteran_level -= 1
                    dropped.append((unit.name, f"kept {kept} of {began}, now +{unit.veteran_level}"))
        if eligible:
            self.event(
                EventCode.VETERAN_ELIGIBLE,
                f"{army.name}: units that kept more than half their models may each rise one level of Veteran "
                f"Status for 10 experience (Veteran Status): {', '.join(f'{n} ({w})' for n, w in eligible)}.",
                kingdom=army.kingdom,
                army=army.id,
                province=province.number,
                data={"units": [n for n, _ in eligible]},
            )
        if dropped:
            self.event(
                EventCode.VETERAN_LOST,
                f"{army.name}: units that lost half or more of their models drop one level of Veteran Status "
                f"(Veteran Status): {', '.join(f'{n} ({w})' for n, w in dropped)}.",
                kingdom=army.kingdom,
                army=army.id,
                province=province.number,
                data={"units": [n for n, _ in dropped]},
            )

    # -- characters --------------------------------------------------------------------------------

    def _deep_wounds(self, side: SideA, province: ProvinceState) -> None:
        """Deep Wound: "the character must miss the next D3 battles the army plays". Each battle
        the army fights after the injury counts one off (before this battle's own injuries)."""
        state = self.state
        if side.army is None:
            return
        army = state.world.army(side.army)
        for character in sorted(state.characters.values(), key=lambda c: c.id):
            unit = state.units.get(character.unit)
            if not character.alive or unit is None or unit.army != side.army:
                continue
            for injury in character.injuries:
                left = deep_wound_battles_left(injury)
                if left:
                    injury["battles_missed"] = int(str(injury.get("battles_missed") or 0)) + 1
                    self.missed.add(character.id)
                    self.event(
                        EventCode.DEEP_WOUND_MISSED,
                        f"{character.name} ({army.name}) missed the battle in {province} (Deep Wound); "
                        + (f"{left - 1} more to miss." if left > 1 else "he may fight again."),
                        kingdom=character.kingdom,
                        army=army.id,
                        province=province.number,
                        data={"character": character.name, "left": left - 1},
                    )
                    break  # one battle counts off one wound's battles at a time

    def _old_wounds(self, side: SideA, province: ProvinceState) -> None:
        """Old Battle Wound: the characters whose roll, made when the battle was posted, was a 1."""
        for character_id in side.sitting_out:
            character = self.state.characters.get(character_id)
            if character is None or side.army is None:
                continue
            self.event(
                EventCode.OLD_WOUND_OUT,
                f"{character.name} ({self.army_name(side.army)}) could not take part in the battle in {province}: "
                "his old wound was acting up (Old Battle Wound).",
                kingdom=character.kingdom,
                army=side.army,
                province=province.number,
                data={"character": character.name},
            )

    def _injuries(self, side: SideA, province: ProvinceState, *, forced: bool = False) -> None:
        """The Character Injury Chart for each character the sheet lost, with the rerolls: Resilient
        (free), the 25 experience the player chose to spend, the opponent's Backstabbers. One
        reroll at most per test: the second roll stands whatever it is."""
        state = self.state
        choices = dict(side.injury_rerolls)
        backstab = forced and side.army is not None and self._backstabbers(side.army)
        for character_id in side.characters_lost:
            character = state.characters.get(character_id)
            if character is None or not character.alive:
                continue
            unit = state.units[character.unit]
            if self._perished(unit.army):
                continue  # perished with his Elite Defense Force: no rolls
            army = state.world.army(unit.army)
            earlier = [i.get("detail", "") for i in character.injuries]

            def roll(
                character: CharacterA = character, army_id: int = army.id, earlier: list[object] = earlier
            ) -> list[Injury]:
                return injury_roll(
                    self.dice,
                    name=character.name,
                    kingdom=character.kingdom,
                    army=army_id,
                    arms_lost=sum(1 for d in earlier if str(d).startswith("lost an arm")),
                    eyes_lost=sum(1 for i in character.injuries if i.get("code") == "blind-in-one-eye"),
                )

            injuries = roll()
            rule, cost = self._reroll_rule(character, army, injuries, choices.get(character.id, ""), backstab, province)
            if rule:
                if rule == "Backstabbers":
                    backstab = False  # ONE character injury test
                second = roll()
                if cost:
                    army = self._add_experience(army.id, -cost)
                self._reroll_event(character, army, rule, cost, injuries, second, province)
                injuries = second
            ancient = self._ancient_dead(character.kingdom)
            for injury in injuries:
                character.injuries.append({**injury.as_json(), "turn": state.turn})
                detail = injury.detail
                if injury.experience_bonus and ancient:
                    detail = "no experience, the armies of the Ancient Dead do not gain experience points"
                # Say each thing once, and nothing empty: "Dead", not "Dead: dead".
                said = f": {detail}." if detail and detail.lower() != injury.label.lower() else "."
                self.event(
                    EventCode.INJURY,
                    f"{character.name} ({army.name}) rolls {injury.roll} on the Character Injury Chart: "
                    f"{injury.label}{said}",
                    kingdom=character.kingdom,
                    army=army.id,
                    province=province.number,
                    experience=injury.experience_bonus if not ancient else 0,
                    data={"character": character.name, **injury.as_json()},
                )
                if injury.experience_bonus and not ancient:
                    army = self._add_experience(army.id, injury.experience_bonus)
                if injury.items_lost:
                    self._lose_items(unit.id)
            if any(i.dead or i.retired for i in injuries):
                self._character_dies(character, army, retired=not any(i.dead for i in injuries))

    def _reroll_rule(
        self,
        character: CharacterA,
        army: ArmyState,
        first: list[Injury],
        choice: str,
        backstab: bool,
        province: ProvinceState,
    ) -> tuple[str, int]:
        """Which reroll the first result calls for, and its cost in experience: ("", 0) for none.
        Resilient rerolls for free what the player asked for, or a Dead result when he asked for
        nothing (docs/rules-decisions.md, 76); otherwise the player's choice costs 25 experience,
        if the army has it; an unharmed result is what the opponent's Backstabbers rerolls."""
        if RESILIENT in abilities_kept(character.abilities, character.injuries) and _wants(
            choice or REROLL_DEAD, first
        ):
            return "Resilient", 0
        if choice and _wants(choice, first):
            if army.experience >= INJURY_REROLL_EXPERIENCE:
                return "experience", INJURY_REROLL_EXPERIENCE
            self.event(
                EventCode.INJURY_REROLL_REFUSED,
                f"{character.name} ({army.name}): no reroll on the Character Injury Chart, the army has "
                f"{army.experience} experience and a reroll costs {INJURY_REROLL_EXPERIENCE} (Spending Experience).",
                kingdom=character.kingdom,
                army=army.id,
                province=province.number,
                data={"character": character.name, "experience": army.experience},
            )
            return "", 0
        if backstab and all(i.code in UNHARMED for i in first):
            return "Backstabbers", 0
        return "", 0

    def _reroll_event(
        self,
        character: CharacterA,
        army: ArmyState,
        rule: str,
        cost: int,
        first: list[Injury],
        second: list[Injury],
        province: ProvinceState,
    ) -> None:
        why = {
            "Resilient": "free, he is Resilient (Noble)",
            "experience": f"for {cost} experience (Spending Experience)",
            "Backstabbers": "forced by the opponent (Skaven: Backstabbers)",
        }[rule]
        self.event(
            EventCode.INJURY_REROLL,
            f"{character.name} ({army.name}) rolled {_rolled(first)} on the Character Injury Chart and rerolls it "
            f"{why}: {_rolled(second)}; the second roll stands.",
            kingdom=character.kingdom,
            army=army.id,
            province=province.number,
            experience=-cost,
            data={
                "character": character.name,
                "rule": rule,
                "experience": -cost,
                "first": [i.as_json() for i in first],
                "second": [i.as_json() for i in second],
            },
        )

    def _backstabbers(self, army_id: int) -> bool:
        """Skaven "Backstabbers": the army includes more than one character and at least one of
        them is an Assassin (a character unit whose name says so; docs/rules-decisions.md, 77)."""
        state = self.state
        if state.kingdoms[state.world.army(army_id).kingdom].army_type is not ArmyType.SKAVEN:
            return False
        names = [c.name for c in state.characters.values() if c.alive and state.units[c.unit].army == army_id]
        return len(names) > 1 and any(BACKSTABBERS_ASSASSIN in n.lower() for n in names)

    def _survived(self, side: SideA) -> None:
        """Battles survived, counted after the injury rolls: each living character of the army that
        fought, except those who missed the battle (Deep Wound, an Old Battle Wound's 1)."""
        if side.army is None or self._perished(side.army):
            return
        for character in self.state.characters.values():
            unit = self.state.units.get(character.unit)
            if unit is None or unit.army != side.army or not character.alive:
                continue
            if character.id in self.missed or character.id in side.sitting_out:
                continue
            character.battles_survived += 1

    def _pressing_general(self, army_id: int | None) -> CharacterA | None:
        """The army's General (its living Warlord if he is in it, else its living General) if he
        can use Press the Advantage: he has it and no Amnesia took his abilities away."""
        if army_id is None:
            return None
        state = self.state
        leaders = [
            c
            for c in state.characters.values()
            if c.alive and c.role in GENERAL_ROLES and c.unit in state.units and state.units[c.unit].army == army_id
        ]
        general = min(leaders, key=lambda c: (GENERAL_ROLES.index(c.role), c.id), default=None)
        if general is None or PRESS_THE_ADVANTAGE not in abilities_kept(general.abilities, general.injuries):
            return None
        return general

    def _press_the_advantage(
        self, side: SideA, outcome: SideOutcome, general: CharacterA | None, province: ProvinceState
    ) -> None:
        """Rogue / Trickster, Press the Advantage: 25 more experience for a victory or massacre,
        if the General who led the battle with it survived the injury rolls. An army denied its
        experience (no sheet, A7) gets none of it (docs/rules-decisions.md)."""
        if side.army is None or general is None or not general.alive or self._ancient_dead(side.kingdom):
            return  # the armies of the Ancient Dead gain no experience, this bonus neither
        if not (outcome.result.is_victory and outcome.experience_allowed):
            return
        army = self._add_experience(side.army, PRESS_THE_ADVANTAGE_EXPERIENCE)
        self.event(
            EventCode.PRESS_THE_ADVANTAGE,
            f"{army.name} gains {PRESS_THE_ADVANTAGE_EXPERIENCE} more experience for the "
            f"{outcome.result.label.lower()} in {province}: its General {general.name} survived the battle "
            "(Rogue / Trickster: Press the Advantage).",
            kingdom=army.kingdom,
            army=army.id,
            province=province.number,
            experience=PRESS_THE_ADVANTAGE_EXPERIENCE,
            data={"experience": PRESS_THE_ADVANTAGE_EXPERIENCE, "character": general.name},
        )

    def _character_dies(self, character: CharacterA, army: ArmyState, *, retired: bool) -> None:
        state = self.state
        character.alive = False
        unit = state.units[character.unit]
        unit.models_count = 0
        if retired:
            # A retired character takes his items with him as a gift for service.
            self._lose_items(unit.id)
        else:
            # Dead: the equipment and magic items remain with the army for another character.
            for item in state.items.values():
                if item.bearer == unit.id and not item.destroyed:
                    item.bearer = None
        self.event(
            EventCode.CHARACTER_DEAD if not retired else EventCode.CHARACTER_RETIRED,
            f"{character.name} ({army.name}) "
            + (
                "must be retired: he counts as dead and takes his items with him."
                if retired
                else "is dead; his items stay with the army."
            ),
            kingdom=character.kingdom,
            army=army.id,
            data={"character": character.name},
        )
        if character.role == "warlord":
            self._succession(character)

    def _succession(self, dead: CharacterA) -> None:
        """Warlord: the General with the most experience (his army's) becomes Warlord; a tie goes
        to the General the player named, else to the oldest army's (rulebook.warlord.succession)."""
        state = self.state
        candidates = []
        for character in state.characters.values():
            if character.kingdom != dead.kingdom or not character.alive or character.role != "general":
                continue
            army_id = state.units[character.unit].army
            army = state.armies.get(army_id) or state.garrisons.get(army_id)
            if army is None or army.disbanded:
                continue
            candidates.append(HeirCandidate(character.id, character.name, army.id, army.name, army.experience))
        kingdom = state.kingdoms[dead.kingdom].name
        heir = warlord_heir(candidates, self.heir_choice.get(dead.kingdom))
        if heir is None:
            self.event(
                EventCode.NO_WARLORD,
                f"{kingdom}'s Warlord {dead.name} is dead and no General can succeed him.",
                kingdom=dead.kingdom,
            )
            return
        state.characters[heir.candidate.character].role = "warlord"
        self.event(
            EventCode.WARLORD_SUCCESSION,
            succession_text(kingdom, dead.name, heir),
            kingdom=dead.kingdom,
            army=heir.candidate.army,
            data={"character": heir.candidate.name, "how": heir.how, "tied": list(heir.tied)},
        )

    def _lose_items(self, unit_id: int) -> None:
        for item in self.state.items.values():
            if item.bearer == unit_id and not item.destroyed:
                item.destroyed = True

    def _destroy_items(self, army_id: int) -> None:
        units = {u.id for u in self.state.units.values() if u.army == army_id}
        for item in self.state.items.values():
            if item.bearer in units:
                item.destroyed = True

    # -- end --------------------------------------------------------------------------------------

    def disband_the_small(self) -> None:
        """Army Restrictions (A6): an army of 500 points or less is disbanded; its items destroyed."""
        for army_id in sorted(self.fought):
            army = self.state.world.army(army_id)
            if army.disbanded or army.kind is ArmyKind.GARRISON:
                continue
            points = self.state.army_points(army_id)
            if points <= ARMY_DISBANDED_AT_OR_BELOW:
                self._disband(army)
                self.event(
                    EventCode.DISBANDED,
                    f"{army.name} is down to {points} points and is disbanded; the magic items "
                    "it carried are destroyed (Army Restrictions).",
                    kingdom=army.kingdom,
                    army=army_id,
                    province=army.province,
                    data={"points": points},
                )


def _wants(choice: str, injuries: list[Injury]) -> bool:
    """Whether the player's reroll choice covers this result: a Dead result, or any that harms."""
    if choice == REROLL_DEAD:
        return any(i.dead for i in injuries)
    if choice == REROLL_HARMED:
        return any(i.code not in UNHARMED for i in injuries)
    return False


def _rolled(injuries: list[Injury]) -> str:
    """'11 (Dead)', or '16 (Multiple Injuries: 32 Chest Wound, 44 Deep Wound)'."""
    head = f"{injuries[0].roll} ({injuries[0].label}"
    rest = ", ".join(f"{i.roll} {i.label}" for i in injuries[1:])
    return head + (f": {rest})" if rest else ")")


def _story_battles(battles: list[BattleA]) -> dict[int, int]:
    """Stories Are Nice: the bonus comes once per turn, to "the army that the player wrote about";
    with stories of several battles "the player may decide which army": the battle whose sheet
    gives it the bonus, else (the player silent) the first with a story, in province order. Only
    an army can take it, not a garrison."""
    chosen: dict[int, int] = {}
    for battle in sorted(battles, key=lambda b: (b.province, b.id)):
        for side in (battle.attacker, battle.defender):
            if side.kingdom is None or side.army is None or not side.story:
                continue
            if side.kingdom not in chosen or (
                side.story_bonus and not _gives_bonus(battles, chosen[side.kingdom], side.kingdom)
            ):
                chosen[side.kingdom] = battle.id
    return chosen


def _gives_bonus(battles: list[BattleA], battle_id: int, kingdom: int) -> bool:
    """Whether the kingdom's sheet for `battle_id` gives its story bonus there."""
    battle = next(b for b in battles if b.id == battle_id)
    return any(s.kingdom == kingdom and s.story_bonus for s in (battle.attacker, battle.defender))


def resolve_aftermath(state: AftermathState, dice: Dice) -> AftermathResult:
    """Run the aftermath of every battle over a copy of `state` (which is not changed)."""
    work = state.working_copy()
    run = _AftermathRun(work, dice)
    settled = [run.battle(b) for b in sorted(work.battles, key=lambda b: (b.province, b.id))]
    run.disband_the_small()
    run.events += lose_fortifications(work.world, PHASE)  # Fortify: a Fortified army retreated or is gone
    return AftermathResult(state=work, events=run.events, battles=settled)
