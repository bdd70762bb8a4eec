"""6. Fight Battles: the Tomb Raid as a battle of the turn (pure Python).

Tomb Raid: "Play a game against a generic warband, of 150 points, typically undead or other denizen:
orc, skaven, human brigand, etc. (see Tomb Raider Scenario & Terrain section)". The raid is a skirmish
like the Rogue Kingdom's scouting forces (decision 231): the kingdom's Tomb Raiders against the
warband, the army standing in the ruin and not fighting; its entry waits on the raid (decision 408).
Where the army fights for the ruin (the desert's garrison, or an enemy army), the raid goes with that
battle (decisions 409, 422).
"""

from __future__ import annotations

from rulebook.ruins_and_tomb_raiders.generic_opponents import GENERIC_WARBAND_POINTS
from rulebook.ruins_and_tomb_raiders.tomb_raid import MissionKind
from rulebook.tables import Settlement, Terrain
from rulebook.turn.state import BattleS, TurnState

RAIDERS_POINTS = 150  # Creating Tomb Raiders: "You have 150 points to create your Tomb Raider force"


def raid_opponent_label(state: TurnState, province: int) -> str:
    """Who the raiders face: the ruin's guard where the desert sacked a town or city (The Ancient
    Dead: Deserts; decision 409), else a generic warband (Tomb Raid; Generic Opponents)."""
    if state.provinces[province].ruin_sacked:
        return f"the ruin's {GENERIC_WARBAND_POINTS}-point guard of the Ancient Dead (The Ancient Dead: Deserts)"
    return (
        f"a generic {GENERIC_WARBAND_POINTS}-point warband, typically undead or other denizens (Generic Opponents: "
        "no Lieutenant, two Core troop types at most)"
    )


def tomb_raid_battle(state: TurnState, battle: BattleS, waiting: tuple[int, ...]) -> str:
    """The kingdom's Tomb Raid on the ruin its army moved into: a skirmish with no defender (the warband
    is played by any non-allied player or a guest), 150 points, never an Assault. `waiting`: the other
    armies of the kingdom standing with the raid's army (decision 421). Returns the defender's label."""
    province = state.provinces[battle.province]
    kingdom = state.kingdoms[battle.attacker_kingdom].name
    battle.skirmish = True
    battle.mission = MissionKind.TOMB_RAID.value
    battle.assault = False
    battle.defender_kingdom = None
    battle.defender_army = None
    battle.garrison_defends = True
    battle.garrison_points = GENERIC_WARBAND_POINTS
    assert battle.attacker_army is not None  # the army that moved into the ruin
    army = state.armies[battle.attacker_army]
    battle.notes.append(
        f"{kingdom}'s Tomb Raid on the ruins of {province} (Tomb Raid): its Tomb Raiders ({RAIDERS_POINTS} points) "
        f"skirmish against {raid_opponent_label(state, province.number)}, on Tomb Raider Scenario & Terrain; any "
        f"non-allied player or a guest plays the warband. {army.name} does not fight: it moves in if the raiders "
        "succeed; after a draw or a failure it may not move into the province this turn (Ruins; decisions 407, 408)."
    )
    if waiting:
        names = ", ".join(state.armies[a].name for a in waiting)
        battle.notes.append(
            f"{names} of {kingdom} also wait on the raid, and move in or stay out with it (decision 421)."
        )
    return "the warband of the ruins (a Tomb Raid)"


def raid_with_battle(state: TurnState, battle: BattleS, marked: set[tuple[int, int]]) -> None:
    """A battle for a ruin whose attacker's kingdom raids it this turn carries the raid (one battle in
    the province): at a desert's ruin the army must beat the Ancient Dead's garrison (win or draw) and
    the raiders succeed (The Ancient Dead: Deserts; decision 409); where an enemy army holds the ruin
    the battle decides the province as any battle, the raid only the treasure (decision 422). Only the
    first battle of the kingdom there carries it (`marked`: kingdom, province)."""
    province = state.provinces[battle.province]
    kingdom = battle.attacker_kingdom
    if battle.skirmish or province.settlement is not Settlement.RUINS or state.raids.get(kingdom) != province.number:
        return
    if (kingdom, province.number) in marked:
        return
    marked.add((kingdom, province.number))
    battle.mission = MissionKind.TOMB_RAID.value
    raiders = f"{state.kingdoms[kingdom].name}'s Tomb Raiders ({RAIDERS_POINTS} points)"
    opponent = raid_opponent_label(state, province.number)
    assert battle.attacker_army is not None  # the army that moved into the ruin
    army = state.armies[battle.attacker_army]
    if battle.garrison_defends and province.terrain is Terrain.DESERT:  # the desert's Ancient Dead garrison
        battle.notes.append(
            f"Tomb Raid: {raiders} also raid the ruins of {province} against {opponent}, in a Tomb Raider match of "
            f"their own (Tomb Raider Scenario & Terrain). {army.name} moves in only if it beats the garrison (a "
            "victory or a draw) and the raiders succeed (The Ancient Dead: Deserts; decisions 408, 409)."
        )
        return
    battle.notes.append(
        f"Tomb Raid: {raiders} also raid the ruins of {province} against {opponent}, in a Tomb Raider match of their "
        "own (Tomb Raider Scenario & Terrain). The battle decides the province as any battle; the raid, the treasure "
        "(decision 422)."
    )
