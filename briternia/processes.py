"""Stopping a server we started (the load test's gunicorn, the stack tests'): a process started in a
session of its own (start_new_session) is stopped with its whole group (gunicorn's workers with their
arbiter), by its id, never by name."""

from __future__ import annotations

import os
import signal
import subprocess


def group_stop(process: subprocess.Popen[bytes], grace: float = 20) -> None:
    """Stop `process`'s group: SIGTERM, then SIGKILL if it has not ended within `grace` seconds."""
    if process.poll() is None:
        os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=grace)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait(timeout=10)
