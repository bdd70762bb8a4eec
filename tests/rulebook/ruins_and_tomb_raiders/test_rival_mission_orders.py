"""Sending the Tomb Raiders on Reconnaissance or Sabotage: the sheet's check
(rulebook/ruins_and_tomb_raiders/rival_mission_orders.py, rulebook/turn/write_orders/missions.py) and the
mission paid at resolution (rulebook/ruins_and_tomb_raiders/missions_sent.py). Rulebook: Reconnaissance,
Sabotage, Using Tomb Raiders; rules decisions 454-456."""

from __future__ import annotations

from dataclasses import replace

from kernel.event_codes import EventCode
from kernel.events import Event
from kernel.ledger import LedgerReason
from rulebook.ruins_and_tomb_raiders.force import SAMPLE_HIGH_ELVES
from rulebook.ruins_and_tomb_raiders.missions_sent import send_tomb_raiders
from rulebook.tables import ArmyType
from rulebook.turn.state import TurnState
from rulebook.turn.write_orders.check import order_sheet_check
from rulebook.turn.write_orders.context import SheetContext, order_sheet_context
from rulebook.turn.write_orders.missions import rival_choices
from rulebook.turn.write_orders.problems import SheetProblem
from rulebook.turn.write_orders.records import ArmyOrder, BuySupplyDepot, OrderKind, SheetEntries, TombRaiderMission
from rulebook.world import CharacterState, UnitState, World
from tests import world_builders as wb

ME, NORSCA, DEAD, ROGUE = 1, 2, 3, 4
# Norsca's Raiders fought a battle on turn 2 (the bulletin named them); its Hidden Host never fought.
RAIDERS, HIDDEN, MINE = 21, 22, 11
WARLORD, GENERAL, HIDDEN_GENERAL = 31, 32, 33


def world(*, treasury: int = 500, turn: int = 3) -> World:
    w = wb.world(
        provinces=[
            wb.province(n, "plains", "town" if n in (1, 9) else "none", controller=ME if n == 1 else None)
            for n in range(1, 10)
        ],
        kingdoms=[
            wb.kingdom(ME, "Tor Anlec", ArmyType.HIGH_ELVES, treasury=treasury, capitol=1),
            wb.kingdom(NORSCA, "Norsca", ArmyType.DWARFS, capitol=9),
            wb.kingdom(DEAD, "The Ancient Dead", ArmyType.ANCIENT_DEAD),
            wb.kingdom(ROGUE, "Kislev", ArmyType.EMPIRE, rogue=True),
        ],
        armies=[
            wb.army(MINE, ME, 1, name="1st Army", supply_depot=False),
            wb.army(RAIDERS, NORSCA, 8, name="Raiders", last_battle_turn=2),
            wb.army(HIDDEN, NORSCA, 9, name="Hidden Host"),
        ],
        adjacency=wb.grid(3),
        turn=turn,
    )
    return replace(
        w,
        units={
            RAIDERS: (UnitState(101, RAIDERS, "Chieftain", "character", 1, 100),),
            HIDDEN: (
                UnitState(102, HIDDEN, "Sorcerer Lord", "character", 1, 100),
                UnitState(103, HIDDEN, "Lord", "character", 1, 100),
            ),
        },
        characters={
            WARLORD: CharacterState(WARLORD, NORSCA, 102, "Wulfrik", "warlord"),
            GENERAL: CharacterState(GENERAL, NORSCA, 101, "Sven", "general"),
            HIDDEN_GENERAL: CharacterState(HIDDEN_GENERAL, NORSCA, 103, "Olaf", "general"),
        },
    )


def context(*, treasury: int = 500, **kw: object) -> SheetContext:
    return order_sheet_context(world(treasury=treasury), ME, **{"raiders": SAMPLE_HIGH_ELVES, **kw})  # type: ignore[arg-type]


TREASURY_INFO = TombRaiderMission("reconnaissance", target_kingdom=NORSCA, desired="treasury-info")
MISDIRECT = TombRaiderMission("sabotage", target_kingdom=NORSCA, desired="misdirection", target_army=RAIDERS)
BIO = TombRaiderMission("reconnaissance", target_kingdom=NORSCA, desired="character-bio", target_character=GENERAL)


def errors(mission: TombRaiderMission, ctx: SheetContext | None = None, **entries: object) -> list[SheetProblem]:
    sheet = SheetEntries(missions=(mission,), **entries)  # type: ignore[arg-type]
    return order_sheet_check(sheet, ctx or context()).error_problems


def place(problem: SheetProblem) -> tuple[str, str, int | None, str]:
    return problem.code.value, problem.part, problem.entry, problem.entry_field


def test_a_reconnaissance_against_a_rival_goes_for_the_tomb_raiders_fee_of_100_gold() -> None:
    """Reconnaissance: "pay the Tomb Raider's fee of 100 gold from your treasury and select a desired mission
    from the list below"; the line says the mission and its target."""
    check = order_sheet_check(SheetEntries(missions=(TREASURY_INFO,)), context())
    assert check.ok, check.errors
    assert check.costs == [("Reconnaissance (Treasury Info) against Norsca (Tomb Raiders)", 100)]
    check = order_sheet_check(SheetEntries(missions=(MISDIRECT,)), context())
    assert check.ok and check.costs == [("Sabotage (Misdirection) against Norsca: Raiders (Tomb Raiders)", 100)]
    check = order_sheet_check(SheetEntries(missions=(BIO,)), context())
    assert check.ok and check.costs[0][0].startswith(
        "Reconnaissance (Character Bio) against Norsca: the General of Raiders"
    )


def test_the_rival_is_another_kingdom_still_in_the_game_and_never_the_ancient_dead() -> None:
    """Reconnaissance and Sabotage are against "a rival Kingdom" (decision 454): not the spy's own, not
    the Ancient Dead, not a Rogue Kingdom; one must be named."""
    for target, words in ((ME, "own kingdom"), (DEAD, "Ancient Dead"), (ROGUE, "Rogue Kingdom")):
        (problem,) = errors(replace(TREASURY_INFO, target_kingdom=target))
        assert place(problem) == ("mission-not-a-rival", "missions", 0, "target_kingdom")
        assert words in problem.text and "(Reconnaissance)" in problem.text
    for target in (None, 99):
        (problem,) = errors(replace(TREASURY_INFO, target_kingdom=target))
        assert place(problem) == ("mission-no-rival", "missions", 0, "target_kingdom")


def test_the_desired_mission_is_one_of_the_kind_s_list() -> None:
    """Sabotage: "select a desired mission from the list below": a Reconnaissance's mission is no Sabotage."""
    (problem,) = errors(TombRaiderMission("sabotage", target_kingdom=NORSCA, desired="treasury-info"))
    assert place(problem) == ("mission-unknown-desired", "missions", 0, "desired")
    assert problem.text == "Select the desired mission from the Sabotage list (Sabotage)."


def test_the_army_or_character_is_named_exactly_when_the_listed_mission_names_one() -> None:
    """Misdirection: "One army's orders"; Character Bio: "any 1 character"; Treasury Info names neither."""
    (problem,) = errors(replace(MISDIRECT, target_army=None))
    assert place(problem) == ("mission-target-missing", "missions", 0, "target_army")
    assert "Misdirection names any one army of the rival kingdom" in problem.text
    (problem,) = errors(replace(BIO, target_character=None))
    assert place(problem) == ("mission-target-missing", "missions", 0, "target_character")
    (problem,) = errors(replace(TREASURY_INFO, target_army=RAIDERS))
    assert place(problem) == ("mission-target-not-wanted", "missions", 0, "target_army")


def test_a_spy_names_only_an_army_the_bulletin_showed_and_the_warlord_or_such_an_army_s_general() -> None:
    """Decision 455: a player never sees another kingdom's armies unless the rules reveal them: an army of
    the rival that fought a battle of an earlier turn, the rival's Warlord, the General of such an army."""
    (problem,) = errors(replace(MISDIRECT, target_army=HIDDEN))
    assert place(problem) == ("mission-target-not-known", "missions", 0, "target_army")
    assert "fought a battle of an earlier turn" in problem.text
    (problem,) = errors(replace(MISDIRECT, target_army=MINE))  # an army, but not the rival's
    assert place(problem) == ("mission-target-not-known", "missions", 0, "target_army")
    (problem,) = errors(replace(BIO, target_character=HIDDEN_GENERAL))
    assert place(problem) == ("mission-target-not-known", "missions", 0, "target_character")
    assert errors(replace(BIO, target_character=WARLORD)) == []

    choices = rival_choices(world(), ME)
    assert choices.kingdoms == ((NORSCA, "Norsca"),)
    assert choices.armies == ((RAIDERS, "Norsca: Raiders"),)
    assert dict(choices.characters) == {WARLORD: "Norsca: the Warlord", GENERAL: "Norsca: the General of Raiders"}
    assert "Wulfrik" not in str(choices) and "Hidden Host" not in str(choices)  # no name the spy has not learned


def test_a_tomb_raid_and_a_reconnaissance_on_one_sheet_are_two_missions() -> None:
    """Using Tomb Raiders: "Tomb Raiders may do ONE of the following missions each turn"."""
    sheet = SheetEntries(missions=(TombRaiderMission(province=5), TREASURY_INFO))
    problems = order_sheet_check(sheet, context()).error_problems
    assert ("mission-one-a-turn", "missions", 1, "kind") in [place(p) for p in problems]


def test_the_force_must_be_ready_and_the_gold_left_by_the_rest_of_the_sheet_pay_it() -> None:
    """Creating Tomb Raiders, Maintaining / Changing Tomb Raiders, Recovery: the force ready to go; the fee
    from what the sheet's other spending leaves (decision 410)."""
    (problem,) = errors(TREASURY_INFO, context(raiders=None))
    assert place(problem) == ("mission-no-force", "missions", 0, "kind")
    (problem,) = errors(TREASURY_INFO, context(raiders_points_added=11))
    assert place(problem) == ("mission-changed-not-paid", "missions", 0, "pay_change_fee")
    check = order_sheet_check(
        SheetEntries(missions=(replace(TREASURY_INFO, pay_change_fee=True),)), context(raiders_points_added=11)
    )
    assert check.ok and check.gold == 155
    # 150 of taxes: 200 for the depot, 100 for the mission.
    depot = {"orders": (ArmyOrder(MINE, OrderKind.HOLD),), "depots": (BuySupplyDepot(MINE),)}
    assert errors(TREASURY_INFO, context(treasury=150), **depot) == []
    (problem,) = errors(TREASURY_INFO, context(treasury=149), **depot)
    assert place(problem) == ("mission-not-enough-gold", "missions", 0, "kind")
    assert "the Tomb Raider's fee of 100 gold; the treasury has 99 for it (Reconnaissance)" in problem.text


def state(mission: TombRaiderMission, *, treasury: int = 500, raiders: bool = True) -> TurnState:
    return TurnState(
        world=world(treasury=treasury),
        sheets={ME: SheetEntries(missions=(mission,))},
        raiders={ME: SAMPLE_HIGH_ELVES} if raiders else {},
    ).working_copy()


def test_the_mission_is_paid_at_resolution_and_kept_for_the_battles() -> None:
    """Reconnaissance: the 100 gold leave the treasury when the turn resolves (decision 415), a ledger row
    of the spy's; the mission is recorded for 6. Fight Battles (decision 450); the event is the spy's alone."""
    s = state(MISDIRECT)
    events: list[Event] = []
    send_tomb_raiders(s, events)
    assert s.kingdoms[ME].treasury == 400
    assert s.rival_missions == {ME: MISDIRECT}
    (sent,) = events
    assert sent.code is EventCode.RIVAL_MISSION_SENT and sent.kingdom == ME
    assert sent.gold == -100 and sent.ledger_reason is LedgerReason.TOMB_RAIDERS
    assert sent.data == {
        "mission": "sabotage",
        "desired": "misdirection",
        "target_kingdom": NORSCA,
        "target_army": RAIDERS,
        "target_character": None,
        "gold": 100,
        "fee": 0,
    }
    assert "Sabotage (Misdirection) against Norsca: Raiders" in sent.text


def test_a_mission_the_state_no_longer_allows_is_not_sent_and_costs_nothing() -> None:
    """Checked again against the state as the orders find it: the treasury spent by the turn's first
    phases, the force gone; nothing paid, the spy's report says why."""
    for s in (state(TREASURY_INFO, treasury=99), state(TREASURY_INFO, raiders=False)):
        events: list[Event] = []
        send_tomb_raiders(s, events)
        assert s.rival_missions == {} and s.kingdoms[ME].treasury in (99, 500)
        (not_sent,) = events
        assert not_sent.code is EventCode.RIVAL_MISSION_NOT_SENT and not_sent.kingdom == ME and not not_sent.gold
        assert "nothing is paid" in not_sent.text and not_sent.data["problems"]
