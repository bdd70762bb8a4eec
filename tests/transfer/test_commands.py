"""manage.py export_campaign and import_campaign (transfer/management/commands/)."""

import json
from io import StringIO

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command

from kingdoms.models import Campaign
from tests.transfer.documents import row_counts
from tests.transfer.pages import history_page, report_downloads
from tests.transfer.rows import CampaignRows, differences, ids_set_apart
from transfer.campaign_models import ReportEmail, TurnMap, TurnReport
from transfer.export import campaign_export

User = get_user_model()


def test_the_commands_export_to_a_file_and_import_it(eventful_campaign, tmp_path):
    path = tmp_path / "campaign.json"
    call_command("export_campaign", str(eventful_campaign.pk), "-o", str(path), stderr=StringIO())
    out = StringIO()

    call_command("import_campaign", str(path), stdout=out)

    imported = Campaign.objects.exclude(pk=eventful_campaign.pk).get()
    assert out.getvalue().strip() == f"Imported campaign {imported.pk}: {eventful_campaign.name}"
    assert campaign_export(campaign=imported) == json.loads(path.read_text(encoding="utf-8"))
    assert json.loads(path.read_text(encoding="utf-8")) == campaign_export(campaign=eventful_campaign)


def test_import_reads_stdin_given_a_dash(demo_campaign, monkeypatch):
    document = campaign_export(campaign=demo_campaign)
    monkeypatch.setattr("sys.stdin", StringIO(json.dumps(document)))
    out = StringIO()

    call_command("import_campaign", "-", stdout=out)

    imported = Campaign.objects.exclude(pk=demo_campaign.pk).get()
    assert out.getvalue().strip() == f"Imported campaign {imported.pk}: {demo_campaign.name}"
    assert campaign_export(campaign=imported) == document


def test_export_writes_to_stdout_by_default(demo_campaign):
    out = StringIO()
    call_command("export_campaign", str(demo_campaign.pk), stdout=out)
    assert json.loads(out.getvalue()) == campaign_export(campaign=demo_campaign)
    assert out.getvalue().startswith('{\n  "format": "briternia-campaign",')  # indent 2


def test_export_of_an_unknown_campaign_is_a_command_error(db):
    with pytest.raises(CommandError, match="There is no campaign 4040"):
        call_command("export_campaign", "4040", stdout=StringIO())


def test_import_of_a_malformed_file_is_a_command_error_naming_the_problems(demo_campaign, tmp_path):
    document = campaign_export(campaign=demo_campaign)
    document["provinces"][0]["terrain"] = "lava"
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(document), encoding="utf-8")
    before = row_counts()

    with pytest.raises(CommandError) as refusal:
        call_command("import_campaign", str(path), stdout=StringIO())

    assert "nothing was imported" in str(refusal.value)
    assert "provinces[0] (number 1): \"terrain\": Value 'lava' is not a valid choice." in str(refusal.value)
    assert row_counts() == before


def test_import_of_a_file_that_is_not_json_is_a_command_error(db, tmp_path):
    path = tmp_path / "bad.json"
    path.write_text("{not json", encoding="utf-8")
    with pytest.raises(CommandError, match="is not JSON"):
        call_command("import_campaign", str(path), stdout=StringIO())


@pytest.mark.long
def test_the_demo_turn_exported_and_imported_by_the_commands_keeps_its_history_reports_and_emails(
    transactional_db, tmp_path
):
    """`make demo` (play_demo_turn), then export_campaign and import_campaign: the copy's history
    page, reports and report emails are the original's, for the organizer and every player."""
    path = tmp_path / "demo.json"
    with ids_set_apart():
        call_command("play_demo_turn", stdout=StringIO())
        original = Campaign.objects.get()
        call_command("export_campaign", str(original.pk), "-o", str(path), stderr=StringIO())
        out = StringIO()
        call_command("import_campaign", str(path), stdout=out)
        imported = Campaign.objects.exclude(pk=original.pk).get()
        rows, copy_rows = CampaignRows(original).all(), CampaignRows(imported).all()

    assert out.getvalue().strip() == f"Imported campaign {imported.pk}: {original.name}"
    # Reports, emails and maps among every other row (tests/transfer/rows.py).
    for model in (TurnReport, ReportEmail, TurnMap):
        assert rows[model._meta.label], model
    assert sum(rows[ReportEmail._meta.label].values()) == 16
    assert differences(rows, copy_rows) == {}
    for user in [original.organizer, *User.objects.filter(kingdoms__campaign=original)]:
        assert history_page(user, imported) == history_page(user, original), user
        assert report_downloads(user, imported) == report_downloads(user, original), user
    assert "No bulletin yet" not in history_page(original.organizer, imported).split('id="turn-1"')[1]
