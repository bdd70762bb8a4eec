"""Order sheets through the services: deadline, drafts, submissions, emails (orders/services)."""

import datetime as dt
from zoneinfo import ZoneInfo

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from freezegun import freeze_time

from briternia.errors import DomainError
from orders.models import DeadlineChange, OrderSheet, OrderSubmission
from orders.services.reminders import orders_reminders_queue
from orders.services.sheets import order_sheet_save, submitted_entries
from orders.services.turns import campaign_pause, deadline_change
from outbox.models import Email
from rulebook.turn.write_orders.records import ArmyOrder, CreateArmy, OrderKind, SheetEntries
from tests.clients import pages_as
from turns.models import Turn
from turns.tasks import deadline_sweep


@pytest.fixture
def alice(demo_campaign):
    return get_user_model().objects.get(username="alice")


def move_entries(kingdom) -> SheetEntries:
    army = kingdom.armies.get(kind="field")
    target = army.province.neighbours.exclude(terrain="desert").order_by("number").first()
    return SheetEntries(orders=(ArmyOrder(army.id, OrderKind.MOVE, target=target.number),))


def bad_entries(kingdom) -> SheetEntries:
    army = kingdom.armies.get(kind="field")
    far = kingdom.campaign.provinces.exclude(pk=army.province_id).exclude(pk__in=army.province.neighbours.all()).first()
    return SheetEntries(orders=(ArmyOrder(army.id, OrderKind.MOVE, target=far.number),))


def test_turn_one_opens_with_the_campaign(demo_campaign, turn):
    assert turn.status == "orders-open"
    assert turn.results_deadline > turn.orders_deadline
    local = turn.orders_deadline.astimezone(ZoneInfo("Europe/London"))
    assert (local.weekday(), local.hour, local.minute) == (6, 20, 0)  # Sunday 20:00, the rulebook's schedule
    results = turn.results_deadline.astimezone(ZoneInfo("Europe/London"))
    assert (results.weekday(), results.hour) == (2, 21)  # Wednesday 21:00


def test_submission_just_before_the_deadline_is_accepted_and_just_after_refused(turn, ostland, alice):
    before = turn.orders_deadline - dt.timedelta(seconds=1)
    after = turn.orders_deadline + dt.timedelta(seconds=1)
    order_sheet_save(
        kingdom=ostland, turn=turn, entries=move_entries(ostland), submitted_by=alice, submit=True, arrived_at=before
    )
    with pytest.raises(
        DomainError,
        match=r"This sheet arrived at 20:00:01, after the deadline of 20:00:00 \(\w+day \d+ \w+ 20\d\d, "
        r"Europe/London\): the orders of turn 1 are closed to it\.",
    ):
        order_sheet_save(
            kingdom=ostland, turn=turn, entries=SheetEntries(), submitted_by=alice, submit=True, arrived_at=after
        )
    with pytest.raises(DomainError, match="arrived at 20:00:01, after the deadline"):
        order_sheet_save(
            kingdom=ostland, turn=turn, entries=SheetEntries(), submitted_by=alice, submit=False, arrived_at=after
        )
    assert OrderSubmission.objects.count() == 1


def test_an_extended_deadline_accepts_the_sheet(
    turn, ostland, alice, demo_campaign, django_capture_on_commit_callbacks
):
    late = turn.orders_deadline + dt.timedelta(hours=1)
    with django_capture_on_commit_callbacks(execute=True):
        deadline_change(
            turn=turn,
            changed_by=demo_campaign.organizer,
            orders_deadline=turn.orders_deadline + dt.timedelta(days=1),
            reason="Holiday",
            now=turn.orders_deadline - dt.timedelta(hours=2),
        )
    turn.refresh_from_db()
    order_sheet_save(
        kingdom=ostland, turn=turn, entries=move_entries(ostland), submitted_by=alice, submit=True, arrived_at=late
    )
    change = DeadlineChange.objects.get()
    assert change.kind == "orders" and change.reason == "Holiday" and change.changed_by == demo_campaign.organizer
    announcements = [m for m in mail.outbox if "orders deadline" in m.subject]
    assert all(len(m.to) == 1 and not m.cc and not m.bcc for m in announcements)  # one per player
    announcement = announcements[0]
    assert {m.to[0] for m in announcements} >= {"alice@briternia.local", "bob@briternia.local", "dave@briternia.local"}
    assert change.new_value in announcement.body and "Holiday" in announcement.body


def test_a_deadline_cannot_move_into_the_past(turn, demo_campaign):
    with pytest.raises(DomainError, match="has already passed"):
        deadline_change(
            turn=turn, changed_by=demo_campaign.organizer, orders_deadline=turn.orders_deadline - dt.timedelta(days=30)
        )


def test_a_reported_turn_s_results_deadline_no_longer_moves(turn, demo_campaign):
    """Campaign Schedule: the results deadline is the battles' (turn summary sheets by Wednesday). Once
    the turn's aftermath has run it is over: a new results deadline is refused on the page and the
    API's service, naming the turn, nothing is recorded and no player is emailed a deadline of a
    finished turn; its overview offers no deadline form."""
    Turn.objects.filter(pk=turn.pk).update(status=Turn.Status.REPORTED)
    turn.refresh_from_db()
    emails = Email.objects.count()
    later = turn.results_deadline + dt.timedelta(days=3)
    with pytest.raises(DomainError, match="aftermath of turn 1 has been resolved; its results deadline cannot"):
        deadline_change(turn=turn, changed_by=demo_campaign.organizer, results_deadline=later)
    zone = ZoneInfo(demo_campaign.time_zone)
    page = pages_as("organizer")
    refused = page.post(
        f"/turns/{turn.pk}/deadlines/",
        {
            "orders_deadline": turn.orders_deadline.astimezone(zone).strftime("%Y-%m-%dT%H:%M"),
            "results_deadline": later.astimezone(zone).strftime("%Y-%m-%dT%H:%M"),
        },
        follow=True,
    ).content.decode()
    assert "its results deadline cannot change" in refused
    assert 'id="deadlines-form"' not in refused and 'id="deadlines-closed"' in refused
    turn.refresh_from_db()
    assert turn.results_deadline == later - dt.timedelta(days=3)
    assert not DeadlineChange.objects.exists() and Email.objects.count() == emails


def test_the_page_moves_a_results_deadline_when_the_orders_deadline_was_set_to_the_second(turn, demo_campaign):
    """Campaign Schedule: in the battles of a turn only the results deadline may move. The orders
    deadline was set to the second (through the API); the page shows it to the minute and sends it
    back as shown: it has not moved, and the new results deadline is saved."""
    orders = turn.orders_deadline + dt.timedelta(seconds=30)
    Turn.objects.filter(pk=turn.pk).update(status=Turn.Status.BATTLES, orders_deadline=orders)
    zone = ZoneInfo(demo_campaign.time_zone)
    later = turn.results_deadline + dt.timedelta(days=1)
    answer = (
        pages_as("organizer")
        .post(
            f"/turns/{turn.pk}/deadlines/",
            {
                "orders_deadline": orders.astimezone(zone).strftime("%Y-%m-%dT%H:%M"),
                "results_deadline": later.astimezone(zone).strftime("%Y-%m-%dT%H:%M"),
            },
            follow=True,
        )
        .content.decode()
    )
    assert "Deadlines saved" in answer and "cannot change" not in answer
    turn.refresh_from_db()
    assert (turn.orders_deadline, turn.results_deadline) == (orders, later)
    assert list(DeadlineChange.objects.values_list("kind", flat=True)) == ["results"]


def test_while_paused_the_deadline_does_not_pass(turn, ostland, alice, demo_campaign):
    campaign_pause(campaign=demo_campaign, paused=True, changed_by=demo_campaign.organizer, reason="Holidays")
    late = turn.orders_deadline + dt.timedelta(days=2)
    order_sheet_save(
        kingdom=ostland, turn=turn, entries=move_entries(ostland), submitted_by=alice, submit=True, arrived_at=late
    )
    assert DeadlineChange.objects.filter(kind="paused").exists()
    with pytest.raises(DomainError, match="already paused"):
        campaign_pause(campaign=demo_campaign, paused=True, changed_by=demo_campaign.organizer)


def test_a_draft_with_errors_is_kept_but_a_submission_with_errors_is_refused_whole(turn, ostland, alice):
    now = turn.orders_deadline - dt.timedelta(days=1)
    result = order_sheet_save(
        kingdom=ostland, turn=turn, entries=bad_entries(ostland), submitted_by=alice, submit=False, arrived_at=now
    )
    assert result.sheet.status == "draft" and not result.check.ok
    good = order_sheet_save(
        kingdom=ostland, turn=turn, entries=move_entries(ostland), submitted_by=alice, submit=True, arrived_at=now
    )
    stored = good.sheet.entries
    with pytest.raises(DomainError) as refused:
        order_sheet_save(
            kingdom=ostland, turn=turn, entries=bad_entries(ostland), submitted_by=alice, submit=True, arrived_at=now
        )
    assert "1st Army:" in refused.value.messages[0] and "is not adjacent to" in refused.value.messages[0]
    sheet = OrderSheet.objects.get(turn=turn, kingdom=ostland)
    assert sheet.entries == stored and sheet.submissions.count() == 1


def test_case_C4_gold_shortfall_refuses_the_sheet_naming_it(turn, ostland, alice):
    own = ostland.provinces.exclude(pk=ostland.capitol_id).first()
    entries = SheetEntries(
        creations=(CreateArmy("2nd Army", 2000, own.number), CreateArmy("3rd Army", 2000, own.number))
    )
    with pytest.raises(DomainError) as refused:
        order_sheet_save(
            kingdom=ostland,
            turn=turn,
            entries=entries,
            submitted_by=alice,
            submit=True,
            arrived_at=turn.orders_deadline - dt.timedelta(days=1),
        )
    assert any("Army Table allows" in m for m in refused.value.messages)
    assert not OrderSheet.objects.filter(kingdom=ostland).exists()


def test_resubmission_the_last_stands_and_each_is_kept_with_a_receipt(
    turn, ostland, alice, django_capture_on_commit_callbacks
):
    now = turn.orders_deadline - dt.timedelta(days=1)
    army = ostland.armies.get(kind="field")
    with django_capture_on_commit_callbacks(execute=True):
        order_sheet_save(
            kingdom=ostland, turn=turn, entries=move_entries(ostland), submitted_by=alice, submit=True, arrived_at=now
        )
        fortify = SheetEntries(orders=(ArmyOrder(army.id, OrderKind.FORTIFY),))
        order_sheet_save(kingdom=ostland, turn=turn, entries=fortify, submitted_by=alice, submit=True, arrived_at=now)
    sheet = OrderSheet.objects.get(turn=turn, kingdom=ostland)
    assert sheet.submissions.count() == 2
    assert submitted_entries(sheet)["orders"][0]["kind"] == "fortify"
    receipts = [m for m in mail.outbox if "orders received" in m.subject]
    assert len(receipts) == 2 and receipts[-1].to == ["alice@briternia.local"]
    assert f"1st Army (in {army.province.number} {army.province.name}): Fortify" in receipts[-1].body
    assert "Move into" in receipts[0].body


def test_a_draft_after_a_submission_does_not_withdraw_it(turn, ostland, alice):
    now = turn.orders_deadline - dt.timedelta(days=1)
    order_sheet_save(
        kingdom=ostland, turn=turn, entries=move_entries(ostland), submitted_by=alice, submit=True, arrived_at=now
    )
    order_sheet_save(
        kingdom=ostland, turn=turn, entries=SheetEntries(), submitted_by=alice, submit=False, arrived_at=now
    )
    sheet = OrderSheet.objects.get(turn=turn, kingdom=ostland)
    assert sheet.status == "submitted"
    assert submitted_entries(sheet)["orders"][0]["kind"] == "move"


def test_reminder_24_hours_before_goes_only_to_kingdoms_without_a_submission_and_only_once(
    turn, ostland, alice, demo_campaign, django_capture_on_commit_callbacks
):
    order_sheet_save(
        kingdom=ostland,
        turn=turn,
        entries=move_entries(ostland),
        submitted_by=alice,
        submit=True,
        arrived_at=turn.orders_deadline - dt.timedelta(days=2),
    )
    mail.outbox.clear()
    assert orders_reminders_queue(now=turn.orders_deadline - dt.timedelta(hours=25)) == []
    with django_capture_on_commit_callbacks(execute=True):  # queued, then sent once committed
        reminded = orders_reminders_queue(now=turn.orders_deadline - dt.timedelta(hours=23))
    assert {k.name for k in reminded} == {"Da Red Fang", "Karak Dumn", "Tor Anlec"}
    recipients = sorted(address for m in mail.outbox for address in m.to)
    assert recipients == ["bob@briternia.local", "carol@briternia.local", "dave@briternia.local"]
    assert all("orders are due in 23 hours" in m.subject for m in mail.outbox)
    assert orders_reminders_queue(now=turn.orders_deadline - dt.timedelta(hours=22)) == []
    assert orders_reminders_queue(now=turn.orders_deadline + dt.timedelta(minutes=1)) == []


def test_the_periodic_sweep_sends_due_reminders(turn):
    with freeze_time(turn.orders_deadline - dt.timedelta(hours=2)):
        # the four players; the Ancient Dead are the organizer's
        first, second = deadline_sweep.delay().get(), deadline_sweep.delay().get()
    counts = ("reminders", "resolutions", "aftermaths", "failed")
    assert [first[c] for c in counts] == [4, 0, 0, []]
    assert [second[c] for c in counts] == [0, 0, 0, []]
