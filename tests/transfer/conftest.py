"""Campaigns the transfer tests export: one with the state setup never produces and orders filed,
one with a resolved turn, one played through a whole turn with its reports."""

from collections.abc import Iterator
from datetime import time, timedelta

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone

from battles.models import AllianceEndAnnouncement, Battle, ResultsReminder
from battles.services.opponents import battle_message_send
from battles.services.rulings import disagreement_queue, ruling_queue
from demo.campaign import demo_campaign_create
from demo.turn import demo_turn_play
from diplomacy.services.digests import message_digests_send
from diplomacy.services.messages import message_send
from kingdoms.models import (
    Alliance,
    ArmoryItem,
    Army,
    ArmyMovement,
    Campaign,
    CapturedRaider,
    Character,
    Delivery,
    ExperienceEntry,
    MissionEffect,
    Province,
    ReportPreferences,
    RosterAdjustment,
    TombRaiderEntry,
    TombRaiderForce,
    TreasuryEntry,
    Unit,
)
from kingdoms.services.co_players import co_player_add, co_player_remove
from kingdoms.services.tomb_raiders import tomb_raider_force_save
from orders.models import OrdersReminder
from orders.services.emails import orders_held_announce, sheet_answer_queue
from orders.services.reminders import orders_reminders_queue
from orders.services.sheets import order_sheet_save
from orders.services.turns import deadline_change, schedule_set
from outbox.models import Email
from outbox.services import email_queue
from reports.services.deliveries import report_emails_queue
from reports.services.reports import turn_reports_create
from rulebook.campaign_schedule import deadline_text
from rulebook.ruins_and_tomb_raiders.force import Base, Command, RaiderEntry, Role
from rulebook.turn.write_orders.records import (
    ArmyOrder,
    BuySupplyDepot,
    CreateArmy,
    DeclareAlliance,
    EndAlliance,
    OrderKind,
    ReinforceGarrison,
    SheetEntries,
    UpgradeArmy,
)
from tests.conftest import DEMO
from tests.shared_rows import Layer
from tests.transfer.documents import LONG_AGO, PDF, PICTURE
from tests.transfer.rows import ids_set_apart
from transfer.campaign_models import ReportEmail, TurnMap, TurnReport
from turns.models import DiceRoll, Turn
from turns.services.cycle import orders_phase_run

User = get_user_model()


def _eventful_build(demo_campaign: Campaign, capture) -> Campaign:
    """The demo campaign with the state setup never produces: razed and fortified provinces,
    a disbanded army, casualties, a dead hero with injuries, a destroyed item, moves over
    several steps, a roll naming armies, and times long past; and orders for turn 1 (see
    add_orders)."""
    campaign = demo_campaign
    ostland = campaign.kingdoms.get(name="Ostland")
    red_fang = campaign.kingdoms.get(name="Da Red Fang")
    first_army = ostland.armies.get(name="1st Army")
    home = first_army.province
    neighbours = list(home.neighbours.order_by("number")[:2])
    Province.objects.filter(pk=neighbours[0].pk).update(razed=True, controller=red_fang)
    Province.objects.filter(pk=neighbours[1].pk).update(fortified=True)
    # Fortify: the 1st Army fortified its home province (the bonuses are its own).
    Province.objects.filter(pk=home.pk).update(fortified=True)
    Army.objects.filter(pk=first_army.pk).update(fortified_in=home)
    ArmyMovement.objects.bulk_create(
        ArmyMovement(army=first_army, turn=1, step=step, province=province)
        for step, province in enumerate([home, neighbours[1], home])
    )
    second = Army.objects.create(
        kingdom=ostland,
        name="2nd Army",
        province=None,
        size=1500,
        supply_depot=False,
        experience=2,
        status=Army.Status.DISBANDED,
        created_turn=1,
        upgraded_turn=1,
    )
    # Its experience is its ledger's (Experience Points).
    ExperienceEntry.objects.create(army=second, turn=1, amount=2, reason="experience", note="A draw's worth, halved")
    flagellants = Unit.objects.create(
        army=second,
        position=3,
        name="Flagellants",
        category="core",
        models_count=10,
        points_per_model=10,
        veteran_level=2,
        models_lost=4,
    )
    ArmoryItem.objects.create(kingdom=ostland, name="Wizarding Hat", points=40, bearer=flagellants, destroyed=True)
    ArmoryItem.objects.create(kingdom=ostland, name="Dragon Bow", points=50)
    Character.objects.filter(unit__name="Captain Reiner").update(
        alive=False, battles_survived=2, injuries=[{"roll": 36, "injury": "Old war wound"}]
    )
    entry = TreasuryEntry.objects.create(
        kingdom=ostland, turn=1, amount=-150, reason=TreasuryEntry.Reason.ARMY_CREATED, note="2nd Army"
    )
    TreasuryEntry.objects.filter(pk=entry.pk).update(created_at=LONG_AGO)
    red_fang_army = red_fang.armies.get()
    DiceRoll.objects.create(
        campaign=campaign,
        turn=1,
        stream="battle:1",
        sequence=0,
        expression="2D6",
        faces=[3, 4],
        total=7,
        purpose="Who attacks first",
        kingdoms=[ostland.id, red_fang.id],
        armies=[first_army.id, red_fang_army.id],
    )
    # Allies: one alliance broken by invasion, one in force.
    karak, tor = campaign.kingdoms.get(name="Karak Dumn"), campaign.kingdoms.get(name="Tor Anlec")
    Alliance.objects.create(
        campaign=campaign,
        first=ostland,
        second=karak,
        trust="T",
        formed_turn=1,
        ended_turn=1,
        ended_how="invasion",
        broken_by=ostland,
    )
    Alliance.objects.create(campaign=campaign, first=karak, second=tor, trust="D", formed_turn=1)
    # Tomb Raiders (issue 31): Ostland's force, changed this turn, a swordsman out of action.
    force = TombRaiderForce.objects.create(
        kingdom=ostland, changed_turn=1, points_added=14, opening_points={"captain": 20, "swordsmen": 50}
    )
    TombRaiderForce.objects.filter(pk=force.pk).update(updated_at=LONG_AGO)
    TombRaiderEntry.objects.bulk_create(
        [
            TombRaiderEntry(
                force=force,
                position=0,
                name="Captain",
                unit_type="Swordsmen",
                models_count=1,
                points_per_model=20,
                role="captain",
                command="champion",
                leadership=7,
            ),
            TombRaiderEntry(
                force=force, position=1, name="Swordsmen", models_count=5, points_per_model=10, out_of_action=1
            ),
            TombRaiderEntry(
                force=force,
                position=2,
                name="Greatsword",
                models_count=1,
                points_per_model=14,
                category="special",
                role="lieutenant",
                base="20mm",
                missile_weapon=True,
            ),
        ]
    )
    Campaign.objects.filter(pk=campaign.pk).update(created_at=LONG_AGO)
    campaign.refresh_from_db()
    add_orders(campaign)
    return campaign


EVENTFUL = Layer("demo campaign, eventful (transfer)", _eventful_build, parent=DEMO)


@pytest.fixture
def eventful_campaign(demo_campaign: Campaign, shared_layers) -> Campaign:
    """_eventful_build's campaign, built once per run (tests/shared_rows.py)."""
    return shared_layers.take(EVENTFUL)


def add_orders(campaign: Campaign) -> None:
    """Turn 1's orders through the services: Ostland's sheet submitted twice, Da Red Fang's
    draft naming armies in every section (one of another kingdom), a new weekly schedule, the
    orders deadline extended by the organizer and the results deadline by a staff member who
    plays no kingdom, and a reminder."""
    turn = campaign.turns.get(number=1)
    ostland = campaign.kingdoms.get(name="Ostland")
    red_fang = campaign.kingdoms.get(name="Da Red Fang")
    alice, bob = User.objects.get(username="alice"), User.objects.get(username="bob")
    marshal = User.objects.create_user(username="marshal", email="marshal@example.org", is_staff=True)
    first_army = ostland.armies.get(name="1st Army")
    target = first_army.province.neighbours.exclude(terrain="desert").order_by("number").first()
    now = turn.orders_deadline - timedelta(days=1)
    order_sheet_save(
        kingdom=ostland,
        turn=turn,
        entries=SheetEntries(orders=(ArmyOrder(first_army.id, OrderKind.MOVE, target=target.number),)),
        submitted_by=alice,
        submit=True,
        arrived_at=now,
    )
    order_sheet_save(
        kingdom=ostland,
        turn=turn,
        entries=SheetEntries(orders=(ArmyOrder(first_army.id, disaster_choice="disband", pay_for_depot=False),)),
        submitted_by=alice,
        submit=True,
        arrived_at=now,
    )
    red_army = red_fang.armies.get()
    order_sheet_save(
        kingdom=red_fang,
        turn=turn,
        entries=SheetEntries(
            orders=(ArmyOrder(red_army.id, OrderKind.FORCED_MARCH, path=(1, 2), take_control=True),),
            creations=(CreateArmy("Waaagh", 1000, 5),),
            upgrades=(UpgradeArmy(red_army.id, 2500),),
            depots=(BuySupplyDepot(ostland.armies.get(name="2nd Army").id),),
            garrisons=(ReinforceGarrison(3),),
            alliances=(DeclareAlliance(campaign.kingdoms.get(name="Karak Dumn").id),),
            alliance_ends=(EndAlliance(ostland.id),),
        ),
        submitted_by=bob,
        submit=False,  # a draft is kept with its errors
        arrived_at=now,
    )
    schedule_set(
        campaign=campaign,
        changed_by=campaign.organizer,
        orders_weekday=5,
        orders_time=time(18, 30),
        results_weekday=1,
        results_time=time(21, 15, 30),
    )
    deadline_change(
        turn=turn,
        changed_by=campaign.organizer,
        orders_deadline=turn.orders_deadline + timedelta(days=1),
        reason="Holiday",
        now=now,
    )
    deadline_change(turn=turn, changed_by=marshal, results_deadline=turn.results_deadline + timedelta(days=2), now=now)
    reminder = OrdersReminder.objects.create(turn=turn, kingdom=campaign.kingdoms.get(name="Karak Dumn"))
    OrdersReminder.objects.filter(pk=reminder.pk).update(sent_at=LONG_AGO)


def _resolved_build(demo_campaign: Campaign, capture) -> Campaign:
    """The demo campaign with turn 1 resolved by the real service. Tor Anlec's Raiders, placed
    next to Ostland's capitol, march in and fight Ostland's 1st Army there (1,000 points against
    about 1,800: guerrilla tactics), supported by Tor Anlec's Outriders from another neighbour;
    Tor Anlec's Scouts claim a province from Ostland.

    No army is raised: the resolution records the phase "create-upgrade-armies" (21 characters)
    in TurnEvent.phase (at most 16), which the import's model validation refuses."""
    campaign = demo_campaign
    turn = campaign.turns.get(number=1)
    Turn.objects.filter(pk=turn.pk).update(seed="transfer-test")  # the same dice every run
    turn.refresh_from_db()
    ostland, tor = campaign.kingdoms.get(name="Ostland"), campaign.kingdoms.get(name="Tor Anlec")
    capitol = ostland.capitol
    first = ostland.armies.get(kind=Army.Kind.FIELD)
    assert first.province == capitol
    neutral = capitol.neighbours.filter(controller=None).exclude(terrain="desert").order_by("number")
    raid_from, support_from = neutral[0], neutral[1]
    claimed = ostland.provinces.filter(settlement="none").exclude(terrain="desert").order_by("number").first()
    scout_from = (
        claimed.neighbours.filter(controller=None)
        .exclude(terrain="desert")
        .exclude(pk__in=[raid_from.pk, support_from.pk])
        .order_by("number")
        .first()
    )

    def army(name: str, province: Province, points: int) -> Army:
        # Its list's points, not its size, drive guerrilla tactics, supports and claims.
        raised = Army.objects.create(kingdom=tor, name=name, province=province, size=points)
        raised.units.create(name="Spearmen", category="core", models_count=points // 10, points_per_model=10)
        return raised

    raiders, outriders, scouts = (
        army("Raiders", raid_from, 1000),
        army("Outriders", support_from, 600),
        army("Scouts", scout_from, 1000),
    )
    now = turn.orders_deadline - timedelta(days=1)
    order_sheet_save(
        kingdom=ostland,
        turn=turn,
        entries=SheetEntries(orders=(ArmyOrder(first.id),)),
        submitted_by=User.objects.get(username="alice"),
        submit=True,
        arrived_at=now,
    )
    order_sheet_save(
        kingdom=tor,
        turn=turn,
        entries=SheetEntries(
            orders=(
                ArmyOrder(raiders.id, OrderKind.MOVE, target=capitol.number),
                ArmyOrder(outriders.id, OrderKind.SUPPORT, support=capitol.number),
                ArmyOrder(scouts.id, OrderKind.MOVE, target=claimed.number),
            )
        ),
        submitted_by=tor.players.get(),
        submit=True,
        arrived_at=now,
    )
    assert orders_phase_run(turn_id=turn.pk).resolved
    return campaign


RESOLVED = Layer("demo campaign, turn 1 resolved (transfer)", _resolved_build, parent=DEMO)


@pytest.fixture
def resolved_campaign(demo_campaign: Campaign, shared_layers) -> Campaign:
    """_resolved_build's campaign, built once per run (tests/shared_rows.py)."""
    return shared_layers.take(RESOLVED)


def _played_build(below: None, capture) -> Campaign:
    """The demo campaign with turn 1 played through as `make demo` plays it (demo/turn.py: the
    invitations, orders and their receipts, battles and their scenario sheets, turn summary sheets,
    the aftermath, every report rendered and emailed, turn 2 opened), and the rows that turn does
    not make: a deadline moved (and announced), orders reminders, a results reminder queued and not
    sent, emails that failed (reports' keeping their PDFs, a receipt), a player's report
    preferences, a message between a battle's players, a co-player added and removed. Every kind of
    email, each keyed by the row it was queued for but the invitations, the setup's, the messages,
    the co-player's removal and the turn summary sheets' receipts (no row names them).
    Each table's ids in a range of its own (tests/transfer/rows.py), the copy's too."""
    campaign = demo_campaign_create()
    demo_turn_play(campaign)
    turn_2 = campaign.turns.get(number=2)
    deadline_change(
        turn=turn_2,
        changed_by=campaign.organizer,
        orders_deadline=turn_2.orders_deadline + timedelta(days=1),
        reason="Holiday",
    )
    turn_2.refresh_from_db()
    assert orders_reminders_queue(now=turn_2.orders_deadline - timedelta(hours=1))
    # The results reminder of a turn that waited for its battles' sheets (demo_turn_play files
    # them at once), its email queued as battles/services/reminders.py queues it, and not sent yet.
    turn_1, ostland = campaign.turns.get(number=1), campaign.kingdoms.get(name="Ostland")
    # An alliance (Allies) the demo's turn does not make: Ostland and Karak Dumn, broken by invasion.
    broken = Alliance.objects.create(
        campaign=campaign,
        first=ostland,
        second=campaign.kingdoms.get(name="Karak Dumn"),
        trust="T",
        formed_turn=1,
        ended_turn=1,
        ended_how="invasion",
        broken_by=ostland,
    )
    # Allies, Announcement: Karak Dumn announced its end during turn 1's End of Turn (decision 385).
    AllianceEndAnnouncement.objects.create(
        turn=turn_1,
        kingdom=broken.second,
        alliance=broken,
        entered_by=get_user_model().objects.get(username="carol"),
    )
    # A Rogue Kingdom (its player marked out in turn 2): the mark travels with the kingdom.
    campaign.kingdoms.filter(name="Tor Anlec").update(rogue_turn=2)
    reminder = ResultsReminder.objects.create(turn=turn_1, kingdom=ostland)
    email_queue(
        template="results-reminder",
        kind=Email.Kind.RESULTS_REMINDER,
        to=[player.email for player in ostland.players.all()],
        context={
            "kingdom": ostland,
            "turn": turn_1,
            "campaign": campaign,
            "battles": list(Battle.objects.filter(turn=turn_1, attacker_kingdom=ostland)),
            "deadline": deadline_text(turn_1.results_deadline, campaign.time_zone),
            "time_left": "a day",
        },
        campaign_id=campaign.pk,
        turn_id=turn_1.pk,
        key=f"results-reminder:{reminder.pk}",
        after_commit=False,
    )
    # The organizer's alert of a turn held with too many orders missing (turns/services/sweep.py).
    orders_held_announce(turn=turn_1, missing=3, total=4)
    # A player's message to the other side of a battle: it answers to the sender (Reply-To).
    hartwood = Battle.objects.get(turn=turn_1, province__number=62)
    battle_message_send(
        battle=hartwood,
        sender=User.objects.get(username="dave"),
        kingdom=hartwood.attacker_kingdom,
        text="Rematch on Thursday?",
    )
    # Rulings told (issue 37): the sides told that their sheets disagreed, then of the ruling (each
    # keyed by the battle; the turn summary sheets' receipts, from demo_turn_play, have no key).
    disagreement_queue(hartwood, "Tor Anlec claims a major victory, Ostland a draw.")
    ruling_queue(hartwood, "Decided by the organizer: Minor victory for the attacker; the attacker wins.")
    # Joint kingdoms: a co-player added to Ostland and removed again, told by email (decision 229).
    co_player_remove(kingdom=ostland, user_id=co_player_add(kingdom=ostland, email="erin@example.org").pk)
    # Bob's report emails failed after their last try: they keep their attachments.
    ReportEmail.objects.filter(report__turn__campaign=campaign, to=["bob@briternia.local"]).update(
        status=ReportEmail.Status.FAILED,
        attempts=5,
        last_error="451 4.3.0 Try again later",
        sent_at=None,
        attachment=PDF,
    )
    # And an order receipt that failed on its first try (a permanent refusal).
    receipt = Email.objects.filter(campaign=campaign, kind=Email.Kind.ORDERS_RECEIPT).order_by("id").first()
    Email.objects.filter(pk=receipt.pk).update(
        status=Email.Status.FAILED, attempts=1, last_error="550 5.1.1 No such user", sent_at=None
    )
    ReportPreferences.objects.create(
        user=User.objects.get(username="alice"), report_email="alice@home.example", message_emails="digest"
    )
    # Diplomacy (issue 37): a letter from Ostland to two kingdoms, and the organizer's announcement.
    message_send(
        campaign=campaign,
        sender=User.objects.get(username="alice"),
        kingdom=ostland,
        to=[campaign.kingdoms.get(name=name).pk for name in ("Tor Anlec", "Karak Dumn")],
        text="Shall we share the pass?",
    )
    message_send(
        campaign=campaign, sender=campaign.organizer, kingdom=None, to=[], text="No games Tuesday.", announcement=True
    )
    assert message_digests_send(now=timezone.now() + timedelta(minutes=1)) == 1  # alice's: the announcement
    # Sheets by email (issue 36): the answer to a sheet refused, to the player's registered address.
    sheet_answer_queue(
        user=User.objects.get(username="alice"),
        subject="Turn 1, Ostland: orders refused",
        lines=["Line 9: 1st Army cannot move into Province # 40: it is not adjacent."],
        campaign_id=campaign.pk,
        turn_id=turn_1.pk,
    )
    # Tomb Raiders (issue 31): Ostland's force as its player saves it, on turn 2.
    tomb_raider_force_save(
        kingdom=ostland,
        entries=[
            RaiderEntry("Captain", 1, 20, role=Role.CAPTAIN, command=Command.CHAMPION, leadership=7),
            RaiderEntry("Swordsmen", 8, 10, missile_weapon=False),
            RaiderEntry("Crossbowmen", 3, 9, missile_weapon=True, base=Base.MM_20),
        ],
        saved_by=User.objects.get(username="alice"),
    )
    # Spending Experience: recruits on the way (as orders/services/purchases.py writes them) and
    # an organizer's correction of a list (as kingdoms/services/armies.py records it).
    army = ostland.armies.filter(kind=Army.Kind.FIELD, status=Army.Status.ACTIVE).order_by("id").first()
    Delivery.objects.create(
        army=army,
        kind="recruits",
        what="10 Swordsmen (60 points)",
        unit="Swordsmen",
        models_count=10,
        points=60,
        points_per_model=6,
        cost=6,
        ordered_turn=2,
        arrives_turn=4,
    )
    RosterAdjustment.objects.create(
        army=army,
        turn=2,
        reason="Two Swordsmen were left out by mistake",
        points_before=1900,
        points_after=1912,
        changes=["1st Army: 2 Swordsmen (12 points) are bought with experience on the order sheet"],
        made_by=campaign.organizer,
    )
    # Reconnaissance and Sabotage (issue 32), as the aftermath's writer leaves them
    # (kingdoms/services/rival_missions.py): Ostland's Army Orders against a Da Red Fang army, waiting
    # for turn 2's orders, and its Assassinate Spiritual Leader naming a Da Red Fang character, used;
    # and one of Ostland's Swordsmen captured by Da Red Fang on a failed mission.
    red_fang = campaign.kingdoms.get(name="Da Red Fang")
    target_army = red_fang.armies.order_by("id").first()
    leader = Character.objects.filter(kingdom=red_fang).order_by("id").first()
    MissionEffect.objects.bulk_create(
        [
            MissionEffect(
                campaign=campaign,
                kingdom=ostland,
                target=red_fang,
                mission="army-orders",
                earned_turn=1,
                target_army=target_army,
            ),
            MissionEffect(
                campaign=campaign,
                kingdom=ostland,
                target=red_fang,
                mission="assassinate-spiritual-leader",
                earned_turn=1,
                target_character=leader,
                data={"leadership": -1},
                status="used",
                used_turn=2,
            ),
        ]
    )
    CapturedRaider.objects.create(
        campaign=campaign,
        captor=red_fang,
        owner=ostland,
        entry="Swordsmen",
        record={"name": "Swordsmen", "models_count": 1, "points_per_model": 10},
        captured_turn=1,
    )
    return campaign


PLAYED = Layer("demo campaign, turn 1 played as make demo plays it (transfer)", _played_build, commits=True)


@pytest.fixture
def played_campaign(transactional_db, shared_layers) -> Iterator[Campaign]:
    """_played_build's campaign, built once per run (tests/shared_rows.py); the test runs with each
    table's ids set apart, as the build was."""
    with ids_set_apart():
        yield shared_layers.take(PLAYED)


def _reports_made_build(resolved_campaign: Campaign, capture) -> Campaign:
    """resolved_campaign with what the end of its turn keeps, made by the service the aftermath
    calls (no rendering: stand-in bytes): the public map and its picture, a queued report per
    kingdom and the bulletin beside the battle's scenario sheet; Ostland's report rendered and
    emailed to alice, the email failed after its last try."""
    turn = resolved_campaign.turns.get()
    turn_reports_create(turn=turn)
    TurnMap.objects.filter(turn=turn).update(png=PICTURE)
    ostland = TurnReport.objects.get(turn=turn, kingdom__name="Ostland")
    TurnReport.objects.filter(pk=ostland.pk).update(
        status=TurnReport.Status.READY, pdf=PDF, rendered_at=LONG_AGO, render_seconds=1.25
    )
    ostland.refresh_from_db()
    (email_id,) = report_emails_queue(report=ostland)  # to alice, the PDF attached (not sent: no task)
    ReportEmail.objects.filter(pk=email_id).update(
        status=ReportEmail.Status.FAILED, attempts=5, last_error="451 4.3.0 Try again later"
    )
    return resolved_campaign


REPORTS_MADE = Layer("turn 1 resolved, its reports made (transfer)", _reports_made_build, parent=RESOLVED)


@pytest.fixture
def reports_made(resolved_campaign: Campaign, shared_layers) -> Campaign:
    """_reports_made_build's campaign, built once per run (tests/shared_rows.py)."""
    return shared_layers.take(REPORTS_MADE)
