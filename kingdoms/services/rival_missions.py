"""The World's Reconnaissance and Sabotage records and their rows: the effects gained and not yet used
(`MissionEffect`), and the Tomb Raiders held captive (`CapturedRaider`). Loaded with the world, one query
each; written by `world_write` from what a phase changed (rulebook.ruins_and_tomb_raiders.rival_missions).
"""

from __future__ import annotations

from collections.abc import Mapping

from rulebook.ruins_and_tomb_raiders.rival_missions import (
    CaptiveFate,
    CaptiveState,
    EffectStatus,
    MissionEffectState,
)
from rulebook.world import World

from ..models import Campaign, CapturedRaider, MissionEffect
from .captives import captives_released, captives_returned


def mission_effects_load(campaign: Campaign) -> dict[int, MissionEffectState]:
    """The campaign's effects still pending, by id."""
    return {
        row.id: mission_effect_state(row)
        for row in MissionEffect.objects.filter(campaign=campaign, status=EffectStatus.PENDING.value)
    }


def mission_effect_state(row: MissionEffect) -> MissionEffectState:
    """The rules' record of an effect's row."""
    return MissionEffectState(
        id=row.id,
        kingdom=row.kingdom_id,
        target=row.target_id,
        mission=row.mission,
        earned_turn=row.earned_turn,
        target_army=row.target_army_id,
        target_character=row.target_character_id,
        data=row.data,
        status=EffectStatus(row.status),
        used_turn=row.used_turn,
        expires_turn=row.expires_turn,
    )


def captives_load(campaign: Campaign) -> dict[int, CaptiveState]:
    """The campaign's captured Tomb Raiders still held, by id."""
    return {
        row.id: CaptiveState(
            id=row.id,
            captor=row.captor_id,
            owner=row.owner_id,
            entry=row.entry,
            record=row.record,
            captured_turn=row.captured_turn,
            fate=CaptiveFate(row.fate),
            fate_turn=row.fate_turn,
        )
        for row in CapturedRaider.objects.filter(campaign=campaign, fate=CaptiveFate.HELD.value)
    }


def rival_missions_write(*, campaign: Campaign, before: World, after: World, army_ids: Mapping[int, int]) -> None:
    """The effects and captives a phase added (negative ids) or changed. `army_ids`: the armies raised
    this phase, temporary id -> row id (an effect may name one)."""

    def army(army_id: int | None) -> int | None:
        return army_ids.get(army_id, army_id) if army_id is not None else None

    new_effects = []
    for effect in after.mission_effects.values():
        values = {
            "kingdom_id": effect.kingdom,
            "target_id": effect.target,
            "mission": effect.mission,
            "earned_turn": effect.earned_turn,
            "target_army_id": army(effect.target_army),
            "target_character_id": effect.target_character,
            "data": dict(effect.data),
            "status": effect.status.value,
            "used_turn": effect.used_turn,
            "expires_turn": effect.expires_turn,
        }
        if effect.id < 0:
            new_effects.append(MissionEffect(campaign=campaign, **values))
        elif before.mission_effects.get(effect.id) != effect:
            MissionEffect.objects.filter(pk=effect.id).update(**values)
    MissionEffect.objects.bulk_create(new_effects)
    new_captives = []
    for captive in after.captives.values():
        values = {
            "captor_id": captive.captor,
            "owner_id": captive.owner,
            "entry": captive.entry,
            "record": dict(captive.record),
            "captured_turn": captive.captured_turn,
            "fate": captive.fate.value,
            "fate_turn": captive.fate_turn,
        }
        if captive.id < 0:
            new_captives.append(CapturedRaider(campaign=campaign, **values))
        elif before.captives.get(captive.id) != captive:
            CapturedRaider.objects.filter(pk=captive.id).update(**values)
    CapturedRaider.objects.bulk_create(new_captives)
    # A captive released goes back to its owner's force, with its release (decision 492).
    captives_returned(captives_released(before, after))
