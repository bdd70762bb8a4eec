"""How far the turn's long work has come, for the organizer's pages and their polling script
(static/js/turn_progress.js reads `turn_progress` as JSON from turns.views.turn_status and reloads
the page when `state` changes): a requested phase waiting for a worker, a phase being resolved, or
the last failure in words (never a traceback: turns/services/phases.py)."""

from __future__ import annotations

from typing import Any

from rulebook.campaign_schedule import moment_text
from turns.models import Turn


def turn_progress(turn: Turn, *, organizer: bool) -> dict[str, Any]:
    """`state` names where the work stands (the page reloads when it changes), `running` whether it
    is still under way, `message` what to show; the failure's words are the organizer's alone."""
    status = Turn.Status(turn.status)
    n = turn.number
    message = ""
    running = True
    if turn.phase_failed:
        # Failed, and said so: never "queued" while the sweep waits out its backoff (issue 37).
        running = False
        message = f"The {turn.phase_failed_name} of turn {n} FAILED and changed nothing." + (
            "" if organizer else " The organizer has been told, and runs it again once it is put right."
        )
    elif status == Turn.Status.ORDERS_OPEN and turn.orders_requested_at:
        message = f"Turn {n} is queued: a worker will resolve its orders in a moment."
    elif status == Turn.Status.RESOLVING_ORDERS:
        message = f"The orders of turn {n} are being resolved: movement, battles to post, scenarios to roll."
    elif status == Turn.Status.BATTLES and turn.aftermath_requested_at:
        message = f"The aftermath of turn {n} is queued: a worker will run it in a moment."
    elif status == Turn.Status.RESOLVING_AFTERMATH:
        message = f"The aftermath of turn {n} is being resolved: results, recovery, experience, the next turn."
    else:
        running = False
    failed = turn.phase_failed or (bool(turn.resolution_error) and not running)
    tz = turn.campaign.time_zone
    return {
        "state": (
            f"{status.value}:{int(bool(turn.orders_requested_at or turn.aftermath_requested_at))}:{int(failed)}"
            f":{turn.phase_failures}"
        ),
        "status": status.value,
        "status_display": status.label,
        "running": running,
        "message": message,
        "failed": failed,
        "error": turn.resolution_error if failed and organizer else "",
        # The organizer's: when it failed, how many tries in a row, when the sweep tries it again.
        "failed_at": moment_text(turn.phase_failed_at, tz) if failed and organizer and turn.phase_failed_at else "",
        "tries": turn.phase_failures if failed and organizer else 0,
        "retry_at": moment_text(turn.phase_retry_at, tz) if failed and organizer and turn.phase_retry_at else "",
    }
