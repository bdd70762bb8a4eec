"""Stopping what a test started: a process started in a session of its own (start_new_session) is
stopped with its whole group (gunicorn's workers with their arbiter), by its id, never by name."""

from __future__ import annotations

import os
import signal
import subprocess


def group_stop(process: subprocess.Popen[bytes]) -> None:
    """Stop `process`'s group: SIGTERM, then SIGKILL if it has not ended within 20 s."""
    if process.poll() is None:
        os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait(timeout=10)
