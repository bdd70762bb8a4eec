"""Casualty Recovery (7. Aftermath): the army's one Rank and File roll, command models, and
one-use troops, and the recovery of each army that fought (pure Python). Rule case A4."""

from __future__ import annotations

from dataclasses import replace

from kernel.dice import Dice
from kernel.event_codes import EventCode
from kernel.events import Event

# The Rank and File Recovery table is the world's (rulebook.tables): the Foraging Table's
# Disaster rolls on it too, in the orders phase below this app.
from rulebook.tables import RANK_AND_FILE_RECOVERY, RecoveryBand, models_recovered
from rulebook.turn.aftermath.experience import veterans
from rulebook.turn.aftermath.sheets import Casualty, SideA
from rulebook.turn.aftermath.state import PHASE, AftermathState, possessive, put_unit
from rulebook.world import ArmyState, ProvinceState, UnitState

__all__ = [
    "COMMAND_MODELS",
    "COMMAND_RECOVERY_MIN",
    "ONE_USE_RECOVERY_MIN",
    "RANK_AND_FILE_RECOVERY",
    "RecoveryBand",
    "models_recovered",
    "command_recovery",
    "one_use_recovery",
    "rank_and_file_roll",
    "recovery",
]

# Champions, Standards and Musicians that are casualties, and one-use troops whatever became of
# them, each come back on a D6 roll of 4+.
COMMAND_RECOVERY_MIN = 4
ONE_USE_RECOVERY_MIN = 4
COMMAND_MODELS: tuple[str, ...] = ("champion", "standard", "musician")


def rank_and_file_roll(dice: Dice, *, kingdom: int, army: int, army_name: str) -> tuple[int, RecoveryBand]:
    total = dice.roll("2D6", purpose=f"Casualty Recovery: {army_name}", kingdoms=[kingdom], armies=[army]).total
    return total, RANK_AND_FILE_RECOVERY[total]


def recovery(
    state: AftermathState, dice: Dice, events: list[Event], side: SideA, won: bool, province: ProvinceState
) -> None:
    """Casualty Recovery for the side's army and the detachments that supported it: one Rank and
    File roll per army, a D6 per command model lost, a D6 per model of its one-use troops; then
    Veteran Status, judged after recovery."""
    by_unit = {c.unit: c for c in side.casualties if c.unit in state.units}
    armies = [a for a in ([side.army] if side.army is not None else []) + list(side.supports)]
    for army_id in dict.fromkeys(armies):
        army = state.world.army(army_id)
        units = state.units_of(army_id)
        # The units that fought: the whole army; of a detachment's parent, the units on the sheet.
        fought = units if army_id == side.army else [u for u in units if u.id in by_unit]
        # One-use troops recover by their own D6 roll below, whatever became of them, so
        # their losses are not in the Rank and File roll.
        losses = [(u, by_unit[u.id]) for u in units if u.id in by_unit and not u.one_use]
        start = {u.id: u.models for u in units}
        if army.disbanded:
            continue
        if any(c.models_lost for _, c in losses):
            total, band = rank_and_file_roll(dice, kingdom=army.kingdom, army=army_id, army_name=army.name)
            lines = []
            for unit, casualty in losses:
                if not casualty.models_lost:
                    continue
                back = models_recovered(casualty.models_lost, band.fraction, won=won)
                put_unit(state, replace(unit, models=unit.models - (casualty.models_lost - back)))
                lines.append(f"{unit.name} {back} of {casualty.models_lost}")
            events.append(
                Event(
                    PHASE,
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
            )
        command_recovery(state, dice, events, army, losses, province)
        for unit in fought:
            if unit.one_use and start[unit.id] > 0:
                one_use_recovery(state, dice, events, army, unit, start[unit.id], by_unit.get(unit.id), province)
        # Veteran Status, judged after recovery, for regiments only: a character is a unit of
        # one model, not a regiment.
        after = [state.units[u.id] for u in fought if not u.character]
        veterans(state, events, army, [(u, start[u.id]) for u in after], province)


def command_recovery(
    state: AftermathState,
    dice: Dice,
    events: list[Event],
    army: ArmyState,
    losses: list[tuple[UnitState, Casualty]],
    province: ProvinceState,
) -> None:
    """Casualty Recovery: "Champions, Standards, and Musicians that are casualties may each be
    recovered on a D6 roll of a 4+". A D6 each; one line for the army. One that fails leaves the
    list: its points (the list's `<model>_points`) come off the unit's equipment (decision 394); a
    list that does not say what it cost leaves the player to remove it."""
    rolled: list[dict[str, object]] = []
    for unit, casualty in losses:
        for model in COMMAND_MODELS:
            if getattr(casualty, model):
                roll = dice.d6(
                    purpose=f"Casualty Recovery: {possessive(unit.name)} {model}",
                    kingdoms=[army.kingdom],
                    armies=[army.id],
                )
                recovered = roll >= COMMAND_RECOVERY_MIN
                now = state.units[unit.id]  # as the Rank and File roll and the models before left it
                points = getattr(now, f"{model}_points")
                if not recovered and points:
                    changes = {f"{model}_points": 0, "equipment_points": max(now.equipment_points - points, 0)}
                    put_unit(state, replace(now, **changes))
                rolled.append(
                    {
                        "unit": unit.name,
                        "model": model,
                        "roll": roll,
                        "recovered": recovered,
                        "points_removed": 0 if recovered else points,
                    }
                )
    if not rolled:
        return
    events.append(
        Event(
            PHASE,
            EventCode.COMMAND_RECOVERY,
            f"{possessive(army.name)} command models lost in the battle roll a D6 each, 4+ recovers (Casualty "
            "Recovery): "
            + "; ".join(
                f"{possessive(str(r['unit']))} {r['model']} {r['roll']}, " + _command_outcome(r) for r in rolled
            )
            + ".",
            kingdom=army.kingdom,
            army=army.id,
            province=province.number,
            data={"rolls": rolled},
        )
    )


def _command_outcome(rolled: dict[str, object]) -> str:
    if rolled["recovered"]:
        return "recovered"
    if rolled["points_removed"]:
        return f"lost: it leaves the list ({rolled['points_removed']} points)"
    return "lost (remove it from the list)"


def one_use_recovery(
    state: AftermathState,
    dice: Dice,
    events: list[Event],
    army: ArmyState,
    unit: UnitState,
    began: int,
    casualty: Casualty | None,
    province: ProvinceState,
) -> None:
    """Spending Experience, NOTE: "regardless of the status of these models at the game's end,
    they must make a Casualty Recovery roll (D6 roll of a 4+)": every one-use unit that fought
    rolls, released or not, a D6 for each model it began the battle with; each 4+ is a model
    back, the others are gone. The sheet's tick only records that the player released them."""
    released = casualty is not None and casualty.one_use_used
    faces = dice.roll(
        f"{began}D6",
        purpose=f"Casualty Recovery: one-use {unit.name}, a D6 per model",
        kingdoms=[army.kingdom],
        armies=[army.id],
    ).faces
    back = sum(1 for face in faces if face >= ONE_USE_RECOVERY_MIN)
    put_unit(state, replace(state.units[unit.id], models=back))
    if back == began:
        outcome = "they all return" if began > 1 else "it returns"
    elif back == 0:
        outcome = ("none returns" if began > 1 else "it is gone") + "; remove them from the list"
    else:
        outcome = f"{back} of {began} return; remove the other {began - back} from the list"
    events.append(
        Event(
            PHASE,
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
    )
