"""The order sheet's mission uses, for its page, API and receipt: the kingdom's own effects its sheet may
use this turn (Army Orders, Destroy Communication; rulebook.turn.write_orders.mission_uses), and the
receipt's words for each use. Only the kingdom's own effects are ever read here."""

from __future__ import annotations

from collections.abc import Iterable

from kingdoms.models import Army, Kingdom, MissionEffect
from kingdoms.services.rival_missions import mission_effect_state
from rulebook.ruins_and_tomb_raiders.reconnaissance import Reconnaissance
from rulebook.ruins_and_tomb_raiders.rival_missions import EffectStatus, MissionEffectState
from rulebook.turn.write_orders.mission_uses import LABELS, last_turn, usable
from rulebook.turn.write_orders.records import MissionUse
from rulebook.world import World


def usable_mission_effects(kingdom: Kingdom, turn: int) -> list[MissionEffectState]:
    """The kingdom's pending effects its sheet of `turn` may use, oldest first."""
    return [effect for effect, _ in _usable_with_targets(kingdom, turn)]


def _usable_with_targets(
    kingdom: Kingdom, turn: int, world: World | None = None
) -> list[tuple[MissionEffectState, str]]:
    """The usable effects with their target's name, in one query (the sheet's API answers with them on
    every save: tests/orders/test_sheet_cost.py counts its queries), or none from `world`: the world
    the kingdom's sheet was just checked against, which holds the campaign's pending effects and the
    kingdoms' names as they stand (a phase that changes them calls `world_changed`)."""
    if world is not None:
        found = [
            (effect, world.kingdoms[effect.target].name)
            for effect in world.mission_effects.values()
            if effect.kingdom == kingdom.id and effect.status is EffectStatus.PENDING
        ]
    else:
        rows = MissionEffect.objects.filter(kingdom=kingdom, status=EffectStatus.PENDING.value).select_related("target")
        found = [(mission_effect_state(row), row.target.name) for row in rows]
    return sorted(
        ((e, name) for e, name in found if usable(e, kingdom.id, turn)),
        key=lambda pair: (pair[0].earned_turn, pair[0].id),
    )


def effect_label(effect: MissionEffectState, names: dict[int, str]) -> str:
    """The effect in words: "Army Orders against Brython (turn 3): Army 21"."""
    label = f"{LABELS.get(effect.mission, effect.mission)} against {names.get(effect.target, effect.target)}"
    if effect.mission == Reconnaissance.ARMY_ORDERS:
        return f"{label} (turn {effect.earned_turn})"
    return f"{label} (turn {effect.earned_turn}, usable until turn {last_turn(effect)})"


def mission_use_lines(kingdom: Kingdom, uses: Iterable[MissionUse]) -> list[str]:
    """The receipt's line for each use of the sheet."""
    uses = list(uses)
    if not uses:
        return []
    effects = {e.id: e for e in MissionEffect.objects.filter(kingdom=kingdom, pk__in=[u.effect for u in uses])}
    names = dict(Kingdom.objects.filter(campaign=kingdom.campaign).values_list("id", "name"))
    # The names of the kingdom's own armies only: another's army named by id stays a number (its secret).
    armies = dict(
        Army.objects.filter(kingdom=kingdom, pk__in=[u.army for u in uses if u.army]).values_list("id", "name")
    )
    lines = []
    for use in uses:
        effect = effects.get(use.effect)
        army = armies.get(use.army, f"army {use.army}") if use.army else ""
        if effect is None:
            lines.append(f"Use of an effect your Tomb Raiders did not earn (effect {use.effect})")
        elif effect.mission == Reconnaissance.ARMY_ORDERS:
            lines.append(
                f"Army Orders against {names.get(effect.target_id)}: {army} holds in response if the army spied on "
                "is ordered into its province or one adjacent to it (Reconnaissance)"
            )
        else:
            what = f"{army}'s support, if it supports" if army else "the first support"
            lines.append(
                f"Destroy Communication against {names.get(effect.target_id)}: cancel {what} from or to them this "
                "turn (Sabotage)"
            )
    return lines


def usable_effects_data(kingdom: Kingdom, turn: int, world: World | None = None) -> list[dict[str, object]]:
    """The API's `usable_effects`: each effect the kingdom's sheet of `turn` may use, with its words;
    from `world` if given (the world its sheet was just checked against: no query)."""
    return [
        {
            "id": e.id,
            "mission": e.mission,
            "label": effect_label(e, {e.target: name}),
            "target": e.target,
            "target_army": e.target_army,
            "earned_turn": e.earned_turn,
            "last_turn": last_turn(e) if e.mission != Reconnaissance.ARMY_ORDERS else None,
        }
        for e, name in _usable_with_targets(kingdom, turn, world)
    ]
