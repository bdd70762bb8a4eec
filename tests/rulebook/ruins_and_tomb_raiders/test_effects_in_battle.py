"""Sabotage's effects at the target's next battle, in 6. Fight Battles (rulebook/turn/fight_battles/
sabotage_effects.py, destroy_communication.py): Poison Well, Assassinate Spiritual Leader, Sappers and
Destroy Communication. Rulebook: Sabotage. Decisions 450, 484-487. No database: the effects are pending
MissionEffect records put in the world directly (the aftermath makes them)."""

from __future__ import annotations

from rulebook.allies.chart import AllianceState, TrustLevel
from rulebook.ruins_and_tomb_raiders.rival_missions import EffectStatus, MissionEffectState
from rulebook.ruins_and_tomb_raiders.sabotage import Sabotage
from rulebook.tables import ArmyType
from rulebook.turn.state import TurnState
from rulebook.turn.write_orders.records import ArmyOrder, MissionUse, OrderKind, SheetEntries
from tests import world_builders as wb
from tests.rulebook.resolving import of, resolve

# A strip 1 - 2 - 3 - 4 - 5. Avalon (1) holds 1 and 2, its army 11 in 2; Brython (2) holds 3 (a town,
# or a city) to 5, its army 22 in 4. Cymru (3) is the saboteur, in none of these battles.
AVALON, BRYTHON, CYMRU = 1, 2, 3
TOWN = 3
EARNED, TURN = 3, 4


def state(
    *orders: ArmyOrder,
    effects: tuple[MissionEffectState, ...] = (),
    uses: tuple[MissionUse, ...] = (),
    settlement: str = "town",
) -> TurnState:
    control = {1: AVALON, 2: AVALON, 3: BRYTHON, 4: BRYTHON, 5: BRYTHON}
    provinces = [wb.province(n, "plains", "none", controller=control[n]) for n in range(1, 6)]
    provinces[TOWN - 1] = wb.province(TOWN, "plains", settlement, controller=BRYTHON, name="Caer Lud")
    world = wb.world(
        provinces=provinces,
        kingdoms=[
            wb.kingdom(AVALON, "Avalon", ArmyType.EMPIRE, treasury=1000),
            wb.kingdom(BRYTHON, "Brython", ArmyType.DWARFS, treasury=1000),
            wb.kingdom(CYMRU, "Cymru", ArmyType.HIGH_ELVES, treasury=1000),
        ],
        armies=[wb.army(11, AVALON, 2), wb.army(22, BRYTHON, 4)],
        adjacency=wb.grid(5, 1),
        turn=TURN,
        player_count=3,
    )
    world.mission_effects.update({e.id: e for e in effects})
    by_army = {o.army: o for o in orders}
    return TurnState(
        world=world,
        orders=by_army,
        sheets={
            AVALON: SheetEntries(orders=tuple(o for o in orders if world.armies[o.army].kingdom == AVALON)),
            BRYTHON: SheetEntries(orders=tuple(o for o in orders if world.armies[o.army].kingdom == BRYTHON)),
            CYMRU: SheetEntries(mission_uses=uses),
        },
    )


def effect(mission: str, *, id: int = 7, earned: int = EARNED, **changes: object) -> MissionEffectState:
    return MissionEffectState(id=id, kingdom=CYMRU, target=BRYTHON, mission=mission, earned_turn=earned, **changes)


ATTACK_THE_TOWN = ArmyOrder(11, OrderKind.MOVE, target=TOWN)


def test_poison_well_the_garrison_loses_a_quarter_before_the_battle_not_for_victory_points():
    """Poison Well: "Next battle involving a garrison force, the kingdom loses 25% of his forces before
    the battle begins. This does not count toward victory points." Brython's town garrison of 750
    points loses 187 (rounded down, decision 485); the battle's notes say so without naming Cymru."""
    result = resolve(state(ATTACK_THE_TOWN, effects=(effect(Sabotage.POISON_WELL),)))

    (battle,) = result.battles
    assert battle.garrison_points == 750 - 187
    (note,) = [n for n in battle.notes if n.startswith("Poison Well")]
    assert note == (
        "Poison Well (Sabotage): Brython's garrison force loses 187 of its 750 points before the battle begins; "
        "they do not count toward victory points."
    )
    assert "Cymru" not in " ".join(battle.notes)
    (ours,) = of(result.events, "sabotage-applied", CYMRU)
    (theirs,) = of(result.events, "sabotage-applied", BRYTHON)
    assert "187 points" in ours.text and "Caer Lud" in ours.text
    assert theirs.text == (
        "A poisoned well: your garrison force loses 187 of its 750 points before its battle in 3 Caer Lud "
        "(Sabotage: Poison Well)."
    )
    assert of(result.events, "sabotage-applied", AVALON) == []
    assert result.state.world.mission_effects[7].status is EffectStatus.USED


def test_poison_well_waits_for_a_battle_with_a_garrison():
    """Avalon's army 11 and Brython's army 22 both move into 3, open country: no garrison force of
    Brython's fights, and the effect waits for the next battle that has one."""
    result = resolve(
        state(
            ArmyOrder(22, OrderKind.MOVE, target=TOWN),
            ArmyOrder(11, OrderKind.MOVE, target=TOWN),
            effects=(effect(Sabotage.POISON_WELL),),
            settlement="none",
        )
    )

    (battle,) = result.battles
    assert not [n for n in battle.notes if "Poison Well" in n]
    assert result.state.world.mission_effects[7].status is EffectStatus.PENDING


def test_poison_well_finds_the_town_s_garrison_beside_its_ally_s_army_not_the_ally_s():
    """Decision 580: Cymru's army 33 stands alone in its ally Brython's town and Avalon's army 11
    attacks it; Brython's garrison fights beside it. Avalon's Poison Well against Brython strikes
    that garrison force; one against Cymru finds no garrison force of Cymru's and waits."""
    s = state(ATTACK_THE_TOWN)
    s.world.alliances[5] = AllianceState(id=5, first=BRYTHON, second=CYMRU, trust=TrustLevel.DISTRUSTED, formed_turn=1)
    s.world.armies[33] = wb.army(33, CYMRU, TOWN)
    for id, target in ((7, BRYTHON), (8, CYMRU)):
        well = MissionEffectState(
            id=id, kingdom=AVALON, target=target, mission=Sabotage.POISON_WELL, earned_turn=EARNED
        )
        s.world.mission_effects[id] = well

    result = resolve(s)

    (battle,) = result.battles
    assert (battle.defender_army, battle.garrison_kingdom, battle.garrison_points) == (33, BRYTHON, 500 - 125)
    (theirs,) = of(result.events, "sabotage-applied", BRYTHON)
    assert "your garrison force loses 125 of its 500 points" in theirs.text
    assert of(result.events, "sabotage-applied", CYMRU) == []
    effects = result.state.world.mission_effects
    assert (effects[7].status, effects[8].status) == (EffectStatus.USED, EffectStatus.PENDING)


def test_sappers_find_the_town_s_garrison_beside_its_ally_s_army_and_never_the_ally_s_barricades():
    """Decision 580, Sappers ("Next battle using barricades, d3 of these barricades ... are destroyed"):
    Cymru's army 33 stands alone in its ally Brython's city and Avalon's army 11 attacks it; Brython's
    garrison fights beside it with the city's 2 pieces of defenses. Avalon's Sappers against Brython
    destroy them (D3 = 3: both) and Brython is told; one against Cymru, whose army has no barricades of
    its own there, waits."""
    s = state(ATTACK_THE_TOWN, settlement="city")
    s.world.alliances[5] = AllianceState(id=5, first=BRYTHON, second=CYMRU, trust=TrustLevel.DISTRUSTED, formed_turn=1)
    s.world.armies[33] = wb.army(33, CYMRU, TOWN)
    for id, target in ((7, BRYTHON), (8, CYMRU)):
        sappers = MissionEffectState(id=id, kingdom=AVALON, target=target, mission=Sabotage.SAPPERS, earned_turn=EARNED)
        s.world.mission_effects[id] = sappers

    result = resolve(s, [3])

    (battle,) = result.battles
    assert (battle.defender_army, battle.garrison_kingdom, battle.garrison_defenses) == (33, BRYTHON, 0)
    (theirs,) = of(result.events, "sabotage-applied", BRYTHON)
    assert "Sappers destroy 2 of your 2 barricade piece(s)" in theirs.text
    assert of(result.events, "sabotage-applied", CYMRU) == []
    effects = result.state.world.mission_effects
    assert (effects[7].status, effects[8].status) == (EffectStatus.USED, EffectStatus.PENDING)


def test_assassinate_spiritual_leader_minus_one_leadership_in_the_next_battle_fought():
    """Assassinate Spiritual Leader: "The next battle fought, this Kingdom has -1 to all leadership"."""
    result = resolve(state(ATTACK_THE_TOWN, effects=(effect(Sabotage.ASSASSINATE_SPIRITUAL_LEADER),)))

    (battle,) = result.battles
    assert "Assassinate Spiritual Leader (Sabotage): Brython has -1 to all leadership in this battle." in battle.notes
    assert [e.kingdom for e in of(result.events, "sabotage-applied")] == [CYMRU, BRYTHON]
    assert result.state.world.mission_effects[7].status is EffectStatus.USED


def test_an_effect_earned_this_turn_waits_for_a_later_battle():
    result = resolve(state(ATTACK_THE_TOWN, effects=(effect(Sabotage.ASSASSINATE_SPIRITUAL_LEADER, earned=TURN),)))

    assert of(result.events, "sabotage-applied") == []
    assert result.state.world.mission_effects[7].status is EffectStatus.PENDING


def test_sappers_destroy_d3_barricades_never_more_than_there_are():
    """Sappers: "Next battle using barricades, d3 of these barricades (chosen by the saboteur) are
    destroyed". A city's garrison has 2 pieces of defenses; the D3 rolls 3: both are destroyed. Cymru
    does not fight: Avalon, the attacker, chooses for it (decision 486)."""
    result = resolve(state(ATTACK_THE_TOWN, effects=(effect(Sabotage.SAPPERS),), settlement="city"), [3])

    (battle,) = result.battles
    assert battle.garrison_defenses == 0
    assert (
        "Sappers (Sabotage): D3 = 3: 2 of Brython's 2 barricade piece(s) are destroyed before the battle; the "
        "attacker chooses which, for the saboteur." in battle.notes
    )
    assert result.state.world.mission_effects[7].status is EffectStatus.USED


def test_destroy_communication_cancels_the_named_army_s_support_from_the_target():
    """Destroy Communication: "Cancel one support that is from this kingdom or to this kingdom when you
    wish": Cymru's sheet names Brython's army 22, supporting its town from 4: it sends nothing (no
    Support Arrival rolled), and Cymru and Brython are told."""
    result = resolve(
        state(
            ATTACK_THE_TOWN,
            ArmyOrder(22, OrderKind.SUPPORT, support=TOWN),
            effects=(effect(Sabotage.DESTROY_COMMUNICATION, expires_turn=EARNED + 2),),
            uses=(MissionUse(7, 22),),
        )
    )

    (battle,) = result.battles
    assert battle.supports == []
    (ours,) = of(result.events, "support-cancelled", CYMRU)
    (theirs,) = of(result.events, "support-cancelled", BRYTHON)
    assert theirs.text == (
        "Army 22's orders never arrive: its support of the battle in 3 Caer Lud is cancelled "
        "(Sabotage: Destroy Communication)."
    )
    assert ours.data["target_army"] == 22
    assert of(result.events, "support", BRYTHON) == []
    assert result.state.world.mission_effects[7].status is EffectStatus.USED


def test_destroy_communication_without_a_use_is_kept_then_expires_after_its_second_turn():
    """ "must be used within 2 turns after success": earned on turn 2, unused on turn 4, it expires."""
    kept = resolve(state(ATTACK_THE_TOWN, effects=(effect(Sabotage.DESTROY_COMMUNICATION, earned=TURN - 1),)))
    assert kept.state.world.mission_effects[7].status is EffectStatus.PENDING

    result = resolve(state(ATTACK_THE_TOWN, effects=(effect(Sabotage.DESTROY_COMMUNICATION, earned=TURN - 2),)))

    (lost,) = of(result.events, "sabotage-expired")
    assert lost.kingdom == CYMRU and "not used within 2 turns" in lost.text
    assert result.state.world.mission_effects[7].status is EffectStatus.EXPIRED


def test_destroy_communication_without_an_army_cancels_the_first_support_from_or_to_the_target():
    """Decision 487: the target's armies are its secret; named with no army, the use cancels the first
    support from or to Brython at this turn's scheduling."""
    result = resolve(
        state(
            ATTACK_THE_TOWN,
            ArmyOrder(22, OrderKind.SUPPORT, support=TOWN),
            effects=(effect(Sabotage.DESTROY_COMMUNICATION),),
            uses=(MissionUse(7, None),),
        )
    )

    assert result.battles[0].supports == []
    assert [e.kingdom for e in of(result.events, "support-cancelled")] == [CYMRU, BRYTHON]


def test_destroy_communication_naming_another_army_leaves_the_support_and_keeps_the_effect():
    result = resolve(
        state(
            ATTACK_THE_TOWN,
            ArmyOrder(22, OrderKind.SUPPORT, support=TOWN),
            effects=(effect(Sabotage.DESTROY_COMMUNICATION),),
            uses=(MissionUse(7, 99),),
        ),
        [4],  # army 22's Support Arrival
    )

    assert [s.army for s in result.battles[0].supports] == [22]
    assert result.state.world.mission_effects[7].status is EffectStatus.PENDING


def test_destroy_communication_the_saboteur_learns_the_army_only_when_it_named_it():
    named = resolve(
        state(
            ATTACK_THE_TOWN,
            ArmyOrder(22, OrderKind.SUPPORT, support=TOWN),
            effects=(effect(Sabotage.DESTROY_COMMUNICATION),),
            uses=(MissionUse(7, 22),),
        )
    )
    unnamed = resolve(
        state(
            ATTACK_THE_TOWN,
            ArmyOrder(22, OrderKind.SUPPORT, support=TOWN),
            effects=(effect(Sabotage.DESTROY_COMMUNICATION),),
            uses=(MissionUse(7, None),),
        )
    )

    (ours,) = of(named.events, "support-cancelled", CYMRU)
    assert ours.text == (
        "Your saboteurs cut Army 22's communication: its support of the battle in 3 Caer Lud is cancelled "
        "(Sabotage: Destroy Communication)."
    )
    (ours,) = of(unnamed.events, "support-cancelled", CYMRU)
    assert ours.text == (
        "Your saboteurs cut the communication of a support from or to Brython: the battle in 3 Caer Lud does not "
        "get it (Sabotage: Destroy Communication)."
    )
    assert ours.data["target_army"] is None


def test_sappers_take_the_defended_obstacles_pieces_first():
    """Decision 486: Brython's army 22 defends its fortified town: Defended Obstacles rolls a 5 (3 pieces),
    with the town garrison's piece of defenses 4 in all; the D3 rolls 2: two of the Defended Obstacles'
    pieces are destroyed."""
    world_state = state(ATTACK_THE_TOWN, effects=(effect(Sabotage.SAPPERS),))
    world_state.world.armies[22] = wb.army(22, BRYTHON, TOWN, fortified_in=TOWN)
    world_state.world.provinces[TOWN] = wb.province_with(world_state.world.provinces[TOWN], fortified=True)
    world_state.orders[22] = ArmyOrder(22)

    result = resolve(world_state, [5, 2])

    (battle,) = result.battles
    assert (battle.defended_obstacles, battle.garrison_defenses) == (1, 1)
    assert any(n.startswith("Sappers (Sabotage): D3 = 2: 2 of Brython's 4 barricade piece(s)") for n in battle.notes)
