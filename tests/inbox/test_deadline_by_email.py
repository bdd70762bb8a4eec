"""A sheet the campaign's mail server took in before the orders deadline counts, whenever the inbox
reads it (README, "Orders by email": "A sheet counts by the time the mail server received it ...
one received before the deadline counts even when it is read after"; Campaign Schedule: "Email Turn
Orders to campaign organizer before 8 pm"). The mailbox is read every INBOX_POLL_SECONDS (30 s) and
the deadline sweep resolves a due turn a few seconds after its deadline, on its own beat: the sweep
reads the mail first, so a reply still waiting in the mailbox is filed before the turn is claimed,
and counts for the hold (a turn held for missing orders) too."""

from __future__ import annotations

import datetime as dt

import pytest
from freezegun import freeze_time

from battles.models import Battle, TurnSummarySheet
from inbox.models import InboundMessage
from inbox.tasks import inbox_poll
from orders.models import CampaignSchedule, OrderSheet
from reports.models import ReportEmail
from tests.battles.conftest import battles_filed, battles_posted  # noqa: F401 (the fixtures)
from tests.clients import user_named
from turns.models import Turn
from turns.services.requests import orders_phase_request
from turns.tasks import deadline_sweep

from .messages import mail
from .test_filing import alice, neighbour, reminder, reply, two_armies  # noqa: F401 (the fixtures)


def _sweep(turn: Turn) -> dict:
    with freeze_time(turn.orders_deadline + dt.timedelta(seconds=30)):  # before the next poll of the mailbox
        return dict(deadline_sweep.delay().get())  # the beat's task, its phases run in this process


def test_a_reply_in_the_mailbox_before_the_deadline_is_resolved_though_the_sweep_comes_before_the_poll(
    dovecot,
    turn,
    alice,  # noqa: F811
    two_armies,  # noqa: F811
    reminder,  # noqa: F811
):
    first, _ = two_armies
    target = neighbour(first)
    # The sweep resolves the turn whatever is missing.
    CampaignSchedule.objects.update_or_create(campaign=turn.campaign, defaults={"hold_when_missing": 0})
    # The mail server takes the reply in now, days before the deadline; no poll reads it.
    dovecot.deliver(reply(reminder, {first.name: f"Move into {target.number}"}), recipient=reminder.reply_to)

    report = _sweep(turn)

    assert report["failed"] == [] and report["resolutions"] == 1
    row = InboundMessage.objects.get()
    assert row.status == InboundMessage.Status.ACCEPTED, row.reason
    assert row.received_at < turn.orders_deadline
    assert inbox_poll.delay().get()["imap"] == 0  # the beat's next poll finds it read already
    turn.refresh_from_db()
    assert turn.status != Turn.Status.ORDERS_OPEN
    sheet = OrderSheet.objects.get(turn=turn, kingdom=first.kingdom)
    assert sheet.status == OrderSheet.Status.SUBMITTED
    # The resolution used the orders the mail carried: the army went where they sent it.
    first.refresh_from_db()
    assert first.province_id == target.pk


def test_a_reply_in_the_mailbox_before_the_deadline_counts_for_the_hold(
    dovecot,
    turn,
    alice,  # noqa: F811
    two_armies,  # noqa: F811
    reminder,  # noqa: F811
):
    """Issue's hold: the turn waits for the organizer when at least `hold_when_missing` percent of the
    kingdoms missed their orders; a kingdom whose sheet waits in the mailbox did not miss them."""
    first, _ = two_armies
    kingdoms = turn.campaign.kingdoms.filing_orders().count()
    # Held only when every kingdom missed its orders.
    CampaignSchedule.objects.update_or_create(campaign=turn.campaign, defaults={"hold_when_missing": 100})
    dovecot.deliver(reply(reminder, {first.name: "Hold"}), recipient=reminder.reply_to)
    assert kingdoms > 1 and not OrderSheet.objects.filter(turn=turn, status=OrderSheet.Status.SUBMITTED).exists()

    report = _sweep(turn)

    assert report["held"] == 0 and report["resolutions"] == 1
    turn.refresh_from_db()
    assert turn.held_at is None and turn.status != Turn.Status.ORDERS_OPEN


@pytest.mark.usefixtures("battles_posted")
def test_a_turn_summary_sheet_in_the_mailbox_before_the_results_deadline_counts_in_the_aftermath(dovecot, k, turn):
    """Campaign Schedule: "Email Turn Summary Sheet to campaign organizer before 9 pm": Ostland's reply
    to the scenario email waits in the mailbox when the results deadline passes; the aftermath, run by
    the sweep before the next poll, has it."""
    player = user_named("alice")
    battle = Battle.objects.get(turn=turn, province__number=62)
    scenario = ReportEmail.objects.get(report__battle=battle, user=player)
    quoted = "\n".join(
        "Battle result: Minor Loss" if line.startswith("Battle result:") else (f"> {line}" if line else ">")
        for line in scenario.text.splitlines()
    )
    dovecot.deliver(
        mail(to=scenario.reply_to, sender=player.email, subject=f"Re: {scenario.subject}", text=f"Lost.\n\n{quoted}\n"),
        recipient=scenario.reply_to,
    )

    with freeze_time(turn.results_deadline + dt.timedelta(seconds=30)):
        report = dict(deadline_sweep.delay().get())

    assert report["failed"] == [] and report["aftermaths"] == 1
    row = InboundMessage.objects.get()
    assert row.status == InboundMessage.Status.ACCEPTED, row.reason
    sheet = TurnSummarySheet.objects.get(battle=battle, kingdom=k["Ostland"])
    assert sheet.status == TurnSummarySheet.Status.SUBMITTED and sheet.result == "minor-loss"
    turn.refresh_from_db()
    assert turn.status != Turn.Status.BATTLES


def test_the_organizers_resolve_files_the_mail_waiting_before_the_deadline_first(
    dovecot,
    turn,
    alice,  # noqa: F811
    two_armies,  # noqa: F811
    reminder,  # noqa: F811
    django_capture_on_commit_callbacks,
):
    """The organizer resolves early (README: a sheet sent to the site before the click counts): a reply
    the mail server took in before the click counts as well, though no poll has read it yet."""
    first, _ = two_armies
    target = neighbour(first)
    dovecot.deliver(reply(reminder, {first.name: f"Move into {target.number}"}), recipient=reminder.reply_to)

    with django_capture_on_commit_callbacks(execute=True):  # the click's task, run after its commit
        orders_phase_request(turn=turn)

    row = InboundMessage.objects.get()
    assert row.status == InboundMessage.Status.ACCEPTED, row.reason
    turn.refresh_from_db()
    assert turn.status != Turn.Status.ORDERS_OPEN
    first.refresh_from_db()
    assert first.province_id == target.pk
