"""The production stack as a host runs it (issue 17): `check --deploy` clean with the documented
variables, the Procfile's web process serving hashed static files and the health endpoint under
gunicorn with DEBUG off, `make run`'s worker and beat resolving a turn whose deadline passed with
nobody clicking, JSON logs, and Sentry when a DSN is given.

Each test starts the real commands in subprocesses on a SQLite file of its own; the processes it
starts are stopped by their process group id, and every wait is bounded."""

from __future__ import annotations

import json
import os
import re
import socket
import sqlite3
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from briternia.processes import group_stop
from tests.briternia.test_settings import CONFIG_VARS

ROOT = Path(__file__).resolve().parents[2]
VENV_BIN = Path(sys.executable).parent
# Variables the test process carries (tests/settings.py, CI) that must not leak into a stack.
PROJECT_VARS = (
    *CONFIG_VARS,
    "DJANGO_SETTINGS_MODULE",
    "ALLOWED_HOSTS",
    "SECURE_SSL_REDIRECT",
    "SESSION_COOKIE_SECURE",
    "CSRF_COOKIE_SECURE",
    "LOG_FORMAT",
    "SENTRY_DSN",
    "DJANGO_ALLOW_ASYNC_UNSAFE",  # the browser tests' (tests/browser/conftest.py), never a site's
)


def _env(var_dir: Path, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in PROJECT_VARS}
    env.update(
        PATH=f"{VENV_BIN}{os.pathsep}{env.get('PATH', '')}",
        BRITERNIA_VAR_DIR=str(var_dir),
        DJANGO_SETTINGS_MODULE="briternia.settings",
    )
    env.update(extra)
    return env


def _manage(env: dict[str, str], *args: str) -> str:
    result = subprocess.run(
        [sys.executable, "manage.py", *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 0, result.stdout + result.stderr
    return result.stdout + result.stderr


def _procfile_command(procfile: Path, process: str) -> str:
    for line in procfile.read_text().splitlines():
        if line.startswith(f"{process}:"):
            return line.split(":", 1)[1].strip()
    raise AssertionError(f"{procfile} has no {process} process")


def _procfile_server(procfile: Path, process: str) -> str:
    """The process's server itself: its Procfile line's last command, without the steps that prepare
    the database and the static files before it (for a test on a database migrated already that
    serves no page with static files: collectstatic alone is about 13 s of CPU)."""
    return _procfile_command(procfile, process).split("&&")[-1].strip()


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _start(command: str, env: dict[str, str], log: Path) -> subprocess.Popen[bytes]:
    # A session of its own: stopping the group stops the command's children (gunicorn's workers).
    with log.open("wb") as out:  # the child keeps its own copy of the file
        return subprocess.Popen(
            command, shell=True, cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True
        )


def _get(url: str, **headers: str) -> tuple[int, dict[str, str], bytes]:
    request = urllib.request.Request(url, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, dict(response.headers), response.read()
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), error.read()


DATABASE_FILE = "briternia.sqlite3"  # under the var folder (briternia/settings.py, the embedded default)


def _database_copied(source: Path, target: Path) -> None:
    """SQLite's own backup: a whole, consistent copy of the file."""
    with sqlite3.connect(source) as original, sqlite3.connect(target) as copy:
        original.backup(copy)
    original.close()
    copy.close()


@pytest.fixture(scope="module")
def demo_built(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """A var/ folder with a migrated SQLite database holding the demo campaign (`migrate` then
    `demo_campaign`, in one subprocess: Django starts once, about 2 s of CPU fewer than one
    process each; about 13 s of CPU, built once), and a copy of that database as it was built, for
    a test that needs the campaign untouched by the others."""
    var_dir = tmp_path_factory.mktemp("stack-var")
    env = _env(var_dir, DJANGO_DEBUG="1")
    _manage(
        env,
        "shell",
        "-c",
        "from django.core.management import call_command; "
        "call_command('migrate', interactive=False, verbosity=0); call_command('demo_campaign')",
    )
    pristine = tmp_path_factory.mktemp("stack-demo-database") / DATABASE_FILE
    _database_copied(var_dir / DATABASE_FILE, pristine)
    return var_dir, pristine


@pytest.fixture(scope="module")
def demo_var(demo_built: tuple[Path, Path]) -> Path:
    """The var/ folder with the demo campaign, shared by the module's tests that run the stack on it."""
    return demo_built[0]


PRODUCTION_ENV_EXAMPLE = ROOT / "deploy" / "production.env.example"


def _documented_production_variables() -> dict[str, str]:
    values = {}
    for line in PRODUCTION_ENV_EXAMPLE.read_text().splitlines():
        if line.strip() and not line.lstrip().startswith("#"):
            name, _, value = line.partition("=")
            values[name.strip()] = value.strip()
    return values


def test_check_deploy_is_clean_with_the_documented_production_variables(tmp_path: Path) -> None:
    env = _env(tmp_path, **_documented_production_variables())
    result = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "System check identified no issues" in result.stdout


def test_check_deploy_warns_when_the_https_variables_are_missing(tmp_path: Path) -> None:
    """The check above can fail: without HSTS it names the warning."""
    variables = _documented_production_variables()
    del variables["SECURE_HSTS_SECONDS"]
    result = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT,
        env=_env(tmp_path, **variables),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode != 0
    assert "security.W004" in result.stderr + result.stdout


def _wait_for(url: str, process: subprocess.Popen[bytes], log: Path, seconds: float = 120) -> None:
    # The Procfile's web line migrates and collects the static files before gunicorn answers: about
    # 55 s on a loaded machine with the suite in one process, past 60 s with a second xdist worker.
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        assert process.poll() is None, log.read_text(errors="replace")
        try:
            if _get(url)[0] in {200, 503}:
                return
        except OSError:
            pass
        time.sleep(0.5)
    raise AssertionError(f"{url} did not answer in {seconds} s:\n{log.read_text(errors='replace')}")


@pytest.mark.long
def test_the_procfile_web_process_serves_hashed_static_files_and_health_with_debug_off(
    demo_var: Path, tmp_path: Path
) -> None:
    """The start-up collects the static files itself: no 404 for the style sheet with DEBUG off."""
    port = _free_port()
    env = _env(
        demo_var,
        DJANGO_DEBUG="0",
        SECRET_KEY="s" * 60,
        ALLOWED_HOSTS="127.0.0.1",
        SECURE_SSL_REDIRECT="0",
        PORT=str(port),
        WEB_CONCURRENCY="1",
    )
    log = tmp_path / "web.log"
    web = _start(_procfile_command(ROOT / "Procfile", "web"), env, log)
    try:
        _wait_for(f"http://127.0.0.1:{port}/health/", web, log)
        status, _, page = _get(f"http://127.0.0.1:{port}/accounts/login/")
        assert status == 200
        stylesheets = re.findall(rb'href="(/static/[^"]+\.css)"', page)
        assert stylesheets, page[:500]
        # The manifest's hashed name, served compressed by WhiteNoise.
        assert re.search(rb"\.[0-9a-f]{12}\.css$", stylesheets[0]), stylesheets
        status, headers, _ = _get(f"http://127.0.0.1:{port}{stylesheets[0].decode()}", **{"Accept-Encoding": "gzip"})
        assert status == 200
        assert headers.get("Content-Encoding") == "gzip"
        # ReDoc's bundle, which the site never serves, is not collected (briternia/staticfiles.py).
        assert (demo_var / "static" / "drf_spectacular_sidecar" / "swagger-ui-dist").is_dir()
        assert not (demo_var / "static" / "drf_spectacular_sidecar" / "redoc").exists()

        status, _, body = _get(f"http://127.0.0.1:{port}/health/")
        health = json.loads(body)
        assert status == 200 and health["database"] == "ok" and health["broker"] == "in-process"
    finally:
        group_stop(web)
    # gunicorn's access log is the structured log of the requests it served.
    assert "GET /health/" in log.read_text(errors="replace")


def _turn_status(var_dir: Path) -> str:
    with sqlite3.connect(var_dir / "briternia.sqlite3", timeout=20) as db:
        (status,) = db.execute("SELECT status FROM orders_turn ORDER BY number DESC LIMIT 1").fetchone()
    return status


@pytest.mark.long
def test_make_run_resolves_a_turn_whose_deadline_passed_with_nobody_clicking(demo_var: Path, tmp_path: Path) -> None:
    """`make run`'s worker (deploy/Procfile.run) runs beat's deadline sweep on the file-system broker;
    the sweep here every 2 s instead of every minute, to keep the test short."""
    env = _env(demo_var, DJANGO_DEBUG="1", CELERY_BROKER_URL="filesystem://", DEADLINE_SWEEP_SECONDS="2")
    _manage(
        env,
        "shell",
        "-c",
        "from datetime import timedelta; from django.utils import timezone; from turns.models import Turn; "
        "Turn.objects.filter(status='orders-open').update(orders_deadline=timezone.now() - timedelta(seconds=5))",
    )
    before = _turn_status(demo_var)
    assert before == "orders-open"
    log = tmp_path / "worker.log"
    worker = _start(_procfile_command(ROOT / "deploy" / "Procfile.run", "worker"), env, log)
    try:
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline and _turn_status(demo_var) == before:
            assert worker.poll() is None, log.read_text(errors="replace")
            time.sleep(1)
    finally:
        group_stop(worker)
    assert _turn_status(demo_var) != "orders-open", log.read_text(errors="replace")
    assert "deadline_sweep" in log.read_text(errors="replace")


def test_make_run_reads_a_mail_saved_into_the_mail_drop(demo_var: Path, tmp_path: Path) -> None:
    """Orders by email on the embedded default (README, "Orders by email"): a .eml saved into
    var/maildrop/new/ is read by `make run`'s worker and beat (deploy/Procfile.run), recorded, moved
    to cur/ and answered (here: it carries no secret, so the answer goes to the registered address of
    the account its From names, as a .eml in var/outbox/). The poll every second, not every 30."""
    env = _env(demo_var, DJANGO_DEBUG="1", CELERY_BROKER_URL="filesystem://", INBOX_POLL_SECONDS="1")
    mail = (
        b"From: Alice <alice@briternia.local>\r\nTo: orders@localhost\r\nSubject: my orders\r\n"
        b"Message-ID: <make-run-drop@example.org>\r\n\r\nCampaign: Demo\r\n"
    )
    (demo_var / "maildrop" / "new" / "orders.eml").write_bytes(mail)
    log = tmp_path / "worker.log"
    worker = _start(_procfile_command(ROOT / "deploy" / "Procfile.run", "worker"), env, log)

    def recorded() -> list[tuple[str, str]]:
        with sqlite3.connect(demo_var / "briternia.sqlite3", timeout=20) as db:
            return db.execute("SELECT status, reason FROM inbox_inboundmessage").fetchall()

    def answers() -> list[str]:
        return [p.read_text(errors="replace") for p in (demo_var / "outbox").glob("*.eml")]

    def answered() -> bool:
        return any("was not read" in a and "To: alice@briternia.local" in a for a in answers())

    try:
        # Recorded first, then answered: the answer is sent by the same worker a moment later (on a busy
        # machine, seconds), so the worker runs until both are seen or the bound passes.
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline and not (recorded() and answered()):
            assert worker.poll() is None, log.read_text(errors="replace")
            time.sleep(0.5)
    finally:
        group_stop(worker)
    assert recorded() == [("refused", "No valid secret in the address it was sent to: not read, not filed.")]
    assert [p.name for p in (demo_var / "maildrop" / "cur").iterdir()] == ["orders.eml:2,S"]
    assert answered(), answers()


PRINT_LOG = "import django, logging; django.setup(); logging.getLogger('briternia.test').warning('turn %s resolved', 3)"


def test_logs_are_one_json_object_per_line_in_production(tmp_path: Path) -> None:
    env = _env(tmp_path, DJANGO_DEBUG="0", SECRET_KEY="s" * 60, ALLOWED_HOSTS="example.org")
    result = subprocess.run([sys.executable, "-c", PRINT_LOG], cwd=ROOT, env=env, capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    line = json.loads(result.stderr.strip().splitlines()[-1])
    assert line["level"] == "WARNING" and line["logger"] == "briternia.test"
    assert line["message"] == "turn 3 resolved" and "time" in line


PRINT_SENTRY = (
    "import django, json, sentry_sdk; django.setup(); c = sentry_sdk.get_client(); "
    "print(json.dumps([c.is_active(), str(c.dsn) if c.dsn else None]))"
)


def test_sentry_reports_errors_only_when_a_dsn_is_given(tmp_path: Path) -> None:
    base = {"DJANGO_DEBUG": "0", "SECRET_KEY": "s" * 60, "ALLOWED_HOSTS": "example.org"}
    without = subprocess.run(
        [sys.executable, "-c", PRINT_SENTRY], cwd=ROOT, env=_env(tmp_path, **base), capture_output=True, text=True
    )
    assert json.loads(without.stdout) == [False, None], without.stderr
    dsn = "http://public@127.0.0.1:9/1"
    with_dsn = subprocess.run(
        [sys.executable, "-c", PRINT_SENTRY],
        cwd=ROOT,
        env=_env(tmp_path, SENTRY_DSN=dsn, **base),
        capture_output=True,
        text=True,
    )
    assert json.loads(with_dsn.stdout) == [True, dsn], with_dsn.stderr


def _put_json(url: str, body: dict, **headers: str) -> tuple[int, dict]:
    request = urllib.request.Request(
        url, data=json.dumps(body).encode(), method="PUT", headers={"Content-Type": "application/json", **headers}
    )
    try:
        with urllib.request.urlopen(request, timeout=20) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


def test_the_procfile_web_process_takes_the_arrival_its_proxy_stamped(
    demo_built: tuple[Path, Path], tmp_path: Path
) -> None:
    """gunicorn as the Procfile runs it (threaded workers), behind a proxy on 127.0.0.1 that stamps
    `X-Request-Start` (issue 34): a sheet the proxy stamped before the deadline counts although the
    deadline has passed since; one stamped absurdly long before is not believed, and is refused.
    On a copy of the demo campaign of its own (the module's shared one is resolved by another test)."""
    demo_var = tmp_path / "var"
    demo_var.mkdir()
    _database_copied(demo_built[1], demo_var / DATABASE_FILE)
    shell = (
        "import datetime as dt, json; from django.utils import timezone; "
        "from rest_framework.authtoken.models import Token; from django.contrib.auth import get_user_model; "
        "from turns.models import Turn; from kingdoms.models import Army; "
        "turn = Turn.objects.get(number=1, status=Turn.Status.ORDERS_OPEN); "
        "deadline = timezone.now() - dt.timedelta(seconds=3); "
        "Turn.objects.filter(pk=turn.pk).update(orders_deadline=deadline); "
        "token, _ = Token.objects.get_or_create(user=get_user_model().objects.get(username='alice')); "
        "army = Army.objects.get(kingdom__campaign=turn.campaign, kingdom__name='Ostland', kind='field'); "
        "print(json.dumps({'turn': turn.pk, 'deadline': deadline.timestamp(), 'token': token.key, 'army': army.id}))"
    )
    port = _free_port()
    env = _env(
        demo_var,
        DJANGO_DEBUG="0",
        SECRET_KEY="s" * 60,
        ALLOWED_HOSTS="127.0.0.1",
        SECURE_SSL_REDIRECT="0",
        PORT=str(port),
        WEB_CONCURRENCY="1",
        TRUSTED_PROXY_IPS="127.0.0.1",
    )
    log = tmp_path / "web.log"
    # gunicorn as the Procfile starts it, on the copy migrated already; the static files are the
    # first web test's (it runs the whole line), and this one serves none.
    web = _start(_procfile_server(ROOT / "Procfile", "web"), env, log)
    try:
        _wait_for(f"http://127.0.0.1:{port}/health/", web, log)
        setup = json.loads(_manage(_env(demo_var, DJANGO_DEBUG="1"), "shell", "-c", shell).strip().splitlines()[-1])
        url = f"http://127.0.0.1:{port}/api/turns/{setup['turn']}/sheet/"
        body = {"submit": True, "orders": [{"army": setup["army"], "kind": "hold"}]}
        auth = {"Authorization": f"Token {setup['token']}"}
        old, answer = _put_json(url, body, **auth, **{"X-Request-Start": f"t={setup['deadline'] - 600:.3f}"})
        assert old == 400 and "after the deadline" in answer["errors"][0]["detail"], answer
        status, answer = _put_json(url, body, **auth, **{"X-Request-Start": f"t={setup['deadline'] - 0.5:.3f}"})
        assert status == 200, answer
    finally:
        group_stop(web)
    assert "StampingThreadWorker" in log.read_text(errors="replace")
