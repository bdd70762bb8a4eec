"""Casualty Recovery (7. Aftermath): the army's one Rank and File roll, command models, and
one-use troops (pure Python). Rule case A4."""

from __future__ import annotations

import math
from fractions import Fraction
from typing import NamedTuple

from kernel.dice import Dice


class RecoveryBand(NamedTuple):
    label: str
    fraction: Fraction


# Rank and File Recovery (2D6).
RANK_AND_FILE_RECOVERY: dict[int, RecoveryBand] = {
    2: RecoveryBand("No Recovery", Fraction(0)),
    **{n: RecoveryBand("1 in 4 Recovery", Fraction(1, 4)) for n in (3, 4)},
    **{n: RecoveryBand("1 in 3 Recovery", Fraction(1, 3)) for n in (5, 6, 7)},
    **{n: RecoveryBand("1 in 2 Recovery", Fraction(1, 2)) for n in (8, 9, 10)},
    **{n: RecoveryBand("2 in 3 Recovery", Fraction(2, 3)) for n in (11, 12)},
}
# Champions, Standards and Musicians that are casualties, and one-use troops whatever became of
# them, each come back on a D6 roll of 4+.
COMMAND_RECOVERY_MIN = 4
ONE_USE_RECOVERY_MIN = 4
COMMAND_MODELS: tuple[str, ...] = ("champion", "standard", "musician")


def models_recovered(lost: int, fraction: Fraction, *, won: bool) -> int:
    """Round up for the winner, down for anyone else (a draw is not a win)."""
    exact = lost * fraction
    return min(lost, math.ceil(exact) if won else math.floor(exact))


def rank_and_file_roll(dice: Dice, *, kingdom: int, army: int, army_name: str) -> tuple[int, RecoveryBand]:
    total = dice.roll("2D6", purpose=f"Casualty Recovery: {army_name}", kingdoms=[kingdom], armies=[army]).total
    return total, RANK_AND_FILE_RECOVERY[total]
