"""The outbox (outbox/services.py, tasks.py): every email the site sends is a row rendered when it
is queued, in the caller's transaction, and sent by the same task: claimed, retried, failed,
resent, taken up by the sweep."""

from __future__ import annotations

import datetime as dt
import email
import email.policy

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.utils import timezone
from freezegun import freeze_time

from briternia.errors import DomainError
from kingdoms.models import Army, Kingdom
from kingdoms.services import campaigns as campaign_services
from orders.services.reminders import orders_reminders_queue
from orders.services.sheets import order_sheet_save
from orders.services.turns import deadline_change
from outbox.models import Email
from outbox.services import EMAIL_TRIES, NOT_ENQUEUED, email_queue, email_resend
from outbox.tasks import email_send
from rulebook.turn.write_orders.records import ArmyOrder, OrderKind, SheetEntries
from tests.smtp import send_as_the_worker_would
from turns.models import Turn
from turns.tasks import deadline_sweep


@pytest.fixture
def turn(demo_campaign):
    """Turn 1, its orders due in five days (no reminder is due whatever the day the test runs)."""
    now = timezone.now()
    Turn.objects.filter(campaign=demo_campaign, number=1).update(
        orders_deadline=now + dt.timedelta(days=5), results_deadline=now + dt.timedelta(days=8)
    )
    return demo_campaign.turns.get(number=1)


@pytest.fixture
def ostland(demo_campaign) -> Kingdom:
    return Kingdom.objects.get(campaign=demo_campaign, name="Ostland")


def _alice():
    return get_user_model().objects.get(username="alice")


def _move(kingdom: Kingdom) -> SheetEntries:
    army = kingdom.armies.get(kind="field")
    target = army.province.neighbours.exclude(terrain="desert").order_by("number").first()
    return SheetEntries(orders=(ArmyOrder(army.id, OrderKind.MOVE, target=target.number),))


def _submit(turn, kingdom, entries=None):
    return order_sheet_save(
        kingdom=kingdom,
        turn=turn,
        entries=entries or _move(kingdom),
        submitted_by=_alice(),
        submit=True,
        arrived_at=turn.orders_deadline - dt.timedelta(days=1),
    )


def _deadline_one_day_later(turn, reason: str = "") -> None:
    deadline_change(
        turn=turn,
        changed_by=turn.campaign.organizer,
        orders_deadline=turn.orders_deadline + dt.timedelta(days=1),
        reason=reason,
        now=turn.orders_deadline - dt.timedelta(days=1),
    )


def _queue(campaign, **overrides) -> Email | None:
    arguments = {
        "template": "orders-reminder",
        "kind": Email.Kind.ORDERS_REMINDER,
        "to": ["alice@briternia.local"],
        "context": {"kingdom": {"name": "Ostland"}, "turn": {"number": 1, "pk": 1}, "campaign": campaign},
        "campaign_id": campaign.pk,
    }
    return email_queue(**(arguments | overrides))


def test_every_email_of_the_campaign_is_a_row_of_its_kind(
    demo_campaign, turn, ostland, django_capture_on_commit_callbacks
):
    """Invitations, the setup's steps, receipts, announcements and reminders: rows of the campaign (and turn), sent."""
    with django_capture_on_commit_callbacks(execute=True):
        _submit(turn, ostland)
        _deadline_one_day_later(turn)
    turn.refresh_from_db()
    with django_capture_on_commit_callbacks(execute=True):
        orders_reminders_queue(now=turn.orders_deadline - dt.timedelta(hours=23))
    emails = Email.objects.filter(campaign=demo_campaign)
    by_kind = lambda pair: (pair[0], pair[1] or 0)  # noqa: E731 (a setup email has a turn or none)
    kinds = sorted(((e.kind, e.turn_id) for e in emails), key=by_kind)
    assert kinds == sorted(
        [(Email.Kind.INVITATION, None)] * 4
        # The setup's steps (issue 18): 4 rolls, 8 "your turn to pick", 4 army lists; turn 1 open.
        + [(Email.Kind.SETUP, None)] * 16
        + [(Email.Kind.SETUP, turn.pk)] * 4
        + [(Email.Kind.ORDERS_RECEIPT, turn.pk), (Email.Kind.ANNOUNCEMENT, turn.pk)]
        + [(Email.Kind.ORDERS_REMINDER, turn.pk)] * 3,  # Ostland has submitted
        key=by_kind,
    )
    assert {e.status for e in emails} == {Email.Status.SENT}
    # One message per address of each row (an announcement goes to every player, each alone).
    assert sorted(m.subject for m in mail.outbox) == sorted(e.subject for e in emails for _ in e.to)
    assert all(len(m.to) == 1 and not m.cc and not m.bcc for m in mail.outbox)


def test_a_receipt_says_what_was_accepted_when_it_was_queued(turn, ostland, django_capture_on_commit_callbacks):
    """The receipt is rendered inside the submitting transaction: what happens to the army before
    the email goes out (here, in the same transaction) does not change what it says."""
    army = ostland.armies.get(kind="field")
    with django_capture_on_commit_callbacks(execute=True):
        _submit(turn, ostland)
        Army.objects.filter(pk=army.pk).update(name="Renamed Later")
    (receipt,) = [m for m in mail.outbox if "orders received" in m.subject]
    assert f"{army.name} (in " in receipt.body and "Renamed Later" not in receipt.body


def test_the_receipt_is_rendered_by_the_worker_to_the_players_as_they_are_then(turn, ostland):
    """Issue 35: the submitting request stores the receipt as one row, not rendered; the worker
    renders it before its first try, to the kingdom's players with an address. With none, nothing
    is sent and the row goes, as `email_queue` queues nothing for nobody."""
    mail.outbox.clear()
    _submit(turn, ostland)  # the transaction never commits here: the row waits for its worker
    (receipt,) = Email.objects.filter(kind=Email.Kind.ORDERS_RECEIPT)
    assert receipt.status == Email.Status.QUEUED and not receipt.rendered and receipt.to == []

    addresses = sorted(p.email for p in ostland.players.all() if p.email)
    assert addresses
    assert send_as_the_worker_would(receipt.pk) == 0
    receipt.refresh_from_db()
    assert receipt.status == Email.Status.SENT and receipt.to == addresses
    assert receipt.subject == f"{turn.campaign.name}, turn {turn.number}: orders received for {ostland.name}"
    assert sorted(m.to[0] for m in mail.outbox) == addresses

    ostland.players.update(email="")
    _submit(turn, ostland)
    (unsent,) = Email.objects.filter(kind=Email.Kind.ORDERS_RECEIPT, status=Email.Status.QUEUED)
    mail.outbox.clear()
    assert send_as_the_worker_would(unsent.pk) == 0
    assert mail.outbox == [] and not Email.objects.filter(pk=unsent.pk).exists()


def test_a_refused_submission_queues_no_receipt(turn, ostland):
    army = ostland.armies.get(kind="field")
    far = ostland.campaign.provinces.exclude(pk=army.province_id).exclude(pk__in=army.province.neighbours.all()).first()
    with pytest.raises(DomainError):
        _submit(turn, ostland, SheetEntries(orders=(ArmyOrder(army.id, OrderKind.MOVE, target=far.number),)))
    assert not Email.objects.filter(kind=Email.Kind.ORDERS_RECEIPT).exists()


def test_queuing_twice_under_one_key_gives_one_email(demo_campaign, django_capture_on_commit_callbacks):
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        first = _queue(demo_campaign, key="the-same")
        second = _queue(demo_campaign, key="the-same")
    assert first is not None and second is not None and first.pk == second.pk
    assert len(mail.outbox) == 1


def test_nobody_to_write_to_queues_nothing(demo_campaign):
    assert _queue(demo_campaign, to=["", ""]) is None
    assert not Email.objects.filter(kind=Email.Kind.ORDERS_REMINDER).exists()


def test_the_sent_email_keeps_its_text_not_its_attachment(demo_campaign, django_capture_on_commit_callbacks):
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        email = _queue(demo_campaign, attachment=("sheet.pdf", b"%PDF-1.7 a sheet", "application/pdf"))
    (message,) = mail.outbox
    assert message.attachments == [("sheet.pdf", b"%PDF-1.7 a sheet", "application/pdf")]
    assert "Ostland has not submitted its orders" in message.body
    assert "<strong>Ostland</strong> has not submitted its orders" in message.alternatives[0][0]
    email.refresh_from_db()
    assert email.status == Email.Status.SENT and email.attachment is None and email.attachment_name == "sheet.pdf"
    assert "Ostland has not submitted its orders" in email.text


def test_a_broker_that_is_down_at_commit_loses_nothing(turn, ostland, monkeypatch, django_capture_on_commit_callbacks):
    """The task cannot be enqueued: the submission stands, its receipt waits as a queued row marked
    for the sweep, which sends it on its next run (once). (The same with a real closed port:
    tests/turns/test_broker_down.py.)"""

    def broker_down(**kwargs):
        raise ConnectionRefusedError("the broker is down")

    monkeypatch.setattr(email_send, "delay", broker_down)
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        _submit(turn, ostland)  # no error reaches the player
    (receipt,) = Email.objects.filter(kind=Email.Kind.ORDERS_RECEIPT)
    assert receipt.status == Email.Status.QUEUED and mail.outbox == []
    assert receipt.last_error.startswith(NOT_ENQUEUED) and "the broker is down" in receipt.last_error
    monkeypatch.undo()
    with freeze_time(receipt.created_at + dt.timedelta(minutes=1)):
        deadline_sweep.delay()  # not stale yet, but its task was never enqueued: sent now
        deadline_sweep.delay()
    receipt.refresh_from_db()  # rendered by the worker the sweep handed it to (issue 35)
    assert [m.subject for m in mail.outbox] == [receipt.subject]
    assert "orders received" in receipt.subject


def test_an_invitation_is_retried_and_resent_like_every_email(smtp, new_campaign):
    """The same sender for every kind: an invitation meets a server that answers 451 five times;
    after the last try it has failed; the organizer resends it and it goes, once."""
    server = smtp(failures=EMAIL_TRIES)
    campaign_services.player_invite(
        campaign=new_campaign, email="newcomer@example.org", kingdom_name="Ostland", army_type="empire"
    )  # the test's transaction never commits: the task is run below, as the worker would
    (invitation,) = Email.objects.filter(kind=Email.Kind.INVITATION)
    assert invitation.campaign_id == new_campaign.pk and invitation.to == ["newcomer@example.org"]
    assert send_as_the_worker_would(invitation.pk) == EMAIL_TRIES - 1
    invitation.refresh_from_db()
    assert (invitation.status, invitation.attempts) == (Email.Status.FAILED, EMAIL_TRIES)
    assert "451" in invitation.last_error and server.received == []
    email_resend(email=invitation)
    invitation.refresh_from_db()
    assert (invitation.status, invitation.attempts, invitation.last_error) == (Email.Status.QUEUED, 0, "")
    assert send_as_the_worker_would(invitation.pk) == 0
    email_send.delay(email_id=invitation.pk)  # again: nothing is sent twice
    invitation.refresh_from_db()
    assert invitation.status == Email.Status.SENT and len(server.received) == 1
    message = email.message_from_bytes(server.received[0].content, policy=email.policy.default)
    assert "/accounts/reset/" in message.get_body(("plain",)).get_content()
    with pytest.raises(DomainError, match="is sent: there is nothing to resend"):
        email_resend(email=invitation)


def test_every_campaign_email_answers_to_the_organizer_in_plain_words(
    demo_campaign, turn, ostland, django_capture_on_commit_callbacks
):
    """Issue 18: the text part and the subject are plain text (a name with an apostrophe, quotes or
    an ampersand reads as written), only the HTML part is escaped; a reply goes to the organizer."""
    alice = _alice()
    alice.first_name = 'Alice O\'Neil & "Co"'
    alice.save(update_fields=["first_name"])
    Kingdom.objects.filter(pk=ostland.pk).update(name="Ostland's Watch")
    ostland.refresh_from_db()
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        _submit(turn, ostland)
        _deadline_one_day_later(turn, reason='The <derby> & Tom\'s "cup" final')
    assert mail.outbox
    for message in mail.outbox:
        assert message.reply_to == [demo_campaign.organizer.email], message.subject
        assert not any(entity in message.body + message.subject for entity in ("&#x27;", "&quot;", "&amp;", "&lt;"))
    (receipt,) = [m for m in mail.outbox if "orders received" in m.subject]
    assert receipt.subject.endswith("orders received for Ostland's Watch")
    assert 'from Alice O\'Neil & "Co"' in receipt.body
    html, _ = receipt.alternatives[0]
    assert "Alice O&#x27;Neil &amp; &quot;Co&quot;" in html
    announcement = next(m for m in mail.outbox if "deadline changed" in m.subject)
    assert 'Reason: The <derby> & Tom\'s "cup" final' in announcement.body
