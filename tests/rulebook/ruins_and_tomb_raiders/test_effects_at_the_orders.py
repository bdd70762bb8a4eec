"""Reconnaissance and Sabotage effects used when the next orders are normalised
(rulebook/turn/executing_orders/misdirection.py, army_orders_spied.py): Misdirection and Army Orders.
Rulebook: Sabotage (Misdirection), Reconnaissance (Army Orders). Decisions 450, 480-483. No database:
the effects are pending MissionEffect records put in the world directly (the aftermath makes them)."""

from __future__ import annotations

from dataclasses import replace

from rulebook.ruins_and_tomb_raiders.mission_effects import LIST_AWAITED
from rulebook.ruins_and_tomb_raiders.reconnaissance import Reconnaissance
from rulebook.ruins_and_tomb_raiders.rival_missions import EffectStatus, MissionEffectState
from rulebook.ruins_and_tomb_raiders.sabotage import Sabotage
from rulebook.tables import ArmyType
from rulebook.turn.state import TurnState
from rulebook.turn.write_orders.records import ArmyOrder, CreateArmy, MissionUse, OrderKind, SheetEntries
from rulebook.world import ItemState, UnitState
from tests import world_builders as wb
from tests.rulebook.resolving import of, resolve

# A 4 x 1 strip: 1 - 2 - 3 - 4. Avalon (1) holds 1 and 2, army 11 in 1; Brython (2) holds 3 and 4,
# army 21 in 4.
AVALON, BRYTHON = 1, 2
EARNED, TURN = 3, 4


def state(
    *orders: ArmyOrder,
    effects: tuple[MissionEffectState, ...] = (),
    uses: tuple[MissionUse, ...] = (),
    missed: frozenset[int] = frozenset(),
) -> TurnState:
    control = {1: AVALON, 2: AVALON, 3: BRYTHON, 4: BRYTHON}
    world = wb.world(
        provinces=[wb.province(n, "plains", "none", controller=control[n]) for n in range(1, 5)],
        kingdoms=[
            wb.kingdom(AVALON, "Avalon", ArmyType.EMPIRE, treasury=1000),
            wb.kingdom(BRYTHON, "Brython", ArmyType.DWARFS, treasury=1000),
        ],
        armies=[wb.army(11, AVALON, 1), wb.army(21, BRYTHON, 4)],
        adjacency=wb.grid(4, 1),
        turn=TURN,
    )
    world.mission_effects.update({e.id: e for e in effects})
    sheets: dict[int, list[ArmyOrder]] = {AVALON: [], BRYTHON: []}
    for order in orders:
        sheets[world.armies[order.army].kingdom].append(order)
    return TurnState(
        world=world,
        orders={o.army: o for o in orders},
        sheets={
            AVALON: SheetEntries(orders=tuple(sheets[AVALON]), mission_uses=uses),
            BRYTHON: SheetEntries(orders=tuple(sheets[BRYTHON])),
        },
        missed_orders=missed,
    )


def effect(mission: str, *, id: int = 7, army: int | None = 21) -> MissionEffectState:
    return MissionEffectState(
        id=id, kingdom=AVALON, target=BRYTHON, mission=mission, earned_turn=EARNED, target_army=army
    )


def test_case_RS4_misdirection_the_armys_orders_revert_to_hold_and_both_reports_say_why():
    """Sabotage, Misdirection: "One army's orders are canceled and revert to "Hold"". Earned on turn 3,
    it acts on Brython's next orders (decision 450): army 21, ordered to move to 3, holds in 4; Brython's
    report and Avalon's both say why, and the effect is used on turn 4."""
    result = resolve(state(ArmyOrder(21, OrderKind.MOVE, target=3), effects=(effect(Sabotage.MISDIRECTION),)))

    assert result.state.orders[21].kind is OrderKind.HOLD
    assert result.state.armies[21].province == 4
    (theirs,) = of(result.events, "misdirection", BRYTHON)
    (ours,) = of(result.events, "misdirection", AVALON)
    assert theirs.text == "Army 21's orders are cancelled by a saboteur and revert to Hold (Sabotage: Misdirection)."
    assert (
        ours.text
        == "Your saboteurs cancel the orders of Brython's Army 21: it holds this turn (Sabotage: Misdirection)."
    )
    # Avalon is not told what the order was: that is Reconnaissance's Army Orders.
    assert "order" not in ours.data and "Move" not in ours.text
    done = result.state.world.mission_effects[7]
    assert (done.status, done.used_turn) == (EffectStatus.USED, TURN)


def test_misdirection_an_army_gone_spends_the_effect_and_tells_the_saboteur():
    """Decision 481: the army named is no longer on the map: the effect is used, only Avalon is told."""
    result = resolve(state(effects=(effect(Sabotage.MISDIRECTION, army=99),)))

    (spent,) = of(result.events, "misdirection")
    assert spent.kingdom == AVALON and "no longer on the map" in spent.text
    assert result.state.world.mission_effects[7].status is EffectStatus.USED


def test_misdirection_waits_for_a_target_that_gave_no_orders():
    """Decision 480: the target's next orders: a kingdom that missed its orders holds anyway."""
    result = resolve(state(effects=(effect(Sabotage.MISDIRECTION),), missed=frozenset({BRYTHON})))

    assert of(result.events, "misdirection") == []
    assert result.state.world.mission_effects[7].status is EffectStatus.PENDING


def test_an_effect_earned_this_turn_waits_for_the_next():
    result = resolve(
        state(
            ArmyOrder(21, OrderKind.MOVE, target=3), effects=(replace(effect(Sabotage.MISDIRECTION), earned_turn=TURN),)
        )
    )

    assert result.state.armies[21].province == 3
    assert result.state.world.mission_effects[7].status is EffectStatus.PENDING


def test_army_orders_the_spy_learns_the_order_and_its_army_holds_in_response():
    """Reconnaissance, Army Orders: "The orders given to any one army this turn. In addition, may adjust
    the orders to any one of your own armies to "hold" if it is in response": Avalon learns army 21's
    order (its alone). Its army 11, named in response, stands in 1, which 3 does not border (decision
    483): its order stands, and it moves to 2."""
    result = resolve(
        state(
            ArmyOrder(11, OrderKind.MOVE, target=2),
            ArmyOrder(21, OrderKind.MOVE, target=3),
            effects=(effect(Reconnaissance.ARMY_ORDERS),),
            uses=(MissionUse(7, 11),),
        )
    )

    (intelligence,) = of(result.events, "intelligence")
    assert intelligence.kingdom == AVALON
    assert (
        intelligence.text
        == "Army Orders of Brython: Army 21 in 4 P4 is ordered to Move to 3 P3 (Reconnaissance: Army Orders)."
    )
    assert intelligence.data["info"]["order"] == "move" and intelligence.data["info"]["to"] == 3
    (response,) = of(result.events, "army-orders-response", AVALON)
    assert response.data["held"] is False
    assert result.state.armies[11].province == 2
    assert of(result.events, "intelligence", BRYTHON) == of(result.events, "army-orders-response", BRYTHON) == []
    assert result.state.world.mission_effects[7].status is EffectStatus.USED


def test_army_orders_the_spy_learns_a_forced_march_and_the_battle_it_supports():
    """Decision 588 (Reconnaissance, Army Orders: "The orders given to any one army this turn"; 4. Write
    Orders: "Move and / or Support", a Forced March being how an army moves): army 21's Forced March
    through 3 to 2 that also supports the battle in 3 reaches the spy whole, the support named. Before,
    the sheet check refused it and the spy read "Hold"."""
    result = resolve(
        state(
            ArmyOrder(21, OrderKind.FORCED_MARCH, path=(3, 2), support=3), effects=(effect(Reconnaissance.ARMY_ORDERS),)
        ),
        faces=[2],  # Fatigue: it moves into 3 only
    )

    (intelligence,) = of(result.events, "intelligence")
    assert intelligence.text == (
        "Army Orders of Brython: Army 21 in 4 P4 is ordered to Forced March through 3 P3 to 2 P2, and to support "
        "the battle in 3 P3 (Reconnaissance: Army Orders)."
    )
    info = intelligence.data["info"]
    assert (info["order"], info["path"], info["supports"]) == ("forced-march", [3, 2], 3)


def test_army_orders_the_response_army_holds_when_the_spied_army_comes_beside_it():
    """Decision 483: army 21 is ordered into 3, which borders 2 where Avalon's army 12 stands: 12 holds."""
    world_state = state(
        ArmyOrder(21, OrderKind.MOVE, target=3),
        effects=(effect(Reconnaissance.ARMY_ORDERS),),
        uses=(MissionUse(7, 12),),
    )
    world_state.world.armies[12] = wb.army(12, AVALON, 2)
    world_state.orders[12] = ArmyOrder(12, OrderKind.MOVE, target=1)

    result = resolve(world_state)

    (response,) = of(result.events, "army-orders-response", AVALON)
    assert response.text == (
        "Army 12 holds in response: Army 21 is ordered into 3 P3, at or beside 2 P2 (Reconnaissance: Army Orders)."
    )
    assert result.state.orders[12].kind is OrderKind.HOLD
    assert result.state.armies[12].province == 2


def test_army_construction_info_the_spy_learns_where_the_next_army_is_raised_and_its_points():
    """Reconnaissance, Army Construction Info: "The Location and Army list (no character info) for the
    next army this Kingdom creates." Brython raises two armies on turn 4: Avalon learns of the first, in
    3 at 1,200 points, its list not written yet (decision 488); Brython is told nothing of it."""
    world_state = state(
        effects=(
            MissionEffectState(
                id=7, kingdom=AVALON, target=BRYTHON, mission=Reconnaissance.ARMY_CONSTRUCTION_INFO, earned_turn=EARNED
            ),
        )
    )
    world_state.sheets[BRYTHON] = SheetEntries(creations=(CreateArmy("Levy", 1200, 3), CreateArmy("Host", 1000, 4)))
    world_state.world.armies.pop(21)
    world_state.world.kingdoms[BRYTHON] = replace(world_state.world.kingdoms[BRYTHON], treasury=10_000)

    result = resolve(world_state)

    (intelligence,) = of(result.events, "intelligence")
    assert intelligence.kingdom == AVALON
    assert intelligence.text == (
        "Army Construction Info of Brython: Levy is raised in 3 P3 at 1,200 points; its list is not written yet: "
        "it reaches you at the first resolution after Brython writes it (Reconnaissance: Army Construction Info)."
    )
    info = intelligence.data["info"]
    assert (info["army_name"], info["province"], info["points"], info["list_due"]) == ("Levy", 3, 1200, True)
    # Not spent: the Army list the rulebook promises is written after the turn; the effect waits for the
    # list of the army raised (its temporary id, the writer puts its row's in its place).
    kept = result.state.world.mission_effects[7]
    levy = next(a for a in result.state.armies.values() if a.name == "Levy")
    assert (kept.status, kept.target_army, kept.data[LIST_AWAITED]) == (EffectStatus.PENDING, levy.id, True)


def test_army_construction_info_waits_while_the_target_raises_no_army():
    result = resolve(
        state(
            effects=(
                MissionEffectState(
                    id=7,
                    kingdom=AVALON,
                    target=BRYTHON,
                    mission=Reconnaissance.ARMY_CONSTRUCTION_INFO,
                    earned_turn=EARNED,
                ),
            )
        )
    )

    assert of(result.events, "intelligence") == []
    assert result.state.world.mission_effects[7].status is EffectStatus.PENDING


def awaiting(mission: str = Reconnaissance.ARMY_CONSTRUCTION_INFO, army: int = 21) -> MissionEffectState:
    """An effect that told the army's location and points on turn 3, waiting for its list (decision 488)."""
    return replace(effect(mission, army=army), data={LIST_AWAITED: True, "since_turn": EARNED})


def with_written_list(world_state: TurnState, *, list_due: bool = False) -> TurnState:
    """Brython's army 21 with its list: Thane Grimm (a character, bearing the Rune Axe), 20 Warriors with
    command, 2 Cannons."""
    world = world_state.world
    world.armies[21] = replace(world.armies[21], name="Levy", list_due=list_due)
    world.units[21] = (
        UnitState(211, 21, "Thane Grimm", "character", 1, 120),
        UnitState(212, 21, "Warriors", "core", 20, 8, equipment_points=25, champion_points=10, veteran_level=1),
        UnitState(213, 21, "Cannon", "rare", 2, 100),
    )
    return world_state


def test_army_construction_info_the_list_written_reaches_the_spy_at_the_next_resolution_without_character_info():
    """Reconnaissance, Army Construction Info: "The Location and Army list (no character info) for the next
    army this Kingdom creates." Brython raised Levy on turn 3 (Avalon learned where, and its points) and
    wrote its list after that turn: at turn 4's resolution Avalon gets the list, its units as the list gives
    them, and no character info (no Thane Grimm, nor his unit's points); the effect is spent (decision 488).
    Brython is told nothing."""
    result = resolve(with_written_list(state(effects=(awaiting(),))))

    (intelligence,) = of(result.events, "intelligence")
    assert intelligence.kingdom == AVALON
    assert intelligence.text == (
        "Army Construction Info of Brython: the list of Levy (4 P4) is written: 20 Warriors, 2 Cannon "
        "(385 points, characters left out) (Reconnaissance: Army Construction Info)."
    )
    info = intelligence.data["info"]
    assert (info["army_name"], info["province"], info["list_due"], info["points"]) == ("Levy", 4, False, 385)
    assert [(u["name"], u["models"], u["points"]) for u in info["units"]] == [("Warriors", 20, 185), ("Cannon", 2, 200)]
    warriors = info["units"][0]
    assert (warriors["points_per_model"], warriors["equipment_points"], warriors["champion_points"]) == (8, 25, 10)
    assert warriors["veteran_level"] == 1
    assert "Thane" not in repr(intelligence.data) and "Thane" not in intelligence.text
    assert intelligence.data["target_army"] == 21 and intelligence.data["target"] == BRYTHON
    done = result.state.world.mission_effects[7]
    assert (done.status, done.used_turn) == (EffectStatus.USED, TURN)


def test_army_statistics_of_an_army_whose_list_was_due_delivers_it_once_written():
    """Reconnaissance, Army Statistics: "The Location and Army list (no character info) of any one army."
    The aftermath found the army's list due and told its points (decision 562); its list written since, it
    reaches the spy at the next resolution."""
    result = resolve(with_written_list(state(effects=(awaiting(Reconnaissance.ARMY_STATISTICS),))))

    (intelligence,) = of(result.events, "intelligence", AVALON)
    assert intelligence.text.startswith("Army Statistics of Brython: the list of Levy (4 P4) is written: 20 Warriors")
    assert [u["name"] for u in intelligence.data["info"]["units"]] == ["Warriors", "Cannon"]
    assert result.state.world.mission_effects[7].status is EffectStatus.USED


def test_the_list_delivered_gives_each_regiment_the_magic_items_it_bears_never_a_character_s():
    """Reconnaissance, Army Statistics: "The Location and Army list (no character info) of any one army".
    Decision 590: the Warriors bear the War Banner (50 points): the list gives it with them, and counts it
    in the list's points; Thane Grimm's Rune Axe is character info and stays out, and the Cannon's lost
    Powder Keg (destroyed) is on no list."""
    world_state = with_written_list(state(effects=(awaiting(Reconnaissance.ARMY_STATISTICS),)))
    items = world_state.world.items
    items[1] = ItemState(1, "Rune Axe", 40, bearer=211)
    items[2] = ItemState(2, "War Banner", 50, bearer=212)
    items[3] = ItemState(3, "Powder Keg", 25, bearer=213, destroyed=True)

    result = resolve(world_state)

    (intelligence,) = of(result.events, "intelligence", AVALON)
    assert intelligence.text == (
        "Army Statistics of Brython: the list of Levy (4 P4) is written: 20 Warriors (bearing War Banner), "
        "2 Cannon (435 points, characters left out) (Reconnaissance: Army Statistics)."
    )
    info = intelligence.data["info"]
    assert [(u["name"], u["items"]) for u in info["units"]] == [
        ("Warriors", [{"name": "War Banner", "points": 50}]),
        ("Cannon", []),
    ]
    assert info["points"] == 435
    assert "Rune Axe" not in repr(intelligence.data) and "Powder Keg" not in repr(intelligence.data)


def test_an_awaited_list_still_due_waits_for_a_later_resolution():
    """Decision 563: the list not written yet, nothing is delivered and the effect stays pending."""
    result = resolve(with_written_list(state(effects=(awaiting(),)), list_due=True))

    assert of(result.events, "intelligence") == []
    assert result.state.world.mission_effects[7].status is EffectStatus.PENDING


def test_an_awaited_list_of_an_army_gone_spends_the_effect_and_tells_the_spy():
    """Decision 563: the army left the map (destroyed, disbanded) before its list was written: there is no
    list to deliver; the spy is told and the effect spent."""
    world_state = state(effects=(awaiting(),))
    world_state.world.armies.pop(21)

    result = resolve(world_state)

    (intelligence,) = of(result.events, "intelligence")
    assert intelligence.kingdom == AVALON and intelligence.data["info"] == {"found": False}
    assert "left the map before its list was written" in intelligence.text
    assert result.state.world.mission_effects[7].status is EffectStatus.USED


def test_a_later_army_raised_is_not_taken_for_the_one_whose_list_is_awaited():
    """Decision 488: the effect named the next army created; another raised while its list is awaited is
    none of its business (no second delivery, the awaited army kept)."""
    world_state = with_written_list(state(effects=(awaiting(),)), list_due=True)
    world_state.sheets[BRYTHON] = SheetEntries(creations=(CreateArmy("Host", 1000, 3),))
    world_state.world.kingdoms[BRYTHON] = replace(world_state.world.kingdoms[BRYTHON], treasury=10_000)

    result = resolve(world_state)

    assert of(result.events, "intelligence") == []
    assert result.state.world.mission_effects[7].target_army == 21
