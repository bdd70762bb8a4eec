"""`make stack`'s mail server (manage.py inbox_smtp, deploy/Procfile.stack): a real SMTP server that
delivers mail for the orders address into the mail drop the beat reads, with the envelope's
recipient as Delivered-To, and keeps any other email in a Maildir of its own."""

from __future__ import annotations

import mailbox
import smtplib

from aiosmtpd.controller import Controller

from inbox.management.commands.inbox_smtp import OrdersMailHandler
from inbox.models import InboundMessage
from inbox.tasks import inbox_poll
from tests.smtp import free_port

from .messages import mail, to_player


def test_mail_to_a_players_orders_address_reaches_the_inbox_through_the_local_smtp_server(
    maildrop, tmp_path, make_user
):
    p1 = make_user("p1")
    other = tmp_path / "mailbox"
    port = free_port()
    controller = Controller(OrdersMailHandler(maildrop=maildrop, other=other), hostname="127.0.0.1", port=port)
    controller.start()
    try:
        with smtplib.SMTP("127.0.0.1", port, timeout=10) as smtp:
            # Bcc'd to the orders address (To names someone else): the envelope says where it went.
            smtp.sendmail(
                "p1@example.org",
                [to_player(p1), "friend@example.org"],
                mail(to="friend@example.org", sender="p1@example.org", message_id="<smtp-1@example.org>"),
            )
            smtp.sendmail("organizer@briternia.local", ["p2@example.org"], mail(to="p2@example.org", text="report"))
    finally:
        controller.stop()

    assert len(list(maildrop.joinpath("new").iterdir())) == 1
    assert len(mailbox.Maildir(other)) == 2  # the copy to the friend, and the site's own email
    assert inbox_poll.delay().get()["maildrop"] == 1
    row = InboundMessage.objects.get()
    assert row.message_id == "<smtp-1@example.org>" and row.user == p1  # found by Delivered-To
