"""A real Celery worker in a process of its own, for the fault tests (tests/turns/test_faults.py):
started on the test database and the configured broker, stopped (or killed) by the pid it was
started with, every wait bounded. Runs only where CI's PostgreSQL and Redis pass runs: a worker
in another process cannot see SQLite's in-memory test database, and the eager default has no broker."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from django.conf import settings
from django.db import connection

ROOT = Path(__file__).resolve().parents[2]
CELERY = Path(sys.executable).parent / "celery"

needs_postgres_and_broker = pytest.mark.skipif(
    settings.CELERY_TASK_ALWAYS_EAGER or connection.vendor != "postgresql",
    reason="needs PostgreSQL and a broker: set DATABASE_URL and CELERY_BROKER_URL (CI's PostgreSQL and Redis pass)",
)


def test_database_url() -> str:
    """The test database (pytest-django's), as a DATABASE_URL another process can use."""
    db = connection.settings_dict
    password = f":{db['PASSWORD']}" if db.get("PASSWORD") else ""
    return f"postgres://{db['USER']}{password}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"


def wait_until(condition: Callable[[], object], *, seconds: float, what: str, log: Path | None = None) -> object:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(0.2)
    tail = log.read_text(errors="replace")[-3000:] if log and log.exists() else ""
    raise AssertionError(f"{what}: not within {seconds} s\n{tail}")


class Worker:
    """`celery worker` (solo pool: the task runs in this very process, so a SIGKILL to its pid
    kills the task mid-way) on the test database and the broker."""

    def __init__(self, log: Path, **env: str) -> None:
        self.log = log
        environment = {
            **os.environ,
            "DJANGO_SETTINGS_MODULE": "tests.settings",
            "DATABASE_URL": test_database_url(),
            "CELERY_BROKER_URL": settings.CELERY_BROKER_URL,
            **env,
        }
        with log.open("ab") as out:
            self.process = subprocess.Popen(
                [str(CELERY), "-A", "briternia", "worker", "--pool=solo", "--without-gossip", "--without-mingle"]
                + ["--without-heartbeat", "-l", "info", "-n", f"faults-{os.getpid()}-{time.monotonic_ns()}@%h"],
                cwd=ROOT,
                env=environment,
                stdout=out,
                stderr=subprocess.STDOUT,
            )
        wait_until(lambda: "ready." in self.output(), seconds=60, what="the worker starting", log=log)

    def output(self) -> str:
        assert self.process.poll() is None or self.process.returncode == -signal.SIGKILL, self.log.read_text()
        return self.log.read_text(errors="replace")

    def kill(self) -> None:
        """SIGKILL, as the machine's OOM killer or a pulled plug would: no clean-up runs."""
        os.kill(self.process.pid, signal.SIGKILL)
        self.process.wait(timeout=10)

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.kill(self.process.pid, signal.SIGKILL)
                self.process.wait(timeout=10)
