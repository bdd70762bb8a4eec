"""Battle results: the ladder a Turn Summary Sheet reports, Withdrawal, experience, victory gold,
and how the two sides' sheets settle a battle's result (pure Python).

Rulebook: Experience Points (Base Experience Battle Result Earned), Withdrawal, Looting (victory
gold), 8. End of Turn (a missing sheet). Rule cases A1, A2, A7, A8, R2.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class BattleResult(StrEnum):
    """The ladder, best first, from one side's point of view."""

    MASSACRE = "massacre"  # massacred the opponent
    MAJOR_VICTORY = "major-victory"
    MINOR_VICTORY = "minor-victory"
    DRAW = "draw"
    MINOR_LOSS = "minor-loss"
    MAJOR_LOSS = "major-loss"
    MASSACRED = "massacred"

    @property
    def label(self) -> str:
        return RESULT_LABELS[self]

    @property
    def is_victory(self) -> bool:
        return self in (BattleResult.MASSACRE, BattleResult.MAJOR_VICTORY, BattleResult.MINOR_VICTORY)

    @property
    def is_loss(self) -> bool:
        return self in (BattleResult.MINOR_LOSS, BattleResult.MAJOR_LOSS, BattleResult.MASSACRED)


RESULT_LABELS: dict[BattleResult, str] = {
    BattleResult.MASSACRE: "Massacre",
    BattleResult.MAJOR_VICTORY: "Major victory",
    BattleResult.MINOR_VICTORY: "Minor victory",
    BattleResult.DRAW: "Draw",
    BattleResult.MINOR_LOSS: "Minor loss",
    BattleResult.MAJOR_LOSS: "Major loss",
    BattleResult.MASSACRED: "Massacred",
}
LADDER: tuple[BattleResult, ...] = tuple(BattleResult)


def mirror(result: BattleResult) -> BattleResult:
    """What the opponent's sheet says of the same battle."""
    return LADDER[len(LADDER) - 1 - LADDER.index(result)]


def one_level_worse(result: BattleResult) -> BattleResult:
    """Withdrawal (A8): a win becomes a draw, a draw a minor loss, a minor loss a major loss, a
    major loss a massacre. Every victory is "a win", so a massacre or a major victory becomes a
    draw too, not the next victory down; massacred cannot get worse (docs/rules-decisions.md)."""
    if result.is_victory:
        return BattleResult.DRAW
    index = LADDER.index(result)
    return LADDER[min(index + 1, len(LADDER) - 1)]


def one_level_better(result: BattleResult) -> BattleResult:
    """The opponent's side of a withdrawal, the mirror of `one_level_worse`: any loss becomes a
    draw, a draw a minor victory, a minor victory a major one, a major victory a massacre."""
    return mirror(one_level_worse(mirror(result)))


# Experience Points: Base Experience Battle Result Earned (A1).
BASE_EXPERIENCE: dict[BattleResult, int] = {
    BattleResult.MASSACRE: 100,  # Massacred Opponent
    BattleResult.MAJOR_VICTORY: 75,  # Won a Victory
    BattleResult.MINOR_VICTORY: 75,
    BattleResult.DRAW: 50,
    BattleResult.MINOR_LOSS: 50,  # Loss
    BattleResult.MAJOR_LOSS: 50,
    BattleResult.MASSACRED: 50,
}

# Looting: "Victory brings rewards": gold for each (full) 500 points of army faced (A2). A
# massacre counts as a major victory (docs/rules-decisions.md).
VICTORY_GOLD_PER_500: dict[BattleResult, int] = {
    BattleResult.MASSACRE: 150,
    BattleResult.MAJOR_VICTORY: 150,
    BattleResult.MINOR_VICTORY: 100,
}
VICTORY_GOLD_STEP = 500


def victory_gold(result: BattleResult, points_faced: int) -> int:
    return VICTORY_GOLD_PER_500.get(result, 0) * (max(0, points_faced) // VICTORY_GOLD_STEP)


@dataclass(frozen=True)
class SideReport:
    """One side's turn summary sheet, as far as the result goes."""

    result: BattleResult
    withdrew: bool = False
    opponent_withdrew: bool = False


@dataclass(frozen=True)
class SideOutcome:
    result: BattleResult
    experience_allowed: bool = True  # False: no sheet by the deadline (A7)
    filed: bool = True  # False: the side owed a turn summary sheet and none came by the deadline


@dataclass(frozen=True)
class Outcome:
    """A settled battle: each side's final result, and who won (None: nobody)."""

    attacker: SideOutcome
    defender: SideOutcome

    @property
    def victor(self) -> str | None:
        if self.attacker.result.is_victory and not self.defender.result.is_victory:
            return "attacker"
        if self.defender.result.is_victory and not self.attacker.result.is_victory:
            return "defender"
        return None


@dataclass(frozen=True)
class Conflict:
    """The two sheets disagree: the organizer decides."""

    message: str


@dataclass(frozen=True)
class Pending:
    """A sheet is still missing and the results deadline has not passed."""

    message: str


def _withdrawn(result: BattleResult, *, attacker_withdrew: bool, defender_withdrew: bool) -> BattleResult:
    """The battle's result, read from the attacker's side, after the withdrawals: each moves it one
    level against the side that withdrew (the opponent's result is its mirror). Both withdrew: the
    two cancel and the result stands as played; applied one after the other, the answer would
    depend on which came first, since any win drops straight to a draw (docs/rules-decisions.md)."""
    if attacker_withdrew and defender_withdrew:
        return result
    if attacker_withdrew:
        result = one_level_worse(result)
    if defender_withdrew:
        result = one_level_better(result)
    return result


def _settled(result: BattleResult) -> Outcome:
    return Outcome(attacker=SideOutcome(result), defender=SideOutcome(mirror(result)))


def _as_filed(report: SideReport, side: str) -> BattleResult:
    """The side's own result as its sheet reports it, after the withdrawals it reports."""
    if side == "attacker":
        return _withdrawn(report.result, attacker_withdrew=report.withdrew, defender_withdrew=report.opponent_withdrew)
    # Read from the attacker's side and back: withdrawals move the battle's one result.
    return mirror(
        _withdrawn(mirror(report.result), attacker_withdrew=report.opponent_withdrew, defender_withdrew=report.withdrew)
    )


def battle_outcome(
    attacker: SideReport | None,
    defender: SideReport | None,
    *,
    attacker_files: bool = True,
    defender_files: bool = True,
    deadline_passed: bool,
) -> Outcome | Conflict | Pending:
    """Settle a battle from its sheets.

    Both filed: they agree when the defender's result mirrors the attacker's and both report the
    same withdrawals, else it is a conflict. A side that owes no sheet (`*_files` False: a
    garrison with no player, or the Ancient Dead, whom the organizer plays) and filed none leaves
    the result to the other side's sheet, mirrored.

    8. End of Turn (A7, R2): after the results deadline a side that owed a sheet and filed none
    counts a major loss and gains no experience; the side that filed keeps its own result as filed
    (the two no longer mirror each other). Neither filed: two major losses, no victor."""
    if not defender_files and defender is None and attacker is not None:
        return _settled(_as_filed(attacker, "attacker"))
    if not attacker_files and attacker is None and defender is not None:
        return _settled(mirror(_as_filed(defender, "defender")))
    if attacker is not None and defender is not None:
        differences = []
        if defender.result != mirror(attacker.result):
            differences.append(
                f"the attacker reports a {attacker.result.label.lower()}, the defender a "
                f"{defender.result.label.lower()} (it should be a {mirror(attacker.result).label.lower()})"
            )
        if (attacker.withdrew, attacker.opponent_withdrew) != (defender.opponent_withdrew, defender.withdrew):
            differences.append("the sheets disagree on who withdrew")
        if differences:
            return Conflict("; ".join(differences) + ".")
        return _settled(_as_filed(attacker, "attacker"))
    owing = [
        side
        for side, report, owes in (("attacker", attacker, attacker_files), ("defender", defender, defender_files))
        if report is None and owes
    ]
    if not owing:
        # Neither side owes a sheet and none came: only the organizer can settle it (a ruling).
        return Pending("waiting for a turn summary sheet or the organizer's ruling.")
    if not deadline_passed:
        return Pending(f"waiting for the turn summary sheet of the {' and the '.join(owing)}.")
    missing = SideOutcome(BattleResult.MAJOR_LOSS, experience_allowed=False, filed=False)
    if attacker is None and defender is None:
        if len(owing) == 2:
            return Outcome(attacker=missing, defender=missing)
        # The other side owes no sheet: it has the mirror of the missing side's major loss.
        settled = _settled(BattleResult.MAJOR_LOSS if owing == ["attacker"] else BattleResult.MAJOR_VICTORY)
        return Outcome(
            attacker=missing if owing == ["attacker"] else settled.attacker,
            defender=missing if owing == ["defender"] else settled.defender,
        )
    if attacker is not None:
        return Outcome(attacker=SideOutcome(_as_filed(attacker, "attacker")), defender=missing)
    assert defender is not None
    return Outcome(attacker=missing, defender=SideOutcome(_as_filed(defender, "defender")))
