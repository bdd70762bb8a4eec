"""Captured Tomb Raiders on the site: a released model written back into its owner's force
(rulebook.ruins_and_tomb_raiders.captives; decisions 453 and 492). The pages' list is
kingdoms.selectors.captives_of.

The resolution settles a captive's fate in the World (`World.captives`); `rival_missions_write` writes
the captive's row and, for one released, calls `captives_returned`, so the model is back in its owner's
force in the same transaction as its release, through the forces' one writer (`tomb_raiders_write`).
"""

from __future__ import annotations

from collections.abc import Iterable

from rulebook.ruins_and_tomb_raiders.captives import returned_to_force
from rulebook.ruins_and_tomb_raiders.force import TombRaiders
from rulebook.ruins_and_tomb_raiders.rival_missions import CaptiveFate, CaptiveState
from rulebook.world import World

from ..models import Kingdom, TombRaiderEntry, TombRaiderForce
from ..selectors import raider_entry
from .tomb_raiders import tomb_raiders_write


def captives_released(before: World, after: World) -> list[CaptiveState]:
    """The captives a phase released: held before, released after."""
    return [
        captive
        for captive_id, captive in sorted(after.captives.items())
        if captive.fate is CaptiveFate.RELEASED
        and (captive_id < 0 or before.captives.get(captive_id, captive).fate is not CaptiveFate.RELEASED)
    ]


def captives_returned(released: Iterable[CaptiveState]) -> None:
    """Each released model back in its owner's force (`returned_to_force`): the entry of its name gains
    a model, or the entry comes back from the captive's record. A kingdom whose force row is gone (it
    kept no raiders since) gets one again."""
    released = list(released)
    if not released:
        return
    owners = sorted({c.owner for c in released})
    kingdoms = {k.pk: k for k in Kingdom.objects.filter(pk__in=owners)}
    for owner in owners:
        TombRaiderForce.objects.get_or_create(kingdom=kingdoms[owner])
    before: dict[int, TombRaiders] = {}
    rows = TombRaiderEntry.objects.filter(force__kingdom_id__in=owners).order_by("force_id", "position", "id")
    entries: dict[int, list[TombRaiderEntry]] = {}
    for row in rows.select_related("force"):
        entries.setdefault(row.force.kingdom_id, []).append(row)
    for owner in owners:
        before[owner] = TombRaiders(
            kingdoms[owner].army_type_enum, tuple(raider_entry(e) for e in entries.get(owner, []))
        )
    after = dict(before)
    for captive in released:
        after[captive.owner] = returned_to_force(after[captive.owner], captive)
    tomb_raiders_write(before=before, after=after)
