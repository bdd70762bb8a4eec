"""Orders by email from end to end (issue 36, "Done when"): a player replies to the email that opens
the turn, with the sheet edited inside the quote, to their own orders address; the mail reaches a
real IMAP server (Dovecot, started by the test) as an MTA delivers it; the poller reads it, the same
check as the site's files it, the receipt reaches the player's registered address, and the site's
sheet API shows the same sheet. An illegal move is refused naming the army and the province, and the
earlier submission stands. A sheet the mail server received one second before the deadline counts
even when it is read after it (Campaign Schedule: "Email Turn Orders to campaign organizer before 8
pm"; orders/services/sheets.py, order_sheet_save(arrived_at=)).

Replies are built as mail programs write them: the turn's email quoted line by line ("> "), under an
"On ... wrote:" line, the player's changes typed into the quote."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from django.core import mail as django_mail
from freezegun import freeze_time
from rest_framework.test import APIClient

from inbox.models import InboundMessage
from inbox.services.receive import message_receive
from inbox.tasks import inbox_poll
from kingdoms.models import Army
from orders.entries import sheet_from_json
from orders.models import OrderSubmission
from orders.services.reminders import orders_reminders_queue
from orders.services.sheet_text import order_sheet_text
from orders.services.sheets import order_sheet_context_load
from outbox.models import Email
from rulebook.turn.write_orders.records import OrderKind
from rulebook.turn.write_orders.targets import sheet_targets
from tests.battles.conftest import battles_filed, battles_posted  # noqa: F401 (the fixtures)
from tests.clients import user_named

from .messages import mail


@pytest.fixture
def alice(demo_campaign):
    return user_named("alice")


@pytest.fixture
def two_armies(k):
    """Ostland's field army and a second one beside it: two blocks on its sheet."""
    first = k["Ostland"].armies.get(kind="field")
    second = Army.objects.create(kingdom=k["Ostland"], name="Second Host", province=first.province, size=1000)
    return first, second


@pytest.fixture
def reminder(turn, alice, two_armies, django_capture_on_commit_callbacks):
    """The orders reminder that opens the last day of the turn: it carries Ostland's sheet."""
    with django_capture_on_commit_callbacks(execute=True):
        orders_reminders_queue(now=turn.orders_deadline - dt.timedelta(hours=2))
    return Email.objects.get(kind=Email.Kind.ORDERS_REMINDER, to=[alice.email])


def neighbour(army, *, skip=()):
    return army.province.neighbours.exclude(terrain="desert").exclude(number__in=skip).order_by("number").first()


def far_from(army):
    near = [army.province_id, *army.province.neighbours.values_list("pk", flat=True)]
    return army.province.campaign.provinces.exclude(pk__in=near).order_by("number").first()


def edited(text: str, armies: set[str]):  # type: ignore[no-untyped-def]
    """Each line of `text`, and whether it is the order line of one of `armies`."""
    army = None
    for line in text.splitlines():
        if line.startswith("Army name / number: "):
            army = line.removeprefix("Army name / number: ")
        yield line, line.startswith("Order:") and army in armies


def reply(email: Email, changes: dict[str, str], *, message_id: str | None = None, **options) -> bytes:
    """`email` answered as a mail program does: quoted under "On ... wrote:", with the order line of
    each army named in `changes` typed over (army name -> the new order)."""
    lines, army = [], None
    for line, changed in edited(email.text, set(changes)):
        if line.startswith("Army name / number: "):
            army = line.removeprefix("Army name / number: ")
        if changed:
            lines.append(f"Order: {changes[army]}")  # typed over the quoted line
        else:
            lines.append(f"> {line}" if line else ">")
    body = "Here are my orders.\n\nHans\n-- \nHans of Ostland\n\nOn Sun, 6 Dec 2026 at 09:00, Briternia wrote:\n"
    return mail(
        to=email.reply_to,
        sender=f"Hans <{email.to[0]}>",
        subject=f"Re: {email.subject}",
        text=body + "\n".join(lines) + "\n",
        message_id=message_id,
        **options,
    )


def sheet_api(user, turn) -> dict:
    client = APIClient()
    client.force_authenticate(user)
    response = client.get(f"/api/turns/{turn.pk}/sheet/")
    assert response.status_code == 200
    return response.json()


def test_a_reply_with_two_armies_orders_changed_is_submitted_and_the_receipt_reaches_the_player(
    dovecot, turn, alice, two_armies, reminder, django_capture_on_commit_callbacks
):
    first, second = two_armies
    one = neighbour(first)
    two = neighbour(second, skip=[one.number])
    assert reminder.reply_to.startswith("orders+")  # the player's own address, their secret in it
    dovecot.deliver(
        reply(reminder, {first.name: f"Move into Province # {one.number}", "Second Host": f"Move into {two.number}"}),
        recipient=reminder.reply_to,
    )
    django_mail.outbox.clear()

    with django_capture_on_commit_callbacks(execute=True):
        assert inbox_poll.delay().get()["imap"] == 1

    row = InboundMessage.objects.get()
    assert row.status == InboundMessage.Status.ACCEPTED, row.reason
    assert row.user == alice and row.campaign == turn.campaign
    submission = OrderSubmission.objects.get(sheet__kingdom=first.kingdom)
    orders = {o.army: o for o in sheet_from_json(submission.entries).orders}
    assert (orders[first.id].kind, orders[first.id].target) == (OrderKind.MOVE, one.number)
    assert (orders[second.id].kind, orders[second.id].target) == (OrderKind.MOVE, two.number)
    assert submission.submitted_at == row.received_at  # the mail server's time of receipt
    # The answer is the site's receipt, sent to the player's registered address.
    assert row.answer.kind == Email.Kind.ORDERS_RECEIPT
    (receipt,) = [m for m in django_mail.outbox if alice.email in m.to]
    assert receipt.subject == row.answer.subject and "This sheet was filed by email." in receipt.body
    # The site shows the same sheet: the one submitted by email stands, and no draft beside it.
    shown = sheet_api(alice, turn)
    assert shown["resolves"] == "submitted" and shown["draft"] is None
    assert shown["submitted"]["entries"] == submission.entries == shown["sheet"]["entries"]
    assert shown["submitted"]["submitted_by"] == "alice"


def test_an_illegal_move_is_refused_naming_the_army_and_province_and_the_earlier_submission_stands(
    turn, alice, two_armies, reminder
):
    first, _ = two_armies
    when = turn.orders_deadline - dt.timedelta(hours=1)
    standing = _first_move_filed(reminder, first, when)
    far = far_from(first)

    bad = message_receive(
        reply(reminder, {first.name: f"Move into Province # {far.number}"}),
        received_at=when + dt.timedelta(minutes=1),
        source=InboundMessage.Source.MAILDROP,
    )

    assert bad.status == InboundMessage.Status.REFUSED
    assert list(OrderSubmission.objects.all()) == [standing]
    answer = bad.answer
    assert answer.to == [alice.email]
    problem = next(line for line in answer.text.splitlines() if line.startswith("Line ") and first.name in line)
    assert str(far.number) in problem


def test_a_mailed_sheet_with_a_list_longer_than_the_api_takes_is_refused_whole_naming_the_rule(
    dovecot, turn, alice, two_armies, reminder, django_capture_on_commit_callbacks
):
    """Army Table; decision 593: a sheet filed by email takes each list as the API does, at most 402
    entries (a few for each of the 134 armies a kingdom may have at most). A reply, delivered to the real
    IMAP server, with 403 "Buy supply depot" lines is not read past the bound: it is refused whole, its
    answer naming the list and the rule, and the earlier submission stands."""
    first, second = two_armies
    when = turn.orders_deadline - dt.timedelta(hours=1)
    standing = _first_move_filed(reminder, first, when)
    sheet = reminder.text[reminder.text.index("Campaign: ") :]
    depots = "\n".join([f"Buy supply depot: army = {second.name}"] * 403)
    dovecot.deliver(
        mail(to=reminder.reply_to, sender=alice.email, subject="Re: orders", text=f"{sheet}\n{depots}\n"),
        recipient=reminder.reply_to,
    )

    with django_capture_on_commit_callbacks(execute=True):
        assert inbox_poll.delay().get()["imap"] == 1

    row = InboundMessage.objects.order_by("pk").last()  # the second mail, after the one filed
    assert row.status == InboundMessage.Status.REFUSED
    assert list(OrderSubmission.objects.all()) == [standing]
    assert "nothing was saved" in row.answer.text
    (problem,) = [line for line in row.answer.text.splitlines() if "at most 402 entries" in line]
    assert problem.endswith(
        "Buy supply depot: at most 402 entries (Army Table: a few for each of the 134 armies a kingdom may have at "
        "most); this list has more. Nothing was saved."
    )


def test_a_sheet_received_a_second_before_the_deadline_and_read_after_it_counts(turn, alice, two_armies, reminder):
    first, _ = two_armies
    target = neighbour(first)
    with freeze_time(turn.orders_deadline + dt.timedelta(minutes=2)):  # the poller reads it late
        row = message_receive(
            reply(reminder, {first.name: f"Move into {target.number}"}),
            received_at=turn.orders_deadline - dt.timedelta(seconds=1),
            source=InboundMessage.Source.IMAP,
        )
    assert row.status == InboundMessage.Status.ACCEPTED, row.reason
    submission = OrderSubmission.objects.get()
    assert submission.submitted_at == turn.orders_deadline - dt.timedelta(seconds=1)


def test_a_sheet_received_a_second_after_the_deadline_is_refused(turn, alice, two_armies, reminder):
    first, _ = two_armies
    row = message_receive(
        reply(reminder, {first.name: f"Move into {neighbour(first).number}"}),
        received_at=turn.orders_deadline + dt.timedelta(seconds=1),
        source=InboundMessage.Source.IMAP,
    )
    assert row.status == InboundMessage.Status.REFUSED
    assert not OrderSubmission.objects.exists()


def test_a_replayed_accepted_mail_files_nothing_twice(turn, alice, two_armies, reminder):
    first, _ = two_armies
    raw = reply(reminder, {first.name: f"Move into {neighbour(first).number}"}, message_id="<replay@x>")
    when = turn.orders_deadline - dt.timedelta(hours=1)
    message_receive(raw, received_at=when, source=InboundMessage.Source.IMAP)
    answers = Email.objects.count()
    again = message_receive(raw, received_at=when + dt.timedelta(minutes=5), source=InboundMessage.Source.WEBHOOK)
    assert again.status == InboundMessage.Status.ACCEPTED and again.source == InboundMessage.Source.IMAP
    assert OrderSubmission.objects.count() == 1 and Email.objects.count() == answers


def test_a_forged_reply_without_the_secret_changes_nothing(turn, alice, two_armies, reminder):
    first, _ = two_armies
    raw = reply(reminder, {first.name: f"Move into {neighbour(first).number}"})
    forged = raw.replace(reminder.reply_to.encode(), b"orders@localhost")
    row = message_receive(forged, received_at=turn.orders_deadline - dt.timedelta(hours=1), source="imap")
    assert row.status == InboundMessage.Status.REFUSED and row.user is None
    assert not OrderSubmission.objects.exists()
    assert row.answer.to == [alice.email]


def test_an_html_only_reply_in_latin_1_with_an_attachment_is_filed_and_the_answer_says_the_attachment_was_ignored(
    turn, alice, two_armies, reminder, django_capture_on_commit_callbacks
):
    first, _ = two_armies
    target = neighbour(first)
    sheet = "\n".join(
        f"Order: Move into {target.number}" if changed else line
        for line, changed in edited(reminder.text[reminder.text.index("Campaign: ") :], {first.name})
    )
    html = "<html><body><p>Voilà mes ordres.</p><pre>" + sheet + "</pre></body></html>"
    raw = mail(
        to=reminder.reply_to,
        sender=alice.email,
        text=None,
        html=html,
        attachments=(("army-list.pdf", b"%PDF-1.4", "application/pdf"),),
        charset="iso-8859-1",
    )
    assert b"iso-8859-1" in raw and "Voilà".encode("latin-1") not in raw  # quoted-printable latin-1
    with django_capture_on_commit_callbacks(execute=True):  # the receipt is rendered by its worker
        row = message_receive(raw, received_at=turn.orders_deadline - dt.timedelta(hours=1), source="imap")
    assert row.status == InboundMessage.Status.ACCEPTED, row.reason
    orders = sheet_from_json(OrderSubmission.objects.get().entries).orders
    assert any(o.army == first.id and o.target == target.number for o in orders)
    row.answer.refresh_from_db()
    assert "The attachment army-list.pdf was ignored" in row.answer.text


@pytest.mark.usefixtures("battles_posted")
def test_a_reply_to_the_scenario_email_files_the_turn_summary_sheet(k, turn):
    """Campaign Schedule: "Email Turn Summary Sheet to campaign organizer": the scenario email carries
    the sheet; the reply, with the result typed over the quoted line, files it."""
    from battles.models import Battle, TurnSummarySheet
    from reports.models import ReportEmail

    alice = user_named("alice")
    battle = Battle.objects.get(turn=turn, province__number=62)
    scenario = ReportEmail.objects.get(report__battle=battle, user=alice)
    assert scenario.reply_to.startswith("orders+")
    quoted = "\n".join(
        "Battle result: Minor Loss" if line.startswith("Battle result:") else (f"> {line}" if line else ">")
        for line in scenario.text.splitlines()
    )
    row = message_receive(
        mail(
            to=scenario.reply_to,
            sender=alice.email,
            subject=f"Re: {scenario.subject}",
            text="We lost, narrowly.\n\nOn Mon, 7 Dec 2026, Briternia wrote:\n" + quoted + "\n",
        ),
        received_at=turn.results_deadline - dt.timedelta(hours=1),
        source=InboundMessage.Source.IMAP,
    )
    assert row.status == InboundMessage.Status.ACCEPTED, row.reason
    sheet = TurnSummarySheet.objects.get(battle=battle, kingdom=k["Ostland"])
    assert sheet.status == TurnSummarySheet.Status.SUBMITTED and sheet.result == "minor-loss"


def _first_move_filed(reminder, army, when: dt.datetime) -> OrderSubmission:
    """A reply moving `army` next door, taken in at `when` and accepted: the submission that stands."""
    good = message_receive(
        reply(reminder, {army.name: f"Move into {neighbour(army).number}"}),
        received_at=when,
        source=InboundMessage.Source.MAILDROP,
    )
    assert good.status == InboundMessage.Status.ACCEPTED, good.reason
    return OrderSubmission.objects.get()


def test_a_forced_march_that_also_supports_a_battle_is_filed_by_email_and_read_back(
    turn, alice, two_armies, reminder, django_capture_on_commit_callbacks
):
    """Decision 588 (4. Write Orders: "Move and / or Support"; a Forced March is how an army moves): a
    reply giving an army a Forced March and the line "Also support battles in Province #" is filed
    with both, the receipt says so, and the sheet written back as text carries the line again.
    Before, the check refused it ("only Move or Support orders may support a battle")."""
    first, _ = two_armies
    targets = sheet_targets(order_sheet_context_load(kingdom=first.kingdom, turn=turn)).armies[first.pk]
    step, seconds = next(iter(targets.march.items()))
    battle = targets.support[0]
    order = f"Forced March through Province # {step}, {seconds[0]}\nAlso support battles in Province #: {battle}"

    django_mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        row = message_receive(
            reply(reminder, {first.name: order}),
            received_at=turn.orders_deadline - dt.timedelta(hours=1),
            source=InboundMessage.Source.MAILDROP,
        )

    assert row.status == InboundMessage.Status.ACCEPTED, row.reason
    submission = OrderSubmission.objects.get()
    filed = {o.army: o for o in sheet_from_json(submission.entries).orders}[first.id]
    assert (filed.kind, filed.path, filed.support) == (OrderKind.FORCED_MARCH, (step, seconds[0]), battle)
    (receipt,) = [m for m in django_mail.outbox if alice.email in m.to]
    assert re.search(rf"Forced March through .+ to .+ and support the battle in {battle} ", receipt.body), receipt.body
    # The sheet as the site writes it back (the order page's "File by email") carries both again.
    text = order_sheet_text(kingdom=first.kingdom, turn=turn)
    block = text.split(f"Army name / number: {first.name}\n")[1].split("\n\n")[0]
    assert f"Order: Forced March through Province # {step}, {seconds[0]}\n" in block + "\n"
    assert f"Also support battles in Province #: {battle}" in block
