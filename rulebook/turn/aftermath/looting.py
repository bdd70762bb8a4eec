"""Looting (7. Aftermath): the town or city the victor takes is looted or sacked (the Orcs &
Goblins may go savage), and victory brings gold for the points faced (pure Python).

Rulebook: Looting, Orcs & Goblins "Savages". Rule case A3.
"""

from __future__ import annotations

from dataclasses import replace

from kernel.dice import Dice
from kernel.event_codes import EventCode
from kernel.events import Event
from kernel.ledger import LedgerReason
from rulebook.tables import ArmyType, Settlement
from rulebook.turn.aftermath.results import victory_gold
from rulebook.turn.aftermath.sheets import BattleA, SideA
from rulebook.turn.aftermath.state import PHASE, AftermathState, add_gold, army_name
from rulebook.world import LOOTED_TURNS, ProvinceState

# Looting: gold for a sacked or looted settlement.
SACK_GOLD: dict[Settlement, int] = {Settlement.TOWN: 1000, Settlement.CITY: 2000}
LOOT_GOLD: dict[Settlement, int] = {Settlement.TOWN: 500, Settlement.CITY: 1000}
SAVAGES_MUST_SACK_MAX = 2  # Orcs & Goblins "Savages": on a 1 or 2 they MUST sack it


def loot(state: AftermathState, dice: Dice, events: list[Event], province: ProvinceState, side: SideA) -> None:
    """Looting: the winning side's choice on its sheet (loot when none), unless its Orcs &
    Goblins go savage."""
    winner = side.kingdom
    assert winner is not None
    kingdom = state.kingdoms[winner]
    choice = side.loot_choice or "loot"
    if kingdom.army_type is ArmyType.ORCS_AND_GOBLINS:
        roll = dice.d6(
            purpose=f'Orcs & Goblins "Savages": {province}',
            kingdoms=[winner],
            armies=[a for a in [side.army] if a is not None],
        )
        if roll <= SAVAGES_MUST_SACK_MAX:
            choice = "sack"
            events.append(
                Event(
                    PHASE,
                    EventCode.SAVAGES,
                    f"Rolled {roll}: the Orcs & Goblins go savage on {province} and MUST sack it "
                    '(Orcs & Goblins "Savages").',
                    kingdom=winner,
                    province=province.number,
                    data={"roll": roll},
                )
            )
        else:
            events.append(
                Event(
                    PHASE,
                    EventCode.SAVAGES,
                    f'Rolled {roll}: the Orcs & Goblins keep their heads in {province} (Orcs & Goblins "Savages").',
                    kingdom=winner,
                    province=province.number,
                    data={"roll": roll},
                )
            )
    settlement = province.settlement
    if choice == "sack":
        gold = SACK_GOLD[settlement]
        state.provinces[province.number] = replace(state.provinces[province.number], settlement=Settlement.NONE)
        add_gold(state, winner, gold)
        events.append(
            Event(
                PHASE,
                EventCode.SACKED,
                f"{kingdom.name} ({army_name(state, side.army)}) sacks the {settlement} of {province}: it is "
                f"destroyed (+{gold:,} gold; Looting).",
                kingdom=winner,
                army=side.army,
                province=province.number,
                gold=gold,
                ledger_reason=LedgerReason.LOOT,
            )
        )
    else:
        gold = LOOT_GOLD[settlement]
        state.provinces[province.number] = replace(state.provinces[province.number], looted_turn=state.turn)
        add_gold(state, winner, gold)
        events.append(
            Event(
                PHASE,
                EventCode.LOOTED,
                f"{kingdom.name} ({army_name(state, side.army)}) loots the {settlement} of {province} "
                f"(+{gold:,} gold); it cannot create or upgrade armies until turn "
                f"{state.turn + LOOTED_TURNS} (Looting).",
                kingdom=winner,
                army=side.army,
                province=province.number,
                gold=gold,
                ledger_reason=LedgerReason.LOOT,
            )
        )


def victory_gold_paid(state: AftermathState, events: list[Event], battle: BattleA, province: ProvinceState) -> None:
    """Looting, "Victory brings rewards": the victor's kingdom gains gold for the points it faced
    (rulebook.turn.aftermath.results.victory_gold); a neutral garrison gains nothing."""
    victor = battle.outcome.victor
    if victor is None:
        return
    winner = battle.attacker if victor == "attacker" else battle.defender
    result = (battle.outcome.attacker if victor == "attacker" else battle.outcome.defender).result
    if winner.kingdom is None:
        return
    gold = victory_gold(result, winner.points_faced)
    if not gold:
        return
    add_gold(state, winner.kingdom, gold)
    events.append(
        Event(
            PHASE,
            EventCode.VICTORY_GOLD,
            f"Victory gold for the {result.label.lower()} in {province}: {gold:,} "
            f"({winner.points_faced:,} points faced; Looting).",
            kingdom=winner.kingdom,
            army=winner.army,
            province=battle.province,
            gold=gold,
            ledger_reason=LedgerReason.VICTORY,
        )
    )
