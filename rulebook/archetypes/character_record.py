"""What a character's injuries mean, read from his record (pure Python): the battles he must still
miss (Deep Wound), his Old Battle Wounds, the abilities he can still use (Amnesia), and the lines
of his record for the army's page and API. The Character Injury Chart itself, which writes these
injuries, is rolled in rulebook.turn.aftermath.injury_chart."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

AMNESIA = "amnesia"
DEEP_WOUND = "deep-wound"
OLD_BATTLE_WOUND = "old-battle-wound"


def deep_wound_battles_left(injury: Mapping[str, object]) -> int:
    """Battles of his army the character must still miss for this injury (0 for any other)."""
    if injury.get("code") != DEEP_WOUND:
        return 0
    return max(0, int(str(injury.get("misses_battles") or 0)) - int(str(injury.get("battles_missed") or 0)))


def deep_wound_to_miss(injuries: Iterable[Mapping[str, object]]) -> int:
    """The battles of his army the character must still miss (Deep Wound), all wounds together."""
    return sum(deep_wound_battles_left(i) for i in injuries)


def old_wounds(injuries: Iterable[Mapping[str, object]]) -> int:
    """How many Old Battle Wounds the character carries: a D6 each before every battle."""
    return sum(1 for i in injuries if i.get("code") == OLD_BATTLE_WOUND)


def abilities_kept(abilities: Iterable[str], injuries: Iterable[Mapping[str, object]]) -> frozenset[str]:
    """The Archetype Abilities a character can still use: none once Amnesia struck (he "no longer
    can take advantage of any Archetype Abilities including Starting Abilities")."""
    if any(i.get("code") == AMNESIA for i in injuries):
        return frozenset()
    return frozenset(abilities)


@dataclass(frozen=True)
class CharacterRecord:
    injuries: list[str]  # "Leg Wound: -1 M (turn 3)", one per injury
    stats: dict[str, int] = field(default_factory=dict)  # the injuries' characteristic losses together
    abilities_lost: bool = False  # Amnesia
    out_for: int = 0  # battles of his army he must still miss (Deep Wound)
    old_wounds: int = 0
    standing: list[str] = field(default_factory=list)  # what it means for his next battle

    def as_json(self) -> dict[str, object]:
        return {
            "injuries": self.injuries,
            "stats": self.stats,
            "abilities_lost": self.abilities_lost,
            "out_for_battles": self.out_for,
            "old_battle_wounds": self.old_wounds,
            "standing": self.standing,
        }


def character_record(injuries: list[dict[str, object]]) -> CharacterRecord:
    """His injuries in words, with their effects and what they mean for his next battle."""
    lines = []
    stats: dict[str, int] = {}
    for injury in injuries:
        label = str(injury.get("label") or injury.get("code") or "injury")
        detail = str(injury.get("detail") or "")
        line = label + (f": {detail}" if detail and detail.lower() != label.lower() else "")
        if injury.get("turn"):
            line += f" (turn {injury['turn']})"
        lines.append(line)
        for stat, change in dict(injury.get("stats") or {}).items():  # type: ignore[call-overload]
            stats[stat] = stats.get(stat, 0) + int(change)
    out_for = deep_wound_to_miss(injuries)
    old = old_wounds(injuries)
    standing = []
    if out_for:
        standing.append(f"out for his army's next {out_for} battle{'s' if out_for > 1 else ''} (Deep Wound)")
    if old:
        dice = "a D6" if old == 1 else f"{old}D6"
        standing.append(f"Old Battle Wound: {dice} before each battle, on a 1 he cannot take part")
    amnesia = any(i.get("code") == AMNESIA for i in injuries)
    if amnesia:
        standing.append("Amnesia: no Archetype Abilities")
    return CharacterRecord(
        injuries=lines, stats=stats, abilities_lost=amnesia, out_for=out_for, old_wounds=old, standing=standing
    )
