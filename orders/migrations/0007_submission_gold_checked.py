from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("orders", "0006_report_models_moved_to_reports"),
    ]

    operations = [
        migrations.AddField(
            model_name="ordersubmission",
            name="treasury",
            field=models.IntegerField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name="ordersubmission",
            name="taxes",
            field=models.IntegerField(blank=True, null=True),
        ),
    ]
