"""The aftermath (battles/rules/aftermath.py) with scripted dice: rule cases A3-A6 and the rest of
7. Aftermath: retreats, looting and sacking (with the Orcs & Goblins "Savages"), casualty recovery
applied to units, veteran status, injuries and the Warlord's succession, disbanding, stories and
negotiations. No database."""

from __future__ import annotations

from battles.rules.aftermath import (
    AftermathState,
    ArmyA,
    BattleA,
    Casualty,
    CharacterA,
    ItemA,
    KingdomA,
    ProvinceA,
    SideA,
    UnitA,
    aftermath_resolve,
)
from battles.rules.results import BattleResult as R
from battles.rules.results import Outcome, SideOutcome
from briternia.dice import ScriptedDice

AVALON, BRYTHON, CARNWYL = 1, 2, 3
HOST, GUARD = 10, 20

# 1 2 3
# 4 5 6     every province touches its neighbours, corners included; battles are fought in 5.
# 7 8 9
POSITIONS = {n: ((n - 1) % 3, (n - 1) // 3) for n in range(1, 10)}
ADJACENCY = {
    a: frozenset(
        b
        for b in POSITIONS
        if b != a and max(abs(POSITIONS[a][0] - POSITIONS[b][0]), abs(POSITIONS[a][1] - POSITIONS[b][1])) == 1
    )
    for a in POSITIONS
}


def outcome(attacker: R, *, experience: bool = True) -> Outcome:
    from battles.rules.results import mirror

    return Outcome(
        attacker=SideOutcome(attacker, experience_allowed=experience), defender=SideOutcome(mirror(attacker))
    )


class World:
    def __init__(self) -> None:
        self.provinces = {n: ProvinceA(n, f"P{n}") for n in range(1, 10)}
        self.kingdoms = {
            AVALON: KingdomA(AVALON, "Avalon", "empire", treasury=1000),
            BRYTHON: KingdomA(BRYTHON, "Brython", "dwarfs", treasury=1000),
            CARNWYL: KingdomA(CARNWYL, "Carnwyl", "orcs-and-goblins", treasury=0),
        }
        self.armies: dict[int, ArmyA] = {}
        self.units: dict[int, UnitA] = {}
        self.characters: dict[int, CharacterA] = {}
        self.items: dict[int, ItemA] = {}
        self.battles: list[BattleA] = []

    def army(self, id: int, kingdom: int, province: int, units: list[tuple[int, str, int, int]], **kw) -> ArmyA:
        """units: (id, name, models, points per model)."""
        self.armies[id] = ArmyA(id, kingdom, f"Army {id}", province, **kw)
        for unit_id, name, models, ppm in units:
            self.units[unit_id] = UnitA(unit_id, id, name, models, ppm)
        return self.armies[id]

    def battle(self, result: R, attacker: SideA, defender: SideA, **kw) -> None:
        self.battles.append(
            BattleA(
                id=len(self.battles) + 1,
                province=5,
                attacker=attacker,
                defender=defender,
                outcome=kw.pop("outcome", None) or outcome(result),
                **kw,
            )
        )

    def run(self, faces: list[int], turn: int = 4):
        state = AftermathState(
            turn,
            self.provinces,
            ADJACENCY,
            self.kingdoms,
            self.armies,
            self.units,
            self.characters,
            self.items,
            self.battles,
        )
        dice = ScriptedDice(faces=faces)
        result = aftermath_resolve(state, dice)
        assert dice.unused == []
        return result


def field_battle(world: World, result: R, *, host_from: int | None = 2, **sides) -> None:
    """Avalon's Host (1,200 points) moved from `host_from` into 5, held by Brython's Guard (1,200)."""
    world.army(HOST, AVALON, 5, [(101, "Knights", 20, 30), (102, "Archers", 20, 30)], came_from=host_from)
    world.army(GUARD, BRYTHON, 5, [(201, "Warriors", 40, 15), (202, "Thunderers", 20, 30)])
    world.battle(
        result, SideA(AVALON, HOST, **sides.get("attacker", {})), SideA(BRYTHON, GUARD, **sides.get("defender", {}))
    )


def test_a5_the_loser_retreats_where_it_came_from():
    """A5: the Host lost; it came from 2, which is free: it goes back there. The winner stays."""
    world = World()
    field_battle(world, R.MINOR_LOSS)
    result = world.run([])
    assert result.state.armies[HOST].province == 2 and result.state.armies[GUARD].province == 5
    assert any(e.code == "retreated" and "back where it came from" in e.text for e in result.events)


def test_a5_a_defender_that_did_not_move_goes_home_first_then_neutral_then_foreign():
    """A5: the Guard did not move: first a home province (8 is Brython's), then neutral (lowest
    number), then another kingdom's; never into a province with an army in it."""
    world = World()
    field_battle(world, R.MINOR_VICTORY)
    world.provinces[8].controller = BRYTHON
    world.provinces[9].controller = BRYTHON
    world.army(30, BRYTHON, 8, [])  # an army in 8: the Guard goes to 9, its other home province
    result = world.run([])
    assert result.state.armies[GUARD].province == 9

    world = World()
    field_battle(world, R.MINOR_VICTORY)
    for n in (1, 3, 4):
        world.provinces[n].controller = AVALON
    result = world.run([])
    assert result.state.armies[GUARD].province == 2  # 2 is neutral and free: neutral before foreign


def test_a5_with_nowhere_to_go_the_army_is_wiped_out():
    world = World()
    field_battle(world, R.MINOR_VICTORY)
    world.items[1] = ItemA(1, "Rune Axe", 40, bearer=201)
    for n, army in zip([1, 2, 3, 4, 6, 7, 8, 9], range(40, 48), strict=True):
        world.army(army, CARNWYL, n, [])
    result = world.run([])
    assert result.state.armies[GUARD].disbanded
    assert result.state.items[1].destroyed
    assert any(e.code == "wiped-out" for e in result.events)


def test_a3_sack_or_loot_a_town():
    """A3: the victor in a town chooses: sack (destroyed, +1,000) or loot (+500, changes hands,
    no armies raised there until the start of the turn after next)."""
    for choice, gold, settlement, looted in [
        ("sack", 1000, "none", None),
        ("loot", 500, "town", 4),
        ("", 500, "town", 4),
    ]:
        world = World()
        world.provinces[5] = ProvinceA(5, "P5", settlement="town", controller=BRYTHON)
        world.army(HOST, AVALON, 5, [], came_from=2)
        world.battle(R.MINOR_VICTORY, SideA(AVALON, HOST, loot_choice=choice), SideA(BRYTHON, None))
        result = world.run([], turn=4)
        province = result.state.provinces[5]
        assert (province.controller, province.settlement, province.looted_turn) == (AVALON, settlement, looted)
        loot = [e.gold for e in result.events if e.ledger_reason == "loot"]
        assert loot == [gold], choice


def test_sacking_a_city_gives_2000_and_looting_1000():
    for choice, gold in [("sack", 2000), ("loot", 1000)]:
        world = World()
        world.provinces[5] = ProvinceA(5, "P5", settlement="city", controller=BRYTHON)
        world.army(HOST, AVALON, 5, [], came_from=2)
        world.battle(R.MAJOR_VICTORY, SideA(AVALON, HOST, loot_choice=choice, points_faced=1000), SideA(BRYTHON, None))
        result = world.run([])
        assert [e.gold for e in result.events if e.ledger_reason == "loot"] == [gold]
        assert [e.gold for e in result.events if e.ledger_reason == "victory"] == [300]  # A2: 2 x 150


def test_orcs_and_goblins_savages_must_sack_on_1_or_2():
    for roll, settlement in [(2, "none"), (3, "town")]:
        world = World()
        world.provinces[5] = ProvinceA(5, "P5", settlement="town", controller=BRYTHON)
        world.army(HOST, CARNWYL, 5, [], came_from=2)
        world.battle(R.MINOR_VICTORY, SideA(CARNWYL, HOST, loot_choice="loot"), SideA(BRYTHON, None))
        result = world.run([roll])
        assert result.state.provinces[5].settlement == settlement, roll


def test_the_elite_defense_force_perishes_with_its_town():
    world = World()
    world.provinces[5] = ProvinceA(5, "P5", settlement="town", controller=BRYTHON)
    world.army(HOST, AVALON, 5, [], came_from=2)
    world.army(50, BRYTHON, 5, [(501, "Guards", 20, 25)], garrison=True)
    world.battle(R.MINOR_VICTORY, SideA(AVALON, HOST), SideA(BRYTHON, None))
    result = world.run([])
    assert result.state.armies[50].disbanded


def test_a1_experience_and_the_story_bonus_once_per_turn():
    world = World()
    field_battle(world, R.MASSACRE, attacker={"story": True})
    result = world.run([])
    assert result.state.armies[HOST].experience == 100 + 3
    assert result.state.armies[GUARD].experience == 50


def test_a7_no_experience_without_a_sheet():
    world = World()
    field_battle(world, R.MAJOR_LOSS)
    world.battles[0] = BattleA(
        1, 5, world.battles[0].attacker, world.battles[0].defender, outcome=outcome(R.MAJOR_LOSS, experience=False)
    )
    result = world.run([])
    assert result.state.armies[HOST].experience == 0
    assert any(e.code == "no-experience" for e in result.events)


def test_a4_casualty_recovery_rounds_up_for_the_winner_and_down_for_the_loser():
    """A4 applied to units: both lose 8 Knights / 8 Warriors; each army rolls 6 (1 in 3)."""
    world = World()
    field_battle(
        world,
        R.MINOR_VICTORY,
        attacker={"casualties": (Casualty(101, models_lost=8),)},
        defender={"casualties": (Casualty(201, models_lost=8),)},
    )
    result = world.run([3, 3, 2, 4])  # the Host rolls 3+3, the Guard 2+4
    assert result.state.units[101].models_count == 20 - 8 + 3
    assert result.state.units[201].models_count == 40 - 8 + 2


def test_command_models_and_one_use_troops_recover_on_4_plus():
    world = World()
    field_battle(world, R.DRAW, attacker={"casualties": (Casualty(101, standard=True, musician=True),)})
    world.units[103] = UnitA(103, HOST, "Fanatics", 3, 25, one_use=True)
    world.battles[0] = BattleA(
        1,
        5,
        SideA(AVALON, HOST, casualties=(Casualty(101, standard=True, musician=True), Casualty(103, one_use_used=True))),
        world.battles[0].defender,
        outcome=outcome(R.DRAW),
    )
    result = world.run([4, 3, 3])  # standard back (4), musician lost (3), fanatics gone (3)
    recovered = {e.data["model"]: e.data["recovered"] for e in result.events if e.code == "command-recovery"}
    assert recovered == {"standard": True, "musician": False}
    assert result.state.units[103].models_count == 0


def test_veteran_eligibility_and_loss_are_judged_after_recovery():
    """Veteran Status: more than half kept after recovery: eligible; a veteran unit that lost
    half or more drops a level. 20 Knights lose 11, roll 8 (1 in 2), won: 6 back -> 15: eligible.
    40 veteran Warriors lose 30, roll 2: none back -> 10: drops from +2 to +1."""
    world = World()
    field_battle(
        world,
        R.MINOR_VICTORY,
        attacker={"casualties": (Casualty(101, models_lost=11),)},
        defender={"casualties": (Casualty(201, models_lost=30),)},
    )
    world.units[201].veteran_level = 2
    result = world.run([4, 4, 1, 1])
    assert result.state.units[101].models_count == 15 and result.state.units[101].veteran_eligible
    assert result.state.units[201].veteran_level == 1 and not result.state.units[201].veteran_eligible


def test_a6_an_army_at_500_points_or_less_is_disbanded_and_its_items_destroyed():
    """A6: the Guard (40 Warriors at 15 and 20 Thunderers at 30: 1,200) loses 40 + 10 models; no
    recovery (2): 10 Thunderers, 300 points, are disbanded with their Rune Axe."""
    world = World()
    field_battle(
        world, R.MAJOR_VICTORY, defender={"casualties": (Casualty(201, models_lost=40), Casualty(202, models_lost=10))}
    )
    world.items[1] = ItemA(1, "Rune Axe", 40, bearer=202)
    result = world.run([1, 1])
    assert result.state.armies[GUARD].disbanded and result.state.items[1].destroyed
    assert any(e.code == "disbanded" and "340 points" in e.text for e in result.events)


def _characters(world: World) -> None:
    world.units[109] = UnitA(109, HOST, "Lord Aurelian", 1, 150)
    world.units[119] = UnitA(119, 11, "Captain Brand", 1, 80)
    world.units[129] = UnitA(129, 12, "Captain Corwin", 1, 80)
    world.army(11, AVALON, 1, [], experience=40)
    world.army(12, AVALON, 3, [], experience=90)
    world.characters[1] = CharacterA(1, AVALON, 109, "Lord Aurelian", "warlord")
    world.characters[2] = CharacterA(2, AVALON, 119, "Captain Brand", "general")
    world.characters[3] = CharacterA(3, AVALON, 129, "Captain Corwin", "general")
    world.items[7] = ItemA(7, "Sword of Might", 20, bearer=109)


def test_a_dead_warlord_is_succeeded_by_the_most_experienced_general():
    """Warlord: the General of the army with the most experience (Corwin, 90) becomes Warlord;
    the dead Warlord's items stay with the army."""
    world = World()
    field_battle(world, R.MINOR_LOSS, attacker={"characters_lost": (1,)})
    _characters(world)
    result = world.run([1, 1])  # D66 11: dead
    assert not result.state.characters[1].alive
    assert result.state.characters[3].role == "warlord" and result.state.characters[2].role == "general"
    assert result.state.items[7].bearer is None and not result.state.items[7].destroyed
    assert any(e.code == "warlord-succession" and "Captain Corwin" in e.text for e in result.events)


def test_a_tie_for_the_succession_goes_to_the_oldest_army():
    world = World()
    field_battle(world, R.MINOR_LOSS, attacker={"characters_lost": (1,)})
    _characters(world)
    world.armies[12].experience = 40
    result = world.run([1, 5])
    assert result.state.characters[2].role == "warlord"


def test_robbed_and_survives_against_the_odds():
    world = World()
    field_battle(world, R.MINOR_LOSS, attacker={"characters_lost": (1,)})
    _characters(world)
    robbed = world.run([4, 6])  # 46: Robbed
    assert robbed.state.items[7].destroyed and robbed.state.characters[1].alive
    world = World()
    field_battle(world, R.MINOR_LOSS, attacker={"characters_lost": (1,)})
    _characters(world)
    lucky = world.run([6, 6])
    assert lucky.state.armies[HOST].experience == 50 + 15
    assert lucky.state.characters[1].injuries[0]["code"] == "survives-against-the-odds"


def test_negotiations_pay_only_what_the_treasury_holds():
    world = World()
    field_battle(world, R.DRAW, attacker={"negotiation_gold": 1500})
    result = world.run([])
    paid = [(e.kingdom, e.gold) for e in result.events if e.ledger_reason == "transfer"]
    assert paid == [(AVALON, -1000), (BRYTHON, 1000)]


def test_a_draw_sends_the_attacker_back_and_leaves_the_defender():
    world = World()
    world.provinces[5].controller = BRYTHON
    field_battle(world, R.DRAW)
    result = world.run([])
    assert result.state.armies[HOST].province == 2 and result.state.armies[GUARD].province == 5
    assert result.state.provinces[5].controller == BRYTHON
    assert result.battles[0].victor is None


def test_the_state_given_is_not_changed():
    world = World()
    field_battle(world, R.MINOR_VICTORY)
    world.run([])
    assert world.armies[GUARD].province == 5 and world.provinces[5].controller is None
