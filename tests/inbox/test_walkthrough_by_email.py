"""A four-turn walk-through where one player files every sheet, orders and turn summary sheets, only
by email (issue 36, "Done when"). alice (Ostland) never opens the site: each turn she answers the
email that opened it (the orders reminder, then each turn report, which carries the next turn's
sheet), and answers each scenario email with her battle's result; every mail goes through the one
receive service as the mail server hands it over. The other kingdoms file through the site's
services. Rulebook: Campaign Schedule ("Email Turn Orders to campaign organizer before 8 pm",
"Email Turn Summary Sheet to campaign organizer before 9 pm")."""

from __future__ import annotations

import datetime as dt

import pytest
from django.db.models import Q

from battles.models import Battle, TurnSummarySheet
from battles.services.summaries import summary_sheet_save
from demo.turn import army_with_list
from inbox.models import InboundMessage
from inbox.services.receive import message_receive
from orders.models import OrderSubmission
from orders.services.reminders import orders_reminders_queue
from orders.services.sheets import order_sheet_save
from outbox.models import Email
from reports.models import ReportEmail
from rulebook.turn.write_orders.records import ArmyOrder, OrderKind, SheetEntries
from tests.clients import user_named
from turns.models import Turn
from turns.services.cycle import aftermath_phase_run, orders_phase_run

from .messages import mail
from .test_filing import reply


def _opening_email(alice, number: int) -> Email:
    """The newest email to alice that carries her order sheet for turn `number`."""
    emails = Email.objects.filter(to=[alice.email], text__contains=f"Turn: {number}\n").order_by("-id")
    return next(e for e in emails if "Army name / number:" in e.text)


def _receive(raw: bytes, when: dt.datetime) -> InboundMessage:
    return message_receive(raw, received_at=when, source=InboundMessage.Source.IMAP)


@pytest.mark.long
def test_four_turns_filed_only_by_email(demo_campaign, k, django_capture_on_commit_callbacks):
    capture = django_capture_on_commit_callbacks
    alice, dave = user_named("alice"), user_named("dave")
    ostland, tor = k["Ostland"], k["Tor Anlec"]
    hartwood = demo_campaign.provinces.get(number=62)
    # Staging, as the demo does: Ostland's Wardens hold Hartwood, Tor Anlec's Raiders next door (52).
    wardens = army_with_list(ostland, "Wardens", hartwood, [("Halberdiers", 60, 6), ("Knights", 15, 24)])
    raiders = army_with_list(
        tor, "Raiders", demo_campaign.provinces.get(number=52), [("Spearmen", 50, 9), ("Archers", 40, 11)]
    )
    first = ostland.armies.get(name="1st Army")
    with capture(execute=True):
        orders_reminders_queue(now=demo_campaign.turns.get(number=1).orders_deadline - dt.timedelta(hours=2))
    summaries = 0
    for number in range(1, 5):
        turn = Turn.objects.get(campaign=demo_campaign, number=number)
        # Tor Anlec's Raiders march into Hartwood in turn 1: a battle for alice to report by email.
        if number == 1:
            order_sheet_save(
                kingdom=tor,
                turn=turn,
                entries=SheetEntries(orders=(ArmyOrder(raiders.id, OrderKind.MOVE, target=62),)),
                submitted_by=dave,
                submit=True,
                arrived_at=turn.orders_deadline - dt.timedelta(days=1),
            )
        # alice answers the email that opened the turn: in turn 2 her 1st Army fortifies where it
        # stands, every other turn the sheet goes back as it came (every army holds).
        opening = _opening_email(alice, number)
        first.refresh_from_db()
        changes = {first.name: f"Fortify in Province # {first.province.number}"} if number == 2 else {}
        row = _receive(reply(opening, changes), turn.orders_deadline - dt.timedelta(hours=1))
        assert row.status == InboundMessage.Status.ACCEPTED, (number, row.reason)
        submission = OrderSubmission.objects.get(sheet__turn=turn, sheet__kingdom=ostland)
        assert submission.submitted_by == alice and submission.submitted_at == row.received_at
        with capture(execute=True):
            assert orders_phase_run(turn_id=turn.pk).resolved
        # Each battle of Ostland's: alice answers its scenario email, the other side files on the site.
        battles = Battle.objects.filter(turn=turn).filter(Q(attacker_kingdom=ostland) | Q(defender_kingdom=ostland))
        for battle in battles:
            scenario = ReportEmail.objects.get(report__battle=battle, user=alice)
            ours_attacks = battle.attacker_kingdom_id == ostland.pk
            quoted = "\n".join(
                f"Battle result: {'Minor Victory' if ours_attacks else 'Minor Loss'}"
                if line.startswith("Battle result:")
                else (f"> {line}" if line else ">")
                for line in scenario.text.splitlines()
            )
            row = _receive(
                mail(
                    to=scenario.reply_to,
                    sender=alice.email,
                    subject=f"Re: {scenario.subject}",
                    text="Played Tuesday.\n\nOn Mon, Briternia wrote:\n" + quoted + "\n",
                ),
                turn.results_deadline - dt.timedelta(hours=1),
            )
            assert row.status == InboundMessage.Status.ACCEPTED, (number, row.reason)
            other = battle.defender_kingdom if ours_attacks else battle.attacker_kingdom
            summary_sheet_save(
                battle=battle,
                kingdom=other,
                data={"result": "minor-loss" if ours_attacks else "minor-victory"},
                entered_by=other.players.first(),
            )
            summaries += 1
        with capture(execute=True):
            assert aftermath_phase_run(turn_id=turn.pk, now=turn.results_deadline + dt.timedelta(minutes=1)).resolved
        turn.refresh_from_db()
        assert turn.status == Turn.Status.REPORTED

    # Every sheet of Ostland's came by email: four order sheets, and the summary of each battle.
    assert summaries >= 1
    filed = InboundMessage.objects.filter(user=alice, status=InboundMessage.Status.ACCEPTED)
    assert filed.count() == 4 + summaries
    assert OrderSubmission.objects.filter(sheet__kingdom=ostland).count() == 4
    ours = TurnSummarySheet.objects.filter(kingdom=ostland, status=TurnSummarySheet.Status.SUBMITTED)
    assert ours.count() == summaries and all(s.entered_by == alice for s in ours)
    # Turn 2's Fortify stood as mailed.
    assert "Fortify" in OrderSubmission.objects.get(sheet__kingdom=ostland, sheet__turn__number=2).receipt["orders"][0]
    assert demo_campaign.turns.filter(number=5, status=Turn.Status.ORDERS_OPEN).exists()
    assert wardens.pk and raiders.pk
