"""Rogue Kingdom and New Player Option through the site: the organizer's page marks a player out
(orders/services/rogue.py), the turn resolves without the kingdom's orders and without its taxes,
the bulletin tells it; the organizer gives the Rogue Kingdom to a new player invited by email.
Rulebook: Player Issues > Rogue Kingdom, New Player Option."""

import datetime as dt

import pytest

from kernel.event_codes import EventCode
from kingdoms.models import Alliance, Army, Campaign, Kingdom
from orders.models import OrderSheet, OrdersReminder
from orders.services.sheets import order_sheet_save
from orders.services.turns import orders_missing
from outbox.models import Email
from reports.services.reports import bulletin_context
from rulebook.turn.write_orders.records import SheetEntries, TransferGold
from tests.clients import pages_as, user_named
from turns.models import Turn, TurnEvent
from turns.services.cycle import orders_phase_run


@pytest.fixture
def tor(demo_campaign):
    return Kingdom.objects.get(campaign=demo_campaign, name="Tor Anlec")


def _mark_out(tor, why="moved abroad"):
    return pages_as("organizer").post(f"/kingdoms/{tor.pk}/leader/", {"action": "rogue", "why": why})


def test_the_organizer_marks_a_player_out_and_the_kingdom_becomes_a_rogue_kingdom(turn, tor, ostland):
    dave = pages_as("dave")
    assert dave.get(f"/kingdoms/{tor.pk}/").status_code == 200
    treasury, provinces = tor.treasury_balance(), set(tor.provinces.values_list("number", flat=True))
    Alliance.objects.create(campaign=turn.campaign, first=ostland, second=tor, trust="T", formed_turn=1)
    ostland_gold = ostland.treasury_balance()
    assert "Who leads Tor Anlec" in pages_as("organizer").get(f"/kingdoms/{tor.pk}/").content.decode()

    response = _mark_out(tor)

    assert response.status_code == 302
    tor.refresh_from_db()
    assert tor.rogue_turn == 1 and not tor.players.exists()
    assert dave.get(f"/kingdoms/{tor.pk}/").status_code == 404  # the player is out
    assert not Army.objects.filter(kingdom=tor, status=Army.Status.ACTIVE).exists()
    alliance = Alliance.objects.get()
    assert (alliance.ended_turn, alliance.ended_how) == (1, "cancelled")  # decision 154: no gold back
    assert ostland.treasury_balance() == ostland_gold
    (event,) = TurnEvent.objects.filter(turn=turn, code=EventCode.ROGUE_KINGDOM)
    assert event.kingdom_id == tor.pk and "moved abroad" in event.text
    page = pages_as("organizer").get(f"/kingdoms/{tor.pk}/leader/").content.decode()
    assert "A Rogue Kingdom</strong> since turn 1" in page and "New Player Option" in page
    # It files no orders and never misses them: the turn resolves without it, and it collects no taxes.
    missing, total = orders_missing(turn)
    assert total == 3
    overview = pages_as("organizer").get(f"/turns/{turn.pk}/sheets/").content.decode()
    assert "Tor Anlec (Rogue Kingdom: files no orders)" in overview
    assert "<strong>Tor Anlec</strong>" not in overview.split('id="missing"')[1].split("</p>")[0]
    # Held for the organizer, the turn counts the missing orders of the three kingdoms that file them.
    Turn.objects.filter(pk=turn.pk).update(held_at=turn.orders_deadline)
    held = pages_as("organizer").get(f"/turns/{turn.pk}/sheets/").content.decode()
    assert "too many orders missing (3 of 3)" in held
    Turn.objects.filter(pk=turn.pk).update(held_at=None)
    assert orders_phase_run(turn_id=turn.pk).resolved
    assert not TurnEvent.objects.filter(turn=turn, kingdom=tor, code__in=[EventCode.MISSED_ORDERS, EventCode.TAXES])
    assert tor.treasury_balance() == treasury
    assert set(tor.provinces.values_list("number", flat=True)) <= provinces
    turn.refresh_from_db()
    bulletin = bulletin_context(turn=turn)
    assert "Tor Anlec has lost its leader: it is now a Rogue Kingdom, wracked by civil war." in bulletin["changes"]
    assert "Tor Anlec" not in bulletin["missed"]


def test_marking_out_is_refused_with_the_rule_and_changes_nothing(turn, tor, demo_campaign):
    ancient = Kingdom.objects.get(campaign=demo_campaign, army_type="ancient-dead")
    page = pages_as("organizer")

    refused = page.post(f"/kingdoms/{ancient.pk}/leader/", {"action": "rogue"}, follow=True).content.decode()
    assert "The Ancient Dead are the organizer&#x27;s" in refused or "cannot become a Rogue Kingdom" in refused

    Turn.objects.filter(pk=turn.pk).update(status=Turn.Status.BATTLES)
    refused = page.post(f"/kingdoms/{tor.pk}/leader/", {"action": "rogue"}, follow=True).content.decode()
    assert "Tor Anlec cannot become a Rogue Kingdom while turn 1 is battles" in refused
    tor.refresh_from_db()
    assert tor.rogue_turn is None and tor.players.filter(username="dave").exists()
    assert Army.objects.filter(kingdom=tor, status=Army.Status.ACTIVE).exists()
    assert not TurnEvent.objects.filter(code=EventCode.ROGUE_KINGDOM).exists()
    # A player cannot mark anyone out, not even their own kingdom.
    assert pages_as("dave").post(f"/kingdoms/{tor.pk}/leader/", {"action": "rogue"}).status_code == 404


def test_new_player_option_the_organizer_gives_a_rogue_kingdom_to_a_new_player(turn, tor, demo_campaign):
    _mark_out(tor)
    tor.refresh_from_db()
    treasury, provinces = tor.treasury_balance(), set(tor.provinces.values_list("number", flat=True))
    capitol = tor.capitol_id
    page = pages_as("organizer")
    # An address that plays already is refused, and nothing changes.
    refused = page.post(
        f"/kingdoms/{tor.pk}/leader/", {"action": "give", "email": user_named("alice").email}, follow=True
    ).content.decode()
    assert "already plays a kingdom in this campaign" in refused
    tor.refresh_from_db()
    assert tor.is_rogue

    response = page.post(f"/kingdoms/{tor.pk}/leader/", {"action": "give", "email": "Erin@Example.com"})

    assert response.status_code == 302
    tor.refresh_from_db()
    assert tor.rogue_turn is None
    assert list(tor.players.values_list("email", flat=True)) == ["erin@example.com"]
    invitation = Email.objects.filter(kind=Email.Kind.INVITATION, to=["erin@example.com"]).get()
    assert "Tor Anlec" in invitation.text and "/accounts/reset/" in invitation.text
    # Towns, cities and treasury as they were; the armies are not restored.
    assert tor.treasury_balance() == treasury
    assert set(tor.provinces.values_list("number", flat=True)) == provinces
    assert tor.capitol_id == capitol
    assert not Army.objects.filter(kingdom=tor, status=Army.Status.ACTIVE).exists()
    (event,) = TurnEvent.objects.filter(turn=turn, code=EventCode.NEW_PLAYER)
    assert event.kingdom_id == tor.pk
    # The new leader files this turn's orders again.
    assert orders_missing(turn) == (4, 4)


def test_only_a_rogue_kingdom_is_given_to_a_new_player(tor):
    refused = pages_as("organizer").post(
        f"/kingdoms/{tor.pk}/leader/", {"action": "give", "email": "erin@example.com"}, follow=True
    )
    assert "Tor Anlec is not a Rogue Kingdom" in refused.content.decode()
    assert not Email.objects.filter(kind=Email.Kind.INVITATION, to=["erin@example.com"]).exists()


# Bad input (issue 33): a refusal on the leader page is a 400 (it answered 200 with the form's errors).
@pytest.mark.parametrize(
    "data",
    [
        {"action": "give", "email": "not-an-address"},
        {"action": "give", "email": "a@x.org\r\nBcc: evil@x.org"},
        {"action": "rogue", "why": "x" * 1_000_000},
        {"action": "rogue", "why": "x" * 201},
    ],
)
def test_a_refusal_on_the_leader_page_is_a_400_and_changes_nothing(tor, data):
    emails = Email.objects.count()
    response = pages_as("organizer").post(f"/kingdoms/{tor.pk}/leader/", data)
    assert response.status_code == 400
    tor.refresh_from_db()
    assert tor.rogue_turn is None and tor.players.filter(username="dave").exists()
    assert Email.objects.count() == emails


def test_a_refusal_of_the_rules_on_the_leader_page_is_a_400(tor):
    response = pages_as("organizer").post(f"/kingdoms/{tor.pk}/leader/", {"action": "give", "email": "e@x.org"})
    assert response.status_code == 400
    assert "Tor Anlec is not a Rogue Kingdom" in response.content.decode()


def test_new_player_option_the_former_leader_s_sheet_is_not_the_new_leader_s_orders(turn, tor, ostland):
    """Rogue Kingdom, New Player Option (decisions 150, 601): dave files Tor Anlec's orders (1,000 gold
    to Ostland, Transfer of Gold), then drops out; the organizer gives the kingdom to erin in the same
    turn. Dave's sheet is not resolved: erin's kingdom has no sheet in, misses its orders if she files
    none, and its treasury is as dave left it ("treasury restored")."""
    order_sheet_save(
        kingdom=tor,
        turn=turn,
        entries=SheetEntries(gold_transfers=(TransferGold(kingdom=ostland.pk, gold=1000),)),
        submitted_by=tor.players.get(),
        submit=True,
        arrived_at=turn.orders_deadline - dt.timedelta(days=1),
    )
    OrdersReminder.objects.create(turn=turn, kingdom=tor)
    _mark_out(tor)
    treasury = tor.treasury_balance()
    page = pages_as("organizer")
    assert page.post(f"/kingdoms/{tor.pk}/leader/", {"action": "give", "email": "erin@example.com"}).status_code == 302

    # The new leader's orders are not in: the overview, the count and the sheet say so.
    assert orders_missing(turn) == (4, 4)
    assert not OrderSheet.objects.filter(turn=turn, kingdom=tor).exists()
    assert not OrdersReminder.objects.filter(turn=turn, kingdom=tor).exists()  # erin is reminded too
    assert orders_phase_run(turn_id=turn.pk).resolved
    assert TurnEvent.objects.filter(turn=turn, kingdom=tor, code=EventCode.MISSED_ORDERS).exists()
    assert not TurnEvent.objects.filter(turn=turn, kingdom=tor, code=EventCode.TRANSFER_SENT).exists()
    taxes = sum(e.gold for e in TurnEvent.objects.filter(turn=turn, kingdom=tor, code=EventCode.TAXES))
    tor.refresh_from_db()
    assert tor.treasury_balance() == treasury + taxes  # nothing spent in the new leader's name


def test_new_player_option_the_former_leader_s_coronation_countdown_is_not_the_new_leader_s(demo_campaign, turn, tor):
    """Loss of the Capitol ("A player who loses their capitol has 3 turns ... they then are out of the
    game"), Rogue Kingdom, New Player Option (decision 602): Tor Anlec lost its capitol in turn 1 and
    its player dropped out in turn 5, past the three turns; the organizer gives the kingdom to erin.
    The countdown was the former player's: erin is not put out when the turn resolves, and her
    kingdom counts no turns down."""
    Turn.objects.filter(pk=turn.pk).update(number=5)
    Campaign.objects.filter(pk=demo_campaign.pk).update(current_turn=5)
    Kingdom.objects.filter(pk=tor.pk).update(capitol=None, capitol_lost_turn=1)
    _mark_out(tor)
    tor.refresh_from_db()
    assert tor.capitol_lost_turn is None  # the countdown ends with the player
    Kingdom.objects.filter(pk=tor.pk).update(capitol_lost_turn=1)  # a kingdom marked out before this fix
    page = pages_as("organizer")
    assert page.post(f"/kingdoms/{tor.pk}/leader/", {"action": "give", "email": "erin@example.com"}).status_code == 302

    assert orders_phase_run(turn_id=turn.pk).resolved

    tor.refresh_from_db()
    assert tor.rogue_turn is None and list(tor.players.values_list("email", flat=True)) == ["erin@example.com"]
    assert tor.capitol_lost_turn is None
    codes = set(TurnEvent.objects.filter(turn=turn, kingdom=tor).values_list("code", flat=True))
    assert not codes & {EventCode.PLAYER_OUT, EventCode.CAPITOL_COUNTDOWN}
