"""reports migration 0002: the report emails made before every email went through the outbox become
outbox rows with their history; the unsent ones are rendered by their report when the sweep takes
it up, and go out once; the sent ones are never sent again."""

from __future__ import annotations

import datetime as dt

from django.core import mail
from django.utils import timezone

from demo.campaign import demo_campaign_create
from kingdoms.models import Kingdom
from outbox.models import Email
from reports.models import ReportEmail, TurnReport
from tests.migration_steps import migrated_back
from turns.tasks import deadline_sweep

BEFORE = [("reports", "0001_initial")]


def test_the_report_emails_keep_their_history_and_the_unsent_ones_go_out_once(transactional_db, client):
    campaign = demo_campaign_create()
    turn = campaign.turns.get(number=1)
    ostland = Kingdom.objects.get(campaign=campaign, name="Ostland")
    rendered_at = timezone.now() - dt.timedelta(hours=1)
    report = TurnReport.objects.create(
        turn=turn,
        kingdom=ostland,
        status=TurnReport.Status.READY,
        pdf=b"%PDF-1.7 Ostland's report",
        rendered_at=rendered_at,
        emails_queued_at=rendered_at,
    )
    sent_at = rendered_at + dt.timedelta(minutes=1)
    with migrated_back(BEFORE) as old_apps:
        Legacy = old_apps.get_model("reports", "ReportEmail")
        common = {"report_id": report.pk, "attach_pdf": True}
        Legacy.objects.create(to="alice@briternia.local", status="sent", attempts=2, sent_at=sent_at, **common)
        Legacy.objects.create(to="alice@home.example", status="failed", attempts=5, last_error="451 later", **common)
        Legacy.objects.create(to="alice@work.example", status="queued", **common)

    rows = {e.to[0]: e for e in ReportEmail.objects.filter(report=report)}
    assert set(rows) == {"alice@briternia.local", "alice@home.example", "alice@work.example"}
    history = {to: (e.status, e.attempts, e.last_error) for to, e in rows.items()}
    assert history == {
        "alice@briternia.local": (Email.Status.SENT, 2, ""),
        "alice@home.example": (Email.Status.FAILED, 5, "451 later"),
        "alice@work.example": (Email.Status.QUEUED, 0, ""),
    }
    assert rows["alice@briternia.local"].sent_at == sent_at
    for email in rows.values():
        assert (email.kind, email.campaign_id, email.turn_id) == (Email.Kind.KINGDOM_REPORT, campaign.pk, turn.pk)
        assert email.key == f"report:{report.pk}:{email.to[0]}" and email.subject == ""
    report.refresh_from_db()
    assert report.emails_queued_at is None  # the sweep takes the report up, to render its unsent emails

    mail.outbox.clear()
    deadline_sweep.delay()
    deadline_sweep.delay()
    to_alice = [m for m in mail.outbox if m.to[0].startswith("alice@")]
    assert [m.to for m in to_alice] == [["alice@work.example"]]  # the queued one, once; the sent one never
    assert "Ostland's turn report" in to_alice[0].subject
    assert to_alice[0].attachments == [(report.filename, b"%PDF-1.7 Ostland's report", "application/pdf")]
    failed = ReportEmail.objects.get(pk=rows["alice@home.example"].pk)
    assert failed.status == Email.Status.FAILED and "Ostland's turn report" in failed.subject
    client.force_login(campaign.organizer)
    client.post(f"/report-emails/{failed.pk}/resend/")
    assert [m.to for m in mail.outbox if m.to[0].startswith("alice@")][-1] == ["alice@home.example"]
    assert ReportEmail.objects.filter(report=report, status=Email.Status.SENT).count() == 3
