"""Casualty Recovery (7. Aftermath): the army's one Rank and File roll, command models, and
one-use troops (pure Python). Rule case A4."""

from __future__ import annotations

from kernel.dice import Dice

# The Rank and File Recovery table is the world's (rulebook.tables): the Foraging Table's
# Disaster rolls on it too, in the orders phase below this app.
from rulebook.tables import RANK_AND_FILE_RECOVERY, RecoveryBand, models_recovered

__all__ = [
    "COMMAND_MODELS",
    "COMMAND_RECOVERY_MIN",
    "ONE_USE_RECOVERY_MIN",
    "RANK_AND_FILE_RECOVERY",
    "RecoveryBand",
    "models_recovered",
    "rank_and_file_roll",
]

# Champions, Standards and Musicians that are casualties, and one-use troops whatever became of
# them, each come back on a D6 roll of 4+.
COMMAND_RECOVERY_MIN = 4
ONE_USE_RECOVERY_MIN = 4
COMMAND_MODELS: tuple[str, ...] = ("champion", "standard", "musician")


def rank_and_file_roll(dice: Dice, *, kingdom: int, army: int, army_name: str) -> tuple[int, RecoveryBand]:
    total = dice.roll("2D6", purpose=f"Casualty Recovery: {army_name}", kingdoms=[kingdom], armies=[army]).total
    return total, RANK_AND_FILE_RECOVERY[total]
