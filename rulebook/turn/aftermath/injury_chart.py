"""The Character Injury Chart (D66), with every sub-roll (pure Python).

D66 is two D6 read as tens and units, so only 36 values exist (11-16, 21-26, ..., 61-66): the
chart's "16-21" is 16 and 21, "26-31" is 26 and 31, and so on. The table below is keyed by those
36 values.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import NamedTuple

from kernel.dice import Dice
from rulebook.archetypes.character_record import deep_wound_to_miss, old_wounds


class InjuryEntry(NamedTuple):
    code: str
    label: str
    text: str


DEAD = InjuryEntry(
    "dead",
    "Dead",
    "Remove the character, his equipment, his abilities, and his points value from the army list. The equipment "
    "and magic items remain with the army to be used by another character model.",
)
MULTIPLE = InjuryEntry(
    "multiple-injuries",
    "Multiple Injuries",
    'Roll D6 times on this table. Reroll any "Dead" or further "Multiple Injuries" results.',
)
LEG = InjuryEntry("leg-wound", "Leg Wound", "-1 M.")
ARM = InjuryEntry(
    "arm-wound",
    "Arm Wound",
    "Roll D6. 1-3, Lose an arm (can no longer use a weapon that requires two hands or a shield). If both arms are "
    "lost, the character must be retired. 4-6, Light Wound, -1 WS.",
)
MADNESS = InjuryEntry("madness", "Madness", "Roll D6. 1-3 Stupidity. 4-6 Frenzy.")
CHEST = InjuryEntry("chest-wound", "Chest Wound", "-1 T.")
EYE = InjuryEntry(
    "blind-in-one-eye", "Blind in One Eye", "-1 BS. If both eyes are lost, the character must be retired."
)
OLD_WOUND = InjuryEntry(
    "old-battle-wound",
    "Old Battle Wound",
    "Roll a D6 before each battle. On the result of a 1, the old war wound is acting up, and the character cannot "
    "participate in the battle.",
)
NERVOUS = InjuryEntry("nervous-condition", "Nervous Condition", "-1 I.")
DEEP = InjuryEntry("deep-wound", "Deep Wound", "The character must miss the next D3 battles the army plays.")
ROBBED = InjuryEntry(
    "robbed",
    "Robbed",
    "The character lives but his equipment and magic items are lost. New equipment may be purchased as normal.",
)
AMNESIA = InjuryEntry(
    "amnesia",
    "Amnesia",
    "The character survives the battle but forgets who he is. The character will still fight for the army, but no "
    "longer can take advantage of any Archetype Abilities including Starting Abilities.",
)
FULL = InjuryEntry("full-recovery", "Full Recovery", "No effect.")
AGAINST_THE_ODDS = InjuryEntry(
    "survives-against-the-odds",
    "Survives Against the Odds",
    "The character survives and rejoins his army. Because of his adventures after being knocked unconscious, the "
    "army gains an additional 15 Experience Points.",
)


def _span(first: int, last: int) -> list[int]:
    """The real D66 values from `first` to `last` (digits 1-6 only)."""
    return [v for v in range(first, last + 1) if 1 <= v // 10 <= 6 and 1 <= v % 10 <= 6]


CHARACTER_INJURY_CHART: dict[int, InjuryEntry] = {
    **{v: DEAD for v in _span(11, 15)},
    **{v: MULTIPLE for v in _span(16, 21)},
    **{v: LEG for v in _span(22, 23)},
    **{v: ARM for v in _span(24, 25)},
    **{v: MADNESS for v in _span(26, 31)},
    **{v: CHEST for v in _span(32, 33)},
    **{v: EYE for v in _span(34, 35)},
    **{v: OLD_WOUND for v in _span(36, 41)},
    **{v: NERVOUS for v in _span(42, 43)},
    **{v: DEEP for v in _span(44, 45)},
    **{v: ROBBED for v in _span(46, 51)},
    **{v: AMNESIA for v in _span(52, 53)},
    **{v: FULL for v in _span(54, 65)},
    66: AGAINST_THE_ODDS,
}
SURVIVES_AGAINST_THE_ODDS_EXPERIENCE = 15
ARM_LOST_MAX = 3  # Arm Wound: 1-3 loses an arm, 4-6 a light wound
STUPIDITY_MAX = 3  # Madness: 1-3 Stupidity, 4-6 Frenzy
STAT_LOSS: dict[str, dict[str, int]] = {
    "leg-wound": {"M": -1},
    "chest-wound": {"T": -1},
    "blind-in-one-eye": {"BS": -1},
    "nervous-condition": {"I": -1},
}


@dataclass(frozen=True)
class Injury:
    """One applied result of the chart, with its sub-rolls settled."""

    code: str
    label: str
    text: str  # the rulebook's words plus what the sub-rolls decided
    roll: int  # the D66
    stats: dict[str, int] = field(default_factory=dict)  # {"WS": -1}
    detail: str = ""  # "lost an arm", "Stupidity", "misses the next 2 battles"
    misses_battles: int = 0
    dead: bool = False
    retired: bool = False  # both arms or both eyes lost: counts as dead
    items_lost: bool = False
    amnesia: bool = False
    experience_bonus: int = 0

    def as_json(self) -> dict[str, object]:
        return {
            "code": self.code,
            "label": self.label,
            "roll": self.roll,
            "stats": self.stats,
            "detail": self.detail,
            "misses_battles": self.misses_battles,
        }


@dataclass
class _Body:
    """What earlier injuries left: arms and eyes already lost."""

    arms_lost: int = 0
    eyes_lost: int = 0


def _apply(entry: InjuryEntry, roll: int, dice: Dice, body: _Body, purpose: str, ids: dict[str, list[int]]) -> Injury:
    base = Injury(code=entry.code, label=entry.label, text=entry.text, roll=roll)
    if entry is DEAD:
        return replace(base, dead=True, detail="dead")
    if entry is ARM:
        face = dice.d6(purpose=f"{purpose}: Arm Wound", **ids)
        if face <= ARM_LOST_MAX:
            body.arms_lost += 1
            both = body.arms_lost >= 2
            return replace(base, detail="lost an arm" + (": both arms lost, retired" if both else ""), retired=both)
        return replace(base, stats={"WS": -1}, detail="light wound, -1 WS")
    if entry is MADNESS:
        face = dice.d6(purpose=f"{purpose}: Madness", **ids)
        return replace(base, detail="Stupidity" if face <= STUPIDITY_MAX else "Frenzy")
    if entry is EYE:
        body.eyes_lost += 1
        both = body.eyes_lost >= 2
        return replace(
            base, stats={"BS": -1}, detail="-1 BS" + (": both eyes lost, retired" if both else ""), retired=both
        )
    if entry is DEEP:
        battles = dice.d3(purpose=f"{purpose}: Deep Wound", **ids)
        return replace(
            base, misses_battles=battles, detail=f"misses the next {battles} battle{'s' if battles > 1 else ''}"
        )
    if entry is ROBBED:
        return replace(base, items_lost=True, detail="equipment and magic items lost")
    if entry is AMNESIA:
        return replace(base, amnesia=True, detail="no Archetype Abilities any more")
    if entry is AGAINST_THE_ODDS:
        return replace(
            base,
            experience_bonus=SURVIVES_AGAINST_THE_ODDS_EXPERIENCE,
            detail=f"+{SURVIVES_AGAINST_THE_ODDS_EXPERIENCE} experience for the army",
        )
    stats = STAT_LOSS.get(entry.code, {})
    detail = ", ".join(f"{v:+d} {k}" for k, v in stats.items()) if stats else entry.label
    return replace(base, stats=dict(stats), detail=detail)


def injury_roll(
    dice: Dice,
    *,
    name: str,
    kingdom: int,
    army: int,
    arms_lost: int = 0,
    eyes_lost: int = 0,
) -> list[Injury]:
    """Roll on the chart for a character removed as a casualty and settle every sub-roll.
    Multiple Injuries rolls D6 times more, rerolling Dead and Multiple Injuries; a character
    retired by losing both arms or both eyes counts as dead."""
    ids = {"kingdoms": [kingdom], "armies": [army]}
    purpose = f"Character Injury Chart: {name}"
    body = _Body(arms_lost=arms_lost, eyes_lost=eyes_lost)
    roll = dice.roll("D66", purpose=purpose, **ids).total
    entry = CHARACTER_INJURY_CHART[roll]
    if entry is not MULTIPLE:
        return [_apply(entry, roll, dice, body, purpose, ids)]
    times = dice.d6(purpose=f"{purpose}: Multiple Injuries, how many", **ids)
    injuries = [
        Injury(
            code=MULTIPLE.code,
            label=MULTIPLE.label,
            text=MULTIPLE.text,
            roll=roll,
            detail=f"{times} more roll{'s' if times > 1 else ''} on the chart",
        )
    ]
    for _ in range(times):
        while True:
            again = dice.roll("D66", purpose=f"{purpose}: Multiple Injuries", **ids).total
            if CHARACTER_INJURY_CHART[again] not in (DEAD, MULTIPLE):
                break
        injuries.append(_apply(CHARACTER_INJURY_CHART[again], again, dice, body, purpose, ids))
    return injuries


OLD_WOUND_ACTS_UP = 1  # Old Battle Wound: "On the result of a 1 ... cannot participate in the battle"


def old_wound_roll(dice: Dice, *, name: str, kingdom: int, army: int, wounds: int) -> list[int]:
    """Old Battle Wound: "Roll a D6 before each battle", one for each such wound (the engine rolls
    them when the battle is posted); any 1 keeps him out of the battle."""
    return [dice.d6(purpose=f"Old Battle Wound: {name}", kingdoms=[kingdom], armies=[army]) for _ in range(wounds)]


def injuries_standing(injuries: Iterable[Mapping[str, object]], old_wound_rolls: list[int] | None = None) -> list[str]:
    """What a character's earlier injuries mean for his army's next battle, for its scenario
    sheet: battles still to miss (Deep Wound) and the rolls before the battle (Old Battle Wound),
    with their faces when the engine rolled them as the battle was posted."""
    notes = []
    to_miss = deep_wound_to_miss(injuries)
    if to_miss:
        notes.append(f"must miss this battle (Deep Wound: {to_miss} battle{'s' if to_miss > 1 else ''} still to miss)")
    old = old_wounds(injuries)
    if old and old_wound_rolls:
        faces = ", ".join(map(str, old_wound_rolls))
        if OLD_WOUND_ACTS_UP in old_wound_rolls:
            notes.append(f"Old Battle Wound: rolled {faces}; the old wound is acting up, he cannot take part")
        else:
            notes.append(f"Old Battle Wound: rolled {faces}; he may take part")
    elif old:
        dice = "a D6" if old == 1 else f"{old}D6"
        notes.append(f"Old Battle Wound: roll {dice} before the battle; on a 1 he cannot take part")
    return notes
