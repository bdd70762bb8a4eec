# Every email the site sends is now an outbox.Email row. A report email becomes one too: ReportEmail
# extends outbox.Email (multi-table inheritance) with the report it delivers. The rows made before
# keep their history (status, tries, last error, times); their text was never stored, so the unsent
# ones are rendered by their report when the deadline sweep takes it up (emails_queued_at cleared:
# reports.services.deliveries renders the report's emails that have no subject yet).

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models

KINDS = {"kingdom": "kingdom-report", "bulletin": "bulletin", "scenario": "scenario-sheet"}


def carry_over(apps, schema_editor):
    Legacy = apps.get_model("reports", "LegacyReportEmail")
    ReportEmail = apps.get_model("reports", "ReportEmail")
    TurnReport = apps.get_model("reports", "TurnReport")
    unsent = set()
    for old in Legacy.objects.select_related("report__turn").order_by("pk").iterator():
        report = old.report
        ReportEmail.objects.create(
            kind=KINDS[report.kind],
            campaign_id=report.turn.campaign_id,
            turn_id=report.turn_id,
            key=f"report:{report.pk}:{old.to}",
            to=[old.to],
            subject="",
            text="",
            html="",
            status=old.status,
            attempts=old.attempts,
            last_error=old.last_error,
            created_at=old.created_at,
            claimed_at=old.claimed_at,
            sent_at=old.sent_at,
            report_id=report.pk,
            user_id=old.user_id,
            attach_pdf=old.attach_pdf,
        )
        if old.status != "sent":
            unsent.add(report.pk)
    TurnReport.objects.filter(pk__in=unsent, status="ready").update(emails_queued_at=None)


def carry_back(apps, schema_editor):
    Legacy = apps.get_model("reports", "LegacyReportEmail")
    ReportEmail = apps.get_model("reports", "ReportEmail")
    Email = apps.get_model("outbox", "Email")
    for new in ReportEmail.objects.order_by("pk").iterator():
        Legacy.objects.create(
            report_id=new.report_id,
            user_id=new.user_id,
            to=new.to[0] if new.to else "",
            attach_pdf=new.attach_pdf,
            status=new.status,
            attempts=new.attempts,
            last_error=new.last_error,
            created_at=new.created_at,
            claimed_at=new.claimed_at,
            sent_at=new.sent_at,
        )
    Email.objects.filter(kind__in=KINDS.values()).delete()


class Migration(migrations.Migration):

    dependencies = [
        ("outbox", "0001_initial"),
        ("reports", "0001_initial"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.RenameModel("ReportEmail", "LegacyReportEmail"),  # its table (orders_reportemail) stays
        migrations.AlterField(
            model_name="legacyreportemail",
            name="report",
            field=models.ForeignKey(
                on_delete=django.db.models.deletion.CASCADE, related_name="+", to="reports.turnreport"
            ),
        ),
        migrations.CreateModel(
            name="ReportEmail",
            fields=[
                (
                    "email_ptr",
                    models.OneToOneField(
                        auto_created=True,
                        on_delete=django.db.models.deletion.CASCADE,
                        parent_link=True,
                        primary_key=True,
                        serialize=False,
                        to="outbox.email",
                    ),
                ),
                ("attach_pdf", models.BooleanField(default=True)),
                (
                    "report",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE, related_name="emails", to="reports.turnreport"
                    ),
                ),
                (
                    "user",
                    models.ForeignKey(
                        null=True,
                        on_delete=django.db.models.deletion.SET_NULL,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
            ],
            options={"ordering": ["report", "pk"]},
            bases=("outbox.email",),
        ),
        migrations.RunPython(carry_over, carry_back),
        migrations.DeleteModel("LegacyReportEmail"),
    ]
