"""How far the turn's long work has come, for the organizer's pages and their polling script
(static/js/turn_progress.js reads `turn_progress` as JSON from turns.views.turn_status and reloads
the page when `state` changes): a requested phase waiting for a worker, a phase being resolved, or
the last failure in words (never a traceback: turns/services/phases.py)."""

from __future__ import annotations

from typing import Any

from turns.models import Turn


def turn_progress(turn: Turn, *, organizer: bool) -> dict[str, Any]:
    """`state` names where the work stands (the page reloads when it changes), `running` whether it
    is still under way, `message` what to show; the failure's words are the organizer's alone."""
    status = Turn.Status(turn.status)
    n = turn.number
    message = ""
    running = True
    if status == Turn.Status.ORDERS_OPEN and turn.orders_requested_at:
        message = f"Turn {n} is queued: a worker will resolve its orders in a moment."
    elif status == Turn.Status.RESOLVING_ORDERS:
        message = f"The orders of turn {n} are being resolved: movement, battles to post, scenarios to roll."
    elif status == Turn.Status.BATTLES and turn.aftermath_requested_at:
        message = f"The aftermath of turn {n} is queued: a worker will run it in a moment."
    elif status == Turn.Status.RESOLVING_AFTERMATH:
        message = f"The aftermath of turn {n} is being resolved: results, recovery, experience, the next turn."
    else:
        running = False
    failed = bool(turn.resolution_error) and not running
    return {
        "state": f"{status.value}:{int(bool(turn.orders_requested_at or turn.aftermath_requested_at))}:{int(failed)}",
        "status": status.value,
        "status_display": status.label,
        "running": running,
        "message": message,
        "failed": failed,
        "error": turn.resolution_error if failed and organizer else "",
    }
