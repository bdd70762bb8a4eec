"""The sheet's mission uses: an effect a Reconnaissance or Sabotage earned, used on an order sheet
(pure Python). Decisions 450, 483 and 487.

Two effects are used on a sheet, each naming an army (`MissionUse(effect, army)`):
- Army Orders: one of the kingdom's own armies, which holds "in response or relation to this
  information" if the spied army is ordered into its province or one adjacent to it;
- Destroy Communication: the army whose support from or to the target is cancelled, on the sheets of the
  two turns after the success. The target's orders are secret: any army on the map but the kingdom's own
  may be named; it is cancelled only if it does support from or to the target this turn.
The effect must be the kingdom's own and pending; each is used once on a sheet.
"""

from __future__ import annotations

from rulebook.ruins_and_tomb_raiders.reconnaissance import Reconnaissance
from rulebook.ruins_and_tomb_raiders.rival_missions import EffectStatus, MissionEffectState
from rulebook.ruins_and_tomb_raiders.sabotage import DESTROY_COMMUNICATION_TURNS, Sabotage
from rulebook.turn.write_orders.context import SheetContext
from rulebook.turn.write_orders.problems import SheetCheck, SheetProblem, SheetProblemCode
from rulebook.turn.write_orders.records import SheetEntries, entry_at

PART = "mission_uses"
USED_ON_A_SHEET = (Reconnaissance.ARMY_ORDERS, Sabotage.DESTROY_COMMUNICATION)
LABELS = {Reconnaissance.ARMY_ORDERS: "Army Orders", Sabotage.DESTROY_COMMUNICATION: "Destroy Communication"}


def usable_effects(ctx: SheetContext) -> list[MissionEffectState]:
    """The kingdom's own pending effects its sheet of this turn may use, oldest first: Army Orders from
    the turn after its success (its information arrives at that turn's resolution), Destroy
    Communication on the two turns after its success."""
    return sorted(
        (
            e
            for e in ctx.world.mission_effects.values()
            if e.kingdom == ctx.kingdom
            and e.status is EffectStatus.PENDING
            and e.mission in USED_ON_A_SHEET
            and e.earned_turn < ctx.turn
            and (e.mission != Sabotage.DESTROY_COMMUNICATION or ctx.turn <= _last_turn(e))
        ),
        key=lambda e: (e.earned_turn, e.id),
    )


def _last_turn(effect: MissionEffectState) -> int:
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
        elif effect.mission == Sabotage.DESTROY_COMMUNICATION and (
            use.army is None or use.army not in ctx.world.armies or use.army in ctx.armies
        ):
            problem = (
                SheetProblemCode.MISSION_USE_ARMY,
                "army",
                "Destroy Communication: name the army on the map whose support from or to the target you cancel "
                "(Sabotage).",
            )
        seen.add(use.effect)
        if problem is not None:
            code, field, text = problem
            check.error_problems.append(SheetProblem(code, text, **entry_at(PART, index, field)))
