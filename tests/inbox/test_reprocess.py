"""A mail is never lost (issue 36, "Bad mail"): one recorded but left unprocessed by a crash (the
worker killed between recording it and filing it) is taken up by the next poll once STUCK_AFTER has
passed, or at once by `manage.py inbox_reprocess`; a message file can be received by hand too."""

from __future__ import annotations

import datetime as dt

from django.core.management import call_command
from freezegun import freeze_time

from inbox.models import InboundMessage
from inbox.services.receive import message_record
from inbox.services.sources import STUCK_AFTER
from inbox.tasks import inbox_poll
from outbox.models import Email

from .messages import mail

NOW = dt.datetime(2026, 12, 6, 12, 0, tzinfo=dt.UTC)


def test_a_mail_left_unprocessed_by_a_crash_is_taken_up_by_a_later_poll(make_user):
    make_user("p1")
    with freeze_time(NOW):
        row, created = message_record(
            mail(to="orders@localhost", sender="p1@example.org"), received_at=NOW, source="imap"
        )
        assert created and row.status == InboundMessage.Status.RECEIVED  # the crash: recorded, not processed
        assert inbox_poll.delay().get()["stuck"] == 0  # it may still be in the hands of its reader
    with freeze_time(NOW + STUCK_AFTER + dt.timedelta(seconds=1)):
        assert inbox_poll.delay().get()["stuck"] == 1
    row.refresh_from_db()
    assert row.status == InboundMessage.Status.REFUSED and row.received_at == NOW
    assert Email.objects.get().to == ["p1@example.org"]


def test_the_command_processes_unprocessed_mail_and_receives_a_file(make_user, tmp_path, capsys):
    make_user("p1")
    row, _ = message_record(mail(to="orders@localhost", sender="p1@example.org"), received_at=NOW, source="imap")
    call_command("inbox_reprocess")
    row.refresh_from_db()
    assert row.status == InboundMessage.Status.REFUSED
    call_command("inbox_reprocess")  # nothing left to do: nothing answered twice
    assert Email.objects.count() == 1
    eml = tmp_path / "mail.eml"
    eml.write_bytes(mail(to="orders@localhost", sender="p1@example.org", message_id="<by-hand@x>"))
    call_command("inbox_reprocess", file=str(eml))
    assert InboundMessage.objects.get(message_id="<by-hand@x>").source == InboundMessage.Source.COMMAND
    assert "refused" in capsys.readouterr().out
