"""The sheet's mission uses: an effect a Reconnaissance or Sabotage earned, used on an order sheet
(pure Python). Decisions 450, 483 and 487.

Two effects are used on a sheet, each naming an army (`MissionUse(effect, army)`):
- Army Orders: one of the kingdom's own armies, which holds "in response or relation to this
  information" if the spied army is ordered into its province or one adjacent to it;
- Destroy Communication: the army whose support from or to the target is cancelled, on the sheets of the
  two turns after the success, or none: the first support from or to the target this turn. The target's
  orders and armies are secret: an army is named as a spy names one, among those that fought a battle of
  an earlier turn (decisions 455, 626), never the kingdom's own; it is cancelled only if it does support
  from or to the target this turn.
The effect must be the kingdom's own and pending; each is used once on a sheet.
"""

from __future__ import annotations

from rulebook.ruins_and_tomb_raiders.reconnaissance import Reconnaissance
from rulebook.ruins_and_tomb_raiders.rival_missions import EffectStatus, MissionEffectState
from rulebook.ruins_and_tomb_raiders.sabotage import DESTROY_COMMUNICATION_TURNS, Sabotage
from rulebook.turn.write_orders.context import SheetContext
from rulebook.turn.write_orders.missions import known_armies
from rulebook.turn.write_orders.problems import SheetCheck, SheetProblem, SheetProblemCode
from rulebook.turn.write_orders.records import SheetEntries, entry_at

PART = "mission_uses"
USED_ON_A_SHEET = (Reconnaissance.ARMY_ORDERS, Sabotage.DESTROY_COMMUNICATION)
LABELS = {Reconnaissance.ARMY_ORDERS: "Army Orders", Sabotage.DESTROY_COMMUNICATION: "Destroy Communication"}


def usable(effect: MissionEffectState, kingdom: int, turn: int) -> bool:
    """Whether `kingdom`'s sheet of `turn` may use the effect: its own, pending, Army Orders from the
    turn after its success (its information arrives at that turn's resolution), Destroy Communication
    on the two turns after its success."""
    return (
        effect.kingdom == kingdom
        and effect.status is EffectStatus.PENDING
        and effect.mission in USED_ON_A_SHEET
        and effect.earned_turn < turn
        and (effect.mission != Sabotage.DESTROY_COMMUNICATION or turn <= last_turn(effect))
    )


def usable_effects(ctx: SheetContext) -> list[MissionEffectState]:
    """The kingdom's own pending effects its sheet of this turn may use, oldest first."""
    return sorted(
        (e for e in ctx.world.mission_effects.values() if usable(e, ctx.kingdom, ctx.turn)),
        key=lambda e: (e.earned_turn, e.id),
    )


def last_turn(effect: MissionEffectState) -> int:
    return effect.expires_turn if effect.expires_turn is not None else effect.earned_turn + DESTROY_COMMUNICATION_TURNS


def check_mission_uses(entries: SheetEntries, ctx: SheetContext, check: SheetCheck) -> None:
    """Each mission use: the kingdom's own effect, usable this turn, once, with an army that fits it."""
    usable = {e.id: e for e in usable_effects(ctx)}
    seen: set[int] = set()
    for index, use in enumerate(entries.mission_uses):
        effect = ctx.world.mission_effects.get(use.effect)
        problem: tuple[SheetProblemCode, str, str] | None = None
        if effect is None or effect.kingdom != ctx.kingdom or effect.status is not EffectStatus.PENDING:
            problem = (
                SheetProblemCode.MISSION_USE_NO_EFFECT,
                "effect",
                "Name an effect your Tomb Raiders earned and have not used yet (Reconnaissance; Sabotage).",
            )
        elif use.effect not in usable:
            problem = (
                SheetProblemCode.MISSION_USE_NOT_USABLE,
                "effect",
                "Only Army Orders (from the turn after its success) and Destroy Communication (within the two turns "
                "after its success) are used on an order sheet (Reconnaissance; Sabotage).",
            )
        elif use.effect in seen:
            problem = (
                SheetProblemCode.MISSION_USE_TWICE,
                "effect",
                "Each effect is used once (Reconnaissance; Sabotage).",
            )
        elif effect.mission == Reconnaissance.ARMY_ORDERS and use.army not in ctx.armies:
            problem = (
                SheetProblemCode.MISSION_USE_ARMY,
                "army",
                'Army Orders: name one of your own armies, to "hold" in response (Reconnaissance).',
            )
        elif effect.mission == Sabotage.DESTROY_COMMUNICATION and use.army in ctx.armies:
            problem = (
                SheetProblemCode.MISSION_USE_ARMY,
                "army",
                "Destroy Communication cancels a support from or to the target: name one of their armies or an "
                "ally's, not your own, or none for the first such support this turn (Sabotage).",
            )
        elif (
            effect.mission == Sabotage.DESTROY_COMMUNICATION
            and use.army is not None
            and use.army not in known_armies(ctx.world)
        ):
            # Another kingdom's army is named as a spy names one (decision 455): one the bulletin showed
            # fighting; any other is refused without saying whether it exists (decision 626). Before, any id
            # was kept, and one naming no army of the campaign stopped every export and snapshot after it.
            problem = (
                SheetProblemCode.MISSION_USE_ARMY,
                "army",
                "Destroy Communication: name an army of theirs or an ally's that fought a battle of an earlier "
                "turn (the armies the sheet offers a spy), or none for the first support from or to them this "
                "turn (Sabotage).",
            )
        seen.add(use.effect)
        if problem is not None:
            code, field, text = problem
            check.error_problems.append(SheetProblem(code, text, **entry_at(PART, index, field)))
