"""The effects a Reconnaissance or Sabotage earned, at their moment (decision 450), pure Python: the
pending ones of a mission, in the order they were earned, and the record of one used or expired. The
phases that apply them (an army's list awaited at the resolution's beginning, Misdirection and Army Orders
after the orders are normalised, Army Construction Info at 3. Create / Upgrade Armies, the battle effects
and Destroy Communication at 6. Fight Battles, Mislabeled goods in the aftermath) read
`World.mission_effects` and retire each effect they apply; the world's writer stores the change
(kingdoms.services.rival_missions)."""

from __future__ import annotations

from collections.abc import Collection, Iterator
from dataclasses import replace

from rulebook.ruins_and_tomb_raiders.rival_missions import EffectStatus, MissionEffectState
from rulebook.world import ArmyState, World


def pending(world: World, mission: str) -> list[MissionEffectState]:
    """The effects of `mission` still pending, earned before this turn (an effect earned in a turn's
    aftermath waits for a later turn), oldest first."""
    return sorted(
        (
            e
            for e in world.mission_effects.values()
            if e.mission == mission and e.status is EffectStatus.PENDING and e.earned_turn < world.turn
        ),
        key=lambda e: (e.earned_turn, e.id),
    )


def used(world: World, effect: MissionEffectState) -> MissionEffectState:
    """The effect applied this turn: `status` USED, `used_turn` the world's turn."""
    done = replace(world.mission_effects[effect.id], status=EffectStatus.USED, used_turn=world.turn)
    world.mission_effects[effect.id] = done
    return done


def expired(world: World, effect: MissionEffectState) -> MissionEffectState:
    """The effect not used in time: `status` EXPIRED."""
    done = replace(world.mission_effects[effect.id], status=EffectStatus.EXPIRED)
    world.mission_effects[effect.id] = done
    return done


def due_at_the_orders(
    world: World, mission: str, missed_orders: Collection[int]
) -> Iterator[tuple[MissionEffectState, ArmyState | None]]:
    """The effects of `mission` that act on the target army's next orders (Misdirection, Army Orders):
    each pending one whose target gave orders this turn (one that gave none waits, decision 480), used
    now, with the army it names (None: no longer on the map, the effect spent all the same, decision
    481)."""
    for effect in pending(world, mission):
        if effect.target in missed_orders:
            continue
        army = world.armies.get(effect.target_army) if effect.target_army is not None else None
        used(world, effect)
        yield effect, (None if army is None or army.disbanded else army)


# Decisions 488 and 562: an Army Construction Info or Army Statistics whose army's list is still due when
# the effect acts has told the army's location and points; it stays pending, naming the army, until the
# list is written (`rulebook.turn.army_lists_spied`). The key in its data says so.
LIST_AWAITED = "list_awaited"


def awaiting_list(world: World, effect: MissionEffectState, army: int) -> MissionEffectState:
    """The effect kept pending for `army`'s list, still due on the world's turn: the list is delivered at
    the first resolution of a later turn that finds it written (decisions 488, 562)."""
    kept = replace(
        world.mission_effects[effect.id],
        target_army=army,
        data={**effect.data, LIST_AWAITED: True, "since_turn": world.turn},
    )
    world.mission_effects[effect.id] = kept
    return kept


def lists_awaited(world: World) -> list[MissionEffectState]:
    """The effects pending for an army's list (`awaiting_list`) set on an earlier turn, oldest first."""
    return sorted(
        (
            e
            for e in world.mission_effects.values()
            if e.status is EffectStatus.PENDING
            and e.data.get(LIST_AWAITED)
            and int(e.data.get("since_turn", 0)) < world.turn
        ),
        key=lambda e: (e.earned_turn, e.id),
    )


def is_awaiting_list(effect: MissionEffectState) -> bool:
    """The effect has told what it could and waits for its army's list (`awaiting_list`)."""
    return bool(effect.data.get(LIST_AWAITED))


def list_awaited_when(target: str) -> str:
    """When an effect awaiting its army's list is delivered, as the spy's page says it."""
    return f"the army's list, delivered at the first resolution after {target} writes it"
