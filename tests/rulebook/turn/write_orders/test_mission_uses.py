"""The order sheet's mission uses (rulebook/turn/write_orders/mission_uses.py): an effect a
Reconnaissance or Sabotage earned, used on the sheet with an army. Rulebook: Reconnaissance (Army
Orders), Sabotage (Destroy Communication). Decisions 450, 483, 487, 626."""

from __future__ import annotations

from rulebook.ruins_and_tomb_raiders.reconnaissance import Reconnaissance
from rulebook.ruins_and_tomb_raiders.rival_missions import EffectStatus, MissionEffectState
from rulebook.ruins_and_tomb_raiders.sabotage import Sabotage
from rulebook.tables import ArmyType
from rulebook.turn.write_orders.check import order_sheet_check
from rulebook.turn.write_orders.context import SheetContext, order_sheet_context
from rulebook.turn.write_orders.mission_uses import usable_effects
from rulebook.turn.write_orders.records import MissionUse, SheetEntries
from tests import world_builders as wb

ME, RIVAL = 1, 2
TURN = 5
ORDERS, CUT, THEIRS, OLD_CUT, POISON = 1, 2, 3, 4, 5


def context() -> SheetContext:
    world = wb.world(
        provinces=[wb.province(n, "plains", "none", controller=ME if n < 3 else RIVAL) for n in range(1, 5)],
        kingdoms=[wb.kingdom(ME, "Avalon", treasury=500), wb.kingdom(RIVAL, "Brython", ArmyType.DWARFS)],
        # The rival's army 21 fought a battle of an earlier turn (a spy may name it: decision 455); 22 never did.
        armies=[wb.army(11, ME, 1), wb.army(21, RIVAL, 4, last_battle_turn=TURN - 1), wb.army(22, RIVAL, 3)],
        adjacency=wb.grid(4, 1),
        turn=TURN,
    )

    def effect(id: int, mission: str, earned: int, kingdom: int = ME) -> MissionEffectState:
        return MissionEffectState(
            id=id, kingdom=kingdom, target=RIVAL if kingdom == ME else ME, mission=mission, earned_turn=earned
        )

    world.mission_effects.update(
        {
            ORDERS: effect(ORDERS, Reconnaissance.ARMY_ORDERS, TURN - 1),
            CUT: effect(CUT, Sabotage.DESTROY_COMMUNICATION, TURN - 2),
            THEIRS: effect(THEIRS, Sabotage.DESTROY_COMMUNICATION, TURN - 1, kingdom=RIVAL),
            OLD_CUT: effect(OLD_CUT, Sabotage.DESTROY_COMMUNICATION, TURN - 3),
            POISON: effect(POISON, Sabotage.POISON_WELL, TURN - 1),
        }
    )
    return order_sheet_context(world, ME)


def codes(*uses: MissionUse) -> list[tuple[str, int | None, str]]:
    check = order_sheet_check(SheetEntries(mission_uses=uses), context())
    return [(p.code.value, p.entry, p.entry_field) for p in check.error_problems]


def test_the_sheet_offers_the_kingdom_s_own_effects_usable_this_turn():
    """Army Orders, and Destroy Communication within the two turns after its success; not another
    kingdom's, nor one expired, nor an effect no sheet uses (Poison Well waits for a battle)."""
    assert [e.id for e in usable_effects(context())] == [CUT, ORDERS]


def test_army_orders_names_an_own_army_destroy_communication_another_s_or_none():
    assert codes(MissionUse(ORDERS, 11), MissionUse(CUT, 21)) == []
    assert codes(MissionUse(CUT, None)) == []


def test_destroy_communication_names_an_army_a_spy_may_name_and_no_other():
    """Decision 626 (Sabotage: Destroy Communication; decision 455): another kingdom's army is named as a
    spy names one, among those that fought a battle of an earlier turn. An army that never fought, and an
    id that names no army at all, are refused alike, so the refusal never says whether an army exists.
    Before, any id was kept: one naming no army of the campaign stopped every export and snapshot of it."""
    assert codes(MissionUse(CUT, 21)) == []
    unseen, no_army = codes(MissionUse(CUT, 22)), codes(MissionUse(CUT, 999))
    assert unseen == no_army == [("mission-use-army", 0, "army")]
    words = order_sheet_check(SheetEntries(mission_uses=(MissionUse(CUT, 22),)), context()).error_problems[0].text
    assert (
        words == order_sheet_check(SheetEntries(mission_uses=(MissionUse(CUT, 999),)), context()).error_problems[0].text
    )
    assert "fought a battle of an earlier turn" in words


def test_each_wrong_use_is_refused_at_its_entry():
    assert codes(
        MissionUse(THEIRS, 21),
        MissionUse(OLD_CUT, 21),
        MissionUse(POISON, None),
        MissionUse(ORDERS, 21),
        MissionUse(CUT, 11),
        MissionUse(99, 21),
    ) == [
        ("mission-use-no-effect", 0, "effect"),
        ("mission-use-not-usable", 1, "effect"),
        ("mission-use-not-usable", 2, "effect"),
        ("mission-use-army", 3, "army"),
        ("mission-use-army", 4, "army"),
        ("mission-use-no-effect", 5, "effect"),
    ]


def test_an_effect_is_used_once():
    assert codes(MissionUse(ORDERS, 11), MissionUse(ORDERS, 11)) == [("mission-use-twice", 1, "effect")]


def test_a_used_effect_is_not_offered():
    ctx = context()
    ctx.world.mission_effects[ORDERS] = MissionEffectState(
        id=ORDERS,
        kingdom=ME,
        target=RIVAL,
        mission=Reconnaissance.ARMY_ORDERS,
        earned_turn=TURN - 1,
        status=EffectStatus.USED,
    )
    assert [e.id for e in usable_effects(ctx)] == [CUT]
