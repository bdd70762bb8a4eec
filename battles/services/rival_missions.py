"""A Reconnaissance or Sabotage's battle as its pages, PDF and emails name it (rules decisions 462-463).

The skirmish has no army on either side: the spy's Tomb Raiders attack, the target's own Tomb Raiders or
a 150-point guard defend (rulebook.turn.fight_battles.rival_missions). Every copy of the scenario sheet
names who comes and the kind of mission; the mission the spy desires is printed only on the spy's own
view of the battle page (and the organizer's): the PDF and the email go to both sides alike.
"""

from __future__ import annotations

from kingdoms.models import Army, Character
from rulebook.ruins_and_tomb_raiders.reconnaissance import RECONNAISSANCE_MISSIONS
from rulebook.ruins_and_tomb_raiders.sabotage import SABOTAGE_MISSIONS
from rulebook.scenario.sheet import RIVAL_MISSION_LABELS, RivalMissionSheet

from ..models import Battle

LISTED = {m.mission: m for m in (*RECONNAISSANCE_MISSIONS, *SABOTAGE_MISSIONS)}
RAIDERS = "raiders"  # rulebook.turn.fight_battles.rival_missions.RAIDERS


def is_rival_mission(battle: Battle) -> bool:
    return battle.mission in RIVAL_MISSION_LABELS


def raiders_defend(battle: Battle) -> bool:
    """The target's own Tomb Raiders defend (else a generic guard its player builds)."""
    return is_rival_mission(battle) and (battle.mission_detail or {}).get("defender") == RAIDERS


def is_tomb_raid(battle: Battle) -> bool:
    """A Tomb Raid's skirmish: the kingdom's Tomb Raiders against the warband of the ruins."""
    return battle.mission == "tomb-raid" and battle.skirmish


def tomb_raid_side_name(battle: Battle, side: str) -> str:
    """Using Tomb Raiders, Tomb Raid: "the Tomb Raiders can set off ... Play a game against a generic
    warband": 'Ostland: Tomb Raiders' (their army does not fight: it waits on the raid), or 'The
    warband of the ruins'."""
    if side == "attacker":
        return f"{battle.attacker_kingdom.name}: Tomb Raiders" if battle.attacker_kingdom else "Tomb Raiders"
    return "The warband of the ruins"


def rival_side_name(battle: Battle, side: str) -> str:
    """'Avalon: Tomb Raiders', 'Brython: Tomb Raiders' or 'Brython: a 150-point guard'."""
    if side == "attacker":
        return f"{battle.attacker_kingdom.name}: Tomb Raiders"
    target = battle.defender_kingdom.name if battle.defender_kingdom else "?"
    if raiders_defend(battle):
        return f"{target}: Tomb Raiders"
    return f"{target}: a {battle.garrison_points}-point guard"


def battle_title(battle: Battle) -> str:
    """The battle's name on its page, PDF and email: 'Reconnaissance by Avalon's Tomb Raiders in 6 Caer
    Brython' (never the desired mission), 'Tomb Raid on the ruins of ...', or 'Battle in ...'."""
    if is_rival_mission(battle):
        kind = RIVAL_MISSION_LABELS[battle.mission]
        return f"{kind} by {battle.attacker_kingdom.name}'s Tomb Raiders in {battle.province}"
    if battle.mission == "tomb-raid" and battle.skirmish:
        return f"Tomb Raid on the ruins of {battle.province}"
    return f"Battle in {battle.province}"


def desired_text(battle: Battle) -> str:
    """The desired mission in words, with the army or character it names (the spy's own knowledge)."""
    detail = battle.mission_detail or {}
    listed = LISTED.get(str(detail.get("desired", "")))
    if listed is None:
        return ""
    named = ""
    if detail.get("target_army"):
        army = Army.objects.filter(pk=detail["target_army"]).first()
        named = f" (the army: {army.name})" if army is not None else ""
    elif detail.get("target_character"):
        character = Character.objects.filter(pk=detail["target_character"]).select_related("unit").first()
        named = f" (the character: {character.unit.name})" if character is not None else ""
    return f"{listed.label}{named}: {listed.text}"


def rival_mission_sheet(battle: Battle, *, reveal: bool) -> RivalMissionSheet | None:
    """The section's words for the scenario sheet; `reveal`: the viewer is the spy or the organizer."""
    if not is_rival_mission(battle) or battle.defender_kingdom is None:
        return None
    target = battle.defender_kingdom
    return RivalMissionSheet(
        kind=battle.mission,
        spy=battle.attacker_kingdom.name,
        target=target.name,
        target_book=target.army_type_enum.label,
        defender=str((battle.mission_detail or {}).get("defender", "guard")),
        desired=desired_text(battle) if reveal else "",
    )
