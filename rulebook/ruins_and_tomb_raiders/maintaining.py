"""Maintaining / Changing Tomb Raiders, pure Python. Rule cases TR3 and TR8; rules decisions 402-404.

"If models are killed, subtract their point value from your total. You may spend any unused points
from your 150 to add equipment, models or upgrade to replace a lost Captain, but you can never have
more than one model from your Special or Rare selection. Adding to your list requires time and
training, so your Tomb Raiders may not be used the Turn you make changes, *Unless* you pay gold from
your Treasury at the rate of 5 gold per point ...

If a Captain is permanently killed, the Lieutenant will become the new Captain, increasing Ld by +1 to
a max of 10, but a replacement Captain will never get the bonus wound. If the Lieutenant is killed or
promoted, one of the other models may be promoted to Lieutenant. Whatever model becomes the new
Captain, you must use the points available to pay the cost of upgrading it to a Champion."

The force's total is what its models cost now: a killed model's points leave it, and the points
unused of the 150 may buy models, equipment or a new Captain's upgrade (decision 402). The check of
the changed list is `force.force_problems` (150 points, one Special or Rare model at a time).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace

from rulebook.ruins_and_tomb_raiders.force import FORCE_POINTS, Command, RaiderEntry, Role, TombRaiders

RULE = "Maintaining / Changing Tomb Raiders"
CHANGE_GOLD_PER_POINT = 5  # "at the rate of 5 gold per point": an 11-point spearman costs 55 gold


def _key(name: str) -> str:
    return name.strip().lower()


def points_unused(force: TombRaiders) -> int:
    """The points of the 150 the force does not spend now (killed models' points come back, decision 402)."""
    return max(FORCE_POINTS - force.points, 0)


def points_added(before: TombRaiders, after: TombRaiders) -> int:
    """The points a change adds (decision 403): for each entry, what it costs beyond what the entry of
    the same name cost before (a new entry: all of it). Models removed free nothing to be paid."""
    was = {_key(e.name): e.points for e in before.entries}
    return sum(max(e.points - was.get(_key(e.name), 0), 0) for e in after.entries)


def change_fee(added: int) -> int:
    """The gold that lets a force changed this turn go on a mission this turn: 5 a point added."""
    return added * CHANGE_GOLD_PER_POINT


def may_go_after_change(added: int, *, paid: bool) -> bool:
    """A force changed this turn "may not be used the Turn you make changes, Unless you pay": a change
    that adds no points costs nothing and holds nothing back (decision 403)."""
    return added == 0 or paid


@dataclass(frozen=True)
class Casualties:
    """The force after its killed models left the list, and whether its Captain was killed for good."""

    force: TombRaiders
    captain_killed: bool
    lieutenant_killed: bool


def models_killed(force: TombRaiders, killed: Mapping[str, int]) -> Casualties:
    """ "If models are killed, subtract their point value from your total": each entry loses its killed
    models (entry name -> how many); an entry left with none leaves the list."""
    counts = {_key(name): n for name, n in killed.items()}
    kept: list[RaiderEntry] = []
    captain_killed = lieutenant_killed = False
    for entry in force.entries:
        dead = min(max(counts.get(_key(entry.name), 0), 0), entry.models)
        left = entry.models - dead
        if dead and entry.role is Role.CAPTAIN:
            captain_killed = True
        if dead and entry.role is Role.LIEUTENANT:
            lieutenant_killed = True
        if left:
            kept.append(replace(entry, models=left, out_of_action=min(entry.out_of_action, left)))
    return Casualties(replace(force, entries=tuple(kept)), captain_killed, lieutenant_killed)


def _single_out(force: TombRaiders, name: str, role: Role, suffix: str) -> tuple[list[RaiderEntry], RaiderEntry]:
    """The entries with one model of `name` taken out as an entry of its own, and that model."""
    entries = list(force.entries)
    index = next(i for i, e in enumerate(entries) if _key(e.name) == _key(name))
    entry = entries[index]
    if entry.models == 1:
        return entries[:index] + entries[index + 1 :], replace(entry, role=role)
    one = replace(
        entry,
        name=f"{entry.name.strip()} ({suffix})",
        models=1,
        role=role,
        command=Command.NONE,
        unit_type=entry.unit_type or entry.name.strip(),
        out_of_action=0,
    )
    entries[index] = replace(entry, models=entry.models - 1, out_of_action=min(entry.out_of_action, entry.models - 1))
    return entries, one


@dataclass(frozen=True)
class Promotion:
    """A new Captain: the force with him, his entry's name, and the points the force is over 150 by
    after his upgrade (0: the points available paid for it; more: decision 404)."""

    force: TombRaiders
    captain: str
    over_by: int


class PromotionRefused(ValueError):
    """The promotion asked for breaks the rule; the message says why."""


def promote_captain(force: TombRaiders, *, champion_upgrade_points: int, new_captain: str = "") -> Promotion:
    """After the Captain is permanently killed: "the Lieutenant will become the new Captain" (+1 Ld at
    most 10, never the bonus wound); without a Lieutenant, the model the player names (`new_captain`).
    "You must use the points available to pay the cost of upgrading it to a Champion": his cost rises
    by `champion_upgrade_points`; a force that goes over 150 by it is refused by the check until the
    player frees the points (decision 404)."""
    if force.captain is not None:
        raise PromotionRefused(f"The force still has its Captain, {force.captain.name}; none is promoted ({RULE}).")
    lieutenant = force.lieutenant
    if lieutenant is not None and new_captain and _key(new_captain) != _key(lieutenant.name):
        raise PromotionRefused(f"The Lieutenant, {lieutenant.name}, becomes the new Captain ({RULE}).")
    name = lieutenant.name if lieutenant is not None else new_captain
    if not name or force.entry(name) is None:
        raise PromotionRefused(f"Name the model of the force who becomes its Captain ({RULE}).")
    entries, chosen = _single_out(force, name, Role.CAPTAIN, "Captain")
    captain = replace(
        chosen,
        command=Command.CHAMPION,
        promoted=True,
        points_per_model=chosen.points_per_model + max(champion_upgrade_points, 0),
    )
    promoted = replace(force, entries=(captain, *entries))
    return Promotion(promoted, captain.name, max(promoted.points - FORCE_POINTS, 0))


def appoint_lieutenant(force: TombRaiders, name: str) -> TombRaiders:
    """ "If the Lieutenant is killed or promoted, one of the other models may be promoted to Lieutenant":
    one model of the entry named (a trooper) becomes the Lieutenant, at no cost (he gains nothing)."""
    if force.lieutenant is not None:
        raise PromotionRefused(f"The force has its Lieutenant, {force.lieutenant.name} ({RULE}).")
    entry = force.entry(name)
    if entry is None or entry.role is not Role.TROOPER:
        raise PromotionRefused(
            f"{name.strip() or 'No model'}: name a trooper of the force to be its Lieutenant ({RULE})."
        )
    entries, lieutenant = _single_out(force, name, Role.LIEUTENANT, "Lieutenant")
    return replace(force, entries=(*entries, lieutenant))
