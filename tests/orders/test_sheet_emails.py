"""The emails that open a turn carry the player's sheet as text, pre-filled, to reply with (issue 36;
Campaign Schedule: "Email Turn Orders to campaign organizer", "Email Turn Summary Sheet to campaign
organizer"): the campaign's start, the orders reminder, the turn report (the next turn's order sheet)
and the scenario email (the turn summary sheet: tests/battles/test_sheet_mail.py). Only the kingdom's
own players get its sheet."""

from __future__ import annotations

import datetime as dt

from django.contrib.auth import get_user_model

from battles.services.sheet_mail import sheet_text_file
from kingdoms.services.mail_addresses import orders_address_for
from orders.models import OrderSubmission
from orders.services.reminders import orders_reminders_queue
from orders.services.sheet_text import order_sheet_text
from orders.services.sheets import order_sheet_save
from outbox.models import Email
from reports.models import ReportEmail, TurnReport
from rulebook.turn.write_orders.records import ArmyOrder, OrderKind, SheetEntries


def sheet_of(email_text: str) -> str:
    """The sheet a player replies with: the email's text from the sheet's first line on."""
    start = email_text.index("Campaign: ") if "Turn summary sheet:" not in email_text else None
    start = email_text.index("Turn summary sheet:") if start is None else start
    return email_text[start:]


def test_the_campaigns_start_carries_each_kingdoms_sheet_to_its_own_players(turn, k):
    alice = get_user_model().objects.get(username="alice")
    started = Email.objects.filter(kind=Email.Kind.SETUP, subject__contains="started")
    ostland = [e for e in started if "Kingdom: Ostland\n" in e.text]
    assert len(ostland) == 1 and ostland[0].to == [alice.email]
    assert ostland[0].reply_to == orders_address_for(alice, turn.campaign)  # her own, her secret in it
    assert "Turn: 1\nKingdom: Ostland\nDraft: no\n" in ostland[0].text
    assert "<pre>Campaign:" in ostland[0].html


def test_the_reminder_carries_the_draft_and_its_reply_files_it(turn, k):
    alice = get_user_model().objects.get(username="alice")
    ostland = k["Ostland"]
    army = ostland.armies.get(kind="field")
    target = army.province.neighbours.exclude(terrain="desert").order_by("number").first()
    draft = SheetEntries(orders=(ArmyOrder(army.id, OrderKind.MOVE, target=target.number),))
    order_sheet_save(kingdom=ostland, turn=turn, entries=draft, submitted_by=alice, submit=False)
    orders_reminders_queue(now=turn.orders_deadline - dt.timedelta(hours=2))
    reminder = Email.objects.get(kind=Email.Kind.ORDERS_REMINDER, to=[alice.email])
    assert reminder.reply_to == orders_address_for(alice, turn.campaign)
    sheet = sheet_of(reminder.text)
    assert sheet.strip() == order_sheet_text(kingdom=ostland, turn=turn).strip()
    assert f"Army name / number: {army.name}\nOrder: Move into Province # {target.number}\n" in sheet
    # No other kingdom's reminder holds Ostland's sheet.
    others = Email.objects.filter(kind=Email.Kind.ORDERS_REMINDER).exclude(pk=reminder.pk)
    assert others.exists() and not any("Kingdom: Ostland" in e.text for e in others)
    filing = sheet_text_file(user=alice, text=sheet, arrived_at=turn.orders_deadline - dt.timedelta(hours=1))
    assert filing.accepted, filing.text
    assert OrderSubmission.objects.get(sheet__kingdom=ostland).entries["orders"][0]["target"] == target.number


def test_the_turn_report_carries_the_next_turns_sheet(reported, k):
    alice = get_user_model().objects.get(username="alice")
    email = ReportEmail.objects.get(report__turn=reported, report__kingdom=k["Ostland"], user=alice)
    assert "Turn: 2\nKingdom: Ostland\n" in email.text
    assert email.reply_to == orders_address_for(alice, reported.campaign)
    bulletin = ReportEmail.objects.filter(report__turn=reported, report__kind=TurnReport.Kind.BULLETIN)
    assert bulletin.exists() and not any("Army name / number" in e.text for e in bulletin)
