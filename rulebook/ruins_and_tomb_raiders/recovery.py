"""Recovery of the Tomb Raiders after a skirmish, pure Python. Rule case TR7; rules decision 405.

"Any model removed from play as injured rolls on this chart, d6: 1: Dead. Remove from your list;
2: Out of action for one turn; 3-6: Full recovery."

A D6 for each model the turn summary sheet reports removed as injured, in the order of the force's
entries. The dead leave the list (as killed models do, Maintaining / Changing Tomb Raiders, so a
dead Captain is replaced by promotion); a model out of action stays on the list and misses the next
turn's mission (decision 405).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from enum import StrEnum

from kernel.dice import Dice
from rulebook.ruins_and_tomb_raiders.force import TombRaiders
from rulebook.ruins_and_tomb_raiders.maintaining import models_killed

RULE = "Recovery"


class RecoveryOutcome(StrEnum):
    DEAD = "dead"
    OUT_OF_ACTION = "out-of-action"
    FULL_RECOVERY = "full-recovery"


RECOVERY_TABLE: dict[int, RecoveryOutcome] = {
    1: RecoveryOutcome.DEAD,
    2: RecoveryOutcome.OUT_OF_ACTION,
    3: RecoveryOutcome.FULL_RECOVERY,
    4: RecoveryOutcome.FULL_RECOVERY,
    5: RecoveryOutcome.FULL_RECOVERY,
    6: RecoveryOutcome.FULL_RECOVERY,
}
OUTCOME_LABELS: dict[RecoveryOutcome, str] = {
    RecoveryOutcome.DEAD: "dead: removed from the list",
    RecoveryOutcome.OUT_OF_ACTION: "out of action for one turn",
    RecoveryOutcome.FULL_RECOVERY: "full recovery",
}


@dataclass(frozen=True)
class RecoveryRoll:
    entry: str
    face: int
    outcome: RecoveryOutcome


@dataclass(frozen=True)
class Recovered:
    """The force after Recovery, each roll, and whether an officer died (for the promotion)."""

    force: TombRaiders
    rolls: tuple[RecoveryRoll, ...]
    captain_killed: bool
    lieutenant_killed: bool


def recover(force: TombRaiders, injured: Mapping[str, int], dice: Dice, *, kingdom: int) -> Recovered:
    """A D6 on the Recovery chart for each model removed as injured (entry name -> how many; at most
    the entry's models)."""
    counts = {name.strip().lower(): n for name, n in injured.items()}
    rolls: list[RecoveryRoll] = []
    dead: dict[str, int] = {}
    entries = []
    for entry in force.entries:
        hurt = min(max(counts.get(entry.name.strip().lower(), 0), 0), entry.models)
        out = 0
        for index in range(hurt):
            which = f" ({index + 1} of {hurt})" if hurt > 1 else ""
            face = dice.d6(purpose=f"Tomb Raiders' {RULE}: {entry.name.strip()}{which}", kingdoms=[kingdom])
            outcome = RECOVERY_TABLE[face]
            rolls.append(RecoveryRoll(entry.name, face, outcome))
            if outcome is RecoveryOutcome.DEAD:
                dead[entry.name] = dead.get(entry.name, 0) + 1
            elif outcome is RecoveryOutcome.OUT_OF_ACTION:
                out += 1
        entries.append(replace(entry, out_of_action=entry.out_of_action + out) if out else entry)
    casualties = models_killed(replace(force, entries=tuple(entries)), dead)
    return Recovered(casualties.force, tuple(rolls), casualties.captain_killed, casualties.lieutenant_killed)


def back_in_action(force: TombRaiders) -> TombRaiders:
    """The turn out of action is over (decision 405: after the turn it was missed)."""
    return replace(force, entries=tuple(replace(e, out_of_action=0) for e in force.entries))
