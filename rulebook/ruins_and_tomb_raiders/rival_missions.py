"""Reconnaissance and Sabotage against a rival kingdom: what both sections share, pure Python. Rule case
RS2; rules decisions 450-459.

Both missions cost "the Tomb Raider's fee of 100 gold", name "a desired mission from the list", are played
as a Tomb Raider game against the rival's own Tomb Raiders or "a generic force of 150pts built from the
player's Army book", and settle the same way:

- success: "the effects as described above are gained";
- draw, a D6: 1-3 nothing; 4-5 "roll on the chart above with a d6, skipping the desired mission"; 6
  "Hasty withdraw": the desired mission after all;
- failure: "record the effects of the game on your Tomb Raiders. In addition roll on the chart: 1-2: One
  random model is captured; 3-6: No further damage". "A kingdom may do anything it wishes with a captured
  Tomb Raider."

What a success earns lasts beyond the skirmish (the next battle, the next army created, the next turn's
orders): the World keeps it as a `MissionEffectState` until it is used (decision 450), and a captured
model as a `CaptiveState` until its captor decides its fate.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from kernel.dice import Dice
from rulebook.ruins_and_tomb_raiders.force import TombRaiders

DRAW_NOTHING = (1, 2, 3)  # "1-3: No info is gained" / "No success at all"
DRAW_ANOTHER = (4, 5)  # "roll on the chart above with a d6, skipping the desired mission"
DRAW_DESIRED = 6  # "Hasty withdraw ... the information desired is grabbed at the last moment"
FAILURE_CAPTURE = (1, 2)  # "1-2: One random model is captured"


class MissionTarget(StrEnum):
    """What a mission of the list names besides the rival kingdom: "any 1 character", "any one army"."""

    CHARACTER = "character"
    ARMY = "army"


@dataclass(frozen=True)
class ListedMission:
    """One mission of the Reconnaissance or Sabotage list: its number, value, the rulebook's name and
    words, and what it names besides the kingdom (None: the kingdom alone)."""

    number: int
    mission: str
    label: str
    text: str
    target: MissionTarget | None = None


@dataclass(frozen=True)
class MissionEarned:
    """What the skirmish earned: the mission whose effect is gained (None: nothing), how (the chart's
    words), and the rolls that decided it (`draw_face`, `another_face`; the failure chart's
    `capture_face`)."""

    mission: str | None
    how: str
    draw_face: int | None = None
    another_face: int | None = None
    capture_face: int | None = None


def another_mission(missions: Sequence[ListedMission], desired: str, face: int) -> ListedMission:
    """The draw's 4-5: "roll on the chart above with a d6, skipping the desired mission". The list holds
    seven missions; without the desired one six are left, which the D6 counts along in the list's order
    (decision 451)."""
    others = [m for m in missions if m.mission != desired]
    return others[face - 1]


def mission_earned(
    result: str, section: str, missions: Sequence[ListedMission], desired: str, dice: Dice, *, spy: int, target: int
) -> MissionEarned:
    """The skirmish's result (the spying kingdom's: "success", "draw" or "failure", as
    rulebook.ruins_and_tomb_raiders.tomb_raid.RaidResult) read on the charts of `section`
    ("Reconnaissance" or "Sabotage", whose list is `missions`). A failure rolls the capture chart
    (`capture_face`); which model is captured is `captured_model`'s. The charts' dice are the spy's alone:
    the target's log of rolls must not tell it what the raiders were after (decision 478)."""
    if result == "success":
        return MissionEarned(desired, "a success")
    if result == "draw":
        face = dice.d6(purpose=f"{section}: a draw", kingdoms=(spy,))
        if face in DRAW_NOTHING:
            return MissionEarned(None, f"a draw, and a {face}: nothing gained", draw_face=face)
        if face == DRAW_DESIRED:
            return MissionEarned(desired, "a draw, and a 6: Hasty withdraw, the desired mission after all", draw_face=6)
        second = dice.d6(purpose=f"{section}: a draw, the chart again (skipping the desired)", kingdoms=(spy,))
        other = another_mission(missions, desired, second)
        return MissionEarned(
            other.mission,
            f"a draw, and a {face}: the chart again, a {second}: {other.label}",
            draw_face=face,
            another_face=second,
        )
    face = dice.d6(purpose=f"{section}: a failure", kingdoms=(spy,))
    captured = face in FAILURE_CAPTURE
    how = f"a failure, and a {face}: " + ("one random model is captured" if captured else "no further damage")
    return MissionEarned(None, how, capture_face=face)


def captured_model(force: TombRaiders, dice: Dice, *, spy: int, target: int) -> str | None:
    """ "One random model is captured": a die over the force's models left after the skirmish's losses
    (each model one chance, counted along the entries in list order; decision 452). Returns the entry's
    name, or None when no model is left."""
    names = [entry.name for entry in force.entries for _ in range(entry.models)]
    if not names:
        return None
    if len(names) == 1:
        return names[0]
    face = dice.roll(f"D{len(names)}", purpose="Captured: one random model", kingdoms=(spy, target)).total
    return names[face - 1]


class EffectStatus(StrEnum):
    PENDING = "pending"
    USED = "used"
    EXPIRED = "expired"


@dataclass(frozen=True)
class MissionEffectState:
    """A mission's effect gained and waiting for its moment (decision 450): `kingdom` earned it against
    `target` on `earned_turn`; `mission` is a Reconnaissance or Sabotage value; `target_army` and
    `target_character` as the sheet named them; `data` what the effect carries (the Sappers' D3, the
    Mislabeled goods' D2, the information delivered...). A new effect has a negative id until written.
    `used_turn` set: used (or delivered) on that turn; `expires_turn`: the last turn it may be used
    (Destroy Communication: two turns after the success)."""

    id: int
    kingdom: int
    target: int
    mission: str
    earned_turn: int
    target_army: int | None = None
    target_character: int | None = None
    data: Mapping[str, Any] = field(default_factory=dict)
    status: EffectStatus = EffectStatus.PENDING
    used_turn: int | None = None
    expires_turn: int | None = None


class CaptiveFate(StrEnum):
    HELD = "held"
    RELEASED = "released"
    EXECUTED = "executed"


@dataclass(frozen=True)
class CaptiveState:
    """A Tomb Raider model captured by `captor` from `owner`'s force (the failure chart's 1-2): the entry it
    was taken from (`entry`, its record as a mapping, one model) kept to give it back on release. "A
    kingdom may do anything it wishes with a captured Tomb Raider": its captor decides on a later sheet
    (decision 453). A new captive has a negative id until written."""

    id: int
    captor: int
    owner: int
    entry: str
    record: Mapping[str, Any]
    captured_turn: int
    fate: CaptiveFate = CaptiveFate.HELD
    fate_turn: int | None = None
