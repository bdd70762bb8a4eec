"""Settings from the environment, and the embedded default (briternia/settings.py)."""

import json
import os
import subprocess
import sys
from email import message_from_bytes, policy
from pathlib import Path

import pytest
from django.core.mail import EmailMessage

from briternia.mail import EmlFileBackend

ROOT = Path(__file__).resolve().parents[2]
CONFIG_VARS = (
    "DATABASE_URL",
    "CELERY_BROKER_URL",
    "REDIS_URL",
    "EMAIL_HOST",
    "EMAIL_BACKEND",
    "SECRET_KEY",
    "DJANGO_DEBUG",
)

PRINT_SETTINGS = """
import json, django
from django.conf import settings
django.setup()
print(json.dumps({
    "engine": settings.DATABASES["default"]["ENGINE"],
    "name": str(settings.DATABASES["default"]["NAME"]),
    "eager": settings.CELERY_TASK_ALWAYS_EAGER,
    "broker": settings.CELERY_BROKER_URL,
    "email": settings.EMAIL_BACKEND,
    "outbox": str(settings.EMAIL_OUTBOX_DIR),
    "acks_late": settings.CELERY_TASK_ACKS_LATE,
    "serializer": settings.CELERY_TASK_SERIALIZER,
    "beat": sorted(settings.CELERY_BEAT_SCHEDULE),
    "debug": settings.DEBUG,
    "conn_max_age": settings.DATABASES["default"].get("CONN_MAX_AGE", 0),
    "conn_health_checks": settings.DATABASES["default"].get("CONN_HEALTH_CHECKS", False),
    "prepare_threshold": settings.DATABASES["default"].get("OPTIONS", {}).get("prepare_threshold", "unset"),
}))
"""


def run_settings(tmp_path, **env):
    clean = {k: v for k, v in os.environ.items() if k not in CONFIG_VARS}
    clean.update({"DJANGO_SETTINGS_MODULE": "briternia.settings", "BRITERNIA_VAR_DIR": str(tmp_path / "var")}, **env)
    return subprocess.run(
        [sys.executable, "-c", PRINT_SETTINGS], cwd=ROOT, env=clean, capture_output=True, text=True, timeout=60
    )


def test_no_configuration_means_the_embedded_default(tmp_path):
    """What `make run` and the other developer targets get: DEBUG on (the Makefile's), nothing else."""
    result = run_settings(tmp_path, DJANGO_DEBUG="1")
    assert result.returncode == 0, result.stderr
    s = json.loads(result.stdout)
    assert s["engine"] == "django.db.backends.sqlite3"
    assert s["name"] == str(tmp_path / "var" / "briternia.sqlite3")
    assert s["eager"] is True
    assert s["email"] == "briternia.mail.EmlFileBackend"
    assert s["outbox"] == str(tmp_path / "var" / "outbox")
    assert s["acks_late"] is True and s["serializer"] == "json"
    # the sweep, mail coming in (the mail drop) and the diplomacy's daily digest
    assert s["beat"] == ["deadline-sweep", "inbox-poll", "message-digests"]
    assert s["conn_max_age"] == 0  # SQLite: a connection costs nothing to open


POSTGRES = {
    "DATABASE_URL": "postgres://postgres@127.0.0.1:5432/briternia",
    "REDIS_URL": "redis://127.0.0.1:6379/0",
    "EMAIL_HOST": "smtp.example.org",
    "SECRET_KEY": "x" * 50,
}


def test_environment_switches_to_postgres_redis_and_smtp(tmp_path):
    result = run_settings(tmp_path, **POSTGRES)
    assert result.returncode == 0, result.stderr
    s = json.loads(result.stdout)
    # Django's PostgreSQL backend, its health check without a round trip while quiet (issue 35).
    assert s["engine"] == "briternia.postgresql" and s["name"] == "briternia"
    assert s["eager"] is False and s["broker"] == "redis://127.0.0.1:6379/0"
    assert s["email"] == "django.core.mail.backends.smtp.EmailBackend"
    # A web process keeps its PostgreSQL connection between requests (docs/performance.md).
    assert s["conn_max_age"] == 600 and s["conn_health_checks"] is True
    fresh = json.loads(run_settings(tmp_path, **{**POSTGRES, "DATABASE_CONN_MAX_AGE": "0"}).stdout)
    assert fresh["conn_max_age"] == 0
    # The hot statements prepared at their first run (briternia/prepared.py), unless a pooler forbids it.
    assert s["prepare_threshold"] == 0
    pooled = json.loads(run_settings(tmp_path, **{**POSTGRES, "DATABASE_PREPARED_STATEMENTS": "0"}).stdout)
    assert pooled["prepare_threshold"] == "unset"


def test_debug_is_off_by_default_and_then_a_secret_key_is_required(tmp_path):
    """A server started with no configuration never runs with DEBUG on (issue 17)."""
    result = run_settings(tmp_path)
    assert result.returncode != 0
    assert "SECRET_KEY is not set" in result.stderr
    ok = run_settings(tmp_path, SECRET_KEY="x" * 50, ALLOWED_HOSTS="example.org")
    assert ok.returncode == 0, ok.stderr
    assert json.loads(ok.stdout)["debug"] is False


def test_a_malformed_boolean_stops_start_up(tmp_path):
    result = run_settings(tmp_path, DJANGO_DEBUG="maybe")
    assert result.returncode != 0
    assert "DJANGO_DEBUG='maybe' is not a boolean" in result.stderr


def test_each_email_becomes_one_eml_file_with_its_attachments(tmp_path, settings):
    settings.EMAIL_OUTBOX_DIR = tmp_path / "outbox"
    first = EmailMessage("Turn 1 report", "Your report is attached.", "org@example.org", ["alice@example.org"])
    first.attach("report.pdf", b"%PDF-1.7 fake bytes", "application/pdf")
    second = EmailMessage("Hello", "Second message", "org@example.org", ["bob@example.org"])
    assert EmlFileBackend().send_messages([first, second]) == 2
    files = sorted((tmp_path / "outbox").glob("*.eml"))
    assert len(files) == 2
    messages = [message_from_bytes(f.read_bytes(), policy=policy.default) for f in files]
    report = next(m for m in messages if m["Subject"] == "Turn 1 report")
    assert report["To"] == "alice@example.org"
    (attachment,) = list(report.iter_attachments())
    assert attachment.get_filename() == "report.pdf"
    assert attachment.get_content() == b"%PDF-1.7 fake bytes"


@pytest.mark.parametrize("value, expected", [("1", True), ("yes", True), ("off", False), ("", False)])
def test_env_bool_reads_the_usual_spellings(monkeypatch, value, expected):
    from briternia.env import env_bool

    monkeypatch.setenv("SOME_FLAG", value)
    assert env_bool("SOME_FLAG", not expected) is expected


def test_the_broker_hands_a_lost_task_on_within_minutes_and_a_publish_fails_fast(settings):
    """Issue 20: Redis's visibility timeout follows the tasks' hard time limit (not Redis's one-hour
    default), so a task taken by a worker that died is redelivered within minutes; a request that
    enqueues with Redis down fails fast (tests/turns/test_broker_down.py shows it end to end)."""
    from briternia.celery import app

    options = app.conf.broker_transport_options
    assert settings.CELERY_TASK_TIME_LIMIT < options["visibility_timeout"] <= settings.CELERY_TASK_TIME_LIMIT + 120
    assert options["socket_connect_timeout"] <= 1 and app.conf.broker_connection_timeout <= 1
    assert app.conf.task_publish_retry_policy["max_retries"] <= 1
    assert app.conf.task_ignore_result  # no result backend traffic when a request enqueues
