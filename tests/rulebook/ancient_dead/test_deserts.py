"""Turning a desert back to plains with a Scarab Amulet (The Ancient Dead: Deserts): "you must roll
a 6 on a d6. Add a +1 to your roll for each magic level of the highest mage in the army. You may
reroll the die for each additional Scarab Amulet the army possesses." Dice scripted; no database.
Rules decisions 109-114."""

from __future__ import annotations

import pytest

from kernel.dice import ScriptedDice
from kernel.event_codes import EventCode
from rulebook.ancient_dead.deserts import Caster, best_magic_level, desert_reversal_roll
from rulebook.armies.army_lists import ArmyListDraft, CharacterEntry, KingdomRoster, UnitEntry, army_list_errors
from rulebook.tables import ArmyType, Terrain
from rulebook.turn.pipeline import Resolution, resolve_orders
from rulebook.turn.state import TurnState
from rulebook.turn.write_orders.check import order_sheet_check
from rulebook.turn.write_orders.context import order_sheet_context
from rulebook.turn.write_orders.problems import SheetProblemCode
from rulebook.turn.write_orders.records import ArmyOrder, OrderKind, SheetEntries
from rulebook.world import ArmyState, World
from tests import world_builders as wb
from tests.rulebook.ancient_dead.test_ancient_dead import AVALON, DEAD, PYRAMID, grid_world, host

DESERT = 8  # in the ring of deserts around the pyramid, next to the plains of 3
SCARAB = ArmyOrder(1, OrderKind.SCARAB_AMULET)


def seekers(*, amulets: int = 1, magic_level: int | None = 2, province: int = DESERT, **changes: object) -> ArmyState:
    """Avalon's army standing in the desert with its amulets and its best mage's level."""
    return wb.army(
        1, AVALON, province, 1500, name="Seekers", scarab_amulets=amulets, magic_level=magic_level, **changes
    )


def resolve(world: World, *orders: ArmyOrder, dice: list[int]) -> tuple[Resolution, ScriptedDice]:
    given = {o.army: o for o in orders}
    state = TurnState(world=world, orders=given, sheets={AVALON: SheetEntries(orders=tuple(orders))})
    scripted = ScriptedDice(faces=dice)
    return resolve_orders(state, scripted), scripted


def outcome(resolution: Resolution) -> list[EventCode]:
    wanted = {
        EventCode.DESERT_REVERSAL_ROLL,
        EventCode.DESERT_REVERSED,
        EventCode.DESERT_NOT_REVERSED,
        EventCode.DESERT_REVERSAL_IN_BATTLE,
    }
    return [e.code for e in resolution.events if e.code in wanted]


def test_a_roll_of_4_with_a_level_2_mage_makes_6_and_turns_the_desert_to_plains() -> None:
    """Deserts: a 4 +2 (the level 2 Wizard, the highest mage) is 6: the desert is plains again, the
    province Avalon's, and its Ancient Dead garrison is gone (no desert, no garrison)."""
    resolution, dice = resolve(grid_world(armies=(seekers(),)), SCARAB, dice=[4])

    assert outcome(resolution) == [EventCode.DESERT_REVERSAL_ROLL, EventCode.DESERT_REVERSED]
    province = resolution.state.provinces[DESERT]
    assert (province.terrain, province.controller) == (Terrain.PLAINS, AVALON)
    assert dice.unused == [] and "6+, +2" in dice.rolls[0].purpose
    roll = resolution.events[-2]
    assert roll.data == {"face": 4, "bonus": 2, "reroll": False} and "rolls 4 +2" in roll.text
    from rulebook.turn.fight_battles.towns_cities_capitols import province_garrison

    assert province_garrison(resolution.state, DESERT) is None


def test_case_TR9_an_amulet_and_a_level_2_mage_turn_the_desert_on_4_and_a_second_amulet_rerolls() -> None:
    """The Ancient Dead: Deserts: "you must roll a 6 on a d6. Add a +1 to your roll for each magic level of
    the highest mage in the army. You may reroll the die for each additional Scarab Amulet the army
    possesses": with a level 2 mage a 4 turns it, a 3 does not; a second amulet rerolls a failure once."""

    def attempt(faces: list[int], amulets: int) -> tuple[bool, tuple[int, ...], list[int]]:
        dice = ScriptedDice(faces=faces)
        rolled = desert_reversal_roll(dice, level=2, amulets=amulets, purpose="TR9", kingdom=AVALON, army=1)
        return rolled.succeeded, rolled.faces, dice.unused

    assert attempt([4], 1) == (True, (4,), [])
    assert attempt([3], 1) == (False, (3,), [])
    assert attempt([3, 4], 2) == (True, (3, 4), [])
    assert attempt([3, 2, 6], 2) == (False, (3, 2), [6])  # one reroll, not two


def test_a_roll_short_of_6_leaves_the_desert_and_one_amulet_gives_no_reroll() -> None:
    """Deserts: 3 +2 is 5: it stays desert, and with a single amulet there is no reroll."""
    resolution, dice = resolve(grid_world(armies=(seekers(),)), SCARAB, dice=[3])

    assert outcome(resolution) == [EventCode.DESERT_REVERSAL_ROLL, EventCode.DESERT_NOT_REVERSED]
    assert resolution.state.provinces[DESERT].terrain is Terrain.DESERT
    assert resolution.state.provinces[DESERT].controller == DEAD
    assert len(dice.rolls) == 1


def test_each_additional_amulet_is_a_reroll_made_until_the_desert_turns() -> None:
    """Deserts: "You may reroll the die for each additional Scarab Amulet": three amulets, a rune
    smith (no magic level, +0): 2 and 5 fail, the second reroll's 6 succeeds (decisions 109, 111)."""
    world = grid_world(armies=(seekers(amulets=3, magic_level=0),))
    resolution, dice = resolve(world, SCARAB, dice=[2, 5, 6])

    assert outcome(resolution) == [EventCode.DESERT_REVERSAL_ROLL] * 3 + [EventCode.DESERT_REVERSED]
    assert [r.total for r in dice.rolls] == [2, 5, 6]
    assert "reroll 2 of 2" in dice.rolls[2].purpose
    assert resolution.state.provinces[DESERT].terrain is Terrain.PLAINS


def test_rerolls_stop_at_the_first_success_and_all_failing_leaves_the_desert() -> None:
    """Deserts: a reroll is only taken while the desert has not turned (decision 111)."""
    succeeded, dice = resolve(grid_world(armies=(seekers(amulets=3, magic_level=1),)), SCARAB, dice=[5])
    assert outcome(succeeded) == [EventCode.DESERT_REVERSAL_ROLL, EventCode.DESERT_REVERSED]
    assert len(dice.rolls) == 1

    failed, dice = resolve(grid_world(armies=(seekers(amulets=2, magic_level=1),)), SCARAB, dice=[1, 4])
    assert outcome(failed) == [EventCode.DESERT_REVERSAL_ROLL] * 2 + [EventCode.DESERT_NOT_REVERSED]
    assert "rolled 1, 4 +1" in failed.events[-1].text
    assert failed.state.provinces[DESERT].terrain is Terrain.DESERT


def test_an_army_attacked_in_its_desert_makes_no_attempt() -> None:
    """An Ancient Dead host marching into the desert where the army tries: the battle comes first,
    no roll is made this turn (decision 113)."""
    world = grid_world(armies=(seekers(), host(5, PYRAMID)))
    resolution, dice = resolve(
        world, SCARAB, ArmyOrder(5, OrderKind.MOVE, target=DESERT), dice=[6, 6, 6, 6, 6, 6, 6, 6]
    )

    assert outcome(resolution) == [EventCode.DESERT_REVERSAL_IN_BATTLE]
    assert resolution.state.provinces[DESERT].terrain is Terrain.DESERT
    assert not any("Scarab" in r.purpose for r in dice.rolls)


def test_the_turned_province_pays_taxes_again_and_is_announced_for_the_bulletin() -> None:
    """G3, AD4: a desert yields nothing; once plains it is an ordinary province of its kingdom. The
    success is a public event (the bulletin words it from the code)."""
    from kernel.event_codes import PUBLIC_EVENT_CODES
    from rulebook.turn.tally_gold import tax_tally

    world = grid_world(armies=(seekers(),))
    before = tax_tally(world, AVALON).net
    resolution, _ = resolve(world, SCARAB, dice=[6])
    assert tax_tally(resolution.state.world, AVALON).net > before
    assert EventCode.DESERT_REVERSED in PUBLIC_EVENT_CODES
    assert EventCode.DESERT_REVERSAL_ROLL not in PUBLIC_EVENT_CODES


# --- the order sheet's check -------------------------------------------------------------------


def check_codes(world: World, kingdom: int = AVALON, order: ArmyOrder = SCARAB) -> list[SheetProblemCode]:
    check = order_sheet_check(SheetEntries(orders=(order,)), order_sheet_context(world, kingdom))
    return [p.code for p in check.error_problems]


def test_the_sheet_accepts_the_order_with_an_amulet_and_a_mage_in_a_desert() -> None:
    assert check_codes(grid_world(armies=(seekers(),))) == []
    assert check_codes(grid_world(armies=(seekers(magic_level=0),))) == []  # a rune smith


@pytest.mark.parametrize(
    ("army", "code", "words"),
    [
        (seekers(province=3), SheetProblemCode.SCARAB_NOT_DESERT, "3 P3 is not a desert"),
        (seekers(amulets=0), SheetProblemCode.SCARAB_NO_AMULET, "carries no Scarab Amulet"),
        (seekers(magic_level=None), SheetProblemCode.SCARAB_NO_MAGE, "has no mage or rune smith"),
    ],
)
def test_the_sheet_refuses_the_order_naming_the_army_and_the_rule(army, code, words) -> None:
    """The army stands in the desert, carries a Scarab Amulet and has a mage or rune smith
    (Deserts; decision 112): each missing piece is an error naming the army and the rule."""
    world = grid_world(armies=(army,))
    check = order_sheet_check(SheetEntries(orders=(SCARAB,)), order_sheet_context(world, AVALON))
    assert [p.code for p in check.error_problems] == [code]
    assert check.errors[0].startswith("Seekers: ") and words in check.errors[0]
    assert "(The Ancient Dead: Deserts)" in check.errors[0]


def test_the_ancient_dead_never_turn_a_desert_back() -> None:
    world = grid_world(armies=(host(5, DESERT, scarab_amulets=1, magic_level=1),))
    assert check_codes(world, DEAD, ArmyOrder(5, OrderKind.SCARAB_AMULET)) == [SheetProblemCode.SCARAB_ANCIENT_DEAD]


def test_an_order_no_longer_legal_at_the_resolution_holds_and_rolls_nothing() -> None:
    """The amulet lost since the sheet was written: the turn's check holds the army (ORDER_ILLEGAL)."""
    resolution, dice = resolve(grid_world(armies=(seekers(amulets=0),)), SCARAB, dice=[])
    assert EventCode.ORDER_ILLEGAL in [e.code for e in resolution.events]
    assert outcome(resolution) == [] and dice.rolls == []


# --- magic levels on the army list -------------------------------------------------------------


def test_the_best_mage_counts_a_wizard_s_level_and_a_rune_smith_adds_nothing() -> None:
    """ "Each magic level of the highest mage in the army": the best of them; a Wizard whose level is
    not entered is level 1; a rune smith qualifies at +0; a plain hero is no mage (decision 109)."""
    assert best_magic_level([Caster(wizard=True, magic_level=3), Caster(wizard=True, magic_level=1)]) == 3
    assert best_magic_level([Caster(wizard=True)]) == 1
    assert best_magic_level([Caster(rune_smith=True)]) == 0
    assert best_magic_level([Caster(), Caster()]) is None


def _list(army_type: ArmyType, character: CharacterEntry) -> list[str]:
    units = (
        UnitEntry("Lord", "character", 1, 150, character=CharacterEntry("hero", "general", "veteran")),
        UnitEntry("Caster", "character", 1, 100, character=character),
        UnitEntry("Warriors", "core", 20, 40),
    )
    draft = ArmyListDraft("1st Army", army_type, 1200, units, entering=False)
    return army_list_errors(draft, KingdomRoster())


def test_the_army_list_allows_magic_levels_for_wizards_and_rune_smiths_for_dwarfs_only() -> None:
    assert _list(ArmyType.EMPIRE, CharacterEntry(wizard=True, magic_level=2)) == []
    assert _list(ArmyType.DWARFS, CharacterEntry(rune_smith=True)) == []
    assert _list(ArmyType.EMPIRE, CharacterEntry(magic_level=2)) == [
        "1st Army: Caster is not a Wizard; only Wizards have a magic level (Character Archetypes)."
    ]
    assert (
        "level 1 to 4, one more with the Magician's Potential"
        in _list(ArmyType.EMPIRE, CharacterEntry(wizard=True, magic_level=6))[0]
    )
    assert _list(ArmyType.EMPIRE, CharacterEntry(rune_smith=True)) == [
        "1st Army: Caster cannot be a rune smith: rune smiths belong to the Dwarfs and Chaos Dwarves "
        "(Army-Specific Rules: Perfectionists)."
    ]
    assert any(
        "both a Wizard and a rune smith" in e
        for e in _list(ArmyType.DWARFS, CharacterEntry(wizard=True, rune_smith=True))
    )
